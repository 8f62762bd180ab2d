"""Maltese Twenty's observation blocks (:mod:`cardplay.observation`), read from a View's snapshot
and, the same vector, straight from a deal's state (the fields its ``_public`` and ``_hand``
hooks show, nothing else).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from ...observation import (
    Blocks,
    DealFiller,
    Floats,
    Layout,
    Snapshot,
    SnapshotFiller,
    plane,
    write_mask,
)
from .rules import MalteseTwentyDeal

if TYPE_CHECKING:
    from .game import MalteseTwentyGame

__all__ = ["observation_blocks"]


def observation_blocks(game: MalteseTwentyGame, layout: Layout) -> Blocks:
    """The game's blocks, added to ``layout``, and their writers."""
    fill = _snapshot_filler(game, layout)
    return Blocks(fill, _deal_filler(game, layout), _constant_filler(game, layout))


def _snapshot_filler(game: MalteseTwentyGame, e: Layout) -> SnapshotFiller:
    e.points_scale = e.scores_scale = 100.0
    o_tally = e.cards("tally")
    o_cleared = e.cards("cleared")
    o_bonus_cards = e.cards("bonus_cards")
    o_total = e.block("tally_total", ["total/20"])
    o_count = e.block("tally_count", ["cards/10"])
    o_bonus = e.block("bonus", ["bonus/10"])
    o_round = e.block("round", ["1", "2"])
    o_starter = e.seats("starter")
    o_stock = e.block("stock", ["cards/40"])
    o_sizes = e.seats("hand_sizes")
    o_lps = e.seats("last_positive_scorer")

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        tally = p.get("tally") or ()
        e.card_texts(o_tally, tally, buf)
        e.card_texts(o_cleared, p.get("cleared"), buf)
        e.card_texts(o_bonus_cards, p.get("bonus_cards"), buf)
        e.scalar(o_total, p.get("tally_total"), 20.0, buf)
        e.scalar(o_count, len(tally), 10.0, buf)
        e.scalar(o_bonus, p.get("bonus"), 10.0, buf)
        r = p.get("round")
        e.onehot(o_round, r - 1 if r in (1, 2) else None, buf)
        if p.get("starter") is not None:
            e.onehot(o_starter, (p["starter"] - seat) % 2, buf)
        e.scalar(o_stock, p.get("stock"), 40.0, buf)
        e.per_seat(o_sizes, p.get("hand_sizes"), seat, 5.0, buf)
        if p.get("last_positive_scorer") is not None:
            e.onehot(o_lps, (p["last_positive_scorer"] - seat) % 2, buf)

    return fill


def _deal_filler(game: MalteseTwentyGame, enc: Layout) -> DealFiller:
    o = {k: enc.offset(k) for k in enc.blocks}
    hand, tally, cleared = o["hand"], o["tally"], o["cleared"]
    total, count, stock, sizes, lps = o["tally_total"], o["tally_count"], o["stock"], \
        o["hand_sizes"], o["last_positive_scorer"]

    # The cleared cards (about 20 on average) as a mask, kept for the deal's list last seen: a
    # deal only ever extends its list (a copy gets a new one), so the mask grows with it.
    seen: list[Any] = [None, 0, 0, b""]  # the list, its length, its mask, its plane's bytes
    cleared_at = 4 * cleared

    def fill(d: MalteseTwentyDeal, seat: int, buf: Floats, mv: memoryview) -> None:
        # The scalars are written without write_scalar's clipping where the rules bound them: a
        # visible Tally holds at most 10 cards (values 1..10; an 11th card passes 20) and totals
        # under 20, a hand at most 5 cards, the stock at most 40, the bonus 1..10.
        hands = d._hands
        write_mask(mv, hand, hands[seat])
        t = d._tally
        if t:
            for c in t:
                buf[tally + c] = 1.0
            buf[count] = len(t) / 10.0
            buf[total] = d._total / 20.0
        cl = d._cleared
        if cl:
            k = len(cl)
            last, last_k, m, cleared_plane = seen
            if cl is not last or k < last_k:
                last_k = m = 0
            if k != last_k:
                for c in cl[last_k:]:
                    m |= 1 << c
                cleared_plane = plane(m)
                seen[:] = cl, k, m, cleared_plane
            mv[cleared_at:cleared_at + 208] = cleared_plane
        buf[stock] = (52 - d._next) / 40.0
        other = 1 - seat
        buf[sizes] = hands[seat].bit_count() / 5.0
        buf[sizes + 1] = hands[other].bit_count() / 5.0
        if d._lps is not None:
            buf[lps + (d._lps != seat)] = 1.0

    return fill


def _constant_filler(game: MalteseTwentyGame, enc: Layout) -> DealFiller:
    """The blocks that never change during a deal."""
    o = {k: enc.offset(k) for k in enc.blocks}
    bonus_cards, bonus, round_, starter = o["bonus_cards"], o["bonus"], o["round"], o["starter"]

    def fill(d: MalteseTwentyDeal, seat: int, buf: Floats, mv: memoryview) -> None:
        b1, b2 = d.bonus_cards
        buf[bonus_cards + b1] = 1.0
        buf[bonus_cards + b2] = 1.0
        buf[bonus] = d.bonus / 10.0  # 1..10
        r = d.round
        if r == 1 or r == 2:
            buf[round_ + r - 1] = 1.0
        buf[starter + (d.starter != seat)] = 1.0

    return fill
