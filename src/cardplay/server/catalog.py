"""What ``GET /api/games`` serves: every game's declaration, with what the lobby needs besides.

A client renders any game from this alone: the public state's fields with their kinds and words,
the options with their defaults, values, ranges and words, the move kinds, the facts and the bot
levels (``cardplay.declaration``).
"""

from __future__ import annotations

from typing import Any

from .. import bots
from ..bots.strength import strength_of
from ..engine import game_class, games, load
from .bounds import MATCH_CAPS
from .clocks import default_clock

__all__ = ["game_catalog"]


def game_catalog() -> list[dict[str, Any]]:
    """Every game's declaration, plus its players range, the bot levels it offers (with how
    often each beats the one below, where measured) and its default clock (a table with
    another person gets it); each option also lists its ``choices`` (the bare values, in the
    declaration's order)."""
    out: list[dict[str, Any]] = []
    for name in games():
        try:
            cls = game_class(name)
            game = load(name)
            entry = cls.declaration.to_dict(game)
        except Exception as e:  # a game being written may not import yet
            out.append({"name": name, "available": False, "error": str(e)})
            continue
        for option in entry["options"]:
            values = option.get("values")
            option["choices"] = [v["value"] for v in values] if values is not None else None
            # the most a table with people takes here (None: what the game itself accepts)
            option["server_max"] = MATCH_CAPS.get(name, {}).get(option["name"])
        levels = [level for level in bots.LEVELS if _offers(level, game)]
        # how often each level beats the one below (measured, bots/strength.py): the level
        # chooser says it in words
        strength = [s.to_dict() for s in strength_of(name)
                    if s.level in levels and s.below in levels]
        entry.update({"available": True, "min_players": cls.min_players,
                      "max_players": cls.max_players, "levels": levels, "strength": strength,
                      "clock": default_clock(name)})
        out.append(entry)
    return out


def _offers(level: str, game: Any) -> bool:
    try:
        bots.load(level, game, seed=0)
    except ValueError:
        return False
    return True
