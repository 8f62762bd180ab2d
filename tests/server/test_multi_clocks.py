"""Clocks with two `cardplay serve` processes on one PostgreSQL database and one Redis broker:
the process that holds a table's lease (and so runs its timers) is killed while a person's time
runs; the other takes the lease and goes on from the deadline stored with the last move, so the
person's time runs out when it was due, not a whole move after the takeover."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest
from websockets.sync.client import connect

from .test_multi import Serve, hello, lease_owner, until

SHORT = ("--clock-min-move", "1")


@pytest.fixture
def clocked_site(pg_url: str, redis_server: Any,
                 tmp_path: Any) -> Iterator[tuple[Serve, Serve, Any]]:
    prefix = redis_server.new_prefix()
    a = Serve(pg_url, redis_server.url(), prefix, str(tmp_path / "a"), extra=SHORT)
    b = Serve(pg_url, redis_server.url(), prefix, str(tmp_path / "b"), extra=SHORT)
    try:
        a.wait()
        b.wait()
        yield a, b, {"pg": pg_url, "redis": redis_server.url(), "prefix": prefix}
    finally:
        a.kill()
        b.kill()


def test_the_deadline_survives_a_lease_takeover(clocked_site: tuple[Serve, Serve, Any]) -> None:
    a, b, env = clocked_site
    t = httpx.post(f"{a.url}/api/tables", json={
        "game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}],
        "clock": {"move": 5, "reserve": 0}})
    assert t.status_code == 201, t.text
    table = t.json()
    other = httpx.post(f"{b.url}/api/tables/{table['table']}/join").json()
    with connect(a.ws_url) as wa, connect(b.ws_url) as wb:
        first = {id(wa): hello(wa, table["table"], table["token"]),
                 id(wb): hello(wb, table["table"], other["token"])}
        deadline_of = {}
        for ws in (wa, wb):
            running = first[id(ws)]
            if running["clock"]["to_move_deadline"] is None:
                running = until(ws, lambda s: s["clock"]["to_move_deadline"] is not None)
            deadline_of[id(ws)] = running["clock"]["to_move_deadline"]
        assert deadline_of[id(wa)] == deadline_of[id(wb)]  # one deadline, the stored one
        deadline = deadline_of[id(wa)]
        version = running["version"]
        owner = None
        for _ in range(100):
            owner = lease_owner(env, table["table"])
            if owner is not None:
                break
            time.sleep(0.05)
        assert owner is not None
        holder, survivor, ws = (a, b, wb) if owner.split(":")[1] == str(a.proc.pid) else \
            (b, a, wa)
        assert deadline - time.time() > 3.5  # killed with most of the move's time left
        holder.kill()
        timed_out = until(ws, lambda s: s["version"] == version + 1, timeout=30)
        came = time.time()
        assert timed_out["last"]["timeout"] is True
        assert timed_out["last"]["seat"] == running["view"]["to_move"]
        # at the stored deadline (the notice's trip aside), not 5 s after the takeover
        assert came == pytest.approx(deadline, abs=1.0)
        owner = lease_owner(env, table["table"])
        assert owner is not None and owner.split(":")[1] == str(survivor.proc.pid)
    with psycopg.connect(env["pg"]) as db:
        row = db.execute("SELECT clock FROM tables WHERE id = %s", (table["table"],)).fetchone()
    assert row is not None
    stored = json.loads(row[0])
    assert stored["timeouts"] == [{"n": version, "seat": running["view"]["to_move"]}]
    assert stored["strikes"][running["view"]["to_move"]] == 1
