"""Two `cardplay serve` processes on one PostgreSQL database and one Redis broker, as real
processes on real servers (no mocks): a game with one person on each process (and a spectator),
one seat racing itself through both, the process that drives the bots killed mid-game (a
person's table, and a table of bots only that nobody watches), a reconnect to the other
process, a person away on one process seen by the other, and Redis stopped mid-game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest
import redis
from websockets.sync.client import ClientConnection, connect

from cardplay.server.signing import Signer

from .conftest import free_port


class Serve:
    """One `cardplay serve --database ... --broker ...` process."""

    def __init__(self, pg_url: str, redis_url: str, prefix: str, tmp: str,
                 bot_delay: float = 0.0, grace: float = 30.0, extra: tuple[str, ...] = ()
                 ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardplay.cli", "serve", "--port", str(self.port),
             "--data", tmp, "--database", pg_url, "--broker", redis_url,
             "--broker-prefix", prefix, "--lease-ttl", "1.5", "--workers", "1",
             "--bot-delay", str(bot_delay), "--grace", str(grace), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "LANG": "C"})

    def wait(self) -> Serve:
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise AssertionError(f"the server exited: {out}")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)


@pytest.fixture
def bot_delay() -> float:
    return 0.0


@pytest.fixture
def grace() -> float:
    return 30.0


@pytest.fixture
def site(pg_url: str, redis_server: Any, tmp_path: Any, bot_delay: float,
         grace: float) -> Iterator[tuple[Serve, Serve, Any]]:
    prefix = redis_server.new_prefix()
    # one site, one signing key (docs/deploy.md): records, and paired seats' tokens
    key = ("--signing-key", str(tmp_path / "site-key.pem"))
    Signer.open(tmp_path / "site-key.pem")  # made once, before both start
    a = Serve(pg_url, redis_server.url(), prefix, str(tmp_path / "a"), bot_delay, grace, key)
    b = Serve(pg_url, redis_server.url(), prefix, str(tmp_path / "b"), bot_delay, grace, key)
    try:
        a.wait()
        b.wait()
        yield a, b, {"pg": pg_url, "redis": redis_server.url(), "prefix": prefix}
    finally:
        a.kill()
        b.kill()


def recv(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return msg


def hello(ws: ClientConnection, table: str, token: str) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "table": table, "token": token}))
    assert recv(ws)["type"] == "welcome"
    state = recv(ws)
    assert state["type"] == "state" and state["full"] is True
    return state


def until(ws: ClientConnection, pred: Any, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the expected state never came"
        msg = recv(ws, timeout=left)
        if msg["type"] == "state" and pred(msg):
            return msg


def my_turn(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    """``state`` if its seat is to move (or the match is over), else the next state that is."""
    if state["view"]["to_move"] == state["seat"] or state["is_over"]:
        return state
    return until(ws, lambda s: s["view"]["to_move"] == s["seat"] or s["is_over"])


def reach(ws: ClientConnection, latest: dict[str, dict[str, Any]], name: str,
          version: int) -> dict[str, Any]:
    """The state of ``version`` on a socket whose latest state so far is ``latest[name]``."""
    if latest[name]["version"] < version:
        latest[name] = until(ws, lambda s: s["version"] >= version)
    assert latest[name]["version"] == version
    return latest[name]


def stored_moves(pg_url: str, table: str) -> list[tuple[int, int, str]]:
    with psycopg.connect(pg_url) as db:
        return [(n, s, m) for n, s, m in db.execute(
            "SELECT n, seat, move FROM moves WHERE table_id = %s ORDER BY n", (table,))]


def two_people(a: Serve, b: Serve, contribute: bool = True) -> tuple[str, dict[int, str]]:
    """A table of two people made on ``a``, its second seat taken through ``b``; with
    ``contribute`` each sends its part of the shuffle then (as the browser does), so it is
    dealt at once; without, each seat's first hello has its process draw one."""
    t = httpx.post(f"{a.url}/api/tables", json={
        "game": "sixty-six", "seed": 1, "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert t.status_code == 400  # a seed is the creator's only when nobody else sits
    t = httpx.post(f"{a.url}/api/tables", json={
        "game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}],
        **({"contribution": "a" * 32} if contribute else {})})
    assert t.status_code == 201, t.text
    table = t.json()
    other = httpx.post(f"{b.url}/api/tables/{table['table']}/join",
                       json={"contribution": "b" * 32} if contribute else None)
    assert other.status_code == 200, other.text
    assert other.json()["seat"] == 1
    return table["table"], {0: table["token"], 1: other.json()["token"]}


def test_one_person_on_each_process(site: tuple[Serve, Serve, Any]) -> None:
    a, b, env = site
    table, tokens = two_people(a, b, contribute=False)
    with connect(a.ws_url) as ws0, connect(b.ws_url) as ws1, connect(b.ws_url) as watcher:
        s0 = hello(ws0, table, tokens[0])
        assert s0["waiting"] is True  # seat 1's part is still to come: no card yet
        s1 = hello(ws1, table, tokens[1])  # its process draws it, and deals
        watcher.send(json.dumps({"type": "watch", "table": table}))
        assert recv(watcher)["type"] == "welcome"
        assert recv(watcher)["version"] == 0
        assert s0["version"] == s1["version"] == 0
        # each process knows the other's person is here (presence crosses processes)
        # ... and that the cards were dealt through the other (seat 1's part came there)
        s0 = until(ws0, lambda s: all(x["connected"] for x in s["seats"]) and
                   s["view"] is not None)
        assert s0["view"]["hand"] != s1["view"]["hand"]
        assert not set(s0["view"]["hand"]) & set(s1["view"]["hand"])
        played: list[tuple[int, str]] = []
        socks = {0: ws0, 1: ws1}
        states = {0: s0, 1: s1}
        for n in range(12):
            if states[0]["is_over"]:
                break
            mover = states[0]["view"]["to_move"]
            assert states[1]["view"]["to_move"] == mover
            move = states[mover]["view"]["legal_moves"][0]
            socks[mover].send(json.dumps({"type": "move", "move": move, "version": n,
                                          "id": n}))
            for seat in (0, 1):
                states[seat] = until(socks[seat], lambda s, n=n: s["version"] == n + 1)
                assert states[seat]["last"] == {"seat": mover, "move": move}
                assert states[seat]["seat"] == seat
                # each process built each seat's own view: no card of the other hand
                other = states[1 - seat]["view"]["hand"] if seat == 1 else None
                if other is not None:
                    assert not set(other) & set(states[seat]["view"]["hand"])
            assert states[mover].get("reply_to") == n
            # a spectator on b: every move, and no card of anyone's hand
            seen = until(watcher, lambda s, n=n: s["version"] == n + 1)
            assert seen["last"] == {"seat": mover, "move": move} and seen["seat"] is None
            assert seen["view"]["hand"] == [] and seen["view"]["legal_moves"] == []
            # what it is shown is what both seats are shown alike (a card one seat alone
            # knows is in no field of it)
            for key, value in seen["view"]["public"].items():
                assert states[0]["view"]["public"][key] == value
                assert states[1]["view"]["public"][key] == value
            played.append((mover, move))
    assert len(played) >= 8
    assert stored_moves(env["pg"], table) == [(i, s, m) for i, (s, m) in enumerate(played)]


def test_one_seat_races_itself_through_both_processes(site: tuple[Serve, Serve, Any]) -> None:
    a, b, env = site
    table, tokens = two_people(a, b)
    mover = httpx.get(f"{a.url}/api/tables/{table}").json()
    assert mover["version"] == 0
    with connect(a.ws_url) as probe:
        to_move = hello(probe, table, tokens[0])["view"]["to_move"]
    # the seat to move on both processes; the other person on a
    with connect(a.ws_url) as wa, connect(b.ws_url) as wb, connect(a.ws_url) as wo:
        mover = to_move
        state_a = hello(wa, table, tokens[mover])
        state_b = hello(wb, table, tokens[mover])
        latest = {"a": state_a, "b": state_b, "o": hello(wo, table, tokens[1 - mover])}
        wins = 0
        for _ in range(3):
            version = state_a["version"]
            assert state_b["version"] == version
            moves = state_a["view"]["legal_moves"]
            assert len(moves) >= 2
            go = threading.Barrier(2)
            answers: dict[str, dict[str, Any]] = {}

            def race(name: str, ws: ClientConnection, move: str, version: int = version,
                     go: threading.Barrier = go,
                     answers: dict[str, dict[str, Any]] = answers) -> None:
                go.wait()
                ws.send(json.dumps({"type": "move", "move": move, "version": version,
                                    "id": name}))
                while True:  # the answer to this move: its state, or an error
                    msg = recv(ws)
                    if msg["type"] == "state":
                        latest[name] = msg
                    if msg.get("reply_to") == name:
                        answers[name] = msg
                        return

            threads = [threading.Thread(target=race, args=("a", wa, moves[0])),
                       threading.Thread(target=race, args=("b", wb, moves[1]))]
            for th in threads:
                th.start()
            for th in threads:
                th.join(timeout=30)
            kinds = sorted(m["type"] for m in answers.values())
            assert kinds == ["error", "state"], answers
            refused = next(m for m in answers.values() if m["type"] == "error")
            assert refused["code"] == "stale"
            winner = next(n for n, m in answers.items() if m["type"] == "state")
            wins += 1
            won = moves[0] if winner == "a" else moves[1]
            rows = stored_moves(env["pg"], table)
            assert rows[-1] == (version, mover, won) and len(rows) == version + 1
            # every socket of the table converges on the winner's move: the winner's by its
            # answer, the loser's by the fresh state sent with the error, the other person's
            assert answers[winner]["version"] == version + 1
            loser_ws = wb if winner == "a" else wa
            loser = "b" if winner == "a" else "a"
            converged = [answers[winner], reach(loser_ws, latest, loser, version + 1),
                         reach(wo, latest, "o", version + 1)]
            for st in converged:
                assert st["last"] == {"seat": mover, "move": won}
            # the other person moves (through a) until the racer is to move again
            other = converged[2]
            while other["view"]["to_move"] != mover and not other["is_over"]:
                wo.send(json.dumps({"type": "move", "move": other["view"]["legal_moves"][0],
                                    "version": other["version"]}))
                other = reach(wo, latest, "o", other["version"] + 1)
            target = other["version"]
            state_a = reach(wa, latest, "a", target)
            state_b = reach(wb, latest, "b", target)
            if state_a["is_over"] or state_a["view"]["to_move"] != mover or \
                    len(state_a["view"]["legal_moves"]) < 2:
                break
        assert wins >= 1


def lease_owner(env: dict[str, Any], table: str) -> str | None:
    r = redis.Redis.from_url(env["redis"], decode_responses=True)
    try:
        owner = r.get(f"{env['prefix']}:lease:{table}")
        return owner if isinstance(owner, str) else None
    finally:
        r.close()


def wait_owner(env: dict[str, Any], table: str, proc: Serve, within: float = 10) -> None:
    deadline = time.monotonic() + within
    while True:
        owner = lease_owner(env, table)
        if owner is not None and owner.split(":")[1] == str(proc.proc.pid):
            return
        assert time.monotonic() < deadline, f"the lease is {owner}, not process {proc.proc.pid}'s"
        time.sleep(0.05)


# a pause before each bot move, so that the driver dies with the bot's move still due
@pytest.mark.parametrize("bot_delay", [0.5])
def test_the_bot_driver_killed_mid_game_is_taken_over(site: tuple[Serve, Serve, Any]) -> None:
    a, b, env = site
    t = httpx.post(f"{a.url}/api/tables", json={
        "game": "sixty-six", "seed": 21,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}).json()
    table = t["table"]
    wait_owner(env, table, a)  # the creating process drives the new table's bots
    seen: list[tuple[int, int, str]] = []  # every move a state acknowledged

    def note(state: dict[str, Any]) -> None:
        if state.get("last") is not None:
            entry = (state["version"] - 1, state["last"]["seat"], state["last"]["move"])
            if entry not in seen:
                seen.append(entry)

    with connect(b.ws_url) as ws:
        state = hello(ws, table, t["token"])
        note(state)
        # the lease follows the person: b drives now, so the bot answers from b itself
        wait_owner(env, table, b)
        mine = 0
        # a few moves, up to one after which the bot is to move
        while mine < 3 or state["view"]["to_move"] != 1:
            assert mine < 40 and not state["is_over"]
            state = my_turn(ws, state)
            note(state)
            ws.send(json.dumps({"type": "move", "move": state["view"]["legal_moves"][0],
                                "version": state["version"]}))
            state = until(ws, lambda s, v=state["version"]: s["version"] == v + 1)
            note(state)
            mine += 1
        killed_at = state["version"]
        before = state
        b.kill()  # the driver, with the bot's move due 0.5 s from now
        killed = time.monotonic()
    # the person reconnects to a, which resumes at the same move, takes the lease over once
    # it expires, and plays the bot's move
    with connect(a.ws_url) as ws:
        again = hello(ws, table, t["token"])
        assert again["version"] == killed_at and again["view"] == before["view"]
        state = until(ws, lambda s: s["version"] == killed_at + 1, timeout=30)
        took = time.monotonic() - killed
        note(state)
        assert state["last"]["seat"] == 1
        wait_owner(env, table, a, within=1)
        assert took < 1.5 + 0.5 + 3.0  # the lease time, the bot's pause, a margin
        for _ in range(3):
            state = my_turn(ws, state)
            note(state)
            if state["is_over"]:
                break
            ws.send(json.dumps({"type": "move", "move": state["view"]["legal_moves"][0],
                                "version": state["version"]}))
            state = until(ws, lambda s, v=state["version"]: s["version"] == v + 1)
            note(state)
        final = state["version"]
    rows = stored_moves(env["pg"], table)
    assert len(rows) >= final > killed_at
    # no acknowledged move is lost: each one is the stored move of its number
    assert len(seen) >= 8 and all(rows[n] == (n, s, m) for n, s, m in seen)


def test_a_reconnect_to_the_other_process_resumes(site: tuple[Serve, Serve, Any]) -> None:
    a, b, env = site
    t = httpx.post(f"{a.url}/api/tables", json={
        "game": "sixty-six", "seed": 8,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}).json()
    with connect(a.ws_url) as ws:
        state = hello(ws, t["table"], t["token"])
        for _ in range(4):
            state = my_turn(ws, state)
            ws.send(json.dumps({"type": "move", "move": state["view"]["legal_moves"][0],
                                "version": state["version"]}))
            state = until(ws, lambda s, v=state["version"]: s["version"] == v + 1)
        state = my_turn(ws, state)
    with connect(b.ws_url) as ws:
        again = hello(ws, t["table"], t["token"])
        assert again["version"] == state["version"] >= 4
        assert again["view"] == state["view"]
        ws.send(json.dumps({"type": "move", "move": again["view"]["legal_moves"][0],
                            "version": again["version"], "id": "m"}))
        after = until(ws, lambda s: s.get("reply_to") == "m")
        assert after["version"] == again["version"] + 1
    rows = stored_moves(env["pg"], t["table"])
    assert rows[again["version"]][1:] == (0, again["view"]["legal_moves"][0])


@pytest.mark.parametrize("bot_delay", [0.3])
def test_a_table_of_bots_only_is_taken_over_without_clients(
        site: tuple[Serve, Serve, Any]) -> None:
    """Nobody is connected to a table of bots only, so no other process has it in memory: the
    other process's tick finds it in the database, wins its lease and plays on."""
    a, b, env = site
    r = httpx.post(f"{a.url}/api/tables", json={
        "game": "sixty-six", "seed": 5, "options": {"match_target": 7},
        "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]})
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    deadline = time.monotonic() + 10
    while (owner := lease_owner(env, table)) is None or len(stored_moves(env["pg"], table)) < 2:
        assert time.monotonic() < deadline, "the table's bots did not start"
        time.sleep(0.05)
    driver, other = (a, b) if owner.split(":")[1] == str(a.proc.pid) else (b, a)
    driver.kill()
    at_kill = stored_moves(env["pg"], table)
    deadline = time.monotonic() + 15
    while len(rows := stored_moves(env["pg"], table)) < len(at_kill) + 3:
        assert time.monotonic() < deadline, "nobody took the table of bots over"
        time.sleep(0.1)
    assert rows[:len(at_kill)] == at_kill  # what was stored stays, in order
    assert [n for n, _, _ in rows] == list(range(len(rows)))
    owner = lease_owner(env, table)
    assert owner is not None and owner.split(":")[1] == str(other.proc.pid)


@pytest.mark.parametrize("grace", [0.5])
def test_an_away_person_is_seen_across_processes(site: tuple[Serve, Serve, Any]) -> None:
    """A person who leaves process b is away for process a too: after the grace period a bot
    holds the seat (whichever process drives the table), and gives it back when the person
    comes back through a."""
    a, b, env = site
    table, tokens = two_people(a, b)
    with connect(a.ws_url) as ws0:
        s0 = hello(ws0, table, tokens[0])
        with connect(b.ws_url) as ws1:
            hello(ws1, table, tokens[1])
            s0 = until(ws0, lambda s: s["seats"][1]["connected"])
            assert not s0["seats"][1]["bot_playing"]
        # seat 1 left b: a hears it, and after the grace period a bot plays that seat
        s0 = until(ws0, lambda s: not s["seats"][1]["connected"])
        bot_moves = 0
        deadline = time.monotonic() + 20
        while bot_moves < 2:
            assert time.monotonic() < deadline and not s0["is_over"]
            if s0["view"]["to_move"] == 0:
                ws0.send(json.dumps({"type": "move", "move": s0["view"]["legal_moves"][0],
                                     "version": s0["version"]}))
                s0 = until(ws0, lambda s, v=s0["version"]: s["version"] == v + 1)
                continue
            s0 = until(ws0, lambda s, v=s0["version"]: s["version"] == v + 1)
            assert s0["last"]["seat"] == 1 and s0["seats"][1]["bot_playing"]
            bot_moves += 1
        # the person comes back through the other process: the bot lets go of the seat
        with connect(a.ws_url) as back:
            hello(back, table, tokens[1])
            s0 = until(ws0, lambda s: s["seats"][1]["connected"])
            assert not s0["seats"][1]["bot_playing"]
    rows = stored_moves(env["pg"], table)
    assert [s for _, s, _ in rows].count(1) >= bot_moves


def test_with_redis_gone_moves_are_stored_and_resync_finds_them(pg_url: str,
                                                               tmp_path: Any) -> None:
    """Redis of its own, stopped mid-game: moves are still stored and acknowledged, a resync on
    the other process reads them from the database; Redis back, notices flow again."""
    from .services import Redis

    broker = Redis().start()
    a = Serve(pg_url, broker.url(), "gone", str(tmp_path / "a"))
    b = Serve(pg_url, broker.url(), "gone", str(tmp_path / "b"))
    try:
        a.wait()
        b.wait()
        table, tokens = two_people(a, b)
        with connect(a.ws_url) as ws0, connect(b.ws_url) as ws1:
            s0 = hello(ws0, table, tokens[0])
            s1 = hello(ws1, table, tokens[1])
            mover = s0["view"]["to_move"]
            socks, states = {0: ws0, 1: ws1}, {0: s0, 1: s1}
            assert broker.proc is not None
            broker.proc.kill()
            broker.proc.wait(timeout=10)
            move = states[mover]["view"]["legal_moves"][0]
            socks[mover].send(json.dumps({"type": "move", "move": move, "version": 0,
                                          "id": 1}))
            ack = until(socks[mover], lambda s: s.get("reply_to") == 1)
            assert ack["version"] == 1
            assert stored_moves(pg_url, table) == [(0, mover, move)]
            waiting = socks[1 - mover]
            waiting.send(json.dumps({"type": "resync", "id": 2}))
            again = until(waiting, lambda s: s.get("reply_to") == 2)
            assert again["version"] == 1 and again["last"] == {"seat": mover, "move": move}
            # Redis again, on the same port: the processes subscribe again by themselves
            broker.start()
            time.sleep(2.0)
            nxt = again["view"]["to_move"]
            ws_next = socks[nxt]
            st = again if nxt != mover else ack
            ws_next.send(json.dumps({"type": "move", "move": st["view"]["legal_moves"][0],
                                     "version": 1}))
            for ws in (ws0, ws1):
                assert until(ws, lambda s: s["version"] == 2, timeout=10)["version"] == 2
    finally:
        a.kill()
        b.kill()
        broker.stop()
