"""The daily deals over HTTP and the WebSocket: the contract's shapes (DESIGN.md section 6), one
attempt per account and per browser, the guest's cookie, the reveal at midnight, matchpoints on
concrete results, and `cardplay daily verify` passing and failing on a tampered record."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from cardplay.dailyplan import PLANS, daily_commitment, daily_series, deal_value, matchpoints
from cardplay.fairness import verify
from cardplay.server.dailyrank import day_scores, scores_of

from .conftest import hello, make_client, recv

PASSWORD = "correct horse battery"
DAY0 = 1_796_601_600.0  # 2026-12-07 00:00:00 UTC
NOON = DAY0 + 12 * 3600


class Clock:
    def __init__(self, at: float) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with make_client(tmp_path, now=clock) as c:
        yield c


def person(client: TestClient, jar: httpx.Cookies) -> None:
    """Act as the person whose cookies are ``jar`` from now on."""
    client.cookies = jar


def sign_up(client: TestClient, name: str) -> None:
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


def play(client: TestClient, start: dict[str, Any],
         pick: Callable[[list[str], int], str] = lambda legal, n: legal[0],
         stop_after: int | None = None) -> dict[str, Any]:
    """Play an attempt through the WebSocket, ``pick`` choosing each move from the legal ones
    (and the count of the person's moves so far); the last state."""
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, start["table"], start["token"])
        mine = 0
        while True:
            view = state["view"]
            if state["is_over"]:
                return state
            deals = len(view["match"]["segment_results"])
            if stop_after is not None and deals >= stop_after:
                return state
            if view["to_move"] == 0 and view["legal_moves"]:
                ws.send_json({"type": "move", "move": pick(view["legal_moves"], mine),
                              "version": state["version"]})
                mine += 1
            while True:
                msg = recv(ws)
                if msg["type"] == "state":
                    state = msg
                    break
                assert msg["type"] != "error", msg


def test_contract_shapes_and_one_attempt(client: TestClient) -> None:
    r = client.get("/api/daily/sixty-six")
    assert r.status_code == 200
    info = r.json()
    assert {k: info[k] for k in ("game", "day", "deals", "level")} == {
        "game": "sixty-six", "day": "2026-12-07", "deals": 6, "level": "heuristic"}
    assert len(info["commitment"]) == 64
    assert "cardplay_browser" in r.headers["set-cookie"]
    start = client.post("/api/daily/sixty-six")
    assert start.status_code == 201, start.text
    body = start.json()
    assert set(body) >= {"table", "seat", "token"} and body["seat"] == 0
    again = client.post("/api/daily/sixty-six")
    assert again.status_code == 409 and again.json()["error"] == "already_played"
    # another game of the same day is another attempt
    assert client.post("/api/daily/twenty").status_code == 201
    assert client.get("/api/daily/no-such-game").status_code == 404
