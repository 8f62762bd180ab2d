"""Fast observation paths: the same vectors as :mod:`cardplay.rl.observations` computes from a
View, read straight from a deal's state (bitmasks and ints, no texts).

Building a View (or just its public dict, with every card written as text) costs several times
a move of the engine; the adapters encode an observation at every step. Each function here reads
exactly the fields the game's ``_public(seat)`` and ``_hand(seat)`` hooks show, and nothing else.
``tests/rl/test_observations.py`` checks, position by position in random deals of every game and
player count, that this path gives the vector of the View path, and that deals differing only
in what the seat cannot see give equal vectors. A game without a function here uses the View
path.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine import Deal, Match

if TYPE_CHECKING:
    from .observations import Encoder

Filler = Callable[[Deal, int, array], None]


def _blocks() -> list[array]:
    """``_BLOCK[b]``: the 13 floats (0 or 1) of a 13-bit block, one suit of a card mask."""
    bits = np.unpackbits(np.arange(8192, dtype="<u2").view(np.uint8).reshape(8192, 2), axis=1,
                         bitorder="little")[:, :13].astype(np.float32)
    return [array("f", row.tobytes()) for row in bits]


_BLOCK = _blocks()


def _mask(buf: array, off: int, mask: int) -> None:
    """The plane of the cards in a bitmask, one suit at a time (the buffer starts at zero, so a
    suit without cards is left alone)."""
    block = _BLOCK
    while mask:
        b = mask & 8191
        if b:
            buf[off:off + 13] = block[b]
        mask >>= 13
        off += 13


def _ids(buf: array, off: int, cards: Sequence[int], w: float) -> None:
    for c in cards:
        buf[off + c] += w


def _clip(x: float) -> float:
    return -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


def _seats(buf: array, off: int, values: Sequence[Any], seat: int, n: int, scale: float) -> None:
    for s, v in enumerate(values):
        if v:
            x = v / scale
            buf[off + (s - seat) % n] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


def _sizes(buf: array, off: int, masks: Sequence[int], seat: int, n: int, scale: float) -> None:
    """``_seats`` of the number of cards in each seat's card mask."""
    for s, m in enumerate(masks):
        if m:
            x = m.bit_count() / scale
            buf[off + (s - seat) % n] = 1.0 if x > 1.0 else x


def _scalar(buf: array, off: int, x: float, scale: float) -> None:
    if x:
        x /= scale
        buf[off] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


def encode_deal(enc: Encoder, deal: Deal, seat: int, match: Match | None) -> array | None:
    """The vector's buffer for ``seat``, or None when the game has no fast path."""
    fill = enc._fast
    if fill is None:
        return None
    buf = enc._zeros[:]
    n = enc.n
    turn = deal._turn
    if turn is not None and not (match is not None and match.is_over):
        buf[enc.o_to_move + (turn - seat) % n] = 1.0
    buf[enc.o_dealer + (deal.dealer - seat) % n] = 1.0
    if turn is None:
        buf[enc.o_over] = 1.0
    _seats(buf, enc.o_points, deal._points(), seat, n, enc.points_scale)
    if match is not None:
        _seats(buf, enc.o_scores, match.scores, seat, n, enc.scores_scale)
    fill(deal, seat, buf)
    return buf


def _off(enc: Encoder, name: str) -> int:
    return enc.blocks[name][0]


# --------------------------------------------------------------------------------------------


def _sixty_six(enc: Encoder) -> Filler:
    o = {k: _off(enc, k) for k in enc.blocks}
    talon_scale = 10.0 if enc.game.options.preset == "schnapsen" else 12.0
    hand, trump, face, trick, marr = o["hand"], o["trump_suit"], o["trump_card"], o["trick"], \
        o["trick_marriage"]
    won0, won1 = o["won_by_seat+0"], o["won_by_seat+1"]
    known, mars = o["opponent_known"], (o["marriages_seat+0"], o["marriages_seat+1"])
    talon, closed_by, phase2, tricks_won, pending, sizes, bonus = \
        o["talon"], o["closed_by"], o["phase2"], o["tricks_won"], o["pending"], \
        o["hand_sizes"], o["stand_bonus"]

    def fill(d: Any, seat: int, buf: array) -> None:
        other = 1 - seat
        _mask(buf, hand, d.hands[seat])
        buf[trump + d.trump] = 1.0
        left = len(d.talon) - d.tpos
        if left > 0:
            buf[face + d.talon[-1]] = 1.0
            _scalar(buf, talon, left, talon_scale)
        if d.lead >= 0:
            buf[trick + d.lead] = 1.0
            if d.lead_marriage:
                buf[marr] = 1.0
        _mask(buf, won0, d.won[seat])
        _mask(buf, won1, d.won[other])
        _mask(buf, known, d.revealed[other])
        for s, su, _, _ in d.marriages:
            buf[mars[s != seat] + su] = 1.0
        if d.closed_by >= 0:
            buf[closed_by + (d.closed_by != seat)] = 1.0
        if d.phase2:
            buf[phase2] = 1.0
        _seats(buf, tricks_won, d.tricks_won, seat, 2, 12.0)
        _seats(buf, pending, d.pending, seat, 2, 40.0)
        _sizes(buf, sizes, d.hands, seat, 2, 6.0)
        if d.stand_bonus:
            _scalar(buf, bonus, d.stand_bonus, 3.0)

    return fill


def _two_ten_jack(enc: Encoder) -> Filler:
    o = {k: _off(enc, k) for k in enc.blocks}
    hand, trick, led, decl = o["hand"], o["trick"], o["led"], o["declared"]
    won0, won1 = o["won_by_seat+0"], o["won_by_seat+1"]
    tricks_won, tricks_played, stock, sizes = o["tricks_won"], o["tricks_played"], o["stock"], \
        o["hand_sizes"]

    def fill(d: Any, seat: int, buf: array) -> None:
        _mask(buf, hand, d._hands[seat])
        if d._lead >= 0:
            buf[trick + d._lead] = 1.0
            buf[led + d._kind] = 1.0
            if d._lead_code >= 52:
                buf[decl + d._lead_code - 52] = 1.0
        mine, theirs = d._won[seat], d._won[1 - seat]
        if mine:
            _mask(buf, won0, mine)
            buf[tricks_won] = (mine.bit_count() // 2) / 26.0  # two cards a trick, 26 at most
        if theirs:
            _mask(buf, won1, theirs)
            buf[tricks_won + 1] = (theirs.bit_count() // 2) / 26.0
        _scalar(buf, tricks_played, d._tricks, 26.0)
        _scalar(buf, stock, 40 - d._pos, 40.0)
        _sizes(buf, sizes, d._hands, seat, 2, 6.0)

    return fill


def _maltese_twenty(enc: Encoder) -> Filler:
    o = {k: _off(enc, k) for k in enc.blocks}
    hand, tally, cleared, bonus_cards = o["hand"], o["tally"], o["cleared"], o["bonus_cards"]
    total, count, bonus, round_, starter, stock, sizes, lps = \
        o["tally_total"], o["tally_count"], o["bonus"], o["round"], o["starter"], o["stock"], \
        o["hand_sizes"], o["last_positive_scorer"]

    def fill(d: Any, seat: int, buf: array) -> None:
        _mask(buf, hand, d._hands[seat])
        t = d._tally
        if t:
            for c in t:
                buf[tally + c] = 1.0
            _scalar(buf, count, len(t), 10.0)
        _scalar(buf, total, d._total, 20.0)
        for c in d._cleared:
            buf[cleared + c] = 1.0
        for c in d.bonus_cards:
            buf[bonus_cards + c] = 1.0
        _scalar(buf, bonus, d.bonus, 10.0)
        r = d.round
        if r == 1 or r == 2:
            buf[round_ + r - 1] = 1.0
        buf[starter + (d.starter != seat)] = 1.0
        _scalar(buf, stock, 52 - d._next, 40.0)
        _sizes(buf, sizes, d._hands, seat, 2, 5.0)
        if d._lps is not None:
            buf[lps + (d._lps != seat)] = 1.0

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

    def fill(d: Any, seat: int, buf: array) -> None:
        _mask(buf, hand, d.hands[seat])
        plays = d.plays
        if plays:
            put = [0] * n
            for s, code, _ in plays:
                put[(s - seat) % n] |= (code - 64) & full
            for r in range(n):
                if put[r]:
                    _mask(buf, played[r], put[r])
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

    def fill(d: Any, seat: int, buf: array) -> None:
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

    def fill(d: Any, seat: int, buf: array) -> None:
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
    hand, pile, out, known = o["hand"], o["pile"], o["out_of_play"], o["known_in_other_hands"]
    need, need_suit, leading, stock, sizes, drawn, loser = \
        o["need"], o["need_suit"], o["leading"], o["stock"], o["hand_sizes"], o["drawn"], \
        o["loser"]
    game: Any = enc.game
    need_of: Sequence[int] = game.need_of
    same = bool(opts.require_same_suit)

    def fill(d: Any, seat: int, buf: array) -> None:
        hands = d._hands
        _mask(buf, hand, hands[seat])
        p = d._pile
        for c in p:
            buf[pile + c] = 1.0
        if d._out:
            _mask(buf, out, d._out)
        m = 0
        for s, k in enumerate(d._known):
            if s != seat:
                m |= k
        if m:
            _mask(buf, known, m)
        if d._turn is not None:
            if p:
                nd = need_of[p[-1]]
                buf[need + nd % 13] = 1.0
                if same:
                    buf[need_suit + nd // 13] = 1.0
            else:
                buf[leading] = 1.0
        _scalar(buf, stock, d._end - d._pos, deck)
        _sizes(buf, sizes, hands, seat, n, deck)
        _seats(buf, drawn, d._drawn, seat, n, deck)
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
