"""Two Sixty-Six searchers head to head on duplicate deals, both without the seconds cap, so the
moves depend only on the seeds (a busy machine slows the run but changes nothing):

    python benchmarks/head_to_head.py --a expert --b strong --deals 300 --seed 950
    python benchmarks/head_to_head.py --a strong --b strong --set-b exact_leaves=0 --deals 300

``--set-a`` / ``--set-b KEY=VALUE`` (VALUE as JSON) change one setting of a side's searcher, for
ablations. Prints A's running share of the deals (1 for a deal won in both seatings, 0.5 for one
of two) with a 95% interval over deals, then CPU milliseconds per move of each side (median,
p95, p99, max; forced moves excluded). Stopped early (Ctrl-C, or ``kill`` with SIGTERM), it
still prints the times of the deals it finished.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import signal
import time
from typing import Any

import cardplay
from cardplay.arena import play_deal
from cardplay.bots import build, searcher_of
from cardplay.declaration import Searcher


class _Timed:
    """A bot that records its CPU time on every decision with a choice."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot, self.times = bot, times

    def choose(self, view: Any) -> Any:
        t = time.process_time()
        move = self.bot.choose(view)
        if len(view.legal_moves) > 1:
            self.times.append(time.process_time() - t)
        return move


def _searcher(game: cardplay.Game, level: str, sets: list[str]) -> Searcher:
    base = searcher_of(level, game)
    settings = {**base.settings, "seconds": None}
    for item in sets:
        key, _, value = item.partition("=")
        settings[key] = json.loads(value)
    return dataclasses.replace(base, settings=settings)


def _quantiles(xs: list[float]) -> str:
    xs = sorted(xs)
    if not xs:
        return "-"
    at = [xs[min(len(xs) - 1, int(q * len(xs)))] * 1000 for q in (0.5, 0.95, 0.99)]
    return f"median {at[0]:.0f} / p95 {at[1]:.0f} / p99 {at[2]:.0f} / max {xs[-1] * 1000:.0f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="strong")
    ap.add_argument("--set-a", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--set-b", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=950)
    ap.add_argument("--options", default="{}", help="the game's options as JSON")
    args = ap.parse_args()
    game = cardplay.load("sixty-six", **json.loads(args.options))
    a, b = _searcher(game, args.a, args.set_a), _searcher(game, args.b, args.set_b)
    shares: list[float] = []
    times: dict[str, list[float]] = {"a": [], "b": []}
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        _play(game, a, b, args, shares, times)
    except KeyboardInterrupt:  # a long run stopped early still reports what it measured
        print(f"stopped after {len(shares)} deals")
    print(f"{args.a} CPU ms per move: {_quantiles(times['a'])}")
    print(f"{args.b} CPU ms per move: {_quantiles(times['b'])}")


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _play(game: cardplay.Game, a: Searcher, b: Searcher, args: argparse.Namespace,
          shares: list[float], times: dict[str, list[float]]) -> None:
    for i in range(args.deals):
        deal_seed = args.seed * 1000 + i
        total = 0.0
        for seat_a in (0, 1):
            bots: list[Any] = [
                _Timed(build(a, game, deal_seed * 2 + s), times["a"]) if s == seat_a
                else _Timed(build(b, game, deal_seed * 2 + s), times["b"]) for s in (0, 1)]
            r = play_deal(game, deal_seed, bots)
            total += 1.0 if r[seat_a] > r[1 - seat_a] else 0.5 if r[seat_a] == r[1 - seat_a] \
                else 0.0
        shares.append(total / 2)
        n = len(shares)
        m = sum(shares) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in shares) / max(1, n - 1))
        half = 1.96 * sd / math.sqrt(n)
        print(f"{n} deals: {args.a} share {m:.3f} [{m - half:.3f}, {m + half:.3f}]"
              f" (deal {deal_seed}: {shares[-1]})", flush=True)


if __name__ == "__main__":
    main()
