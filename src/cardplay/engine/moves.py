"""Moves: one action in a game's notation."""

from __future__ import annotations

from .errors import InvalidMoveError


class Move:
    """One action in a game's notation (RULES.md 0.4).

    A Move compares equal to its canonical text, so ``"KH=20" in deal.legal_moves()`` works, and
    ``repr`` round-trips: ``Move('KH=20')``.
    """

    __slots__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is text, not {type(text).__name__}")
        object.__setattr__(self, "text", text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.text == other.text
        if isinstance(other, str):
            return self.text == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __lt__(self, other: Move) -> bool:
        return self.text < str(other)
