"""Fixed-size numeric encodings of what one seat may know: its View, never the deal.

An :class:`Encoder` turns a seat's view of a deal (or of a match) into a float32 vector of a size
fixed per game and player count, every value in ``[-1, 1]``. The layout is a list of named blocks
(:meth:`Encoder.labels` names every entry); seats are always **relative** to the observing seat
(entry 0 of a per-seat block is the seat itself, entry 1 the next seat clockwise, ...).

Common blocks, every game: ``to_move`` and ``dealer`` (one-hot seats), ``over`` (1 once the deal
is over), ``points`` (the deal's points, scaled), ``scores`` (the match scores in a match, else 0,
scaled) and ``hand`` (a 52-card plane of the seat's own cards: copies held / copies in the deck).
Each game adds planes of the cards the view shows (a trick, won cards, a pile, used cards...) and
scaled scalars of its public state; :data:`GAME_BLOCKS` in the docs lists them.

The input is a :class:`Snapshot`, the parts of a View that the encodings read. It is built from a
View (:meth:`Snapshot.of_view`), or - the same content without building a View's move history -
from a deal's view hooks (:meth:`Snapshot.of_deal`); the tests check both give equal vectors and
that two deals that differ only in what the seat cannot see give equal vectors.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cards import format_card
from ..engine import Deal, Game, Match, View
from . import _fast

__all__ = ["Encoder", "Snapshot", "encoder"]

CARD_ID: dict[str, int] = {format_card(i): i for i in range(52)}
_SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}
_RANK_INDEX = {c: i for i, c in enumerate("23456789TJQKA")}


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
        turn = deal._turn
        scores = match.scores if match is not None else None
        if match is not None and match.is_over:
            turn = None
        return cls(seat, deal.players, deal.dealer, turn, deal._hand(seat),
                   deal._public(seat), deal._points(), deal._turn is None, scores)


class Encoder:
    """A game's fixed observation layout and its encoding function."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.n = game.players
        self.size = 0
        self._labels: list[str] = []
        self.blocks: dict[str, tuple[int, int]] = {}
        deck = game._deck_cards()
        self.copies = float(max(deck.count(c) for c in set(deck)))  # 2 in two-deck games
        self.points_scale, self.scores_scale = 1.0, 1.0
        n = self.n
        self.o_to_move = self._seats("to_move")
        self.o_dealer = self._seats("dealer")
        self.o_over = self._block("over", ["over"])
        self.o_points = self._seats("points")
        self.o_scores = self._seats("scores")
        self.o_hand = self._cards("hand")
        self._fill: Callable[[Snapshot, array], None]
        _GAMES.get(game.name, _declared)(self)
        assert len(self._labels) == self.size and n == self.n
        self.weight = 1.0 / self.copies
        self._zeros = array("f", bytes(4 * self.size))
        # the fast path: the whole vector written into a zeroed buffer (OpenSpiel's observer
        # tensor), and the encoder of fresh vectors built on its two parts
        self._fast_writer: _fast.DealWriter | None = None
        self._fast: _fast.DealEncoder | None = None
        writers = _fast.deal_writers(self)
        if writers is not None:
            self._fast_writer = _fast.chain(*writers)
            self._fast = _fast.deal_encoder(self, *writers)
        # ``encode_deal`` without its default argument: what the adapters call at every step
        self.deal_encoder: _fast.DealEncoder = self._fast or self._encode_deal_slow

    # ---- layout

    def _block(self, name: str, labels: Sequence[str]) -> int:
        off = self.size
        self.blocks[name] = (off, len(labels))
        self._labels.extend(f"{name}:{x}" for x in labels)
        self.size += len(labels)
        return off

    def _seats(self, name: str) -> int:
        return self._block(name, [f"seat+{i}" for i in range(self.n)])

    def _cards(self, name: str) -> int:
        return self._block(name, [format_card(c) for c in range(52)])

    def labels(self) -> list[str]:
        """The name of every entry, ``block:item``."""
        return list(self._labels)

    # ---- encoding

    def encode(self, snap: Snapshot) -> np.ndarray:
        """The float32 vector of a snapshot."""
        buf = self._zeros[:]
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

    def encode_deal(self, deal: Deal, seat: int, match: Match | None = None) -> np.ndarray:
        """The vector of ``deal.view(seat)`` (``match.view(seat)`` with ``match``), read from
        the deal's state by the game's fast path when it has one (the same vector)."""
        return self.deal_encoder(deal, seat, match)

    def _encode_deal_slow(self, deal: Deal, seat: int, match: Match | None) -> np.ndarray:
        return self.encode(Snapshot.of_deal(deal, seat, match))

    def encode_view(self, view: View) -> np.ndarray:
        """The vector of a View."""
        return self.encode(Snapshot.of_view(view))

    # ---- helpers for the games' fill functions (values are clipped to [-1, 1])

    def _per_seat(self, off: int, values: Sequence[int | float | None] | None, seat: int,
                  scale: float, buf: array) -> None:
        if not values:
            return
        n = self.n
        for s, v in enumerate(values):
            if v:
                x = v / scale
                buf[off + (s - seat) % n] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x

    def _card_texts(self, off: int, cards: Sequence[str] | None, buf: array) -> None:
        if not cards:
            return
        w = self.weight
        ids = CARD_ID
        for t in cards:
            buf[off + ids[t]] += w

    def _onehot(self, off: int, i: int | None, buf: array) -> None:
        if i is not None:
            buf[off + i] = 1.0

    def _scalar(self, off: int, x: float | None, scale: float, buf: array) -> None:
        if x:
            v = x / scale
            buf[off] = -1.0 if v < -1.0 else 1.0 if v > 1.0 else v

    def __repr__(self) -> str:
        return f"<Encoder {self.game.name} players={self.n} size={self.size}>"


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


# --------------------------------------------------------------------------------------------
# Per-game blocks


def _squash(x: float) -> float:
    """A number of any size into (-1, 1), keeping its sign and order."""
    return x / (1.0 + abs(x))


def _declared(e: Encoder) -> None:
    """A game without hand-made blocks: blocks read off its declaration, one per public field:
    a card plane per card field (per relative seat for ``per_seat_cards``; per record field
    for records), one-hot suits, seats (relative), named values and flags, and numbers squashed
    into (-1, 1) by ``x / (1 + |x|)``; lists of plain numbers are left out."""
    from ..declaration import Field

    writers: list[Callable[[Snapshot, array], None]] = []
    n = e.n

    def seat_block(name: str, get: Callable[[Snapshot], Any], many: bool) -> None:
        off = e._seats(name)

        def write(snap: Snapshot, buf: array) -> None:
            v = get(snap)
            for x in (v or () if many else () if v is None else (v,)):
                if isinstance(x, int):
                    buf[off + (x - snap.seat) % n] = 1.0
        writers.append(write)

    def card_block(name: str, get: Callable[[Snapshot], Any]) -> None:
        off = e._cards(name)

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
            off = e._block(name, list("SHDC"))

            def suit(snap: Snapshot, buf: array, off: int = off) -> None:
                e._onehot(off, _SUIT_INDEX.get(get(snap) or ""), buf)
            writers.append(suit)
        elif k in ("seat", "seats"):
            seat_block(name, get, k == "seats")
        elif k in ("number", "flag"):
            off = e._block(name, [name])

            def number(snap: Snapshot, buf: array, off: int = off) -> None:
                v = get(snap)
                if v:
                    buf[off] = _squash(float(v))
            writers.append(number)
        elif k == "per_seat":
            off = e._seats(name)

            def per_seat(snap: Snapshot, buf: array, off: int = off) -> None:
                for s, v in enumerate(get(snap) or ()):
                    if v:
                        buf[off + (s - snap.seat) % n] = _squash(float(v))
            writers.append(per_seat)
        elif k in ("choice", "per_seat_choice"):
            values = [v.value for v in f.values]
            seats = n if k == "per_seat_choice" else 1
            off = e._block(name, [(f"seat+{i}:{v}" if seats > 1 else str(v))
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

    for f in e.game.declaration.public:
        def field_value(snap: Snapshot, name: str = f.name) -> Any:
            return snap.public.get(name)
        add(f, "", field_value)

    def fill(snap: Snapshot, buf: array) -> None:
        for write in writers:
            write(snap, buf)
    e._fill = fill


def _sixty_six(e: Encoder) -> None:
    e.points_scale, e.scores_scale = 66.0, float(e.game.options.match_target)
    talon = 10.0 if e.game.options.preset == "schnapsen" else 12.0
    o_trump = e._block("trump_suit", list("SHDC"))
    o_face = e._cards("trump_card")
    o_trick = e._cards("trick")
    o_marr = e._block("trick_marriage", ["lead_announced"])
    o_won = [e._cards(f"won_by_seat+{i}") for i in range(2)]
    o_known = e._cards("opponent_known")
    o_mar = [e._block(f"marriages_seat+{i}", list("SHDC")) for i in range(2)]
    o_talon = e._block("talon", ["cards/talon"])
    o_closed = e._seats("closed_by")
    o_phase = e._block("phase2", ["phase2"])
    o_tricks = e._seats("tricks_won")
    o_pending = e._seats("pending")
    o_sizes = e._seats("hand_sizes")
    o_bonus = e._block("stand_bonus", ["stand_bonus"])

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        e._onehot(o_trump, _SUIT_INDEX.get(p.get("trump_suit") or ""), buf)
        if p.get("trump_card"):
            e._card_texts(o_face, [p["trump_card"]], buf)
        for t in p.get("trick") or ():
            e._card_texts(o_trick, [t["card"]], buf)
            if t.get("marriage"):
                buf[o_marr] = 1.0
        for t in p.get("tricks") or ():
            e._card_texts(o_won[(t["winner"] - seat) % 2], t["cards"], buf)
        known = p.get("known_cards")
        if known:
            e._card_texts(o_known, known[1 - seat], buf)
        for m in p.get("marriages") or ():
            e._onehot(o_mar[(m["seat"] - seat) % 2], _SUIT_INDEX[m["suit"]], buf)
        e._scalar(o_talon, p.get("stock"), talon, buf)
        if p.get("closed_by") is not None:
            e._onehot(o_closed, (p["closed_by"] - seat) % 2, buf)
        if p.get("phase") == 2:
            e._onehot(o_phase, 0, buf)
        e._per_seat(o_tricks, p.get("tricks_won"), seat, 12.0, buf)
        e._per_seat(o_pending, p.get("pending"), seat, 40.0, buf)
        e._per_seat(o_sizes, p.get("hand_sizes"), seat, 6.0, buf)
        e._scalar(o_bonus, p.get("stand_bonus"), 3.0, buf)

    e._fill = fill


def _two_ten_jack(e: Encoder) -> None:
    e.points_scale, e.scores_scale = 20.0, float(e.game.options.target)
    o_trick = e._cards("trick")
    o_led = e._block("led", list("SHDC"))
    o_decl = e._block("declared", ["spade", "trump"])
    o_won = [e._cards(f"won_by_seat+{i}") for i in range(2)]
    o_tricks = e._seats("tricks_won")
    o_played = e._block("tricks_played", ["tricks/26"])
    o_stock = e._block("stock", ["cards/40"])
    o_sizes = e._seats("hand_sizes")

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        for t in p.get("trick") or ():
            e._card_texts(o_trick, [t["card"]], buf)
        e._onehot(o_led, _SUIT_INDEX.get(p.get("led") or ""), buf)
        d = p.get("declared")
        if d:
            e._onehot(o_decl, 0 if d == "S" else 1, buf)
        for s, cards in enumerate(p.get("won") or ()):
            e._card_texts(o_won[(s - seat) % 2], cards, buf)
        e._per_seat(o_tricks, p.get("tricks_won"), seat, 26.0, buf)
        e._scalar(o_played, p.get("tricks_played"), 26.0, buf)
        e._scalar(o_stock, p.get("stock"), 40.0, buf)
        e._per_seat(o_sizes, p.get("hand_sizes"), seat, 6.0, buf)

    e._fill = fill


def _maltese_twenty(e: Encoder) -> None:
    e.points_scale = e.scores_scale = 100.0
    o_tally = e._cards("tally")
    o_cleared = e._cards("cleared")
    o_bonus_cards = e._cards("bonus_cards")
    o_total = e._block("tally_total", ["total/20"])
    o_count = e._block("tally_count", ["cards/10"])
    o_bonus = e._block("bonus", ["bonus/10"])
    o_round = e._block("round", ["1", "2"])
    o_starter = e._seats("starter")
    o_stock = e._block("stock", ["cards/40"])
    o_sizes = e._seats("hand_sizes")
    o_lps = e._seats("last_positive_scorer")

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        tally = p.get("tally") or ()
        e._card_texts(o_tally, tally, buf)
        e._card_texts(o_cleared, p.get("cleared"), buf)
        e._card_texts(o_bonus_cards, p.get("bonus_cards"), buf)
        e._scalar(o_total, p.get("tally_total"), 20.0, buf)
        e._scalar(o_count, len(tally), 10.0, buf)
        e._scalar(o_bonus, p.get("bonus"), 10.0, buf)
        r = p.get("round")
        e._onehot(o_round, r - 1 if r in (1, 2) else None, buf)
        if p.get("starter") is not None:
            e._onehot(o_starter, (p["starter"] - seat) % 2, buf)
        e._scalar(o_stock, p.get("stock"), 40.0, buf)
        e._per_seat(o_sizes, p.get("hand_sizes"), seat, 5.0, buf)
        if p.get("last_positive_scorer") is not None:
            e._onehot(o_lps, (p["last_positive_scorer"] - seat) % 2, buf)

    e._fill = fill


def _twenty(e: Encoder) -> None:
    n = e.n
    e.points_scale = e.scores_scale = 100.0
    o_played = [e._cards(f"played_by_seat+{i}") for i in range(n)]
    o_count = e._block("count", ["count/20"])
    o_stock = e._block("stock", ["cards/stock"])
    o_passes = e._block("passes", ["passes/players"])
    o_sizes = e._seats("hand_sizes")
    stock0 = float(52 - 7 * n)

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        for play in p.get("pile") or ():
            e._card_texts(o_played[(play["seat"] - seat) % n], play["cards"], buf)
        e._scalar(o_count, p.get("count"), 20.0, buf)
        e._scalar(o_stock, p.get("stock"), stock0, buf)
        e._scalar(o_passes, p.get("passes"), float(n), buf)
        e._per_seat(o_sizes, p.get("hand_sizes"), seat, 20.0, buf)

    e._fill = fill


_MACAO_STATUS = ("waiting", "staked", "bought", "stood", "busted", "sat_out", "done", "out",
                 "banker")


def _macao(e: Encoder) -> None:
    n = e.n
    o = e.game.options
    total = float(n * o.start_chips)
    e.points_scale = e.scores_scale = float(o.start_chips)
    o_used = e._cards("used")
    o_shown = e._cards("shown")
    o_bank = e._block("bank", ["bank/total_chips"])
    o_chips = e._seats("chips")
    o_start = e._seats("chips_at_start")
    o_phase = e._block("phase", ["stake", "decide", "over"])
    o_shoe = e._block("shoe", ["cards/104"])
    o_round = e._block("round", ["round/52"])
    o_dealt = e._seats("dealt_to")
    o_stakes = e._seats("stakes")
    o_bought = e._seats("bought")
    o_status = [e._block(f"status_seat+{i}", _MACAO_STATUS) for i in range(n)]
    status_index = {s: i for i, s in enumerate(_MACAO_STATUS)}
    phase_index = {"stake": 0, "decide": 1, "over": 2}

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        e._card_texts(o_used, p.get("used"), buf)
        for cards in p.get("shown") or ():
            e._card_texts(o_shown, cards, buf)
        e._scalar(o_bank, p.get("bank"), total, buf)
        e._per_seat(o_chips, p.get("chips"), seat, total, buf)
        e._per_seat(o_start, p.get("chips_at_start"), seat, total, buf)
        e._onehot(o_phase, phase_index.get(p.get("phase") or ""), buf)
        e._scalar(o_shoe, p.get("stock"), 104.0, buf)
        e._scalar(o_round, p.get("round"), 52.0, buf)
        for s in p.get("dealt_to") or ():
            e._onehot(o_dealt, (s - seat) % n, buf)
        e._per_seat(o_stakes, p.get("stakes"), seat, float(o.max_stake), buf)
        e._per_seat(o_bought, p.get("bought"), seat, 4.0, buf)
        for s, st in enumerate(p.get("status") or ()):
            e._onehot(o_status[(s - seat) % n], status_index.get(st), buf)

    e._fill = fill


def _banchok(e: Encoder) -> None:
    n = e.n
    o = e.game.options
    total = float(n * o.start_chips)
    target = float(3 * o.bank_stake)
    e.points_scale = e.scores_scale = float(o.start_chips)
    o_round_cards = e._cards("this_round_cards")
    o_prev_cards = e._cards("previous_round_cards")
    o_under = e._cards("under_deck")
    o_top = e._cards("top_part_known")
    o_bank = e._block("bank", ["bank/target"])
    o_chips = e._seats("chips")
    o_out = e._seats("out")
    o_punters = e._seats("punters")
    o_stake = e._seats("stake")
    o_won = e._seats("won")
    o_lost = e._seats("lost")
    o_deck = e._block("deck", ["size/104", "top_part/104"])
    o_range = e._block("stake_range", ["low/target", "high/target"])

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        for entry in p.get("settled") or ():
            e._card_texts(o_round_cards, entry.get("cards"), buf)
            if entry.get("turned"):
                e._card_texts(o_round_cards, [entry["turned"]], buf)
            r = (entry["seat"] - seat) % n
            e._scalar(o_stake + r, entry.get("stake"), target, buf)
            won = entry.get("won")  # None: the punter threw his cards in (could not stake)
            if won is not None:
                e._onehot(o_won if won else o_lost, r, buf)
        for entry in p.get("previous") or ():
            e._card_texts(o_prev_cards, entry.get("cards"), buf)
            if entry.get("turned"):
                e._card_texts(o_prev_cards, [entry["turned"]], buf)
        parts = p.get("deck_parts") or ()
        for i, part in enumerate(parts):
            if part.get("cards") is not None:
                e._card_texts(o_top if i == 0 else o_under, part["cards"], buf)
        e._scalar(o_bank, p.get("bank"), target, buf)
        e._per_seat(o_chips, p.get("chips"), seat, total, buf)
        for s in p.get("out") or ():
            e._onehot(o_out, (s - seat) % n, buf)
        for s in p.get("punters") or ():
            e._onehot(o_punters, (s - seat) % n, buf)
        e._scalar(o_deck, p.get("stock"), 104.0, buf)
        if parts:
            e._scalar(o_deck + 1, parts[0].get("size"), 104.0, buf)
        rng = p.get("stake_range")
        if rng:
            e._scalar(o_range, rng[0], target, buf)
            e._scalar(o_range + 1, rng[1], target, buf)

    e._fill = fill


def _chukhny(e: Encoder) -> None:
    n = e.n
    o = e.game.options
    deck = float(o.deck_size)
    e.points_scale = 1.0
    e.scores_scale = float(o.games)
    o_pile = e._cards("pile")
    o_out = e._cards("out_of_play")
    o_known = e._cards("known_in_other_hands")
    o_need = e._block("need", list("23456789TJQKA"))
    o_need_suit = e._block("need_suit", list("SHDC"))
    o_leading = e._block("leading", ["leading"])
    o_stock = e._block("stock", ["cards/deck"])
    o_sizes = e._seats("hand_sizes")
    o_drawn = e._seats("drawn")
    o_loser = e._seats("loser")

    def fill(snap: Snapshot, buf: array) -> None:
        p, seat = snap.public, snap.seat
        e._card_texts(o_pile, p.get("pile"), buf)
        e._card_texts(o_out, p.get("out"), buf)
        for s, cards in enumerate(p.get("known") or ()):
            if s != seat:
                e._card_texts(o_known, cards, buf)
        e._onehot(o_need, _RANK_INDEX.get(p.get("need") or ""), buf)
        e._onehot(o_need_suit, _SUIT_INDEX.get(p.get("need_suit") or ""), buf)
        if p.get("leading"):
            e._onehot(o_leading, 0, buf)
        e._scalar(o_stock, p.get("stock"), deck, buf)
        e._per_seat(o_sizes, p.get("hand_sizes"), seat, deck, buf)
        e._per_seat(o_drawn, p.get("drawn"), seat, deck, buf)
        if p.get("loser") is not None:
            e._onehot(o_loser, (p["loser"] - seat) % n, buf)

    e._fill = fill


_GAMES: dict[str, Callable[[Encoder], None]] = {
    "sixty-six": _sixty_six,
    "two-ten-jack": _two_ten_jack,
    "maltese-twenty": _maltese_twenty,
    "twenty": _twenty,
    "macao": _macao,
    "banchok": _banchok,
    "chukhny": _chukhny,
}


def encoder(game: Game) -> Encoder:
    """The observation encoder of a loaded game (shared per game and options)."""
    enc = _CACHE.get(game)
    if enc is None:
        enc = _CACHE[game] = Encoder(game)
    return enc


_CACHE: dict[Game, Encoder] = {}
