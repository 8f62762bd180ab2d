"""Sixty-Six search: an exact solver for positions with every card known, and a PIMC bot on it.

:func:`solve` runs alpha-beta with a transposition table over the engine's own deal (copies and the
fast path), so the rules it searches are exactly the rules the engine enforces. Values are from one
seat's side and follow what a match (and the arena) counts: a decided hand is worth
``WIN_VALUE`` for winning it plus ``POINT_VALUE`` per game point of margin (stand bonus included),
so a sure win always beats a chance of a bigger one; a replay or a 65-65 stand is worth 0. With a
``depth`` (in tricks) the search stops in phase 1 and scores the position with :func:`evaluate`,
always below ``WIN_VALUE`` in size; once the world's talon is exhausted or closed the search runs
to the end, so a phase-2 position is solved exactly.

:class:`PIMCBot` (perfect-information Monte Carlo) averages those values over worlds consistent
with its view:

* talon exhausted: every card is known, one world solved exactly;
* talon closed: the opponent's hand is drawn from the unseen cards he can hold; all such hands are
  enumerated when there are few (each equally likely, as the sampler makes them), else sampled;
  with ``alpha_mu`` the same worlds are then searched together by alpha-mu, which does not let
  the bot play a different card in each (bots/sixty_six_alphamu.py);
* phase 1: sampled worlds searched ``depth`` tricks deep, running on to the exact end when the
  world's talon runs out within reach; closing the talon is judged by solving the closed game
  exactly in every world.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

from ..builtin.sixty_six import CLOSE, EXCHANGE, SixtySixDeal
from ..engine import Game, Move, View
from . import Bot
from .inference import DEFAULT_NOISE, heuristic_model
from .ismcts import ISMCTSBot

__all__ = ["POINT_VALUE", "WIN_VALUE", "PIMCBot", "evaluate", "exact_values", "margin_of",
           "minimax", "solve", "solve_kept"]

WIN_VALUE = 1000
POINT_VALUE = 100
_INF = 10**6
# An evaluated (unfinished) position stays strictly inside (-WIN_VALUE, WIN_VALUE).
_EVAL_CAP = 900
_EXACT = 1 << 30  # the depth of a search that runs to the end

# Card ids: rank = id % 13 (7 = nine .. 12 = ace). Card points, and the evaluation's worth of
# holding each rank (trumps win tricks and aces catch tens: both bring home more than they count).
_POINTS = [(0, 0, 0, 0, 0, 0, 0, 0, 10, 2, 3, 4, 11)[c % 13] for c in range(52)]
_HOLD_PLAIN = [(0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 6)[c % 13] for c in range(52)]
_HOLD_TRUMP = [(0, 0, 0, 0, 0, 0, 0, 6, 12, 6, 7, 8, 14)[c % 13] for c in range(52)]
_KQ = [(1 << (s * 13 + 11)) | (1 << (s * 13 + 10)) for s in range(4)]


def _terminal_value(d: SixtySixDeal, seat: int) -> int:
    r = d.result
    assert r is not None
    margin = r[seat] - r[1 - seat]
    if margin == 0:
        return 0
    return (WIN_VALUE if margin > 0 else -WIN_VALUE) + POINT_VALUE * margin


_HOLD_CACHE: dict[tuple[int, int, bool], int] = {}


def _holding(hand: int, trump: int, phase2: bool) -> int:
    """The evaluation's worth of a hand (cached: hands recur all through a search)."""
    key = (hand, trump, phase2)
    r = _HOLD_CACHE.get(key)
    if r is None:
        trump_mask = 0x1FFF << (13 * trump)
        r = 0
        h = hand
        while h:
            low = h & -h
            c = low.bit_length() - 1
            r += _HOLD_TRUMP[c] if trump_mask & low else _HOLD_PLAIN[c]
            h ^= low
        if not phase2:
            for s in range(4):
                if hand & _KQ[s] == _KQ[s]:
                    # A marriage still to announce, discounted: it needs a lead to declare it.
                    r += 28 if s == trump else 14
        if len(_HOLD_CACHE) > 500_000:
            _HOLD_CACHE.clear()
        _HOLD_CACHE[key] = r
    return r


def _side_score(d: SixtySixDeal, seat: int) -> int:
    """Card points taken and held: what one side can expect to bring home from here."""
    return d.pts[seat] + d.pending[seat] + _holding(d.hands[seat], d.trump, d.phase2)


def evaluate(d: SixtySixDeal, seat: int) -> int:
    """A heuristic value of an unfinished position for ``seat``, inside (-WIN_VALUE, WIN_VALUE)."""
    mine, theirs = _side_score(d, seat), _side_score(d, 1 - seat)
    return int(_EVAL_CAP * math.tanh((mine - theirs) / 40.0))


def _ordered(d: SixtySixDeal, root: bool) -> list[int]:
    """Moves in a good order for alpha-beta: the exchange, marriages and high cards first.

    Below the root of a phase-1 search the exchange, when legal, is the only move tried (it is
    almost always right, and the branching stays low) and closing is left out: the bot judges a
    close at its own root by solving the closed game, which a depth-limited search cannot do.
    """
    codes = d.legal_codes()
    if not root and d.lead < 0 and not d.phase2:
        if EXCHANGE in codes:
            return [EXCHANGE]
        codes = [c for c in codes if c != CLOSE]
    else:
        codes = list(codes)
    codes.sort(key=lambda c: -(200 if c >= 52 else _POINTS[c] * 10 + (c % 13)))
    return codes


def _key(d: SixtySixDeal) -> tuple[int, ...]:
    return (d.hands[0], d.hands[1], d.lead, d.to_move if d.to_move is not None else -1,
            d.pts[0], d.pts[1], d.pending[0], d.pending[1], d.won[0] != 0,
            d.won[1] != 0, d.closed_by, d.tpos, d.talon[-1])


class _Search:
    """Alpha-beta with a transposition table of (depth searched, lower bound, upper bound)."""

    def __init__(self, seat: int, max_nodes: int,
                 table: dict[tuple[int, ...], tuple[int, int, int]] | None = None) -> None:
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {} if table is None else table
        self.exact = True

    def value(self, d: SixtySixDeal, alpha: int, beta: int, depth: int) -> int:
        if d.to_move is None:
            return _terminal_value(d, self.seat)
        if d.phase2:
            depth = _EXACT
        elif depth <= 0 and d.lead < 0:
            return evaluate(d, self.seat)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self.exact = False
            return evaluate(d, self.seat)
        key = _key(d)
        hit = self.table.get(key)
        if hit is not None and hit[0] >= depth:
            _, lo, hi = hit
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        maximize = d.to_move == self.seat
        best = -_INF if maximize else _INF
        following = d.lead >= 0
        for code in _ordered(d, False):
            child = d.copy()
            assert isinstance(child, SixtySixDeal)
            child.apply_code(code)
            v = self.value(child, alpha, beta, depth - 1 if following else depth)
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        lo, hi = -_INF, _INF
        if hit is not None and hit[0] == depth:
            lo, hi = hit[1], hit[2]
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[key] = (depth, lo, hi)
        return best


def solve(deal: SixtySixDeal, seat: int, max_nodes: int = 200_000, depth: int | None = None,
          codes: Sequence[int] | None = None,
          table: dict[tuple[int, ...], tuple[int, int, int]] | None = None,
          ) -> tuple[int, int | None, dict[int, int]]:
    """The value of every legal move (or of ``codes``) at ``deal`` for ``seat``.

    Returns ``(best value, best code, {code: value})``, the best for the seat to move (a minimum
    when that is the other seat). Without ``depth`` and within ``max_nodes`` the values are exact
    (see the module's doc); ``depth`` limits phase-1 play to that many more tricks.

    ``table``: a transposition table to start from and fill, kept by a caller that solves one
    position after another for the same seat (a bot playing out an exhausted talon). It must only
    ever hold exact phase-2 searches: the caller drops it when a search ran out of nodes, which
    :func:`solve_kept` does.
    """
    return _solve(deal, _Search(seat, max_nodes, table), depth, codes)


def solve_kept(deal: SixtySixDeal, seat: int, tables: dict[int, dict[tuple[int, ...],
               tuple[int, int, int]]], max_nodes: int = 400_000) -> int | None:
    """The best code for ``seat`` in a phase-2 ``deal``, solved to the end with the seat's kept
    table from ``tables`` (created, grown, and dropped when it grows large or a search is cut
    short), so the positions that follow one solved position cost almost nothing."""
    table = tables.get(seat)
    if table is None or len(table) > 300_000:
        table = tables[seat] = {}
    search = _Search(seat, max_nodes, table)
    _, code, _ = _solve(deal, search, None, None)
    if not search.exact:
        del tables[seat]
    return code


def _solve(deal: SixtySixDeal, search: _Search, depth: int | None,
           codes: Sequence[int] | None) -> tuple[int, int | None, dict[int, int]]:
    seat = search.seat
    if deal.to_move is None:
        return _terminal_value(deal, seat), None, {}
    values: dict[int, int] = {}
    maximize = deal.to_move == seat
    best_code, best = None, -_INF if maximize else _INF
    limit = _EXACT if depth is None else depth
    for code in (codes if codes is not None else _ordered(deal, True)):
        child = deal.copy()
        assert isinstance(child, SixtySixDeal)
        child.apply_code(code)
        v = search.value(child, -_INF, _INF, limit - 1 if deal.lead >= 0 else limit)
        values[code] = v
        if (maximize and v > best) or (not maximize and v < best):
            best, best_code = v, code
    return best, best_code, values


def minimax(deal: SixtySixDeal, seat: int) -> int:
    """Plain minimax to the end, no pruning or tables (the reference solve is checked against)."""
    if deal.to_move is None:
        return _terminal_value(deal, seat)
    vals = []
    for code in deal.legal_codes():
        child = deal.copy()
        assert isinstance(child, SixtySixDeal)
        child.apply_code(code)
        vals.append(minimax(child, seat))
    return max(vals) if deal.to_move == seat else min(vals)


def margin_of(value: int) -> int:
    """The game-point margin (the seat's result minus the opponent's) of an exact value: a
    value is ``±WIN_VALUE`` plus ``POINT_VALUE`` per point of margin, 0 for no margin, so it
    orders positions exactly as the margin does."""
    if value > 0:
        return (value - WIN_VALUE) // POINT_VALUE
    if value < 0:
        return (value + WIN_VALUE) // POINT_VALUE
    return 0


# Worlds enumerated after a close before the evaluation calls the answer sampled instead.
_EXACT_WORLDS = 1_000
_EXACT_NODES = 5_000_000


def exact_values(game: Game, view: View,
                 rng: random.Random) -> tuple[dict[int, float], int] | None:
    """The game's exact evaluator (``cardplay.bots.evaluate``): every legal move's expected
    game-point margin with perfect play from here, once nothing is left to chance but the
    opponent's hand.

    Talon exhausted: every card is known, one world. Talon closed: every hand the opponent can
    hold (each equally likely, as the sampler deals them) is solved and the values averaged,
    when there are at most ``_EXACT_WORLDS``. None otherwise (phase 1, or too many hands), and
    the evaluation samples instead.
    """
    pub = view.public
    if view.to_move != view.seat:
        return None
    if pub["stock"] == 0:
        worlds: Iterator[SixtySixDeal] = iter([_sample(game, view, rng)])
    elif pub["closed_by"] is not None:
        allowed, k = _unknown_opponent_cards(game, view)
        if math.comb(len(allowed), k) > _EXACT_WORLDS:
            return None
        worlds = (_sample(game, view, _GivenHand(hand, rng.randrange(1 << 30)))
                  for hand in itertools.combinations(allowed, k))
    else:
        return None
    totals: dict[int, int] = {}
    count = 0
    for world in worlds:
        search = _Search(view.seat, _EXACT_NODES)
        _, _, values = _solve(world, search, None, world.legal_codes())
        if not search.exact:
            return None
        for code, v in values.items():
            totals[code] = totals.get(code, 0) + margin_of(v)
        count += 1
    return {code: t / count for code, t in totals.items()}, count


def _sample(game: Game, view: View, rng: random.Random) -> SixtySixDeal:
    world = game.sample_deal(view, rng)
    assert isinstance(world, SixtySixDeal)
    return world


class _GivenHand(random.Random):
    """Makes ``sample_deal`` deal the opponent a chosen set of unknown cards.

    The sampler draws the opponent's unknown cards with one ``sample`` call and orders the rest
    (the talon) with ``shuffle``; answering the first with a chosen hand enumerates worlds through
    the engine's own constraint handling. After a close the talon order never matters.
    """

    def __init__(self, hand: Sequence[int], seed: int) -> None:
        super().__init__(seed)
        self.hand = list(hand)

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list[Any]:
        assert k == len(self.hand)
        return list(self.hand)


def _unknown_opponent_cards(game: Game, view: View) -> tuple[list[int], int]:
    """The cards the opponent may hold but has not shown, and how many of them he holds.

    Read off the sampler's own preparation of the view (which cards each side needed by when,
    voids and failures to head shown in phase 2), so enumeration and sampling agree.
    """
    from ..builtin.sixty_six import SixtySix, prepare_sampling

    assert isinstance(game, SixtySix)
    prep = prepare_sampling(game, view)
    return list(prep.allowed), prep.opp_unknown


class PIMCBot:
    """Perfect-information Monte Carlo over sampled worlds, searched by :func:`solve`.

    Phase 1: ``worlds`` sampled worlds searched ``depth`` tricks deep. After a close: every
    opponent hand when there are at most ``enumerate_limit``, else ``closed_worlds`` samples,
    each solved exactly. ``max_nodes`` bounds one world's search and ``move_nodes`` the whole
    move (no new world starts past it, so the budget is deterministic); ``seconds`` is only a
    safety net for slow machines. With ``iterations``, ISMCTS plays phase 1 instead; with a
    ``follower`` as well, ISMCTS only leads in phase 1 and the follower answers the opponent's
    leads there (the cheap level spends its search where the heuristic is weakest). With
    ``alpha_mu``, a closed talon's worlds are played by alpha-mu search instead of PIMC's vote
    (:mod:`cardplay.bots.sixty_six_alphamu`).
    """

    def __init__(self, game: Game, seed: int | None = None, worlds: int = 8, depth: int = 2,
                 max_nodes: int = 10_000, move_nodes: int = 60_000, closed_worlds: int = 16,
                 enumerate_limit: int = 60, seconds: float | None = 3.0,
                 iterations: int | None = None, follower: Bot | None = None,
                 inference: int = 0, noise: float = DEFAULT_NOISE, alpha_mu: int = 0,
                 alpha_mu_nodes: int = 200_000) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.depth = depth
        self.max_nodes = max_nodes
        self.move_nodes = move_nodes
        self.closed_worlds = closed_worlds
        self.enumerate_limit = enumerate_limit
        self.seconds = seconds
        self.last_nodes = 0
        self.last_worlds = 0
        # With ``iterations``, phase 1 is left to ISMCTS with random rollouts: both levels do
        # this, since it beat the depth-limited search in phase 1 (0.630 against 0.520 of deals
        # against the heuristic, 200 duplicate deals).
        self.phase1: ISMCTSBot | None = None
        if iterations is not None:
            self.phase1 = ISMCTSBot(game, seed=seed, iterations=iterations, seconds=seconds,
                                    inference=inference, noise=noise)
        self.follower = follower
        # With ``inference`` (a pool size for ISMCTS), every world searched here also counts
        # in proportion to the likelihood of the opponent's recorded moves in it.
        self.model = heuristic_model(game, self.rng.getrandbits(63), noise) if inference else None
        # With ``alpha_mu`` (a number of our moves), a closed talon is searched by alpha-mu over
        # the same worlds (bots/sixty_six_alphamu.py); past ``alpha_mu_nodes`` positions the
        # move is PIMC's. ``alpha_mu_searches`` and ``alpha_mu_changes`` count the moves it
        # searched and those it changed (for measurements).
        if alpha_mu < 0 or alpha_mu_nodes < 1:
            raise ValueError(f"alpha_mu must be 0 (off) or a number of moves, and alpha_mu_nodes "
                             f"at least 1; got {alpha_mu} and {alpha_mu_nodes}")
        self.alpha_mu = alpha_mu
        self.alpha_mu_nodes = alpha_mu_nodes
        self.alpha_mu_changes = 0
        self.alpha_mu_searches = 0

    def choose(self, view: View) -> Move:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        return self.game.move(self.search(view))

    def search(self, view: View) -> int:
        """The code of the move with the best average value over the worlds."""
        if self.phase1 is not None and view.public["phase"] == 1:
            if self.follower is not None and view.public["trick"]:
                return self.game.code_of(self.follower.choose(view))
            return self.phase1.search(view)
        totals: dict[int, float] = {}
        weights: dict[int, float] = {}
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        nodes = worlds = 0
        close_worst = _INF
        model = self.model if view.public["stock"] else None
        hidden = self.alpha_mu and view.public["closed_by"] is not None and view.public["stock"]
        searched: list[SixtySixDeal] = []
        for world, depth in self._worlds(view):
            codes = _ordered(world, True)
            values, used = self._values(world, view.seat, codes, depth)
            weight = 1.0 if model is None else math.exp(model.log_likelihood(world, view.seat))
            for code, v in values.items():
                totals[code] = totals.get(code, 0.0) + weight * v
                weights[code] = weights.get(code, 0.0) + weight
            if CLOSE in values:
                close_worst = min(close_worst, values[CLOSE])
            if hidden:
                searched.append(world)
            nodes += used
            worlds += 1
            if nodes >= self.move_nodes:
                break
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.last_nodes, self.last_worlds = nodes, worlds
        if CLOSE in totals:
            # Each world's closed game is solved seeing the opponent's hand, which the closer
            # will not see: the average overrates closing (measured: half the closes failed).
            # So a close counts only as much as in its worst world: the bot closes when sure.
            totals[CLOSE] = close_worst * weights[CLOSE]
        best = max(totals, key=lambda c: (totals[c] / weights[c], -c))
        if hidden and len(totals) > 1:
            best = self._alpha_mu(searched, view.seat, totals, weights, best)
        return best

    def _alpha_mu(self, searched: list[SixtySixDeal], seat: int, totals: dict[int, float],
                  weights: dict[int, float], pimc_best: int) -> int:
        """The move alpha-mu wins the most worlds with (counted, not weighted by inference),
        PIMC's mean value breaking ties; PIMC's own move when the search runs past its node
        budget."""
        # Imported here: that module builds on this one's solver.
        from .sixty_six_alphamu import AlphaMu

        self.alpha_mu_searches += 1
        search = AlphaMu(searched, seat, self.alpha_mu_nodes)
        scores = search.scores(list(totals), self.alpha_mu)
        self.last_nodes += search.nodes
        if not search.exact:
            return pimc_best
        best = max(totals, key=lambda c: (scores[c], totals[c] / weights[c], -c))
        if best != pimc_best:
            self.alpha_mu_changes += 1
        return best

    def _values(self, world: SixtySixDeal, seat: int, codes: list[int],
                depth: int | None) -> tuple[dict[int, int], int]:
        search = _Search(seat, self.max_nodes)
        if depth is None or CLOSE not in codes:
            return _solve(world, search, depth, codes)[2], search.nodes
        # Closing turns the world into a phase-2 game: solve that one to the end.
        values = _solve(world, search, depth, [c for c in codes if c != CLOSE])[2]
        closed = world.copy()
        assert isinstance(closed, SixtySixDeal)
        closed.apply_code(CLOSE)
        exact = _Search(seat, self.max_nodes)
        values[CLOSE] = _solve(closed, exact, None, None)[0]
        return values, search.nodes + exact.nodes

    def _worlds(self, view: View) -> Iterator[tuple[SixtySixDeal, int | None]]:
        """(world, search depth) pairs; no depth (to the end) whenever the world is in phase 2."""
        pub = view.public
        game = self.game
        if pub["stock"] == 0:
            yield self._sample(view, self.rng), None
            return
        if pub["closed_by"] is None:
            for _ in range(self.worlds):
                yield self._sample(view, self.rng), self.depth
            return
        allowed, k = _unknown_opponent_cards(game, view)
        if math.comb(len(allowed), k) <= self.enumerate_limit:
            for hand in itertools.combinations(allowed, k):
                yield self._sample(view, _GivenHand(hand, self.rng.randrange(1 << 30))), None
            return
        for _ in range(self.closed_worlds):
            yield self._sample(view, self.rng), None

    def _sample(self, view: View, rng: random.Random) -> SixtySixDeal:
        world = self.game.sample_deal(view, rng)
        assert isinstance(world, SixtySixDeal)
        return world
