"""Why Two-Ten-Jack refuses a move (RULES.md 3.4-3.5): the follower's duty to follow the led
kind or else to trump, and the declaration that only a lead of the A♠ carries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import cards_of_mask, format_card
from ...declaration import Refusal, Text
from ...engine import Reason
from .rules import AS, AS_SPADES, KIND_MASKS, KIND_NAMES, TRUMPS

if TYPE_CHECKING:
    from .rules import TwoTenJackDeal

__all__ = ["REFUSALS", "why_illegal"]

DECLARE_ACE = Refusal("declare_ace", Text(
    "When you lead the A♠ you declare it a spade or a trump: lead it as A♠=♠ or A♠=♥."))
DECLARE_ON_LEAD = Refusal("declare_on_lead", Text(
    "Only the leader declares the A♠; as the follower you play it as it is."))
FOLLOW_SUIT = Refusal("follow_suit", Text(
    "You must follow suit: {lead} was led, so play a {suit} card: {cards}."))
FOLLOW_TRUMP = Refusal("follow_trump", Text(
    "A trump was led ({lead}), so you must follow with a trump (a heart or the A♠): {cards}."))
MUST_TRUMP = Refusal("must_trump", Text(
    "You hold no {suit} card, so you must trump (a heart or the A♠): {cards}."))
REFUSALS = (DECLARE_ACE, DECLARE_ON_LEAD, FOLLOW_SUIT, FOLLOW_TRUMP, MUST_TRUMP)


def _cards(mask: int) -> str:
    return " ".join(format_card(c) for c in cards_of_mask(mask))


def why_illegal(deal: TwoTenJackDeal, code: int) -> Reason | None:
    if deal._lead < 0:
        return Reason(DECLARE_ACE) if code == AS else None
    if code >= AS_SPADES:
        return Reason(DECLARE_ON_LEAD)
    hand = deal._hands[deal._turn]  # type: ignore[index]
    kind = deal._kind
    lead = format_card(deal._lead)
    follow = hand & KIND_MASKS[kind]
    if follow:
        if kind == 1:
            return Reason(FOLLOW_TRUMP, {"lead": lead, "cards": _cards(follow)})
        return Reason(FOLLOW_SUIT, {"lead": lead, "suit": KIND_NAMES[kind],
                                    "cards": _cards(follow)})
    trumps = hand & TRUMPS
    if trumps:
        return Reason(MUST_TRUMP, {"suit": KIND_NAMES[kind], "cards": _cards(trumps)})
    return None


