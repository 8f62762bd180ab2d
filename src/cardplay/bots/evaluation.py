"""What each legal move is worth: the values behind review and hints.

:func:`evaluate` values every legal move of the seat to move, in the units of ``deal.result``
(game points, hand points, chips): in a two-player game the seat's expected result minus the
opponent's, with more players the seat's expected result.

Where the game declares an exact evaluator (``Bots.exact``) and it has an answer, the values are
exact: Sixty-Six once the talon is exhausted or closed (every opponent hand enumerated and solved),
Two-Ten-Jack's and Maltese Twenty's stockless endgames. Everywhere else they are sampled the way
the rollout bots search (:mod:`cardplay.bots.rollout`): worlds consistent with the view
(``game.sample_deal``), each move played in every world and the deal finished by a policy on
every seat, the same worlds and the same reseeded policies for every move (common random
numbers), so the differences between moves come from the moves. Moves the game declares alike
(``Bots.move_classes``) are sampled once and share the value. Each sampled value carries its
standard error; the answer says how many worlds it counted.

The level chooses the policy that finishes the deals and the number of worlds (:data:`BUDGETS`):
``random`` finishes them at random, the other levels with the game's heuristic, ``strong`` over
the most worlds. Values are seeded: the same view, level and seed give the same answer.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..engine import Game, Move, View, derive_seed
from ..engine.registry import load
from .inference import OpponentModel, heuristic_model
from .random import RandomBot
from .rollout import PolicyRolloutBot, pick_candidates

__all__ = ["BUDGETS", "MAX_MOVES", "Evaluation", "NoWorld", "distinct_moves", "evaluate",
           "game_of", "move_classes"]

# level: (policy that finishes the sampled deals, worlds per decision)
BUDGETS: Mapping[str, tuple[str, int]] = {
    "random": ("random", 64),
    "heuristic": ("heuristic", 32),
    "fast": ("heuristic", 64),
    "strong": ("heuristic", 96),
}
# At most this many moves are sampled at one decision (stakes from the minimum to the bank are
# hundreds of moves): the extremes, an even spread between them and every move asked for.
MAX_MOVES = 12


class NoWorld(ValueError):
    """No world consistent with the view could be sampled, so nothing could be valued."""


@dataclass(frozen=True)
class Evaluation:
    """The values of a decision's moves, keyed by their canonical texts.

    ``values``: expected result (minus the opponent's, with two players) after each move;
    ``errors``: each value's standard error (0 where exact); ``exact``: whether every value is
    exact; ``worlds``: the worlds sampled, or enumerated where exact; ``best``: the move of the
    highest value.
    """

    seat: int
    values: Mapping[str, float]
    errors: Mapping[str, float]
    exact: bool
    worlds: int
    level: str

    @property
    def best(self) -> str:
        return max(self.values, key=lambda m: self.values[m])

    def loss(self, move: Move | str) -> float:
        """What playing ``move`` gives up against the best move (never negative)."""
        text = move.text if isinstance(move, Move) else move
        return max(0.0, self.values[self.best] - self.values[text])

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "best": self.best, "values": dict(self.values),
                "errors": dict(self.errors), "exact": self.exact, "worlds": self.worlds,
                "level": self.level}


@lru_cache(maxsize=64)
def _game(name: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return load(name, **dict(options))


def game_of(view: View) -> Game:
    """The game (with its options) a view belongs to."""
    return _game(view.game, tuple(sorted(view.options.items())))


def _resolve(path: str) -> Callable[..., Any]:
    module, _, name = path.partition(":")
    fn: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return fn


def move_classes(game: Game, view: View) -> dict[int, Any]:
    """Each legal move code of ``view`` with its key: one key for moves the game declares alike
    (``Bots.move_classes``: Maltese Twenty's cards of one value, Two-Ten-Jack's touching cards),
    else each move its own."""
    bots = game.declaration.bots
    if bots is None or bots.move_classes is None:
        return {c: c for c in map(game.code_of, view.legal_moves)}
    keys: dict[int, Any] = _resolve(bots.move_classes)(game, view)
    return keys


def distinct_moves(game: Game, view: View) -> int:
    """How many of the legal moves of ``view`` the game tells apart (see :func:`move_classes`)."""
    return len(set(move_classes(game, view).values()))


def _margin(result: Sequence[int], seat: int) -> float:
    if len(result) == 2:
        return float(result[seat] - result[1 - seat])
    return float(result[seat])


def evaluate(view: View, level: str = "strong", seed: int | None = None,
             moves: Sequence[Move | str] = (), worlds: int | None = None,
             inference: bool = True) -> Evaluation:
    """The value of every legal move of ``view``'s seat, which must be to move.

    Exact where the game's evaluator can answer, else sampled over the level's worlds (or
    ``worlds`` of them). Where a decision has more than :data:`MAX_MOVES` legal moves, a spread
    of them is valued, plus every move in ``moves`` (a review passes the move that was played).
    With ``inference`` (as the search levels play) each sampled world counts in proportion to the
    likelihood of the other seats' recorded moves in it (:mod:`cardplay.bots.inference`); the
    exact values never depend on it.
    """
    if worlds is not None and worlds < 2:
        raise ValueError("an evaluation samples at least 2 worlds (a standard error needs two)")
    if level not in BUDGETS:
        raise ValueError(f"unknown level {level!r}; valid levels: {', '.join(BUDGETS)}")
    if view.to_move != view.seat or not view.legal_moves:
        raise ValueError(f"{view.game}: seat {view.seat} is not to move in this view; only the "
                         "seat to move has moves to value")
    game = game_of(view)
    legal = [m.text for m in view.legal_moves]
    wanted = [m.text if isinstance(m, Move) else game.move(game.code_of(m)).text for m in moves]
    for text in wanted:
        if text not in legal:
            raise ValueError(f"{view.game}: {text} is not a legal move here")
    rng = random.Random(seed)
    bots = game.declaration.bots
    if bots is not None and bots.exact is not None:
        answer = _resolve(bots.exact)(game, view, random.Random(derive_seed(rng.getrandbits(63),
                                                                             "exact")))
        if answer is not None:
            exact, worlds = answer
            values = {game.move(c).text: float(v) for c, v in exact.items()}
            return Evaluation(view.seat, values, dict.fromkeys(values, 0.0), True, worlds, level)
    return _sampled(game, view, level, rng, wanted, worlds, inference)


def _sampled(game: Game, view: View, level: str, rng: random.Random,
             wanted: Sequence[str], worlds: int | None, inference: bool) -> Evaluation:
    policy_name, budget = BUDGETS[level]
    if worlds is None:
        worlds = budget
    codes = [game.code_of(m) for m in view.legal_moves]
    keep = [game.code_of(t) for t in wanted]
    cands = pick_candidates(codes, keep[0] if keep else codes[0], MAX_MOVES)
    cands += [c for c in keep if c not in cands]
    bots = game.declaration.bots
    settings = None if policy_name == "random" or bots is None else bots.rollout_settings
    # Moves the rules treat alike have one value: the first of each class is sampled and the
    # others are given its value and error (``Bots.move_classes``).
    same: dict[int, int] = {}
    if bots is not None and bots.move_classes is not None:
        keys = move_classes(game, view)
        first: dict[Any, int] = {}
        for c in cands:
            same[c] = first.setdefault(keys[c], c)
        cands = list(first.values())

    def policy(g: Game, s: int) -> object:
        if settings is None:
            return RandomBot(g, seed=s)
        from . import heuristic

        return heuristic(g, s, **settings)
    roller = PolicyRolloutBot(game, policy, seed=rng.getrandbits(63),
                              light_views=bots is None or not bots.reads_history)
    me = view.seat
    # The model's only randomness is the heuristic's tie-breaks, reseeded at every decision it
    # judges: a constant seed leaves the evaluation's own draws as they were without it.
    model = heuristic_model(game, 0) if inference and view.history and level != "random" \
        else None
    if model is not None:
        return _alike(_weighted(game, view, level, rng, cands, worlds, roller, model), game,
                      same)
    sums = [0.0] * len(cands)
    squares = [0.0] * len(cands)
    n = 0
    for _ in range(worlds):
        try:
            world = game.sample_deal(view, rng)
        except ValueError:
            # Twenty's sampler gives up on a few very constrained views (see its sample_deal);
            # the worlds drawn so far stand.
            break
        rollout_seed = rng.getrandbits(63)
        for i, code in enumerate(cands):
            d = world.copy()
            d.apply_code(code)
            v = _margin(roller.rollout(d, rollout_seed), me)
            sums[i] += v
            squares[i] += v * v
        n += 1
    if n == 0:
        raise NoWorld(f"{view.game}: no world consistent with this view could be sampled")
    values: dict[str, float] = {}
    errors: dict[str, float] = {}
    for i, code in enumerate(cands):
        text = game.move(code).text
        mean = sums[i] / n
        var = max(squares[i] / n - mean * mean, 0.0) * n / (n - 1) if n > 1 else 0.0
        values[text] = mean
        errors[text] = math.sqrt(var / n)
    return _alike(Evaluation(me, values, errors, False, n, level), game, same)


def _alike(ev: Evaluation, game: Game, same: Mapping[int, int]) -> Evaluation:
    """``ev`` with every move of ``same`` (move code: the code sampled for it) given the value
    and error of the move sampled for it, in the order of ``same``."""
    if not same:
        return ev
    text = game.move
    values = {text(c).text: ev.values[text(r).text] for c, r in same.items()}
    errors = {text(c).text: ev.errors[text(r).text] for c, r in same.items()}
    return Evaluation(ev.seat, values, errors, ev.exact, ev.worlds, ev.level)


def _weighted(game: Game, view: View, level: str, rng: random.Random, cands: Sequence[int],
              worlds: int, roller: PolicyRolloutBot, model: OpponentModel) -> Evaluation:
    """The sampled values with every world weighted by the opponent model (self-normalised
    importance sampling: the uniform sampler proposes, the likelihood of the recorded moves
    weights), each with the standard error of a weighted mean."""
    me = view.seat
    samples: list[tuple[float, list[float]]] = []
    for _ in range(worlds):
        try:
            world = game.sample_deal(view, rng)
        except ValueError:
            break
        rollout_seed = rng.getrandbits(63)
        log_w = model.log_likelihood(world, me)
        row = []
        for code in cands:
            d = world.copy()
            d.apply_code(code)
            row.append(_margin(roller.rollout(d, rollout_seed), me))
        samples.append((log_w, row))
    n = len(samples)
    if n == 0:
        raise NoWorld(f"{view.game}: no world consistent with this view could be sampled")
    top = max(lw for lw, _ in samples)
    weights = [math.exp(lw - top) for lw, _ in samples]
    total = sum(weights)
    values: dict[str, float] = {}
    errors: dict[str, float] = {}
    for i, code in enumerate(cands):
        text = game.move(code).text
        mean = sum(w * row[i] for w, (_, row) in zip(weights, samples)) / total
        # The delta-method variance of a ratio estimator, with the unweighted n/(n-1) correction
        # so that equal weights give the plain standard error.
        spread = sum((w * (row[i] - mean)) ** 2 for w, (_, row) in zip(weights, samples))
        var = spread / (total * total) * (n / (n - 1) if n > 1 else 0.0)
        values[text] = mean
        errors[text] = math.sqrt(var)
    return Evaluation(me, values, errors, False, n, level)
