"""``sample_deal`` of Chukhny: every deck order consistent with a view, equally likely."""

from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...cards import cards_of_mask, mask_of, parse_card
from ...engine import View
from ..counting import (
    LastPrepared,
    SlotMove,
    SlotStep,
    choose_step,
    known_card_moves,
    open_slot,
    pop_random,
    shuffle_fast,
)
from .deal import ChukhnyDeal
from .timeline import public_timeline

if TYPE_CHECKING:
    from .game import Chukhny

__all__ = ["sample_consistent_deal"]

_INF = 1 << 30  # the time a card still held leaves the hand

# sample_deal: every consistent world equally likely
#
# A world is a deck order. Its first cards (the turned-up start and every shown draw) are
# public; the other drawn positions are the seats' failed draws ("slots", in time order per
# seat) and the rest is the undrawn stock. A slot holds either a card known to be that seat's
# (played from the hand without being known there, the viewer's own, any card of a hand shown
# at the end) or an unseen card that the seat still holds. A card can sit in a slot only if the
# seat, holding it from then on, never showed that it lacked its rank (a draw while that rank
# was needed, or a take): so a known card may come from an interval of slots, and an unseen
# card may sit in the slots from some first one on. Every filling of the slots leaves the same
# number of stock orders, so the worlds are equally likely exactly when the fillings are.


# One seat's counting tables for one histogram: the unseen cards available at each slot, the
# number of fillings from each state on, and each state's choices with their running weights.
_Table = tuple[list[int], dict[Any, int], dict[Any, SlotStep]]


class _SeatSlots:
    """One seat's slots, the known cards among them and the unseen cards it may hold.

    ``known``: (card, lo, hi), the slot indices the card may have come from; ``first[card]``:
    the first slot an unseen card may sit in (no entry: it cannot be this seat's); ``holds``:
    how many unseen cards fill the other slots. The number of fillings depends on the unseen
    cards only through their *histogram*: how many have each distinct first slot (``levels``).
    """

    def __init__(self, positions: list[int], known: list[tuple[int, int, int]],
                 first: dict[int, int], holds: int) -> None:
        self.positions = positions
        self.first = first
        self.holds = holds
        self.levels = sorted(set(first.values()))
        index = {s: i for i, s in enumerate(self.levels)}
        self.level_of = {c: index[s] for c, s in first.items()}
        size = len(positions)
        opening: list[list[tuple[int, int]]] = [[] for _ in range(size)]
        for card, lo, hi in known:
            opening[lo].append((card, hi))
        self.opening = opening
        self.opens = [tuple(sorted(hi for _, hi in o)) for o in opening]
        cum = [0]
        for o in opening:
            cum.append(cum[-1] + len(o))
        self.cum = cum  # cum[j]: known cards whose interval starts before slot j
        # Every filling fits when every card may sit anywhere: then any order is one.
        self.unconstrained = self.levels in ([], [0]) and \
            all(lo == 0 and hi == size - 1 for _, lo, hi in known)
        self._tables: dict[tuple[int, ...], _Table] = {}

    def histogram(self, cards: list[int]) -> tuple[int, ...]:
        hist = [0] * len(self.levels)
        for c in cards:
            hist[self.level_of[c]] += 1
        return tuple(hist)

    def _table(self, hist: tuple[int, ...]) -> _Table:
        t = self._tables.get(hist)
        if t is None:
            free_at = [sum(k for s, k in zip(self.levels, hist) if s <= j)
                       for j in range(len(self.positions))]
            t = self._tables[hist] = (free_at, {}, {})
        return t

    def _moves(self, j: int, pend: tuple[int, ...],
               free_at: list[int]) -> list[SlotMove]:
        """The ways to fill slot ``j`` when ``pend`` (sorted) are the last slots of the known
        cards not yet placed: (multiplicity, pending afterwards, last slot of the known card
        placed, or -1 for an unseen card)."""
        pend, due = open_slot(j, pend, self.opens[j])
        out: list[SlotMove] = []
        if not due:
            unseen = free_at[j] - (j - self.cum[j + 1] + len(pend))
            if unseen > 0:
                out.append((unseen, pend, -1))
        out.extend(known_card_moves(pend, due))
        return out

    def _ways(self, j: int, pend: tuple[int, ...], free_at: list[int],
              memo: dict[Any, int]) -> int:
        if j == len(self.positions):
            return 0 if pend else 1
        key = (j, pend)
        r = memo.get(key)
        if r is None:
            r = 0
            for mult, after, _ in self._moves(j, pend, free_at):
                r += mult * self._ways(j + 1, after, free_at, memo)
            memo[key] = r
        return r

    def count(self, hist: tuple[int, ...]) -> int:
        """The number of fillings of the slots with unseen cards of this histogram."""
        free_at, memo, _ = self._table(hist)
        return self._ways(0, (), free_at, memo)

    def fill(self, cards: list[int], rng: random.Random) -> list[int]:
        """A uniformly chosen filling of the slots with the known cards and ``cards``."""
        if self.unconstrained:
            out = [card for o in self.opening for card, _ in o] + cards
            shuffle_fast(out, rng.random)
            return out
        free_at, memo, steps = self._table(self.histogram(cards))

        def moves(j: int, pend: tuple[int, ...]) -> list[SlotMove]:
            return self._moves(j, pend, free_at)

        def completions(j: int, pend: tuple[int, ...]) -> int:
            return self._ways(j, pend, free_at, memo)

        arriving: dict[int, list[int]] = {}
        for c in cards:
            arriving.setdefault(self.first[c], []).append(c)
        pool: list[int] = []
        waiting: dict[int, list[int]] = {}  # known cards by their last slot
        pend: tuple[int, ...] = ()
        out = []
        for j in range(len(self.positions)):
            pool.extend(arriving.get(j, ()))
            for card, hi in self.opening[j]:
                waiting.setdefault(hi, []).append(card)
            pend, hi = choose_step(steps, j, pend, moves, completions, rng)
            out.append(pop_random(pool if hi < 0 else waiting[hi], rng))
        return out


def _multinomial(total: int, parts: list[int]) -> int:
    r = math.factorial(total) // math.factorial(total - sum(parts))
    for k in parts:
        r //= math.factorial(k)
    return r


class _Families:
    """The ways to share the unseen cards out among boxes, and a uniform draw of one of them.

    A box belongs to a seat (``box_seat``); seat ``q`` takes exactly ``need[q]`` cards in all
    its boxes. ``regions`` group the cards that may go to the same boxes (at most one box per
    seat); a card in no box stays in the stock. A way to share counts
    ``weight(cards per box)`` times. The regions are taken smallest first and the largest
    last: once the others are shared out, the largest one's shares are forced, so only the
    small regions are enumerated.
    """

    def __init__(self, need: list[int], box_seat: list[int],
                 regions: list[tuple[list[int], tuple[int, ...]]],
                 weight: Callable[[tuple[int, ...]], int]) -> None:
        regs = sorted((r for r in regions if r[1]), key=lambda r: len(r[0]))
        self.regions = regs
        self.need = need
        self.box_seat = box_seat
        self.weight = weight
        room = [[0] * len(need)]  # room[i][q]: cards of regions i.. that seat q may take
        for cards, boxes in reversed(regs):
            row = room[0][:]
            for b in boxes:
                row[box_seat[b]] += len(cards)
            room.insert(0, row)
        self.room = room
        self.memo: dict[Any, int] = {}
        self.total = self._ways(0, (0,) * len(box_seat))

    def _taken(self, state: tuple[int, ...]) -> list[int]:
        taken = [0] * len(self.need)
        for b, k in enumerate(state):
            taken[self.box_seat[b]] += k
        return taken

    def _last(self, state: tuple[int, ...]) -> tuple[int, list[int]]:
        """The forced shares of the last region: (ways, cards per box of the region)."""
        taken = self._taken(state)
        if not self.regions:
            return (self.weight(state) if taken == self.need else 0), []
        cards, boxes = self.regions[-1]
        new = list(state)
        parts = []
        for b in boxes:
            q = self.box_seat[b]
            k = self.need[q] - taken[q]
            if k < 0:
                return 0, []
            parts.append(k)
            new[b] += k
            taken[q] += k
        if taken != self.need or sum(parts) > len(cards):
            return 0, []
        return _multinomial(len(cards), parts) * self.weight(tuple(new)), parts

    def _shares(self, i: int,
                state: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], list[int]]]:
        """The ways to share region ``i``: (multiplicity, state afterwards, cards per box)."""
        cards, boxes = self.regions[i]
        need, room, seat_of = self.need, self.room[i + 1], self.box_seat
        taken = self._taken(state)
        out: list[tuple[int, tuple[int, ...], list[int]]] = []

        def go(t: int, left: int, mult: int, new: list[int], parts: list[int]) -> None:
            if t == len(boxes):
                after = self._taken(tuple(new))
                if all(after[q] + room[q] >= need[q] for q in range(len(need))):
                    out.append((mult, tuple(new), list(parts)))
                return
            b = boxes[t]
            q = seat_of[b]
            for k in range(min(left, need[q] - taken[q]) + 1):
                new[b] += k
                taken[q] += k
                parts.append(k)
                go(t + 1, left - k, mult * math.comb(left, k), new, parts)
                parts.pop()
                taken[q] -= k
                new[b] -= k

        go(0, len(cards), 1, list(state), [])
        return out

    def _ways(self, i: int, state: tuple[int, ...]) -> int:
        if i >= len(self.regions) - 1:
            return self._last(state)[0]
        key = (i, state)
        r = self.memo.get(key)
        if r is None:
            r = sum(m * self._ways(i + 1, after) for m, after, _ in self._shares(i, state))
            self.memo[key] = r
        return r

    def draw(self, rng: random.Random) -> list[list[int]]:
        """One way to share, uniformly among all (each weighted): the cards of each box."""
        out: list[list[int]] = [[] for _ in self.box_seat]
        state = (0,) * len(self.box_seat)
        for i, (cards, boxes) in enumerate(self.regions):
            if i == len(self.regions) - 1:
                parts = self._last(state)[1]
            else:
                shares = self._shares(i, state)
                weights = [m * self._ways(i + 1, after) for m, after, _ in shares]
                r = rng.randrange(sum(weights))
                k = 0
                while r >= weights[k]:
                    r -= weights[k]
                    k += 1
                _, state, parts = shares[k]
            picked = rng.sample(cards, sum(parts))
            at = 0
            for b, k in zip(boxes, parts):
                out[b].extend(picked[at:at + k])
                at += k
        return out


@dataclass
class _World:
    """What every world of one view shares, prepared once per view."""

    order: list[int]           # the public cards in place, -1 elsewhere
    stock: list[int]           # the undrawn positions
    unseen: list[int]
    seats: list[_SeatSlots]
    active: list[int]          # the seats holding unseen cards, in the order they are dealt
    allowed: list[int]         # per active seat, the mask of unseen cards it may hold
    share_bound: int           # bounds the product of the choices of the seats' shares
    fill_bounds: list[int]     # per active seat, the most fillings any share allows
    codes: list[int]           # the history's moves
    exact: _Families | None = None  # by (seat, first slot); built when first needed
    exact_boxes: list[list[int]] = field(default_factory=list)


_LAST: LastPrepared[_World] = LastPrepared()


def _inconsistent() -> ValueError:
    return ValueError("chukhny: the view is not consistent with any deal")


def _prepare(game: Chukhny, view: View) -> _World:
    cached = _LAST.get(game, view)
    if cached is not None:
        return cached
    n = view.players
    pub = view.public
    tl = public_timeline(game, view)
    size = len(game.cards)
    order = [-1] * size
    placed = 0
    pos = 0
    for c in tl.start:
        order[pos] = c
        placed |= 1 << c
        pos += 1
    draw_pos: dict[int, int] = {}   # history index of a failed draw -> deck position
    for h, _seat, shown in tl.draw_cards:
        if shown >= 0:
            order[pos] = shown
            placed |= 1 << shown
        else:
            draw_pos[h] = pos
        pos += 1
    # Cards whose seat is known, with the time they left the hand (_INF: still held): played
    # from a hand without being known there, the seat's own, and every hand shown at the end.
    must: list[list[tuple[int, int]]] = [list(p) for p in tl.played_private]
    held: list[int] = [0] * n
    held[view.seat] = mask_of(int(c) for c in view.hand)
    if view.is_over and "hands" in pub:
        for q in range(n):
            held[q] = mask_of(parse_card(c) for c in pub["hands"][q])
    for q in range(n):
        for c in cards_of_mask(held[q] & ~tl.known[q]):
            must[q].append((c, _INF))
    unseen = game.deck_mask & ~placed
    for q in range(n):
        for c, _t in must[q]:
            unseen &= ~(1 << c)
    seats = []
    for q in range(n):
        times = tl.failed[q]
        ev = tl.events[q]
        # lacked[k]: the cards the seat showed it lacked from its k-th event on
        lacked = [0] * (len(ev) + 1)
        for k in range(len(ev) - 1, -1, -1):
            lacked[k] = lacked[k + 1] | ev[k][1]
        first: dict[int, int] = {}
        k = 0
        seen = 0
        for j, h in enumerate(times):
            while k < len(ev) and ev[k][0] < h:
                k += 1
            fits = unseen & ~lacked[k] & ~seen
            seen |= fits
            for c in cards_of_mask(fits):
                first[c] = j
        known = []
        for card, t in must[q]:
            last = -1  # the seat's last event before t that the card would have met
            for time, m in ev:
                if time >= t:
                    break
                if m >> card & 1:
                    last = time
            lo = bisect_right(times, last)
            hi = bisect_left(times, t) - 1
            if lo > hi:
                raise _inconsistent()
            known.append((card, lo, hi))
        holds = len(times) - len(known)
        if holds < 0:
            raise _inconsistent()
        seats.append(_SeatSlots([draw_pos[h] for h in times], known, first, holds))
    active = [q for q in range(n) if seats[q].holds]
    for q in range(n):
        if q not in active and seats[q].count(()) == 0:
            raise _inconsistent()
    unseen_cards = cards_of_mask(unseen)
    allowed = [mask_of(seats[q].first) for q in active]
    need = [seats[q].holds for q in active]
    # The seats' shares are dealt one seat after another, each uniformly among the unseen
    # cards left that it may hold; a share then has probability 1 / (the product of the
    # numbers of choices), and is kept with probability (that product) / share_bound. Its
    # bound: the unseen cards left that a seat may hold are at most all it may hold, less the
    # cards dealt before, plus those of them it may not hold. The order with the lowest bound
    # keeps the most shares.
    perm, share_bound = _dealing_order(unseen, allowed, need)
    if not share_bound and active:
        raise _inconsistent()
    fill_bounds = []
    for q in active:
        # The most fillings any share allows: the unseen cards with the earliest first slots
        # (a card allowed in more slots never lowers the count).
        seat = seats[q]
        left = seat.holds
        most = []
        for level in range(len(seat.levels)):
            k = min(left, sum(1 for lv in seat.level_of.values() if lv == level))
            most.append(k)
            left -= k
        most_fillings = seat.count(tuple(most))
        if not most_fillings:
            raise _inconsistent()
        fill_bounds.append(most_fillings)
    world = _World(order, list(range(pos, size)), unseen_cards, seats,
                   [active[i] for i in perm], [allowed[i] for i in perm], share_bound,
                   [fill_bounds[i] for i in perm], [game.code_of(t) for _, t in view.history])
    _LAST.put(game, view, world)
    return world


def _dealing_order(unseen: int, allowed: list[int], need: list[int]) -> tuple[list[int], int]:
    """The order of the seats whose shares have the lowest bound, and that bound (0: none can
    be dealt). The bound of a seat's choices depends only on the seats dealt before it, so the
    best order is found over subsets of seats (up to 12 seats; beyond, the largest shares
    first)."""
    m = len(need)
    full = 1 << min(m, 12)
    dealt = [0] * full   # per subset of seats dealt before: their cards, their allowed cards
    reach = [0] * full
    for before in range(1, full):
        low = (before & -before).bit_length() - 1
        dealt[before] = dealt[before & (before - 1)] + need[low]
        reach[before] = reach[before & (before - 1)] | allowed[low]

    def factor(i: int, before: int) -> int:
        spare = min((unseen & ~allowed[i] & reach[before]).bit_count(), dealt[before])
        return math.comb(allowed[i].bit_count() - dealt[before] + spare, need[i])

    if m > 12:
        order = sorted(range(m), key=lambda i: -need[i])
        bound = 1
        total = spread = 0
        for i in order:
            spare = min((unseen & ~allowed[i] & spread).bit_count(), total)
            bound *= math.comb(allowed[i].bit_count() - total + spare, need[i])
            total += need[i]
            spread |= allowed[i]
        return order, bound
    best: dict[int, tuple[int, int]] = {(1 << m) - 1: (1, -1)}  # dealt -> (bound, next seat)
    for before in range((1 << m) - 2, -1, -1):
        choice = (0, -1)
        for i in range(m):
            if not before >> i & 1:
                rest = best[before | 1 << i][0]
                b = factor(i, before) * rest if rest else 0
                if b and (not choice[0] or b < choice[0]):
                    choice = (b, i)
        best[before] = choice
    order = []
    before = 0
    while len(order) < m and best[before][1] >= 0:
        i = best[before][1]
        order.append(i)
        before |= 1 << i
    return order, best[0][0]


def _by_rejection(rng: random.Random, world: _World,
                  tries: int = 1000) -> list[list[int]] | None:
    """The unseen cards of each active seat, uniformly among the consistent worlds.

    A try deals each seat's share as :func:`_prepare` describes and keeps it with probability
    ``choices / share_bound``, then with probability ``fillings / fill_bound`` for each seat
    whose slots do not all allow the same unseen cards: so every world is kept with the same
    probability. None after ``tries`` failed tries (none of the views of random games needed
    more than a few dozen).
    """
    seats, need = world.seats, [world.seats[q].holds for q in world.active]
    everything = mask_of(world.unseen)
    for _ in range(tries):
        left = everything
        choices = 1
        shares = []
        for i, mask in enumerate(world.allowed):
            fits = cards_of_mask(mask & left)
            if len(fits) < need[i]:
                break
            choices *= math.comb(len(fits), need[i])
            share = rng.sample(fits, need[i])
            left &= ~mask_of(share)
            shares.append(share)
        else:
            assert choices <= world.share_bound  # else the kept shares would not be uniform
            if rng.randrange(world.share_bound) >= choices:
                continue
            for i, q in enumerate(world.active):
                seat = seats[q]
                if len(seat.levels) > 1 and rng.randrange(world.fill_bounds[i]) >= \
                        seat.count(seat.histogram(shares[i])):
                    break
            else:
                return shares
    return None


def _by_counting(rng: random.Random, world: _World) -> list[list[int]]:
    """The same law as :func:`_by_rejection` without rejection: the unseen cards are shared
    out among (seat, first slot) boxes, each way weighted by the number of fillings it leaves.
    Exact counting is slow when several seats hold many cards (seconds in the worst views of
    six or more players), so it serves only when the rejections keep failing."""
    seats, active = world.seats, world.active
    if world.exact is None:
        box_seat: list[int] = []
        box_of: list[list[int]] = []
        for i, q in enumerate(active):
            box_of.append(list(range(len(box_seat), len(box_seat) + len(seats[q].levels))))
            box_seat.extend([i] * len(seats[q].levels))
        groups: dict[tuple[int, ...], list[int]] = {}
        for c in world.unseen:
            boxes = tuple(box_of[i][seats[q].level_of[c]]
                          for i, q in enumerate(active) if c in seats[q].first)
            groups.setdefault(boxes, []).append(c)

        def weight(state: tuple[int, ...]) -> int:
            w = 1
            for i, q in enumerate(active):
                w *= seats[q].count(tuple(state[b] for b in box_of[i]))
            return w

        world.exact = _Families([seats[q].holds for q in active], box_seat,
                                [(cards, boxes) for boxes, cards in groups.items()], weight)
        world.exact_boxes = box_of
    if not world.exact.total:
        raise _inconsistent()
    boxes_cards = world.exact.draw(rng)
    box_of = world.exact_boxes
    return [[c for b in box_of[i] for c in boxes_cards[b]] for i in range(len(active))]


def sample_consistent_deal(game: Chukhny, view: View, rng: random.Random) -> ChukhnyDeal:
    """``Chukhny.sample_deal``: a deck order drawn uniformly among those that replay the history
    to ``view``, with the history replayed on it."""
    world = _prepare(game, view)
    shares = _by_rejection(rng, world)
    if shares is None:
        shares = _by_counting(rng, world)
    order = list(world.order)
    share_of = dict(zip(world.active, shares))
    used = 0
    for q, seat in enumerate(world.seats):
        if not seat.positions:
            continue
        mine = share_of.get(q, [])
        for c in mine:
            used |= 1 << c
        for p, c in zip(seat.positions, seat.fill(mine, rng)):
            order[p] = c
    rest = [c for c in world.unseen if not used >> c & 1]
    shuffle_fast(rest, rng.random)
    for p, c in zip(world.stock, rest):
        order[p] = c
    deal = game._deal_from_order(order, view.dealer, 0, True, {})
    assert isinstance(deal, ChukhnyDeal)
    for code in world.codes:
        deal.apply_code(code)
    return deal
