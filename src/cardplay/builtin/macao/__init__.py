"""Macao («Макао»), a baccarat-like banking game.

The rules summary and the move codes (what ``cardplay rules macao`` prints) are the docstring of
:mod:`.game`, which defines the game; :mod:`.deal` holds one banking turn's rules, :mod:`.sampling`
the sampling of deals for the searchers and :mod:`.declaration` what the game declares about
itself. Importing this package registers the game.
"""

from __future__ import annotations

from .deal import BUY, DECK, STAKE_BASE, STAND, VALUE, MacaoDeal, hand_value
from .declaration import DECLARATION
from .game import RULES_RU, Macao, MacaoOptions

__all__ = [
    "BUY",
    "DECK",
    "DECLARATION",
    "RULES_RU",
    "STAKE_BASE",
    "STAND",
    "VALUE",
    "Macao",
    "MacaoDeal",
    "MacaoOptions",
    "hand_value",
]
