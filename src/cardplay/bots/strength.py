"""How often each bot level beats the level below it, game by game: what a player choosing an
opponent is told (the browser's level chooser and the rules' list of levels).

These are measurements, not rules: each row is one run of the arena on fresh seeds,

    cardplay arena GAME LEVEL BELOW --deals N --seed SEED --workers 1

with the game's default options (the most players where the game has more than two: one seat
of ``LEVEL`` against the rest at ``BELOW``). ``share`` is the level's share of the deals (1 for
a deal it wins alone, ``1/k`` for a ``k``-way tie for the best result), with the arena's 95%
interval over duplicate deals; ``fair`` is the share that would mean equal strength. Sixty-Six's
``expert`` row comes from ``python benchmarks/head_to_head.py --a expert --b strong --deals N
--seed SEED`` instead (the same share and interval, without the seconds caps: an expert move
capped at 5 s of wall time on a shared machine would measure the machine). docs/bots.md
has the table and how it was made; rerun and replace a row when a bot changes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["STRENGTH", "Strength", "strength_of"]


@dataclass(frozen=True)
class Strength:
    """One adjacent pair of levels in one game: ``level`` against ``below``."""

    level: str
    below: str
    share: float
    low: float
    high: float
    fair: float
    deals: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# game -> the measured pairs, lowest level first
STRENGTH: dict[str, tuple[Strength, ...]] = {
    "sixty-six": (
        Strength("heuristic", "random", 0.884, 0.858, 0.910, 0.500, 200, 401),
        Strength("fast", "heuristic", 0.541, 0.504, 0.579, 0.500, 200, 301),
        Strength("strong", "fast", 0.583, 0.543, 0.623, 0.500, 150, 951),
        # head_to_head.py on seeds 960 and 961, 175 deals each (two processes)
        Strength("expert", "strong", 0.536, 0.511, 0.562, 0.500, 350, 960),
    ),
    "two-ten-jack": (
        Strength("heuristic", "random", 0.738, 0.698, 0.777, 0.500, 200, 402),
        Strength("fast", "heuristic", 0.515, 0.501, 0.529, 0.500, 2000, 408),
        Strength("strong", "fast", 0.506, 0.494, 0.518, 0.500, 2000, 409),
    ),
    "maltese-twenty": (
        Strength("heuristic", "random", 0.979, 0.965, 0.993, 0.500, 200, 403),
        Strength("fast", "heuristic", 0.571, 0.536, 0.607, 0.500, 200, 305),
        Strength("strong", "fast", 0.573, 0.525, 0.620, 0.500, 100, 306),
    ),
    "twenty": (
        Strength("heuristic", "random", 0.590, 0.562, 0.618, 0.500, 200, 404),
        Strength("fast", "heuristic", 0.500, 0.500, 0.501, 0.500, 2000, 501),
        Strength("strong", "fast", 0.500, 0.478, 0.522, 0.500, 1000, 502),
    ),
    "macao": (
        Strength("heuristic", "random", 0.654, 0.625, 0.684, 0.333, 200, 405),
        Strength("fast", "heuristic", 0.335, 0.331, 0.339, 0.333, 1000, 503),
        Strength("strong", "fast", 0.335, 0.330, 0.340, 0.333, 1000, 714),
    ),
    "banchok": (
        Strength("heuristic", "random", 0.377, 0.346, 0.407, 0.333, 200, 406),
        Strength("fast", "heuristic", 0.400, 0.370, 0.430, 0.333, 200, 311),
        Strength("strong", "fast", 0.417, 0.374, 0.460, 0.333, 100, 312),
    ),
    "chukhny": (
        Strength("heuristic", "random", 0.382, 0.366, 0.398, 0.333, 200, 407),
        Strength("fast", "heuristic", 0.412, 0.400, 0.425, 0.333, 200, 313),
        Strength("strong", "fast", 0.340, 0.318, 0.362, 0.333, 100, 314),
    ),
}


def strength_of(game: str) -> tuple[Strength, ...]:
    """The measured pairs of ``game`` (empty for a game not measured, such as a new one)."""
    return STRENGTH.get(game, ())
