"""PostgreSQL killed mid-game under two `cardplay serve` processes (issue 30, defect 2), and a
write whose commit is in doubt: no socket dropped without an error frame, nothing changed by a
move the database did not take, HTTP answering during the outage, and every table resuming from
the database afterwards with no gap in its move numbers and no acknowledged move lost."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from cardplay.server.storage import StoreUnavailable

from .test_multi import Serve, recv, stored_moves, until


@pytest.fixture
def own_pg() -> Iterator[Any]:
    """A PostgreSQL of this test's own, since it is killed (the session's serves others)."""
    from .services import Postgres

    server = Postgres().start()
    yield server
    server.stop()


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks


def answer(ws: ClientConnection, mid: str, timeout: float = 10) -> dict[str, Any]:
    """The server's answer to the message ``mid``: an error or the state that follows a move
    (states for others in between are skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no answer to {mid}"
        msg = recv(ws, timeout=left)
        if msg.get("reply_to") == mid:
            return msg


def alive(ws: ClientConnection) -> None:
    """The socket is still open and served: a ping gets its pong."""
    ws.send(json.dumps({"type": "ping", "id": "alive"}))
    assert answer(ws, "alive")["type"] == "pong"


def hello_when_back(stack: ExitStack, url: str, table: str, token: str,
                    within: float = 30) -> tuple[ClientConnection, dict[str, Any]]:
    """A seat's socket once the server can serve it again (during the outage and just after
    it, hello is answered with ``unavailable``: each such answer is checked)."""
    deadline = time.monotonic() + within
    while True:
        ws = stack.enter_context(connect(url))
        ws.send(json.dumps({"type": "hello", "table": table, "token": token, "id": "h"}))
        first = answer(ws, "h")
        if first["type"] == "welcome":
            state = recv(ws)
            assert state["type"] == "state" and state["full"] is True
            return ws, state
        assert first["type"] == "error" and first["code"] == "unavailable", first
        ws.close()
        assert time.monotonic() < deadline, "the server never served the table again"
        time.sleep(0.3)


@pytest.mark.parametrize("game", ["two-ten-jack"])
def test_postgres_killed_mid_move_changes_nothing_and_every_table_resumes(
        own_pg: Any, redis_server: Any, tmp_path: Path, game: str) -> None:
    pg_url = own_pg.new_database()
    prefix = redis_server.new_prefix()
    p1 = Serve(pg_url, redis_server.url(), prefix, str(tmp_path / "p1"), bot_delay=0.05)
    p2 = Serve(pg_url, redis_server.url(), prefix, str(tmp_path / "p2"), bot_delay=0.05)
    try:
        p1.wait()
        p2.wait()
        made = httpx.post(f"{p1.url}/api/tables", json={
            "game": game, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        table, tokens = made["table"], {0: made["token"]}
        tokens[1] = httpx.post(f"{p1.url}/api/tables/{table}/join").json()["token"]
        # a table of bots only in play too: its bots stop for the outage and go on after it
        bots = httpx.post(f"{p1.url}/api/tables", json={
            "game": "sixty-six", "options": {"match_target": 100},
            "seats": [{"kind": "bot", "level": "random"}] * 2}).json()["table"]
        acked: list[tuple[int, int, str]] = []  # (n, seat, move) of every acknowledged move

        def play(socks: dict[int, ClientConnection], states: dict[int, dict[str, Any]],
                 count: int) -> dict[int, dict[str, Any]]:
            """``count`` moves, each by the seat to move; each seat's state after them."""
            for _ in range(count):
                seat = states[0]["view"]["to_move"]
                version = states[0]["version"]
                move = states[seat]["view"]["legal_moves"][0]
                mid = f"m{version}"
                socks[seat].send(json.dumps({"type": "move", "move": move,
                                             "version": version, "id": mid}))
                ack = answer(socks[seat], mid)
                assert ack["type"] == "state" and ack["version"] == version + 1, ack
                acked.append((version, seat, move))
                states = {seat: ack, 1 - seat: until(
                    socks[1 - seat], lambda s, v=version + 1: s["version"] == v)}
            return states

        stack = ExitStack()
        ws0, s0 = hello_when_back(stack, p1.ws_url, table, tokens[0])
        ws1, s1 = hello_when_back(stack, p1.ws_url, table, tokens[1])
        # the cards are dealt once seat 1's part of the shuffle came with its hello
        assert s0["waiting"] is True and s0["view"] is None
        s0 = until(ws0, lambda s: s["view"] is not None)
        assert s1["view"] is not None and s0["version"] == s1["version"] == 0
        states = play({0: ws0, 1: ws1}, {0: s0, 1: s1}, 5)
        assert states[0]["version"] == 5
        bots_before = len(stored_moves(pg_url, bots))

        own_pg.kill()
        killed = time.monotonic()
        # a legal move at version 5 during the outage: a clear error, and nothing changed
        seat = states[0]["view"]["to_move"]
        mover, legal = {0: ws0, 1: ws1}[seat], states[seat]["view"]["legal_moves"]
        mover.send(json.dumps({"type": "move", "move": legal[0], "version": 5, "id": "out"}))
        refused = answer(mover, "out")
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused
        assert "database" in refused["message"]
        alive(mover)
        again = {"type": "move", "move": legal[0], "version": 5, "id": "again"}
        mover.send(json.dumps(again))  # the version is still 5: the move was undone
        assert answer(mover, "again")["code"] == "unavailable"
        # hello and watch on either process: an error frame, and the socket stays open
        for url in (p1.ws_url, p2.ws_url):
            with connect(url) as ws:
                ws.send(json.dumps({"type": "hello", "table": table, "token": tokens[1],
                                    "id": "h"}))
                got = answer(ws, "h")
                assert got["type"] == "error" and got["code"] == "unavailable", got
            with connect(url) as ws:
                ws.send(json.dumps({"type": "watch", "table": table, "id": "w"}))
                got = answer(ws, "w")
                assert got["type"] == "error" and got["code"] == "unavailable", got
                alive(ws)
        # HTTP answers within a second: the lobby from memory, creating a table 503
        for server in (p1, p2):
            t0 = time.monotonic()
            lobby = httpx.get(f"{server.url}/api/tables", timeout=5)
            assert lobby.status_code == 200 and time.monotonic() - t0 < 1.0
            assert lobby.json()["partial"] is True
            t0 = time.monotonic()
            made = httpx.post(f"{server.url}/api/tables", timeout=5, json={
                "game": game, "seats": [{"kind": "human"}, {"kind": "human"}]})
            assert time.monotonic() - t0 < 1.0
            assert made.status_code == 503 and made.json()["error"] == "unavailable"
            assert "database" in made.json()["message"]
        assert p1.proc.poll() is None and p2.proc.poll() is None
        # no process spins while the database is down
        time.sleep(max(0.0, 3.0 - (time.monotonic() - killed)))
        before = {p.proc.pid: cpu_seconds(p.proc.pid) for p in (p1, p2)}
        time.sleep(2.0)
        for pid, cpu in before.items():
            assert cpu_seconds(pid) - cpu < 0.5, f"process {pid} busy during the outage"
        stack.close()

        own_pg.restart()
        # both seats back on P1: the table is where the database has it, and plays on
        stack = ExitStack()
        ws0, s0 = hello_when_back(stack, p1.ws_url, table, tokens[0])
        ws1, s1 = hello_when_back(stack, p1.ws_url, table, tokens[1])
        assert s0["version"] == s1["version"] == 5
        play({0: ws0, 1: ws1}, {0: s0, 1: s1}, 4)
        stack.close()
        rows = stored_moves(pg_url, table)
        assert [n for n, _, _ in rows] == list(range(9))  # no gap
        assert rows == acked  # every acknowledged move, and nothing else
        # P2 serves the table too (on main it dropped every hello: a move did not replay)
        with ExitStack() as stack:
            _, s2 = hello_when_back(stack, p2.ws_url, table, tokens[1])
        assert s2["version"] == 9
        # the bots went on after the outage, with no gap either
        deadline = time.monotonic() + 20
        while len(rows := stored_moves(pg_url, bots)) < bots_before + 5:
            assert time.monotonic() < deadline, "the bots did not go on after the outage"
            time.sleep(0.2)
        assert [n for n, _, _ in rows] == list(range(len(rows)))
    finally:
        p1.kill()
        p2.kill()


class Flaky:
    """A store in front of the real one that can fail as a database outage does: ``down``
    refuses every call; ``commit_then_fail`` lets the next move commit, then reports the
    connection lost (the outcome unknown to the server) and goes down."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.down = False
        self.commit_then_fail = False

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.real, name)
        if self.down and callable(attr):
            def refuse(*args: Any, **kwargs: Any) -> Any:
                raise StoreUnavailable("the database is down (a test)")
            return refuse
        return attr

    def add_move(self, *args: Any, **kwargs: Any) -> None:
        if self.down:
            raise StoreUnavailable("the database is down (a test)")
        self.real.add_move(*args, **kwargs)
        if self.commit_then_fail:
            self.commit_then_fail, self.down = False, True
            raise StoreUnavailable("the connection was lost (a test)", ambiguous=True)


def test_a_move_whose_commit_is_in_doubt_is_settled_from_the_store_first(
        tmp_path: Path) -> None:
    from . import conftest as c

    with c.make_client(tmp_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        made = c.create(client, "two-ten-jack", [{"kind": "human"}, {"kind": "human"}])
        table = made["table"]
        other = client.post(f"/api/tables/{table}/join").json()["token"]
        with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
            socks = {0: w0, 1: w1}
            states = {0: c.hello(w0, table, made["token"]), 1: c.hello(w1, table, other)}
            # seat 1's hello brought the last part of the shuffle: seat 0 is sent the deal
            assert states[0]["waiting"] is True and states[1]["view"] is not None
            states[0] = c.until(w0, lambda m: m["view"] is not None)

            def mover() -> tuple[Any, dict[str, Any]]:
                seat = states[0]["view"]["to_move"]
                return socks[seat], states[seat]

            def reply(ws: Any, mid: str) -> dict[str, Any]:
                for _ in range(50):
                    msg = c.recv(ws)
                    if msg.get("reply_to") == mid:
                        return msg
                raise AssertionError(f"no answer to {mid}")

            for n in range(2):
                ws, st = mover()
                ws.send_json({"type": "move", "move": st["view"]["legal_moves"][0],
                              "version": n, "id": n})
                assert reply(ws, n)["version"] == n + 1
                states = {s: c.until(socks[s], lambda m, v=n + 1: m["version"] == v)
                          if socks[s] is not ws else hub.tables[table].state(s, True)
                          for s in (0, 1)}
            flaky = Flaky(hub.storage)
            hub.storage = flaky
            flaky.commit_then_fail = True
            ws, st = mover()
            doubtful = st["view"]["legal_moves"][0]
            ws.send_json({"type": "move", "move": doubtful, "version": 2, "id": "x"})
            refused = reply(ws, "x")
            assert refused["type"] == "error" and refused["code"] == "unavailable"
            assert "may or may not" in refused["message"]
            # the move committed, but the server cannot know: memory stays at 2, and while the
            # store is down the table takes no move (none can be stored as a second move 2)
            assert hub.tables[table].version == 2 and flaky.real.move_count(table) == 3
            ws.send_json({"type": "move", "move": st["view"]["legal_moves"][-1], "version": 2,
                          "id": "y"})
            assert reply(ws, "y")["code"] == "unavailable"
            ws.send_json({"type": "resync", "id": "r"})
            assert reply(ws, "r")["code"] == "unavailable"
            assert hub.tables[table].version == 2
            # the store is back: the table reads it before it takes a move, and finds the
            # doubtful move kept; a move against version 2 is stale, the state shows it
            flaky.down = False
            ws.send_json({"type": "move", "move": st["view"]["legal_moves"][-1], "version": 2,
                          "id": "z"})
            late = reply(ws, "z")
            assert late["type"] == "error" and late["code"] == "stale", late
            now = c.until(ws, lambda m: m["version"] == 3)
            assert now["last"]["move"] == doubtful
            rows = flaky.real.moves_after(table, 0)
            assert len(rows) == 3 and rows[2][1] == doubtful
            assert hub.tables[table].version == 3


def test_the_seeks_store_meets_an_outage_as_the_tables_store_does() -> None:
    """A seek's call while PostgreSQL is unreachable raises StoreUnavailable (the app answers
    503 ``unavailable``), not the driver's error (a 500)."""
    import psycopg

    from cardplay.server.seekstore import PostgresSeeks

    class Lost:
        closed = True  # the connection died: the next call opens another

    seeks = PostgresSeeks.__new__(PostgresSeeks)
    seeks._psycopg = psycopg
    seeks.url = "postgresql://cardplay@127.0.0.1:1/nothing"  # nothing listens on port 1
    seeks._conn = Lost()
    with pytest.raises(StoreUnavailable, match="seeks' database is not reachable"):
        seeks.run("SELECT 1")
    with pytest.raises(StoreUnavailable), seeks.locked("casual:sixty-six", 0.0):
        pass
