"""How long a match with people may be: the largest value of each option that sets its length.

A game's own declaration accepts values meant for a match played at home (Twenty to 10,000
points); a server stores every move of a table with people, so it accepts less. The caps are
declared here beside the option they bound, shown in ``GET /api/games`` (each option's
``server_max``), and checked when a table with people is created. Games whose length follows
from chips and stakes (Banchok, Macao) are bounded by the move cap alone
(:attr:`cardplay.server.limits.Limits.table_moves`). Tables of bots only are bounded by
their own move cap and take any value the game accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import Game
from .tables import TableError

__all__ = ["MATCH_CAPS", "check_match_length", "match_too_long"]

# game -> option -> the largest value accepted at a table with people: each a match of at most
# a few thousand moves, well under the move cap
MATCH_CAPS: Mapping[str, Mapping[str, int]] = {
    "sixty-six": {"match_target": 21},
    "two-ten-jack": {"target": 250},
    "twenty": {"target": 500, "max_hands": 200},
    "chukhny": {"games": 10},
}


def match_too_long(game: Game) -> str | None:
    """Why a match of these options is longer than this server plays with people, or None."""
    options = game.options_dict()
    for name, most in MATCH_CAPS.get(game.name, {}).items():
        value = options.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value > most:
            return (f"{game.name}: option {name}={value} makes a longer match than this server "
                    f"plays with people; it takes at most {most} here")
    return None


def check_match_length(game: Game, seats: Sequence[Any]) -> None:
    """:class:`TableError` when a person sits at ``seats`` and the match is too long; a table
    of bots only is bounded by its own move cap instead."""
    if any(isinstance(s, Mapping) and s.get("kind") == "human" for s in seats):
        too_long = match_too_long(game)
        if too_long is not None:
            raise TableError(too_long)
