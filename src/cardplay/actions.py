"""Fixed integer action spaces: every move of a game as one of ``0 .. size - 1``.

A game's action space (``game.action_space()``, its size and layout declared in ``game.facts``)
maps both ways between the engine's move codes in a position and a fixed set of actions, and
between actions and the game's notation; learning agents and the research adapters act through
it. The 52 card slots come first (an action ``c < 52`` plays the card with id ``c = suit * 13 +
rank``; suits S H D C, ranks 2..A), then the game's other actions. The base class is the
identity over the engine's codes below ``size``; a game whose codes do not fit it so subclasses
it in its own package.

Only the standard library is used here; the adapters add numpy masks on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import format_card

if TYPE_CHECKING:
    from .engine import Game

__all__ = ["ActionSpace"]


class ActionSpace:
    """A game's fixed action space; the base class is the identity over engine codes < size."""

    # Whether mapping a position's codes to actions costs more than a look-up (Twenty's rank
    # multisets); the adapters then build that mapping once per position and reuse it.
    mapped = False

    def __init__(self, game: Game, size: int) -> None:
        self.game = game
        self.size = size

    # ---- engine codes <-> actions

    def action_of(self, code: int) -> int:
        """The action of an engine move code (ValueError when the space does not hold it)."""
        if 0 <= code < self.size:
            return code
        raise self._outside(code)

    def _outside(self, code: int) -> ValueError:
        try:
            shown = f"move {self.game.move(code).text!r} (code {code})"
        except (ValueError, KeyError, IndexError):
            shown = f"move code {code}"
        return ValueError(f"{self.game.name}: {shown} is outside the action space "
                          f"of {self.size} actions")

    def legal(self, codes: Sequence[int]) -> dict[int, int]:
        """Legal actions of a position (from ``deal.legal_codes()``): action -> engine code."""
        size = self.size
        for c in codes:
            if not 0 <= c < size:
                raise self._outside(c)
        return {c: c for c in codes}

    def legal_actions(self, codes: Sequence[int]) -> list[int]:
        """The legal actions of a position, ascending."""
        out = sorted(codes)  # the identity: checking the ends checks every code
        if out and (out[0] < 0 or out[-1] >= self.size):
            self.legal(codes)  # names the code outside the space
        return out

    def code_of(self, action: int, codes: Sequence[int]) -> int | None:
        """The engine code that ``action`` plays in a position, or None when it is not legal."""
        return action if action in codes else None

    def mask(self, codes: Sequence[int]) -> bytearray:
        """The legal actions of a position as ``size`` bytes, 1 for each legal action."""
        m = bytearray(self.size)
        if not codes:
            return m
        k, lo, hi = len(codes), codes[0], codes[-1]
        if k > 16 and hi - lo + 1 == k and lo >= 0 and hi < self.size and \
                list(codes) == list(range(lo, hi + 1)):  # a range of stakes
            m[lo:hi + 1] = b"\x01" * k
            return m
        try:
            for c in codes:
                m[c] = 1
        except IndexError:
            self.legal(codes)  # names the code outside the space
            raise
        return m

    def cards_of(self, code: int) -> tuple[int, ...]:
        """The card ids a move code puts down (for history features)."""
        return (code,) if 0 <= code < 52 else ()

    # ---- actions <-> notation

    def text(self, action: int) -> str:
        """The notation of an action (``QH``, ``KH=20``, ``stake 7``, ``A+A+5``, ``draw``)."""
        self._check(action)
        try:
            return self.game.move(self._code_for_text(action)).text
        except (ValueError, KeyError, IndexError):
            return format_card(action) if action < 52 else f"#{action}"

    def _code_for_text(self, action: int) -> int:
        return action

    def action_of_text(self, text: str) -> int:
        """Parse the game's notation (or an action's text) to an action; ValueError otherwise."""
        return self.action_of(self.game.code_of(text))

    def _check(self, action: int) -> None:
        if isinstance(action, bool) or not isinstance(action, int) or \
                not 0 <= action < self.size:
            raise ValueError(f"{self.game.name}: actions are 0 to {self.size - 1}, "
                             f"not {action!r}")

    def __repr__(self) -> str:
        return f"<ActionSpace {self.game.name} size={self.size}>"
