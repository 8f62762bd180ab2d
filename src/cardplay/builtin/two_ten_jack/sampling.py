"""Sampling a deal of Two-Ten-Jack consistent with a view (``TwoTenJackGame.sample_deal``),
for the searchers: each seat's cards get arrival times that the voids it showed allow, counted
and drawn exactly (:class:`DrawTimes`)."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from ...cards import cards_of_mask
from ...engine import Deal, View
from ..counting import LastPrepared, first_world, shuffle_fast
from .rules import (
    AS,
    AS_SPADES,
    CARD_KINDS,
    FOLLOWER_WINS,
    KIND_BITS,
    KIND_MASKS,
    TRUMPS,
    TwoTenJackDeal,
)

if TYPE_CHECKING:
    from .game import TwoTenJackGame

__all__ = ["DrawTimes", "SamplingPlan", "prepare_sampling", "sample_deal"]


class DrawTimes:
    """When each card of one seat reached its hand, counted and sampled exactly.

    Time 0 is the deal (six cards), time k (1..draws) the card drawn after the k-th trick; tricks
    are numbered from 0, so the cards a seat holds at trick j arrived at times 0..j. A card may
    arrive at any time in its window [lo, hi]: one played at trick j has hi = min(j, draws), one
    still held hi = draws; a seat that failed to follow at trick j held no card of the kinds it
    owed, so a card of those kinds that it held later has lo = j + 1 (the last such trick before
    the card was played counts). Unknown cards (the opponent's hand) are chosen from a pool, each
    pool card with its own lo.

    Every assignment of times is a distinct deck order, and all are equally likely, so a hand is
    as likely as the number of assignments that complete it. Counting goes backwards from the
    last draw: at time t the cards whose window has opened (hi >= t) and that are not yet placed
    can take slot t if their lo <= t; cards with the same lo are interchangeable by then, so the
    state is one count per distinct lo, which keeps the table small.
    """

    __slots__ = ("compositions", "draws", "join_counts", "joins", "los", "memo", "pool_groups",
                 "steps", "total")

    def __init__(self, draws: int, known: list[tuple[int, int, int]],
                 pool: list[tuple[int, int]], hand: int) -> None:
        los = sorted({lo for lo, _, _ in known} | {lo for lo, _ in pool})
        group = {lo: g for g, lo in enumerate(los)}
        self.draws = draws
        self.los = los
        self.joins: list[list[tuple[int, int]]] = [[] for _ in range(draws + 1)]
        for lo, hi, card in known:
            self.joins[hi].append((group[lo], card))
        counts = [[0] * len(los) for _ in range(draws + 1)]
        for t, joined in enumerate(self.joins):
            for g, _ in joined:
                counts[t][g] += 1
        self.join_counts = [tuple(c) for c in counts]
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.steps: dict[tuple[int, tuple[int, ...]],
                         tuple[int, list[tuple[int, int, int, tuple[int, ...]]]]] = {}
        self.pool_groups: list[list[int]] = [[] for _ in los]
        for lo, card in pool:
            self.pool_groups[group[lo]].append(card)
        # Every way to split the unknown hand over the lo groups, weighted by the number of
        # (hand, times) worlds it stands for.
        self.compositions: list[tuple[int, tuple[int, ...]]] = []
        self.total = 0
        sizes = [len(p) for p in self.pool_groups]

        def split(g: int, left: int, parts: list[int], ways: int) -> None:
            if g == len(sizes):
                if left == 0:
                    n = ways * self.count(draws, tuple(parts))
                    if n:
                        self.compositions.append((n, tuple(parts)))
                        self.total += n
                return
            for k in range(min(left, sizes[g]) + 1):
                parts.append(k)
                split(g + 1, left - k, parts, ways * math.comb(sizes[g], k))
                parts.pop()

        split(0, hand, [], 1)

    def count(self, t: int, state: tuple[int, ...]) -> int:
        """Ways to fill times t..0 from the unplaced cards ``state`` (per lo group, before the
        cards played at trick t join)."""
        key = (t, state)
        n = self.memo.get(key)
        if n is not None:
            return n
        s = [a + b for a, b in zip(state, self.join_counts[t], strict=True)]
        los = self.los
        n = 0
        if all(c == 0 or lo <= t for c, lo in zip(s, los, strict=True)):
            if t == 0:
                n = 1
            else:
                for g, c in enumerate(s):
                    if c and los[g] <= t:
                        s[g] = c - 1
                        n += c * self.count(t - 1, tuple(s))
                        s[g] = c
        self.memo[key] = n
        return n

    def _step(self, t: int, state: tuple[int, ...]
              ) -> tuple[int, list[tuple[int, int, int, tuple[int, ...]]]]:
        """Who can take slot t from ``state``: the total number of ways, and per lo group that
        can, (ways, group, ways per card of the group, the state left for time t - 1)."""
        s = [a + b for a, b in zip(state, self.join_counts[t], strict=True)]
        options = []
        for g, c in enumerate(s):
            if c and self.los[g] <= t:
                s[g] = c - 1
                rest = tuple(s)
                per_card = self.count(t - 1, rest)
                if per_card:
                    options.append((c * per_card, g, per_card, rest))
                s[g] = c
        entry = self.steps[(t, state)] = (self.count(t, state), options)
        return entry

    def sample(self, rng: random.Random) -> tuple[list[int], list[list[int]]]:
        """A uniformly drawn world: the unknown hand, and the cards that arrived at each time."""
        r = rng.randrange(self.total)
        parts = self.compositions[-1][1]
        for n, candidate in self.compositions:
            if r < n:
                parts = candidate
                break
            r -= n
        avail: list[list[int]] = [[] for _ in self.los]
        hand: list[int] = []
        for g, k in enumerate(parts):
            if k:
                chosen = rng.sample(self.pool_groups[g], k)
                hand += chosen
                avail[g] += chosen
        times: list[list[int]] = [[] for _ in range(self.draws + 1)]
        state = parts
        steps = self.steps
        for t in range(self.draws, 0, -1):
            for g, card in self.joins[t]:
                avail[g].append(card)
            entry = steps.get((t, state)) or self._step(t, state)
            options = entry[1]
            if len(options) == 1:  # one group can take the slot: any of its cards, alike
                _, g, _, state = options[0]
                pick = avail[g]
                i = rng.randrange(len(pick))
            else:
                r = rng.randrange(entry[0])
                for w, g, per_card, rest in options:
                    if r < w:
                        pick = avail[g]
                        i = r // per_card
                        state = rest
                        break
                    r -= w
            pick[i], pick[-1] = pick[-1], pick[i]
            times[t].append(pick.pop())
        for g, card in self.joins[0]:
            avail[g].append(card)
        times[0] = [c for a in avail for c in a]
        return hand, times


class SamplingPlan:
    """What sampling needs from one view, computed once."""

    __slots__ = ("codes", "draws", "opp", "own", "pool", "template", "winners")

    codes: list[int]
    draws: int
    opp: DrawTimes
    own: DrawTimes
    pool: list[int]
    winners: list[int]
    template: TwoTenJackDeal | None  # the first world after its replay


_PREPARED: LastPrepared[SamplingPlan] = LastPrepared()


def sample_deal(game: TwoTenJackGame, view: View, rng: random.Random) -> Deal:
    """A deal consistent with ``view``, drawn uniformly among the deck orders that are
    (see ``TwoTenJackGame.sample_deal``)."""
    prep = _PREPARED.get(game, view)
    if prep is None:
        prep = prepare_sampling(game, view)
        _PREPARED.put(game, view, prep)
    seat = view.seat
    _, own_times = prep.own.sample(rng)
    hidden, opp_times = prep.opp.sample(rng)
    hidden_mask = 0
    for c in hidden:
        hidden_mask |= 1 << c
    stock = [c for c in prep.pool if not hidden_mask >> c & 1]
    shuffle_fast(stock, rng.random)
    order = [0] * 52
    nd = 1 - view.dealer
    for s, times in ((seat, own_times), (1 - seat, opp_times)):
        first = times[0]
        shuffle_fast(first, rng.random)
        start = 0 if s == nd else 1
        for i, c in enumerate(first):
            order[start + 2 * i] = c
        for k in range(1, prep.draws + 1):
            order[12 + 2 * (k - 1) + (0 if prep.winners[k - 1] == s else 1)] = times[k][0]
    order[12 + 2 * prep.draws:] = stock
    template = prep.template
    if template is None:
        deal, prep.template = first_world(game, order, view.dealer, prep.codes, {},
                                          TwoTenJackDeal)
        return deal
    # Worlds of one view differ only where the view is blind: the opponent's hand, the stock's
    # order (and the record's deck order). Every move is public, so everything else the replay
    # made is the same in each.
    world = template.copy()
    assert isinstance(world, TwoTenJackDeal)
    world._order = tuple(order)
    world._stock = world._order[12:]
    world._hands[1 - seat] = hidden_mask
    return world


def prepare_sampling(game: TwoTenJackGame, view: View) -> SamplingPlan:
    """Read the public history once: who played what at which trick, the voids each seat
    showed, the trick winners (who draws first), and from them the arrival-time tables."""
    seat = view.seat
    opp = 1 - seat
    code_of = game.code_of
    played_at: list[dict[int, int]] = [{}, {}]
    voids: list[list[tuple[int, int]]] = [[], []]
    winners: list[int] = []
    codes: list[int] = []
    lead, kind, leader = -1, 0, 1 - view.dealer
    for s, text in view.history:
        code = code_of(text)
        codes.append(code)
        j = len(winners)
        if lead < 0:
            if code >= AS_SPADES:
                lead, kind = AS, code - AS_SPADES
            else:
                lead, kind = code, code // 13
            leader = s
            played_at[s][lead] = j
        else:
            played_at[s][code] = j
            bit = 1 << code
            if not bit & KIND_MASKS[kind]:
                kb = KIND_BITS[kind]
                if not bit & TRUMPS:
                    kb |= 2
                voids[s].append((j, kb))
            winners.append(s if FOLLOWER_WINS[lead * 52 + code] else leader)
            lead = -1
    draws = min(len(winners), 20)

    def earliest(s: int, card: int, when: int | None) -> int:
        # the draw after the last trick before ``when`` at which s was void in its kinds
        kinds = CARD_KINDS[card]
        lo = 0
        for j, kb in voids[s]:
            if kb & kinds and (when is None or j < when):
                lo = max(lo, j + 1)
        return lo

    def window(s: int, card: int, when: int | None) -> tuple[int, int, int]:
        return (earliest(s, card, when), draws if when is None else min(when, draws), card)

    own_hand = [int(c) for c in view.hand]
    known = 0
    for c in own_hand:
        known |= 1 << c
    for s in (0, 1):
        for c in played_at[s]:
            known |= 1 << c
    pool = cards_of_mask(((1 << 52) - 1) & ~known)
    own_known = [window(seat, c, p) for c, p in played_at[seat].items()]
    own_known += [window(seat, c, None) for c in own_hand]
    opp_known = [window(opp, c, p) for c, p in played_at[opp].items()]
    opp_pool = [(earliest(opp, c, None), c) for c in pool]
    plan = SamplingPlan()
    plan.own = DrawTimes(draws, own_known, [], 0)
    plan.opp = DrawTimes(draws, opp_known, opp_pool, 6 + draws - len(played_at[opp]))
    if not plan.own.total or not plan.opp.total:
        raise ValueError("two-ten-jack: no deal fits this view's cards and history")
    plan.pool = pool
    plan.codes = codes
    plan.draws = draws
    plan.winners = winners
    plan.template = None
    return plan

# ---- match rules
