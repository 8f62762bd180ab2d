"""Why each card in a hand cannot be played now, sent with the state to the seat on its turn.

The browser holds no rules, yet a click on a card that cannot be played must at once say the
rule that forbids it ("you must follow suit", "the talon is closed, so you must head the
trick"). So the server asks the deal (``Deal.why_illegal``) for every card of the seat's own
hand that no legal move uses, and sends the reasons, in every language, as the state's
``refusals``. It reads only that seat's hand and the public state, so nothing leaks.
"""

from __future__ import annotations

import re
from typing import Any

from ..cards import format_card
from ..engine import Deal, InvalidMoveError

__all__ = ["hand_refusals"]

_CARD = re.compile(r"[2-9TJQKA][SHDC]")


def hand_refusals(deal: Deal, seat: int) -> dict[str, dict[str, Any]]:
    """``{card: {"name", "text": {lang: sentence}}}`` for each card of ``seat``'s hand that no
    legal move plays, while it is that seat's turn (else nothing). A game whose moves never
    name a card (the banking games) has nothing to say here."""
    if deal.to_move != seat:
        return {}
    legal = " ".join(m.text for m in deal.legal_moves())
    used = set(_CARD.findall(legal))
    out: dict[str, dict[str, Any]] = {}
    for code in deal.hand_codes(seat):
        card = format_card(code)
        if card in used or card in out:
            continue
        try:
            reason = deal.why_illegal(card, seat)
        except InvalidMoveError:  # cards are not moves in this game
            return {}
        if reason is not None:
            out[card] = reason.to_dict()
    return out
