"""The fast observation path: the same vectors as :mod:`cardplay.rl.observations` computes from a
View, written by each game's ``Blocks.fast`` (:mod:`cardplay.observation`) straight from its
deal's state (bitmasks and ints, no texts).

Building a View (or just its public dict, with every card written as text) costs several times
a move of the engine; the adapters encode an observation at every step. A game's fast filler
(``cardplay.builtin.<game>.observation``) reads exactly the fields its ``_public(seat)`` and
``_hand(seat)`` hooks show, and nothing else; this module adds the common blocks and the reuse
between calls. ``tests/rl/test_observations.py`` checks, position by position in random deals of
every game and player count, that this path gives the vector of the View path, and that deals
differing only in what the seat cannot see give equal vectors. A game without a fast filler
uses the View path.

An adapter encodes the same deal at every step, so per seat a template holding what never
changes during a deal (the dealer, the game's ``Blocks.constant`` blocks) is kept for the deal
object last seen, keyed by the object itself and checked at every call (a game's filler may keep
its own such state, as Maltese Twenty's plane of cleared cards);
``test_interleaved_deals_and_copies_...`` plays two deals and a copy in turn to check it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..engine import Deal, Match
from ..observation import Blocks, Floats, write_seats

if TYPE_CHECKING:
    from .observations import Encoder

__all__ = ["DealEncoder", "DealWriter", "chain", "deal_encoder", "deal_writers"]

# (deal, seat, match, the vector's buffer, the same buffer as bytes)
DealWriter = Callable[[Deal, int, "Match | None", Floats, memoryview], None]
DealEncoder = Callable[[Deal, int, "Match | None"], np.ndarray]


def deal_writers(enc: Encoder, blocks: Blocks) -> tuple[DealWriter, DealWriter] | None:
    """The encoder's fast path (its game's ``blocks.fast``), or None when it has none: two
    functions ``(deal, seat, match, buf, mv)`` that write into a zeroed float32 buffer ``buf``
    (``mv``: the same buffer's bytes), reading the deal's state. The first writes what never
    changes during a deal (the dealer, the game's ``blocks.constant``), the second the rest."""
    fill, fill_constant = blocks.fast, blocks.constant
    if fill is None:
        return None
    n = enc.n
    o_to_move, o_dealer, o_over, o_points, o_scores = \
        enc.o_to_move, enc.o_dealer, enc.o_over, enc.o_points, enc.o_scores
    points_scale, scores_scale = enc.points_scale, enc.scores_scale

    def write_constant(deal: Deal, seat: int, match: Match | None, buf: Floats,
                       mv: memoryview) -> None:
        buf[o_dealer + (deal.dealer - seat) % n] = 1.0
        if fill_constant is not None:
            fill_constant(deal, seat, buf, mv)

    def write(deal: Deal, seat: int, match: Match | None, buf: Floats, mv: memoryview) -> None:
        turn = deal.to_move
        if turn is None:
            buf[o_over] = 1.0
        elif match is None or not match.is_over:
            buf[o_to_move + (turn - seat) % n] = 1.0
        for s, v in enumerate(deal.points):
            if v:
                x = v / points_scale
                buf[o_points + (s - seat) % n] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x
        if match is not None:
            write_seats(buf, o_scores, match.scores, seat, n, scores_scale)
        fill(deal, seat, buf, mv)

    return write_constant, write


def chain(first: DealWriter, second: DealWriter) -> DealWriter:
    """Both writers, one after the other."""

    def write(deal: Deal, seat: int, match: Match | None, buf: Floats, mv: memoryview) -> None:
        first(deal, seat, match, buf, mv)
        second(deal, seat, match, buf, mv)

    return write


def deal_encoder(enc: Encoder, write_constant: DealWriter, write: DealWriter) -> DealEncoder:
    """``(deal, seat, match) -> vector``: ``write`` into a copy of the seat's template, the
    zeros with the deal's constant blocks written (kept for the deal last seen by each seat, as
    an adapter observes the same deal step after step)."""
    zeros = enc.zeros
    frombuffer, float32 = np.frombuffer, np.dtype(np.float32)  # a dtype, not a type: faster
    templates: list[tuple[Deal, Floats] | None] = [None] * enc.n

    def encode(deal: Deal, seat: int, match: Match | None) -> np.ndarray:
        t = templates[seat]
        if t is None or t[0] is not deal:
            empty = zeros[:]
            write_constant(deal, seat, match, empty, memoryview(empty).cast("B"))
            t = templates[seat] = (deal, empty)
        buf = t[1][:]
        write(deal, seat, match, buf, memoryview(buf).cast("B"))
        return frombuffer(buf, float32)

    return encode
