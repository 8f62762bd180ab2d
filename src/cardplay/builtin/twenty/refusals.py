"""Why Twenty refuses a move (RULES.md 2.4): a set of cards whose count does not fit the move
number (at most it, under the seed preset) or the count (exactly, under the canonical one),
Kings' values that do not make the count, and drawing or passing when the rules forbid it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import cards_of_mask
from ...declaration import Refusal, Text
from ...engine import Reason
from .codes import ALL_CARDS, DRAW, KINGS, LEAST_COUNT, PASS

if TYPE_CHECKING:
    from .deal import TwentyDeal

__all__ = ["REFUSALS", "why_illegal"]

TOO_MUCH = Refusal("too_much", Text(
    "Laying {cards} adds at least {n}, more than the move number {m}: the cards you lay must "
    "add up to {m} or less (a King counts 1)."))
NOT_EXACT = Refusal("not_exact", Text(
    "Laying {cards} cannot make the count of {m} exactly: the cards you lay must add up to "
    "the count (each King counts 1 to 20)."))
KING_VALUES = Refusal("king_values", Text(
    "The Kings' values must make the count of {m} exactly with the other cards."))
DRAW_EMPTY = Refusal("draw_empty", Text("The stock is empty: there is no card to draw."))
DRAW_CAN_PLAY = Refusal("draw_can_play", Text(
    "You hold cards that fit, so you must lay them: you draw only when no cards fit."))
PASS_ONLY = Refusal("pass_only", Text(
    "You may pass only when no cards fit and the stock is empty."))
REFUSALS = (TOO_MUCH, NOT_EXACT, KING_VALUES, DRAW_EMPTY, DRAW_CAN_PLAY, PASS_ONLY)

# 10, J and Q: a same-rank pair of them may count 10 under pair_counts_ten
_PAIRABLE = (8, 9, 10)


def _least(mask: int, pairs: bool) -> int:
    cards = cards_of_mask(mask)
    least = sum(LEAST_COUNT[c] for c in cards)
    if pairs:
        for r in _PAIRABLE:
            least -= 10 * (sum(1 for c in cards if c % 13 == r) // 2)
    return least


def why_illegal(deal: TwentyDeal, code: int) -> Reason | None:
    g = deal.game
    if code == DRAW:
        return Reason(DRAW_EMPTY) if deal.stock_size == 0 else Reason(DRAW_CAN_PLAY)
    if code == PASS:
        return Reason(PASS_ONLY)
    x = code - 64
    mask = x & ALL_CARDS
    # in the set's own printed order (by count value, then suit), as its move reads
    cards = " ".join(part.split("=")[0] for part in g.move(code).text.split("+"))
    if not g.exact:
        return Reason(TOO_MUCH, {"cards": cards, "n": _least(mask, False), "m": deal.m})
    if mask & KINGS and g.kings_total(mask, deal.m) is not None:
        return Reason(KING_VALUES, {"m": deal.m})
    return Reason(NOT_EXACT, {"cards": cards, "m": deal.m})
