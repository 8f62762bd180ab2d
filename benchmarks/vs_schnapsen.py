"""Speed against the reference platform: the PyPI package ``schnapsen`` (VU Amsterdam).

Times random-vs-random complete games on its engine (its ``RandBot`` pair) and on ours with the
Schnapsen preset, alternated in one run, median of 5 runs, and prints the ratios. ``schnapsen`` is
a benchmark-only dependency that cardplay never imports:

    pip install schnapsen && python benchmarks/vs_schnapsen.py [--games N] [--runs R]

Ours is measured three ways: random bots that receive a View each turn (the bot protocol, the
closest match to its bots receiving a perspective), the public deal API (``legal_moves()`` +
``play()``) and the bots' fast path (``legal_codes()`` + ``apply_code()``).

Playing strength against its bots, inside its engine: ``benchmarks/vs_schnapsen_match.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

import cardplay
from cardplay.bots import RandomBot


def theirs(games: int, seed: int) -> None:
    from schnapsen.bots import RandBot
    from schnapsen.game import SchnapsenGamePlayEngine

    engine = SchnapsenGamePlayEngine()
    rng = random.Random(seed)
    a, b = RandBot(random.Random(seed + 1)), RandBot(random.Random(seed + 2))
    for _ in range(games):
        engine.play_game(a, b, rng)


GAME = cardplay.load("sixty-six", preset="schnapsen")


def ours_bots(games: int, seed: int) -> None:
    bots = [RandomBot(seed=seed + 1), RandomBot(seed=seed + 2)]
    for i in range(games):
        d = GAME.deal(seed=seed + i)
        while not d.is_over:
            seat = d.to_move
            assert seat is not None
            d.play(bots[seat].choose(d.view(seat)), seat=seat)


def ours_api(games: int, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(games):
        d = GAME.deal(seed=seed + i)
        while not d.is_over:
            d.play(rng.choice(d.legal_moves()))


def ours_fast(games: int, seed: int) -> None:
    choice = random.Random(seed).choice
    for i in range(games):
        d = GAME.deal(seed=seed + i)
        legal, apply = d.legal_codes, d.apply_code
        while d._turn is not None:
            apply(choice(legal()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    try:
        import schnapsen  # noqa: F401
    except ImportError:
        print("the 'schnapsen' package is not installed: pip install schnapsen", file=sys.stderr)
        return 2
    contenders: dict[str, Callable[[int, int], None]] = {
        "schnapsen 0.0.5 engine, RandBot x2": theirs,
        "cardplay, RandomBot on views": ours_bots,
        "cardplay, public API": ours_api,
        "cardplay, fast path": ours_fast,
    }
    rates: dict[str, list[float]] = {k: [] for k in contenders}
    for r in range(args.runs):
        for name, fn in contenders.items():
            t0 = time.perf_counter()
            fn(args.games, 7919 * r)
            rates[name].append(args.games / (time.perf_counter() - t0))
    base = statistics.median(rates["schnapsen 0.0.5 engine, RandBot x2"])
    print(f"random-vs-random Schnapsen games per second, median of {args.runs} runs of "
          f"{args.games} games (alternated, one core)")
    for name in contenders:
        med = statistics.median(rates[name])
        print(f"  {name:<38}{med:>10,.0f}/s   {med / base:5.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
