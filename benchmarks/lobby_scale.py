"""What one lobby page and one cap check cost as tables pile up: the lobby is one range of an
SQLite index, so a page of 50 should cost the same with 10 tables as with 10,000.

    python benchmarks/lobby_scale.py --sizes 10 1000 10000

Fills a fresh database (a temporary folder) with open tables of two seats, one claimed, and
times the first lobby page, a page deep in the list (by its cursor), and the count the per-client
caps make before each new table: medians of ``--repeat`` runs. Figures only: no pass/fail.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time

from cardplay.server.storage import LIVE, Storage, StoredTable


def fill(storage: Storage, n: int) -> None:
    seats = [{"kind": "human", "level": "random", "name": "A", "token_hash": "x" * 64},
             {"kind": "human", "level": "random", "name": "", "token_hash": None}]
    db = storage._db  # one transaction for the fill: the benchmark times the reads
    db.execute("BEGIN")
    for i in range(n):
        storage.create_table(StoredTable(id=f"t{i:07d}", game="sixty-six", options={}, seed=i,
                                         dealer=None, seats=seats, created=1e9 + i,
                                         status="open", creator=f"c{i % 97}"))
    db.execute("COMMIT")


def median_ms(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(1000 * (time.perf_counter() - t0))
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 1000, 10000])
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args(argv)
    print(f"{'tables':>8} {'first page ms':>14} {'deep page ms':>13} {'cap count ms':>13}")
    for n in args.sizes:
        n = min(max(1, n), 100000)
        with tempfile.TemporaryDirectory(prefix="cardplay-lobby-") as d:
            storage = Storage(d)
            fill(storage, n)
            middle = (1e9 + n // 2, f"t{n // 2:07d}")
            first = median_ms(lambda s=storage: s.lobby_page("open", 51), args.repeat)
            deep = median_ms(lambda s=storage, m=middle: s.lobby_page("open", 51, m),
                             args.repeat)
            cap = median_ms(lambda s=storage: (s.count(LIVE), s.count(LIVE, creator="c1")),
                            args.repeat)
            storage.close()
        print(f"{n:>8} {first:>14.3f} {deep:>13.3f} {cap:>13.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
