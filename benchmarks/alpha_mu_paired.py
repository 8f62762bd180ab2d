"""What alpha-mu after a close changes in Sixty-Six games, paired with PIMC on the same deals:

    python benchmarks/alpha_mu_paired.py --level strong --opponent heuristic --deals 300 \\
        --seed 970 --options '{"preset": "schnapsen"}'

Every deal is played in both seatings by LEVEL as declared (alpha-mu on once the talon is
closed) against OPPONENT, both without the seconds cap so the moves depend only on the seeds.
Alpha-mu draws no random numbers and searches the worlds PIMC sampled, so a game in which it
changed none of PIMC's moves is move for move the game PIMC would have played; only the games
where it changed a move are replayed with ``alpha_mu=0`` (the same seeds), and the two results
compared. Prints the closed-talon decisions searched, the moves changed, and over the changed
games the level's wins and game points with alpha-mu and without, with the mean difference per
changed game and per game of the whole run (95% normal intervals).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import cardplay
from cardplay.arena import play_deal
from cardplay.bots import LEVELS, build, load, searcher_of
from cardplay.bots.sixty_six_solver import PIMCBot

sys.path.insert(0, str(Path(__file__).resolve().parent))
# a sibling script, found through sys.path
from head_to_head import _quantiles


def _bot(game: cardplay.Game, level: str, seed: int, **overrides: Any) -> Any:
    """The level's bot without its seconds cap (a searcher), or the level as loaded."""
    try:
        searcher = searcher_of(level, game)
    except ValueError:
        return load(level, game, seed=seed)
    settings = {**searcher.settings, "seconds": None, **overrides}
    return build(dataclasses.replace(searcher, settings=settings), game, seed)


class _Timed:
    """The level's bot, keeping the CPU time of each move on which it ran alpha-mu."""

    def __init__(self, bot: PIMCBot, times: list[float]) -> None:
        self.bot, self.times = bot, times

    def choose(self, view: Any) -> Any:
        searched, t = self.bot.alpha_mu_searches, time.process_time()
        move = self.bot.choose(view)
        if self.bot.alpha_mu_searches > searched:
            self.times.append(time.process_time() - t)
        return move


def _mean_interval(xs: list[float]) -> str:
    n = len(xs)
    if n == 0:
        return "- (no games)"
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return f"{m:+.3f} [{m - half:+.3f}, {m + half:+.3f}] over {n}"


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--level", default="strong", choices=LEVELS)
    ap.add_argument("--opponent", default="heuristic", choices=LEVELS)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=970)
    ap.add_argument("--options", default="{}", help="the game's options as JSON")
    args = ap.parse_args()
    game = cardplay.load("sixty-six", **json.loads(args.options))
    games = searched = changed = 0
    won_diff: list[float] = []      # per changed game: won with alpha-mu minus won without
    points_diff: list[float] = []   # the same for the level's game-point margin
    won_with = won_without = 0
    times: list[float] = []
    for i in range(args.deals):
        deal_seed = args.seed * 1000 + i
        for seat in (0, 1):
            ours = _bot(game, args.level, deal_seed * 2 + seat)
            assert isinstance(ours, PIMCBot), "alpha-mu is a setting of Sixty-Six's searchers"
            bots = [_Timed(ours, times), _bot(game, args.opponent, deal_seed * 2 + 1 - seat)]
            if seat:
                bots.reverse()
            result = play_deal(game, deal_seed, bots)
            games += 1
            searched += ours.alpha_mu_searches
            if not ours.alpha_mu_changes:
                continue
            changed += ours.alpha_mu_changes
            plain = _bot(game, args.level, deal_seed * 2 + seat, alpha_mu=0)
            bots = [plain, _bot(game, args.opponent, deal_seed * 2 + 1 - seat)]
            if seat:
                bots.reverse()
            before = play_deal(game, deal_seed, bots)
            win_a = result[seat] > result[1 - seat]
            win_b = before[seat] > before[1 - seat]
            won_with += win_a
            won_without += win_b
            won_diff.append(float(win_a) - float(win_b))
            points_diff.append(float((result[seat] - result[1 - seat])
                                     - (before[seat] - before[1 - seat])))
        if (i + 1) % 25 == 0 or i + 1 == args.deals:
            print(f"{i + 1} deals, {games} games: {searched} closed-talon moves searched by "
                  f"alpha-mu, {changed} changed from PIMC's in {len(won_diff)} games",
                  flush=True)
    print(f"CPU ms of the level's moves searched by alpha-mu (PIMC's solves included): "
          f"{_quantiles(times)}")
    print(f"changed games: won {won_with} with alpha-mu, {won_without} with PIMC")
    print(f"won, per changed game: {_mean_interval(won_diff)}")
    print(f"game-point margin, per changed game: {_mean_interval(points_diff)}")
    whole = won_diff + [0.0] * (games - len(won_diff))
    print(f"won, per game of the run: {_mean_interval(whole)}")


if __name__ == "__main__":
    main()
