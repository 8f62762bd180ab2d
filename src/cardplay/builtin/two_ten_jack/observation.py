"""Two-Ten-Jack's observation blocks (:mod:`cardplay.observation`), read from a View's snapshot
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
    write_masks2,
)
from .rules import TwoTenJackDeal

if TYPE_CHECKING:
    from .game import TwoTenJackGame

__all__ = ["observation_blocks"]


def observation_blocks(game: TwoTenJackGame, layout: Layout) -> Blocks:
    """The game's blocks, added to ``layout``, and their writers."""
    fill = _snapshot_filler(game, layout)
    return Blocks(fill, _deal_filler(game, layout))


def _snapshot_filler(game: TwoTenJackGame, e: Layout) -> SnapshotFiller:
    e.points_scale, e.scores_scale = 20.0, float(game.options.target)
    o_trick = e.cards("trick")
    o_led = e.block("led", list("SHDC"))
    o_decl = e.block("declared", ["spade", "trump"])
    o_won = [e.cards(f"won_by_seat+{i}") for i in range(2)]
    o_tricks = e.seats("tricks_won")
    o_played = e.block("tricks_played", ["tricks/26"])
    o_stock = e.block("stock", ["cards/40"])
    o_sizes = e.seats("hand_sizes")

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        for t in p.get("trick") or ():
            e.card_texts(o_trick, [t["card"]], buf)
        e.onehot(o_led, SUIT_INDEX.get(p.get("led") or ""), buf)
        d = p.get("declared")
        if d:
            e.onehot(o_decl, 0 if d == "S" else 1, buf)
        for s, cards in enumerate(p.get("won") or ()):
            e.card_texts(o_won[(s - seat) % 2], cards, buf)
        e.per_seat(o_tricks, p.get("tricks_won"), seat, 26.0, buf)
        e.scalar(o_played, p.get("tricks_played"), 26.0, buf)
        e.scalar(o_stock, p.get("stock"), 40.0, buf)
        e.per_seat(o_sizes, p.get("hand_sizes"), seat, 6.0, buf)

    return fill


def _deal_filler(game: TwoTenJackGame, enc: Layout) -> DealFiller:
    o = {k: enc.offset(k) for k in enc.blocks}
    hand, trick, led, decl = o["hand"], o["trick"], o["led"], o["declared"]
    won = enc.adjacent("won_by_seat+0", "won_by_seat+1")
    tricks_won, tricks_played, stock, sizes = o["tricks_won"], o["tricks_played"], o["stock"], \
        o["hand_sizes"]

    def fill(d: TwoTenJackDeal, seat: int, buf: Floats, mv: memoryview) -> None:
        if d._hands[seat]:
            write_mask(mv, hand, d._hands[seat])
        if d._lead >= 0:
            buf[trick + d._lead] = 1.0
            buf[led + d._kind] = 1.0
            if d._lead_code >= 52:
                buf[decl + d._lead_code - 52] = 1.0
        mine, theirs = d._won[seat], d._won[1 - seat]
        if mine or theirs:
            write_masks2(mv, won, mine, theirs)
            # two cards a trick, 26 at most
            buf[tricks_won] = (mine.bit_count() // 2) / 26.0
            buf[tricks_won + 1] = (theirs.bit_count() // 2) / 26.0
        # unclipped: at most 26 tricks, 40 stock cards and 6 cards a hand
        buf[tricks_played] = d._tricks / 26.0
        buf[stock] = (40 - d._pos) / 40.0
        hands = d._hands
        buf[sizes] = hands[seat].bit_count() / 6.0
        buf[sizes + 1] = hands[1 - seat].bit_count() / 6.0

    return fill
