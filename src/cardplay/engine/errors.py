"""The engine's errors: every one a ``ValueError`` with a message a person can act on."""

from __future__ import annotations

from typing import Any


class GameError(ValueError):
    """Base of the engine's errors; every one is a ``ValueError`` with an actionable message."""


class InvalidMoveError(GameError):
    """The text does not fit the game's move notation."""


class IllegalMoveError(GameError):
    """The move fits the notation but cannot be made now (or not by this seat). ``reason``
    (a :class:`cardplay.engine.reasons.Reason`, where the deal gave one) names the rule that
    forbids it, in words for a person; the message itself is for programmers."""

    def __init__(self, message: str, reason: Any = None) -> None:
        super().__init__(message)
        self.reason = reason


class OptionError(GameError):
    """An unknown option, or a value that the option does not take."""


class RecordError(GameError):
    """A record that is not a valid record of this engine, or whose moves do not replay."""
