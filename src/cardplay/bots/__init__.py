"""Bots: the protocol, levels by name, and the bots written once over View + sample_deal.

A bot is any object with ``choose(view) -> Move``; it is only called when ``view.to_move`` is its
seat, and it sees nothing but that view.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from ..engine import Game, Move, View

__all__ = ["LEVELS", "Bot", "RandomBot", "load"]


class Bot(Protocol):
    """The bot protocol."""

    def choose(self, view: View) -> Move: ...


from .random import RandomBot  # noqa: E402

LEVELS = ("random", "heuristic")


def load(level: str, game: Game, seed: int | None = None) -> Bot:
    """A bot of a named level for a game: ``random`` or ``heuristic`` (per-game knowledge)."""
    if level == "random":
        return RandomBot(game, seed=seed)
    if level == "heuristic":
        module = type(game).__module__.rsplit(".", 1)[-1]
        try:
            mod = importlib.import_module(f"{__name__}.heuristics.{module}")
        except ModuleNotFoundError:
            raise ValueError(f"no heuristic bot for {game.name} yet; levels: random") from None
        bot: Bot = mod.HeuristicBot(game, seed=seed)
        return bot
    raise ValueError(f"unknown bot level {level!r}; valid levels: {', '.join(LEVELS)}")
