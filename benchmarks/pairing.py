"""Pairing under load: 1,000 waiting seeks in the pool, and how long a seek that finds its
partner takes to be paired (stored, matched, its table created and every seat claimed).

    python benchmarks/pairing.py [--pool 1000] [--trials 300] [--database postgresql://...]

Two pools of ``--pool`` waiting seeks each, on a fresh store (SQLite in a temporary folder, or
the PostgreSQL database given, whose ``seeks`` and tables it fills):

* casual: every waiting seek of its own kind (clocks differ), so none pairs with another;
* rated: every waiting seek of one kind (Sixty-Six, rated), ratings 500 points apart, so none is
  within another's window.

Each trial makes a seek that matches one waiting seek (same kind; for rated play a rating 10
points from it) and times the call, which pairs it at once; then puts a new waiting seek in
the pool so that it stays at ``--pool``. Also timed: one pairing tick over both pools (what
every process does each second: expire, prune, pair the kinds with two or more seeks). Prints
p50 and p99 in milliseconds. A person sees the pairing at their page's next poll (every second)
on top of these. Figures only: no pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

from cardplay.server.accountdb import AccountDb
from cardplay.server.accountseats import set_rated
from cardplay.server.botpool import ThreadBotRunner
from cardplay.server.hub import Hub
from cardplay.server.limits import Limits
from cardplay.server.pairing import Asker, Pairing, percentile
from cardplay.server.seekstore import open_seek_store
from cardplay.server.storage import Storage, open_store


@dataclass(frozen=True)
class Account:
    id: str
    name: str


def clock_of(i: int) -> dict[str, int]:
    """A clock of its own for each casual seek, within the clocks' bounds (3-120 s a move)."""
    return {"move": 3 + i % 118, "reserve": i // 118}


def figures(label: str, times: list[float]) -> str:
    ms = [1000 * t for t in times]
    return (f"{label:<34} n={len(ms):<5} p50 {percentile(ms, 50):7.2f} ms   "
            f"p99 {percentile(ms, 99):7.2f} ms")


def run(pool: int, trials: int, database: str | None, data: str) -> None:
    limits = Limits(max_tables=10 ** 6, seeks_per_client=10 ** 6, seeks_per_account=10 ** 6,
                    seek_rate=1e9)
    storage = open_store(data, database)
    hub = Hub(storage, ThreadBotRunner(), limits=limits)
    ratings: dict[str, float] = {}
    accounts = AccountDb(lambda: storage.connection, postgres=not isinstance(storage, Storage))
    pairing = Pairing(hub, open_seek_store(storage), limits,
                      rating_of=lambda account, game, players: ratings.get(account),
                      set_rated=lambda table: set_rated(accounts, table))
    now = time.time()  # one instant for the whole run: windows do not widen under the benchmark
    rng = random.Random(1)

    def casual(i: int, who: str) -> dict[str, Any]:
        seek, _ = pairing.seek({"game": "sixty-six", "clock": clock_of(i)},
                               Asker(None, None, who), now=now)
        return {"id": seek.id, "status": pairing.store.get(seek.id).status}  # type: ignore[union-attr]

    def rated(rating: float, who: str) -> str:
        account = Account(who, who)
        ratings[who] = rating
        seek, _ = pairing.seek({"game": "sixty-six", "rated": True}, Asker(account, None, who),
                               now=now)
        status = pairing.store.get(seek.id).status  # type: ignore[union-attr]
        return status

    t0 = time.perf_counter()
    for i in range(pool):
        assert casual(i, f"c{i}")["status"] == "waiting"
        assert rated(500.0 * i, f"r{i}") == "waiting"
    print(f"filled two pools of {pool} waiting seeks in {time.perf_counter() - t0:.1f} s "
          f"({storage.where})")

    casual_times, rated_times = [], []
    for n in range(trials):
        i = rng.randrange(pool)
        t = time.perf_counter()
        assert casual(i, f"cx{n}")["status"] == "paired"
        casual_times.append(time.perf_counter() - t)
        assert casual(i, f"cy{n}")["status"] == "waiting"  # the pool stays full
        j = rng.randrange(pool)
        t = time.perf_counter()
        assert rated(500.0 * j + 10, f"rx{n}") == "paired"
        rated_times.append(time.perf_counter() - t)
        assert rated(500.0 * j, f"ry{n}") == "waiting"
    ticks = []
    for _ in range(30):
        t = time.perf_counter()
        assert pairing.tick(now=now) == 0
        ticks.append(time.perf_counter() - t)
    waiting = pairing.store.count_waiting(since=now - limits.seek_expiry)
    print(f"waiting seeks in the pool: {waiting}; tables made: {pairing.paired}")
    print(figures("casual seek paired at once", casual_times))
    print(figures("rated seek paired at once", rated_times))
    print(figures(f"pairing tick over {waiting} waiting", ticks))
    pairing.store.close()
    storage.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--pool", type=int, default=1000)
    ap.add_argument("--trials", type=int, default=300)
    ap.add_argument("--database", default=None, help="a postgresql:// URL (default: SQLite)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cardplay-pairing-") as d:

        async def go() -> None:  # a running loop, as in the server (grace timers arm on it)
            run(max(2, args.pool), max(1, args.trials), args.database, d)

        asyncio.run(go())
    return 0


if __name__ == "__main__":
    sys.exit(main())
