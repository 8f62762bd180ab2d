"""Two-Ten-Jack: a Japanese two-player trick-taking game, played in hands to 31 points.

The rules summary and the move codes (what ``cardplay rules two-ten-jack`` prints) are the
docstring of :mod:`.game`, which defines the game; :mod:`.rules` holds one hand's rules,
:mod:`.sampling` the sampling of deals for the searchers and :mod:`.declaration` what the game
declares about itself. Importing this package registers the game.
"""

from __future__ import annotations

from .declaration import DECLARATION
from .game import RULES_RU, TwoTenJackGame, TwoTenJackOptions
from .rules import (
    AS,
    AS_SPADES,
    AS_TRUMPS,
    CARD_KINDS,
    CARD_POINTS,
    FOLLOWER_WINS,
    KIND_BITS,
    KIND_MASKS,
    KIND_NAMES,
    TRUMPS,
    TwoTenJackDeal,
    follower_wins,
)
from .sampling import DrawTimes, SamplingPlan, prepare_sampling

__all__ = [
    "AS",
    "AS_SPADES",
    "AS_TRUMPS",
    "CARD_KINDS",
    "CARD_POINTS",
    "DECLARATION",
    "FOLLOWER_WINS",
    "KIND_BITS",
    "KIND_MASKS",
    "KIND_NAMES",
    "RULES_RU",
    "TRUMPS",
    "DrawTimes",
    "SamplingPlan",
    "TwoTenJackDeal",
    "TwoTenJackGame",
    "TwoTenJackOptions",
    "follower_wins",
    "prepare_sampling",
]
