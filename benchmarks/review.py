"""Time of a review (``cardplay review``) per deal and per match, every game, on one core.

Each game plays heuristic-against-heuristic records (a single deal, and a whole match of the
game's default length where it is short enough), then reviews every seat's decisions at one
level, timing it in CPU seconds (``time.process_time``) and wall seconds. With ``--one-seat``
each deal is also reviewed for seat 0 alone, the review a player asks for in the browser. The
targets: a whole Sixty-Six deal in at most 10 s and a match in at most a minute (issue 16); one
seat's Two-Ten-Jack and Maltese Twenty deal in under 3 s (issue 30). Figures only: nothing here
passes or fails.

    python benchmarks/review.py [--level strong] [--game NAME[,NAME]] [--deals N] [--matches N]
                                [--one-seat]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import cardplay
from cardplay.bots import load
from cardplay.review import review

# match options that keep a match to a few deals where the default runs long
MATCH_OPTIONS: dict[str, dict[str, Any]] = {"twenty": {"target": 60}, "two-ten-jack": {}}


def record_of(name: str, seed: int, whole_match: bool) -> dict[str, Any]:
    game = cardplay.load(name, **(MATCH_OPTIONS.get(name, {}) if whole_match else {}))
    target: Any = game.match(seed=seed) if whole_match else game.deal(seed=seed)
    bots = [load("heuristic", game, seed=seed * 10 + s) for s in range(game.players)]
    while not target.is_over:
        seat = target.to_move
        target.play(bots[seat].choose(target.view(seat)))
    record: dict[str, Any] = target.record()
    return record


def timed(record: dict[str, Any], level: str,
          seats: list[int] | None = None) -> tuple[float, float, int, int]:
    """CPU and wall seconds of a review of ``seats`` (default: all), its decisions and how many
    of them were exact."""
    start, wall = time.process_time(), time.perf_counter()
    result = review(record, seats=seats, level=level)
    return (time.process_time() - start, time.perf_counter() - wall, len(result.decisions),
            sum(d.exact for d in result.decisions))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="strong")
    ap.add_argument("--game", default=None, help="a game, or several separated by commas")
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--matches", type=int, default=1)
    ap.add_argument("--one-seat", action="store_true",
                    help="also review each deal for seat 0 alone (the browser's review)")
    args = ap.parse_args()
    names = args.game.split(",") if args.game else cardplay.games()
    print(f"review at level {args.level}: CPU seconds and wall seconds (medians of the records), "
          "decisions, exact decisions")
    for name in names:
        jobs: list[tuple[str, int, bool, list[int] | None]] = [
            ("deal", args.deals, False, None), ("match", args.matches, True, None)]
        if args.one_seat:
            jobs.insert(1, ("seat0", args.deals, False, [0]))
        for label, count, whole, seats in jobs:
            if not count:
                continue
            runs = [timed(record_of(name, 100 + i, whole), args.level, seats)
                    for i in range(count)]
            seconds = statistics.median(r[0] for r in runs)
            wall = statistics.median(r[1] for r in runs)
            decisions = statistics.median(r[2] for r in runs)
            exact = statistics.median(r[3] for r in runs)
            print(f"{name:15} {label:5} {seconds:7.2f} s CPU {wall:7.2f} s wall "
                  f"{decisions:5.0f} decisions {exact:4.0f} exact   "
                  f"(max {max(r[0] for r in runs):.2f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
