"""Bots: the protocol, levels by name, and the bots written once over View + sample_deal.

A bot is any object with ``choose(view) -> Move``; it is only called when ``view.to_move`` is its
seat, and it sees nothing but that view.

The levels: ``random`` (uniform legal moves) for every game; ``heuristic``, ``fast`` and
``strong`` as the game declares them (``game.declaration.bots``): its heuristic, and for each
search level a :class:`~cardplay.declaration.Searcher` with its budget; ``expert`` only where a
game declares it, having beaten ``strong`` head to head (Sixty-Six: docs/bots.md, issue 33).
Which searcher plays each game, and why (every figure with its command), is in ``docs/bots.md``.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from ..declaration import Bots, Searcher
from ..engine import Game, Move, View

__all__ = ["LEVELS", "Bot", "Evaluation", "RandomBot", "build", "evaluate", "heuristic", "load",
           "searcher_of"]


class Bot(Protocol):
    """The bot protocol."""

    def choose(self, view: View) -> Move: ...


from .random import RandomBot  # noqa: E402

LEVELS = ("random", "heuristic", "fast", "strong", "expert")


def _declared_bots(game: Game) -> Bots:
    bots = game.declaration.bots
    if bots is None:
        raise ValueError(f"{game.name} declares no bots; levels: random")
    return bots


def _resolve(path: str) -> Any:
    """The object at ``"module:name"``."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def heuristic(game: Game, seed: int | None = None, **settings: Any) -> Bot:
    """The game's heuristic bot (``settings``: keyword arguments of its class)."""
    bot: Bot = _resolve(_declared_bots(game).heuristic)(game, seed=seed, **settings)
    return bot


def searcher_of(level: str, game: Game) -> Searcher:
    """The declared searcher of a search level (``fast``, ``strong``) in a game."""
    levels = _declared_bots(game).levels
    if level not in levels:
        raise ValueError(f"unknown bot level {level!r} for {game.name}; valid levels: "
                         f"{', '.join(('random', 'heuristic', *levels))}")
    return levels[level]


def build(searcher: Searcher, game: Game, seed: int | None) -> Bot:
    """A bot of a searcher (a declared one, or one with other settings, as benchmarks build)."""
    settings = dict(searcher.settings)
    kind = searcher.kind
    if kind == "heuristic":  # the heuristic's own look-ahead with a larger budget
        return heuristic(game, seed, **settings)
    if kind == "rollout":
        from .rollout import PolicyRolloutBot

        return PolicyRolloutBot(game, heuristic, seed=seed,
                                light_views=not _declared_bots(game).reads_history, **settings)
    if kind == "ismcts":
        from .ismcts import ISMCTSBot

        return ISMCTSBot(game, seed=seed, **settings)
    if kind == "factory" and searcher.factory is not None:
        if settings.get("follower") == "heuristic":
            settings["follower"] = heuristic(game, seed)
        bot: Bot = _resolve(searcher.factory)(game, seed=seed, **settings)
        return bot
    raise ValueError(f"{game.name}: unknown searcher {kind!r}")


def load(level: str, game: Game, seed: int | None = None) -> Bot:
    """A bot of a named level for a game.

    ``random``: uniform legal moves; ``heuristic``: the game's rules of thumb; ``fast`` and
    ``strong``: the searcher the game declares for the level; ``learned`` (not in
    :data:`LEVELS`: it needs NumPy and ships for some games only): a trained NumPy policy
    (:mod:`cardplay.bots.policy`). Budgets are counted in
    iterations, worlds or simulated decisions (reproducible for a seed); a searcher's
    ``seconds`` only caps them as a safety net on slow machines.
    """
    if level == "random":
        return RandomBot(game, seed=seed)
    if level == "learned":  # a research level: NumPy and a shipped policy for the game
        try:
            from .policy import learned
        except ImportError as e:
            raise ValueError("the level learned needs NumPy: pip install 'cardplay[rl]'") from e
        return learned(game, seed=seed)
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; valid levels: {', '.join(LEVELS)}, "
                         f"learned")
    if level == "heuristic":
        return heuristic(game, seed)
    return build(searcher_of(level, game), game, seed)


from .evaluation import Evaluation, evaluate  # noqa: E402  (it builds bots with the above)
