"""Why Polish Banchok refuses a move (RULES.md 5.3): a stake below the minimum or above what the
bank holds or the punter's chips cover. A punter cannot pass, so a stake is his only move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...declaration import Refusal, Text
from ...engine import Reason
from .deal import MIN_STAKE, STAKE_BASE

if TYPE_CHECKING:
    from .deal import BanchokDeal

__all__ = ["REFUSALS", "why_illegal"]

STAKE_LOW = Refusal("stake_low", Text(
    "The smallest stake is {lo} chips (5, or the whole bank when it holds less): stake from "
    "{lo} to {hi}."))
STAKE_BANK = Refusal("stake_bank", Text(
    "You may stake at most the whole bank, {bank} chips: stake from {lo} to {hi}."))
STAKE_CHIPS = Refusal("stake_chips", Text(
    "Your chips cover a stake of {hi} at most: stake from {lo} to {hi}."))
REFUSALS = (STAKE_LOW, STAKE_BANK, STAKE_CHIPS)


def why_illegal(deal: BanchokDeal, code: int) -> Reason | None:
    s: int = deal._turn  # type: ignore[assignment]
    bank = deal._bank
    lo = MIN_STAKE if bank > MIN_STAKE else bank
    hi = min(bank, deal._chips[s])
    stake = code - STAKE_BASE
    span = {"lo": lo, "hi": hi}
    if stake < lo:
        return Reason(STAKE_LOW, span)
    if stake > bank:
        return Reason(STAKE_BANK, {**span, "bank": bank})
    return Reason(STAKE_CHIPS, span)
