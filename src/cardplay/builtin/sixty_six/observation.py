"""Sixty-Six's observation blocks (:mod:`cardplay.observation`), read from a View's snapshot
and, the same vector, straight from a deal's state (the fields its ``_public`` and ``_hand``
hooks show, nothing else).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from ...observation import (
    SUIT_INDEX,
    Blocks,
    DealFiller,
    Floats,
    Layout,
    Snapshot,
    SnapshotFiller,
    write_mask,
    write_masks3,
    write_scalar,
    write_seats,
)
from .rules import SixtySixDeal

if TYPE_CHECKING:
    from .game import SixtySix

__all__ = ["observation_blocks"]


def observation_blocks(game: SixtySix, layout: Layout) -> Blocks:
    """The game's blocks, added to ``layout``, and their writers."""
    fill = _snapshot_filler(game, layout)
    return Blocks(fill, _deal_filler(game, layout), _constant_filler(game, layout))


def _snapshot_filler(game: SixtySix, e: Layout) -> SnapshotFiller:
    e.points_scale, e.scores_scale = 66.0, float(game.options.match_target)
    talon = 10.0 if game.options.preset == "schnapsen" else 12.0
    o_trump = e.block("trump_suit", list("SHDC"))
    o_face = e.cards("trump_card")
    o_trick = e.cards("trick")
    o_marr = e.block("trick_marriage", ["lead_announced"])
    o_won = [e.cards(f"won_by_seat+{i}") for i in range(2)]
    o_known = e.cards("opponent_known")
    o_mar = [e.block(f"marriages_seat+{i}", list("SHDC")) for i in range(2)]
    o_talon = e.block("talon", ["cards/talon"])
    o_closed = e.seats("closed_by")
    o_phase = e.block("phase2", ["phase2"])
    o_tricks = e.seats("tricks_won")
    o_pending = e.seats("pending")
    o_sizes = e.seats("hand_sizes")
    o_bonus = e.block("stand_bonus", ["stand_bonus"])

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        e.onehot(o_trump, SUIT_INDEX.get(p.get("trump_suit") or ""), buf)
        if p.get("trump_card"):
            e.card_texts(o_face, [p["trump_card"]], buf)
        for t in p.get("trick") or ():
            e.card_texts(o_trick, [t["card"]], buf)
            if t.get("marriage"):
                buf[o_marr] = 1.0
        for t in p.get("tricks") or ():
            e.card_texts(o_won[(t["winner"] - seat) % 2], t["cards"], buf)
        known = p.get("known_cards")
        if known:
            e.card_texts(o_known, known[1 - seat], buf)
        for m in p.get("marriages") or ():
            e.onehot(o_mar[(m["seat"] - seat) % 2], SUIT_INDEX[m["suit"]], buf)
        e.scalar(o_talon, p.get("stock"), talon, buf)
        if p.get("closed_by") is not None:
            e.onehot(o_closed, (p["closed_by"] - seat) % 2, buf)
        if p.get("phase") == 2:
            e.onehot(o_phase, 0, buf)
        e.per_seat(o_tricks, p.get("tricks_won"), seat, 12.0, buf)
        e.per_seat(o_pending, p.get("pending"), seat, 40.0, buf)
        e.per_seat(o_sizes, p.get("hand_sizes"), seat, 6.0, buf)
        e.scalar(o_bonus, p.get("stand_bonus"), 3.0, buf)

    return fill


def _deal_filler(game: SixtySix, enc: Layout) -> DealFiller:
    o = {k: enc.offset(k) for k in enc.blocks}
    talon_scale = 10.0 if game.options.preset == "schnapsen" else 12.0
    hand, face, trick, marr = o["hand"], o["trump_card"], o["trick"], o["trick_marriage"]
    won_known = enc.adjacent("won_by_seat+0", "won_by_seat+1", "opponent_known")
    mars = (o["marriages_seat+0"], o["marriages_seat+1"])
    talon, closed_by, phase2, tricks_won, pending, sizes, bonus = \
        o["talon"], o["closed_by"], o["phase2"], o["tricks_won"], o["pending"], \
        o["hand_sizes"], o["stand_bonus"]

    def fill(d: SixtySixDeal, seat: int, buf: Floats, mv: memoryview) -> None:
        other = 1 - seat
        if d.hands[seat]:
            write_mask(mv, hand, d.hands[seat])
        left = len(d.talon) - d.tpos
        if left > 0:
            buf[face + d.talon[-1]] = 1.0
            buf[talon] = left / talon_scale  # the talon holds at most talon_scale cards
        if d.lead >= 0:
            buf[trick + d.lead] = 1.0
            if d.lead_marriage:
                buf[marr] = 1.0
        won = d.won
        mine, theirs, shown = won[seat], won[other], d.revealed[other]
        if mine or theirs or shown:
            write_masks3(mv, won_known, mine, theirs, shown)
        for s, su, _, _ in d.marriages:
            buf[mars[s != seat] + su] = 1.0
        if d.closed_by >= 0:
            buf[closed_by + (d.closed_by != seat)] = 1.0
        if d.phase2:
            buf[phase2] = 1.0
        # unclipped where the rules bound them: 12 tricks, 6 cards a hand
        tw = d.tricks_won
        buf[tricks_won] = tw[seat] / 12.0
        buf[tricks_won + 1] = tw[other] / 12.0
        pend = d.pending
        if pend[seat] or pend[other]:
            write_seats(buf, pending, pend, seat, 2, 40.0)
        hands = d.hands
        buf[sizes] = hands[seat].bit_count() / 6.0
        buf[sizes + 1] = hands[other].bit_count() / 6.0
        if d.stand_bonus:
            write_scalar(buf, bonus, d.stand_bonus, 3.0)

    return fill


def _constant_filler(game: SixtySix, enc: Layout) -> DealFiller:
    """The blocks that never change during a deal."""
    trump = enc.offset("trump_suit")

    def fill(d: SixtySixDeal, seat: int, buf: Floats, mv: memoryview) -> None:
        buf[trump + d.trump] = 1.0

    return fill
