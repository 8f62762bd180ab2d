"""Macao heuristic bot: exact expected values from the cards not yet seen.

The shoe is never reshuffled during a bank and every card of a finished round is turned face up,
so a punter knows exactly which cards are still unseen: the 104-card shoe minus the used cards,
his own cards and any bust hand lying face up. The banker's hidden card, the other punters'
hidden cards and the rest of the shoe are a uniformly random arrangement of that unseen multiset
(exchangeable positions), so the banker's card and the next card bought are two draws without
replacement from it. Only card *values* matter (A = 1, 2-9 pips, tens and courts 0), so the unseen
multiset is kept as ten counts.

* **Buy or stand**: the exact expected payoff of standing (one draw: the banker's card) against
  buying (two draws: the bought card, then the banker's card), in units of the stake; under
  ``naturals`` a banker's natural collects its multiple; under ``multi_buy`` the buy value is an
  exact expectimax over every further buy (busting over 9 loses at once).
* **Stake**: the exact expected payoff of the round for this punter at staking time (before the
  deal: over his unknown first card as well; with ``after_first_card``: given his first card),
  playing the buy/stand policy above (or the compulsory one under ``forced_draw``). A positive
  edge stakes the most allowed, otherwise the least.

The banker has no decisions. Outcome counts are exact integers (tests compare them with brute-force
enumeration); a distribution is a list of 7 counts for payoffs -3..+3 stakes and a denominator.
Other punters' decisions (informative only under ``forced_draw``/``naturals``) are not used.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache, lru_cache

from ...builtin.macao import VALUE
from ...cards import format_card
from ...engine import Game, Move, View

__all__ = [
    "HeuristicBot",
    "buy_dist",
    "exact_values",
    "multi_buy_ev",
    "payoff",
    "round_dist",
    "stand_dist",
    "unseen_counts",
]

Dist = tuple[list[int], int]  # counts of payoffs -3..+3 (index payoff + 3), denominator

_TEXT_VALUE = {format_card(c): VALUE[c] for c in range(52)}
#: Value counts of the full 104-card shoe: 32 cards worth 0, 8 of each value 1..9.
FULL_COUNTS: tuple[int, ...] = tuple(2 * sum(1 for c in range(52) if VALUE[c] == v)
                                     for v in range(10))


@cache
def payoff(vp: int, p_natural: bool, vb: int, naturals: bool) -> int:
    """The punter's payoff in stakes: hand value ``vp`` (a natural or not) against banker ``vb``."""
    if naturals:
        bn = vb >= 7
        if p_natural and bn:
            return vp - 6 if vp > vb else (-(vb - 6) if vb > vp else 0)
        if p_natural:
            return vp - 6
        if bn:
            return -(vb - 6)
    return 1 if vp > vb else (-1 if vp < vb else 0)


def unseen_counts(view: View) -> list[int]:
    """Counts by value (0..9) of the cards this seat has not seen (the banker's card included)."""
    cnt = list(FULL_COUNTS)
    pub = view.public
    tv = _TEXT_VALUE
    for t in pub["used"]:
        cnt[tv[t]] -= 1
    shown = pub["shown"]
    for p, cs in enumerate(shown):
        if p == view.seat:
            continue
        for t in cs:
            cnt[tv[t]] -= 1
    for c in view.hand:
        cnt[VALUE[c]] -= 1
    return cnt


# _ROWS[naturals][punter natural][punter value][banker value] = payoff + 3 (an index into a Dist)
_ROWS = [[[[payoff(vp, bool(pn), vb, bool(nat)) + 3 for vb in range(10)] for vp in range(10)]
          for pn in (0, 1)] for nat in (0, 1)]


def stand_dist(v: int, natural: bool, cnt: Sequence[int], naturals: bool = False) -> Dist:
    """Exact outcome counts of standing on value ``v``: the banker's card is one draw from
    ``cnt``; the denominator is the number of unseen cards."""
    row = _ROWS[naturals][natural][v]
    out = [0] * 7
    for b in range(10):
        c = cnt[b]
        if c:
            out[row[b]] += c
    return out, sum(cnt)


def buy_dist(v: int, cnt: Sequence[int], naturals: bool = False) -> Dist:
    """Exact outcome counts of buying one card on value ``v`` (single-buy Macao): the bought card
    and the banker's card are two ordered draws without replacement from ``cnt``."""
    rows = _ROWS[naturals][False]
    out = [0] * 7
    for x in range(10):
        cx = cnt[x]
        if not cx:
            continue
        row = rows[(v + x) % 10]
        for b in range(10):
            cb = cnt[b]
            if cb:
                out[row[b]] += cx * cb
        out[row[x]] -= cx   # the banker's card is not the bought one
    t = sum(cnt)
    return out, t * (t - 1)


def _ev(d: Dist) -> float:
    counts, den = d
    return sum((k - 3) * c for k, c in enumerate(counts)) / den if den else 0.0


def _num(d: Dist) -> int:
    return sum((k - 3) * c for k, c in enumerate(d[0]))


def decide_dist(v1: int, cnt: Sequence[int], naturals: bool,
                forced_draw: bool) -> tuple[bool, Dist]:
    """Whether to buy on a first card worth ``v1`` (single buy) and the resulting outcome counts
    over the denominator t*(t-1) (t = unseen cards, the first card excluded)."""
    t = sum(cnt)
    natural = naturals and v1 >= 7
    sd = stand_dist(v1, natural, cnt, naturals)
    stand_scaled = ([c * (t - 1) for c in sd[0]], t * (t - 1))
    if natural or t < 2:
        return False, stand_scaled
    if forced_draw:
        return (True, buy_dist(v1, cnt, naturals)) if v1 <= 6 else (False, stand_scaled)
    bd = buy_dist(v1, cnt, naturals)
    if _num(bd) > _num(stand_scaled):
        return True, bd
    return False, stand_scaled


@lru_cache(maxsize=8192)
def _round_ev(cnt: tuple[int, ...], naturals: bool, forced_draw: bool) -> float:
    # Rollout bots ask the same staking question many times over (the same unseen cards in
    # every candidate's rollout), and a round's distribution costs about a millisecond.
    return _ev(round_dist(cnt, naturals, forced_draw))


def round_dist(cnt: Sequence[int], naturals: bool = False, forced_draw: bool = False) -> Dist:
    """Exact outcome counts of a whole round for a punter at staking time (before the deal), who
    will then buy or stand as :func:`decide_dist` says: the first card, the bought card and the
    banker's card are ordered draws without replacement; denominator t*(t-1)*(t-2)."""
    out = [0] * 7
    t = sum(cnt)
    rest = list(cnt)
    for v1 in range(10):
        c1 = cnt[v1]
        if not c1:
            continue
        rest[v1] -= 1
        _, (counts, _den) = decide_dist(v1, rest, naturals, forced_draw)
        rest[v1] += 1
        for k in range(7):
            out[k] += c1 * counts[k]
    return out, t * (t - 1) * (t - 2)


class MultiBuySolver:
    """``multi_buy``: exact expectimax over further buys, from the unseen value counts ``base``.

    A state is the punter's plain total ``s``, the number ``z`` of zero-value cards and the sorted
    tuple ``nz`` of the other values he has drawn from ``base`` so far; the next card and the
    banker's card are draws without replacement from what is left; a total over 9 busts and loses
    one stake at once; at most ``limit`` cards are drawn from ``base`` in all. Every later
    decision is optimal (or as ``forced_draw`` compels). A state whose stand value already reaches
    the best that any buy could give (1 - 2 P(bust now)) stands without expanding: the pruning
    never changes a value.
    """

    def __init__(self, base: Sequence[int], limit: int, naturals: bool = False,
                 forced_draw: bool = False) -> None:
        self.base = tuple(base)
        self.total = sum(base)
        self.limit = limit
        self.naturals = naturals
        self.forced = forced_draw
        self.memo: dict[tuple[int, int, tuple[int, ...]], float] = {}
        # pay[s][b]: a non-natural total s against the banker's b; natural payoffs apart.
        self.pay = [[payoff(v, False, b, naturals) for b in range(10)] for v in range(10)]
        self.sums = [sum(c * p for c, p in zip(self.base, row)) for row in self.pay]
        self.busts = [sum(self.base[10 - v:]) if v else 0 for v in range(10)]

    @staticmethod
    def split(d: Sequence[int]) -> tuple[int, tuple[int, ...]]:
        """Value counts -> (zeros, sorted tuple of the other values)."""
        return d[0], tuple(v for v in range(1, 10) for _ in range(d[v]))

    def stand(self, s: int, natural: bool, z: int = 0, nz: tuple[int, ...] = ()) -> float:
        left = list(self.base)
        left[0] -= z
        for v in nz:
            left[v] -= 1
        t = sum(left)
        acc = sum(c * payoff(s, natural, b, self.naturals) for b, c in enumerate(left))
        return acc / t if t else 0.0

    def buy(self, s: int, z: int, nz: tuple[int, ...]) -> float:
        """The value of buying now (``-inf`` when no card can be bought)."""
        drawn = z + len(nz)
        t = self.total - drawn
        if drawn >= self.limit or t < 2:
            return float("-inf")
        base = self.base
        value = self.value
        pay, sums, busts, forced = self.pay, self.sums, self.busts, self.forced
        acc = 0.0
        c0 = base[0] - z
        if c0:
            acc += c0 * value(s, z + 1, nz)
        tc = t - 1  # unseen cards once the next one is drawn
        for x in range(1, 10):
            cx = base[x] - nz.count(x) if x in nz else base[x]
            if not cx:
                continue
            ns = s + x
            if ns > 9:
                acc -= cx
                continue
            # The child's stand value inline: most children stand (pruned, or forced on 7-9),
            # and this skips building their state.
            row = pay[ns]
            lim = 10 - ns
            a = sums[ns] - z * row[0] - row[x]
            bu = busts[ns] - (x >= lim)
            for v in nz:
                a -= row[v]
                if v >= lim:
                    bu -= 1
            if forced:
                if ns >= 7:
                    acc += cx * a / tc
                    continue
            elif a >= tc - 2 * bu:
                acc += cx * a / tc
                continue
            acc += cx * value(ns, z, tuple(sorted((*nz, x))))
        return acc / t

    def value(self, s: int, z: int, nz: tuple[int, ...]) -> float:
        """The value of a non-natural hand worth ``s`` before its next decision."""
        key = (s, z, nz)
        memo = self.memo
        r = memo.get(key)
        if r is not None:
            return r
        row = self.pay[s]
        t = self.total - z - len(nz)
        acc = self.sums[s] - z * row[0]
        bust = self.busts[s]
        lim = 10 - s
        for v in nz:
            acc -= row[v]
            if v >= lim:
                bust -= 1
        st = acc / t if t else 0.0
        if self.forced:
            r = st
            if s <= 6:
                bu = self.buy(s, z, nz)
                if bu != float("-inf"):
                    r = bu
        elif t and acc >= t - 2 * bust:
            r = st
        else:
            r = max(st, self.buy(s, z, nz))
        memo[key] = r
        return r

    def decision(self, s: int, natural: bool = False,
                 d: Sequence[int] | None = None) -> tuple[float, float]:
        """(stand, buy) values at a decision on total ``s`` after drawing ``d`` (value counts)
        from ``base``; buy is ``-inf`` when not allowed."""
        z, nz = self.split(d) if d is not None else (0, ())
        if natural:
            return self.stand(s, True, z, nz), float("-inf")
        return self.stand(s, False, z, nz), self.buy(s, z, nz)

    def policy_value(self, s: int, natural: bool, d: Sequence[int]) -> float:
        """The value of a fresh hand under the bot's (or the compulsory) policy."""
        z, nz = self.split(d)
        if natural:
            return self.stand(s, True, z, nz)
        return self.value(s, z, nz)


def multi_buy_ev(total: int, cnt: Sequence[int], shoe: int, naturals: bool = False,
                 forced_draw: bool = False, natural: bool = False) -> tuple[float, float]:
    """``multi_buy``: the exact expected payoffs (stand, buy) on a plain total ``total`` with the
    unseen value counts ``cnt`` and ``shoe`` cards left to buy, playing every later decision
    optimally (or as ``forced_draw`` compels); buy is ``-inf`` when not allowed."""
    return MultiBuySolver(cnt, shoe, naturals, forced_draw).decision(total, natural)


def multi_round_ev(cnt: Sequence[int], shoe: int, naturals: bool = False,
                   forced_draw: bool = False, solver: MultiBuySolver | None = None) -> float:
    """``multi_buy``: the expected payoff of a round at staking time, over the first card too
    (``shoe`` cards can be bought after it)."""
    t = sum(cnt)
    if solver is None:
        solver = MultiBuySolver(cnt, shoe + 1, naturals, forced_draw)
    acc = 0.0
    for v1 in range(10):
        c1 = cnt[v1]
        if c1:
            d = tuple(int(v == v1) for v in range(10))
            acc += c1 * solver.policy_value(v1, naturals and v1 >= 7, d)
    return acc / t if t else 0.0


class HeuristicBot:
    """Exact expected-value punter: buy/stand and stake size from the unseen cards.

    ``protect_lead``: when set, in the contest's last bank (a deal played alone, or a match's
    last banker in the rotation) a punter whose chips (a banker's counting his bank) exceed
    every other seat's by more than this many stakes the minimum even on a positive edge. The
    contest goes to the highest score, not the most expected chips, and at its end a lead that
    large is worth more kept than grown. Earlier in a match the same rule loses: the other
    punters keep winning from the later banks while the leader stakes the minimum (issue 33,
    docs/bots.md, "Every game with something to find")."""

    def __init__(self, game: Game, seed: int | None = None,
                 protect_lead: int | None = None) -> None:
        self.game = game
        self.protect_lead = protect_lead
        self.rng = random.Random(seed)
        o = game.options
        self.naturals = bool(o.naturals)
        self.forced = bool(o.forced_draw)
        self.multi = bool(o.multi_buy)
        self.after_first = o.stake_timing == "after_first_card"
        self._solver_key: tuple[tuple[int, ...], int] | None = None
        self._solver: MultiBuySolver | None = None

    def choose(self, view: View) -> Move:
        legal = view.legal_moves
        if not legal:
            raise ValueError("macao HeuristicBot was asked to move when its seat has no move")
        if len(legal) == 1:
            return legal[0]
        pub = view.public
        cnt = unseen_counts(view)
        if pub["phase"] == "stake":
            if self.protect_lead is not None and self.last_bank(view) \
                    and self.lead(view) > self.protect_lead:
                return legal[0]
            edge = self.stake_edge(view, cnt)
            return legal[-1] if edge > 0 else legal[0]
        buy = self.buy_edge(view, cnt)
        return self.game.parse_move("buy" if buy > 0 else "stand")

    @staticmethod
    def last_bank(view: View) -> bool:
        """Whether the deal in play ends the contest: a deal played on its own, or the bank of
        the last seat in the match's one rotation (a seat too poor to bank is skipped, so a
        match can end sooner; this rule then simply does not come into play)."""
        if view.match is None:
            return True
        dealers = view.match.get("dealers") or ()
        first = dealers[0] if dealers else view.dealer
        return (view.dealer - first) % view.players == view.players - 1

    @staticmethod
    def lead(view: View) -> int:
        """This seat's chips minus the most any other seat holds, a banker's bank counted as
        his: how far ahead of the field it stands in the match so far (negative when behind)."""
        pub = view.public
        held = list(pub["chips"])
        held[int(pub["banker"])] += int(pub["bank"])
        return held[view.seat] - max(c for i, c in enumerate(held) if i != view.seat)

    def solver(self, base: Sequence[int], limit: int) -> MultiBuySolver:
        """A ``multi_buy`` solver, kept while the unseen cards stay the same (one round)."""
        # At most base[0] + 9 cards are ever drawn (9 non-zero ones reach 9), so a larger limit
        # never binds: capping it lets the staking and buying decisions share one solver.
        key = (tuple(base), min(limit, base[0] + 10))
        if self._solver is None or self._solver_key != key:
            self._solver = MultiBuySolver(key[0], key[1], self.naturals, self.forced)
            self._solver_key = key
        return self._solver

    def stake_edge(self, view: View, cnt: list[int]) -> float:
        """The round's exact expected payoff per chip staked, as known now."""
        shoe = int(view.public["stock"])
        if self.after_first and view.hand:
            v1 = VALUE[view.hand[0]]
            if self.multi:
                d = [int(v == v1) for v in range(10)]
                base = [c + e for c, e in zip(cnt, d)]
                return self.solver(base, shoe + 1).policy_value(v1, self.naturals and v1 >= 7, d)
            return _ev(decide_dist(v1, cnt, self.naturals, self.forced)[1])
        if self.multi:
            # The cards still to be dealt this round before any buy: one to each punter in
            # the round and one to the banker.
            status = view.public["status"]
            dealing = sum(1 for st in status if st in ("waiting", "staked")) + 1
            limit = max(0, shoe - dealing) + 1
            return multi_round_ev(cnt, limit - 1, self.naturals, self.forced,
                                  self.solver(cnt, limit))
        return _round_ev(tuple(cnt), self.naturals, self.forced)

    def stand_and_buy(self, view: View, cnt: list[int]) -> tuple[float, float]:
        """The exact expected payoffs, per chip staked, of standing and of buying now."""
        hand = [int(c) for c in view.hand]
        if self.multi:
            d = [0] * 10
            for c in hand:
                d[VALUE[c]] += 1
            base = [c + e for c, e in zip(cnt, d)]
            solver = self.solver(base, int(view.public["stock"]) + len(hand))
            return solver.decision(sum(VALUE[c] for c in hand), False, d)
        v = sum(VALUE[c] for c in hand) % 10
        return (_ev(stand_dist(v, False, cnt, self.naturals)),
                _ev(buy_dist(v, cnt, self.naturals)))

    def buy_edge(self, view: View, cnt: list[int]) -> float:
        """EV(buy) - EV(stand) for the seat's hand now (> 0: buy)."""
        if self.multi:
            stand, buy = self.stand_and_buy(view, cnt)
            return buy - stand
        # without multi_buy, whole counts over one denominator: a tie is a tie, not a rounding
        v = sum(VALUE[int(c)] for c in view.hand) % 10
        t = sum(cnt)
        sd = stand_dist(v, False, cnt, self.naturals)
        bd = buy_dist(v, cnt, self.naturals)
        return _num(bd) - _num(sd) * (t - 1)


def exact_values(game: Game, view: View,
                 rng: random.Random) -> tuple[dict[int, float], int] | None:
    """The game's exact evaluator (``cardplay.bots.evaluate``): every legal move's expected
    payoff of this round in chips, from the unseen cards (see the module's doc).

    A stake ``s`` is worth ``s`` times the round's expected payoff per chip, buying or standing
    as the exact expected-value rule does; buy and stand are worth the stake times their own
    expected payoffs. The banking turn's later rounds are not counted: they depend on this
    decision only through the bank's size.
    """
    if view.to_move != view.seat:
        return None
    bot = HeuristicBot(game)
    cnt = unseen_counts(view)
    codes = [game.code_of(m) for m in view.legal_moves]
    if view.public["phase"] == "stake":
        edge = bot.stake_edge(view, cnt)
        return {c: int(game.move(c).text.split()[1]) * edge for c in codes}, 1
    stake = int(view.public["stakes"][view.seat] or 0)
    stand, buy = bot.stand_and_buy(view, cnt)
    worth = {"stand": stand * stake, "buy": buy * stake}
    return {c: worth[game.move(c).text] for c in codes}, 1
