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

LEVELS = ("random", "heuristic", "fast", "strong")

# Search budgets per level: iterations (reproducible) capped by seconds per move (a safety net
# on slow machines; when the cap binds, the move depends on the machine's speed).
SEARCH_BUDGETS = {"fast": (120, 0.045), "strong": (1500, 0.9)}


def load(level: str, game: Game, seed: int | None = None) -> Bot:
    """A bot of a named level for a game.

    ``random``: uniform legal moves; ``heuristic``: per-game rules of thumb; ``fast`` and
    ``strong``: information-set MCTS over sampled worlds, with small and large budgets.
    """
    if level == "random":
        return RandomBot(game, seed=seed)
    if level in SEARCH_BUDGETS:
        from .ismcts import ISMCTSBot

        iterations, seconds = SEARCH_BUDGETS[level]
        if level == "strong" and game.name == "sixty-six":
            from .sixty_six_solver import PIMCBot

            return PIMCBot(game, seed=seed, iterations=iterations, seconds=seconds)
        return ISMCTSBot(game, seed=seed, iterations=iterations, seconds=seconds)
    if level == "heuristic":
        module = type(game).__module__.rsplit(".", 1)[-1]
        try:
            mod = importlib.import_module(f"{__name__}.heuristics.{module}")
        except ModuleNotFoundError:
            raise ValueError(f"no heuristic bot for {game.name} yet; levels: random") from None
        bot: Bot = mod.HeuristicBot(game, seed=seed)
        return bot
    raise ValueError(f"unknown bot level {level!r}; valid levels: {', '.join(LEVELS)}")
