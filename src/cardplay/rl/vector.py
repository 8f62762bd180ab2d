"""A vectorised self-play environment: N deals of one game stepped together, NumPy batches in
and out (optional extra ``rl``).

>>> from cardplay.rl.vector import VectorEnv
>>> venv = VectorEnv("sixty-six", num_envs=64)
>>> batch = venv.reset(seed=0)
>>> batch.obs.shape, batch.mask.shape, batch.to_move.shape      # (64, 345), (64, 70), (64,)
>>> batch = venv.step(policy(batch.obs, batch.mask))             # one action per deal

Every seat is played by the caller: in each deal the seat to move (``to_move``) acts, seeing its
own observation (:mod:`cardplay.rl.observations`, relative to that seat) and its legal actions
(``mask``, int8, 1 = legal) over the game's fixed action space (:mod:`cardplay.rl.actions`).
``step(actions)`` plays one action in every deal and returns the next batch: ``rewards`` (N,
players) is what the deals that ended on this step paid every seat, as ``reward=`` says
(``"zero_sum"``, ``"win"``, ``"raw"``: :func:`cardplay.rl.table.shape_result`), ``dones`` marks
them (and ``truncated`` those cut by ``max_moves``). A finished deal is replaced at once by the
next deal of its seeded stream, so the batch always holds N decisions; ``reset(seed=s)`` starts
every deal's stream afresh (deal ``i`` from ``s + i``), so a seeded run replays exactly.

An illegal action in any deal raises ``ValueError`` naming the deal and its legal actions, before
any deal is stepped. One Python loop over the deals remains (the engine is pure Python): what the
batch buys is one call of the learner's model for N decisions. (Gymnasium's own
``make_vec`` on the registered ids resets but cannot step: it stacks ``info`` entries, and
``info["legal_actions"]`` differs in length from deal to deal.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine import Deal, Game, derive_seed
from .table import Table, resolve_game

__all__ = ["Batch", "VectorEnv"]


@dataclass
class Batch:
    """One step's batch (arrays of the environment, overwritten by its next step: copy what
    you keep)."""

    obs: np.ndarray        # (N, observation size) float32: each deal's seat to move
    mask: np.ndarray       # (N, actions) int8
    to_move: np.ndarray    # (N,) int64: the seat whose decision it is
    rewards: np.ndarray    # (N, players) float32: paid on this step
    dones: np.ndarray      # (N,) bool: the deal ended on this step (and was replaced)
    truncated: np.ndarray  # (N,) bool: ... cut by max_moves


class VectorEnv:
    """N deals stepped together (see the module docstring)."""

    def __init__(self, game: str | Game, num_envs: int = 8, *, seed: int | None = None,
                 reward: str = "zero_sum", max_moves: int | None = None,
                 **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"cardplay.rl: num_envs is a whole number >= 1, not {num_envs!r}")
        g = resolve_game(game, options)
        base = 0 if seed is None else seed
        self.game = g
        self.num_envs = num_envs
        self.tables = [Table(g, "deal", derive_seed(base, "vector", i), max_moves, reward)
                       for i in range(num_envs)]
        t0 = self.tables[0]
        self.players = g.players
        self.observation_size = t0.encoder.size
        self.action_size = t0.space.size
        self._obs = np.zeros((num_envs, self.observation_size), np.float32)
        self._mask = np.zeros((num_envs, self.action_size), np.int8)
        self._to_move = np.zeros(num_envs, np.int64)
        self._rewards = np.zeros((num_envs, self.players), np.float32)
        self._dones = np.zeros(num_envs, bool)
        self._truncated = np.zeros(num_envs, bool)
        self._started = False
        # the deals that ended on the last step, by slot (None elsewhere): their results
        self.finished: list[Deal | None] = [None] * num_envs

    def reset(self, seed: int | None = None) -> Batch:
        """New deals in every slot (deal ``i`` seeded by ``seed + i``; unseeded: fresh
        randomness)."""
        for i, table in enumerate(self.tables):
            table.start(None if seed is None else seed + i)
            self._fresh(i, table)
        self._started = True
        self._rewards[:] = 0.0
        self._dones[:] = False
        self._truncated[:] = False
        return self._batch()

    def _fresh(self, i: int, table: Table) -> None:
        """Deal on until a seat has a decision (a deal without one is skipped), and observe."""
        for _ in range(1000):
            t = table.to_move
            if t is not None and not table.truncated:
                self._observe(i, table, t)
                return
            table.start(None)
        raise RuntimeError(f"cardplay.rl: {self.game.name}: 1000 deals without a decision")

    def _observe(self, i: int, table: Table, seat: int) -> None:
        self._obs[i] = table.observe(seat)
        self._mask[i] = table.mask(seat)
        self._to_move[i] = seat

    def step(self, actions: Any) -> Batch:
        """Play one action in every deal (``actions``: N integers)."""
        if not self._started:
            raise RuntimeError("cardplay.rl: call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"cardplay.rl: step takes {self.num_envs} integer actions, not "
                             f"an array of shape {acts.shape} and type {acts.dtype}")
        codes = []
        for i, (table, a) in enumerate(zip(self.tables, acts.tolist())):
            code = table.code_of(a)
            if code is None:  # checked for every deal before any is stepped
                raise ValueError(f"deal {i}: {table.illegal_message(a)}")
            codes.append(code)
        rewards, dones, truncated = self._rewards, self._dones, self._truncated
        rewards[:] = 0.0
        dones[:] = False
        truncated[:] = False
        finished = self.finished
        for i, (table, code) in enumerate(zip(self.tables, codes)):
            finished[i] = None
            paid = table.apply(code)
            if paid is not table.no_pay:
                rewards[i] = paid
            t = table.to_move
            if t is None or table.truncated:
                dones[i] = True
                truncated[i] = t is not None
                finished[i] = table.deal
                table.start(None)
                self._fresh(i, table)
            else:
                self._observe(i, table, t)
        return self._batch()

    def _batch(self) -> Batch:
        return Batch(self._obs, self._mask, self._to_move, self._rewards, self._dones,
                     self._truncated)

    def sample(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action in every deal (for baselines and tests)."""
        noise = rng.random(self._mask.shape) * self._mask
        return np.asarray(noise.argmax(axis=1), np.int64)
