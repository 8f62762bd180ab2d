"""Undo against bots on a site of two `cardplay serve` processes (PostgreSQL and Redis, real
processes): the person's process (which the table's lease follows) takes the moves back, the
store and a spectator on the other process see the table go back, and the same card played
again meets the same answers from the bots."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from websockets.sync.client import connect

from .test_multi import Serve, bot_delay, grace, hello, my_turn, recv, site, stored_moves, until

__all__ = ["bot_delay", "grace", "site"]  # the fixtures of test_multi.py, used here


def test_undo_through_the_persons_process(site: tuple[Serve, Serve, Any]) -> None:
    a, b, env = site
    t = httpx.post(f"{a.url}/api/tables", json={
        "game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
        "contribution": "c" * 32})
    assert t.status_code == 201, t.text
    table, token = t.json()["table"], t.json()["token"]
    with connect(b.ws_url) as ws, connect(a.ws_url) as watcher:
        watcher.send(json.dumps({"type": "watch", "table": table}))
        assert recv(watcher)["type"] == "welcome"
        recv(watcher)
        state = my_turn(ws, hello(ws, table, token))
        while True:
            v0 = state["version"]
            kept = stored_moves(env["pg"], table)
            card = state["view"]["legal_moves"][0]
            ws.send(json.dumps({"type": "move", "move": card, "version": v0}))
            state = until(ws, lambda s, v=v0: s["version"] > v and s["view"]["to_move"] == 0)
            if state["version"] > v0 + 1:
                break
            # our card won the bot's lead and we lead again: no answer of the bot's to take
            # back yet (the deal is drawn anew each run), so play on until the bot has answered
        answered = stored_moves(env["pg"], table)
        assert len(answered) == state["version"] > v0 + 1 and state["undo"] is True
        deadline = time.monotonic() + 10
        while True:  # the lease comes to the person's process within a few ticks
            ws.send(json.dumps({"type": "undo", "version": state["version"], "id": "u"}))
            msg = recv(ws)
            if msg["type"] == "state":
                break
            assert msg["code"] == "unavailable" and time.monotonic() < deadline, msg
            time.sleep(0.3)
        assert msg["reply_to"] == "u" and msg["version"] == v0
        assert stored_moves(env["pg"], table) == kept
        # the other process rebuilt its copy from the store
        seen = until(watcher, lambda s: s["version"] == v0)
        assert seen["view"]["history"] == msg["view"]["history"]
        ws.send(json.dumps({"type": "move", "move": card, "version": v0}))
        until(ws, lambda s: s["version"] == len(answered) and s["view"]["to_move"] == 0)
        assert stored_moves(env["pg"], table) == answered
