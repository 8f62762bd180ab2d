"""Chaos: two `cardplay serve` processes with tables in play while PostgreSQL, then Redis, is
killed (SIGKILL) and started again; what the players lost and how long the site took to recover.

    python benchmarks/chaos.py [--bot-tables 70] [--people-tables 30] [--outage 10]

starts throwaway PostgreSQL and Redis servers (tests/server/services.py's recipe), two serve
processes on them, ``--bot-tables`` tables of bots only (random bots, ``--bot-delay`` between
moves) and ``--people-tables`` tables of a person against a bot, each person a client in a
separate process (asyncio WebSockets, alternating between the two servers, reconnecting when
dropped or refused). Then, in phases: play; PostgreSQL SIGKILLed and started again after
``--outage`` seconds; play; Redis SIGKILLed and started again after ``--outage`` seconds; play.

Reports, per phase: moves acknowledged, p50/p99 of move -> acknowledgement, the errors returned
by code, sockets dropped; the seconds from each restart until every table with a person has an
acknowledged move again (and until the tables of bots only moved again); and, at the end, the
acknowledged moves kept (each acknowledged (table, n, move) read back from PostgreSQL) and the
tables whose move numbers have a gap. Traffic goes to 127.0.0.1 only; everything stops by itself
(about ``4 * --phase + 2 * --outage`` seconds of play). Figures only: nothing passes or fails.
Redis's part needs the broker's outage handling (issue 30, defect 1); without it the figures
show what happens then.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
# a sibling script, found through sys.path
from server_load import (
    HOST,
    Backing,
    cpu_seconds,
    free_port,
    percentile,
    post,
    raise_fd_limit,
    setup_address,
    start_server,
)

Event = tuple[float, str, str, Any]  # (wall time, table, kind, data)


async def person(port: int, table: str, token: str, think: float, stop_at: float,
                 events: list[Event]) -> None:
    """One person's client: hello, and on each turn (after ``think`` s) the first legal move;
    a refused hello or a dropped socket is tried again after 0.5 s, a refused move after the
    next state or 0.5 s."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    while time.monotonic() < stop_at:
        try:
            async with connect(f"ws://{HOST}:{port}/ws", ping_interval=None,
                               open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "hello", "table": table, "token": token,
                                          "id": "hello"}))
                state: dict[str, Any] | None = None
                sent: tuple[int, str, float] | None = None  # version, move, monotonic time
                retry_at = 0.0
                while time.monotonic() < stop_at:
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=0.25)
                        msg = json.loads(text)
                    except TimeoutError:
                        msg = None
                    if msg is not None and msg["type"] == "error":
                        events.append((time.time(), table, "error", msg["code"]))
                        if msg.get("reply_to") == "hello":
                            await asyncio.sleep(0.5)
                            break  # a new socket says hello again
                        sent = None
                        retry_at = time.monotonic() + 0.5
                    elif msg is not None and msg["type"] == "state":
                        state = msg
                        if sent is not None and msg.get("reply_to") == sent[0]:
                            events.append((time.time(), table, "ack",
                                           (sent[0], msg["seat"], sent[1],
                                            time.monotonic() - sent[2])))
                            sent = None
                    if state is None or state["is_over"] or sent is not None:
                        continue
                    view = state["view"]
                    if view["to_move"] != state["seat"] or not view["legal_moves"] or \
                            time.monotonic() < retry_at:
                        continue
                    await asyncio.sleep(think)
                    move = view["legal_moves"][0]
                    sent = (state["version"], move, time.monotonic())
                    await ws.send(json.dumps({"type": "move", "move": move,
                                              "version": state["version"],
                                              "id": state["version"]}))
                if state is not None and state["is_over"]:
                    return
        except (OSError, WebSocketException, TimeoutError):
            events.append((time.time(), table, "drop", None))
            await asyncio.sleep(0.5)


def people_process(seats: list[tuple[int, str, str]], think: float, stop_at_wall: float,
                   out: Any) -> None:
    raise_fd_limit()
    events: list[Event] = []
    stop_at = time.monotonic() + (stop_at_wall - time.time())

    async def run_all() -> None:
        await asyncio.gather(*(person(port, table, token, think, stop_at, events)
                               for port, table, token in seats), return_exceptions=True)

    asyncio.run(run_all())
    out.send(events)
    out.close()


def stored(database: str) -> dict[str, list[tuple[int, int, str]]]:
    import psycopg

    rows: dict[str, list[tuple[int, int, str]]] = {}
    with psycopg.connect(database) as db:
        for table, n, seat, move in db.execute(
                "SELECT table_id, n, seat, move FROM moves ORDER BY table_id, n"):
            rows.setdefault(table, []).append((n, seat, move))
    return rows


def bot_moves(database: str) -> int:
    import psycopg

    with psycopg.connect(database) as db:
        row = db.execute("SELECT COUNT(*) FROM moves m JOIN tables t ON t.id = m.table_id "
                         "WHERE t.bots_only").fetchone()
    return int(row[0]) if row else 0


def wait_bots_move(database: str, since: int, deadline: float) -> float | None:
    """Seconds until the tables of bots only stored a move more than ``since`` (None: never)."""
    start = time.time()
    while time.time() < deadline:
        try:
            if bot_moves(database) > since:
                return time.time() - start
        except Exception:  # still down: look again
            pass
        time.sleep(0.2)
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot-tables", type=int, default=70)
    ap.add_argument("--people-tables", type=int, default=30)
    ap.add_argument("--phase", type=float, default=20.0, help="seconds of each play phase")
    ap.add_argument("--outage", type=float, default=10.0, help="seconds each server is down")
    ap.add_argument("--bot-delay", type=float, default=1.0)
    ap.add_argument("--think", type=float, default=0.5)
    args = ap.parse_args(argv)
    if args.bot_tables + args.people_tables > 400 or args.phase > 120 or args.outage > 60:
        raise SystemExit("at most 400 tables, 120 s phases and 60 s outages")
    backing = Backing(want_broker=True)
    tmp = tempfile.mkdtemp(prefix="cardplay-chaos-")
    ports = [free_port(), free_port()]
    total = args.bot_tables + args.people_tables
    shared = ["--database", backing.database, "--broker", str(backing.broker),
              "--lease-ttl", "1.5", "--bot-delay", str(args.bot_delay),
              "--max-bot-tables", str(total), "--bot-tables-per-client", str(total),
              "--max-tables", str(2 * total)]
    servers = [start_server(p, os.path.join(tmp, f"s{i}"), shared) for i, p in enumerate(ports)]
    try:
        people: list[tuple[int, str, str]] = []
        for i in range(total):
            port = ports[i % 2]
            if i < args.bot_tables:
                post(port, "/api/tables", {"game": "sixty-six", "options": {"match_target": 100},
                                           "seats": [{"kind": "bot", "level": "random"}] * 2},
                     source=setup_address(i))
            else:
                t = post(port, "/api/tables", {"game": "sixty-six", "options":
                                               {"match_target": 21},
                                               "seats": [{"kind": "human"},
                                                         {"kind": "bot", "level": "random"}]},
                         source=setup_address(i))
                # the person plays through the other server half the time
                people.append((ports[(i // 2) % 2], t["table"], t["token"]))
        begin = time.time()
        plan = 4 * args.phase + 2 * args.outage + 30
        stop_at_wall = begin + plan
        ctx = mp.get_context("spawn")
        halves = [people[0::2], people[1::2]]
        pipes = []
        procs = []
        for half in halves:
            recv_end, send_end = ctx.Pipe(duplex=False)
            p = ctx.Process(target=people_process, args=(half, args.think, stop_at_wall,
                                                        send_end))
            p.start()
            pipes.append(recv_end)
            procs.append(p)
        marks: dict[str, float] = {"start": begin}
        cpu0 = {s.pid: cpu_seconds(s.pid) for s in servers}
        time.sleep(args.phase)
        marks["pg_kill"] = time.time()
        bots_before = bot_moves(backing.database)
        backing.pg.kill()
        time.sleep(args.outage)
        backing.pg.restart()
        marks["pg_back"] = time.time()
        pg_bots = wait_bots_move(backing.database, bots_before, time.time() + 2 * args.phase)
        time.sleep(max(0.0, marks["pg_back"] + 2 * args.phase - time.time()))
        marks["redis_kill"] = time.time()
        assert backing.redis is not None and backing.redis.proc is not None
        backing.redis.proc.kill()
        backing.redis.proc.wait(timeout=10)
        time.sleep(args.outage)
        backing.redis.start()
        marks["redis_back"] = time.time()
        bots_now = bot_moves(backing.database)
        redis_bots = wait_bots_move(backing.database, bots_now, time.time() + args.phase)
        time.sleep(max(0.0, marks["redis_back"] + args.phase - time.time()))
        marks["end"] = time.time()
        cpu = {s.pid: cpu_seconds(s.pid) - cpu0[s.pid] for s in servers}
        events: list[Event] = []
        for pipe, p in zip(pipes, procs, strict=True):
            events += pipe.recv()
            p.join(timeout=60)
        alive = [s.poll() is None for s in servers]
        report(args, events, marks, stored(backing.database), {t for _, t, _ in people},
               pg_bots, redis_bots, cpu, alive)
    finally:
        for s in servers:
            s.kill()
            s.wait(timeout=10)
        backing.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def report(args: argparse.Namespace, events: list[Event], marks: dict[str, float],
           rows: dict[str, list[tuple[int, int, str]]], people: set[str],
           pg_bots: float | None, redis_bots: float | None, cpu: dict[int, float],
           alive: list[bool]) -> None:
    phases = [("before", marks["start"], marks["pg_kill"]),
              ("pg down", marks["pg_kill"], marks["pg_back"]),
              ("pg back", marks["pg_back"], marks["redis_kill"]),
              ("redis down", marks["redis_kill"], marks["redis_back"]),
              ("redis back", marks["redis_back"], marks["end"])]
    print(f"chaos: 2 processes, {args.bot_tables} tables of bots only, {args.people_tables} "
          f"with a person (a client process each half); outages of {args.outage:g} s")
    print(f"{'phase':11} {'s':>5} {'acks':>6} {'p50 ms':>8} {'p99 ms':>8}  errors; drops")
    for name, a, b in phases:
        lat = [e[3][3] for e in events if e[2] == "ack" and a <= e[0] < b]
        errs: dict[str, int] = {}
        for e in events:
            if e[2] == "error" and a <= e[0] < b:
                errs[e[3]] = errs.get(e[3], 0) + 1
        drops = sum(1 for e in events if e[2] == "drop" and a <= e[0] < b)
        print(f"{name:11} {b - a:5.1f} {len(lat):6} {1000 * percentile(lat, 50):8.1f} "
              f"{1000 * percentile(lat, 99):8.1f}  {errs or '-'}; {drops}")
    for name, back, until in (("PostgreSQL", marks["pg_back"], marks["redis_kill"]),
                              ("Redis", marks["redis_back"], marks["end"])):
        first: dict[str, float] = {}
        for at, table, kind, _ in events:
            if kind == "ack" and back <= at < until and table not in first:
                first[table] = at - back
        # the tables with a person that were in play before this outage
        playing = {t for at, t, k, _ in events if k == "ack" and at < back} & people
        waited = [first.get(t) for t in playing]
        worst = "never (some)" if None in waited or not waited else \
            f"{max(w for w in waited if w is not None):.1f} s"
        bots = pg_bots if name == "PostgreSQL" else redis_bots
        print(f"{name} restarted: every table with a person had a move acknowledged within "
              f"{worst} ({len(first)} of {len(playing)}); the bots' tables moved again after "
              f"{'never' if bots is None else f'{bots:.1f} s'}")
    acked = [(t, d[0], d[1], d[2]) for _, t, k, d in events if k == "ack"]
    kept = sum(1 for t, n, seat, move in acked
               if n < len(rows.get(t, [])) and rows[t][n] == (n, seat, move))
    gaps = [t for t, r in rows.items() if [n for n, _, _ in r] != list(range(len(r)))]
    print(f"acknowledged moves kept: {kept} of {len(acked)}; tables with a gap in their move "
          f"numbers: {len(gaps)} of {len(rows)}; moves stored in all: "
          f"{sum(len(r) for r in rows.values())}")
    print(f"server CPU over the run: {', '.join(f'{c:.1f} s' for c in cpu.values())}; "
          f"processes alive at the end: {sum(alive)} of {len(alive)}")


if __name__ == "__main__":
    sys.exit(main())
