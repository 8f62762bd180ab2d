"""Macao's observation blocks (:mod:`cardplay.observation`), read from a View's snapshot
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
    write_scalar,
    write_seats,
)
from .deal import MacaoDeal

if TYPE_CHECKING:
    from .game import Macao

__all__ = ["observation_blocks"]

# the seat statuses the public state names, in their block's order
STATUS = ("waiting", "staked", "bought", "stood", "busted", "sat_out", "done", "out",
          "banker")


def observation_blocks(game: Macao, layout: Layout) -> Blocks:
    """The game's blocks, added to ``layout``, and their writers."""
    fill = _snapshot_filler(game, layout)
    return Blocks(fill, _deal_filler(game, layout))


def _snapshot_filler(game: Macao, e: Layout) -> SnapshotFiller:
    n = e.n
    o = game.options
    total = float(n * o.start_chips)
    e.points_scale = e.scores_scale = float(o.start_chips)
    o_used = e.cards("used")
    o_shown = e.cards("shown")
    o_bank = e.block("bank", ["bank/total_chips"])
    o_chips = e.seats("chips")
    o_start = e.seats("chips_at_start")
    o_phase = e.block("phase", ["stake", "decide", "over"])
    o_shoe = e.block("shoe", ["cards/104"])
    o_round = e.block("round", ["round/52"])
    o_dealt = e.seats("dealt_to")
    o_stakes = e.seats("stakes")
    o_bought = e.seats("bought")
    o_status = [e.block(f"status_seat+{i}", STATUS) for i in range(n)]
    status_index = {s: i for i, s in enumerate(STATUS)}
    phase_index = {"stake": 0, "decide": 1, "over": 2}

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        e.card_texts(o_used, p.get("used"), buf)
        for cards in p.get("shown") or ():
            e.card_texts(o_shown, cards, buf)
        e.scalar(o_bank, p.get("bank"), total, buf)
        e.per_seat(o_chips, p.get("chips"), seat, total, buf)
        e.per_seat(o_start, p.get("chips_at_start"), seat, total, buf)
        e.onehot(o_phase, phase_index.get(p.get("phase") or ""), buf)
        e.scalar(o_shoe, p.get("stock"), 104.0, buf)
        e.scalar(o_round, p.get("round"), 52.0, buf)
        for s in p.get("dealt_to") or ():
            e.onehot(o_dealt, (s - seat) % n, buf)
        e.per_seat(o_stakes, p.get("stakes"), seat, float(o.max_stake), buf)
        e.per_seat(o_bought, p.get("bought"), seat, 4.0, buf)
        for s, st in enumerate(p.get("status") or ()):
            e.onehot(o_status[(s - seat) % n], status_index.get(st), buf)

    return fill


def _deal_filler(game: Macao, enc: Layout) -> DealFiller:
    n = enc.n
    opts = game.options
    total = float(n * opts.start_chips)
    o = {k: enc.offset(k) for k in enc.blocks}
    hand, used, shown = o["hand"], o["used"], o["shown"]
    bank, chips, chips_at_start, phase, shoe, round_, dealt_to, stakes, bought = \
        o["bank"], o["chips"], o["chips_at_start"], o["phase"], o["shoe"], o["round"], \
        o["dealt_to"], o["stakes"], o["bought"]
    status = [o[f"status_seat+{i}"] for i in range(n)]
    status_index = {s: i for i, s in enumerate(STATUS)}
    max_stake = float(opts.max_stake)

    def fill(d: MacaoDeal, seat: int, buf: Floats, mv: memoryview) -> None:
        for c in d.cards[seat]:
            buf[hand + c] += 0.5
        order = d._order
        for k in range(d.rstart):
            buf[used + order[k]] += 0.5
        busted = d.busted
        for p in range(n):
            if busted[p]:
                for c in d.cards[p]:
                    buf[shown + c] += 0.5
        write_scalar(buf, bank, d.bank, total)
        write_seats(buf, chips, d.chips, seat, n, total)
        write_seats(buf, chips_at_start, d.start, seat, n, total)
        buf[phase + d.phase] = 1.0
        write_scalar(buf, shoe, len(order) - d.pos, 104.0)
        write_scalar(buf, round_, d.round, 52.0)
        for s in d.dealt:
            buf[dealt_to + (s - seat) % n] = 1.0
        write_seats(buf, stakes, d.stakes, seat, n, max_stake)
        write_seats(buf, bought, d.bought, seat, n, 4.0)
        for s, st in enumerate(d.status):
            i = status_index.get(st)
            if i is not None:
                buf[status[(s - seat) % n] + i] = 1.0

    return fill
