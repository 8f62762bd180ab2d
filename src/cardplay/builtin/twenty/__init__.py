"""Twenty («Двадцать (20)»), with its seed and canonical presets.

The rules summary and the move codes (what ``cardplay rules twenty`` prints) are the docstring of
:mod:`.game`, which defines the game, its notation and its move generator; :mod:`.codes` holds
the move codes and card facts the modules share, :mod:`.deal` one hand's rules,
:mod:`.sampling` the sampling of deals for the searchers and :mod:`.declaration` what the game
declares about itself. Importing this package registers the game.
"""

from __future__ import annotations

from .codes import DRAW, PASS, PLAY_BASE, king_values, play_code
from .deal import TwentyDeal
from .declaration import DECLARATION
from .game import RULES_RU, Twenty, TwentyOptions, rank_counts

__all__ = [
    "DECLARATION",
    "DRAW",
    "PASS",
    "PLAY_BASE",
    "RULES_RU",
    "Twenty",
    "TwentyDeal",
    "TwentyOptions",
    "king_values",
    "play_code",
    "rank_counts",
]
