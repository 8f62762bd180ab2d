"""Chukhny («Чухны»): a climbing and shedding game for 2 to 15 players; do not be the last holder.

The rules summary and the move codes (what ``cardplay rules chukhny`` prints) are the docstring
of :mod:`.game`, which defines the game; :mod:`.deal` holds one game's rules, :mod:`.timeline`
what a view says about the past (for the sampler and the heuristic bot), :mod:`.sampling` the
sampling of deals for the searchers and :mod:`.declaration` what the game declares about itself.
Importing this package registers the game.
"""

from __future__ import annotations

from .deal import DRAW, TAKE, ChukhnyDeal
from .declaration import DECLARATION
from .game import RULES_RU, Chukhny, ChukhnyOptions
from .timeline import PublicTimeline, public_timeline

__all__ = [
    "DECLARATION",
    "DRAW",
    "RULES_RU",
    "TAKE",
    "Chukhny",
    "ChukhnyDeal",
    "ChukhnyOptions",
    "PublicTimeline",
    "public_timeline",
]
