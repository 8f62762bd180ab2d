"""Macao's ``sample_deal``: a deal consistent with a view, every consistent world equally likely."""

from __future__ import annotations

import itertools
import random
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...cards import parse_card
from ...engine import View
from ..counting import (
    JointCounts,
    LastPrepared,
    TooMuch,
    draw_disjoint,
    falling,
    keep_and_apart,
    pop_random,
    shuffle_fast,
)
from .deal import DECK, VALUE, MacaoDeal

if TYPE_CHECKING:
    from .game import Macao

__all__ = ["sample"]


def _fits(game: Macao, values: tuple[int, ...], bought: int, stood: bool,
          shoe_at_stand: bool) -> bool:
    """Whether a punter's hidden cards, by value in the order dealt, fit his public buy/stand
    decisions this round (``shoe_at_stand``: the shoe still held a card when he stood)."""
    o = game.options
    if o.naturals and values[0] >= 7 and bought:
        return False
    if o.multi_buy:
        total = values[0]
        for v in values[1:]:
            if o.forced_draw and total > 6:
                return False
            total += v
            if total > 9:
                return False
        return not (o.forced_draw and stood and total <= 6 and shoe_at_stand)
    if o.forced_draw and (bought or stood):
        if bought and values[0] > 6:
            return False
        if stood and not bought and values[0] <= 6:
            return False
    return True


def _value_hands(game: Macao, size: int, bought: int, stood: bool,
                 shoe_at_stand: bool) -> list[tuple[int, ...]]:
    """Every sequence of ``size`` card values that fits the punter's decisions."""
    out: list[tuple[int, ...]] = []

    o = game.options

    def go(values: tuple[int, ...], total: int) -> None:
        if len(values) == size:
            if _fits(game, values, bought, stood, shoe_at_stand):
                out.append(values)
            return
        if o.multi_buy and o.forced_draw and values and total > 6:
            return  # he could not have bought another card
        for v in range(10):
            # under multi_buy a hidden hand never went over 9 (that busts, face up)
            if not o.multi_buy or total + v <= 9:
                go((*values, v), total + v)

    go((), 0)
    return out


@dataclass
class _World:
    """What every world of one view shares, prepared once per view."""

    order: list[int]                   # the used cards and the known cards, -1 elsewhere
    slots: list[list[int]]             # per constrained punter, his hidden positions in order
    free: list[int]                    # the other hidden positions: other cards, the shoe
    by_value: list[list[int]]          # the unseen cards (copies) of each value
    hands: list[list[tuple[int, ...]]]  # per constrained punter, the value sequences that fit
    upto: list[list[int]]              # their running weights (the cards they name)
    codes: list[int]
    # per constrained punter, his sequences by their counts of each value
    orders: list[dict[tuple[int, ...], list[tuple[int, ...]]]]
    joint: JointCounts | None          # exact counts over the punters, when they come cheap


_LAST: LastPrepared[_World] = LastPrepared()


def _keep_rate(hands: list[list[tuple[int, ...]]], upto: list[list[int]],
               sizes: list[int]) -> float:
    """About how often :func:`sample` keeps a draw of the constrained punters' values (a
    fixed-seed estimate: it only chooses between two exact methods)."""
    rng = random.Random(0)
    kept = 0.0
    for _ in range(64):
        picks = [held[bisect_right(running, rng.randrange(running[-1]))]
                 for held, running in zip(hands, upto)]
        keep, apart = keep_and_apart(picks, sizes, _count_of_value)
        kept += keep / apart
    return kept / 64


def _count_of_value(values: tuple[int, ...], value: int) -> int:
    return values.count(value)


def _prepare(game: Macao, view: View) -> _World:
    cached = _LAST.get(game, view)
    if cached is not None:
        return cached
    if view.game != game.name or view.players != game.players:
        raise ValueError("macao: this view belongs to another game or table size")
    pub = view.public
    n = view.players
    banker = view.dealer
    me = view.seat
    used = [_card_id(t) for t in pub["used"]]
    dealt = list(pub["dealt_to"])
    own = [int(c) for c in view.hand]
    shown = [[_card_id(t) for t in pub["shown"][p]] for p in range(n)]
    unseen = [0] * 52
    for c in DECK:
        unseen[c] += 1
    for c in used:
        unseen[c] -= 1
    if not shown[me]:               # a bust hand of one's own is counted once, as shown
        for c in own:
            unseen[c] -= 1
    for cs in shown:
        for c in cs:
            unseen[c] -= 1
    # This round's shoe positions: known cards where they are, hidden ones per seat.
    rstart = len(used)
    order = used + [-1] * (len(DECK) - rstart)
    slots: dict[int, list[int]] = {}
    taken = [0] * n
    for i, s in enumerate(dealt):
        if s == me and s != banker:
            order[rstart + i] = own[taken[s]]
        elif shown[s]:
            order[rstart + i] = shown[s][taken[s]]
        else:
            slots.setdefault(s, []).append(rstart + i)
        taken[s] += 1
    # Other punters' decisions constrain their cards (only under forced_draw, naturals or
    # multi_buy): each such punter's hidden cards are one of the value sequences that fit.
    o = game.options
    status = pub["status"]
    first: dict[int, int] = {}  # each seat's first card this round, in dealing order
    for i, s in enumerate(dealt):
        first.setdefault(s, i)
    constrained: list[int] = []
    hands: list[list[tuple[int, ...]]] = []
    if o.forced_draw or o.naturals or o.multi_buy:
        for s in slots:
            bought = int(pub["bought"][s])
            stood = status[s] == "stood"
            if s == banker or not (bought or stood):
                continue
            # the shoe held a card when he stood if it holds one now, or if a punter deciding
            # after him bought one
            later = sum(int(pub["bought"][p]) for p in first if first[p] > first[s] and p != banker)
            held = _value_hands(game, len(slots[s]), bought, stood, pub["stock"] + later > 0)
            if not held:
                raise ValueError("macao: the view is not consistent with any deal")
            constrained.append(s)
            hands.append(held)
    # the shortest lists first: exact counting then keeps fewer states
    ranked = sorted(range(len(hands)), key=lambda i: len(hands[i]))
    constrained = [constrained[i] for i in ranked]
    hands = [hands[i] for i in ranked]
    by_value: list[list[int]] = [[] for _ in range(10)]
    for c in range(52):
        by_value[VALUE[c]].extend([c] * unseen[c])
    sizes = [len(cs) for cs in by_value]
    upto = []
    for held in hands:
        weights = []
        for values in held:
            w = 1
            for v in range(10):
                w *= falling(sizes[v], values.count(v))
            weights.append(w)
        upto.append(list(itertools.accumulate(weights)))
        if not upto[-1][-1]:
            raise ValueError("macao: the view is not consistent with any deal")
    free = [p for s in slots if s not in constrained for p in slots[s]] + \
        list(range(rstart + len(dealt), len(DECK)))
    orders: list[dict[tuple[int, ...], list[tuple[int, ...]]]] = []
    for held in hands:
        by_counts: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for values in held:
            by_counts.setdefault(tuple(values.count(v) for v in range(10)), []).append(values)
        orders.append(by_counts)
    joint: JointCounts | None = None
    if len(hands) > 1 and _keep_rate(hands, upto, sizes) < 0.02:
        joint = JointCounts([[(c, len(vs)) for c, vs in by.items()] for by in orders], sizes,
                            ordered=True, budget=100_000)
        try:
            if not joint.ways():
                raise ValueError("macao: the view is not consistent with any deal")
            joint.budget = 1 << 62  # counted: drawing costs no more than that did
        except TooMuch:
            joint = None
    world = _World(order, [slots[s] for s in constrained], free, by_value, hands, upto,
                   [game.code_of(t) for _, t in view.history], orders, joint)
    _LAST.put(game, view, world)
    return world


def sample(game: Macao, view: View, rng: random.Random) -> MacaoDeal:
    """A deal consistent with ``view`` (what :meth:`Macao.sample_deal` returns)."""
    world = _prepare(game, view)
    order = list(world.order)
    left = [list(cs) for cs in world.by_value]
    if world.joint is not None:
        picks = [rng.choice(by[counts]) for by, counts in zip(world.orders, world.joint.draw(rng))]
    elif world.hands:
        # Each constrained punter's values drawn from the sequences that fit him, weighted by
        # the cards they name, as if the others' cards were still unseen; kept with probability
        # prod (a)_K / prod (a)_k over the values (a cards of the value, K taken in all, k by
        # one punter): the ratio of that law to the law of hands that share no card, so every
        # world is equally likely.
        drawn = draw_disjoint(world.hands, world.upto, [len(cs) for cs in left],
                              _count_of_value, rng)
        if drawn is None:
            raise ValueError("macao: the view is not consistent with any deal")
        picks = drawn
    if world.hands:
        for positions, values in zip(world.slots, picks):
            for p, v in zip(positions, values):
                order[p] = pop_random(left[v], rng)
    rest = [c for cs in left for c in cs]
    shuffle_fast(rest, rng.random)
    for p, c in zip(world.free, rest):
        order[p] = c
    deal = MacaoDeal.__new__(MacaoDeal)
    deal._init_base(game, view.dealer, 0, order, True)
    deal._start(order, chips=list(view.public["chips_at_start"]))
    for code in world.codes:
        deal.apply_code(code)
    return deal


def _card_id(text: str) -> int:
    return parse_card(text)
