"""Matches between bots over many seeded deals, with honest statistics.

Every deal is played once per seat rotation (two players: each deal twice with the seats swapped;
more players: bot A in each seat in turn, bot B in all the others), so luck of the deal cancels.
A bot's *share* of a deal is 1 when it alone has the best result, ``1/k`` when ``k`` seats tie
for the best, else 0; the fair share of an ``n``-seat game is ``1/n``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from .bots import Bot
from .bots import load as load_bot
from .engine import Game, derive_seed

__all__ = ["Report", "compare", "play_deal", "wilson_interval"]

BotFactory = Callable[[int], Bot]


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (successes may be fractional, e.g. shared wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Report:
    """What :func:`compare` measured for bot A against bot B."""

    game: str
    bot_a: str
    bot_b: str
    players: int
    deals: int
    games_played: int
    share: float
    share_low: float
    share_high: float
    fair_share: float
    mean_result_a: float
    mean_result_a_half_width: float
    seconds_per_move_a: float
    seconds_per_move_b: float
    extra: dict[str, Any] = field(default_factory=dict)

    def clear_of_fair(self) -> bool:
        """True when the 95% interval lies wholly above the fair share."""
        return self.share_low > self.fair_share

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        return (f"{self.game}: {self.bot_a} vs {self.bot_b}, {self.players} seats, "
                f"{self.games_played} games ({self.deals} deals x rotations): share "
                f"{self.share:.3f} [{self.share_low:.3f}, {self.share_high:.3f}] "
                f"(fair {self.fair_share:.3f}); mean result {self.mean_result_a:+.3f} "
                f"± {self.mean_result_a_half_width:.3f}; "
                f"{self.seconds_per_move_a * 1000:.2f} ms/move vs "
                f"{self.seconds_per_move_b * 1000:.2f} ms/move")


def play_deal(game: Game, seed: int, bots: list[Bot],
              timing: list[list[float]] | None = None) -> list[int]:
    """Play one deal with one bot per seat; return its result. Bots see only their views."""
    deal = game.deal(seed=seed)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        t0 = time.perf_counter()
        move = bots[seat].choose(view)
        if timing is not None:
            timing[seat].append(time.perf_counter() - t0)
        deal.play(move, seat=seat)
    result = deal.result
    assert result is not None
    return result


def _share(result: list[int], seat: int) -> float:
    best = max(result)
    if result[seat] != best:
        return 0.0
    return 1.0 / sum(1 for r in result if r == best)


def compare(game: Game, bot_a: str | BotFactory, bot_b: str | BotFactory, deals: int = 1000,
            seed: int = 0) -> Report:
    """Play ``deals`` seeded deals, each once per seat rotation, bot A against bot B."""
    n = game.players

    def factory(spec: str | BotFactory) -> BotFactory:
        if isinstance(spec, str):
            return lambda s: load_bot(spec, game, seed=s)
        return spec

    fa, fb = factory(bot_a), factory(bot_b)
    shares: list[float] = []
    results: list[int] = []
    time_a: list[float] = []
    time_b: list[float] = []
    for i in range(deals):
        deal_seed = derive_seed(seed, "arena", i)
        for a_seat in range(n):
            bots = [fa(derive_seed(deal_seed, s)) if s == a_seat else
                    fb(derive_seed(deal_seed, s)) for s in range(n)]
            timing: list[list[float]] = [[] for _ in range(n)]
            result = play_deal(game, deal_seed, bots, timing)
            shares.append(_share(result, a_seat))
            results.append(result[a_seat])
            time_a.extend(timing[a_seat])
            for s in range(n):
                if s != a_seat:
                    time_b.extend(timing[s])
    m = len(shares)
    share = sum(shares) / m
    lo, hi = wilson_interval(sum(shares), m)
    mean = sum(results) / m
    var = sum((r - mean) ** 2 for r in results) / max(1, m - 1)
    return Report(
        game=game.name, bot_a=str(bot_a if isinstance(bot_a, str) else "custom"),
        bot_b=str(bot_b if isinstance(bot_b, str) else "custom"), players=n, deals=deals,
        games_played=m, share=share, share_low=lo, share_high=hi, fair_share=1 / n,
        mean_result_a=mean, mean_result_a_half_width=1.96 * math.sqrt(var / m),
        seconds_per_move_a=_median(time_a), seconds_per_move_b=_median(time_b),
    )


def _median(xs: list[float]) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[len(s) // 2]
