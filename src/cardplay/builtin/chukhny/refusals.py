"""Why Chukhny refuses a move (RULES.md 7.4): the card one rank above the pile's top card (of its
suit under ``require_same_suit``) must be played when held, drawn for when not, and the pile's
top card taken only when the stock is empty; a new pile starts from the hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import cards_of_mask, format_card
from ...declaration import Refusal, Text
from ...engine import Reason
from .deal import DRAW, TAKE

if TYPE_CHECKING:
    from .deal import ChukhnyDeal

__all__ = ["REFUSALS", "why_illegal"]

LEAD_FROM_HAND = Refusal("lead_from_hand", Text(
    "You start a new pile: lead any card from your hand."))
CLIMB = Refusal("climb", Text(
    "The card on {lead} must be one rank higher: play {cards}."))
CLIMB_SUIT = Refusal("climb_suit", Text(
    "The card on {lead} must be one rank higher and of the same suit: play {cards}."))
NO_FIT_DRAW = Refusal("no_fit_draw", Text(
    "No card in your hand goes on {lead}: draw from the stock until one fits."))
NO_FIT_TAKE = Refusal("no_fit_take", Text(
    "No card in your hand goes on {lead} and the stock is empty: take the top card of the "
    "pile."))
MUST_PLAY = Refusal("must_play", Text(
    "You hold a card that goes on {lead}, so you must play it: {cards}."))
TAKE_STOCK = Refusal("take_stock", Text(
    "You take from the pile only when the stock is empty: draw from the stock."))
REFUSALS = (LEAD_FROM_HAND, CLIMB, CLIMB_SUIT, NO_FIT_DRAW, NO_FIT_TAKE, MUST_PLAY, TAKE_STOCK)


def why_illegal(deal: ChukhnyDeal, code: int) -> Reason | None:
    p: int = deal._turn  # type: ignore[assignment]
    hand = deal._hands[p]
    pile = deal._pile
    if not pile:
        return Reason(LEAD_FROM_HAND)
    g = deal.game
    top = format_card(pile[-1])
    fits = hand & g.match_mask[g.need_of[pile[-1]]]
    cards = " ".join(format_card(c) for c in cards_of_mask(fits))
    stock = deal._pos < deal._end
    if fits:
        if code in (DRAW, TAKE):
            return Reason(MUST_PLAY, {"lead": top, "cards": cards})
        return Reason(CLIMB_SUIT if g.same_suit else CLIMB, {"lead": top, "cards": cards})
    if code == TAKE:
        return Reason(TAKE_STOCK)
    return Reason(NO_FIT_DRAW if stock else NO_FIT_TAKE, {"lead": top})
