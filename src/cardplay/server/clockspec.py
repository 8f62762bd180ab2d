"""The time control a seek asks for: its validation and the per-game defaults.

SEAM: clocks are built on branch ``clocks`` (``server/clocks.py``), which owns how a table's
clock runs and validates ``POST /api/tables``'s ``"clock"``. Until it lands this module checks a
seek's ``clock`` with the contract's rules (DESIGN.md 6: ``{"move": s, "reserve": s}``, ``null``
for no clock on casual tables only); once it lands, :func:`check_clock` should call its check so
that a seek and a table accept exactly the same clocks.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["DEFAULT_CLOCK", "DEFAULT_CLOCKS", "MAX_MOVE", "MAX_RESERVE", "MIN_MOVE",
           "ClockError", "check_clock", "default_clock"]

MIN_MOVE = 2  # seconds per move, at least
MAX_MOVE = 300  # seconds per move, at most
MAX_RESERVE = 1800  # seconds of reserve, at most

DEFAULT_CLOCK = {"move": 15, "reserve": 60}
# games with many small moves (bets, draws, stakes) get less per move
DEFAULT_CLOCKS: dict[str, dict[str, int]] = {
    "sixty-six": {"move": 15, "reserve": 60},
    "two-ten-jack": {"move": 15, "reserve": 60},
    "maltese-twenty": {"move": 10, "reserve": 45},
    "twenty": {"move": 10, "reserve": 45},
    "chukhny": {"move": 10, "reserve": 45},
    "banchok": {"move": 10, "reserve": 45},
    "macao": {"move": 10, "reserve": 45},
}


class ClockError(ValueError):
    """A clock that cannot be accepted (the message says why)."""


def default_clock(game: str) -> dict[str, int]:
    return dict(DEFAULT_CLOCKS.get(game, DEFAULT_CLOCK))


def _seconds(value: Any, name: str, low: int, high: int) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or not low <= value <= high:
        raise ClockError(f"'clock.{name}' is a number of seconds from {low} to {high}")
    return int(value) if float(value).is_integer() else float(value)


def check_clock(game: str, value: Any, rated: bool, given: bool = True) -> dict[str, Any] | None:
    """The clock of a seek: the game's default when not ``given``; None (no clock) only for
    casual play; else ``{"move", "reserve"}`` within bounds. ClockError otherwise."""
    if not given:
        return default_clock(game)
    if value is None:
        if rated:
            raise ClockError("a rated game has a clock: 'clock' may be null only for casual play")
        return None
    if not isinstance(value, dict) or set(value) != {"move", "reserve"}:
        raise ClockError("'clock' is {\"move\": seconds, \"reserve\": seconds} or null")
    return {"move": _seconds(value["move"], "move", MIN_MOVE, MAX_MOVE),
            "reserve": _seconds(value["reserve"], "reserve", 0, MAX_RESERVE)}
