"""The engine's errors: every one a ``ValueError`` with a message a person can act on."""

from __future__ import annotations


class GameError(ValueError):
    """Base of the engine's errors; every one is a ``ValueError`` with an actionable message."""


class InvalidMoveError(GameError):
    """The text does not fit the game's move notation."""


class IllegalMoveError(GameError):
    """The move fits the notation but cannot be made now (or not by this seat)."""


class OptionError(GameError):
    """An unknown option, or a value that the option does not take."""


class RecordError(GameError):
    """A record that is not a valid record of this engine, or whose moves do not replay."""
