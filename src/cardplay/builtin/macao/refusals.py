"""Why Macao refuses a move (RULES.md 6.3-6.4): a stake outside the table's limits, the punter's
chips or the bank's coverage, a move out of its phase, and the one extra card a punter buys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...declaration import Refusal, Text
from ...engine import Reason
from .deal import _STAKE, BUY, STAKE_BASE

if TYPE_CHECKING:
    from .deal import MacaoDeal

__all__ = ["REFUSALS", "why_illegal"]

STAKE_FIRST = Refusal("stake_first", Text(
    "Name your stake first: you buy a card or stand once the cards are dealt."))
STAKE_DONE = Refusal("stake_done", Text(
    "Stakes are named before the cards are dealt: now buy one card or stand."))
STAKE_LOW = Refusal("stake_low", Text(
    "The smallest stake at this table is {lo} chips: stake from {lo} to {hi}."))
STAKE_HIGH = Refusal("stake_high", Text(
    "The largest stake at this table is {max} chips: stake from {lo} to {hi}."))
STAKE_CHIPS = Refusal("stake_chips", Text(
    "Your chips cover a stake of {hi} at most: stake from {lo} to {hi}."))
STAKE_BANK = Refusal("stake_bank", Text(
    "The bank covers only {hi} more chips this round: stake from {lo} to {hi}."))
BUY_ONCE = Refusal("buy_once", Text(
    "A punter buys one extra card at most, and you have bought yours: now stand."))
SHOE_EMPTY = Refusal("shoe_empty", Text("The shoe is empty: there is no card to buy."))
NATURAL_STANDS = Refusal("natural_stands", Text(
    "A natural (a first card of 7, 8 or 9) stands: you may not buy to it."))
FORCED_STAND = Refusal("forced_stand", Text(
    "At this table you must stand on 7, 8 or 9."))
FORCED_BUY = Refusal("forced_buy", Text(
    "At this table you must buy a card on a value of 0 to 6."))
REFUSALS = (STAKE_FIRST, STAKE_DONE, STAKE_LOW, STAKE_HIGH, STAKE_CHIPS, STAKE_BANK, BUY_ONCE,
            SHOE_EMPTY, NATURAL_STANDS, FORCED_STAND, FORCED_BUY)


def why_illegal(deal: MacaoDeal, code: int) -> Reason | None:
    p: int = deal._turn  # type: ignore[assignment]
    g = deal.game
    o = g.options
    if deal.phase == _STAKE:
        if code <= STAKE_BASE:
            return Reason(STAKE_FIRST)
        stake = code - STAKE_BASE
        cap, room = g.capacity(deal.chips[p]), deal._room()
        lo, hi = o.min_stake, min(cap, room)
        span = {"lo": lo, "hi": hi}
        if stake < lo:
            return Reason(STAKE_LOW, span)
        if stake > o.max_stake:
            return Reason(STAKE_HIGH, {**span, "max": o.max_stake})
        return Reason(STAKE_CHIPS, span) if stake > cap else Reason(STAKE_BANK, span)
    if code > STAKE_BASE:
        return Reason(STAKE_DONE)
    if deal._natural(p):
        return Reason(NATURAL_STANDS)
    if code == BUY:
        if deal.pos >= len(deal._order):
            return Reason(SHOE_EMPTY)
        if deal.bought[p] and not o.multi_buy:
            return Reason(BUY_ONCE)
        return Reason(FORCED_STAND)
    return Reason(FORCED_BUY)
