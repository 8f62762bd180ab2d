"""CPU time per move of the searching levels in every game, on one core, against their targets.

Each deal seats the measured level at one seat and the heuristic at the others (the seat rotates
with the deal). Every decision of the measured bot is timed with ``time.process_time`` (CPU
time of this process: other jobs on the machine do not inflate it), forced moves included, as
the arena counts them. The targets are those of the levels: ``fast`` median at most 50 ms,
``strong`` median at most 1 s and p99 at most 3 s; ``expert`` (where a game has it) is held to
strong's. Figures only: nothing here passes or fails.

    python benchmarks/bot_times.py [--deals N] [--level fast|strong|expert] [--game NAME] [--seed S]
"""

from __future__ import annotations

import argparse
import time

import cardplay
from cardplay.arena import play_deal
from cardplay.bots import load

# (median, p99) in seconds
TARGETS = {"fast": (0.050, None), "strong": (1.0, 3.0), "expert": (1.0, 3.0)}
PLAYERS = {"twenty": 2}  # the rest: the game's default player count


def quantile(sorted_times: list[float], q: float) -> float:
    return sorted_times[min(len(sorted_times) - 1, int(q * len(sorted_times)))]


def measure(name: str, level: str, deals: int, seed: int) -> list[float]:
    options = {"players": PLAYERS[name]} if name in PLAYERS else {}
    game = cardplay.load(name, **options)
    times: list[float] = []
    for i in range(deals):
        measured = i % game.players
        bots = [load(level if s == measured else "heuristic", game, seed=seed + 7 * i + s)
                for s in range(game.players)]
        timing: list[list[float]] = [[] for _ in range(game.players)]
        play_deal(game, seed + i, bots, timing, clock=time.process_time)
        times += timing[measured]
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=10, help="deals per game and level")
    parser.add_argument("--level", choices=sorted(TARGETS), action="append")
    parser.add_argument("--game", action="append", help="a registered game (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    levels = args.level or ["fast", "strong"]
    games = args.game or cardplay.games()
    print(f"{'game':<16}{'level':<8}{'moves':>7}{'median ms':>11}{'p95 ms':>9}{'p99 ms':>9}"
          f"{'max ms':>9}  within target")
    for name in games:
        declared = cardplay.load(name).declaration.bots
        for level in levels:
            if declared is None or level not in declared.levels:
                continue
            t = measure(name, level, args.deals, args.seed)
            med, p99 = quantile(t, 0.5), quantile(t, 0.99)
            target_med, target_p99 = TARGETS[level]
            ok = med <= target_med and (target_p99 is None or p99 <= target_p99)
            print(f"{name:<16}{level:<8}{len(t):>7}{1000 * med:>11.1f}"
                  f"{1000 * quantile(t, 0.95):>9.1f}{1000 * p99:>9.1f}{1000 * t[-1]:>9.1f}"
                  f"  {'yes' if ok else 'NO'}", flush=True)


if __name__ == "__main__":
    main()
