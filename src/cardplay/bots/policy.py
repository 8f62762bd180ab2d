"""Bots from learned models: ``policy_bot(predict)`` for anyone's model, NumPy policy files, and
the shipped level ``learned``.

A model sees what the research adapters give a learner: the seat's view encoded by
:mod:`cardplay.rl.observations` (float32) and the legal actions of the game's fixed action space
(:mod:`cardplay.rl.actions`) as a mask (``numpy.int8``, 1 = legal). ``predict(obs, mask)``
returns either one action or a score per action (the best-scored legal action is played, ties
broken by the bot's seeded generator). An illegal action is an error, never replaced.

A policy file (``.npz``, :func:`save_policy`) holds a small multilayer perceptron, ReLU between
layers: arrays ``W0, b0, W1, b1, ...`` and ``meta``, a JSON text naming the format, the game,
the observation and action sizes (checked against the game on loading) and how it was trained.
It plays with NumPy alone. The level ``learned`` plays the file shipped for the game under
``cardplay/bots/weights/`` (Sixty-Six and Two-Ten-Jack; ``benchmarks/train_dmc.py`` trains
them); other games have none.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..engine import Game, Move, View

__all__ = ["FORMAT", "MLPPolicy", "PolicyBot", "learned", "learned_path", "load_policy",
           "policy_bot", "save_policy"]

FORMAT = "cardplay-policy-1"
WEIGHTS = Path(__file__).resolve().parent / "weights"

Predict = Callable[[np.ndarray, np.ndarray], Any]


class PolicyBot:
    """A bot that plays what ``predict(obs, mask)`` says (see the module docstring)."""

    def __init__(self, game: Game, predict: Predict, seed: int | None = None,
                 name: str = "policy") -> None:
        from ..rl.actions import action_space
        from ..rl.observations import encoder

        self.game = game
        self.predict = predict
        self.space = action_space(game)
        self.encoder = encoder(game)
        self.rng = random.Random(seed)
        self.__name__ = name

    def choose(self, view: View) -> Move:
        if not view.legal_moves:
            raise ValueError("PolicyBot was asked to move when its seat has no legal move")
        game = self.game
        legal = self.space.legal([game.code_of(m) for m in view.legal_moves])
        mask = np.zeros(self.space.size, np.int8)
        mask[list(legal)] = 1
        out = self.predict(self.encoder.encode_view(view), mask)
        if isinstance(out, (int, np.integer)) and not isinstance(out, (bool, np.bool_)):
            action = int(out)
        else:
            scores = np.asarray(out, dtype=np.float64).reshape(-1)
            if scores.shape != (self.space.size,):
                raise ValueError(f"predict returned {scores.shape[0]} scores; "
                                 f"{game.name} has {self.space.size} actions")
            actions = sorted(legal)
            values = scores[actions]
            best = values.max()
            action = self.rng.choice([a for a, v in zip(actions, values) if v == best])
        if action not in legal:
            raise ValueError(f"predict chose action {action} ({self._text(action)}), which is "
                             f"not legal now; legal: {sorted(legal)}")
        return game.move(legal[action])

    def _text(self, action: int) -> str:
        try:
            return self.space.text(action)
        except ValueError:
            return "outside the action space"


def policy_bot(predict: Predict, game: Game, seed: int | None = None,
               name: str = "policy") -> PolicyBot:
    """A bot over any model: ``predict(obs, mask)`` -> an action or a score per action."""
    return PolicyBot(game, predict, seed=seed, name=name)


class MLPPolicy:
    """A multilayer perceptron's forward pass: a score per action (NumPy only)."""

    def __init__(self, weights: Sequence[tuple[np.ndarray, np.ndarray]],
                 meta: dict[str, Any]) -> None:
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32))
                       for w, b in weights]
        self.meta = meta

    def scores(self, obs: np.ndarray) -> np.ndarray:
        """Scores of a batch ``(B, obs)`` or of one observation ``(obs,)``."""
        h = np.asarray(obs, np.float32)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return h

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.scores(obs)


def save_policy(path: str | Path, weights: Sequence[tuple[np.ndarray, np.ndarray]],
                game: Game, **meta: Any) -> Path:
    """Write a policy file (float16 weights keep the shipped files small)."""
    from ..rl.actions import action_space
    from ..rl.observations import encoder

    info = {"format": FORMAT, "game": game.name, "options": game.options_dict(),
            "obs_size": encoder(game).size, "actions": action_space(game).size,
            "layers": len(weights), **meta}
    arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(info, sort_keys=True))}
    for i, (w, b) in enumerate(weights):
        arrays[f"W{i}"] = np.asarray(w, np.float16)
        arrays[f"b{i}"] = np.asarray(b, np.float16)
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    with p.open("wb") as f:
        np.savez_compressed(f, **arrays)  # type: ignore[arg-type]  # numpy's stub
    return p


def read_policy(path: str | Path, game: Game) -> MLPPolicy:
    """A policy file's model, checked to fit the game; ValueError saying why not."""
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            layers = int(meta["layers"])
            weights = [(z[f"W{i}"], z[f"b{i}"]) for i in range(layers)]
    except (OSError, KeyError, ValueError, TypeError) as e:
        raise ValueError(f"{path}: not a cardplay policy file ({type(e).__name__}: {e})") from e
    from ..rl.actions import action_space
    from ..rl.observations import encoder

    if meta.get("format") != FORMAT:
        raise ValueError(f"{path}: format {meta.get('format')!r}, expected {FORMAT!r}")
    want = (game.name, encoder(game).size, action_space(game).size)
    got = (meta.get("game"), meta.get("obs_size"), meta.get("actions"))
    if got != want:
        raise ValueError(f"{path}: a policy for {got[0]} ({got[1]} inputs, {got[2]} actions), "
                         f"not for {want[0]} with these options ({want[1]}, {want[2]})")
    return MLPPolicy(weights, meta)


@functools.lru_cache(maxsize=32)
def _cached_policy(path: str, mtime_ns: int, game: Game) -> MLPPolicy:
    # the arena builds a bot per game played: the file is read once (again if it changes)
    return read_policy(path, game)


def load_policy(path: str | Path, game: Game, seed: int | None = None) -> PolicyBot:
    """A bot playing a policy file's best-scored legal action."""
    p = Path(path)
    try:
        mtime = p.stat().st_mtime_ns
    except OSError as e:
        raise ValueError(f"{path}: cannot read the policy file ({e.strerror or e})") from e
    return PolicyBot(game, _cached_policy(str(p.resolve()), mtime, game), seed=seed,
                     name=p.stem)


def learned_path(game: Game) -> Path:
    """Where the shipped policy of a game lives (it may not exist)."""
    return WEIGHTS / f"{game.name}.npz"


def learned(game: Game, seed: int | None = None) -> PolicyBot:
    """The level ``learned``: the shipped policy of the game; ValueError where there is none."""
    path = learned_path(game)
    if not path.is_file():
        shipped = sorted(p.stem for p in WEIGHTS.glob("*.npz"))
        raise ValueError(f"no learned policy ships for {game.name}; games with one: "
                         f"{', '.join(shipped) or 'none'}")
    bot = load_policy(path, game, seed=seed)
    bot.__name__ = "learned"
    return bot
