"""Random-vs-random playout speed of every registered game and preset, on one core.

Prints deals per second and moves per second (median of 5 runs) through the public API
(``legal_moves()`` + ``play(move)``) and through the bots' fast path (``legal_codes()`` +
``apply_code(code)``), shuffles included; then what every searcher pays per sampled world:
microseconds per ``deal.copy()``, per ``game.sample_deal(view, rng)`` on a view seen for the first
time (the sampler reads the view's history then), and per further world of the same view (what a
search pays per iteration: samplers keep what they read of the last view), over positions taken
all through random deals (median of the runs). Figures only: nothing here passes or fails.

    python benchmarks/playouts.py [--deals N] [--runs R] [--game NAME]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import cardplay
from cardplay.engine import Deal, Game, game_class

# (game, label, options): every game with its default options, plus the presets and player counts
# that change the work per deal.
CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    ("sixty-six", "sixty-six", {}),
    ("sixty-six", "schnapsen", {"preset": "schnapsen"}),
    ("two-ten-jack", "default", {}),
    ("maltese-twenty", "default", {}),
    ("twenty", "seed 2p", {}),
    ("twenty", "seed 4p", {"players": 4}),
    ("twenty", "canonical 2p", {"preset": "canonical"}),
    ("twenty", "canonical 4p", {"preset": "canonical", "players": 4}),
    ("banchok", "3p", {}),
    ("macao", "3p", {}),
    ("chukhny", "3p", {}),
    ("chukhny", "6p", {"players": 6}),
]


def public_api(game: Game, deals: int, seed: int) -> int:
    rng = random.Random(seed)
    moves = 0
    for i in range(deals):
        d = game.deal(seed=seed + i)
        while not d.is_over:
            d.play(rng.choice(d.legal_moves()))
            moves += 1
    return moves


def fast_path(game: Game, deals: int, seed: int) -> int:
    rng = random.Random(seed)
    choice = rng.choice
    moves = 0
    for i in range(deals):
        d = game.deal(seed=seed + i)
        legal, apply = d.legal_codes, d.apply_code
        while d.to_move is not None:
            apply(choice(legal()))
            moves += 1
    return moves


def positions(game: Game, count: int, seed: int) -> list[Deal]:
    """``count`` deals in progress, stopped at random points of random play."""
    rng = random.Random(seed)
    out: list[Deal] = []
    i = 0
    while len(out) < count:
        d = game.deal(seed=seed + i)
        i += 1
        stop = rng.random()
        moves = 0
        while d.to_move is not None:
            if rng.random() < stop / 8 and moves:
                out.append(d)
                break
            d.apply_code(rng.choice(d.legal_codes()))
            moves += 1
    return out


def per_call_us(game: Game, count: int, runs: int) -> tuple[float, float, float]:
    """Median microseconds of one ``deal.copy()``, of one ``game.sample_deal(view)`` on a new
    view, and of one more world of a view just sampled."""
    copies, samples, resamples = [], [], []
    for r in range(runs):
        deals = positions(game, count, 7000 + 1000 * r)
        views = [d.view(d.to_move or 0) for d in deals]
        t0 = time.perf_counter()
        for d in deals:
            for _ in range(10):
                d.copy()
        copies.append((time.perf_counter() - t0) / (10 * len(deals)) * 1e6)
        rng = random.Random(r)
        t0 = time.perf_counter()
        for v in views:
            game.sample_deal(v, rng)
        samples.append((time.perf_counter() - t0) / len(views) * 1e6)
        t0 = time.perf_counter()
        for v in views:
            for _ in range(10):
                game.sample_deal(v, rng)
        resamples.append((time.perf_counter() - t0) / (10 * len(views)) * 1e6)
    return statistics.median(copies), statistics.median(samples), statistics.median(resamples)


def measure(fn: Callable[[Game, int, int], int], game: Game, deals: int,
            runs: int) -> tuple[float, float]:
    rates, move_rates = [], []
    for r in range(runs):
        t0 = time.perf_counter()
        moves = fn(game, deals, 1000 * r)
        dt = time.perf_counter() - t0
        rates.append(deals / dt)
        move_rates.append(moves / dt)
    return statistics.median(rates), statistics.median(move_rates)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--game", default=None)
    args = ap.parse_args()
    available = set(cardplay.games())
    print(f"{'game':<16}{'config':<15}{'API deals/s':>13}{'API moves/s':>13}"
          f"{'fast deals/s':>14}{'fast moves/s':>14}{'copy us':>9}{'sample us':>11}"
          f"{'resample us':>13}")
    for name, label, opts in CONFIGS:
        if name not in available or (args.game and args.game != name):
            continue
        fields = game_class(name).option_fields()
        if any(k not in fields for k in opts):
            continue
        game = cardplay.load(name, **opts)
        deals = max(50, args.deals // (4 if name in ("banchok", "macao", "chukhny") else 1))
        api = measure(public_api, game, deals, args.runs)
        fast = measure(fast_path, game, deals, args.runs)
        copy_us, sample_us, resample_us = per_call_us(game, max(20, deals // 10), args.runs)
        print(f"{name:<16}{label:<15}{api[0]:>13,.0f}{api[1]:>13,.0f}"
              f"{fast[0]:>14,.0f}{fast[1]:>14,.0f}{copy_us:>9.1f}{sample_us:>11.1f}"
              f"{resample_us:>13.1f}",
              flush=True)


if __name__ == "__main__":
    main()
