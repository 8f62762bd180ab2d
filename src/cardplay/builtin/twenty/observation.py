"""Twenty's observation blocks (:mod:`cardplay.observation`), read from a View's snapshot
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
    write_mask,
    write_scalar,
    write_sizes,
)
from .deal import TwentyDeal

if TYPE_CHECKING:
    from .game import Twenty

__all__ = ["observation_blocks"]


def observation_blocks(game: Twenty, layout: Layout) -> Blocks:
    """The game's blocks, added to ``layout``, and their writers."""
    fill = _snapshot_filler(game, layout)
    return Blocks(fill, _deal_filler(game, layout))


def _snapshot_filler(game: Twenty, e: Layout) -> SnapshotFiller:
    n = e.n
    e.points_scale = e.scores_scale = 100.0
    o_played = [e.cards(f"played_by_seat+{i}") for i in range(n)]
    o_count = e.block("count", ["count/20"])
    o_stock = e.block("stock", ["cards/stock"])
    o_passes = e.block("passes", ["passes/players"])
    o_sizes = e.seats("hand_sizes")
    stock0 = float(52 - 7 * n)

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        for play in p.get("pile") or ():
            e.card_texts(o_played[(play["seat"] - seat) % n], play["cards"], buf)
        e.scalar(o_count, p.get("count"), 20.0, buf)
        e.scalar(o_stock, p.get("stock"), stock0, buf)
        e.scalar(o_passes, p.get("passes"), float(n), buf)
        e.per_seat(o_sizes, p.get("hand_sizes"), seat, 20.0, buf)

    return fill


def _deal_filler(game: Twenty, enc: Layout) -> DealFiller:
    n = enc.n
    o = {k: enc.offset(k) for k in enc.blocks}
    hand = o["hand"]
    played = [o[f"played_by_seat+{i}"] for i in range(n)]
    count, stock, passes, sizes = o["count"], o["stock"], o["passes"], o["hand_sizes"]
    stock0 = float(52 - 7 * n)
    players = float(n)
    full = (1 << 52) - 1

    def fill(d: TwentyDeal, seat: int, buf: Floats, mv: memoryview) -> None:
        write_mask(mv, hand, d.hands[seat])
        plays = d.plays
        if plays:
            put = [0] * n
            for s, code, _ in plays:
                put[(s - seat) % n] |= (code - 64) & full
            for r in range(n):
                if put[r]:
                    write_mask(mv, played[r], put[r])
        write_scalar(buf, count, d.m, 20.0)
        write_scalar(buf, stock, len(d.stock) - d.top, stock0)
        write_scalar(buf, passes, d.passes, players)
        write_sizes(buf, sizes, d.hands, seat, n, 20.0)

    return fill
