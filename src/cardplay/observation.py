"""Observation blocks: how a game lays out what one seat may know as a fixed vector of floats.

A game defines its observation with itself (``Game.observation_blocks(layout)``, by default the
blocks read off its declaration by :func:`declared_blocks`): it adds named blocks to a
:class:`Layout` that already holds the common ones (``to_move``, ``dealer``, ``over``,
``points``, ``scores``, ``hand``) and returns its :class:`Blocks`, the functions that write
them. Every value lies in ``[-1, 1]`` and seats are **relative** to the observing seat (entry 0
of a per-seat block is the seat itself, entry 1 the next seat clockwise, ...).

Two ways in write the same vector, and ``tests/rl/test_observations.py`` checks they agree:

* ``Blocks.fill(snapshot, buf)`` reads a :class:`Snapshot`, the parts of a View that the
  blocks read (card texts, the public dict);
* ``Blocks.fast(deal, seat, buf, mv)`` (optional) reads the game's own deal state - bitmasks
  and ints, no texts - exactly the fields its ``_public(seat)`` and ``_hand(seat)`` hooks show,
  several times faster than building a View. ``Blocks.constant`` writes the blocks that never
  change during a deal, once per deal and seat. The ``write_*`` helpers write card planes whole,
  13 cards per table look-up, adjacent planes in one slice assignment.

Only the standard library is used (``array`` buffers, bytes): a game package stays free of
numpy; :mod:`cardplay.rl.observations` turns the buffers into numpy vectors.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import format_card
from .declaration import Field

if TYPE_CHECKING:
    from .engine import Deal, Game, Match, View

__all__ = [
    "CARD_ID",
    "RANK_INDEX",
    "SUIT_INDEX",
    "Blocks",
    "DealFiller",
    "Floats",
    "Layout",
    "Snapshot",
    "SnapshotFiller",
    "add_ids",
    "declared_blocks",
    "plane",
    "squash",
    "write_mask",
    "write_masks2",
    "write_masks3",
    "write_scalar",
    "write_seats",
    "write_sizes",
]

CARD_ID: dict[str, int] = {format_card(i): i for i in range(52)}
SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}
RANK_INDEX = {c: i for i, c in enumerate("23456789TJQKA")}

Floats = Any  # a float32 buffer: an array("f"), or a memoryview of a float32 tensor
SnapshotFiller = Callable[["Snapshot", array], None]
# (deal, seat, the vector's buffer, the same buffer as bytes); the buffer holds the common
# blocks already and zeros elsewhere. A game's filler reads its own deal class's state.
DealFiller = Callable[[Any, int, Floats, memoryview], None]


@dataclass(slots=True)
class Snapshot:
    """The parts of a seat's View that an encoding reads."""

    seat: int
    players: int
    dealer: int
    to_move: int | None
    hand: Sequence[int]
    public: Mapping[str, Any]
    points: Sequence[int]
    is_over: bool
    scores: Sequence[int] | None = None

    @classmethod
    def of_view(cls, view: View) -> Snapshot:
        """From a View (a deal's or a match's)."""
        scores = view.match["scores"] if view.match is not None else None
        return cls(view.seat, view.players, view.dealer, view.to_move,
                   [int(c) for c in view.hand], view.public, view.points, view.is_over, scores)

    @classmethod
    def of_deal(cls, deal: Deal, seat: int, match: Match | None = None) -> Snapshot:
        """What ``deal.view(seat)`` holds (the deal's own view hooks), without the move history.

        With ``match``, the match's scores as ``match.view(seat)`` shows them."""
        turn = deal.to_move
        scores = match.scores if match is not None else None
        if match is not None and match.is_over:
            turn = None
        # the engine's view hooks, as deal.view() calls them (no move history, no Move objects)
        return cls(seat, deal.players, deal.dealer, turn, deal.hand_codes(seat),
                   deal.public_state(seat), deal.points, deal.is_over, scores)


@dataclass(frozen=True, slots=True)
class Blocks:
    """A game's writers of its blocks: from a snapshot, and (optionally) from its deal's state,
    with the blocks that never change during a deal written apart."""

    fill: SnapshotFiller
    fast: DealFiller | None = None
    constant: DealFiller | None = None


class Layout:
    """The named blocks of a game's vector, with the common blocks first.

    ``points_scale`` and ``scores_scale`` (1 unless the game sets them) divide the deal's
    points and the match scores; ``weight`` is one copy of a card (1/2 in two-deck games)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.n = game.players
        self.size = 0
        self.labels: list[str] = []
        self.blocks: dict[str, tuple[int, int]] = {}
        deck = game.deck_cards()
        self.copies = float(max(deck.count(c) for c in set(deck)))  # 2 in two-deck games
        self.weight = 1.0 / self.copies
        self.points_scale, self.scores_scale = 1.0, 1.0
        self.o_to_move = self.seats("to_move")
        self.o_dealer = self.seats("dealer")
        self.o_over = self.block("over", ["over"])
        self.o_points = self.seats("points")
        self.o_scores = self.seats("scores")
        self.o_hand = self.cards("hand")

    # ---- adding blocks (each returns its offset)

    def block(self, name: str, labels: Sequence[str]) -> int:
        off = self.size
        self.blocks[name] = (off, len(labels))
        self.labels.extend(f"{name}:{x}" for x in labels)
        self.size += len(labels)
        return off

    def seats(self, name: str) -> int:
        """A block of one entry per relative seat."""
        return self.block(name, [f"seat+{i}" for i in range(self.n)])

    def cards(self, name: str) -> int:
        """A 52-card plane."""
        return self.block(name, [format_card(c) for c in range(52)])

    def offset(self, name: str) -> int:
        return self.blocks[name][0]

    def adjacent(self, *names: str) -> int:
        """The offset of card planes that follow each other (for write_masks2/3)."""
        first = self.blocks[names[0]][0]
        assert all(self.blocks[x] == (first + 52 * i, 52) for i, x in enumerate(names)), names
        return first

    # ---- writing from a snapshot (values are clipped to [-1, 1])

    def per_seat(self, off: int, values: Sequence[int | float | None] | None, seat: int,
                 scale: float, buf: array) -> None:
        if not values:
            return
        n = self.n
        for s, v in enumerate(values):
            if v:
                x = v / scale
                buf[off + (s - seat) % n] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x

    def card_texts(self, off: int, cards: Sequence[str] | None, buf: array) -> None:
        if not cards:
            return
        w = self.weight
        ids = CARD_ID
        for t in cards:
            buf[off + ids[t]] += w

    def onehot(self, off: int, i: int | None, buf: array) -> None:
        if i is not None:
            buf[off + i] = 1.0

    def scalar(self, off: int, x: float | None, scale: float, buf: array) -> None:
        if x:
            v = x / scale
            buf[off] = -1.0 if v < -1.0 else 1.0 if v > 1.0 else v


# ---- writing from a deal's state


def _block_bytes() -> list[bytes]:
    """``BLOCK_BYTES[b]``: the 13 float32 (0 or 1) of a 13-bit block, one suit of a card mask,
    as bytes."""
    pack = struct.Struct("<13f").pack
    return [pack(*[float((b >> i) & 1) for i in range(13)]) for b in range(8192)]


BLOCK_BYTES = _block_bytes()
_join = b"".join


def write_mask(mv: memoryview, off: int, mask: int) -> None:
    """The plane of the cards in a bitmask (card ids below 52), written whole: one slice
    assignment of its four 13-card blocks, through the buffer's bytes (``mv``)."""
    b = BLOCK_BYTES
    o = off << 2
    mv[o:o + 208] = _join((b[mask & 8191], b[(mask >> 13) & 8191], b[(mask >> 26) & 8191],
                           b[mask >> 39]))


def write_masks2(mv: memoryview, off: int, m1: int, m2: int) -> None:
    """Two adjacent planes in one assignment (one call and one copy less than two masks)."""
    b = BLOCK_BYTES
    o = off << 2
    mv[o:o + 416] = _join((b[m1 & 8191], b[(m1 >> 13) & 8191], b[(m1 >> 26) & 8191],
                           b[m1 >> 39],
                           b[m2 & 8191], b[(m2 >> 13) & 8191], b[(m2 >> 26) & 8191],
                           b[m2 >> 39]))


def write_masks3(mv: memoryview, off: int, m1: int, m2: int, m3: int) -> None:
    """Three adjacent planes in one assignment."""
    b = BLOCK_BYTES
    o = off << 2
    mv[o:o + 624] = _join((b[m1 & 8191], b[(m1 >> 13) & 8191], b[(m1 >> 26) & 8191],
                           b[m1 >> 39],
                           b[m2 & 8191], b[(m2 >> 13) & 8191], b[(m2 >> 26) & 8191],
                           b[m2 >> 39],
                           b[m3 & 8191], b[(m3 >> 13) & 8191], b[(m3 >> 26) & 8191],
                           b[m3 >> 39]))


def plane(mask: int) -> bytes:
    """The bytes that :func:`write_mask` writes."""
    b = BLOCK_BYTES
    return _join((b[mask & 8191], b[(mask >> 13) & 8191], b[(mask >> 26) & 8191],
                  b[mask >> 39]))


def add_ids(buf: Floats, off: int, cards: Sequence[int], w: float) -> None:
    """Add ``w`` at each card id (a card held twice counts twice)."""
    for c in cards:
        buf[off + c] += w


def write_seats(buf: Floats, off: int, values: Sequence[Any], seat: int, n: int,
                scale: float) -> None:
    """A per-seat block, relative to ``seat``, scaled and clipped."""
    for s, v in enumerate(values):
        if v:
            x = v / scale
            buf[off + (s - seat) % n] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


def write_sizes(buf: Floats, off: int, masks: Sequence[int], seat: int, n: int,
                scale: float) -> None:
    """``write_seats`` of the number of cards in each seat's card mask."""
    for s, m in enumerate(masks):
        if m:
            x = m.bit_count() / scale
            buf[off + (s - seat) % n] = 1.0 if x > 1.0 else x


def write_scalar(buf: Floats, off: int, x: float, scale: float) -> None:
    """One scaled, clipped number (zero writes nothing: the buffer starts zeroed)."""
    if x:
        x /= scale
        buf[off] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


def squash(x: float) -> float:
    """A number of any size into (-1, 1), keeping its sign and order."""
    return x / (1.0 + abs(x))


# ---- the default: blocks read off the declaration


def _walk_cards(x: Any) -> list[int]:
    out: list[int] = []
    if isinstance(x, str):
        c = CARD_ID.get(x)
        if c is not None:
            out.append(c)
    elif isinstance(x, Mapping):
        for v in x.values():
            out.extend(_walk_cards(v))
    elif isinstance(x, (list, tuple)):
        for v in x:
            out.extend(_walk_cards(v))
    return out


def declared_blocks(game: Game, e: Layout) -> Blocks:
    """A game without hand-made blocks: blocks read off its declaration, one per public field:
    a card plane per card field (per relative seat for ``per_seat_cards``; per record field
    for records), one-hot suits, seats (relative), named values and flags, and numbers squashed
    into (-1, 1) by ``x / (1 + |x|)``; lists of plain numbers are left out."""
    writers: list[Callable[[Snapshot, array], None]] = []
    n = e.n

    def seat_block(name: str, get: Callable[[Snapshot], Any], many: bool) -> None:
        off = e.seats(name)

        def write(snap: Snapshot, buf: array) -> None:
            v = get(snap)
            for x in (v or () if many else () if v is None else (v,)):
                if isinstance(x, int):
                    buf[off + (x - snap.seat) % n] = 1.0
        writers.append(write)

    def card_block(name: str, get: Callable[[Snapshot], Any]) -> None:
        off = e.cards(name)

        def write(snap: Snapshot, buf: array) -> None:
            for c in _walk_cards(get(snap)):
                buf[off + c] = min(1.0, buf[off + c] + e.weight)
        writers.append(write)

    def add(f: Field, prefix: str, get: Callable[[Snapshot], Any]) -> None:
        name = prefix + f.name
        k = f.kind
        if k in ("card", "cards"):
            card_block(name, get)
        elif k == "per_seat_cards":
            for i in range(n):
                def of_seat(snap: Snapshot, i: int = i) -> Any:
                    return (get(snap) or [[]] * n)[(snap.seat + i) % n]
                card_block(f"{name}_seat+{i}", of_seat)
        elif k == "suit":
            off = e.block(name, list("SHDC"))

            def suit(snap: Snapshot, buf: array, off: int = off) -> None:
                e.onehot(off, SUIT_INDEX.get(get(snap) or ""), buf)
            writers.append(suit)
        elif k in ("seat", "seats"):
            seat_block(name, get, k == "seats")
        elif k in ("number", "flag"):
            off = e.block(name, [name])

            def number(snap: Snapshot, buf: array, off: int = off) -> None:
                v = get(snap)
                if v:
                    buf[off] = squash(float(v))
            writers.append(number)
        elif k == "per_seat":
            off = e.seats(name)

            def per_seat(snap: Snapshot, buf: array, off: int = off) -> None:
                for s, v in enumerate(get(snap) or ()):
                    if v:
                        buf[off + (s - snap.seat) % n] = squash(float(v))
            writers.append(per_seat)
        elif k in ("choice", "per_seat_choice"):
            values = [v.value for v in f.values]
            seats = n if k == "per_seat_choice" else 1
            off = e.block(name, [(f"seat+{i}:{v}" if seats > 1 else str(v))
                                  for i in range(seats) for v in values])

            def choice(snap: Snapshot, buf: array, off: int = off) -> None:
                got = get(snap)
                for s, v in enumerate(got if seats > 1 else [got]):
                    if v in values:
                        rel = (s - snap.seat) % n if seats > 1 else 0
                        buf[off + rel * len(values) + values.index(v)] = 1.0
            writers.append(choice)
        elif k in ("record", "records"):
            for sub in f.fields:
                if sub.kind in ("card", "cards", "seat", "seats"):
                    def part(snap: Snapshot, sub: Field = sub) -> Any:
                        v = get(snap)
                        recs = [v] if isinstance(v, Mapping) else (v or [])
                        vals = [r.get(sub.name) for r in recs if isinstance(r, Mapping)]
                        if sub.kind in ("seat", "seats"):
                            flat: list[Any] = []
                            for x in vals:
                                flat.extend(x if isinstance(x, list) else [x])
                            return [x for x in flat if x is not None]
                        return vals
                    if sub.kind in ("card", "cards"):
                        card_block(f"{name}.{sub.name}", part)
                    else:
                        seat_block(f"{name}.{sub.name}", part, True)

    for f in game.declaration.public:
        def field_value(snap: Snapshot, name: str = f.name) -> Any:
            return snap.public.get(name)
        add(f, "", field_value)

    def fill(snap: Snapshot, buf: array) -> None:
        for write in writers:
            write(snap, buf)
    return Blocks(fill)
