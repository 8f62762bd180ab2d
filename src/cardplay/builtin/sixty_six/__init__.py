"""Sixty-Six («66») and its Schnapsen preset.

The rules summary and the move codes (what ``cardplay rules sixty-six`` prints) are the docstring
of :mod:`.game`, which defines the game; :mod:`.rules` holds one hand's rules, :mod:`.sampling`
the sampling of deals for the searchers and :mod:`.declaration` what the game declares about
itself. Importing this package registers the game.
"""

from __future__ import annotations

from .declaration import DECLARATION
from .game import RULES_RU, VU_SCHNAPSEN_OPTIONS, SixtySix, SixtySixOptions
from .rules import (
    CARD_POINTS,
    CLOSE,
    EXCHANGE,
    MARRIAGE_BASE,
    STRENGTH,
    SixtySixDeal,
    marriage_code,
)
from .sampling import SamplingPlan, prepare_sampling

__all__ = [
    "CARD_POINTS",
    "CLOSE",
    "DECLARATION",
    "EXCHANGE",
    "MARRIAGE_BASE",
    "RULES_RU",
    "STRENGTH",
    "VU_SCHNAPSEN_OPTIONS",
    "SamplingPlan",
    "SixtySix",
    "SixtySixDeal",
    "SixtySixOptions",
    "marriage_code",
    "prepare_sampling",
]
