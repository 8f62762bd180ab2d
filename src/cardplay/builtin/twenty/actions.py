"""Twenty's fixed action space (54 + the rank multisets; 6,177 with ``pair_counts_ten=False``,
7,185 with it).

52 ``draw``, 53 ``pass``, then one action per **multiset of ranks** that can ever be played
(least count at most 20: A and K count 1, 2-9 their pips, 10/J/Q 10, or 10 per same-rank pair of
10s, Js or Qs with ``pair_counts_ten``), ordered by number of cards and then by ranks in the
order A 2 .. 9 T J Q K (:func:`rank_multisets`, which also sizes the declared facts). Suits never
matter in Twenty (no rule reads them), so a play of that multiset is mapped to one canonical
legal set of cards: the legal play with the lowest engine code (lowest card ids; spades first).
The action's text names ranks only, ``A+A+5``; the position's move (``AS+AH+5D``) comes from
:meth:`~cardplay.actions.ActionSpace.legal`. Card slots 0..51 are never legal in Twenty.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from ...actions import ActionSpace
from ...cards import RANK_CHARS, cards_of_mask, format_card
from .codes import ALL_CARDS, DRAW, LAST_COUNT, LEAST_COUNT, PASS, PLAY_BASE

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["TwentyActions", "rank_key", "rank_multisets"]

PRINT_RANKS = (12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)  # rank ids in the order A 2 .. Q K
PRINT_POSITION = {r: i for i, r in enumerate(PRINT_RANKS)}
PAIRABLE_RANKS = (8, 9, 10)  # 10, J, Q by rank id
FIRST_PLAY = 54  # the action of the first rank multiset

# RANK_KEY_OF_BLOCK[b]: the base-5 key (digit r = number of cards of rank r) of one suit's
# 13-bit block of a card mask; four look-ups key a whole play.
RANK_KEY_OF_BLOCK = [0] * 8192
for _block in range(1, 8192):
    _low = _block & -_block
    RANK_KEY_OF_BLOCK[_block] = RANK_KEY_OF_BLOCK[_block ^ _low] + 5 ** (_low.bit_length() - 1)
del _block, _low


def rank_key(mask: int) -> int:
    """The base-5 rank-multiset key of a card mask."""
    b = RANK_KEY_OF_BLOCK
    return b[mask & 8191] + b[(mask >> 13) & 8191] + b[(mask >> 26) & 8191] + b[(mask >> 39) & 8191]


@cache
def rank_multisets(pair_counts_ten: bool) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ranks that can ever be played (a tuple of 13 counts by rank id): every
    non-empty one whose least count (A and K 1, 2-9 their pips, 10/J/Q 10, or 10 per same-rank
    pair of them with ``pair_counts_ten``) is at most 20, ordered by number of cards, then by
    the ranks' print order. The fixed action space has one action for each, in this order."""
    out: list[tuple[int, ...]] = []

    def extend(rank: int, least: int, counts: list[int]) -> None:
        if rank == 13:
            if any(counts):
                out.append(tuple(counts))
            return
        pairable = pair_counts_ten and rank in PAIRABLE_RANKS
        for copies in range(5):
            # LEAST_COUNT is by card id; the spades' ids are the rank ids
            add = copies * LEAST_COUNT[rank] - (10 * (copies // 2) if pairable else 0)
            if least + add > LAST_COUNT:
                break
            counts.append(copies)
            extend(rank + 1, least + add, counts)
            counts.pop()

    extend(0, 0, [])

    def order(counts: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        ranks = sorted(PRINT_POSITION[r] for r in range(13) for _ in range(counts[r]))
        return sum(counts), tuple(ranks)

    out.sort(key=order)
    return tuple(out)


class TwentyActions(ActionSpace):
    """52 draw, 53 pass, 54 + i the i-th rank multiset; a play maps to its canonical card set."""

    mapped = True

    def __init__(self, game: Game) -> None:
        sets = rank_multisets(bool(getattr(game.options, "pair_counts_ten", False)))
        super().__init__(game, FIRST_PLAY + len(sets))
        self.multisets = sets
        self._key_action = {sum(c * 5 ** r for r, c in enumerate(cs)): FIRST_PLAY + i
                            for i, cs in enumerate(sets)}

    def action_of(self, code: int) -> int:
        if code in (DRAW, PASS):
            return code
        if code >= PLAY_BASE:
            a = self._key_action.get(rank_key((code - PLAY_BASE) & ALL_CARDS))
            if a is not None:
                return a
        raise self._outside(code)

    def legal(self, codes: Sequence[int]) -> dict[int, int]:
        out: dict[int, int] = {}
        ka = self._key_action
        for c in codes:
            if c >= PLAY_BASE:
                a = ka.get(rank_key((c - PLAY_BASE) & ALL_CARDS))
                if a is None:
                    raise self._outside(c)
            elif c in (DRAW, PASS):
                a = c
            else:
                raise self._outside(c)
            prev = out.get(a)
            if prev is None or c < prev:  # the canonical play: the lowest code
                out[a] = c
        return out

    def legal_actions(self, codes: Sequence[int]) -> list[int]:
        return sorted(self.legal(codes))

    def code_of(self, action: int, codes: Sequence[int]) -> int | None:
        return self.legal(codes).get(action)

    def mask(self, codes: Sequence[int]) -> bytearray:
        m = bytearray(self.size)
        for a in self.legal(codes):
            m[a] = 1
        return m

    def cards_of(self, code: int) -> tuple[int, ...]:
        if code < PLAY_BASE:
            return ()
        return tuple(cards_of_mask((code - PLAY_BASE) & ALL_CARDS))

    def text(self, action: int) -> str:
        self._check(action)
        if action == DRAW:
            return "draw"
        if action == PASS:
            return "pass"
        if action < 52:
            return format_card(action)
        counts = self.multisets[action - FIRST_PLAY]
        ranks = sorted(PRINT_POSITION[r] for r in range(13) for _ in range(counts[r]))
        return "+".join(RANK_CHARS[PRINT_RANKS[p]] for p in ranks)

    def action_of_text(self, text: str) -> int:
        t = text.strip()
        parts = [p.strip().upper() for p in t.split("+")]
        if parts and all(len(p) == 1 and p in RANK_CHARS for p in parts):
            counts = [0] * 13
            for p in parts:
                counts[RANK_CHARS.index(p)] += 1
            key = sum(c * 5 ** r for r, c in enumerate(counts))
            a = self._key_action.get(key)
            if a is None:
                raise ValueError(f"cardplay.rl: twenty: {text!r} can never be played (its least "
                                 f"count is over 20)")
            return a
        # A play named with its cards (King values, where given, do not change the action).
        return self.action_of(self.game.code_of(t))
