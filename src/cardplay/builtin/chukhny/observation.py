"""Chukhny's observation blocks (:mod:`cardplay.observation`), read from a View's snapshot
and, the same vector, straight from a deal's state (the fields its ``_public`` and ``_hand``
hooks show, nothing else).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...observation import (
    RANK_INDEX,
    SUIT_INDEX,
    Blocks,
    DealFiller,
    Floats,
    Layout,
    Snapshot,
    SnapshotFiller,
    write_mask,
    write_masks3,
)
from .deal import ChukhnyDeal

if TYPE_CHECKING:
    from .game import Chukhny

__all__ = ["observation_blocks"]


def observation_blocks(game: Chukhny, layout: Layout) -> Blocks:
    """The game's blocks, added to ``layout``, and their writers."""
    fill = _snapshot_filler(game, layout)
    return Blocks(fill, _deal_filler(game, layout))


def _snapshot_filler(game: Chukhny, e: Layout) -> SnapshotFiller:
    n = e.n
    o = game.options
    deck = float(o.deck_size)
    e.points_scale = 1.0
    e.scores_scale = float(o.games)
    o_pile = e.cards("pile")
    o_out = e.cards("out_of_play")
    o_known = e.cards("known_in_other_hands")
    o_need = e.block("need", list("23456789TJQKA"))
    o_need_suit = e.block("need_suit", list("SHDC"))
    o_leading = e.block("leading", ["leading"])
    o_stock = e.block("stock", ["cards/deck"])
    o_sizes = e.seats("hand_sizes")
    o_drawn = e.seats("drawn")
    o_loser = e.seats("loser")

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        e.card_texts(o_pile, p.get("pile"), buf)
        e.card_texts(o_out, p.get("out"), buf)
        for s, cards in enumerate(p.get("known") or ()):
            if s != seat:
                e.card_texts(o_known, cards, buf)
        e.onehot(o_need, RANK_INDEX.get(p.get("need") or ""), buf)
        e.onehot(o_need_suit, SUIT_INDEX.get(p.get("need_suit") or ""), buf)
        if p.get("leading"):
            e.onehot(o_leading, 0, buf)
        e.scalar(o_stock, p.get("stock"), deck, buf)
        e.per_seat(o_sizes, p.get("hand_sizes"), seat, deck, buf)
        e.per_seat(o_drawn, p.get("drawn"), seat, deck, buf)
        if p.get("loser") is not None:
            e.onehot(o_loser, (p["loser"] - seat) % n, buf)

    return fill


def _deal_filler(game: Chukhny, enc: Layout) -> DealFiller:
    n = enc.n
    opts = game.options
    deck = float(opts.deck_size)
    o = {k: enc.offset(k) for k in enc.blocks}
    hand = o["hand"]
    pile_out_known = enc.adjacent("pile", "out_of_play", "known_in_other_hands")
    need, need_suit, leading, stock, sizes, drawn, loser = \
        o["need"], o["need_suit"], o["leading"], o["stock"], o["hand_sizes"], o["drawn"], \
        o["loser"]
    need_of: Sequence[int] = game.need_of
    same = bool(opts.require_same_suit)
    relative = [[(s - seat) % n for s in range(n)] for seat in range(n)]

    def fill(d: ChukhnyDeal, seat: int, buf: Floats, mv: memoryview) -> None:
        hands = d._hands
        write_mask(mv, hand, hands[seat])
        p = d._pile
        piled = 0
        for c in p:
            piled |= 1 << c
        m = 0
        for s, k in enumerate(d._known):
            if s != seat:
                m |= k
        if piled or d._out or m:
            write_masks3(mv, pile_out_known, piled, d._out, m)
        if d._turn is not None:
            if p:
                nd = need_of[p[-1]]
                buf[need + nd % 13] = 1.0
                if same:
                    buf[need_suit + nd // 13] = 1.0
            else:
                buf[leading] = 1.0
        # unclipped: the stock, a hand and a seat's draws never exceed the deck
        buf[stock] = (d._end - d._pos) / deck
        drawn_by = d._drawn
        for s, r in enumerate(relative[seat]):
            buf[sizes + r] = hands[s].bit_count() / deck
            buf[drawn + r] = drawn_by[s] / deck
        if d._loser is not None:
            buf[loser + (d._loser - seat) % n] = 1.0

    return fill
