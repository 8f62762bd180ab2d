"""Speed against the reference platform: the PyPI package ``schnapsen`` (VU Amsterdam).

Times random-vs-random complete games on its engine (its ``RandBot`` pair) and on ours with the
Schnapsen preset, alternated in one run, median of 5 runs, and prints the ratios. ``schnapsen`` is
a benchmark-only dependency that cardplay never imports:

    pip install schnapsen && python benchmarks/vs_schnapsen.py [--games N] [--runs R]

Ours is measured three ways: random bots that receive a View each turn (the bot protocol, the
closest match to its bots receiving a perspective), the public deal API (``legal_moves()`` +
``play()``) and the bots' fast path (``legal_codes()`` + ``apply_code()``). A fourth line is the
ceiling of the fast path: the same driver loop over a deal with no rules at all (today's shuffle
of the seed, which records replay, then 14 moves, the mean of a random Schnapsen game, each a
list of legal codes, ``random.choice`` and a history entry); no engine of this API and driver
can beat it.

``--instructions`` counts instead of timing: each contender runs N and 4N games in a process of
its own under valgrind (``--tool=cachegrind``) and the line is (I(4N) - I(N)) / 3N instructions
per game, the same on a busy machine as on a quiet one (timings here move by 10-40%). The VU
engine spends more of its time waiting on memory than ours, so its timing ratios come out about
a third higher than its instruction ratios.

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


# The mean number of moves of a random-vs-random Schnapsen game (14.01, 14.10 and 14.14 over
# 5,000 games from seeds 0, 7919 and 15838).
FLOOR_MOVES = 14


class NoRulesDeal:
    """The least a deal can do per move through the fast path: hand out a list of legal codes
    and keep the history that records and replays need. Its cards are today's shuffle of the
    seed (what every seeded deal must deal from); it ends after ``FLOOR_MOVES`` moves."""

    __slots__ = ("_hands", "_left", "_turn", "history")

    def __init__(self, order: list[int]) -> None:
        self.history: list[tuple[int, int]] = []
        self._turn: int | None = 0
        self._hands = (order[0:10:2], order[1:10:2])
        self._left = FLOOR_MOVES

    def legal_codes(self) -> list[int]:
        return self._hands[self._turn][:]  # type: ignore[index]

    def apply_code(self, code: int) -> None:
        turn = self._turn
        self.history.append((turn, code))  # type: ignore[arg-type]
        self._left -= 1
        self._turn = None if not self._left else 1 - turn  # type: ignore[operator]


def no_rules_floor(games: int, seed: int) -> None:
    choice = random.Random(seed).choice
    shuffle = GAME._shuffled
    for i in range(games):
        d = NoRulesDeal(shuffle(seed + i))
        legal, apply = d.legal_codes, d.apply_code
        while d._turn is not None:
            apply(choice(legal()))


CONTENDERS: dict[str, Callable[[int, int], None]] = {
    "schnapsen 0.0.5 engine, RandBot x2": theirs,
    "cardplay, RandomBot on views": ours_bots,
    "cardplay, public API": ours_api,
    "cardplay, fast path": ours_fast,
    "ceiling: the fast path with no rules": no_rules_floor,
}


def instructions(name: str, games: int) -> int:
    """Instructions of a whole process playing ``games`` games of one contender (valgrind)."""
    from instructions import instructions_of  # beside this file

    return instructions_of([__file__, "--work", name, str(games)])


def count_instructions(games: int) -> None:
    per_game = {name: (instructions(name, 4 * games) - instructions(name, games)) / (3 * games)
                for name in CONTENDERS}
    base = per_game["schnapsen 0.0.5 engine, RandBot x2"]
    print(f"instructions per random-vs-random Schnapsen game (valgrind, (I({4 * games}) - "
          f"I({games})) / {3 * games})")
    for name, count in per_game.items():
        print(f"  {name:<38}{count:>12,.0f}   {base / count:5.1f}x")


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--work":  # one contender, counted by valgrind
        fn = CONTENDERS[sys.argv[2]]
        fn(2, 99)  # imports, tables and caches warmed: the same in both counts
        fn(int(sys.argv[3]), 0)
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions per game with valgrind instead of timing "
                    "(--games is then N of the N and 4N counts; 100 is plenty)")
    args = ap.parse_args()
    try:
        import schnapsen  # noqa: F401
    except ImportError:
        print("the 'schnapsen' package is not installed: pip install schnapsen", file=sys.stderr)
        return 2
    if args.instructions:
        count_instructions(args.games)
        return 0
    contenders = CONTENDERS
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
