"""Polish Banchok's observation blocks (:mod:`cardplay.observation`), read from a View's snapshot
and, the same vector, straight from a deal's state (the fields its ``_public`` and ``_hand``
hooks show, nothing else).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from ...observation import (
    Blocks,
    DealFiller,
    Floats,
    Layout,
    Snapshot,
    SnapshotFiller,
    add_ids,
    write_scalar,
    write_seats,
)
from .deal import BanchokDeal

if TYPE_CHECKING:
    from .game import Banchok

__all__ = ["observation_blocks"]


def observation_blocks(game: Banchok, layout: Layout) -> Blocks:
    """The game's blocks, added to ``layout``, and their writers."""
    fill = _snapshot_filler(game, layout)
    return Blocks(fill, _deal_filler(game, layout))


def _snapshot_filler(game: Banchok, e: Layout) -> SnapshotFiller:
    n = e.n
    o = game.options
    total = float(n * o.start_chips)
    target = float(3 * o.bank_stake)
    e.points_scale = e.scores_scale = float(o.start_chips)
    o_round_cards = e.cards("this_round_cards")
    o_prev_cards = e.cards("previous_round_cards")
    o_under = e.cards("under_deck")
    o_top = e.cards("top_part_known")
    o_bank = e.block("bank", ["bank/target"])
    o_chips = e.seats("chips")
    o_out = e.seats("out")
    o_punters = e.seats("punters")
    o_stake = e.seats("stake")
    o_won = e.seats("won")
    o_lost = e.seats("lost")
    o_deck = e.block("deck", ["size/104", "top_part/104"])
    o_range = e.block("stake_range", ["low/target", "high/target"])

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        for entry in p.get("settled") or ():
            e.card_texts(o_round_cards, entry.get("cards"), buf)
            if entry.get("turned"):
                e.card_texts(o_round_cards, [entry["turned"]], buf)
            r = (entry["seat"] - seat) % n
            e.scalar(o_stake + r, entry.get("stake"), target, buf)
            won = entry.get("won")  # None: the punter threw his cards in (could not stake)
            if won is not None:
                e.onehot(o_won if won else o_lost, r, buf)
        for entry in p.get("previous") or ():
            e.card_texts(o_prev_cards, entry.get("cards"), buf)
            if entry.get("turned"):
                e.card_texts(o_prev_cards, [entry["turned"]], buf)
        parts = p.get("deck_parts") or ()
        for i, part in enumerate(parts):
            if part.get("cards") is not None:
                e.card_texts(o_top if i == 0 else o_under, part["cards"], buf)
        e.scalar(o_bank, p.get("bank"), target, buf)
        e.per_seat(o_chips, p.get("chips"), seat, total, buf)
        for s in p.get("out") or ():
            e.onehot(o_out, (s - seat) % n, buf)
        for s in p.get("punters") or ():
            e.onehot(o_punters, (s - seat) % n, buf)
        e.scalar(o_deck, p.get("stock"), 104.0, buf)
        if parts:
            e.scalar(o_deck + 1, parts[0].get("size"), 104.0, buf)
        rng = p.get("stake_range")
        if rng:
            e.scalar(o_range, rng[0], target, buf)
            e.scalar(o_range + 1, rng[1], target, buf)

    return fill


def _deal_filler(game: Banchok, enc: Layout) -> DealFiller:
    n = enc.n
    opts = game.options
    total = float(n * opts.start_chips)
    target = float(3 * opts.bank_stake)
    o = {k: enc.offset(k) for k in enc.blocks}
    hand, round_cards, prev_cards = o["hand"], o["this_round_cards"], o["previous_round_cards"]
    under, top, stake, won, lost = o["under_deck"], o["top_part_known"], o["stake"], o["won"], \
        o["lost"]

    def fill(d: BanchokDeal, seat: int, buf: Floats, mv: memoryview) -> None:
        add_ids(buf, hand, d._hands[seat], 0.5)
        for s, st, turned, cards, w in d._settled:
            add_ids(buf, round_cards, cards, 0.5)
            if turned >= 0:
                buf[round_cards + turned] += 0.5
            r = (s - seat) % n
            write_scalar(buf, stake + r, st, target)
            if w == 1:
                buf[won + r] = 1.0
            elif w == 0:
                buf[lost + r] = 1.0
        for _, _, turned, cards, _ in d._prev:
            add_ids(buf, prev_cards, cards, 0.5)
            if turned >= 0:
                buf[prev_cards + turned] += 0.5
        for i, (_, part) in enumerate(d._snap):
            if part is not None:
                add_ids(buf, top if i == 0 else under, part, 0.5)
        write_scalar(buf, o["bank"], d._bank, target)
        write_seats(buf, o["chips"], d._chips, seat, n, total)
        for s in range(n):
            if d._out[s]:
                buf[o["out"] + (s - seat) % n] = 1.0
        for s in d._punters:
            buf[o["punters"] + (s - seat) % n] = 1.0
        write_scalar(buf, o["deck"], len(d._deck), 104.0)
        if d._snap:
            write_scalar(buf, o["deck"] + 1, d._snap[0][0], 104.0)
        t = d._turn
        if t is not None:
            bank = d._bank
            write_scalar(buf, o["stake_range"], min(5, bank), target)
            write_scalar(buf, o["stake_range"] + 1, min(bank, d._chips[t]), target)

    return fill
