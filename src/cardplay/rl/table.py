"""What the PettingZoo and Gymnasium adapters share: the game, its spaces, seeds, masks, and the
``reward=`` choice (:func:`shape_result`, which OpenSpiel's returns use as well)."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import Deal, Game, Match, Move, derive_seed, load
from .actions import ActionSpace, action_space
from .observations import Encoder, encoder

EPISODES = ("deal", "match")
# What a finished deal pays each seat (the PettingZoo env, the Gymnasium env and OpenSpiel's
# returns): "zero_sum" the seat's result minus the mean of the others' results (a deal's rewards
# sum to 0), "win" +1 for the best result (shared on ties), "raw" the result itself.
REWARDS = ("zero_sum", "win", "raw")


def check_reward(reward: object) -> str:
    if reward not in REWARDS:
        raise ValueError(f"cardplay.rl: reward={reward!r} is not valid; valid: "
                         f"{', '.join(REWARDS)}")
    return str(reward)


def shape_result(result: Sequence[float], reward: str) -> list[float]:
    """A deal's result per seat as the ``reward`` mode pays it.

    ``zero_sum``: ``r_i - mean(r_j, j != i)``; ``win``: the same of the seats' shares of the win
    (1/k for each of k seats tied for the best result, else 0), so in two-player games the winner
    gets +1, the loser -1 and a tie 0, and with n seats a lone winner +1 and the others
    -1/(n-1); ``raw``: the result."""
    values = [float(x) for x in result]
    n = len(values)
    if reward == "raw" or n < 2:
        return values
    if reward == "win":
        best = max(values)
        k = sum(1 for v in values if v == best)
        values = [1.0 / k if v == best else 0.0 for v in values]
    total = sum(values)
    return [(n * v - total) / (n - 1) for v in values]  # v - (total - v) / (n - 1)


def reward_bounds(bounds: tuple[float, float], reward: str) -> tuple[float, float]:
    """The range of one seat's reward for a deal, from the range of its result."""
    lo, hi = bounds
    if reward == "raw":
        return lo, hi
    if reward == "win":
        return -1.0, 1.0
    return lo - hi, hi - lo
_INT8 = np.dtype(np.int8)  # np.frombuffer converts a type to this at every call


def resolve_game(game: str | Game, options: dict[str, Any]) -> Game:
    """A Game from a name and options, or a loaded Game (then no options)."""
    if isinstance(game, Game):
        if options:
            raise ValueError(f"cardplay.rl: options {sorted(options)} given with a loaded game; "
                             f"pass the game's name with its options instead")
        return game
    return load(game, **options)


class Table:
    """One episode's deal or match, with the game's action space and observation encoder.

    ``episode="deal"``: one deal, its dealer drawn at random from the episode's seed;
    ``episode="match"``: a whole match (deals follow each other as the rules say).
    """

    def __init__(self, game: Game, episode: str, seed: int | None,
                 max_moves: int | None, reward: str = "zero_sum") -> None:
        if episode not in EPISODES:
            raise ValueError(f"cardplay.rl: episode={episode!r} is not valid; valid: "
                             f"{', '.join(EPISODES)}")
        if max_moves is not None and (isinstance(max_moves, bool) or
                                      not isinstance(max_moves, int) or max_moves < 1):
            raise ValueError(f"cardplay.rl: max_moves is a whole number >= 1 or None, "
                             f"not {max_moves!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"cardplay.rl: seed is a whole number or None, not {seed!r}")
        self.reward = check_reward(reward)
        self.game = game
        self.players = game.players
        self.episode = episode
        self.max_moves = max_moves
        self.space: ActionSpace = action_space(game)
        self.encoder: Encoder = encoder(game)
        self.base_seed = 0 if seed is None else seed
        self.rng: random.Random | None = None
        self.deal: Deal
        self.match: Match | None = None
        self.moves = 0
        self._codes: list[int] | None = None
        self._legal: dict[int, int] | None = None
        self._finished = 0
        # what apply() returns when no deal ended: shared, so that callers can skip summing it
        self.no_pay: tuple[float, ...] = (0.0,) * self.players
        self._no_mask = np.zeros(self.space.size, np.int8)

    def seed(self, seed: int | None) -> random.Random:
        """Reseed (``seed`` given) or continue the episode stream; returns the stream."""
        if seed is not None:
            self.rng = random.Random(derive_seed(self.base_seed, "rl-reset", int(seed)))
        elif self.rng is None:
            self.rng = random.Random(int.from_bytes(os.urandom(8), "big"))
        return self.rng

    def start(self, seed: int | None) -> random.Random:
        """A new episode (seeded as :meth:`seed` says)."""
        rng = self.seed(seed)
        s = rng.getrandbits(63)
        if self.episode == "deal":
            self.match = None
            self.deal = self.game.deal(s, dealer=rng.randrange(self.players))
        else:
            self.match = self.game.match(s)
            self.deal = self.match.deal
        self.moves = 0
        self._codes = self._legal = None
        self._finished = 0
        return rng

    # ---- state

    @property
    def to_move(self) -> int | None:
        match = self.match
        return self.deal.to_move if match is None else match.to_move

    @property
    def over(self) -> bool:
        match = self.match
        return self.deal.to_move is None if match is None else match.is_over

    def codes(self) -> list[int]:
        """The legal move codes of the seat to move (cached per position)."""
        codes = self._codes
        if codes is None:
            codes = self._codes = self.deal.legal_codes() if not self.over else []
        return codes

    def legal(self) -> dict[int, int]:
        """Legal actions of the seat to move: action -> engine code (cached per position)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self.space.legal(self.codes())
        return legal

    def mask(self, seat: int) -> np.ndarray:
        """The int8 action mask of ``seat`` (all 0 unless it is to move)."""
        match = self.match
        if seat != (self.deal.to_move if match is None else match.to_move):
            return self._no_mask.copy()
        space = self.space
        if space.mapped:  # the mapping is the costly part: build it once per position
            m = bytearray(space.size)
            for a in self.legal():
                m[a] = 1
            return np.frombuffer(m, _INT8)
        codes = self._codes
        if codes is None:  # a seat is to move, so the episode is not over
            codes = self._codes = self.deal.legal_codes()
        return np.frombuffer(space.mask(codes), _INT8)

    def observe(self, seat: int) -> np.ndarray:
        return self.encoder.deal_encoder(self.deal, seat, self.match)

    # ---- moves

    def illegal_message(self, action: Any) -> str:
        seat = self.to_move
        legal = self.legal()
        shown = ", ".join(f"{a} ({self.space.text(a)})" for a in sorted(legal)[:40])
        more = "" if len(legal) <= 40 else f", ... ({len(legal)} in all)"
        return (f"cardplay.rl: {self.game.name}: action {action!r} is not legal for seat {seat} "
                f"now; legal actions: {shown}{more}")

    def code_of(self, action: Any) -> int | None:
        """The engine code of a legal action, or None (an illegal or malformed action)."""
        if type(action) is int:  # the common case first (bool is not an int action)
            if self.space.mapped:
                return self.legal().get(action)
            return self.space.code_of(action, self.codes())
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            return None
        if self.space.mapped:
            return self.legal().get(int(action))
        return self.space.code_of(int(action), self.codes())

    def apply(self, code: int) -> Sequence[float]:
        """Apply a legal code; the results of the deals this finished (:attr:`no_pay` if
        none)."""
        if self.match is None:
            deal = self.deal
            deal.apply_code(code)
            self.moves += 1
            self._codes = self._legal = None
            if deal.to_move is None:
                return shape_result(deal.result or [0] * self.players, self.reward)
            return self.no_pay
        return self.play(self.game.move(code))

    def play(self, move: Move) -> Sequence[float]:
        """Play a move through the public API (checked); like :meth:`apply`."""
        if self.match is None:
            self.deal.play(move)
        else:
            self.match.play(move)
            self.deal = self.match.deal
        return self._after()

    def _after(self) -> Sequence[float]:
        self.moves += 1
        self._codes = self._legal = None
        match = self.match
        n = self.players
        if match is None:
            if self.deal.to_move is None:
                return shape_result(self.deal.result or [0] * n, self.reward)
            return self.no_pay
        out = [0.0] * n
        while self._finished < len(match.deals):
            res = shape_result(match.deals[self._finished].result or [0] * n, self.reward)
            out = [a + b for a, b in zip(out, res)]
            self._finished += 1
        return out

    @property
    def truncated(self) -> bool:
        return self.max_moves is not None and self.moves >= self.max_moves and not self.over

    def render_text(self, seat: int | None = None) -> str:
        """A short text of the position, seen by ``seat`` (default: the seat to move)."""
        if seat is None:
            seat = self.to_move if self.to_move is not None else 0
        v = self.match.view(seat) if self.match is not None else self.deal.view(seat)
        lines = [f"{self.game.name}: seat {seat}'s view; to move: {v.to_move}; "
                 f"points {list(v.points)}"]
        if self.match is not None:
            lines.append(f"match scores {list(self.match.scores)}")
        lines.append("hand: " + " ".join(str(c) for c in v.hand))
        if v.legal_moves:
            lines.append("legal: " + " ".join(f"{self.space.text(a)}={a}"
                                              for a in sorted(self.legal())))
        if v.result is not None:
            lines.append(f"result {list(v.result)}")
        return "\n".join(lines)
