"""Fast observation paths: the same vectors as :mod:`cardplay.rl.observations` computes from a
View, read straight from a deal's state (bitmasks and ints, no texts).

Building a View (or just its public dict, with every card written as text) costs several times
a move of the engine; the adapters encode an observation at every step. Each function here reads
exactly the fields the game's ``_public(seat)`` and ``_hand(seat)`` hooks show, and nothing else.
``tests/rl/test_observations.py`` checks, position by position in random deals of every game and
player count, that this path gives the vector of the View path, and that deals differing only
in what the seat cannot see give equal vectors. A game without a function here uses the View
path.

An adapter encodes the same deal at every step, so two things are kept between calls: per seat,
a template holding what never changes during a deal (the dealer, the game's ``CONSTANT``
blocks), for the deal object last seen; and Maltese Twenty's plane of cleared cards, for the
cleared list last seen (a deal only ever extends that list; a copy gets its own). Both are keyed
by the object itself and checked at every call; ``test_interleaved_deals_and_copies_...`` plays
two deals and a copy in turn to check it. Card planes are written whole, 13 cards per table
look-up, adjacent planes in one slice assignment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine import Deal, Match

if TYPE_CHECKING:
    from .observations import Encoder

# A game's fill: (deal, seat, the vector's buffer, the same buffer as bytes); the buffer holds
# the common blocks already and zeros elsewhere.
Floats = Any  # a float32 buffer: an array("f"), or a memoryview of a float32 tensor
Filler = Callable[[Deal, int, Floats, memoryview], None]
DealWriter = Callable[[Deal, int, "Match | None", Floats, memoryview], None]
DealEncoder = Callable[[Deal, int, "Match | None"], np.ndarray]


def _blocks() -> list[bytes]:
    """``_BLOCK_BYTES[b]``: the 13 float32 (0 or 1) of a 13-bit block, one suit of a card mask,
    as bytes."""
    bits = np.unpackbits(np.arange(8192, dtype="<u2").view(np.uint8).reshape(8192, 2), axis=1,
                         bitorder="little")[:, :13].astype(np.float32)
    return [row.tobytes() for row in bits]


_BLOCK_BYTES = _blocks()
_join = b"".join


def _mask(mv: memoryview, off: int, mask: int) -> None:
    """The plane of the cards in a bitmask (card ids below 52), written whole: one slice
    assignment of its four 13-card blocks, through the buffer's bytes (``mv``)."""
    b = _BLOCK_BYTES
    o = off << 2
    mv[o:o + 208] = _join((b[mask & 8191], b[(mask >> 13) & 8191], b[(mask >> 26) & 8191],
                           b[mask >> 39]))


def _masks2(mv: memoryview, off: int, m1: int, m2: int) -> None:
    """Two adjacent planes in one assignment (one call and one copy less than two _mask)."""
    b = _BLOCK_BYTES
    o = off << 2
    mv[o:o + 416] = _join((b[m1 & 8191], b[(m1 >> 13) & 8191], b[(m1 >> 26) & 8191],
                           b[m1 >> 39],
                           b[m2 & 8191], b[(m2 >> 13) & 8191], b[(m2 >> 26) & 8191],
                           b[m2 >> 39]))


def _masks3(mv: memoryview, off: int, m1: int, m2: int, m3: int) -> None:
    """Three adjacent planes in one assignment."""
    b = _BLOCK_BYTES
    o = off << 2
    mv[o:o + 624] = _join((b[m1 & 8191], b[(m1 >> 13) & 8191], b[(m1 >> 26) & 8191],
                           b[m1 >> 39],
                           b[m2 & 8191], b[(m2 >> 13) & 8191], b[(m2 >> 26) & 8191],
                           b[m2 >> 39],
                           b[m3 & 8191], b[(m3 >> 13) & 8191], b[(m3 >> 26) & 8191],
                           b[m3 >> 39]))


def _plane(mask: int) -> bytes:
    """The bytes that :func:`_mask` writes."""
    b = _BLOCK_BYTES
    return _join((b[mask & 8191], b[(mask >> 13) & 8191], b[(mask >> 26) & 8191],
                  b[mask >> 39]))


def _adjacent(enc: Encoder, *names: str) -> int:
    """The offset of card planes that follow each other in the layout (for _masks2/3)."""
    first = enc.blocks[names[0]][0]
    assert all(enc.blocks[x] == (first + 52 * i, 52) for i, x in enumerate(names)), names
    return first


def _ids(buf: Floats, off: int, cards: Sequence[int], w: float) -> None:
    for c in cards:
        buf[off + c] += w


def _clip(x: float) -> float:
    return -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


def _seats(buf: Floats, off: int, values: Sequence[Any], seat: int, n: int, scale: float) -> None:
    for s, v in enumerate(values):
        if v:
            x = v / scale
            buf[off + (s - seat) % n] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


def _sizes(buf: Floats, off: int, masks: Sequence[int], seat: int, n: int, scale: float) -> None:
    """``_seats`` of the number of cards in each seat's card mask."""
    for s, m in enumerate(masks):
        if m:
            x = m.bit_count() / scale
            buf[off + (s - seat) % n] = 1.0 if x > 1.0 else x


def _scalar(buf: Floats, off: int, x: float, scale: float) -> None:
    if x:
        x /= scale
        buf[off] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


def deal_writers(enc: Encoder) -> tuple[DealWriter, DealWriter] | None:
    """The encoder's fast path, or None when its game has none: two functions ``(deal, seat,
    match, buf, mv)`` that write into a zeroed float32 buffer ``buf`` (``mv``: the same
    buffer's bytes), reading the deal's state. The first writes what never changes during a
    deal (the dealer, the game's ``CONSTANT`` blocks), the second everything else."""
    make = FAST.get(enc.game.name)
    if make is None:
        return None
    fill = make(enc)
    make_constant = CONSTANT.get(enc.game.name)
    fill_constant = make_constant(enc) if make_constant is not None else None
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
        turn = deal._turn
        if turn is None:
            buf[o_over] = 1.0
        elif match is None or not match.is_over:
            buf[o_to_move + (turn - seat) % n] = 1.0
        for s, v in enumerate(deal._points()):
            if v:
                x = v / points_scale
                buf[o_points + (s - seat) % n] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x
        if match is not None:
            _seats(buf, o_scores, match.scores, seat, n, scores_scale)
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
    zeros = enc._zeros
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


def _off(enc: Encoder, name: str) -> int:
    return enc.blocks[name][0]


# --------------------------------------------------------------------------------------------


def _sixty_six(enc: Encoder) -> Filler:
    o = {k: _off(enc, k) for k in enc.blocks}
    talon_scale = 10.0 if enc.game.options.preset == "schnapsen" else 12.0
    hand, face, trick, marr = o["hand"], o["trump_card"], o["trick"], o["trick_marriage"]
    won_known = _adjacent(enc, "won_by_seat+0", "won_by_seat+1", "opponent_known")
    mars = (o["marriages_seat+0"], o["marriages_seat+1"])
    talon, closed_by, phase2, tricks_won, pending, sizes, bonus = \
        o["talon"], o["closed_by"], o["phase2"], o["tricks_won"], o["pending"], \
        o["hand_sizes"], o["stand_bonus"]

    def fill(d: Any, seat: int, buf: Floats, mv: memoryview) -> None:
        other = 1 - seat
        if d.hands[seat]:
            _mask(mv, hand, d.hands[seat])
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
            _masks3(mv, won_known, mine, theirs, shown)
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
            _seats(buf, pending, pend, seat, 2, 40.0)
        hands = d.hands
        buf[sizes] = hands[seat].bit_count() / 6.0
        buf[sizes + 1] = hands[other].bit_count() / 6.0
        if d.stand_bonus:
            _scalar(buf, bonus, d.stand_bonus, 3.0)

    return fill


def _sixty_six_constant(enc: Encoder) -> Filler:
    trump = _off(enc, "trump_suit")

    def fill(d: Any, seat: int, buf: Floats, mv: memoryview) -> None:
        buf[trump + d.trump] = 1.0

    return fill


def _two_ten_jack(enc: Encoder) -> Filler:
    o = {k: _off(enc, k) for k in enc.blocks}
    hand, trick, led, decl = o["hand"], o["trick"], o["led"], o["declared"]
    won = _adjacent(enc, "won_by_seat+0", "won_by_seat+1")
    tricks_won, tricks_played, stock, sizes = o["tricks_won"], o["tricks_played"], o["stock"], \
        o["hand_sizes"]

    def fill(d: Any, seat: int, buf: Floats, mv: memoryview) -> None:
        if d._hands[seat]:
            _mask(mv, hand, d._hands[seat])
        if d._lead >= 0:
            buf[trick + d._lead] = 1.0
            buf[led + d._kind] = 1.0
            if d._lead_code >= 52:
                buf[decl + d._lead_code - 52] = 1.0
        mine, theirs = d._won[seat], d._won[1 - seat]
        if mine or theirs:
            _masks2(mv, won, mine, theirs)
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


def _maltese_twenty(enc: Encoder) -> Filler:
    o = {k: _off(enc, k) for k in enc.blocks}
    hand, tally, cleared = o["hand"], o["tally"], o["cleared"]
    total, count, stock, sizes, lps = o["tally_total"], o["tally_count"], o["stock"], \
        o["hand_sizes"], o["last_positive_scorer"]

    # The cleared cards (about 20 on average) as a mask, kept for the deal's list last seen: a
    # deal only ever extends its list (a copy gets a new one), so the mask grows with it.
    seen: list[Any] = [None, 0, 0, b""]  # the list, its length, its mask, its plane's bytes
    cleared_at = 4 * cleared

    def fill(d: Any, seat: int, buf: Floats, mv: memoryview) -> None:
        # The scalars are written without _scalar's clipping where the rules bound them: a
        # visible Tally holds at most 10 cards (values 1..10; an 11th card passes 20) and totals
        # under 20, a hand at most 5 cards, the stock at most 40, the bonus 1..10.
        hands = d._hands
        _mask(mv, hand, hands[seat])
        t = d._tally
        if t:
            for c in t:
                buf[tally + c] = 1.0
            buf[count] = len(t) / 10.0
            buf[total] = d._total / 20.0
        cl = d._cleared
        if cl:
            k = len(cl)
            last, last_k, m, plane = seen
            if cl is not last or k < last_k:
                last_k = m = 0
            if k != last_k:
                for c in cl[last_k:]:
                    m |= 1 << c
                plane = _plane(m)
                seen[:] = cl, k, m, plane
            mv[cleared_at:cleared_at + 208] = plane
        buf[stock] = (52 - d._next) / 40.0
        other = 1 - seat
        buf[sizes] = hands[seat].bit_count() / 5.0
        buf[sizes + 1] = hands[other].bit_count() / 5.0
        if d._lps is not None:
            buf[lps + (d._lps != seat)] = 1.0

    return fill


def _maltese_twenty_constant(enc: Encoder) -> Filler:
    o = {k: _off(enc, k) for k in enc.blocks}
    bonus_cards, bonus, round_, starter = o["bonus_cards"], o["bonus"], o["round"], o["starter"]

    def fill(d: Any, seat: int, buf: Floats, mv: memoryview) -> None:
        b1, b2 = d.bonus_cards
        buf[bonus_cards + b1] = 1.0
        buf[bonus_cards + b2] = 1.0
        buf[bonus] = d.bonus / 10.0  # 1..10
        r = d.round
        if r == 1 or r == 2:
            buf[round_ + r - 1] = 1.0
        buf[starter + (d.starter != seat)] = 1.0

    return fill


def _twenty(enc: Encoder) -> Filler:
    n = enc.n
    o = {k: _off(enc, k) for k in enc.blocks}
    hand = o["hand"]
    played = [o[f"played_by_seat+{i}"] for i in range(n)]
    count, stock, passes, sizes = o["count"], o["stock"], o["passes"], o["hand_sizes"]
    stock0 = float(52 - 7 * n)
    players = float(n)
    full = (1 << 52) - 1

    def fill(d: Any, seat: int, buf: Floats, mv: memoryview) -> None:
        _mask(mv, hand, d.hands[seat])
        plays = d.plays
        if plays:
            put = [0] * n
            for s, code, _ in plays:
                put[(s - seat) % n] |= (code - 64) & full
            for r in range(n):
                if put[r]:
                    _mask(mv, played[r], put[r])
        _scalar(buf, count, d.m, 20.0)
        _scalar(buf, stock, len(d.stock) - d.top, stock0)
        _scalar(buf, passes, d.passes, players)
        _sizes(buf, sizes, d.hands, seat, n, 20.0)

    return fill


def _macao(enc: Encoder) -> Filler:
    from .observations import _MACAO_STATUS

    n = enc.n
    opts = enc.game.options
    total = float(n * opts.start_chips)
    o = {k: _off(enc, k) for k in enc.blocks}
    hand, used, shown = o["hand"], o["used"], o["shown"]
    bank, chips, chips_at_start, phase, shoe, round_, dealt_to, stakes, bought = \
        o["bank"], o["chips"], o["chips_at_start"], o["phase"], o["shoe"], o["round"], \
        o["dealt_to"], o["stakes"], o["bought"]
    status = [o[f"status_seat+{i}"] for i in range(n)]
    status_index = {s: i for i, s in enumerate(_MACAO_STATUS)}
    max_stake = float(opts.max_stake)

    def fill(d: Any, seat: int, buf: Floats, mv: memoryview) -> None:
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
        _scalar(buf, bank, d.bank, total)
        _seats(buf, chips, d.chips, seat, n, total)
        _seats(buf, chips_at_start, d.start, seat, n, total)
        buf[phase + d.phase] = 1.0
        _scalar(buf, shoe, len(order) - d.pos, 104.0)
        _scalar(buf, round_, d.round, 52.0)
        for s in d.dealt:
            buf[dealt_to + (s - seat) % n] = 1.0
        _seats(buf, stakes, d.stakes, seat, n, max_stake)
        _seats(buf, bought, d.bought, seat, n, 4.0)
        for s, st in enumerate(d.status):
            i = status_index.get(st)
            if i is not None:
                buf[status[(s - seat) % n] + i] = 1.0

    return fill


def _banchok(enc: Encoder) -> Filler:
    n = enc.n
    opts = enc.game.options
    total = float(n * opts.start_chips)
    target = float(3 * opts.bank_stake)
    o = {k: _off(enc, k) for k in enc.blocks}
    hand, round_cards, prev_cards = o["hand"], o["this_round_cards"], o["previous_round_cards"]
    under, top, stake, won, lost = o["under_deck"], o["top_part_known"], o["stake"], o["won"], \
        o["lost"]

    def fill(d: Any, seat: int, buf: Floats, mv: memoryview) -> None:
        _ids(buf, hand, d._hands[seat], 0.5)
        for s, st, turned, cards, w in d._settled:
            _ids(buf, round_cards, cards, 0.5)
            if turned >= 0:
                buf[round_cards + turned] += 0.5
            r = (s - seat) % n
            _scalar(buf, stake + r, st, target)
            if w == 1:
                buf[won + r] = 1.0
            elif w == 0:
                buf[lost + r] = 1.0
        for _, _, turned, cards, _ in d._prev:
            _ids(buf, prev_cards, cards, 0.5)
            if turned >= 0:
                buf[prev_cards + turned] += 0.5
        for i, (_, part) in enumerate(d._snap):
            if part is not None:
                _ids(buf, top if i == 0 else under, part, 0.5)
        _scalar(buf, o["bank"], d._bank, target)
        _seats(buf, o["chips"], d._chips, seat, n, total)
        for s in range(n):
            if d._out[s]:
                buf[o["out"] + (s - seat) % n] = 1.0
        for s in d._punters:
            buf[o["punters"] + (s - seat) % n] = 1.0
        _scalar(buf, o["deck"], len(d._deck), 104.0)
        if d._snap:
            _scalar(buf, o["deck"] + 1, d._snap[0][0], 104.0)
        t = d._turn
        if t is not None:
            bank = d._bank
            _scalar(buf, o["stake_range"], min(5, bank), target)
            _scalar(buf, o["stake_range"] + 1, min(bank, d._chips[t]), target)

    return fill


def _chukhny(enc: Encoder) -> Filler:
    n = enc.n
    opts = enc.game.options
    deck = float(opts.deck_size)
    o = {k: _off(enc, k) for k in enc.blocks}
    hand = o["hand"]
    pile_out_known = _adjacent(enc, "pile", "out_of_play", "known_in_other_hands")
    need, need_suit, leading, stock, sizes, drawn, loser = \
        o["need"], o["need_suit"], o["leading"], o["stock"], o["hand_sizes"], o["drawn"], \
        o["loser"]
    game: Any = enc.game
    need_of: Sequence[int] = game.need_of
    same = bool(opts.require_same_suit)
    relative = [[(s - seat) % n for s in range(n)] for seat in range(n)]

    def fill(d: Any, seat: int, buf: Floats, mv: memoryview) -> None:
        hands = d._hands
        _mask(mv, hand, hands[seat])
        p = d._pile
        piled = 0
        for c in p:
            piled |= 1 << c
        m = 0
        for s, k in enumerate(d._known):
            if s != seat:
                m |= k
        if piled or d._out or m:
            _masks3(mv, pile_out_known, piled, d._out, m)
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


FAST: dict[str, Callable[[Encoder], Filler]] = {
    "sixty-six": _sixty_six,
    "two-ten-jack": _two_ten_jack,
    "maltese-twenty": _maltese_twenty,
    "twenty": _twenty,
    "macao": _macao,
    "banchok": _banchok,
    "chukhny": _chukhny,
}

# The blocks that never change during a deal, written once per deal and seat into a template.
CONSTANT: dict[str, Callable[[Encoder], Filler]] = {
    "sixty-six": _sixty_six_constant,
    "maltese-twenty": _maltese_twenty_constant,
}
