"""Coaching never slows a game (issue 30, defect 4): with hints and reviews at full load
(``--max-coaching`` reviews running), the bot of another table answers as it does when idle,
since coaching has workers of its own. A real `cardplay serve` process with one bot worker, as
on the machine where the defect was seen; the p99 figures are benchmarks/coaching_load.py's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from .conftest import free_port


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    log = open(tmp_path / "serve.log", "wb")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardplay.cli", "serve", "--port", str(port),
         "--data", str(tmp_path / "data"), "--workers", "1", "--max-coaching", "2",
         "--bot-delay", "0"], stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "LANG": "C"})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                if httpx.get(f"{url}/api/games", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield url
    finally:
        proc.kill()
        proc.wait(timeout=10)
        log.close()


def recv(ws: ClientConnection, timeout: float = 180) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return msg


def my_turn(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    while state["view"]["to_move"] != state["seat"] and not state["is_over"]:
        msg = recv(ws)
        if msg["type"] == "state":
            state = msg
    return state


def seat_at(url: str, ws: ClientConnection, game: str, seed: int) -> dict[str, Any]:
    t = httpx.post(f"{url}/api/tables", json={
        "game": game, "seed": seed,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}]}).json()
    ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["token"]}))
    assert recv(ws)["type"] == "welcome"
    return recv(ws)


def move(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal move; the state after it (the mover's own)."""
    mid = f"m{state['version']}"
    ws.send(json.dumps({"type": "move", "move": state["view"]["legal_moves"][0],
                        "version": state["version"], "id": mid}))
    while True:
        msg = recv(ws)
        if msg.get("reply_to") == mid:
            assert msg["type"] == "state", msg
            return msg


def bot_answers(ws: ClientConnection, state: dict[str, Any], count: int) -> list[float]:
    """Seconds from each of ``count`` moves of the person's to the bot's answer."""
    took = []
    while len(took) < count:
        state = my_turn(ws, state)
        assert not state["is_over"]
        state = move(ws, state)
        sent = time.monotonic()
        if state["view"]["to_move"] == state["seat"]:
            continue  # the move gave the person the next one too: nothing to time
        while state["view"]["to_move"] != state["seat"] and not state["is_over"]:
            msg = recv(ws)
            if msg["type"] == "state":
                state = msg
        took.append(time.monotonic() - sent)
    return took


def test_a_bot_answers_while_reviews_fill_coaching(served: str) -> None:
    url = served
    ws_url = f"{url.replace('http', 'ws')}/ws"
    # each socket opened when used (a socket must say hello within --join-timeout)
    with ExitStack() as stack, connect(ws_url) as c1, connect(ws_url) as c2:
        # two people alone with bots finish a deal of Maltese Twenty and ask for its review:
        # each takes seconds of a worker, and together they are --max-coaching
        for ws, seed in ((c1, 11), (c2, 12)):
            state = seat_at(url, ws, "maltese-twenty", seed)
            while not state["view"]["match"]["results"]:  # until the first deal is over
                if state["view"]["to_move"] == state["seat"]:
                    state = move(ws, state)
                    continue
                msg = recv(ws)
                if msg["type"] == "state":
                    state = msg
            ws.send(json.dumps({"type": "review", "deal": 1, "id": "r"}))
        # coaching is full: a third request is refused at once (on main's code the first review
        # was over by now: the second table's bot had waited for it in the one worker)
        c3 = stack.enter_context(connect(ws_url))
        state3 = seat_at(url, c3, "two-ten-jack", 13)
        state3 = my_turn(c3, state3)
        c3.send(json.dumps({"type": "hint", "id": "h"}))
        refused = recv(c3)
        while refused.get("reply_to") != "h":
            refused = recv(c3)
        assert refused["type"] == "error" and refused["code"] == "busy", refused
        assert "the most it does at once" in refused["message"]
        # meanwhile another table's bot answers as usual: on main's code its worker was busy
        # with a review, and each answer waited for it
        player = stack.enter_context(connect(ws_url))
        state = seat_at(url, player, "sixty-six", 14)
        took = bot_answers(player, state, 4)
        assert max(took) < 2.0, took
        # both reviews come, whole (they were being worked out, not dropped)
        for ws in (c1, c2):
            while True:
                msg = recv(ws)
                if msg.get("reply_to") == "r":
                    assert msg["type"] == "review" and msg["decisions"], msg
                    break
