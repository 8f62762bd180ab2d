"""Exact counting shared by the ``sample_deal`` of Twenty, Chukhny and Macao.

Those samplers make every deck order consistent with a view equally likely. Two pieces of that
are the same in each game:

* **Slot filling.** A seat's hidden deck positions (its *slots*, in time order) hold known cards,
  each allowed an interval of slots, and unseen cards. Walking the slots in order, the state is
  the sorted tuple of the last allowed slots of the known cards not yet placed; :func:`open_slot`
  and :func:`known_card_moves` give the ways to fill one slot with a known card (a card whose
  last slot this is must go here), and :func:`choose_step` draws one move with probability
  proportional to the number of completions it leaves, so the whole filling is uniform.
* **Disjoint hands by value counts.** Each constrained seat has a list of possible hands as
  counts of each card value, and the hands together must not use more cards of a value than are
  unseen. :class:`JointCounts` counts the ways seat by seat (state: the cards of each value
  already given) and draws exactly; :func:`draw_disjoint` draws each seat independently,
  weighted by the cards its hand names, and keeps the draw with probability
  prod (a)_K / prod (a)_k over the values (``a`` unseen cards of the value, ``K`` taken in all,
  ``k`` by one seat): the ratio of the law of disjoint hands to the independent law, so the
  kept draws follow the former exactly.

:class:`LastPrepared` keeps the last view's prepared world. Standard library only; every random
choice comes from the ``random.Random`` passed in, in a fixed order, so a seeded generator gives
a reproducible deal.
"""

from __future__ import annotations

import itertools
import math
import random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from ..engine import Deal, Game

T = TypeVar("T")
W = TypeVar("W")

# one slot's move: (multiplicity, pending afterwards, last slot of the known card placed, or -1
# for an unseen card)
SlotMove = tuple[int, tuple[int, ...], int]
# a memoised choice at one state: (pending afterwards and the card's last slot per move, running
# weights)
SlotStep = tuple[list[tuple[tuple[int, ...], int]], list[int]]


def falling(x: int, k: int) -> int:
    """The falling factorial x (x-1) ... (x-k+1): ordered ways to pick k of x things."""
    r = 1
    for i in range(k):
        r *= x - i
    return r


def shuffle_fast(items: list[T], rnd: Callable[[], float]) -> None:
    """Shuffle ``items`` in place with ``rnd`` (a ``Random.random``): Fisher-Yates with one float
    per swap, several times cheaper than ``Random.shuffle``'s exact integer draws. An index drawn
    as ``int(rnd() * n)`` is off uniform by at most n / 2**53, far below anything a searcher's
    worlds could show; the shuffles of real deals never come from here (engine.seeds)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]


def pop_random(items: list[T], rng: random.Random) -> T:
    """Remove and return a uniformly chosen item (the list's order is not kept)."""
    i = rng.randrange(len(items))
    items[i], items[-1] = items[-1], items[i]
    return items.pop()


def open_slot(j: int, pend: tuple[int, ...], opens: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """The pending last slots once the known cards whose interval starts at slot ``j`` (their
    last slots: ``opens``) join, and how many of them are due at ``j``."""
    if opens:
        pend = tuple(sorted(pend + opens))
    due = 0
    while due < len(pend) and pend[due] == j:
        due += 1
    return pend, due


def known_card_moves(pend: tuple[int, ...], due: int) -> list[SlotMove]:
    """The ways to put a known card in the slot: one move per distinct last slot, counted as
    many times as cards share it; only the due card when one is due, none when two are."""
    out: list[SlotMove] = []
    if due <= 1:
        i, n = 0, len(pend)
        while i < n:
            hi = pend[i]
            k = i + 1
            while k < n and pend[k] == hi:
                k += 1
            out.append((k - i, pend[:i] + pend[i + 1:], hi))
            if due:
                break  # the card whose last slot this is must go here
            i = k
    return out


def choose_step(steps: dict[Any, SlotStep], j: int, pend: tuple[int, ...],
                moves: Callable[[int, tuple[int, ...]], list[SlotMove]],
                completions: Callable[[int, tuple[int, ...]], int],
                rng: random.Random) -> tuple[tuple[int, ...], int]:
    """One move at slot ``j`` (``moves(j, pend)``), each with probability proportional to its
    multiplicity times the completions from the state it leaves (``completions(j + 1,
    after)``), memoised in ``steps``: (pending afterwards, last slot of the known card placed
    or -1)."""
    key = (j, pend)
    step = steps.get(key)
    if step is None:
        listed = moves(j, pend)
        upto = list(itertools.accumulate(m * completions(j + 1, after) for m, after, _ in listed))
        step = steps[key] = ([(after, hi) for _, after, hi in listed], upto)
    choices, upto = step
    k = bisect_right(upto, rng.randrange(upto[-1])) if len(choices) > 1 else 0
    return choices[k]


class TooMuch(Exception):
    """Counting would take longer than drawing and rejecting."""


class JointCounts:
    """The ways to give each seat a hand from its list, the hands sharing no card, and a uniform
    draw of one: seat by seat, the state being the cards of each value already given.

    ``lists[i]``: (counts of each value, how many hands have them); ``ordered``: hands are
    sequences (falling factorials of the cards left) rather than sets (binomials). Each
    seat's list costs its length from ``budget``; :class:`TooMuch` once it runs out.
    """

    def __init__(self, lists: Sequence[Sequence[tuple[tuple[int, ...], int]]], sizes: list[int],
                 ordered: bool, budget: int) -> None:
        self.lists = [[(counts, mult, [(v, k) for v, k in enumerate(counts) if k])
                       for counts, mult in group] for group in lists]
        self.sizes = sizes
        self.pick: Callable[[int, int], int] = falling if ordered else math.comb
        self.budget = budget
        self.memo: dict[Any, int] = {}
        self.steps: dict[Any, tuple[list[tuple[int, ...]], list[int]]] = {}

    def _choices(self, i: int, used: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        self.budget -= len(self.lists[i])
        if self.budget < 0:
            raise TooMuch
        out = []
        sizes, pick = self.sizes, self.pick
        for counts, mult, nonzero in self.lists[i]:
            ways = mult
            for v, k in nonzero:
                ways *= pick(sizes[v] - used[v], k)
            if ways:
                out.append((ways, counts))
        return out

    def ways(self, i: int = 0, used: tuple[int, ...] | None = None) -> int:
        """The ways to give seats ``i``.. their hands once ``used`` cards of each value are
        given."""
        if used is None:
            used = (0,) * len(self.sizes)
        if i == len(self.lists):
            return 1
        key = (i, used)
        r = self.memo.get(key)
        if r is None:
            r = sum(w * self.ways(i + 1, tuple(u + k for u, k in zip(used, counts)))
                    for w, counts in self._choices(i, used))
            self.memo[key] = r
        return r

    def draw(self, rng: random.Random) -> list[tuple[int, ...]]:
        """Each seat's counts of each value, every set of disjoint hands equally likely."""
        used: tuple[int, ...] = (0,) * len(self.sizes)
        picks = []
        for i in range(len(self.lists)):
            step = self.steps.get((i, used))
            if step is None:
                options, weights = [], []
                for w, counts in self._choices(i, used):
                    options.append(counts)
                    weights.append(w * self.ways(i + 1, tuple(u + k for u, k in zip(used, counts))))
                step = self.steps[(i, used)] = (options, list(itertools.accumulate(weights)))
            options, upto = step
            counts = options[bisect_right(upto, rng.randrange(upto[-1]))]
            picks.append(counts)
            used = tuple(u + k for u, k in zip(used, counts))
        return picks


def keep_and_apart(picks: Sequence[T], sizes: list[int],
                   count: Callable[[T, int], int]) -> tuple[int, int]:
    """prod (a)_K and prod (a)_k over the values for independently drawn hands (``count(hand,
    v)``: its cards of value ``v``): their ratio is the probability of keeping the draw."""
    keep = apart = 1
    for v, a in enumerate(sizes):
        total = 0
        for hand in picks:
            k = count(hand, v)
            apart *= falling(a, k)
            total += k
        keep *= falling(a, total)
    return keep, apart


def draw_disjoint(lists: Sequence[Sequence[T]], upto: Sequence[list[int]], sizes: list[int],
                  count: Callable[[T, int], int], rng: random.Random,
                  tries: int = 100_000) -> list[T] | None:
    """Each seat's hand drawn from its list by the running weights ``upto`` (the cards each
    hand names), kept by :func:`keep_and_apart`: every set of disjoint hands equally likely.
    None if no draw was kept in ``tries``."""
    for _ in range(tries):
        picks = [held[bisect_right(running, rng.randrange(running[-1]))]
                 for held, running in zip(lists, upto)]
        keep, apart = keep_and_apart(picks, sizes, count)
        if keep and rng.randrange(apart) < keep:
            return picks
    return None


D = TypeVar("D", bound="Deal")


def first_world(game: Game, order: list[int], dealer: int, codes: Sequence[int],
                context: dict[str, Any], kind: type[D]) -> tuple[D, D]:
    """The world of ``order`` with a view's history (``codes``) replayed, and a copy of it that a
    sampler keeps: its further worlds of that view copy the kept one and change only what the
    view is blind to, since replaying the history is most of a world's cost."""
    deal = game._deal_from_order(order, dealer, 0, True, context)
    assert isinstance(deal, kind)
    for code in codes:
        deal.apply_code(code)
    kept = deal.copy()
    assert isinstance(kept, kind)
    return deal, kept


class LastPrepared(Generic[W]):
    """The world prepared for the last view, kept because searching bots sample one view many
    times. Stored as one (game, view, world) tuple, replaced and read at once, so threads
    sharing it never pair one view with another's world."""

    def __init__(self) -> None:
        self._last: tuple[object, object, W | None] = (None, None, None)

    def get(self, game: object, view: object) -> W | None:
        last_game, last_view, world = self._last
        return world if last_game is game and last_view is view else None

    def put(self, game: object, view: object, world: W) -> None:
        self._last = (game, view, world)
