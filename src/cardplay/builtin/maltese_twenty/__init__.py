"""Maltese Twenty (A. Farrugia, 1997): two players, two rounds, one shared running total.

The rules summary and the move codes (what ``cardplay rules maltese-twenty`` prints) are the
docstring of :mod:`.game`, which defines the game, its notation and its sampling of deals;
:mod:`.rules` holds the card values, the Tally's scores and one round's play, and
:mod:`.declaration` what the game declares about itself. Importing this package registers the
game.
"""

from __future__ import annotations

from .declaration import DECLARATION
from .game import RULES_RU, MalteseTwentyGame, MalteseTwentyOptions
from .rules import VALUES, MalteseTwentyDeal, bonus_of, tally_score

__all__ = [
    "DECLARATION",
    "RULES_RU",
    "VALUES",
    "MalteseTwentyDeal",
    "MalteseTwentyGame",
    "MalteseTwentyOptions",
    "bonus_of",
    "tally_score",
]
