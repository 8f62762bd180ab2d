"""Exact play of Sixty-Six positions with every card known, and a PIMC bot built on it.

:func:`solve` runs alpha-beta with a transposition table over the engine's own deal (copies and the
fast path), so the rules it searches are exactly the rules the engine enforces. The value of a
position is ``result[seat] - result[other]`` in game points, stand bonus included: the zero-sum
score a player wants to maximise in a match. Once the talon is exhausted the follower's options are
few and the tree is small; with the talon open (a sampled world knows the talon order too) the
search is bounded by ``max_nodes`` and falls back to the points difference.

:class:`PIMCBot` (perfect-information Monte Carlo): in phase 2 it samples worlds consistent with
its view (one world once the talon is exhausted, since every card is then known; several after a
close), solves every legal move in each, and plays the best average. In phase 1 it defers to
ISMCTS.
"""

from __future__ import annotations

import random

from ..engine import Game, Move, View
from ..games.sixty_six import SixtySixDeal
from .ismcts import ISMCTSBot

__all__ = ["PIMCBot", "minimax", "solve"]

_INF = 10**6


def _key(d: SixtySixDeal) -> tuple[int, ...]:
    return (d.hands[0], d.hands[1], d.lead, d._turn if d._turn is not None else -1,
            d.pts[0], d.pts[1], d.pending[0], d.pending[1], d.tricks_won[0] > 0,
            d.tricks_won[1] > 0, d.closed_by, d.tpos)


def _terminal_value(d: SixtySixDeal, seat: int) -> int:
    r = d.result
    assert r is not None
    return r[seat] - r[1 - seat]


def _heuristic_value(d: SixtySixDeal, seat: int) -> int:
    # Scaled so that any decided outcome (at least 1 game point = 1000) outweighs it.
    return (d.pts[seat] + d.pending[seat] - d.pts[1 - seat] - d.pending[1 - seat]) * 5


class _Search:
    def __init__(self, seat: int, max_nodes: int) -> None:
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}  # key -> (depth flag, lo, hi)
        self.exact = True

    def value(self, d: SixtySixDeal, alpha: int, beta: int) -> int:
        if d._turn is None:
            return 1000 * _terminal_value(d, self.seat)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self.exact = False
            return _heuristic_value(d, self.seat)
        key = _key(d)
        hit = self.table.get(key)
        if hit is not None:
            _, lo, hi = hit
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        maximize = d._turn == self.seat
        best = -_INF if maximize else _INF
        for code in _ordered(d):
            child = d.copy()
            assert isinstance(child, SixtySixDeal)
            child.apply_code(code)
            v = self.value(child, alpha, beta)
            if maximize:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        lo, hi = (hit[1], hit[2]) if hit is not None else (-_INF, _INF)
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[key] = (0, lo, hi)
        return best


def _ordered(d: SixtySixDeal) -> list[int]:
    """Moves in a good order for alpha-beta: marriages and high cards first."""
    codes = list(d.legal_codes())
    codes.sort(key=lambda c: -(100 if c >= 52 else (c % 13)))
    return codes


def solve(deal: SixtySixDeal, seat: int, max_nodes: int = 200_000) -> tuple[int, int | None,
                                                                          dict[int, int]]:
    """The value of every legal move for ``seat`` (to move) with all cards known.

    Returns ``(best value, best code, {code: value})``; values are 1000 x the game-point margin
    when the search was exact (see :func:`_heuristic_value` otherwise).
    """
    if deal._turn is None:
        return 1000 * _terminal_value(deal, seat), None, {}
    search = _Search(seat, max_nodes)
    values: dict[int, int] = {}
    maximize = deal._turn == seat
    best_code, best = None, -_INF if maximize else _INF
    for code in _ordered(deal):
        child = deal.copy()
        assert isinstance(child, SixtySixDeal)
        child.apply_code(code)
        v = search.value(child, -_INF, _INF)
        values[code] = v
        if (maximize and v > best) or (not maximize and v < best):
            best, best_code = v, code
    return best, best_code, values


def minimax(deal: SixtySixDeal, seat: int) -> int:
    """Plain minimax without pruning or tables (the reference that tests check solve against)."""
    if deal._turn is None:
        return 1000 * _terminal_value(deal, seat)
    vals = []
    for code in deal.legal_codes():
        child = deal.copy()
        assert isinstance(child, SixtySixDeal)
        child.apply_code(code)
        vals.append(minimax(child, seat))
    return max(vals) if deal._turn == seat else min(vals)


class PIMCBot:
    """Phase 2: sampled worlds solved exactly; phase 1: ISMCTS."""

    def __init__(self, game: Game, seed: int | None = None, worlds: int = 12,
                 iterations: int = 1500, seconds: float | None = 0.9,
                 max_nodes: int = 60_000) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.max_nodes = max_nodes
        self.fallback = ISMCTSBot(game, seed=seed, iterations=iterations, seconds=seconds)

    def choose(self, view: View) -> Move:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        if view.public["phase"] != 2:
            return self.fallback.choose(view)
        exhausted = view.public["talon"] == 0
        totals: dict[int, float] = {}
        n = 1 if exhausted else self.worlds
        for _ in range(n):
            world = self.game.sample_deal(view, self.rng)
            assert isinstance(world, SixtySixDeal)
            _, _, values = solve(world, view.seat, self.max_nodes)
            for code, v in values.items():
                totals[code] = totals.get(code, 0.0) + v
        best = max(totals, key=lambda c: (totals[c], -c))
        return self.game.move(best)
