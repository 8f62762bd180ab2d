"""Fixed integer action spaces, one per game, for learning agents.

Every game gets a fixed, documented set of actions ``0 .. size - 1``: the 52 card slots first (an
action ``c < 52`` plays the card with id ``c = suit * 13 + rank``; suits S H D C, ranks 2..A),
then the game's other actions. An action maps both ways to the game's notation
(:meth:`ActionSpace.text`, :meth:`ActionSpace.action_of_text`) and to the engine's move codes in
the current position (:meth:`ActionSpace.legal`). The spaces, per game:

* ``sixty-six`` (70 actions): the engine's codes. 0..51 play a card; ``52 + 4*suit + 2*q + f``
  leads the King (q=0) or Queen (q=1) of a suit announcing 20 (f=0) or 40 (f=1), ``KH=20``;
  68 ``exchange``; 69 ``close``. Only the 24 (Schnapsen: 20) cards of the deck are ever legal.
* ``two-ten-jack`` (54): the engine's codes. 0..51 play a card; 52 ``AS=S`` (lead the ace of
  spades declared a spade); 53 ``AS=H`` (declared a trump).
* ``maltese-twenty`` (52): the engine's codes; a card is the only move.
* ``chukhny`` (54): the engine's codes. 0..51 play or lead a card; 52 ``draw``; 53 ``take``.
* ``banchok`` (``52 + 3 * bank_stake``; 352 by default): the engine's codes. ``52 + N`` is
  ``stake N``; 0..52 are never legal (no move names a card, and a stake is at least 1). A stake is
  at most the bank, and a bank ends as soon as it reaches ``3 * bank_stake``, so every stake fits.
* ``macao`` (``54 + max_stake``; 104 by default): 52 ``buy``, 53 ``stand``, ``53 + N``
  ``stake N`` (1 <= N <= ``max_stake``; the engine's code is ``100 + N``); 0..51 are never legal.
* ``twenty`` (54 + the rank multisets; 6,177 with ``pair_counts_ten=False``, 7,185 with it):
  52 ``draw``, 53 ``pass``, then one action per **multiset of ranks** that can ever be played
  (least count at most 20: A and K count 1, 2-9 their pips, 10/J/Q 10, or 10 per same-rank pair of
  10s, Js or Qs with ``pair_counts_ten``), ordered by number of cards and then by ranks in the
  order A 2 .. 9 T J Q K. Suits never matter in Twenty (no rule reads them), so a play of that
  multiset is mapped to one canonical legal set of cards: the legal play with the lowest engine
  code (lowest card ids; spades first). The action's text names ranks only, ``A+A+5``; the
  position's move (``AS+AH+5D``) comes from :meth:`ActionSpace.legal`. Card slots 0..51 are never
  legal in Twenty.

Only the standard library is used here; the adapters add numpy masks on top.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..actions import ActionSpace
from ..cards import RANK_CHARS, format_card
from ..engine import Game

__all__ = ["ActionSpace", "action_space", "describe"]


_FULL = (1 << 52) - 1


class _SixtySix(ActionSpace):
    def cards_of(self, code: int) -> tuple[int, ...]:
        if code < 52:
            return (code,)
        if code < 68:  # a marriage lead: the K or Q of a suit
            k = code - 52
            return ((k // 4) * 13 + (10 if (k >> 1) & 1 else 11),)
        return ()


class _TwoTenJack(ActionSpace):
    def cards_of(self, code: int) -> tuple[int, ...]:
        if code < 52:
            return (code,)
        return (12,) if code in (52, 53) else ()  # the ace of spades, declared


class _Macao(ActionSpace):
    """52 buy, 53 stand, 53 + N stake N (engine code 100 + N)."""

    def action_of(self, code: int) -> int:
        if code in (52, 53):
            return code
        if 100 < code <= 100 + self.size - 54:
            return code - 47
        raise self._outside(code)

    def legal(self, codes: Sequence[int]) -> dict[int, int]:
        f = self.action_of
        return {f(c): c for c in codes}

    def legal_actions(self, codes: Sequence[int]) -> list[int]:
        return sorted(self.legal(codes))

    def code_of(self, action: int, codes: Sequence[int]) -> int | None:
        code = action + 47 if action > 53 else action if action >= 52 else -1
        return code if code in codes else None

    def mask(self, codes: Sequence[int]) -> bytearray:
        m = bytearray(self.size)
        top = 100 + self.size - 54
        for c in codes:
            if c == 52 or c == 53:
                m[c] = 1
            elif 100 < c <= top:
                m[c - 47] = 1
            else:
                raise self._outside(c)
        return m

    def _code_for_text(self, action: int) -> int:
        return action + 47 if action > 53 else action


# ---- Twenty: rank multisets

_PRINT_RANKS = (12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)  # rank ids in the order A 2 .. Q K
_PRINT_POS = {r: i for i, r in enumerate(_PRINT_RANKS)}
_LEAST = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 1, 1)  # least count of one card, by rank id
_PAIRABLE = (8, 9, 10)  # 10, J, Q
# _BLOCK[b]: the base-5 key (digit r = number of cards of rank r) of one suit's 13-bit block
_BLOCK = [0] * 8192
for _b in range(1, 8192):
    _low = _b & -_b
    _BLOCK[_b] = _BLOCK[_b ^ _low] + 5 ** (_low.bit_length() - 1)


def _rank_key(mask: int) -> int:
    """The base-5 rank-multiset key of a card mask."""
    b = _BLOCK
    return b[mask & 8191] + b[(mask >> 13) & 8191] + b[(mask >> 26) & 8191] + b[(mask >> 39) & 8191]


def _multisets(pairs: bool) -> list[tuple[int, ...]]:
    """Every non-empty multiset of ranks (a tuple of 13 counts by rank id) of least count <= 20,
    ordered by number of cards, then by the ranks' print order."""
    out: list[tuple[int, ...]] = []

    def rec(i: int, least: int, counts: list[int]) -> None:
        if i == 13:
            if any(counts):
                out.append(tuple(counts))
            return
        for c in range(5):
            add = c * _LEAST[i] - (10 * (c // 2) if pairs and i in _PAIRABLE else 0)
            if least + add > 20:
                break
            counts.append(c)
            rec(i + 1, least + add, counts)
            counts.pop()

    rec(0, 0, [])

    def order(counts: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        ranks = sorted(_PRINT_POS[r] for r in range(13) for _ in range(counts[r]))
        return sum(counts), tuple(ranks)

    out.sort(key=order)
    return out


class _Twenty(ActionSpace):
    """52 draw, 53 pass, 54 + i the i-th rank multiset; a play maps to its canonical card set."""

    mapped = True

    def __init__(self, game: Game) -> None:
        sets = _multisets(bool(getattr(game.options, "pair_counts_ten", False)))
        super().__init__(game, 54 + len(sets))
        self.multisets = sets
        self._key_action = {sum(c * 5 ** r for r, c in enumerate(cs)): 54 + i
                            for i, cs in enumerate(sets)}

    def action_of(self, code: int) -> int:
        if code in (52, 53):
            return code
        if code >= 64:
            a = self._key_action.get(_rank_key((code - 64) & _FULL))
            if a is not None:
                return a
        raise self._outside(code)

    def legal(self, codes: Sequence[int]) -> dict[int, int]:
        out: dict[int, int] = {}
        ka = self._key_action
        for c in codes:
            if c >= 64:
                a = ka.get(_rank_key((c - 64) & _FULL))
                if a is None:
                    raise self._outside(c)
            elif c in (52, 53):
                a = c
            else:
                raise self._outside(c)
            prev = out.get(a)
            if prev is None or c < prev:
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
        if code < 64:
            return ()
        m = (code - 64) & _FULL
        out = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return tuple(out)

    def text(self, action: int) -> str:
        self._check(action)
        if action == 52:
            return "draw"
        if action == 53:
            return "pass"
        if action < 52:
            return format_card(action)
        counts = self.multisets[action - 54]
        ranks = sorted(_PRINT_POS[r] for r in range(13) for _ in range(counts[r]))
        return "+".join(RANK_CHARS[_PRINT_RANKS[p]] for p in ranks)

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


def action_space(game: Game) -> ActionSpace:
    """The fixed action space of a loaded game (shared per game and options)."""
    space = _CACHE.get(game)
    if space is None:
        space = _CACHE[game] = _build(game)
    return space


_CACHE: dict[Game, ActionSpace] = {}


def _build(game: Game) -> ActionSpace:
    name = game.name
    if name == "sixty-six":
        return _SixtySix(game, 70)
    if name == "two-ten-jack":
        return _TwoTenJack(game, 54)
    if name == "maltese-twenty":
        return ActionSpace(game, 52)
    if name == "chukhny":
        return ActionSpace(game, 54)
    if name == "banchok":
        return ActionSpace(game, 52 + 3 * int(game.options.bank_stake))
    if name == "macao":
        return _Macao(game, 54 + int(game.options.max_stake))
    if name == "twenty":
        return _Twenty(game)
    return game.action_space()


def describe(game: Game, actions: Iterable[int] | None = None) -> list[str]:
    """``"action: text"`` lines (all actions, or the given ones), for documentation."""
    space = action_space(game)
    return [f"{a}: {space.text(a)}" for a in (actions if actions is not None
                                              else range(space.size))]
