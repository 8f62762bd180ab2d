"""RandomBot: a uniformly random legal move, from its own seeded generator."""

from __future__ import annotations

import random

from ..engine import Game, Move, View


class RandomBot:
    """Plays a uniformly random legal move."""

    def __init__(self, game: Game | None = None, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        if not view.legal_moves:
            raise ValueError("RandomBot was asked to move when its seat has no legal move")
        return self.rng.choice(view.legal_moves)
