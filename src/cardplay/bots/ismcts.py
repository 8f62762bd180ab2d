"""Information-set Monte Carlo tree search (single-observer ISMCTS), written once for every game.

Each iteration samples a world consistent with the bot's view (``game.sample_deal``), walks the
one tree of the bot's information set with UCB restricted to the moves available in that world
(availability counts, Cowling et al. 2012), expands one move, finishes the deal with a rollout
policy on the fast path, and backs up every seat's reward. The move played is the most visited.
The search stops before its budget once no number of remaining iterations could change which move
is the most visited (``stop_early``: the move is the one the whole budget would play).

Rewards are the deal's results scaled to [0, 1] across the seats (the best seat 1, the worst 0),
so a two-player win is 1 whatever its margin and banking games value chips linearly.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ..engine import Deal, Game, Move, View
from .inference import DEFAULT_NOISE, WorldPool, heuristic_model

__all__ = ["ISMCTSBot", "LeafValue", "RolloutPolicy", "scaled_rewards"]

RolloutPolicy = Callable[[Deal, random.Random], int]
# A leaf evaluator: every seat's reward in [0, 1] for a position it can value exactly (the
# rollout stops there), or None to let the rollout play on.
LeafValue = Callable[[Deal], "list[float] | None"]


def scaled_rewards(result: list[int]) -> list[float]:
    """Results scaled to [0, 1]: the best seat 1, the worst 0; all equal gives 0.5 each."""
    lo, hi = min(result), max(result)
    if hi == lo:
        return [0.5] * len(result)
    span = hi - lo
    return [(r - lo) / span for r in result]


class _Node:
    __slots__ = ("avail", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat              # the seat whose move led here
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.children: dict[int, _Node] = {}


def random_rollout(deal: Deal, rng: random.Random) -> int:
    codes = deal.legal_codes()
    return codes[int(rng.random() * len(codes))]


_LOGS: list[list[float]] = [[0.0]]


def _logs(upto: int) -> list[float]:
    """``math.log(n)`` for n up to ``upto`` (index 0 unused), shared by every search; a longer
    table replaces the old one whole, so threads never see one half built."""
    logs = _LOGS[0]
    if len(logs) <= upto:
        logs = [0.0] + [math.log(n) for n in range(1, max(upto + 1, 2 * len(logs)))]
        _LOGS[0] = logs
    return logs


def _decided(root: _Node, remaining: int) -> bool:
    """Whether the most visited root move stays the most visited whatever ``remaining`` more
    iterations do: the move played is then fixed, so the rest of the budget would be wasted."""
    first = second = 0
    for ch in root.children.values():
        v = ch.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > remaining


class ISMCTSBot:
    """SO-ISMCTS with a budget of iterations and/or seconds per move."""

    def __init__(self, game: Game, seed: int | None = None, iterations: int = 1000,
                 seconds: float | None = None, exploration: float = 0.7,
                 rollout: RolloutPolicy | None = None, max_rollout_moves: int = 10_000,
                 stop_early: bool = True, inference: int = 0,
                 noise: float = DEFAULT_NOISE, leaf: LeafValue | None = None) -> None:
        if iterations < 1:
            raise ValueError("ISMCTSBot needs at least one iteration per move")
        self.game = game
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout = rollout or random_rollout
        self.max_rollout_moves = max_rollout_moves
        self.stop_early = stop_early
        self.leaf = leaf
        # ``inference``: worlds are drawn from a pool of that many, weighted by the opponents'
        # recorded moves (:mod:`cardplay.bots.inference`); 0 samples them uniformly.
        self.inference = inference
        self.model = heuristic_model(game, self.rng.getrandbits(63), noise) if inference else None
        self.last_iterations = 0

    def choose(self, view: View) -> Move:
        legal = view.legal_moves
        if not legal:
            raise ValueError("ISMCTSBot was asked to move when its seat has no legal move")
        if len(legal) == 1:
            return legal[0]
        code = self.search(view)
        return self.game.move(code)

    def search(self, view: View) -> int:
        """The code of the most visited root move after the budget is spent."""
        game, rng, c = self.game, self.rng, self.exploration
        me = view.seat
        root = _Node(seat=-1)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        rollout, limit = self.rollout, self.max_rollout_moves
        it = 0
        budget, stop_early = self.iterations, self.stop_early
        # A child is available at most once per iteration, so its count never passes the budget
        # plus the one it starts with: its logarithm is read from a table.
        logs = _logs(budget + 1)
        sqrt = math.sqrt
        if self.model is not None and view.history:
            sample = WorldPool(game, view, rng, self.model, self.inference).draw
        else:
            def sample() -> Deal:
                return game.sample_deal(view, rng)
        while it < budget:
            if deadline is not None and it and time.perf_counter() > deadline:
                break
            if stop_early and it & 15 == 0 and it and _decided(root, budget - it):
                break
            it += 1
            world = sample()
            node = root
            path = [root]
            # Selection and expansion.
            while world.to_move is not None:
                seat = world.to_move
                codes = world.legal_codes()
                children = node.children
                untried = [k for k in codes if k not in children]
                if untried:
                    k = untried[int(rng.random() * len(untried))]
                    child = children[k] = _Node(seat)
                    for other in codes:
                        if other != k and other in children:
                            children[other].avail += 1
                    world.apply_code(k)
                    node = child
                    path.append(child)
                    break
                best, best_score = codes[0], -1.0
                for k in codes:
                    ch = children[k]
                    avail = ch.avail = ch.avail + 1
                    visits = ch.visits
                    score = ch.reward / visits + c * sqrt(logs[avail] / visits)
                    if score > best_score:
                        best, best_score = k, score
                node = children[best]
                world.apply_code(best)
                path.append(node)
            # Rollout.
            steps = 0
            rewards: list[float] | None = None
            leaf = self.leaf
            if leaf is None and rollout is random_rollout:
                # The default policy inlined: a rollout is most of an iteration's moves.
                legal, apply, rnd = world.legal_codes, world.apply_code, rng.random
                while world.to_move is not None and steps < limit:
                    codes = legal()
                    apply(codes[int(rnd() * len(codes))])
                    steps += 1
            else:
                while world.to_move is not None and steps < limit:
                    if leaf is not None:
                        rewards = leaf(world)
                        if rewards is not None:
                            break
                    world.apply_code(rollout(world, rng))
                    steps += 1
            if rewards is None:
                result = world.result if world.to_move is None else world.points
                rewards = scaled_rewards(list(result or [0] * world.players))
            for n in path:
                n.visits += 1
                if n.seat >= 0:
                    n.reward += rewards[n.seat]
        self.last_iterations = it
        assert me == view.seat
        return max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward))[0]
