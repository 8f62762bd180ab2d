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

import random
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...cards import CardParseError, format_card, parse_card
from ...engine import (
    Game,
    InvalidMoveError,
    Match,
    Move,
    View,
    option,
    register,
)
from .actions import TwentyActions
from .codes import ALL_CARDS, DRAW, KING_RANK, KINGS, PASS, PLAY_BASE, king_values, play_code
from .deal import TwentyDeal
from .declaration import DECLARATION
from .sampling import sample_deal

if TYPE_CHECKING:
    from ...observation import Blocks, Layout

__all__ = ["RULES_RU", "Twenty", "TwentyOptions", "rank_counts"]

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
    declaration = DECLARATION
    title = DECLARATION.title.to_dict()
    Options = TwentyOptions
    DealClass = TwentyDeal
    min_players = 2
    max_players = 4
    options: TwentyOptions

    def observation_blocks(self, layout: Layout) -> Blocks:
        """The game's observation blocks (:mod:`.observation`; imported when first asked for,
        so that loading the game does not build the fast path's tables)."""
        from .observation import observation_blocks

        return observation_blocks(self, layout)

    def action_space(self) -> TwentyActions:
        """The game's fixed action space (:mod:`.actions`)."""
        return TwentyActions(self)

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
            is_king = card % 13 == KING_RANK
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
        mask = x & ALL_CARDS
        total = x >> 52
        pm = _pm(mask)
        parts = []
        while pm:
            low = pm & -pm
            parts.append(_TEXT_PM[low.bit_length() - 1])
            pm ^= low
        if total and mask & KINGS:
            nk = (mask & KINGS).bit_count()
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
        nk = (mask & KINGS).bit_count()
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
        return sample_deal(self, view, rng)
