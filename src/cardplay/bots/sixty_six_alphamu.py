"""Alpha-mu search (Cazenave and Ventos, 2019) for Sixty-Six once the talon is closed.

After a close nothing is left to chance, but the opponent's hand is hidden among the unseen
cards. PIMC solves each hand he may hold as if both players saw it and averages the values: it
assumes it may play a different card in each world, which it cannot, since it does not know which
world it is in (strategy fusion). Alpha-mu searches all the worlds together:

* at our moves, one card for every world (we cannot tell them apart);
* at the opponent's, a different card in each world: he sees his own hand, and the search
  assumes he plays each world as well as it can be played, as PIMC does;
* a node's value is a Pareto front of win vectors: for each strategy of ours worth keeping, the
  set of worlds it wins, as a bit mask. Our moves take the union of the children's fronts; the
  opponent's moves combine them world by world (a strategy of ours may answer each of his cards
  differently, since it sees which one he played), keeping only the vectors no other contains.

``moves`` of our moves are searched this way; past them each world is solved on its own by the
exact solver (a null-window search: who wins). With ``moves`` = 1 that is PIMC's vote counted in
worlds won; each extra move removes the strategy fusion of one more of our decisions. It applies
here rather than in phase 1 because a closed talon is exactly the setting it was made for (bridge
card play: hidden hands, no chance) and it is small: at most five cards a hand in Schnapsen, six
in Sixty-Six, and at most ``enumerate_limit`` worlds.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..builtin.sixty_six import SixtySixDeal
from .sixty_six_solver import _EXACT, _Search, _terminal_value

__all__ = ["AlphaMu", "maximal"]


def maximal(vectors: Sequence[int]) -> list[int]:
    """The vectors (sets of worlds as bit masks) that no other vector contains, without repeats."""
    kept: list[int] = []
    for v in sorted(set(vectors), key=int.bit_count, reverse=True):
        if not any(v & k == v for k in kept):
            kept.append(v)
    return kept


class AlphaMu:
    """One move's alpha-mu search over ``worlds`` (deals that differ only in the hidden cards)
    for ``seat``. ``max_nodes`` bounds the positions of the whole search (one per world at each
    of its nodes, and every node of the solves past its horizon): past it ``exact``
    turns false, every open world is then valued by the solver's evaluation, and the caller
    should not trust the scores (PIMCBot falls back to PIMC's move)."""

    def __init__(self, worlds: Sequence[SixtySixDeal], seat: int, max_nodes: int) -> None:
        self.worlds = list(worlds)
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        self.exact = True
        self.all = (1 << len(self.worlds)) - 1
        # One table for every world's solves: its keys hold both hands, so worlds never mix, and
        # the positions of one world recur under many of the search's lines.
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}

    def scores(self, codes: Sequence[int], moves: int) -> dict[int, int]:
        """For each of our legal ``codes`` at the root: the most worlds one strategy wins after
        it, looking ``moves`` of our moves ahead (this one included)."""
        if moves < 1:
            raise ValueError(f"alpha-mu looks at least 1 of our moves ahead, not {moves}")
        ws = dict(enumerate(self.worlds))
        result: dict[int, int] = {}
        for code in codes:
            front = self._front(_applied(ws, code), moves - 1)
            result[code] = max(v.bit_count() for v in front)
        return result

    def _won(self, d: SixtySixDeal) -> bool:
        if d.to_move is None:
            return _terminal_value(d, self.seat) > 0
        search = _Search(self.seat, max(1, self.max_nodes - self.nodes), self.table)
        value = search.value(d, -1, 1, _EXACT)
        self.nodes += search.nodes
        if not search.exact:
            self.exact = False
        return value > 0

    def _front(self, ws: dict[int, SixtySixDeal], moves: int) -> list[int]:
        # Worlds whose deal is over (or all of them, past the horizon or the budget) are decided
        # now; the rest are searched. Outside ``ws`` every bit is 1, so it constrains nothing.
        # Every world's position counts as a node, like each position the solver visits.
        self.nodes += len(ws)
        if self.nodes > self.max_nodes:
            self.exact = False
        mask = self.all
        live: dict[int, SixtySixDeal] = {}
        for i, d in ws.items():
            if d.to_move is None or moves == 0 or not self.exact:
                if not self._won(d):
                    mask &= ~(1 << i)
            else:
                live[i] = d
        if not live:
            return [mask]
        open_bits = _bits(live)
        any_deal = next(iter(live.values()))
        if any_deal.to_move == self.seat:
            # Our hand, and so our legal moves, are the same in every world.
            front: list[int] = []
            for code in any_deal.legal_codes():
                front = maximal(front + self._front(_applied(live, code), moves - 1))
                if any(v & open_bits == open_bits for v in front):
                    break  # a strategy wins every world still open: nothing does better
        else:
            by_code: dict[int, dict[int, SixtySixDeal]] = {}
            for i, d in live.items():
                for code in d.legal_codes():
                    by_code.setdefault(code, {})[i] = d
            combined: list[int] | None = None
            for code, worlds in by_code.items():
                child = self._front(_applied(worlds, code), moves)
                combined = child if combined is None else maximal(
                    [a & b for a in combined for b in child])
                if all(v & open_bits == 0 for v in combined):
                    break  # every world still open is already lost: he needs no other card
            assert combined is not None
            front = combined
        return [v & mask for v in front]


def _bits(ws: dict[int, SixtySixDeal]) -> int:
    return sum(1 << i for i in ws)


def _applied(ws: dict[int, SixtySixDeal], code: int) -> dict[int, SixtySixDeal]:
    out: dict[int, SixtySixDeal] = {}
    for i, d in ws.items():
        child = d.copy()
        assert isinstance(child, SixtySixDeal)
        child.apply_code(code)
        out[i] = child
    return out
