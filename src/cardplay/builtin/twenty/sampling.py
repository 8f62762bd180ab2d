"""Twenty's ``sample_deal``: a deck order that replays a view's history to that very view."""

from __future__ import annotations

import itertools
import math
import random
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...cards import parse_card
from ...engine import View
from ..counting import (
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
    shuffle_fast,
)
from .codes import ALL_CARDS, DRAW, KING_RANK, LEAST_COUNT, PASS, PLAY_BASE
from .deal import TwentyDeal

if TYPE_CHECKING:
    from .game import Twenty

__all__ = ["sample_deal"]


# Every consistent world equally likely.
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
            mask = (code - PLAY_BASE) & ALL_CARDS
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
            return card % 13 == KING_RANK or LEAST_COUNT[card] == at
        return LEAST_COUNT[card] <= at

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
        if c % 13 != KING_RANK:
            by_value[LEAST_COUNT[c] - 1].append(c)
    valued = []
    for o in listed:
        passes = []
        for e, at in blocked[o]:
            reach = 1  # the sums the known cards held then make
            for card, left in known[o]:
                if left > e:
                    if card % 13 == KING_RANK:
                        raise _inconsistent()
                    reach |= reach << LEAST_COUNT[card]
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
            allows.append(sum(1 << c for c in unseen if c % 13 != KING_RANK))
        else:
            at = blocked[o][-1][1]
            allows.append(sum(1 << c for c in unseen if LEAST_COUNT[c] > at))
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


def sample_deal(game: Twenty, view: View, rng: random.Random,
                tries: int = 10_000) -> TwentyDeal:
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
            shuffle_fast(cards, rng.random)
            for p, c in zip(slots, cards):
                order[p] = c
            free[2 * o + 1] = []
        gone = {c for cards in taken.values() for c in cards}
        left = [c for c in world.unseen if c not in gone]
        shuffle_fast(left, rng.random)
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
