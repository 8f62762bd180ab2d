"""Fixed-size numeric encodings of what one seat may know: its View, never the deal.

An :class:`Encoder` turns a seat's view of a deal (or of a match) into a float32 vector of a size
fixed per game and player count, every value in ``[-1, 1]``. The layout is a list of named blocks
(:meth:`Encoder.labels` names every entry); seats are always **relative** to the observing seat
(entry 0 of a per-seat block is the seat itself, entry 1 the next seat clockwise, ...).

Common blocks, every game: ``to_move`` and ``dealer`` (one-hot seats), ``over`` (1 once the deal
is over), ``points`` (the deal's points, scaled), ``scores`` (the match scores in a match, else 0,
scaled) and ``hand`` (a 52-card plane of the seat's own cards: copies held / copies in the deck).
Each game adds, with itself, planes of the cards the view shows (a trick, won cards, a pile, used
cards...) and scaled scalars of its public state: ``game.observation_blocks(layout)``
(:mod:`cardplay.observation`; the hand-made blocks of each game live in
``cardplay.builtin.<game>.observation``, a game without them gets blocks read off its
declaration). One encoding per game, used by PettingZoo, OpenSpiel and Gymnasium alike.

The input is a :class:`Snapshot`, the parts of a View that the encodings read. It is built from a
View (:meth:`Snapshot.of_view`), or - the same content without building a View's move history -
from a deal's view hooks (:meth:`Snapshot.of_deal`); a game's blocks may also read its deal's
state directly (:mod:`cardplay.rl.fast` runs that path); the tests check all give equal vectors
and that two deals that differ only in what the seat cannot see give equal vectors.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

import numpy as np

from ..engine import Deal, Game, Match, View
from ..observation import CARD_ID, Layout, Snapshot
from . import fast

__all__ = ["CARD_ID", "Encoder", "Snapshot", "encoder"]


class Encoder:
    """A game's fixed observation layout (:class:`~cardplay.observation.Layout`) and its
    encoding functions."""

    def __init__(self, game: Game) -> None:
        self.game = game
        layout = self.layout = Layout(game)
        blocks = game.observation_blocks(layout)
        self.n = layout.n
        self.size = layout.size
        self.blocks: dict[str, tuple[int, int]] = layout.blocks
        self.copies, self.weight = layout.copies, layout.weight
        self.points_scale, self.scores_scale = layout.points_scale, layout.scores_scale
        self.o_to_move, self.o_dealer, self.o_over = layout.o_to_move, layout.o_dealer, \
            layout.o_over
        self.o_points, self.o_scores, self.o_hand = layout.o_points, layout.o_scores, \
            layout.o_hand
        self._fill = blocks.fill
        self.zeros = array("f", bytes(4 * self.size))
        # the fast path: the whole vector written into a zeroed buffer (OpenSpiel's observer
        # tensor), and the encoder of fresh vectors built on its two parts
        self.fast_writer: fast.DealWriter | None = None
        self.fast_encoder: fast.DealEncoder | None = None
        writers = fast.deal_writers(self, blocks)
        if writers is not None:
            self.fast_writer = fast.chain(*writers)
            self.fast_encoder = fast.deal_encoder(self, *writers)
        # ``encode_deal`` without its default argument: what the adapters call at every step
        self.deal_encoder: fast.DealEncoder = self.fast_encoder or self._encode_deal_slow

    def labels(self) -> list[str]:
        """The name of every entry, ``block:item``."""
        return list(self.layout.labels)

    # ---- encoding

    def encode(self, snap: Snapshot) -> np.ndarray:
        """The float32 vector of a snapshot."""
        buf = self.zeros[:]
        n, seat = self.n, snap.seat
        if snap.to_move is not None:
            buf[self.o_to_move + (snap.to_move - seat) % n] = 1.0
        buf[self.o_dealer + (snap.dealer - seat) % n] = 1.0
        if snap.is_over:
            buf[self.o_over] = 1.0
        self._per_seat(self.o_points, snap.points, seat, self.points_scale, buf)
        if snap.scores is not None:
            self._per_seat(self.o_scores, snap.scores, seat, self.scores_scale, buf)
        w = self.weight
        off = self.o_hand
        for c in snap.hand:
            buf[off + c] += w
        self._fill(snap, buf)
        return np.frombuffer(buf, np.float32)

    def _per_seat(self, off: int, values: Sequence[int | float | None] | None, seat: int,
                  scale: float, buf: array) -> None:
        self.layout.per_seat(off, values, seat, scale, buf)

    def encode_deal(self, deal: Deal, seat: int, match: Match | None = None) -> np.ndarray:
        """The vector of ``deal.view(seat)`` (``match.view(seat)`` with ``match``), read from
        the deal's state by the game's fast path when it has one (the same vector)."""
        return self.deal_encoder(deal, seat, match)

    def _encode_deal_slow(self, deal: Deal, seat: int, match: Match | None) -> np.ndarray:
        return self.encode(Snapshot.of_deal(deal, seat, match))

    def encode_view(self, view: View) -> np.ndarray:
        """The vector of a View."""
        return self.encode(Snapshot.of_view(view))

    def __repr__(self) -> str:
        return f"<Encoder {self.game.name} players={self.n} size={self.size}>"


def encoder(game: Game) -> Encoder:
    """The observation encoder of a loaded game (shared per game and options)."""
    enc = _CACHE.get(game)
    if enc is None:
        enc = _CACHE[game] = Encoder(game)
    return enc


_CACHE: dict[Game, Encoder] = {}
