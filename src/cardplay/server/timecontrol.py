"""Time controls: what a table's clock is (bounds, per-game defaults, the check of a requested
clock, shared by table creation and seeks) and the clock's stored state.

The state is what :mod:`.clocks` runs and stores with every move: each seat's reserve left,
the turn's start and deadline, strikes, timeouts and forfeits (see :class:`ClockState`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DEFAULTS", "FALLBACK", "UNSET", "ClockError", "ClockRules", "ClockState",
           "default_clock", "parse_clock"]

# (seconds per move, reserve) by game: trick games with a handful of decisions a deal get more
# per move; games of many small moves (draws in Twenty, Chukhny's runs) less, so that a stalled
# person holds the others up less
DEFAULTS: dict[str, tuple[int, int]] = {
    "sixty-six": (15, 60), "two-ten-jack": (15, 60), "maltese-twenty": (12, 45),
    "macao": (12, 45), "banchok": (12, 45), "twenty": (8, 45), "chukhny": (8, 45),
}
FALLBACK = (15, 60)


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()  # the request gave no "clock": the game's default applies


class ClockError(ValueError):
    """A clock that cannot be had (its message says why); HTTP 400 with its ``code``:
    ``bad_clock`` (not a clock, or out of bounds) or ``clock_required`` (a rated table)."""

    def __init__(self, message: str, code: str = "bad_clock") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class ClockRules:
    """The server's bounds and constants of clocks (``cardplay serve --clock-...``)."""

    min_move: float = 3.0  # seconds per move, at least (tests use 1)
    max_move: float = 120.0  # seconds per move, at most
    max_reserve: float = 600.0  # seconds of reserve, at most
    strikes: int = 3  # K: timeouts in a row after which a person forfeits
    away_forfeit: float = 120.0  # seconds disconnected (with another person here) to forfeit
    deal_pause: float = 8.0  # seconds after a deal's end before the next mover's clock runs

    def __post_init__(self) -> None:
        for name in ("min_move", "max_move", "max_reserve", "strikes", "away_forfeit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"the clock setting {name} must be a positive number")
        if self.deal_pause < 0 or self.min_move > self.max_move:
            raise ValueError("deal_pause is 0 or more; min_move is at most max_move")


def default_clock(game: str) -> dict[str, float]:
    move, reserve = DEFAULTS.get(game, FALLBACK)
    return {"move": move, "reserve": reserve}


def _seconds(raw: Any, name: str) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not math.isfinite(raw):
        raise ClockError(f"'clock.{name}' is a number of seconds")
    return float(raw)


def parse_clock(raw: Any, game: str, *, rated: bool, people: int,
                rules: ClockRules | None = None) -> dict[str, float] | None:
    """The checked clock of a new table (or a seek: the same checks) from a request's
    ``"clock"`` (:data:`UNSET` when the request has none). A table with more than one person
    gets the game's default; ``null`` (no clock) is refused at a rated table."""
    rules = rules or ClockRules()
    if raw is UNSET:
        return default_clock(game) if people > 1 or rated else None
    if people == 0 and raw is not None:
        raise ClockError("a table of bots only has no clock: clocks run only for people")
    if raw is None:
        if rated:
            raise ClockError("a rated table needs a clock; 'clock': null is for casual tables",
                         "clock_required")
        return None
    if not isinstance(raw, Mapping) or set(raw) != {"move", "reserve"}:
        raise ClockError("'clock' is {\"move\": seconds, \"reserve\": seconds} or null")
    move = _seconds(raw["move"], "move")
    reserve = _seconds(raw["reserve"], "reserve")
    if not rules.min_move <= move <= rules.max_move:
        raise ClockError(f"'clock.move' is from {rules.min_move:g} to {rules.max_move:g} "
                         f"seconds")
    if not 0 <= reserve <= rules.max_reserve:
        raise ClockError(f"'clock.reserve' is from 0 to {rules.max_reserve:g} seconds")
    return {"move": move, "reserve": reserve}


@dataclass
class ClockState:
    """A table's clock as stored (JSON in the table's row): see :meth:`to_json`."""

    move: float
    reserve: float
    reserves: list[float | None]  # reserve left per seat (None: a bot's seat)
    strikes: list[int]  # timeouts in a row per seat
    version: int = 0  # the state version the turn below belongs to
    seat: int | None = None  # the person whose turn it is (None: a bot's, or over)
    started: float | None = None  # unix time the turn's clock starts (None: not running)
    deadline: float | None = None  # unix time the turn's time runs out
    resume: float | None = None  # unix time before which no clock runs (a deal's end)
    # whether each person has connected once: no clock runs before all of them have (a
    # creator who is still opening the table, a friend following the invite)
    seen: list[bool] = field(default_factory=list)
    timeouts: list[dict[str, int]] = field(default_factory=list)  # {"n", "seat"}
    forfeits: list[dict[str, Any]] = field(default_factory=list)  # {"seat", "reason", "n"}

    @classmethod
    def new(cls, spec: Mapping[str, float], kinds: list[str]) -> ClockState:
        return cls(move=float(spec["move"]), reserve=float(spec["reserve"]),
                   reserves=[float(spec["reserve"]) if k == "human" else None for k in kinds],
                   strikes=[0] * len(kinds), seen=[k != "human" for k in kinds])

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "reserve": self.reserve, "reserves": list(self.reserves),
                "strikes": list(self.strikes), "version": self.version, "seat": self.seat,
                "started": self.started, "deadline": self.deadline, "resume": self.resume,
                "seen": list(self.seen),
                "timeouts": [dict(t) for t in self.timeouts],
                "forfeits": [dict(f) for f in self.forfeits]}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ClockState:
        return cls(move=float(d["move"]), reserve=float(d["reserve"]),
                   reserves=list(d["reserves"]), strikes=[int(x) for x in d["strikes"]],
                   version=int(d.get("version", 0)), seat=d.get("seat"),
                   started=d.get("started"), deadline=d.get("deadline"),
                   resume=d.get("resume"), seen=[bool(x) for x in d.get("seen", [])],
                   timeouts=[dict(t) for t in d.get("timeouts", [])],
                   forfeits=[dict(f) for f in d.get("forfeits", [])])

    def copy(self) -> ClockState:
        return ClockState.from_json(self.to_json())

    def spec(self) -> dict[str, float]:
        return {"move": self.move, "reserve": self.reserve}

    def left(self, seat: int, now: float | None) -> float | None:
        """Seconds left to a seat: the running turn's (``now`` given) to its deadline, else a
        whole move and the reserve left."""
        reserve = self.reserves[seat]
        if reserve is None:
            return None
        if now is not None and seat == self.seat and self.deadline is not None and \
                self.started is not None:
            return round(max(0.0, self.deadline - max(now, self.started)), 3)
        return round(self.move + reserve, 3)

    def begin(self, seat: int, at: float) -> None:
        """The seat's turn starts at ``at`` (or when a deal's end pause is over)."""
        if self.resume is not None:
            at = max(at, self.resume)
        self.seat, self.started = seat, at
        reserve = self.reserves[seat] or 0.0
        self.deadline = at + self.move + reserve

    def suspend(self) -> None:
        self.started = self.deadline = None
