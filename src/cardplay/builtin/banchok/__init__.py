"""Polish Banchok («Польский банчок»), a banking game with a rotating bank.

The rules summary and the move codes (what ``cardplay rules banchok`` prints) are the docstring of
:mod:`.game`, which defines the game; :mod:`.deal` holds one bank's rules, :mod:`.sampling` what a
seat knows of the deck and the sampling of deals for the searchers, and :mod:`.declaration` what
the game declares about itself. Importing this package registers the game.
"""

from __future__ import annotations

from .deal import MIN_STAKE, STAKE_BASE, BanchokDeal, punter_wins
from .declaration import DECLARATION
from .game import RULES_RU, Banchok, BanchokOptions
from .sampling import DeckKnowledge, deck_knowledge

__all__ = [
    "DECLARATION",
    "MIN_STAKE",
    "RULES_RU",
    "STAKE_BASE",
    "Banchok",
    "BanchokDeal",
    "BanchokOptions",
    "DeckKnowledge",
    "deck_knowledge",
    "punter_wins",
]
