"""Two-Ten-Jack's fixed action space (54 actions): the engine's codes.

0..51 play a card; 52 ``AS=S`` (lead the ace of spades declared a spade); 53 ``AS=H`` (declared
a trump). The identity over the codes, as the base class; this subclass only names the card a
declared lead puts down (for history features).
"""

from __future__ import annotations

from ...actions import ActionSpace
from .rules import AS, AS_SPADES, AS_TRUMPS

__all__ = ["TwoTenJackActions"]


class TwoTenJackActions(ActionSpace):
    """Two-Ten-Jack's action space: the engine's codes, a declared lead putting down the AS."""

    def cards_of(self, code: int) -> tuple[int, ...]:
        if code < 52:
            return (code,)
        return (AS,) if code in (AS_SPADES, AS_TRUMPS) else ()
