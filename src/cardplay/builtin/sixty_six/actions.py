"""Sixty-Six's fixed action space (70 actions): the engine's codes.

0..51 play a card; ``52 + 4*suit + 2*q + f`` leads the King (q=0) or Queen (q=1) of a suit
announcing 20 (f=0) or 40 (f=1), ``KH=20``; 68 ``exchange``; 69 ``close``. Only the 24
(Schnapsen: 20) cards of the deck are ever legal. The identity over the codes, as the base class;
this subclass only names the card a marriage lead puts down (for history features).
"""

from __future__ import annotations

from ...actions import ActionSpace

__all__ = ["SixtySixActions"]

MARRIAGE_BASE = 52  # the first marriage-lead code; 16 of them, 4 per suit
EXCHANGE = 68


class SixtySixActions(ActionSpace):
    """Sixty-Six's action space: the engine's codes, a marriage lead putting down its K or Q."""

    def cards_of(self, code: int) -> tuple[int, ...]:
        if code < 52:
            return (code,)
        if code < EXCHANGE:  # a marriage lead: the K or Q of a suit
            k = code - MARRIAGE_BASE
            return ((k // 4) * 13 + (10 if (k >> 1) & 1 else 11),)
        return ()
