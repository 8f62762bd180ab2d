"""Inference from the opponents' play: sampled worlds weighted by how likely their moves were.

``game.sample_deal`` draws every world consistent with a view with the same probability: it uses
what the rules show (voids, marriage partners, exchanged cards) but not what the opponents chose
to play. Yet a player who led a low card while holding the ace, or declined to take a ten he
could have taken, said something about his hand. This module weights each sampled world by the
likelihood of the opponents' recorded moves had that world been the true deal (Bayes with a
uniform prior, which is the sampler's), under a model of the opponents.

The model is the game's own heuristic as a noisy policy: at each recorded decision of another
seat with more than one legal move, the world is replayed to that point, the heuristic is asked
what it would have played from that seat's view then, and the recorded move had probability
``(1 - noise) * [it is the heuristic's move] + noise / (legal moves)``. The heuristic gives a move
and no values, so a softmax over values is not available without a search at every past
opponent decision in every world (a solve per decision per world: far too slow for a move's
budget); the mixture needs one heuristic call per past decision per world, and ``noise`` keeps
it robust against opponents who play otherwise (a world where they deviated loses a factor, it
is never excluded).

Searchers draw their worlds through :class:`WorldPool`: ``size`` worlds sampled and weighted once
per move, then drawn in proportion to their weights (a copy each time, as searches change their
worlds). :func:`likelihood_weights` gives the weights themselves (evaluations weight their means).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from ..engine import Deal, Game, View, derive_seed

__all__ = ["DEFAULT_NOISE", "OpponentModel", "WorldPool", "heuristic_model", "likelihood_weights"]

# How often the model lets an opponent play anything but the heuristic's move (uniformly among
# the legal ones). Half: a world where the opponent's move was not the heuristic's keeps a
# factor of about 1/(1 + n) of its weight, so a few deviations shift the weights but no single
# one rules a world out (the opponents are other programs and people, not our heuristic).
DEFAULT_NOISE = 0.5

PolicyFactory = Callable[[Game, int], object]


class OpponentModel:
    """The heuristic as a noisy policy of every other seat; see the module's docstring."""

    def __init__(self, game: Game, policy: PolicyFactory, noise: float = DEFAULT_NOISE,
                 seed: int = 0) -> None:
        if not 0.0 < noise <= 1.0:
            raise ValueError("the opponent model's noise is a probability in (0, 1]")
        self.game = game
        self.noise = noise
        self.seed = seed
        self.policies = [policy(game, derive_seed(seed, "model", s)) for s in range(game.players)]

    def log_likelihood(self, world: Deal, seat: int) -> float:
        """The log-probability of the other seats' recorded moves in ``world`` (a deal with
        its history, as ``sample_deal`` returns it) under the model, replayed from its deck."""
        game = self.game
        history = world.history
        if not any(s != seat for s, _ in history):
            return 0.0
        # The deal as it began, from the world's own deck order and context (chips, bonuses:
        # the public deal_from_order has no context), replayed move by move below.
        d = game._deal_from_order(list(world._order), world.dealer, 0, True,
                                  dict(world._context))
        noise = self.noise
        total = 0.0
        for i, (s, code) in enumerate(history):
            if s != seat:
                codes = d.legal_codes()
                if len(codes) > 1:
                    policy = self.policies[s]
                    policy.rng.seed(derive_seed(self.seed, i))  # type: ignore[attr-defined]
                    fast = getattr(policy, "choose_code", None)
                    # the view-free path where the policy has one (see PolicyRolloutBot.rollout)
                    chosen = fast(d, codes) if fast is not None else \
                        game.code_of(policy.choose(d.view(s)))  # type: ignore[attr-defined]
                    p = noise / len(codes) + (1.0 - noise if chosen == code else 0.0)
                    total += math.log(p)
            d.apply_code(code)
        return total


def heuristic_model(game: Game, seed: int, noise: float = DEFAULT_NOISE) -> OpponentModel:
    """The model of the module's docstring: the game's heuristic with the settings it finishes
    sampled deals with (``Bots.rollout_settings``: Sixty-Six's without its endgame solver, which
    only ever plays positions where every card is known and so says nothing about a hand)."""
    from . import heuristic

    bots = game.declaration.bots
    settings = dict(bots.rollout_settings) if bots is not None else {}

    def policy(g: Game, s: int) -> object:
        return heuristic(g, s, **settings)
    return OpponentModel(game, policy, noise, seed)


def likelihood_weights(model: OpponentModel, worlds: Sequence[Deal], seat: int) -> list[float]:
    """Each world's likelihood relative to the most likely one's (the largest weight is 1)."""
    logs = [model.log_likelihood(w, seat) for w in worlds]
    top = max(logs) if logs else 0.0
    return [math.exp(x - top) for x in logs]


class WorldPool:
    """``size`` worlds of one view, weighted by :class:`OpponentModel`, drawn by weight."""

    def __init__(self, game: Game, view: View, rng: random.Random, model: OpponentModel,
                 size: int) -> None:
        self.rng = rng
        self.worlds = [game.sample_deal(view, rng) for _ in range(size)]
        self.weights = likelihood_weights(model, self.worlds, view.seat)
        cum: list[float] = []
        acc = 0.0
        for w in self.weights:
            acc += w
            cum.append(acc)
        self._cum = cum

    @property
    def effective_size(self) -> float:
        """Kish's effective sample size of the weights (``size`` when all are equal)."""
        s = sum(self.weights)
        return s * s / sum(w * w for w in self.weights)

    def draw(self) -> Deal:
        """A copy of one world, chosen with probability proportional to its weight."""
        cum = self._cum
        x = self.rng.random() * cum[-1]
        lo, hi = 0, len(cum) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if cum[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        return self.worlds[lo].copy()
