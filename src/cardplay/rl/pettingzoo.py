"""PettingZoo AEC environments for every cardplay game (optional extra ``rl``).

>>> from cardplay.rl.pettingzoo import env
>>> e = env("sixty-six", preset="schnapsen")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else \\
...         e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents are ``player_0 .. player_{n-1}`` (the game's seats). Each observation is a dict:
``"observation"``, the seat's view encoded by :mod:`cardplay.rl.observations` (float32 in
``[-1, 1]``), and ``"action_mask"`` (int8, 1 for each legal action of the agent to move, all 0
for the others) over the game's fixed action space (:mod:`cardplay.rl.actions`).

Rewards are paid to every seat when the deal ends, 0 before, as ``reward=`` says
(:func:`cardplay.rl.table.shape_result`): ``"zero_sum"`` (default) the seat's ``result``
(RULES.md 0.6) minus the mean of the other seats' results, so a deal's rewards sum to 0;
``"win"`` +1 to the best result, split on ties (two players: +1 / 0 / -1); ``"raw"`` the result
itself. With ``episode="match"`` an episode is a whole match and each finished deal pays so.
An illegal action raises ``ValueError`` naming the legal ones (the state is unchanged); nothing
is ever substituted. ``max_moves`` truncates an episode (all agents truncated, no reward) after
that many moves. ``seed`` (constructor) is mixed into every episode's seed, so environments
built with different seeds play different deals for the same ``reset(seed=...)``; the dealer of
each deal is drawn from the episode's seed. Calling ``step`` or ``observe`` before ``reset`` raises
``RuntimeError``; ``env(..., wrap=True)`` adds PettingZoo's order-enforcing wrapper.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine import Game
from .table import Table, resolve_game

__all__ = ["CardplayAECEnv", "env", "raw_env"]

RENDER_MODES = ("ansi", "human")


class CardplayAECEnv(AECEnv):
    """A cardplay game as a PettingZoo AEC environment."""

    metadata = {"name": "cardplay_v0", "render_modes": list(RENDER_MODES),
                "is_parallelizable": False}

    def __init__(self, game: str | Game, *, episode: str = "deal", seed: int | None = None,
                 max_moves: int | None = None, render_mode: str | None = None,
                 reward: str = "zero_sum", **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"cardplay.rl: render_mode={render_mode!r} is not valid; valid: "
                             f"ansi, human")
        g = resolve_game(game, options)
        self.table = Table(g, episode, seed, max_moves, reward)
        self.game = g
        self.render_mode = render_mode
        n = g.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.table.space.size
        obs = spaces.Box(-1.0, 1.0, (self.table.encoder.size,), np.float32)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs,
                            "action_mask": spaces.Box(0, 1, (size,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.agents: list[str] = []
        self._started = False
        self._encode = self.table.encoder.deal_encoder

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def __str__(self) -> str:
        return f"cardplay_{self.game.name}"

    # ---- episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.start(seed)
        self._started = True
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._paid = False  # whether self.rewards holds a payment (else all 0)
        self._select()

    def _select(self) -> None:
        t = self.table.to_move
        if t is not None:
            self.agent_selection = self.possible_agents[t]
        elif not getattr(self, "agent_selection", None):
            self.agent_selection = self.possible_agents[0]

    def _check_reset(self) -> None:
        if not self._started:
            raise RuntimeError("cardplay.rl: call reset() before step() or observe()")

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._started:
            self._check_reset()
        seat = self._seat[agent]
        table = self.table
        return {"observation": self._encode(table.deal, seat, table.match),
                "action_mask": table.mask(seat)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # AECEnv.last, less a layer: it runs at every step of every training loop
        if not self._started:
            self._check_reset()
        agent = self.agent_selection
        obs = None
        if observe:  # self.observe(agent), inlined
            seat = self._seat[agent]
            table = self.table
            obs = {"observation": self._encode(table.deal, seat, table.match),
                   "action_mask": table.mask(seat)}
        return (obs, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        if not self._started:
            self._check_reset()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        space = table.space
        if type(action) is int and not space.mapped:  # Table.code_of's common case, inlined
            code = space.code_of(action, table.codes())
        else:
            code = table.code_of(action)
        if code is None:
            raise ValueError(table.illegal_message(action))
        self._cumulative_rewards[agent] = 0.0
        paid = table.apply(code)
        agents = self.agents
        pays = paid is not table.no_pay and any(paid)
        if pays or self._paid:
            self.rewards = {a: paid[self._seat[a]] for a in agents}
            self._paid = pays
        turn = table.to_move
        if turn is None:  # the deal (or the match) is over
            self.terminations = {a: True for a in agents}
        elif table.max_moves is not None and table.truncated:
            self.truncations = {a: True for a in agents}
        else:
            self.agent_selection = self.possible_agents[turn]
        if self._paid:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.table.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(game: str | Game, **options: Any) -> CardplayAECEnv:
    """The environment itself (what :func:`env` returns)."""
    return CardplayAECEnv(game, **options)


def env(game: str | Game, *, wrap: bool = False, **options: Any) -> AECEnv:
    """The environment of a game (name and options as ``cardplay.load`` takes them).

    Keyword arguments ``episode``, ``seed``, ``max_moves``, ``reward`` and ``render_mode``
    configure the
    environment; the others are game options. The environment checks the order of calls itself
    (a step or an observation before ``reset`` is an error), so it is not wrapped in PettingZoo's
    order-enforcing wrapper, which costs about a third of a random game's time; ``wrap=True``
    adds it."""
    e = raw_env(game, **options)
    return wrappers.OrderEnforcingWrapper(e) if wrap else e
