"""A Gymnasium environment: one seat of a cardplay game against bots (optional extra ``rl``).

>>> from cardplay.rl.gym import CardplayEnv
>>> env = CardplayEnv("two-ten-jack", opponents="heuristic")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(int(info["legal_actions"][0]))

The agent plays ``seat`` (a seat number, or ``"random"``: a seat drawn from each episode's seed);
every other seat is played by a bot of :func:`cardplay.bots.load`, named by level (``random``,
``heuristic``, ``fast``, ``strong``): ``opponents`` is one level for all of them or a list with one
level per other seat, in seat order. Bots are rebuilt with seeds derived from ``reset(seed=...)``,
so a seeded episode replays exactly.

Observations are the seat's view encoded by :mod:`cardplay.rl.observations` (float32 in
``[-1, 1]``); actions are the game's fixed action space (:mod:`cardplay.rl.actions`).
:meth:`CardplayEnv.action_masks` (bool, for maskable learners) and ``info["action_mask"]`` (int8)
mark the legal actions; ``info["legal_actions"]`` lists them.

Reward: the seat's deal ``result`` when the deal ends (RULES.md 0.6), else 0; with
``episode="match"`` every finished deal pays the seat's result and the episode ends with the match.

An illegal action is never replaced by a legal one. It earns ``illegal_penalty`` (default -1.0)
and ``info["illegal_action"]``, a message naming the legal actions; with ``illegal="penalty"``
(default) nothing else happens (the same position is observed again), with
``illegal="terminate"`` the episode ends there (``terminated=True``). ``max_moves`` truncates an
episode after that many moves (all seats counted).

An episode always starts with a decision of the seat: when the bots finish a deal (or match)
before the seat has anything to decide - a banker never moves in Banchok or Macao - ``reset``
goes on to the next one of the same seeded stream and reports the seat's results of the skipped
ones in ``info["skipped_episodes"]``. What the seat earned before its first move (in a match) is
in ``info["paid_before_first_move"]``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, RandomBot
from ..bots import load as load_bot
from ..engine import Game, derive_seed
from .table import Table, resolve_game

__all__ = ["ILLEGAL_MODES", "CardplayEnv"]

ILLEGAL_MODES = ("penalty", "terminate")


class CardplayEnv(gymnasium.Env):
    """One seat of a cardplay game against bots, as a Gymnasium environment."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, game: str | Game, *, seat: int | str = 0,
                 opponents: str | Sequence[str] = "random", episode: str = "deal",
                 illegal: str = "penalty", illegal_penalty: float = -1.0,
                 max_moves: int | None = None, seed: int | None = None,
                 render_mode: str | None = None, **options: Any) -> None:
        g = resolve_game(game, options)
        n = g.players
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int) or
                                 not 0 <= seat < n):
            raise ValueError(f"cardplay.rl: seat is 0 to {n - 1} or 'random', not {seat!r}")
        levels = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(levels) != n - 1 or not all(isinstance(x, str) for x in levels):
            raise ValueError(f"cardplay.rl: opponents is one bot level or a list of {n - 1} "
                             f"levels (one per other seat), not {opponents!r}")
        for level in set(levels):
            load_bot(level, g, seed=0)  # fail early on an unknown level
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"cardplay.rl: illegal={illegal!r} is not valid; valid: "
                             f"{', '.join(ILLEGAL_MODES)}")
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise ValueError(f"cardplay.rl: render_mode={render_mode!r} is not valid; valid: "
                             f"ansi, human")
        self.game = g
        self.table = Table(g, episode, seed, max_moves)
        self.seat_option = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.levels = levels
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-1.0, 1.0, (self.table.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.table.space.size)
        self.bots: dict[int, Bot] = {}
        self._done = True

    # ---- gymnasium API

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.table.start(seed)
        skipped: list[float] = []
        while True:
            self._seat_bots(rng)
            paid = self._play_bots()
            if self.table.to_move == self.seat and not self.table.truncated:
                break
            # The seat had nothing to decide (a banker never moves in Banchok or Macao): the
            # next deal (or match) of the same seeded stream is played instead.
            skipped.append(paid)
            if len(skipped) >= 1000:
                raise RuntimeError(f"cardplay.rl: seat {self.seat} had no move in 1000 episodes")
            self.table.start(None)
        self._done = False
        info = self._info()
        if skipped:
            info["skipped_episodes"] = skipped
        if paid:
            info["paid_before_first_move"] = paid
        return self.table.observe(self.seat), info

    def _seat_bots(self, rng: random.Random) -> None:
        n = self.game.players
        if self.seat_option == "random":
            self.seat = rng.randrange(n)
        bot_seed = rng.getrandbits(63)
        others = [s for s in range(n) if s != self.seat]
        self.bots = {s: load_bot(level, self.game, seed=derive_seed(bot_seed, s))
                     for s, level in zip(others, self.levels)}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("cardplay.rl: the episode is over; call reset()")
        table = self.table
        code = table.code_of(action)
        if code is None:
            info = self._info()
            info["illegal_action"] = table.illegal_message(action)
            terminated = self.illegal == "terminate"
            self._done = terminated
            return table.observe(self.seat), self.illegal_penalty, terminated, False, info
        reward = table.apply(code)[self.seat]
        reward += self._play_bots()
        terminated = table.over
        truncated = not terminated and table.truncated
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return table.observe(self.seat), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the seat now (bool; all False once the episode is over)."""
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.table.render_text(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ---- internals

    def _play_bots(self) -> float:
        """Let the bots move until the seat is to move or the episode ends; the seat's pay."""
        table = self.table
        paid = 0.0
        seat = self.seat
        while True:
            t = table.to_move
            if t is None or t == seat or table.truncated:
                return paid
            bot = self.bots[t]
            if type(bot) is RandomBot:
                # RandomBot.choose(view) is rng.choice(view.legal_moves), and a view's legal
                # moves are the legal codes in order: the same move, without building the view.
                paid += table.apply(bot.rng.choice(table.codes()))[seat]
                continue
            view = table.match.view(t) if table.match is not None else table.deal.view(t)
            paid += table.play(bot.choose(view))[seat]

    def _info(self) -> dict[str, Any]:
        table = self.table
        if not self._done or table.to_move == self.seat:
            mask = table.mask(self.seat)
            if table.space.mapped:
                # Twenty's thousands of actions: its few legal ones are known, no need to scan
                legal = np.array(sorted(table.legal()) if table.to_move == self.seat else [],
                                 np.intp)
            else:
                legal = np.flatnonzero(mask)
        else:
            mask = np.zeros(table.space.size, np.int8)
            legal = np.flatnonzero(mask)
        return {"action_mask": mask, "legal_actions": legal, "seat": self.seat,
                "to_move": table.to_move}
