"""Macao's fixed action space (``54 + max_stake`` actions; 104 by default).

52 ``buy``, 53 ``stand``, ``53 + N`` ``stake N`` (1 <= N <= ``max_stake``; the engine's code is
``100 + N``); the card slots 0..51 are never legal (no move names a card).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...actions import ActionSpace
from .deal import BUY, STAKE_BASE, STAND

__all__ = ["MacaoActions"]

# action = code - SHIFT for a stake: ``stake N`` is code STAKE_BASE + N and action STAND + N
SHIFT = STAKE_BASE - STAND


class MacaoActions(ActionSpace):
    """52 buy, 53 stand, 53 + N stake N (engine code 100 + N)."""

    def action_of(self, code: int) -> int:
        if code in (BUY, STAND):
            return code
        if STAKE_BASE < code <= STAKE_BASE + self.size - 54:
            return code - SHIFT
        raise self._outside(code)

    def legal(self, codes: Sequence[int]) -> dict[int, int]:
        f = self.action_of
        return {f(c): c for c in codes}

    def legal_actions(self, codes: Sequence[int]) -> list[int]:
        return sorted(self.legal(codes))

    def code_of(self, action: int, codes: Sequence[int]) -> int | None:
        code = action + SHIFT if action > STAND else action if action >= BUY else -1
        return code if code in codes else None

    def mask(self, codes: Sequence[int]) -> bytearray:
        m = bytearray(self.size)
        top = STAKE_BASE + self.size - 54
        for c in codes:
            if c in (BUY, STAND):
                m[c] = 1
            elif STAKE_BASE < c <= top:
                m[c - SHIFT] = 1
            else:
                raise self._outside(c)
        return m

    def _code_for_text(self, action: int) -> int:
        return action + SHIFT if action > STAND else action
