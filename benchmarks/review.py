"""CPU time of a review (``cardplay review``) per deal and per match, every game, on one core.

Each game plays heuristic-against-heuristic records (a single deal, and a whole match of the
game's default length where it is short enough), then reviews every seat's decisions at one
level, timing it with ``time.process_time``. The targets of issue 16: a whole Sixty-Six deal in
at most 10 s, a match in at most a minute. Figures only: nothing here passes or fails.

    python benchmarks/review.py [--level strong] [--game NAME] [--deals N] [--matches N]
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


def timed(record: dict[str, Any], level: str) -> tuple[float, int, int]:
    start = time.process_time()
    result = review(record, level=level)
    return (time.process_time() - start, len(result.decisions),
            sum(d.exact for d in result.decisions))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="strong")
    ap.add_argument("--game", default=None)
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--matches", type=int, default=1)
    args = ap.parse_args()
    names = [args.game] if args.game else cardplay.games()
    print(f"review at level {args.level}: CPU seconds (median of the records), decisions, "
          "exact decisions")
    for name in names:
        for label, count, whole in (("deal", args.deals, False), ("match", args.matches, True)):
            if not count:
                continue
            runs = [timed(record_of(name, 100 + i, whole), args.level) for i in range(count)]
            seconds = statistics.median(r[0] for r in runs)
            decisions = statistics.median(r[1] for r in runs)
            exact = statistics.median(r[2] for r in runs)
            print(f"{name:15} {label:5} {seconds:7.2f} s  {decisions:5.0f} decisions "
                  f"{exact:4.0f} exact   (max {max(r[0] for r in runs):.2f} s)", flush=True)


if __name__ == "__main__":
    main()
