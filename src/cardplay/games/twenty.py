"""Twenty («Двадцать (20)»): an adding and shedding game for 2-4 players, first to 100.

Rules (RULES.md section 2). One 52-card deck; each player gets 7 cards, one at a time clockwise
from the dealer's left; the rest is the face-down stock. The dealer's left acts first and turns go
clockwise. On each turn a player lays a set of cards whose count fits the current number ``m``
(starting at 1) or draws the top stock card. Count values: A = 1, 2-9 = pips, 10/J/Q = 10, and a
King is wild (any whole number 1-20, each King on its own). When no play fits, the player must
draw; when the stock is empty too, he passes. A player who empties his hand wins the hand at once;
otherwise the hand ends after move 20 (count 20) and the player with the fewest cards wins (ties:
the lower penalty; still tied: all share the win, or nobody wins with ``tie_policy="nobody"``).
The winner scores +20; every other player scores minus the penalties of the cards he holds
(A 5, 2-9 ``penalty_2_to_9`` = 5, 10/J/Q 10, K 20). The deal passes left (the first dealer is
drawn at random) and the first player at 100 or more after a hand wins the match (co-winners
crossing together: the higher total; equal: another hand).

Two presets (RULES.md 2.6, register T20-1..T20-10):

* ``seed`` (default, the seed page): ``count_rule="at_most"`` (the cards' sum must be at most
  ``m``; a King counts 1, the cheapest choice), ``count_advances_on_draw=True`` (every turn, play,
  draw or pass, is one move: the hand lasts at most 20 turns), ``may_draw_voluntarily=False``
  (a player who can play must play), ``pair_counts_ten=False``.
* ``canonical`` (pagat's "20"): ``count_rule="exact"`` (the count must be made exactly, Kings
  valued 1-20), ``count_advances_on_draw=False`` (the count advances only when it is made; a play
  that makes 20 ends the hand; if the stock is empty and every player passes in succession, the
  hand ends as though 20 had been made), ``may_draw_voluntarily=True`` (drawing is always allowed
  while the stock lasts), ``pair_counts_ten=True`` (a same-rank pair of 10s, Js or Qs played
  together may count 10 instead of 20).

Options: preset (seed | canonical), players (2-4, default 2), count_rule (at_most | exact),
count_advances_on_draw, may_draw_voluntarily, pair_counts_ten (True | False; defaults from the
preset, explicit options override), penalty_2_to_9 (5 | 0), tie_policy (share | nobody),
target (100, a positive whole number), max_hands (200, a positive whole number).

``max_hands`` is not in RULES.md: it is a safety limit. Losers' penalties make totals drift down
(with random play most 3- and 4-player matches never reach 100), so after ``max_hands`` hands
without a match winner the highest total wins (all tied seats win a tie). Human matches do not
come near the default of 200 hands.

Notation: a play is its cards joined by ``+``, printed by count value (A, 2 ... 9, 10, J, Q, K)
and then by suit C D H S (``AC+AD``, ``2S``, ``TC+QD``) and parsed in any order and in any card
spelling of RULES.md 0.1. Under ``count_rule="exact"`` each King carries its value after ``=``:
there is one move per set of cards, printed with the first King as high as possible (at most 20)
leaving at least 1 for each later King (``AC+KH=1``, ``KC=4+KH=1``); the deal accepts the set with
any King values that make the count, or with none. Under ``at_most`` Kings carry no value and
``=`` is invalid. Other moves: ``draw`` (take the top stock card) and ``pass`` (only when no play
is legal and the stock is empty).

Move codes (the fixed action space): every play is a *set* of cards, a single card included:
``64 + (mask | T << 52)`` where ``mask`` has bit ``c`` set for each card id ``c`` in the set
(card id = suit*13 + rank, suits S H D C = 0..3, ranks 2..A = 0..12) and ``T`` is the total
declared for the set's Kings (``exact`` mode only, 0 otherwise; 0 also stands for "values not
given" when parsing); ``52`` is ``draw`` and ``53`` is ``pass``. So "cards first" becomes "sets of
cards", and all codes are below 2**59. ``T`` is part of the code because the engine gives each code
one text, and under ``exact`` the printed King values depend on the count (``KH=5`` at count 5,
``KH=7`` at count 7).

Under the seed preset the stock (24 cards or more) outlasts the 20 turns, so ``pass`` is never
legal there; it occurs with ``count_advances_on_draw=False``.
"""

from __future__ import annotations

import itertools
import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import CardParseError, format_card, parse_card
from ..engine import (
    Deal,
    Game,
    InvalidMoveError,
    Match,
    Move,
    View,
    option,
    register,
)
from ._sampling import (
    JointCounts,
    LastPrepared,
    SlotMove,
    SlotStep,
    TooMuch,
    choose_step,
    draw_disjoint,
    falling,
    known_card_moves,
    open_slot,
    pop_random,
)

__all__ = [
    "DRAW",
    "PASS",
    "PLAY_BASE",
    "RULES_RU",
    "Twenty",
    "TwentyDeal",
    "TwentyOptions",
    "play_code",
    "rank_counts",
]

RULES_RU = """«Двадцать (20)»: от 2 до 4 игроков, колода 52 карты, игра до 100 очков.
Каждому сдаётся по 7 карт по одной, начиная с игрока слева от сдатчика; остаток — закрытый
резерв. Первым ходит игрок слева от сдатчика, дальше по часовой стрелке. Ход — выложить карты,
сумма которых подходит к номеру хода m (от 1 до 20), или взять верхнюю карту резерва. Стоимость:
Туз 1, 2–9 по значению, 10/В/Д по 10, Король — любое число от 1 до 20. Нет хода — берёт карту;
резерв пуст — пас. Кто первым избавился от карт, выигрывает сдачу сразу; иначе после 20-го хода
выигрывает тот, у кого меньше карт (при равенстве — меньше штрафа). Победитель получает +20,
остальные — минус штраф за карты на руке (Туз 5, 2–9 по 5, 10/В/Д 10, Король 20). Сдача переходит
налево; побеждает первый, у кого после сдачи 100 очков или больше.
Пресет seed (по умолчанию, по тексту-источнику): сумма не больше номера хода (Король
считается за 1), каждый ход (и взятие, и пас) увеличивает номер, кто может сыграть — обязан.
Пресет canonical (pagat, «20»): счёт нужно набрать точно (у Короля называется значение),
счёт растёт только после удачного хода, брать карту можно всегда, пара 10/В/Д может считаться
за 10.
Ходы: карты через «+» (AC+AD, 2S; в точном режиме с значениями Королей: AC+KH=1), draw, pass."""

DRAW = 52
PASS = 53
PLAY_BASE = 64

_FULL = (1 << 52) - 1
_KING_RANK = 11
_KINGS = sum(1 << (s * 13 + _KING_RANK) for s in range(4))
_TARGET_COUNT = 20  # the last move number / count

# ---- "print-major" layout: a hand mask re-laid out as 13 nibbles in printing order.
# Nibble p holds print rank p (A = 0, 2..9 = 1..8, T J Q = 9 10 11, K = 12) and bit j of a
# nibble is suit C D H S for j = 0..3 (suit id 3 - j). Iterating its bits lowest first gives the
# canonical printing order; the per-nibble popcounts are the rank multiset of the hand.
_P_OF_RANK = [r + 1 if r < 12 else 0 for r in range(13)]  # card rank id -> print rank
_RANK_OF_P = [12, *range(12)]  # print rank -> card rank id
_PM_BIT = [4 * _P_OF_RANK[c % 13] + 3 - c // 13 for c in range(52)]  # card id -> pm bit
_CARD_OF_PM = [0] * 52
for _c in range(52):
    _CARD_OF_PM[_PM_BIT[_c]] = _c
_TEXT_PM = [format_card(_CARD_OF_PM[i]) for i in range(52)]


def _block_table(suit: int) -> list[int]:
    table = [0] * 8192
    for b in range(1, 8192):
        low = b & -b
        table[b] = table[b ^ low] | (1 << _PM_BIT[suit * 13 + low.bit_length() - 1])
    return table


_PM0, _PM1, _PM2, _PM3 = (_block_table(s) for s in range(4))
_M1 = int("5" * 13, 16)
_M2 = int("3" * 13, 16)

# Count values by print rank (the King's entry is unused: Kings are handled apart).
_VAL_P = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0]
_POP4 = [i.bit_count() for i in range(16)]
_LOW_HALF = (1 << 24) - 1  # print ranks A..6
_HIGH_HALF = ((1 << 52) - 1) ^ _LOW_HALF  # print ranks 7..K
_HIGH_HALF_EXACT = _HIGH_HALF ^ (15 << 48)  # 7..Q (exact mode adds Kings apart)
_PAIRABLE_P = (9, 10, 11)  # T J Q
_K_P = 12
# The least a card can count in a play (a King 1), by card id: under at_most, a player who could
# not play at move m held only cards that count more than m.
_LEAST_COUNT = [(_VAL_P[_P_OF_RANK[c % 13]] or 1) for c in range(52)]


def _pm(mask: int) -> int:
    """A card mask in the print-major layout."""
    return (_PM0[mask & 0x1FFF] | _PM1[(mask >> 13) & 0x1FFF] | _PM2[(mask >> 26) & 0x1FFF]
            | _PM3[mask >> 39])


def _rank_counts(pm: int) -> int:
    """Per-nibble popcounts of a print-major mask (the hand's rank multiset, 4 bits a rank)."""
    x = pm - ((pm >> 1) & _M1)
    return (x & _M2) + ((x >> 2) & _M2)


# _EXP[p][nibble][c]: the card masks choosing c of the suits in nibble for print rank p.
def _build_exp() -> list[list[list[tuple[int, ...]]]]:
    exp: list[list[list[tuple[int, ...]]]] = []
    for p in range(13):
        r = _RANK_OF_P[p]
        per_nib: list[list[tuple[int, ...]]] = []
        for nib in range(16):
            by_count: list[list[int]] = [[] for _ in range(5)]
            for sub in range(16):
                if sub & ~nib:
                    continue
                mask = 0
                for j in range(4):
                    if sub >> j & 1:
                        mask |= 1 << ((3 - j) * 13 + r)
                by_count[sub.bit_count()].append(mask)
            per_nib.append([tuple(sorted(x)) for x in by_count])
        exp.append(per_nib)
    return exp


_EXP = _build_exp()


def _block_sums(values: list[int]) -> list[int]:
    table = [0] * 8192
    for b in range(1, 8192):
        low = b & -b
        table[b] = table[b ^ low] + values[low.bit_length() - 1]
    return table


def rank_counts(mask: int) -> int:
    """The rank multiset of a card mask: 4 bits of count per print rank (A = 0, 2..9 = 1..8,
    T J Q = 9 10 11, K = 12), the same for every choice of suits."""
    return _rank_counts(_pm(mask))


def play_code(mask: int, kings_total: int = 0) -> int:
    """The move code of a play: a card mask plus, in ``exact`` mode, its Kings' total."""
    return PLAY_BASE + (mask | kings_total << 52)


def king_values(n_kings: int, total: int) -> list[int]:
    """The canonical split of a Kings' total: the first King as high as possible (at most 20),
    leaving at least 1 for each later King."""
    out = []
    left = total
    for i in range(n_kings):
        v = min(20, left - (n_kings - 1 - i))
        out.append(v)
        left -= v
    return out


@dataclass(frozen=True)
class TwentyOptions:
    """Twenty's options (RULES.md 2.6); the preset sets the defaults of the next four."""

    preset: str = option("seed", ("seed", "canonical"),
                         doc="seed (the seed page) or canonical (pagat's 20)")
    players: int = option(2, int_range=(2, 4), doc="number of players")
    count_rule: str = option("at_most", ("at_most", "exact"),
                             doc="the play's count must be at most / exactly the number")
    count_advances_on_draw: bool = option(True, (True, False),
                                          doc="every turn advances the move number")
    may_draw_voluntarily: bool = option(False, (False, True),
                                        doc="drawing is allowed even when a play fits")
    pair_counts_ten: bool = option(False, (False, True),
                                   doc="a pair of 10s/Js/Qs may count 10")
    penalty_2_to_9: int = option(5, (5, 0), doc="penalty of each 2-9 left in hand")
    tie_policy: str = option("share", ("share", "nobody"),
                             doc="who wins a tie on cards and penalties")
    target: int = option(100, int_range=(1, 10_000), doc="match target")
    max_hands: int = option(200, int_range=(1, 1000),
                            doc="safety limit: after this many hands the highest total wins")


_PRESETS: dict[str, dict[str, Any]] = {
    "seed": {"count_rule": "at_most", "count_advances_on_draw": True,
             "may_draw_voluntarily": False, "pair_counts_ten": False},
    "canonical": {"count_rule": "exact", "count_advances_on_draw": False,
                  "may_draw_voluntarily": True, "pair_counts_ten": True},
}


@register
class Twenty(Game):
    """Twenty (20) with its seed and canonical presets."""

    name = "twenty"
    title = {"en": "Twenty (20)", "ru": "Двадцать (20)"}
    Options = TwentyOptions
    min_players = 2
    max_players = 4
    options: TwentyOptions

    # cache sizes (entries; a cache is emptied when full): (hand, count) -> codes,
    # (half of a hand, count) -> its sub-multisets, code -> Move
    _PLAYS_CACHE_MAX = 8_192
    _HALF_CACHE_MAX = 32_768
    _MOVE_CACHE_MAX = 200_000

    def _setup(self) -> None:
        o = self.options
        pen_by_rank = [o.penalty_2_to_9] * 8 + [10, 10, 10, 20, 5]
        object.__setattr__(self, "exact", o.count_rule == "exact")
        object.__setattr__(self, "pairs", bool(o.pair_counts_ten))
        object.__setattr__(self, "_pen13", _block_sums(pen_by_rank))
        object.__setattr__(self, "_plays_cache", {})
        object.__setattr__(self, "_half_cache", {})
        # _rank_sets[p][nibble]: every non-empty choice of cards of print rank p among the suits
        # in nibble, as (least count added, 10/J/Q pairs added, card mask); a King counts 1
        pairs = bool(o.pair_counts_ten)
        rank_sets = []
        for p in range(13):
            v = _VAL_P[p] or 1
            pairable = pairs and p in _PAIRABLE_P
            per_nib = []
            for nib in range(16):
                per_nib.append(tuple(
                    (c * v - (10 * (c // 2) if pairable else 0), c // 2 if pairable else 0, cm)
                    for c in range(1, 5) for cm in _EXP[p][nib][c]))
            rank_sets.append(tuple(per_nib))
        object.__setattr__(self, "_rank_sets", tuple(rank_sets))

    exact: bool
    pairs: bool
    _pen13: list[int]
    _plays_cache: dict[tuple[int, int], list[int]]
    _half_cache: dict[tuple[int, int], tuple[list[int], list[int], list[int]]]
    _rank_sets: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]

    @classmethod
    def _presets(cls) -> Mapping[str, Mapping[str, Any]]:
        return _PRESETS

    # ---- notation

    def _example_move(self) -> str:
        return "AC+2D"

    def _parse(self, text: str) -> int:
        """Any accepted spelling to a code. In ``exact`` mode a set given without King values
        gets Kings' total 0 ("not given"); :meth:`TwentyDeal._resolve` fills it in."""
        if not isinstance(text, str):
            raise InvalidMoveError("twenty: a move is text")
        raw = text.strip()
        low = raw.lower()
        if low == "draw":
            return DRAW
        if low == "pass":
            return PASS
        forms = ("cards joined by '+' with a value after each King (AC+KH=1) or without values, "
                 "'draw' or 'pass'" if self.exact else
                 "cards joined by '+' (AC+AD, 2S; Kings carry no value), 'draw' or 'pass'")
        if not raw:
            raise InvalidMoveError(f"twenty: an empty move; expected {forms}")
        mask = 0
        total = 0
        valued = 0
        kings = 0
        for part in raw.split("+"):
            part = part.strip()
            card_text, eq, value = part.partition("=")
            try:
                card = parse_card(card_text.strip()) if card_text.strip() else -1
            except CardParseError:
                card = -1
            if card < 0:
                raise InvalidMoveError(f"twenty: {text!r} is not a move: {part!r} is not a card; "
                                       f"expected {forms}")
            if mask >> card & 1:
                raise InvalidMoveError(f"twenty: {text!r} names {format_card(card)} twice")
            mask |= 1 << card
            is_king = card % 13 == _KING_RANK
            kings += is_king
            if eq:
                if not self.exact:
                    raise InvalidMoveError(
                        f"twenty: {text!r}: under count_rule=at_most Kings carry no value "
                        f"(a King counts 1); write the cards only, e.g. AC+KH")
                if not is_king:
                    raise InvalidMoveError(f"twenty: {text!r}: only a King carries a value "
                                           f"(KH=5); {format_card(card)} is not a King")
                v = value.strip()
                if not (v.isdigit() and v.isascii() and not v.startswith("0")
                        and 1 <= int(v) <= 20):
                    raise InvalidMoveError(f"twenty: {text!r}: a King's value is a whole "
                                           f"number from 1 to 20 (KH=5)")
                total += int(v)
                valued += 1
        if valued and valued != kings:
            raise InvalidMoveError(f"twenty: {text!r}: give a value to every King or to none")
        return play_code(mask, total)

    def _format(self, code: int) -> str:
        if code == DRAW:
            return "draw"
        if code == PASS:
            return "pass"
        x = code - PLAY_BASE
        mask = x & _FULL
        total = x >> 52
        pm = _pm(mask)
        parts = []
        while pm:
            low = pm & -pm
            parts.append(_TEXT_PM[low.bit_length() - 1])
            pm ^= low
        if total and mask & _KINGS:
            nk = (mask & _KINGS).bit_count()
            vals = king_values(nk, total)
            k0 = len(parts) - nk  # Kings print last
            for i, v in enumerate(vals):
                parts[k0 + i] = f"{parts[k0 + i]}={v}"
        return "+".join(parts)

    def move(self, code: int) -> Move:
        """The shared Move of a code (a bounded cache: Twenty has millions of possible sets)."""
        cache = self._move_cache
        m = cache.get(code)
        if m is None:
            if len(cache) >= self._MOVE_CACHE_MAX:
                cache.clear()
            m = cache[code] = Move(self._format(code))
        return m

    # ---- the move generator (rank multisets, then suits)

    def plays(self, hand: int, count: int) -> list[int]:
        """The legal play codes for a hand mask at move number / count ``count`` (1..20).

        Legality depends only on ranks (RULES.md 2.4), so the generator works on the hand's rank
        multiset (at most 13 counts), choosing "c cards of this rank" and expanding the choice to
        suits from a table. Every card counts at least 1 and a set's least count (10/J/Q pairs
        at 10, Kings at 1) adds up over ranks, so the ranks are split into a low half (A-6) and
        a high half (7-K); each half's sub-multisets of least count <= ``count`` are enumerated
        once per (half, count) and cached, and the halves are joined by bisection on the least
        count (meet in the middle). Under ``exact`` (``count`` <= 20), a set with Kings fits
        when its least count plus one per King is at most ``count`` (the Kings make up the
        rest, ``count - least``), and a set without Kings when ``count`` is its least count
        plus 10 for some of its pairs.
        """
        key = (hand, count)
        cache = self._plays_cache
        hit = cache.get(key)
        if hit is not None:
            return list(hit)
        m = count
        pm = _pm(hand)
        exact = self.exact
        low = self._half(pm & _LOW_HALF, m)
        high = self._half(pm & (_HIGH_HALF_EXACT if exact else _HIGH_HALF), m)
        # loop over the side with fewer sets, bisect into the other
        a_side, b_side = (low, high) if len(low[0]) <= len(high[0]) else (high, low)
        b_least = b_side[0]
        out: list[int] = []
        if not exact:
            b_codes = [PLAY_BASE + mb for mb in b_side[2]]
            for la, ma in zip(a_side[0], a_side[2]):
                idx = bisect_right(b_least, m - la)
                if ma:
                    out.extend([ma + b for b in b_codes[:idx]])
                else:  # skip the empty set (the only set of least count 0, first in b)
                    out.extend(b_codes[1:idx])
        else:
            nib_k = pm >> (4 * _K_P)
            nk = _POP4[nib_k]
            if nk:
                # code = 64 + mask + (m - least) << 52, split between the two halves
                b_part = [mb - (lb << 52) for lb, mb in zip(b_least, b_side[2])]
                kings = _EXP[_K_P][nib_k]
                for kc in range(1, nk + 1):
                    for la, ma in zip(a_side[0], a_side[2]):
                        idx = bisect_right(b_least, m - kc - la)
                        if not idx:
                            continue
                        head = PLAY_BASE + ((m - la) << 52) + ma
                        for ko in kings[kc]:
                            c0 = head + ko
                            out.extend([c0 + b for b in b_part[:idx]])
            b_np = b_side[1]
            b_masks = b_side[2]
            max_np = max(b_np)
            for la, npa, ma in zip(*a_side):
                for j in range(npa + max_np + 1):
                    target = m - la - 10 * j
                    if target < 0:
                        break
                    i = bisect_left(b_least, target)
                    n_b = len(b_least)
                    while i < n_b and b_least[i] == target:
                        if npa + b_np[i] >= j and (ma or b_masks[i]):
                            out.append(PLAY_BASE + ma + b_masks[i])
                        i += 1
        if len(cache) >= self._PLAYS_CACHE_MAX:
            cache.clear()
        cache[key] = out
        return list(out)

    def _half(self, pm: int, m: int) -> tuple[list[int], list[int], list[int]]:
        """The sub-multisets of the ranks in ``pm`` (print-major) whose least count is at most
        ``m``, sorted by least count: (least counts, numbers of 10/J/Q pairs, card masks)."""
        key = (pm, m)
        hit = self._half_cache.get(key)
        if hit is not None:
            return hit
        ents = [(0, 0, 0)]
        table = self._rank_sets
        x = pm
        while x:
            low = x & -x
            p = (low.bit_length() - 1) >> 2
            nib = (pm >> (4 * p)) & 15
            x &= ~(15 << (4 * p))
            ents += [(lv + inc, n + dnp, mk | o) for inc, dnp, o in table[p][nib]
                     for lv, n, mk in ents if lv + inc <= m]
        ents.sort()
        res = ([e[0] for e in ents], [e[1] for e in ents], [e[2] for e in ents])
        if len(self._half_cache) >= self._HALF_CACHE_MAX:
            self._half_cache.clear()
        self._half_cache[key] = res
        return res

    def kings_total(self, mask: int, count: int) -> int | None:
        """In ``exact`` mode, the Kings' total with which the set ``mask`` makes ``count``
        (None when it cannot); the same choice as :meth:`plays`."""
        nk = (mask & _KINGS).bit_count()
        if not nk:
            return None
        counts = _rank_counts(_pm(mask))
        f = 0
        np = 0
        for p in range(12):
            c = (counts >> (4 * p)) & 15
            f += c * _VAL_P[p]
            if self.pairs and p in _PAIRABLE_P:
                np += c // 2
        for k in range(np, -1, -1):
            rest = count - (f - 10 * k)
            if nk <= rest <= 20 * nk:
                return rest
        return None

    def penalty(self, mask: int) -> int:
        """The penalty of the cards in a mask (RULES.md 2.2)."""
        t = self._pen13
        return t[mask & 0x1FFF] + t[(mask >> 13) & 0x1FFF] + t[(mask >> 26) & 0x1FFF] + \
            t[mask >> 39]

    # ---- match rules

    def _match_over(self, match: Match) -> bool:
        scores = match.scores
        best = max(scores)
        if best >= self.options.target and scores.count(best) == 1:
            return True
        # Not in RULES.md: penalties make every total drift down, so weak play may never reach
        # the target; the match then ends after max_hands hands (see the module docstring).
        return len(match.deals) >= self.options.max_hands

    def _match_winners(self, match: Match) -> list[int]:
        scores = match.scores
        best = max(scores)
        return [i for i, s in enumerate(scores) if s == best]

    # ---- sampling

    def sample_deal(self, view: View, rng: random.Random) -> TwentyDeal:
        """A deal consistent with ``view``: a deck order that replays the history to this very
        view, every such order with the same probability.

        A turn without a play (a pass, or a draw when drawing is only allowed then) shows that
        the seat held no card that alone fitted the count, and under ``exact`` no set of cards
        that made it: this limits which of its dealt and drawn positions each of its cards can
        have come from, and which unseen cards it can hold. Such a seat's hand is therefore not
        uniform among the hands it may hold: a hand that fits more deck orders is more likely.
        With options outside the presets (exact counts and compulsory draws) the sampler may
        raise ValueError on the most constrained views. What a view costs to prepare is kept
        for the next call with the same view (searching bots sample one view many times)."""
        return _sample(self, view, rng)


class TwentyDeal(Deal):
    """One hand of Twenty."""

    game: Twenty

    def _start(self, order: list[int], **context: Any) -> None:
        if context:
            raise ValueError(f"twenty: unknown deal context {sorted(context)}; it takes none")
        n = self.players
        first = (self.dealer + 1) % n
        hands = [0] * n
        for i in range(7 * n):
            hands[(first + i) % n] |= 1 << order[i]
        self.hands = hands
        self.stock = order[7 * n:]
        self.top = 0
        self.m = 1
        self.passes = 0
        self.turns = 0
        self.plays: list[tuple[int, int, int]] = []  # (seat, code, number it was made at)
        self.winners: list[int] = []
        self.ended_by = ""
        self._res: list[int] | None = None
        self._turn = first

    def _copy(self) -> TwentyDeal:
        d = TwentyDeal.__new__(TwentyDeal)
        d.hands = list(self.hands)
        d.stock = self.stock
        d.top = self.top
        d.m = self.m
        d.passes = self.passes
        d.turns = self.turns
        d.plays = list(self.plays)
        d.winners = list(self.winners)
        d.ended_by = self.ended_by
        d._res = list(self._res) if self._res is not None else None
        return d

    @property
    def stock_size(self) -> int:
        return len(self.stock) - self.top

    def _legal(self) -> list[int]:
        t = self._turn
        if t is None:
            return []
        g = self.game
        codes = g.plays(self.hands[t], self.m)
        if self.top < len(self.stock):
            if not codes or g.options.may_draw_voluntarily:
                codes.insert(0, DRAW)
        elif not codes:
            codes.append(PASS)
        return codes

    def _apply(self, code: int) -> None:
        t = self._turn
        assert t is not None
        g = self.game
        n = self.players
        self.turns += 1
        if code >= PLAY_BASE:
            mask = (code - PLAY_BASE) & _FULL
            self.hands[t] &= ~mask
            self.plays.append((t, code, self.m))
            self.passes = 0
            if not self.hands[t]:
                self._finish([t], "out")
                return
            if self.m >= _TARGET_COUNT:
                self._finish(None, "twenty")
                return
            self.m += 1
        else:
            if code == DRAW:
                self.hands[t] |= 1 << self.stock[self.top]
                self.top += 1
                self.passes = 0
            else:
                self.passes += 1
            if g.options.count_advances_on_draw:
                if self.m >= _TARGET_COUNT:
                    self._finish(None, "twenty")
                    return
                self.m += 1
            elif self.passes >= n:
                # deadlock guard (RULES.md 2.4, T20-7): a full cycle of passes
                self._finish(None, "passes")
                return
        self._turn = (t + 1) % n

    def _finish(self, out: list[int] | None, how: str) -> None:
        g = self.game
        pens = [g.penalty(h) for h in self.hands]
        if out is not None:
            winners = out
        else:
            sizes = [h.bit_count() for h in self.hands]
            fewest = min(sizes)
            cand = [i for i, s in enumerate(sizes) if s == fewest]
            if len(cand) > 1:
                low = min(pens[i] for i in cand)
                cand = [i for i in cand if pens[i] == low]
            winners = [] if len(cand) > 1 and g.options.tie_policy == "nobody" else cand
        self.winners = winners
        self.ended_by = how
        self._res = [20 if i in winners else -pens[i] for i in range(self.players)]
        self._turn = None

    def _points(self) -> list[int]:
        return list(self._res) if self._res is not None else [0] * self.players

    def _result(self) -> list[int] | None:
        return list(self._res) if self._res is not None else None

    def _hand(self, seat: int) -> list[int]:
        h = self.hands[seat]
        out = []
        while h:
            low = h & -h
            out.append(low.bit_length() - 1)
            h ^= low
        return out

    def _public(self, seat: int) -> dict[str, Any]:
        g = self.game
        pile = []
        for s, code, at in self.plays:
            text = g.move(code).text
            parts = text.split("+")
            pile.append({"seat": s, "at": at, "move": text,
                         "cards": [p.partition("=")[0] for p in parts],
                         "kings": [int(p.partition("=")[2]) for p in parts if "=" in p]})
        pub: dict[str, Any] = {
            "count": self.m,
            "turns": self.turns,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "stock": self.stock_size,
            "passes": self.passes,
            "pile": pile,
        }
        if self._turn is None:
            pub["hands"] = [[format_card(c) for c in self._hand(s)] for s in range(self.players)]
            pub["penalties"] = [g.penalty(h) for h in self.hands]
            pub["winners"] = list(self.winners)
            pub["ended_by"] = self.ended_by
        return pub

    def _resolve(self, move: Move | str) -> int:
        """Text to code; in ``exact`` mode a set named without King values gets the values that
        make the current count (when the set can make it at all)."""
        code = self.game.code_of(move)
        g = self.game
        if g.exact and code >= PLAY_BASE and self._turn is not None:
            x = code - PLAY_BASE
            mask = x & _FULL
            if mask & _KINGS and not x >> 52:
                total = g.kings_total(mask, self.m)
                if total is not None:
                    code = play_code(mask, total)
        return code


# --------------------------------------------------------------------------------------------
# sample_deal: every consistent world equally likely
#
# A world is a deck order. Each seat's cards sit in its *slots*: its seven dealt positions and
# then the stock positions it drew, in time order. A card known to be a seat's (one it played,
# the viewer's own, any hand shown at the end) sat in one of its slots acquired before the card
# left the hand, and not before a turn at which the seat could not play (a pass, or a draw when
# drawing is only allowed then) if the card alone would have been a play there: so it has an
# interval of slots. The other slots of the other seats hold unseen cards. The count only grows,
# so an unseen card acquired before a seat's last such turn is held through it: the seat's
# slots before that turn are *restricted* (under ``at_most`` to cards counting more than that
# turn's number, under ``exact`` to non-Kings), the later ones take any unseen card. These sets
# are nested across the seats, so the unseen cards are dealt exactly: the most restricted slots
# first, each uniformly among the cards left that it allows. Under ``exact`` a turn without a
# play also rules out every subset that makes the count. When a seat drew all its cards before
# its first such turn (always in the canonical preset, where only a pass is such a turn and
# passes come once the stock is empty) its unseen cards are held at every one of them: its
# possible hands are listed by their counts of each value, each seat's hand is drawn from its
# list with the weight of the cards it names, and the draw is kept with the probability that
# the seats' hands, drawn independently, share no card (exact, since that probability is the
# ratio of the two laws). Otherwise (only with options outside the presets) the worlds are
# drawn from the larger set above and kept when the history replays.

_NEVER = 1 << 30  # "still held"


class _Hand:
    """One seat's slots (time order), the known cards in them and how many are restricted.

    ``known``: (card, lo, hi), the slots the card may have come from; the first ``restricted``
    slots are restricted; ``holds`` unseen cards fill the slots the known cards leave free.
    """

    def __init__(self, positions: list[int], known: list[tuple[int, int, int]],
                 restricted: int) -> None:
        self.positions = positions
        self.restricted = restricted
        self.holds = len(positions) - len(known)
        opening: list[list[tuple[int, int]]] = [[] for _ in positions]
        for card, lo, hi in known:
            opening[lo].append((card, hi))
        self.opening = opening
        self.opens = [tuple(sorted(hi for _, hi in o)) for o in opening]
        cum = [0]
        for o in opening:
            cum.append(cum[-1] + len(o))
        self.cum = cum  # cum[j]: known cards whose interval starts before slot j
        # When every known card may come from any slot up to its last one and the unseen cards
        # may sit in any free slot, the cards taken by their last slot each choose among the
        # slots left up to it: as many choices whatever the earlier ones chose.
        self.by_last = sorted((hi, card) for card, lo, hi in known) if \
            restricted in (0, len(positions)) and all(lo == 0 for _, lo, _ in known) else None
        self._memo: dict[int, dict[Any, int]] = {}
        self._steps: dict[int, dict[Any, SlotStep]] = {}

    def _moves(self, j: int, pend: tuple[int, ...]) -> list[SlotMove]:
        """The ways to fill slot ``j`` when ``pend`` (sorted) are the last slots of the known
        cards not yet placed: (multiplicity, pending afterwards, last slot of the known card
        placed, or -1 for an unseen card)."""
        pend, due = open_slot(j, pend, self.opens[j])
        out: list[SlotMove] = []
        if not due and j - self.cum[j + 1] + len(pend) < self.holds:
            out.append((1, pend, -1))
        out.extend(known_card_moves(pend, due))
        return out

    def _ways(self, j: int, pend: tuple[int, ...], free: int, memo: dict[Any, int]) -> int:
        """Placements of the known cards from slot ``j`` on that leave ``free`` restricted slots
        to unseen cards."""
        if j == self.restricted and j - self.cum[j] + len(pend) != free:
            return 0
        if j == len(self.positions):
            return 0 if pend else 1
        key = (j, pend)
        r = memo.get(key)
        if r is None:
            r = 0
            for mult, after, _ in self._moves(j, pend):
                r += mult * self._ways(j + 1, after, free, memo)
            memo[key] = r
        return r

    def count(self, free: int) -> int:
        """The placements of the known cards that leave ``free`` restricted slots."""
        if self.by_last is not None:
            if free != (self.holds if self.restricted else 0):
                return 0
            ways = 1
            for i, (hi, _) in enumerate(self.by_last):
                ways *= max(0, hi + 1 - i)
            return ways
        return self._ways(0, (), free, self._memo.setdefault(free, {}))

    def place(self, free: int, rng: random.Random) -> list[int]:
        """A uniformly chosen such placement: the card of each slot, -1 for an unseen one."""
        if self.by_last is not None:
            out = [-1] * len(self.positions)
            empty = list(range(len(self.positions)))
            for hi, card in self.by_last:
                out[empty.pop(rng.randrange(bisect_right(empty, hi)))] = card
            return out
        memo = self._memo.setdefault(free, {})
        steps = self._steps.setdefault(free, {})

        def completions(j: int, pend: tuple[int, ...]) -> int:
            return self._ways(j, pend, free, memo)

        waiting: dict[int, list[int]] = {}  # known cards by their last slot
        pend: tuple[int, ...] = ()
        out = []
        for j in range(len(self.positions)):
            for card, hi in self.opening[j]:
                waiting.setdefault(hi, []).append(card)
            pend, hi = choose_step(steps, j, pend, self._moves, completions, rng)
            out.append(-1 if hi < 0 else pop_random(waiting[hi], rng))
        return out


@dataclass
class _World:
    """What every world of one view shares, prepared once per view."""

    hands: list[_Hand]
    allows: list[int]          # per seat, the unseen cards its restricted slots take (a mask)
    unseen: list[int]
    stock: list[int]           # the undrawn positions
    splits: list[tuple[int, ...]]  # restricted unseen slots per seat, for each possible split
    upto: list[int]            # running weights of the splits
    codes: list[int]           # the history's moves
    checks: list[bool]         # moves whose legality the cards decide (exact mode only)
    # exact mode, seats whose unseen cards were all held at every pass: (seat, possible hands
    # as counts per value 1..10, running weights), and the unseen non-Kings by value
    valued: list[tuple[int, list[tuple[int, ...]], list[int]]]
    by_value: list[list[int]]
    joint: JointCounts | None  # exact counts over the seats' lists, when they come cheap


_LAST: LastPrepared[_World] = LastPrepared()


def _inconsistent() -> ValueError:
    return ValueError("twenty: the view is not consistent with any deal")


def _prepare(game: Twenty, view: View) -> _World:
    cached = _LAST.get(game, view)
    if cached is not None:
        return cached
    n = view.players
    first = (view.dealer + 1) % n
    exact = game.exact
    voluntary = game.options.may_draw_voluntarily
    times: list[list[int]] = [[-1] * 7 for _ in range(n)]   # when each slot was acquired
    positions = [[i * n + (o - first) % n for i in range(7)] for o in range(n)]
    known: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (card, step it left)
    blocked: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (step, number) no play
    codes: list[int] = []
    checks: list[bool] = []
    drawn = 0
    number = 1
    for step, (s, text) in enumerate(view.history):
        code = game.code_of(text)
        codes.append(code)
        checks.append(False)
        if code >= PLAY_BASE:
            mask = (code - PLAY_BASE) & _FULL
            while mask:
                low = mask & -mask
                known[s].append((low.bit_length() - 1, step))
                mask ^= low
            number += 1
            continue
        if code == PASS or not voluntary:
            blocked[s].append((step, number))
            checks[-1] = exact
        if code == DRAW:
            times[s].append(step)
            positions[s].append(7 * n + drawn)
            drawn += 1
        if game.options.count_advances_on_draw:
            number += 1
    known[view.seat].extend((int(c), _NEVER) for c in view.hand)
    shown = view.public.get("hands") if view.is_over else None
    if shown is not None:
        for o in range(n):
            if o != view.seat:
                known[o].extend((parse_card(t), _NEVER) for t in shown[o])

    def stops(card: int, at: int) -> bool:
        """Would this card alone have been a play at that number?"""
        if exact:
            return card % 13 == _KING_RANK or _LEAST_COUNT[card] == at
        return _LEAST_COUNT[card] <= at

    # the seats whose unseen cards the value lists describe (exact mode)
    listed = [o for o in range(n) if blocked[o] and len(positions[o]) > len(known[o])]
    if not exact or any(times[o][-1] >= blocked[o][0][0] for o in listed):
        listed = []
    else:
        checks = [False] * len(checks)
    seen = 0
    hands = []
    for o in range(n):
        cards = []
        for card, left in known[o]:
            seen |= 1 << card
            since = max((e for e, at in blocked[o] if e < left and stops(card, at)), default=-2)
            lo = bisect_left(times[o], since)
            hi = bisect_left(times[o], left) - 1
            if lo > hi:
                raise _inconsistent()
            cards.append((card, lo, hi))
        restricted = bisect_left(times[o], blocked[o][-1][0]) if blocked[o] else 0
        hand = _Hand(positions[o], cards, 0 if o in listed else restricted)
        if hand.holds < 0:
            raise _inconsistent()
        hands.append(hand)
    unseen = [c for c in range(52) if not seen >> c & 1]
    by_value: list[list[int]] = [[] for _ in range(10)]
    for c in unseen:
        if c % 13 != _KING_RANK:
            by_value[_LEAST_COUNT[c] - 1].append(c)
    valued = []
    for o in listed:
        passes = []
        for e, at in blocked[o]:
            reach = 1  # the sums the known cards held then make
            for card, left in known[o]:
                if left > e:
                    if card % 13 == _KING_RANK:
                        raise _inconsistent()
                    reach |= reach << _LEAST_COUNT[card]
            passes.append((at, reach))
        sizes = [len(cs) for cs in by_value]
        held = _hands_without_plays(sizes, hands[o].holds, passes)
        running = list(itertools.accumulate(
            math.prod(math.comb(a, k) for a, k in zip(sizes, h)) for h in held))
        if not held:
            raise _inconsistent()
        valued.append((o, held, running))
    allows = []
    for o in range(n):
        if not blocked[o] or o in listed:
            allows.append(0)
        elif exact:
            allows.append(sum(1 << c for c in unseen if c % 13 != _KING_RANK))
        else:
            at = blocked[o][-1][1]
            allows.append(sum(1 << c for c in unseen if _LEAST_COUNT[c] > at))
    # Every split of each seat's unseen cards between its restricted and other slots, weighted
    # by the placements of its known cards and the ways to deal the unseen cards.
    options: list[list[tuple[int, int]]] = []
    for hand in hands:
        lo = max(0, hand.restricted - (len(hand.positions) - hand.holds))
        opts = [(r, hand.count(r)) for r in range(lo, min(hand.restricted, hand.holds) + 1)]
        opts = [(r, w) for r, w in opts if w]
        if not opts:
            raise _inconsistent()
        options.append(opts)
    splits: list[tuple[int, ...]] = []
    upto: list[int] = []
    total = 0
    for combo in itertools.product(*options):
        w = 1
        for _, k in combo:
            w *= k
        split = tuple(r for r, _ in combo)
        w *= _deal_ways(allows, split, len(unseen), sum(h.holds for h in hands))
        if w:
            total += w
            splits.append(split)
            upto.append(total)
    if not total:
        raise _inconsistent()
    joint: JointCounts | None = None
    if len(valued) > 1:
        joint = JointCounts([[(counts, 1) for counts in held] for _, held, _ in valued],
                            [len(cs) for cs in by_value], ordered=False, budget=200_000)
        try:
            if not joint.ways():
                raise _inconsistent()
            joint.budget = 1 << 62  # counted: drawing costs no more than that did
        except TooMuch:
            joint = None
    world = _World(hands, allows, unseen, list(range(7 * n + drawn, 52)), splits, upto, codes,
                   checks, valued, by_value, joint)
    _LAST.put(game, view, world)
    return world


def _hands_without_plays(sizes: list[int], holds: int,
                         passes: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    """Every hand of ``holds`` unseen non-Kings, as counts per value 1..10 (at most
    ``sizes``), with which no set of cards held at a pass makes its number: ``passes`` gives
    each number with the sums that the known cards held then make."""
    out: list[tuple[int, ...]] = []
    full = (1 << 21) - 1  # sums above 20 never matter
    if any(reach >> at & 1 for at, reach in passes):
        return out

    def go(value: int, left: int, reaches: list[int], counts: list[int]) -> None:
        if not left:
            out.append(tuple(counts) + (0,) * (10 - len(counts)))
            return
        if value > 10:
            return
        cur = list(reaches)
        k = 0
        while True:
            counts.append(k)
            go(value + 1, left - k, cur, counts)
            counts.pop()
            if k == min(left, sizes[value - 1]):
                return
            k += 1
            cur = [(r | r << value) & full for r in cur]
            if any(r >> at & 1 for r, (at, _) in zip(cur, passes)):
                return

    go(1, holds, [reach for _, reach in passes], [])
    return out


def _deal_ways(allows: list[int], split: tuple[int, ...], unseen: int, holds: int) -> int:
    """The ways to deal the unseen cards to the seats' free slots, ``split[o]`` of them
    restricted to ``allows[o]`` (nested sets): the most restricted first."""
    ways = 1
    dealt = 0
    for k, o in sorted((allows[o].bit_count(), o) for o in range(len(split)) if split[o]):
        ways *= falling(k - dealt, split[o])
        dealt += split[o]
    return ways * falling(unseen - dealt, holds - dealt)


def _sample(game: Twenty, view: View, rng: random.Random, tries: int = 10_000) -> TwentyDeal:
    world = _prepare(game, view)
    for _ in range(tries):
        split = world.splits[bisect_right(world.upto, rng.randrange(world.upto[-1]))]
        order = [-1] * 52
        free: list[list[int]] = []
        for hand, restricted in zip(world.hands, split):
            cards = hand.place(restricted, rng)
            mine: list[list[int]] = [[], []]  # restricted, other
            for j, (p, c) in enumerate(zip(hand.positions, cards)):
                if c >= 0:
                    order[p] = c
                else:
                    mine[j >= hand.restricted].append(p)
            free.append(mine[0])
            free.append(mine[1])
        taken = _listed_hands(world, rng)
        for o, cards in taken.items():
            slots = free[2 * o + 1]
            rng.shuffle(cards)
            for p, c in zip(slots, cards):
                order[p] = c
            free[2 * o + 1] = []
        gone = {c for cards in taken.values() for c in cards}
        left = [c for c in world.unseen if c not in gone]
        rng.shuffle(left)
        # the most restricted slots first, each set within the next
        for o in sorted(range(len(split)), key=lambda o: world.allows[o].bit_count()):
            mask = world.allows[o]
            slots = free[2 * o]
            if not slots:
                continue
            fits = [i for i, c in enumerate(left) if mask >> c & 1][:len(slots)]
            if len(fits) < len(slots):
                raise _inconsistent()
            for p, i in zip(slots, fits):
                order[p] = left[i]
            for i in reversed(fits):
                left.pop(i)
        rest = [p for o in range(len(split)) for p in free[2 * o + 1]] + world.stock
        for p, c in zip(rest, left):
            order[p] = c
        deal = game._deal_from_order(order, view.dealer, 0, True, {})
        assert isinstance(deal, TwentyDeal)
        for code, decided in zip(world.codes, world.checks):
            if decided and code not in deal._legal():
                break
            deal.apply_code(code)
        else:
            return deal
    # Only with exact counts and compulsory draws (not a preset): a seat's unseen cards are
    # then held at some of its no-play turns and not at others, and drawing from the worlds
    # that fit single cards can miss the few that fit every subset.
    raise ValueError(f"twenty: no world fitting the view was found in {tries} tries; exact "
                     f"counts with compulsory draws make some views too constrained to sample")


def _listed_hands(world: _World, rng: random.Random) -> dict[int, list[int]]:
    """The unseen cards of the seats with value lists, every set of hands that share no card
    equally likely: by exact counting when it comes cheap; otherwise each seat's counts drawn
    from its list, kept with probability prod (a)_K / prod (a)_k over the values (``a`` unseen
    cards of the value, ``K`` taken in all, ``k`` by one seat), the ratio of the two laws
    (counting is cheap when the unseen cards are scarce, which is when such draws clash)."""
    if not world.valued:
        return {}
    sizes = [len(cs) for cs in world.by_value]
    if world.joint is not None:
        return _cards_of_counts(world, world.joint.draw(rng), rng)
    picks = draw_disjoint([held for _, held, _ in world.valued],
                          [running for _, _, running in world.valued], sizes,
                          _count_of_value, rng)
    if picks is None:
        raise _inconsistent()
    return _cards_of_counts(world, picks, rng)


def _count_of_value(counts: tuple[int, ...], value: int) -> int:
    return counts[value]


def _cards_of_counts(world: _World, picks: list[tuple[int, ...]],
                     rng: random.Random) -> dict[int, list[int]]:
    """The listed seats' cards: for each value, uniformly among the unseen cards of it."""
    out: dict[int, list[int]] = {o: [] for o, _, _ in world.valued}
    for v, cards in enumerate(world.by_value):
        chosen = rng.sample(cards, sum(counts[v] for counts in picks))
        at = 0
        for (o, _, _), counts in zip(world.valued, picks):
            out[o].extend(chosen[at:at + counts[v]])
            at += counts[v]
    return out


Twenty.DealClass = TwentyDeal
