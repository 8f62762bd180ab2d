"""Redis outages against real servers: two `cardplay serve` processes on one PostgreSQL and one
Redis of the test's own, a game with a person on each process and a person playing a bot, and
redis-server killed with SIGKILL for 3 s and for 30 s, then started again on the same port.

During the outage every process answers HTTP within a second (health says the broker is down),
the people still play (each move stored and acknowledged, the other process reads it from the
database) and no bot moves once its lease has expired; after it, notices flow again, the bot's
lease is taken again and it plays, no process uses the CPU while idle, and the database holds
every acknowledged move with no gap in the numbers. A process stopped with SIGTERM during an
outage exits within seconds, and one stopped with Redis up gives its leases back at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
from websockets.sync.client import ClientConnection, connect

from .conftest import free_port
from .services import Redis
from .test_multi import Serve, hello, recv, stored_moves, two_people, until

# What "keeps answering" means here: the defect was a process that never answered again. The
# 1-second figure of the issue is measured and printed (-s, and benchmarks/chaos.py); a loaded
# 2-core CI machine has answered in 1.5 s with Redis up, so the bound leaves room for that.
ANSWER_LIMIT = 3.0
TTL = 1.5  # --lease-ttl of the processes (the default is 3)


class Node(Serve):
    """One `cardplay serve --database ... --broker ...` process, with the lease time and the
    bots' pause of the test's choosing (started here: Serve's own start has them fixed)."""

    def __init__(self, pg_url: str, redis_url: str, prefix: str, tmp: str,
                 ttl: float = TTL, grace: float = 60.0, bot_delay: float = 0.0) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardplay.cli", "serve", "--port", str(self.port),
             "--data", tmp, "--database", pg_url, "--broker", redis_url,
             "--broker-prefix", prefix, "--lease-ttl", str(ttl), "--workers", "1",
             "--bot-delay", str(bot_delay), "--grace", str(grace)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "LANG": "C"})


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_cpu(node: Node, seconds: float = 2.0) -> float:
    """The share of a core the process used over ``seconds`` (read twice, that far apart)."""
    before = cpu_seconds(node.proc.pid)
    time.sleep(seconds)
    return (cpu_seconds(node.proc.pid) - before) / seconds


def timed_get(node: Node, path: str) -> tuple[httpx.Response, float]:
    """A GET that must be answered within a second: (the answer, how long it took)."""
    start = time.monotonic()
    try:
        r = httpx.get(f"{node.url}{path}", timeout=ANSWER_LIMIT)
    except httpx.HTTPError as e:
        raise AssertionError(f"{path} on port {node.port}: no answer within "
                             f"{ANSWER_LIMIT} s ({e!r})") from e
    return r, time.monotonic() - start


def health(node: Node) -> tuple[int, dict[str, Any]]:
    r, took = timed_get(node, "/api/health")
    assert took < ANSWER_LIMIT
    body: dict[str, Any] = r.json()
    return r.status_code, body


class Play:
    """Two people of one table, one socket each (on different processes), and every move a
    state acknowledged (``seen``: number -> (seat, move))."""

    def __init__(self, socks: dict[int, ClientConnection], states: dict[int, dict[str, Any]]):
        self.socks = socks
        self.states = states
        self.seen: dict[int, tuple[int, str]] = {}

    def move(self, timeout: float = 10) -> None:
        """The seat to move plays its first legal move; both sockets must see it within
        ``timeout`` seconds, the mover's as the answer to its move."""
        version = self.states[0]["version"]
        assert self.states[1]["version"] == version and not self.states[0]["is_over"]
        mover = self.states[0]["view"]["to_move"]
        move = self.states[mover]["view"]["legal_moves"][0]
        self.socks[mover].send(json.dumps({"type": "move", "move": move, "version": version,
                                           "id": f"m{version}"}))
        ack = until(self.socks[mover], lambda s: s.get("reply_to") == f"m{version}", timeout)
        assert ack["version"] == version + 1 and ack["last"] == {"seat": mover, "move": move}
        self.seen[version] = (mover, move)
        self.states[mover] = ack
        other = 1 - mover
        self.states[other] = until(self.socks[other],
                                   lambda s: s["version"] == version + 1, timeout)
        assert self.states[other]["last"] == {"seat": mover, "move": move}


def bot_game(node: Node) -> tuple[str, str]:
    r = httpx.post(f"{node.url}/api/tables", json={
        "game": "sixty-six", "seed": 3,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})
    assert r.status_code == 201, r.text
    return r.json()["table"], r.json()["token"]


def person_plays(ws: ClientConnection, state: dict[str, Any],
                 timeout: float = 10) -> dict[str, Any]:
    """The person (seat 0) plays once it is their turn; the state that answers their move."""
    if state["view"]["to_move"] != 0:
        state = until(ws, lambda s: s["view"]["to_move"] == 0 or s["is_over"], timeout)
    assert not state["is_over"]
    version = state["version"]
    ws.send(json.dumps({"type": "move", "move": state["view"]["legal_moves"][0],
                        "version": version, "id": f"p{version}"}))
    return until(ws, lambda s: s.get("reply_to") == f"p{version}", timeout)


def up_to_the_bot(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    """The person plays until the bot (seat 1) is to move (a trick's winner leads next, so
    that may take more than one move); that state."""
    for _ in range(12):
        state = person_plays(ws, state)
        if state["view"]["to_move"] == 1:
            return state
    raise AssertionError("the bot was never to move")


@pytest.fixture
def outage_site(pg_url: str, tmp_path: Any) -> Iterator[tuple[Node, Node, Redis, str]]:
    """Two processes on a Redis of the test's own (it is killed and started again)."""
    broker = Redis().start()
    nodes = [Node(pg_url, broker.url(), "outage", str(tmp_path / name)) for name in "ab"]
    try:
        for node in nodes:
            node.wait()
        yield nodes[0], nodes[1], broker, pg_url
    finally:
        for node in nodes:
            node.kill()
        broker.stop()


def kill_redis(broker: Redis) -> None:
    assert broker.proc is not None
    broker.proc.send_signal(signal.SIGKILL)
    broker.proc.wait(timeout=10)


@pytest.mark.parametrize("seconds", [3, 30])
def test_a_redis_outage_is_survived(outage_site: tuple[Node, Node, Redis, str],
                                    seconds: int) -> None:
    a, b, broker, pg = outage_site
    table, tokens = two_people(a, b)
    solo, solo_token = bot_game(b)
    # both people of this one play on a; b has it in memory (the join went through b) with
    # no client: only notices, or catching up once Redis is back, tell b of its moves
    quiet, quiet_tokens = two_people(a, b)
    assert health(a) == (200, {"status": "ok", "database": "ok", "broker": "ok"})
    with connect(a.ws_url) as ws0, connect(b.ws_url) as ws1, connect(b.ws_url) as ws2, \
            connect(a.ws_url) as q0, connect(a.ws_url) as q1:
        play = Play({0: ws0, 1: ws1}, {0: hello(ws0, table, tokens[0]),
                                        1: hello(ws1, table, tokens[1])})
        quiet_play = Play({0: q0, 1: q1}, {0: hello(q0, quiet, quiet_tokens[0]),
                                            1: hello(q1, quiet, quiet_tokens[1])})
        for _ in range(4):
            play.move()
        mine = up_to_the_bot(ws2, hello(ws2, solo, solo_token))
        # the bot plays (b drives its table)
        mine = until(ws2, lambda s, v=mine["version"]: s["version"] > v)
        assert mine["last"]["seat"] == 1

        kill_redis(broker)
        killed = time.monotonic()
        # within a second of the kill each process has noticed (its subscription failed)
        # and says so, and HTTP is answered within a second throughout
        deadline = killed + 5
        while any(health(n)[1]["broker"] != "down" for n in (a, b)):
            assert time.monotonic() < deadline, "health never said the broker is down"
            time.sleep(0.2)
        assert health(b) == (503, {"status": "down", "database": "ok", "broker": "down"})
        # once the bot's lease has expired, it stops: the person's moves are stored and
        # acknowledged, and no bot move follows while Redis is away
        time.sleep(max(0.0, killed + TTL + 0.2 - time.monotonic()))
        mine = up_to_the_bot(ws2, mine)
        waiting_at = mine["version"]
        moves_during = 0
        slowest = 0.0
        while time.monotonic() < killed + seconds:
            for node in (a, b):
                for path in ("/api/games", "/api/tables", f"/api/tables/{table}"):
                    r, took = timed_get(node, path)
                    assert r.status_code == 200 and took < ANSWER_LIMIT, (path, r.status_code, took)
                    slowest = max(slowest, took)
            # the people play on: the other process reads each move from the database
            if moves_during < 3:
                play.move()
                quiet_play.move()
                moves_during += 1
            time.sleep(0.5)
        assert moves_during >= 1
        assert len(stored_moves(pg, solo)) == waiting_at  # no bot move during the outage
        broker.start()
        back = time.monotonic()

        # both processes subscribe again by themselves (backoff at most the lease time)
        while any(health(n)[0] != 200 for n in (a, b)):
            assert time.monotonic() < back + TTL + 3, "a process never found Redis again"
            time.sleep(0.2)
        recovered = time.monotonic() - back
        assert health(a) == (200, {"status": "ok", "database": "ok", "broker": "ok"})
        # b read what it missed from the database as it subscribed again
        quiet_version = quiet_play.states[0]["version"]
        assert quiet_version == moves_during
        assert httpx.get(f"{b.url}/api/tables/{quiet}").json()["version"] == quiet_version
        # notices flow again between the processes (moves seen within 5 s), and the bot's
        # lease is taken again: it answers the move its person made during the outage
        for _ in range(4):
            play.move(timeout=5)
        mine = until(ws2, lambda s: s["version"] > waiting_at, timeout=5)
        assert mine["last"]["seat"] == 1
        # idle after: no process spins
        shares = [idle_cpu(node) for node in (a, b)]
        assert max(shares) < 0.05, f"a process used {max(shares):.1%} of a core while idle"
        # the figures, for a person reading the output of pytest -s
        print(f"\nfigures: outage {seconds} s, slowest HTTP answer during it {slowest:.3f} s, "
              f"moves played during it {2 * moves_during}, both healthy {recovered:.2f} s "
              f"after Redis started, idle CPU after {shares[0]:.1%} and {shares[1]:.1%}")
        final = play.states[0]["version"]
    rows = stored_moves(pg, table)
    assert [n for n, _, _ in rows] == list(range(final))  # no gap in the move numbers
    assert len(play.seen) == final >= 4 + 1 + 4
    for n, (seat, move) in play.seen.items():  # no acknowledged move lost
        assert rows[n] == (n, seat, move)
    assert [(n, s, m) for n, s, m in stored_moves(pg, quiet)] == [
        (n, *quiet_play.seen[n]) for n in range(quiet_version)]
    solo_rows = stored_moves(pg, solo)
    assert [n for n, _, _ in solo_rows] == list(range(len(solo_rows)))


def test_sigterm_during_a_redis_outage_stops_promptly(
        outage_site: tuple[Node, Node, Redis, str]) -> None:
    a, _, broker, _ = outage_site
    table, token = bot_game(a)
    with connect(a.ws_url) as ws:
        person_plays(ws, hello(ws, table, token))
        kill_redis(broker)
        time.sleep(3)
        a.proc.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        try:
            a.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            raise AssertionError("SIGTERM did not stop the process within 5 s") from None
        took = time.monotonic() - stopped
        # its client was told (close code 1012: the server restarts), not left hanging
        with pytest.raises(Exception) as closed:
            while True:
                recv(ws, timeout=2)
        assert getattr(closed.value, "rcvd", None) is not None
        assert closed.value.rcvd.code == 1012  # type: ignore[attr-defined]
    print(f"\nfigures: SIGTERM 3 s into a Redis outage: exited after {took:.2f} s")
    # uvicorn stops cleanly, then ends by the signal it caught, as the signal's default would
    assert took < 3.0 and a.proc.returncode == -signal.SIGTERM


def lease_holder(db: Any, key: str, within: float) -> str:
    deadline = time.monotonic() + within
    while (owner := db.get(key)) is None:
        assert time.monotonic() < deadline, "nobody took the lease"
        time.sleep(0.05)
    assert isinstance(owner, str)
    return owner


@pytest.mark.parametrize("blip", [False, True])
def test_sigterm_hands_the_leases_over_at_once(pg_url: str, tmp_path: Any, blip: bool) -> None:
    """A long lease (20 s): the other process takes the table's bots within a few seconds
    of the stop only if the stopping process gave the lease back. ``blip``: Redis was
    killed for a second before, and the processes took their leases again after it."""
    ttl = 20.0
    broker = Redis().start()
    a = Node(pg_url, broker.url(), "handover", str(tmp_path / "a"), ttl=ttl, bot_delay=0.2)
    b = Node(pg_url, broker.url(), "handover", str(tmp_path / "b"), ttl=ttl, bot_delay=0.2)
    try:
        a.wait()
        b.wait()
        # bots only, so that nothing but the lease decides who drives them
        r = httpx.post(f"{a.url}/api/tables", json={
            "game": "sixty-six", "seed": 9,
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]})
        assert r.status_code == 201, r.text
        table = r.json()["table"]
        key = f"handover:lease:{table}"
        db: Any = redis.Redis(port=broker.port, socket_timeout=2, decode_responses=True)
        owner = lease_holder(db, key, within=10)
        if blip:
            kill_redis(broker)
            time.sleep(1.0)
            broker.start()
            db = redis.Redis(port=broker.port, socket_timeout=2, decode_responses=True)
            # the keys died with Redis: a tick (every ttl / 3 s) takes the lease again
            owner = lease_holder(db, key, within=ttl / 3 + 3)
        driver, other = (a, b) if owner.split(":")[1] == str(a.proc.pid) else (b, a)
        driver.proc.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        try:
            driver.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            raise AssertionError("SIGTERM did not stop the process within 5 s") from None
        exited = time.monotonic() - stopped
        assert exited < 3.0
        # given back, not left to expire in 20 s: gone now, or already the other's
        holder: str | None = db.get(key)
        assert holder is None or holder.split(":")[1] == str(other.proc.pid)
        at_stop = len(stored_moves(pg_url, table))
        # the other process's next tick takes it and plays on
        while True:
            holder = db.get(key)
            if holder is not None and len(stored_moves(pg_url, table)) > at_stop:
                break
            assert time.monotonic() < stopped + ttl / 3 + 3, "the lease was not taken over"
            time.sleep(0.1)
        assert holder.split(":")[1] == str(other.proc.pid)
        print(f"\nfigures: lease {ttl:g} s, blip {blip}: the driver exited {exited:.2f} s after "
              f"SIGTERM, the other played on {time.monotonic() - stopped:.2f} s after it")
        rows = stored_moves(pg_url, table)
        assert [n for n, _, _ in rows] == list(range(len(rows)))
    finally:
        a.kill()
        b.kill()
        broker.stop()
