"""A claimed seat whose person never opens the table (absentees.py): after ``hello_wait`` the
cards are dealt without it, a bot plays it while its person is away, and they take it back
by opening the table; with nobody at the table, nothing is dealt."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplay.server.limits import Limits

from .conftest import hello, make_client, until

WAIT = 0.6  # hello_wait of these tests, seconds (the default is 60)
OWNER = "X-Seek-Owner"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path, grace=0.2, limits=Limits(hello_wait=WAIT)) as c:
        yield c


def paired_without_clock(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two people's seeks (two browsers) paired at a casual table without a clock: each
    seek as made (with its owner token)."""
    made = []
    for name in ("Here", "Gone"):
        r = client.post("/api/seeks", json={"game": "sixty-six", "name": name, "clock": None})
        assert r.status_code == 201, r.text
        client.cookies.clear()  # the next seek comes from another browser
        made.append(r.json())
    assert made[1]["status"] == "paired"
    return made[0], made[1]


def poll(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    r = client.get(f"/api/seeks/{made['seek']}", headers={OWNER: made["owner"]})
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def eventually(check: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


def test_a_paired_person_who_never_comes_does_not_hold_the_deal(client: TestClient) -> None:
    here, gone = paired_without_clock(client)
    seat = poll(client, here)
    table_id = seat["table"]
    table = client.app.state.hub.get(table_id)  # type: ignore[attr-defined]
    assert table.clock is None
    absent = 1 - seat["seat"]
    with client.websocket_connect("/ws") as ws:
        first = hello(ws, table_id, seat["token"])
        assert first["view"] is None  # waiting for the other person's part of the shuffle
        started = time.monotonic()
        # the cards come once the wait is over, not before (on main: never)
        assert eventually(lambda: not table.waiting, WAIT + 5)
        assert time.monotonic() - started >= WAIT * 0.8
        dealt = until(ws, lambda st: st["view"] is not None)
        assert table.stored.contributions[absent]["drawn"] is True
        assert table.stored.contributions[seat["seat"]] is not None
        # the absent seat is a bot's while its person is away (they were away past grace)
        info = {s["seat"]: s for s in dealt["seats"]}
        assert info[absent]["bot_playing"] is True and info[absent]["connected"] is False
        assert info[seat["seat"]]["bot_playing"] is False
        # the late person comes after all: their seat, their token, no bot any more
        late = poll(client, gone)
        assert late["table"] == table_id and late["seat"] == absent
        with client.websocket_connect("/ws") as ws2:
            back = hello(ws2, table_id, late["token"])
            assert back["seat"] == absent and back["view"] is not None
            assert not any(s["bot_playing"] for s in back["seats"])


def test_nothing_is_dealt_while_nobody_is_at_the_table(client: TestClient) -> None:
    here, _ = paired_without_clock(client)
    seat = poll(client, here)
    table = client.app.state.hub.get(seat["table"])  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, seat["table"], seat["token"])["view"] is None
    time.sleep(WAIT + 0.5)  # the wait ran out with nobody there
    assert table.waiting and table.stored.contributions[1 - seat["seat"]] is None
    # whoever comes back starts the wait again, and it ends in a deal
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, seat["table"], seat["token"])["view"] is None
        assert eventually(lambda: not table.waiting, WAIT + 5)
        assert until(ws, lambda st: st["view"] is not None)["view"]["hand"]


def test_the_wait_is_a_limit_of_its_own() -> None:
    assert Limits().hello_wait == 60.0
    with pytest.raises(ValueError, match="hello_wait"):
        Limits(hello_wait=0)
