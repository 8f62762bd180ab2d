"""A Gymnasium environment: one seat of a cardplay game against bots (optional extra ``rl``).

>>> from cardplay.rl.gym import CardplayEnv
>>> env = CardplayEnv("two-ten-jack", opponents="heuristic")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(int(info["legal_actions"][0]))

The agent plays ``seat`` (a seat number, or ``"random"``: a seat drawn from each episode's seed);
every other seat is played by an opponent. An opponent is a level of :func:`cardplay.bots.load`
(``random``, ``heuristic``, ``fast``, ``strong``, ``learned``), a bot object (``choose(view)``),
or a callable ``view -> Move`` (a frozen copy of the learner for self-play: wrap a model with
:func:`cardplay.bots.policy.policy_bot`). ``opponents`` is one opponent for every other seat, a
list with one per other seat in seat order, or a :class:`Pool`, from which each episode draws
every other seat's opponent (seeded by the episode). Levels are rebuilt with seeds derived from
``reset(seed=...)``, so a seeded episode replays exactly (as far as the given bots and
callables are deterministic). Registered as ``cardplay/<game>-v0`` for ``gymnasium.make`` on
import of :mod:`cardplay.rl`.

Observations are the seat's view encoded by :mod:`cardplay.rl.observations` (float32 in
``[-1, 1]``); actions are the game's fixed action space (:mod:`cardplay.rl.actions`).
:meth:`CardplayEnv.action_masks` (for maskable learners) and ``info["action_mask"]`` mark the
legal actions, both int8 (1 = legal) like PettingZoo's masks; ``info["legal_actions"]`` lists
them.

Reward: what the deal pays the seat when it ends, else 0, as ``reward=`` says (``"zero_sum"``,
the default: the seat's ``result`` minus the mean of the others'; ``"win"``: +1 / 0 / -1; ``"raw"``:
the result; :func:`cardplay.rl.table.shape_result`); with ``episode="match"`` every finished
deal pays so and the episode ends with the match.

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
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, RandomBot
from ..bots import load as load_bot
from ..engine import Game, Move, View, derive_seed
from .table import Table, resolve_game

__all__ = ["ILLEGAL_MODES", "CardplayEnv", "Pool"]

ILLEGAL_MODES = ("penalty", "terminate")

# An opponent: a level name, a bot object, or a callable on a view.
Opponent = str | Bot | Callable[[View], Move]


class Pool:
    """Opponents drawn per episode: each other seat gets one member, drawn with ``weights``
    (default: uniform) from the episode's seeded stream. Members are opponents as
    :class:`CardplayEnv` takes them."""

    def __init__(self, members: Sequence[Opponent], weights: Sequence[float] | None = None
                 ) -> None:
        self.members = list(members)
        if not self.members:
            raise ValueError("cardplay.rl: a Pool needs at least one opponent")
        if weights is not None and (len(weights) != len(self.members)
                                    or any(w < 0 for w in weights) or sum(weights) <= 0):
            raise ValueError(f"cardplay.rl: Pool weights are {len(self.members)} numbers >= 0, "
                             f"not all 0; not {list(weights)!r}")
        self.weights = None if weights is None else [float(w) for w in weights]

    def draw(self, rng: random.Random) -> Opponent:
        if self.weights is None:
            return self.members[rng.randrange(len(self.members))]
        return rng.choices(self.members, self.weights)[0]


class _CallableBot:
    """A callable ``view -> Move`` as a bot."""

    def __init__(self, fn: Callable[[View], Move]) -> None:
        self.fn = fn

    def choose(self, view: View) -> Move:
        return self.fn(view)


def _check_opponent(x: object, game: Game) -> None:
    if isinstance(x, str):
        load_bot(x, game, seed=0)  # fail early on an unknown level
    elif not (callable(getattr(x, "choose", None)) or callable(x)):
        raise ValueError(f"cardplay.rl: an opponent is a bot level, a bot (with choose(view)) "
                         f"or a callable view -> move, not {x!r}")


class CardplayEnv(gymnasium.Env):
    """One seat of a cardplay game against bots, as a Gymnasium environment."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, game: str | Game, *, seat: int | str = 0,
                 opponents: Opponent | Sequence[Opponent] | Pool = "random",
                 episode: str = "deal", illegal: str = "penalty",
                 illegal_penalty: float = -1.0, max_moves: int | None = None,
                 seed: int | None = None, render_mode: str | None = None,
                 reward: str = "zero_sum", **options: Any) -> None:
        g = resolve_game(game, options)
        n = g.players
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int) or
                                 not 0 <= seat < n):
            raise ValueError(f"cardplay.rl: seat is 0 to {n - 1} or 'random', not {seat!r}")
        pool: Pool | None = None
        levels: list[Opponent] = []
        if isinstance(opponents, Pool):
            pool = opponents
            members = pool.members
        elif isinstance(opponents, (list, tuple)):
            levels = list(opponents)
            if len(levels) != n - 1:
                raise ValueError(f"cardplay.rl: opponents is one opponent, a Pool or a list of "
                                 f"{n - 1} (one per other seat), not {len(levels)}")
            members = levels
        else:
            levels = [opponents] * (n - 1)  # type: ignore[list-item]
            members = levels[:1]
        for x in members:
            _check_opponent(x, g)
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"cardplay.rl: illegal={illegal!r} is not valid; valid: "
                             f"{', '.join(ILLEGAL_MODES)}")
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise ValueError(f"cardplay.rl: render_mode={render_mode!r} is not valid; valid: "
                             f"ansi, human")
        self.game = g
        self.table = Table(g, episode, seed, max_moves, reward)
        self.seat_option = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.levels = levels
        self.pool = pool
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
        pool = self.pool
        chosen = [pool.draw(rng) for _ in others] if pool is not None else self.levels
        self.bots = {s: self._bot(x, derive_seed(bot_seed, s)) for s, x in zip(others, chosen)}

    def _bot(self, opponent: Opponent, seed: int) -> Bot:
        if isinstance(opponent, str):
            return load_bot(opponent, self.game, seed=seed)
        if callable(getattr(opponent, "choose", None)):
            return opponent  # type: ignore[return-value]
        return _CallableBot(opponent)  # type: ignore[arg-type]

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
        """The legal actions of the seat now (int8, 1 = legal; all 0 once the episode is
        over): the dtype of ``info["action_mask"]`` and of PettingZoo's masks."""
        return self.table.mask(self.seat)

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
