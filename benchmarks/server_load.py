"""Load on the game server: N tables of people's seats, every seat driven by a bot client over a
real WebSocket on the loopback interface, the clients spread over separate processes.

    python benchmarks/server_load.py --tables 500 --duration 30

starts ``cardplay serve`` on 127.0.0.1 (a fresh temporary data folder), creates the tables (all
seats "human"), and runs ``--clients-procs`` processes of asyncio clients. Each client says hello
with its seat token and, when its seat is to move, waits a think time (uniform in
``[0.5, 1.5] x --think`` seconds), sends a random legal move with the state version, and times
move -> the state that acknowledges it (the view the server sends back after storing the move).
Everything is bounded: the run stops after ``--duration`` seconds or ``--max-moves`` moves per
client, whichever comes first, and the server is stopped at the end.

Prints tables, clients, moves, moves per second, latency p50/p90/p99/max, errors, and the CPU
the server used. Traffic goes to 127.0.0.1 only. Figures only: there is no pass/fail.

    python benchmarks/server_load.py --tables 200 --duration 20 --flood 20000

adds a flood: during the play one more process, one client (it sends from 127.0.0.2), creates
tables as fast as the server answers (at most ``--flood`` requests, within the run's time) and
reads the lobby every 20 requests, as an attacker with a browser tab open would; the report
adds how the server answered (201 created, 429 refused) and what the lobby cost. The tables of
the play are made before, each from its own loopback address (127.1.x.y), so that the server's
per-client limits, at their defaults, meet only the flood.

    python benchmarks/server_load.py --tables 200 --duration 20 --clock 3,2 --idle 0.1

puts a clock on every table (``--clock MOVE,RESERVE`` in seconds, ``default`` for the game's,
``none`` for no clock: the default, as before clocks, so that figures compare) and makes a
fraction ``--idle`` of the clients never move, so that their clocks run out: the server's
timers play their moves, and after three timeouts they forfeit. The report adds the timeouts
and forfeits the clients saw.

    python benchmarks/server_load.py --tables 200 --duration 20 --servers 2
    python benchmarks/server_load.py --tables 200 --duration 20 --store postgresql

run the same play against several ``cardplay serve`` processes on one PostgreSQL database and
one Redis broker (``--servers 2``), or one process over PostgreSQL (``--store postgresql``), so
that the figures compare with the single SQLite process on the same machine. Throwaway
PostgreSQL and Redis servers are started from the Debian packages (as the tests do) unless
``--database`` and ``--broker`` name running ones. With several servers the tables are created
round robin and the seats of a table are spread over the servers, so that each move travels
from one process to another (the case a load balancer without sticky routing makes). Besides
move -> acknowledgement, the report gives move -> view: from the move's sending to the moment
the next seat's client (often on another process) gets the state that shows it.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing as mp
import os
import random
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def post(port: int, path: str, body: dict[str, Any] | None = None,
         source: str = HOST) -> dict[str, Any]:
    """POST JSON from the loopback address ``source`` (any 127.x.y.z is this machine)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30, source_address=(source, 0))
    try:
        conn.request("POST", path, body=json.dumps(body or {}),
                     headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        data = r.read()
        if r.status >= 300:
            raise SystemExit(f"POST {path} answered {r.status}: {data[:200]!r}")
        out: dict[str, Any] = json.loads(data)
        return out
    finally:
        conn.close()


def setup_address(i: int) -> str:
    return f"127.1.{i // 250}.{i % 250 + 1}"


def flood_process(port: int, game: str, players: int, count: int, stop_at_wall: float,
                  out: Any) -> None:
    """One client creating tables as fast as it is answered, reading the lobby now and then;
    sends back (answers by status, lobby times in ms)."""
    statuses: dict[int, int] = {}
    lobby_ms: list[float] = []
    conn = http.client.HTTPConnection(HOST, port, timeout=30, source_address=("127.0.0.2", 0))
    body = json.dumps({"game": game, "seats": [{"kind": "human"}] * players})
    sent = 0
    while sent < count and time.time() < stop_at_wall:
        try:
            conn.request("POST", "/api/tables", body=body,
                         headers={"Content-Type": "application/json"})
            r = conn.getresponse()
            r.read()
            statuses[r.status] = statuses.get(r.status, 0) + 1
            sent += 1
            if sent % 20 == 0:
                t0 = time.perf_counter()
                conn.request("GET", "/api/tables")
                conn.getresponse().read()
                lobby_ms.append(1000 * (time.perf_counter() - t0))
        except (OSError, http.client.HTTPException):
            statuses[0] = statuses.get(0, 0) + 1
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=30,
                                              source_address=("127.0.0.2", 0))
    conn.close()
    out.send((statuses, lobby_ms))
    out.close()


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, 65536) if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def start_server(port: int, data: str, shared: list[str] | None = None
                 ) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardplay.cli", "serve", "--host", HOST, "--port", str(port),
         "--data", data, "--bot-delay", "0", "--workers", "1", "--clock-min-move", "1",
         *(shared or [])],
        # its log goes to a file: a pipe nobody reads would stop the server once full
        stdout=subprocess.DEVNULL, stderr=open(data + ".log", "wb"),  # noqa: SIM115
        preexec_fn=raise_fd_limit)
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            err = Path(data + ".log").read_text(errors="replace")
            raise SystemExit(f"the server did not start:\n{err}")
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/games", timeout=2):
                return proc
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise SystemExit("the server did not start in 60 s") from None
            time.sleep(0.1)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), 0 when unavailable."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


async def client(port: int, table: str, token: str, think: float, stop_at: float,
                 max_moves: int, rng: random.Random, lat: list[float],
                 errors: list[str], marks: list[tuple[str, int, str, float]],
                 idle: bool = False) -> None:
    """One seat's client. ``marks`` gets (table, version, "sent" | "seen", wall time): a move
    sent at a version, and a state of a version that shows another seat's move; ``errors``
    also gets "timeout" for each of its own moves the server played on time, "forfeit" once
    it forfeited. An ``idle`` client never moves."""
    from websockets.asyncio.client import connect

    moves = 0
    sent_at: dict[int, float] = {}
    moved_at = -1  # the last version this client moved at (a state may come twice)
    forfeited: set[str] = set()
    async with connect(f"ws://{HOST}:{port}/ws", max_size=None, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table, "token": token}))
        pending: asyncio.Task[None] | None = None

        async def move_later(state: dict[str, Any]) -> None:
            nonlocal moves
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if time.monotonic() >= stop_at:
                return
            legal = state["view"]["legal_moves"]
            mid = state["version"]
            sent_at[mid] = time.monotonic()
            marks.append((table, mid + 1, "sent", time.time()))
            await ws.send(json.dumps({"type": "move", "move": rng.choice(legal),
                                      "version": state["version"], "id": mid}))
            moves += 1

        while time.monotonic() < stop_at and moves < max_moves:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop_at -
                                                                     time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "error":
                errors.append(msg["code"])
                continue
            if kind != "state":
                continue
            last = msg.get("last")
            if last is not None and last["seat"] != msg["seat"]:
                marks.append((table, msg["version"], "seen", time.time()))
            if last is not None and last["seat"] == msg["seat"] and last.get("timeout"):
                errors.append("timeout")
            clock = msg.get("clock")
            if clock and any(f["seat"] == msg["seat"] for f in clock["forfeits"]) and \
                    "forfeit" not in forfeited:
                forfeited.add("forfeit")
                errors.append("forfeit")
            rid = msg.get("reply_to")
            if rid is not None and rid in sent_at:
                lat.append(time.monotonic() - sent_at.pop(rid))
            if msg["is_over"]:
                break
            view = msg["view"]
            if view is None:  # not dealt yet: a seat's part of the shuffle is to come
                continue
            if view["to_move"] == msg["seat"] and view["legal_moves"] and \
                    msg["version"] > moved_at and not idle and not forfeited:
                moved_at = msg["version"]
                if pending is not None:
                    pending.cancel()
                pending = asyncio.create_task(move_later(msg))
        if pending is not None:
            pending.cancel()


def client_process(seats: list[tuple[int, str, str]], think: float, stop_at_wall: float,
                   max_moves: int, seed: int, out: Any, idle: float = 0.0) -> None:
    """One process of clients (port, table, token each); sends back (latencies, errors, CPU,
    marks) through ``out``."""
    raise_fd_limit()
    lat: list[float] = []
    errors: list[str] = []
    marks: list[tuple[str, int, str, float]] = []
    stop_at = time.monotonic() + (stop_at_wall - time.time())

    async def run_all() -> None:
        rng = random.Random(seed)
        tasks = [client(port, table, token, think, stop_at, max_moves,
                        random.Random(rng.random()), lat, errors, marks,
                        idle=rng.random() < idle)
                 for port, table, token in seats]
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException):
                errors.append(type(r).__name__)

    asyncio.run(run_all())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out.send((lat, errors, usage.ru_utime + usage.ru_stime, marks))
    out.close()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def move_to_view(marks: list[tuple[str, int, str, float]]) -> list[float]:
    """Seconds from each move's sending to the first other seat's state that shows it."""
    sent: dict[tuple[str, int], float] = {}
    seen: dict[tuple[str, int], float] = {}
    for table, version, kind, at in marks:
        key = (table, version)
        if kind == "sent":
            sent[key] = at  # a move refused as stale is sent again at the same version
        elif key not in seen:
            seen[key] = at
    return [seen[k] - t for k, t in sent.items() if k in seen and seen[k] >= t]


class Backing:
    """Throwaway PostgreSQL and Redis (the tests' recipe, tests/server/services.py)."""

    def __init__(self, want_broker: bool) -> None:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.server.services import Postgres, Redis

        self.pg = Postgres().start()
        self.redis = Redis().start() if want_broker else None
        self.database = self.pg.new_database()
        self.broker = self.redis.url() if self.redis is not None else None

    def stop(self) -> None:
        if self.redis is not None:
            self.redis.stop()
        self.pg.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--game", default="sixty-six")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of play (max 600)")
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean think time of a client before its move, seconds")
    ap.add_argument("--max-moves", type=int, default=1000, help="moves per client at most")
    ap.add_argument("--procs", type=int, default=2, help="client processes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--flood", type=int, default=0,
                    help="table creations one flooding client sends during the play (max 100000)")
    ap.add_argument("--servers", type=int, default=1,
                    help="cardplay serve processes (more than one: PostgreSQL and Redis)")
    ap.add_argument("--store", choices=["sqlite", "postgresql"], default=None,
                    help="the store of the servers (default: sqlite for one, postgresql for "
                         "several)")
    ap.add_argument("--clock", default="none",
                    help="every table's clock: MOVE,RESERVE seconds, 'default' or 'none'")
    ap.add_argument("--idle", type=float, default=0.0,
                    help="fraction of the clients that never move (their clocks run out)")
    ap.add_argument("--database", default=None, help="a running PostgreSQL (postgresql://...)")
    ap.add_argument("--broker", default=None, help="a running Redis (redis://...)")
    args = ap.parse_args(argv)
    duration = min(max(1.0, args.duration), 600.0)
    body: dict[str, Any] = {}  # what every table's creation adds: its clock
    if args.clock == "none":
        body["clock"] = None
    elif args.clock != "default":
        move, reserve = (float(x) for x in args.clock.split(","))
        body["clock"] = {"move": move, "reserve": reserve}
    tables = min(max(1, args.tables), 5000)
    nservers = min(max(1, args.servers), 8)
    store = args.store or ("sqlite" if nservers == 1 else "postgresql")
    if nservers > 1 and store == "sqlite":
        raise SystemExit("several servers share their tables through PostgreSQL and Redis")

    load = os.getloadavg()
    data = tempfile.mkdtemp(prefix="cardplay-load-")
    backing: Backing | None = None
    shared: list[str] = []
    if store == "postgresql":
        database, broker = args.database, args.broker
        if database is None or (nservers > 1 and broker is None):
            backing = Backing(want_broker=nservers > 1 and broker is None)
            database = database or backing.database
            broker = broker or backing.broker
        shared = ["--database", database]
        if nservers > 1:
            assert broker is not None
            shared += ["--broker", broker, "--broker-prefix", f"load{os.getpid()}"]
    ports = [free_port() for _ in range(nservers)]
    servers = [start_server(p, os.path.join(data, str(i)), shared)
               for i, p in enumerate(ports)]
    port = ports[0]
    try:
        base = f"http://{HOST}:{port}"
        game = json.loads(urllib.request.urlopen(f"{base}/api/games", timeout=30).read())
        players = next(g for g in game if g["name"] == args.game)["min_players"]
        t0 = time.perf_counter()
        seats: list[tuple[int, str, str]] = []
        for i in range(tables):
            # no seed: a server refuses a creator's seed at a table of several people;
            # seat k of table i is served by server (i + k) mod N
            home = ports[i % nservers]
            # each seat sends its part of the shuffle as a browser does: dealt at once
            t = post(home, "/api/tables", {"game": args.game,
                                           "seats": [{"kind": "human"}] * players,
                                           "contribution": secrets.token_hex(16), **body},
                     source=setup_address(i))
            seats.append((home, t["table"], t["token"]))
            for k in range(1, players):
                there = ports[(i + k) % nservers]
                j = post(there, f"/api/tables/{t['table']}/join",
                         {"contribution": secrets.token_hex(16)}, source=setup_address(i))
                seats.append((there, t["table"], j["token"]))
        setup = time.perf_counter() - t0
        procs = max(1, args.procs)
        shares = [seats[i::procs] for i in range(procs)]
        cpu0 = sum(cpu_seconds(s.pid) for s in servers)
        start = time.time() + 2.0  # time for the processes to start and connect
        stop_at = start + duration
        ctx = mp.get_context("spawn")
        pipes, workers = [], []
        for k, share in enumerate(shares):
            recv_end, send_end = ctx.Pipe(duplex=False)
            p = ctx.Process(target=client_process, args=(share, args.think, stop_at,
                                                          args.max_moves, args.seed * 100 + k,
                                                          send_end, args.idle))
            p.start()
            pipes.append(recv_end)
            workers.append(p)
        flood_pipe = None
        if args.flood > 0:
            flood_pipe, send_end = ctx.Pipe(duplex=False)
            flooder = ctx.Process(target=flood_process,
                                  args=(port, args.game, players, min(args.flood, 100000),
                                        stop_at, send_end))
            flooder.start()
        lat: list[float] = []
        errors: list[str] = []
        client_cpu: list[float] = []
        marks: list[tuple[str, int, str, float]] = []
        for recv_end, p in zip(pipes, workers):
            if recv_end.poll(duration + 120):
                got_lat, got_err, got_cpu, got_marks = recv_end.recv()
                marks.extend(got_marks)
                lat.extend(got_lat)
                errors.extend(got_err)
                client_cpu.append(got_cpu)
            else:
                errors.append("client process timed out")
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
        flood: tuple[dict[int, int], list[float]] | None = None
        if flood_pipe is not None:
            if flood_pipe.poll(duration + 120):
                flood = flood_pipe.recv()
            flooder.join(timeout=10)
            if flooder.is_alive():
                flooder.kill()
        wall = time.time() - start
        cpu = sum(cpu_seconds(s.pid) for s in servers) - cpu0
    finally:
        for proc in servers:
            proc.send_signal(signal.SIGTERM)
        for proc in servers:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if backing is not None:
            backing.stop()
        # what the servers logged as errors (their logs go with the data folder)
        logged = []
        for i in range(len(servers)):
            text = Path(os.path.join(data, str(i)) + ".log").read_text(errors="replace")
            logged += [line for line in text.splitlines()
                       if "Traceback" in line or "ERROR" in line or "Error" in line]
        shutil.rmtree(data, ignore_errors=True)

    ms = [x * 1000 for x in lat]
    counts: dict[str, int] = {}
    for e in errors:
        counts[e] = counts.get(e, 0) + 1
    view_ms = [x * 1000 for x in move_to_view(marks)]
    print(f"game {args.game}: {tables} tables, {len(seats)} clients in {procs} processes, "
          f"think {args.think:g} s, {duration:g} s of play (setup {setup:.1f} s); "
          f"{nservers} server process{'es' if nservers > 1 else ''} over {store}"
          f"{' and Redis' if nservers > 1 else ''}; clock {args.clock}, idle {args.idle:g}")
    print(f"{'tables':>7} {'clients':>8} {'moves':>7} {'moves/s':>8} {'p50 ms':>7} "
          f"{'p90 ms':>7} {'p99 ms':>7} {'max ms':>7} {'server CPU':>11}")
    print(f"{tables:>7} {len(seats):>8} {len(ms):>7} {len(ms) / max(wall, 1e-9):>8.0f} "
          f"{percentile(ms, 50):>7.1f} {percentile(ms, 90):>7.1f} {percentile(ms, 99):>7.1f} "
          f"{max(ms) if ms else float('nan'):>7.1f} {100 * cpu / max(wall, 1e-9):>10.0f}%")
    print(f"move -> view of the next seat ({len(view_ms)} moves): p50 "
          f"{percentile(view_ms, 50):.1f} ms, p99 {percentile(view_ms, 99):.1f} ms, max "
          f"{max(view_ms, default=float('nan')):.1f} ms")
    print(f"server CPU (all server processes) per move: {1000 * cpu / max(len(ms), 1):.2f} ms; "
          f"load average before the run: {load[0]:.2f} (other processes on this machine "
          f"share its cores)")
    print("client processes' CPU:", ", ".join(f"{100 * c / max(wall, 1e-9):.0f}%"
                                             for c in client_cpu))
    clocked = {k: counts.pop(k) for k in ("timeout", "forfeit") if k in counts}
    print(f"clocks: {clocked.get('timeout', 0)} moves played on time by the server, "
          f"{clocked.get('forfeit', 0)} forfeits")
    print("errors:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none")
    print(f"server log: {len(logged)} error lines", *logged[:5], sep="\n  ")
    if flood is not None:
        answers, lobby_ms = flood
        print("flood (one client creating tables):",
              ", ".join(f"{'no answer' if k == 0 else k} x{v}"
                        for k, v in sorted(answers.items())),
              f"in {duration:g} s; lobby read {len(lobby_ms)} times, p50 "
              f"{percentile(lobby_ms, 50):.1f} ms, "
              f"max {max(lobby_ms, default=float('nan')):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
