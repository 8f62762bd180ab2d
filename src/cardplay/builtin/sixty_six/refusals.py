"""Why Sixty-Six (and Schnapsen) refuses a move (RULES.md 4.4-4.5, 4.12): what the leader may do
before the lead (exchange, close, a marriage) and the strict duties of the follower once the
talon is closed or used up (follow suit, head the trick, trump)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import SUIT_CHARS, SUIT_MASKS, card_of, cards_of_mask, format_card
from ...declaration import Refusal, Text
from ...engine import Reason
from .rules import CLOSE, EXCHANGE, HIGHER52, KING, MARRIAGE_BASE, NEVER_LEGAL_BASE, QUEEN

if TYPE_CHECKING:
    from .rules import SixtySixDeal

__all__ = ["REFUSALS", "why_illegal"]


ONLY_ON_LEAD = Refusal("only_on_lead", Text(
    "You may exchange, close the talon or announce a marriage only when you lead, before your"
    " card."))
EXCHANGE_CLOSED = Refusal("exchange_closed", Text(
    "The talon is closed: the trump card can no longer be exchanged."))
EXCHANGE_GONE = Refusal("exchange_gone", Text(
    "The trump card can be exchanged only while the talon holds at least two cards."))
EXCHANGE_CARD = Refusal("exchange_card", Text(
    "Only the holder of {card} may exchange it for the trump card, and you do not hold it."))
EXCHANGE_TRICK = Refusal("exchange_trick", Text(
    "You may exchange for the trump card only after you have won a trick."))
CLOSE_OFF = Refusal("close_off", Text(
    "Closing the talon is not played at this table."))
CLOSE_DONE = Refusal("close_done", Text(
    "The talon is already closed."))
CLOSE_GONE = Refusal("close_gone", Text(
    "The talon can be closed only while it holds at least two cards."))
MARRIAGE_PAIR = Refusal("marriage_pair", Text(
    "A marriage is the King and Queen of one suit: you do not hold {card}."))
MARRIAGE_FORTY = Refusal("marriage_forty", Text(
    "A marriage in trumps counts 40, not 20: announce it as {card}=40."))
MARRIAGE_TWENTY = Refusal("marriage_twenty", Text(
    "Only a marriage in trumps counts 40; in {suit} it counts 20: announce it as {card}=20."))
MARRIAGE_KING = Refusal("marriage_king", Text(
    "At this table a marriage is announced by leading its King, not its Queen."))
MARRIAGE_RANK = Refusal("marriage_rank", Text(
    "Only a King or a Queen is led to announce a marriage."))
FOLLOW_SUIT = Refusal("follow_suit", Text(
    "The talon is closed or used up, so you must follow suit: {lead} was led, play {cards}."))
HEAD_TRICK = Refusal("head_trick", Text(
    "The talon is closed or used up, so you must follow suit and beat {lead} when you can: "
    "play {cards}."))
MUST_TRUMP = Refusal("must_trump", Text(
    "The talon is closed or used up and you hold no {suit} card, so you must play a trump: "
    "{cards}."))
REFUSALS = (ONLY_ON_LEAD, EXCHANGE_CLOSED, EXCHANGE_GONE, EXCHANGE_CARD, EXCHANGE_TRICK,
            CLOSE_OFF, CLOSE_DONE, CLOSE_GONE, MARRIAGE_PAIR, MARRIAGE_FORTY, MARRIAGE_TWENTY,
            MARRIAGE_KING, MARRIAGE_RANK, FOLLOW_SUIT, HEAD_TRICK, MUST_TRUMP)


def _cards(mask: int) -> str:
    return " ".join(format_card(c) for c in cards_of_mask(mask))


def _lead_special(deal: SixtySixDeal, code: int, seat: int) -> Reason | None:
    g = deal.game
    open_talon = deal.closed_by < 0
    if code == EXCHANGE:
        if not open_talon:
            return Reason(EXCHANGE_CLOSED)
        if deal.talon_size < 2:
            return Reason(EXCHANGE_GONE)
        if not deal.hands[seat] >> deal.nine & 1:
            return Reason(EXCHANGE_CARD, {"card": format_card(deal.nine)})
        return Reason(EXCHANGE_TRICK)
    if code == CLOSE:
        if not g.allow_close:
            return Reason(CLOSE_OFF)
        return Reason(CLOSE_DONE) if not open_talon else Reason(CLOSE_GONE)
    if code >= NEVER_LEGAL_BASE:
        return Reason(MARRIAGE_RANK)
    k = code - MARRIAGE_BASE
    suit, queen, forty = k // 4, (k >> 1) & 1, k & 1
    partner = card_of(KING if queen else QUEEN, suit)
    led = card_of(QUEEN if queen else KING, suit)
    if not deal.hands[seat] >> partner & 1:
        return Reason(MARRIAGE_PAIR, {"card": format_card(partner)})
    if suit == deal.trump and not forty:
        return Reason(MARRIAGE_FORTY, {"card": format_card(led)})
    if suit != deal.trump and forty:
        return Reason(MARRIAGE_TWENTY, {"suit": SUIT_CHARS[suit], "card": format_card(led)})
    return Reason(MARRIAGE_KING) if queen and g.king_only else None


def why_illegal(deal: SixtySixDeal, code: int) -> Reason | None:
    seat: int = deal._turn  # type: ignore[assignment]
    if code >= 52:
        return _lead_special(deal, code, seat) if deal.lead < 0 else Reason(ONLY_ON_LEAD)
    if deal.lead < 0 or not deal.phase2:
        return None
    lead = deal.lead
    hand = deal.hands[seat]
    same = hand & SUIT_MASKS[lead // 13]
    if same:
        higher = same & HIGHER52[lead]
        if deal.game.must_head and higher:
            return Reason(HEAD_TRICK, {"lead": format_card(lead), "cards": _cards(higher)})
        return Reason(FOLLOW_SUIT, {"lead": format_card(lead), "cards": _cards(same)})
    trumps = hand & SUIT_MASKS[deal.trump]
    if trumps:
        return Reason(MUST_TRUMP, {"suit": SUIT_CHARS[lead // 13], "cards": _cards(trumps)})
    return None
