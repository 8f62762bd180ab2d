"""Bots: the protocol, levels by name, and the bots written once over View + sample_deal.

A bot is any object with ``choose(view) -> Move``; it is only called when ``view.to_move`` is its
seat, and it sees nothing but that view.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Protocol

from ..engine import Game, Move, View

__all__ = ["LEVELS", "Bot", "HybridBot", "RandomBot", "load"]


class Bot(Protocol):
    """The bot protocol."""

    def choose(self, view: View) -> Move: ...


from .random import RandomBot  # noqa: E402

LEVELS = ("random", "heuristic", "fast", "strong")

# Search budgets per level: iterations (reproducible) capped by seconds per move (a safety net
# on slow machines; when the cap binds, the move depends on the machine's speed).
SEARCH_BUDGETS = {"fast": (120, 0.045), "strong": (1500, 0.9)}


class HybridBot:
    """Searches until the game's endgame, where an exact player takes over.

    ``endgame(view)`` says when every card is known or deducible (Two-Ten-Jack once the stock is
    empty); from then on ``exact`` plays, since sampling worlds adds nothing.
    """

    def __init__(self, search: Bot, exact: Bot, endgame: Callable[[View], bool]) -> None:
        self.search, self.exact, self.endgame = search, exact, endgame

    def choose(self, view: View) -> Move:
        return (self.exact if self.endgame(view) else self.search).choose(view)


# Games whose heuristic bot plays exactly once the stock is empty (both hands are then known).
_EXACT_ENDGAMES: dict[str, Callable[[View], bool]] = {
    "two-ten-jack": lambda view: view.public["stock"] == 0,
    "maltese-twenty": lambda view: view.public["stock_size"] == 0,
}


def _heuristic(game: Game, seed: int | None) -> Bot:
    module = type(game).__module__.rsplit(".", 1)[-1]
    try:
        mod = importlib.import_module(f"{__name__}.heuristics.{module}")
    except ModuleNotFoundError:
        raise ValueError(f"no heuristic bot for {game.name} yet; levels: random") from None
    bot: Bot = mod.HeuristicBot(game, seed=seed)
    return bot


def load(level: str, game: Game, seed: int | None = None) -> Bot:
    """A bot of a named level for a game.

    ``random``: uniform legal moves; ``heuristic``: per-game rules of thumb; ``fast`` and
    ``strong``: information-set MCTS over sampled worlds, with small and large budgets, handing
    over to exact play where a game's endgame has perfect information (Sixty-Six: PIMC with an
    exact solver once the talon is closed or gone; Two-Ten-Jack: the heuristic's exact search
    once the stock is empty).
    """
    if level == "random":
        return RandomBot(game, seed=seed)
    if level in SEARCH_BUDGETS:
        from .ismcts import ISMCTSBot

        iterations, seconds = SEARCH_BUDGETS[level]
        if game.name == "sixty-six":
            from .sixty_six_solver import PIMCBot

            worlds = 12 if level == "strong" else 2
            return PIMCBot(game, seed=seed, iterations=iterations, seconds=seconds,
                           worlds=worlds, max_nodes=60_000 if level == "strong" else 8_000)
        search = ISMCTSBot(game, seed=seed, iterations=iterations, seconds=seconds)
        if game.name in _EXACT_ENDGAMES:
            return HybridBot(search, _heuristic(game, seed), _EXACT_ENDGAMES[game.name])
        return search
    if level == "heuristic":
        return _heuristic(game, seed)
    raise ValueError(f"unknown bot level {level!r}; valid levels: {', '.join(LEVELS)}")
