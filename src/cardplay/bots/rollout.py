"""Policy rollouts: improve a base policy (the game's heuristic) by simulating each candidate move.

At a decision with more than one legal move the bot samples worlds consistent with its view
(``game.sample_deal``); in each world it plays every candidate move on a copy and finishes the
deal with the base policy on every seat. The comparison is paired (common random numbers): every
candidate meets the same worlds, and the policies are reseeded the same way for each candidate,
so the difference between two candidates comes from the move, not from luck. The value of a
finished deal is what the arena counts, the seat's share of the best result (1 alone, ``1/k``
when ``k`` seats tie), plus a small tie-break on the margin over the best other seat.

The bot keeps the base policy's own choice unless another candidate beats it on the paired
differences by a clear margin (``min_gain`` of a share plus ``switch_z`` standard errors, over at
least ``switch_worlds`` worlds): with few worlds, or when the moves are about equally good, it
plays exactly as the base policy. Rollout improvement of a base policy plays
at least about as well as that policy (Bertsekas, Tsitsiklis and Wu 1997) and usually better.

With ``look_every`` the bot also looks at the paired statistics every few worlds (after
``switch_worlds``) and stops as soon as a challenger clears the switching margin, or as soon as
none can still plausibly reach ``min_gain`` (such challengers are dropped as they fail, so the
rest of the budget goes to the undecided ones). A floor on the variance keeps a few identical
worlds from passing for certainty. Easy decisions then cost a few worlds and close ones the
whole budget, which keeps the median time per move low.

Budgets are deterministic: at most ``worlds`` worlds and ``decisions`` simulated policy
decisions per move, so a seed gives the same moves on any machine. ``seconds`` is only a safety
net: when it binds, fewer worlds are used (always whole worlds, so every candidate still sees the
same ones) and the move then depends on the machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from types import MappingProxyType

from ..cards import CARD_OBJECTS
from ..engine import Deal, Game, Move, View, derive_seed
from .inference import DEFAULT_NOISE, WorldPool, heuristic_model

__all__ = ["PolicyRolloutBot", "deal_value", "pick_candidates"]

# A base policy for one seat, built from the game and a seed; it needs ``choose(view)`` and an
# ``rng`` attribute (a random.Random) that rollouts reseed for common random numbers.
PolicyFactory = Callable[[Game, int], object]

# The weight of the margin tie-break: small enough never to outweigh a change in share.
_MARGIN_WEIGHT = 0.01


def deal_value(result: Sequence[int], seat: int) -> float:
    """The arena's share of a finished deal for ``seat``, plus a small tie-break on the margin.

    The share is 1 when the seat alone has the best result and ``1/k`` when ``k`` seats tie for
    it; the tie-break adds at most ``_MARGIN_WEIGHT`` for the margin over the best other seat
    (negative when behind), so among moves with equal shares the larger margin is preferred.
    """
    best = max(result)
    mine = result[seat]
    share = 1.0 / sum(1 for r in result if r == best) if mine == best else 0.0
    others = max(r for i, r in enumerate(result) if i != seat) if len(result) > 1 else mine
    margin = mine - others
    return share + _MARGIN_WEIGHT * margin / (1 + abs(margin))


def pick_candidates(codes: Sequence[int], keep: int, limit: int) -> list[int]:
    """At most ``limit`` codes: ``keep`` first, then evenly spread over the sorted legal codes.

    Games with many similar moves (stakes from the minimum to the bank) list them as a run of
    codes; a spread keeps the extremes and a few values between them.
    """
    ordered = sorted(codes)
    if len(ordered) <= limit:
        return [keep] + [c for c in ordered if c != keep]
    out = [keep]
    slots = limit - 1
    for i in range(slots):
        c = ordered[round(i * (len(ordered) - 1) / max(1, slots - 1))]
        if c not in out:
            out.append(c)
    return out


def light_view(deal: Deal, seat: int, codes: Sequence[int]) -> View:
    """The view of the seat to move without its history, for policies that never read it.

    Building the history's texts is the largest part of ``deal.view`` late in a deal, and a
    rollout asks for a view at every decision.
    """
    game = deal.game
    move = game.move
    return View(
        game=game.name, seat=seat, players=deal.players, dealer=deal.dealer, to_move=seat,
        hand=tuple([CARD_OBJECTS[c] for c in deal.hand_codes(seat)]),
        legal_moves=tuple([move(c) for c in codes]),
        public=MappingProxyType(deal.public_state(seat)), points=tuple(deal.points),
        is_over=False, result=None, history=(), options=game.frozen_options,
    )


class PolicyRolloutBot:
    """Chooses by rolling out every candidate move with a base policy in sampled worlds."""

    def __init__(self, game: Game, policy: PolicyFactory, seed: int | None = None,
                 worlds: int = 8, decisions: int | None = None,
                 seconds: float | None = None, max_candidates: int = 6,
                 switch_z: float = 1.5, min_gain: float = 0.02, switch_worlds: int = 4,
                 light_views: bool = False, look_every: int | None = None,
                 max_rollout_moves: int = 2000, inference: int = 0,
                 noise: float = DEFAULT_NOISE) -> None:
        if worlds < 1:
            raise ValueError("PolicyRolloutBot needs at least one world per decision")
        self.game = game
        self.rng = random.Random(seed)
        self.base_seed = self.rng.getrandbits(63)
        self.base = policy(game, derive_seed(self.base_seed, "base"))
        # One policy per seat for the rollouts, reseeded before each rollout.
        self.policies = [policy(game, derive_seed(self.base_seed, "seat", s))
                         for s in range(game.players)]
        self.worlds = worlds
        self.decisions = decisions
        self._spent = 0
        # Decisions one world cost at the previous move: when the budget cannot pay for
        # ``switch_worlds`` worlds the bot could never switch, so it skips the search.
        self._world_cost = 0
        self.seconds = seconds
        self.max_candidates = max_candidates
        self.switch_z = switch_z
        self.min_gain = min_gain
        self.switch_worlds = switch_worlds
        self.light_views = light_views
        self.look_every = look_every
        self.max_rollout_moves = max_rollout_moves
        # ``inference``: worlds drawn from a pool of that many weighted by the opponents'
        # recorded moves (:mod:`cardplay.bots.inference`); 0 samples them uniformly.
        self.inference = inference
        self.model = heuristic_model(game, self.rng.getrandbits(63), noise) if inference else None
        self.last_worlds = 0
        self.last_values: dict[int, float] = {}

    def choose(self, view: View) -> Move:
        legal = view.legal_moves
        if not legal:
            raise ValueError("PolicyRolloutBot was asked to move when its seat has no legal move")
        base_move: Move = self.base.choose(view)  # type: ignore[attr-defined]
        if len(legal) == 1:
            return legal[0]
        game = self.game
        return game.move(self.search(view, game.code_of(base_move)))

    def search(self, view: View, base_code: int) -> int:
        """The code to play: the base policy's, unless a candidate beats it clearly."""
        game, rng, me = self.game, self.rng, view.seat
        codes = [game.code_of(m) for m in view.legal_moves]
        cands = pick_candidates(codes, base_code, self.max_candidates)
        if self.decisions is not None and \
                self._world_cost * self.switch_worlds > 2 * self.decisions:
            # Rollouts shrink as the deal goes on, so the previous cost is an upper estimate;
            # the factor 2 lets the bot measure again once it may be affordable.
            self._world_cost //= 2
            self.last_worlds = 0
            return base_code
        n = len(cands)
        totals = [0.0] * n
        diff_sum = [0.0] * n
        diff_sq = [0.0] * n
        # Challengers still in the race; the base move (index 0) is always rolled out.
        active = [True] * n
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        w = 0
        self._spent = 0
        switch_to = 0
        sample = self._sampler(view)
        while w < self.worlds:
            if deadline is not None and w and time.perf_counter() > deadline:
                break
            if self.decisions is not None and self._spent >= self.decisions:
                break
            try:
                world = sample()
            except ValueError:
                # Twenty's sampler gives up on a few very constrained views of one option mix
                # (exact counts with compulsory draws: see its sample_deal); the base policy's
                # move then stands rather than the bot failing the player's game.
                break
            w += 1
            rollout_seed = rng.getrandbits(63)
            base_value = 0.0
            for i, code in enumerate(cands):
                if not active[i]:
                    continue
                d = world.copy()
                d.apply_code(code)
                v = deal_value(self.rollout(d, rollout_seed), me)
                if i == 0:
                    base_value = v
                totals[i] += v
                diff_sum[i] += v - base_value
                diff_sq[i] += (v - base_value) ** 2
            if self.look_every and w >= self.switch_worlds and w % self.look_every == 0:
                switch_to = self._race(w, diff_sum, diff_sq, active)
                if switch_to or not any(active[1:]):
                    break
        self.last_worlds = w
        self._world_cost = self._spent // max(1, w)
        self.last_values = {c: t / w for c, t, a in zip(cands, totals, active) if a} if w else {}
        if switch_to:
            return cands[switch_to]
        if w < max(2, self.switch_worlds):
            return base_code
        best_i = max(range(n), key=lambda i: (diff_sum[i] if active[i] else -math.inf, -i))
        if best_i and self._gain_bounds(w, diff_sum[best_i], diff_sq[best_i])[0] > 0:
            return cands[best_i]
        return base_code

    def _sampler(self, view: View) -> Callable[[], Deal]:
        """Draws the worlds of one decision: weighted by inference when it is on."""
        game, rng = self.game, self.rng
        if self.model is not None and view.history:
            try:
                return WorldPool(game, view, rng, self.model, self.inference).draw
            except ValueError:
                pass  # the sampler gives up on this view (see search): so will every draw
        return lambda: game.sample_deal(view, rng)

    def _gain_bounds(self, w: int, diff_sum: float, diff_sq: float) -> tuple[float, float]:
        """How far a challenger's paired mean gain over the base move lies above the switching
        margin (``min_gain`` plus ``switch_z`` standard errors), and how far its optimistic
        bound (mean plus ``switch_z`` standard errors) lies above ``min_gain``."""
        mean = diff_sum / w
        # The floor keeps a few identical worlds from passing for certainty: a challenger that
        # never differs from the base move is dropped only after about 20 worlds.
        var = max(diff_sq / w - mean * mean, 0.0) * w / (w - 1)
        var = max(var, 1.0 / (w * w))
        spread = self.switch_z * math.sqrt(var / w)
        return mean - spread - self.min_gain, mean + spread - self.min_gain

    def _race(self, w: int, diff_sum: list[float], diff_sq: list[float],
              active: list[bool]) -> int:
        """A look at the statistics after ``w`` worlds: the index of a challenger that already
        clears the switching margin (the best such), else 0, dropping the challengers that
        cannot plausibly reach ``min_gain`` any more, so that the budget goes to the undecided."""
        best, best_gain = 0, 0.0
        for i in range(1, len(active)):
            if not active[i]:
                continue
            low, high = self._gain_bounds(w, diff_sum[i], diff_sq[i])
            if low > 0 and (best == 0 or diff_sum[i] > best_gain):
                best, best_gain = i, diff_sum[i]
            elif high < 0:
                active[i] = False
        return best

    def rollout(self, deal: Deal, seed: int) -> list[int]:
        """Finish ``deal`` with the base policy on every seat; its result (points if cut off; a
        result with the same margins where the policy finishes it exactly, see ``finish``)."""
        game = self.game
        policies = self.policies
        for s, p in enumerate(policies):
            p.rng.seed(derive_seed(seed, s))  # type: ignore[attr-defined]
        # A policy with ``play_out(deal, policies, limit)`` finishes the deal with these
        # policies exactly as the loop below would (the same moves, draws and count of choices)
        # without its per-move dispatch (Two-Ten-Jack's heuristic), or answers None.
        play_out = getattr(policies[0], "play_out", None)
        if play_out is not None:
            done = play_out(deal, policies, self.max_rollout_moves)
            if done is not None:
                self._spent += done[1]
                return list(done[0])
        light = self.light_views
        # A policy with ``choose_code(deal, codes)`` answers what ``choose`` would on the view of
        # the seat to move without the view being built (the heuristics of the games whose
        # rollouts dominate a review's time); the others get a view.
        fast = [getattr(p, "choose_code", None) for p in policies]
        # A policy with ``finish(deal)`` knows the result its own play on every seat reaches
        # from some positions on (an exact endgame: Maltese Twenty once the stock is empty) and
        # gives it, or a result with the same margins, without the moves being played.
        finish = [getattr(p, "finish", None) for p in policies]
        steps = 0
        while deal.to_move is not None and steps < self.max_rollout_moves:
            seat = deal.to_move
            codes = deal.legal_codes()
            if len(codes) == 1:
                deal.apply_code(codes[0])
            else:
                end = finish[seat]
                if end is not None:
                    done = end(deal)
                    if done is not None:
                        return done
                pick = fast[seat]
                if pick is not None:
                    deal.apply_code(pick(deal, codes))
                else:
                    view = light_view(deal, seat, codes) if light else deal.view(seat)
                    move = policies[seat].choose(view)  # type: ignore[attr-defined]
                    deal.apply_code(game.code_of(move))
                self._spent += 1
            steps += 1
        result = deal.result if deal.to_move is None else deal.points
        return list(result or [0] * deal.players)
