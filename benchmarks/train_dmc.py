"""Train the ``learned`` bots: deep Monte Carlo by self-play (DouZero's method), in NumPy.

One command trains Sixty-Six and Two-Ten-Jack and writes their policies where the level
``learned`` finds them (``src/cardplay/bots/weights/<game>.npz``):

    nice -n 19 python benchmarks/train_dmc.py [--game NAME] [--decisions N] [--out DIR]

(the two games in parallel: ``--game sixty-six & --game two-ten-jack``, one process each).

The method (Zha et al., "DouZero", 2021), on :class:`cardplay.rl.vector.VectorEnv`:

* one network, a multilayer perceptron (ReLU), maps a seat's observation to a value per action
  of the game's fixed action space: the expected zero-sum reward of the deal (the seat's result
  minus the other's, scaled by ``SCALE``) after playing that action;
* every seat of ``--envs`` deals at once is played by that network, epsilon-greedy over the
  legal actions (epsilon falling from 0.2 to 0.02 over the run);
* when a deal ends, every decision of each seat becomes a sample (observation, action, that
  seat's final reward): the Monte Carlo target, no bootstrapping, no discount;
* the samples go to a ring buffer; for every ``--envs`` new decisions the network takes
  ``--updates`` Adam steps on mean squared error over minibatches of ``--batch`` drawn from it.

Budgets are counted in decisions, and every random draw comes from ``--seed``, so the same
command on the same machine writes the same weights (NumPy's matrix products may round
differently on another CPU). The weights are saved as float16 (``save_policy``), so the files are
small and play with NumPy alone. ``docs/bots.md`` has what they reach.
"""

from __future__ import annotations

import argparse
import time
from itertools import pairwise
from pathlib import Path

import numpy as np

from cardplay.bots.policy import WEIGHTS, save_policy
from cardplay.rl.vector import VectorEnv

# A deal's zero-sum reward is divided by this, so targets are of order 1.
SCALE = {"sixty-six": 3.0, "two-ten-jack": 20.0}
# Decisions per game by default: about 12 minutes each when both games train at once under
# nice -n 19 on the two shared cores of the development machine (about 350 decisions/s each).
DECISIONS = {"sixty-six": 240_000, "two-ten-jack": 240_000}

Params = list[tuple[np.ndarray, np.ndarray]]


def init(sizes: list[int], rng: np.random.Generator) -> Params:
    """He-initialised layers; the last one small, so early values are near 0."""
    params = []
    for i, (a, b) in enumerate(pairwise(sizes)):
        scale = np.sqrt(2.0 / a) if i < len(sizes) - 2 else 0.01
        params.append(((rng.standard_normal((a, b)) * scale).astype(np.float32),
                       np.zeros(b, np.float32)))
    return params


def forward(params: Params, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The values of a batch, and each layer's input (for the backward pass)."""
    inputs = []
    h = x
    last = len(params) - 1
    for i, (w, b) in enumerate(params):
        inputs.append(h)
        h = h @ w + b
        if i < last:
            h = np.maximum(h, 0.0)
    return h, inputs


def backward(params: Params, inputs: list[np.ndarray], grad: np.ndarray) -> Params:
    grads: Params = []
    for i in range(len(params) - 1, -1, -1):
        w, _ = params[i]
        x = inputs[i]
        grads.append((x.T @ grad, grad.sum(axis=0)))
        if i:
            grad = (grad @ w.T) * (x > 0)
    return grads[::-1]


class Adam:
    def __init__(self, params: Params, lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = [(np.zeros_like(w), np.zeros_like(b)) for w, b in params]
        self.v = [(np.zeros_like(w), np.zeros_like(b)) for w, b in params]

    def step(self, params: Params, grads: Params, b1: float = 0.9, b2: float = 0.999,
             eps: float = 1e-8) -> None:
        self.t += 1
        c1, c2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for (p_w, p_b), (g_w, g_b), (m_w, m_b), (v_w, v_b) in zip(params, grads, self.m,
                                                                   self.v):
            for p, g, m, v in ((p_w, g_w, m_w, v_w), (p_b, g_b, m_b, v_b)):
                m *= b1
                m += (1 - b1) * g
                v *= b2
                v += (1 - b2) * g * g
                p -= self.lr * (m / c1) / (np.sqrt(v / c2) + eps)


def train(name: str, decisions: int, seed: int, envs: int, hidden: tuple[int, ...],
          batch_size: int, updates: int, lr: float, buffer: int, out: Path,
          minutes: float, stop_after: int | None = None) -> Path:
    """Train one game's policy and save it in ``out``; ``decisions`` sets the schedule (and
    the end), ``stop_after`` ends it sooner with the same schedule, as the ``minutes`` cap
    does (the file records the decisions played: ``--stop-after`` replays a capped run)."""
    rng = np.random.default_rng(seed)
    venv = VectorEnv(name, num_envs=envs, reward="zero_sum", seed=seed)
    game = venv.game
    params = init([venv.observation_size, *hidden, venv.action_size], rng)
    opt = Adam(params, lr)
    scale = SCALE.get(name, 1.0)
    obs_buf = np.zeros((buffer, venv.observation_size), np.float32)
    act_buf = np.zeros(buffer, np.int64)
    tgt_buf = np.zeros(buffer, np.float32)
    stored = 0  # samples ever written (the ring's write position is stored % buffer)
    trajectories: list[list[tuple[np.ndarray, int, int]]] = [[] for _ in range(envs)]
    batch = venv.reset(seed=seed)
    done_decisions = deals = 0
    losses: list[float] = []
    started = time.time()
    next_report = 0
    end = decisions if stop_after is None else min(decisions, stop_after)
    while done_decisions < end and time.time() - started < 60 * minutes:
        eps = 0.2 + (0.02 - 0.2) * min(1.0, done_decisions / (0.8 * decisions))
        values, _ = forward(params, batch.obs)
        values = np.where(batch.mask > 0, values, -np.inf)
        actions = values.argmax(axis=1)
        explore = rng.random(envs) < eps
        if explore.any():
            noise = rng.random((envs, venv.action_size)) * batch.mask
            actions = np.where(explore, noise.argmax(axis=1), actions)
        for i in range(envs):
            trajectories[i].append((batch.obs[i].copy(), int(actions[i]),
                                    int(batch.to_move[i])))
        batch = venv.step(actions)
        done_decisions += envs
        for i in np.flatnonzero(batch.dones):
            rewards = batch.rewards[i] / scale
            for o, a, s in trajectories[i]:
                k = stored % buffer
                obs_buf[k], act_buf[k], tgt_buf[k] = o, a, rewards[s]
                stored += 1
            trajectories[i] = []
            deals += 1
        filled = min(stored, buffer)
        if filled >= 4 * batch_size:
            for _ in range(updates):
                idx = rng.integers(0, filled, batch_size)
                x, a, y = obs_buf[idx], act_buf[idx], tgt_buf[idx]
                out_v, inputs = forward(params, x)
                picked = out_v[np.arange(batch_size), a]
                err = picked - y
                grad = np.zeros_like(out_v)
                grad[np.arange(batch_size), a] = 2.0 * err / batch_size
                opt.step(params, backward(params, inputs, grad))
                losses.append(float((err * err).mean()))
        if done_decisions >= next_report:
            loss = float(np.mean(losses[-200:])) if losses else float("nan")
            print(f"{name}: {done_decisions:>9} decisions, {deals:>7} deals, eps {eps:.3f}, "
                  f"loss {loss:.4f}, {time.time() - started:6.0f} s", flush=True)
            next_report += decisions // 40
    path = save_policy(out / f"{name}.npz", params, game, method="deep Monte Carlo (DouZero)",
                       decisions=done_decisions, budget=decisions, deals=deals, seed=seed,
                       hidden=list(hidden),
                       reward=f"zero_sum / {scale:g}",
                       seconds=round(time.time() - started))
    print(f"{name}: wrote {path} ({path.stat().st_size / 1024:.0f} KiB) after "
          f"{done_decisions} decisions, {deals} deals, {time.time() - started:.0f} s")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=sorted(SCALE),
                    help="only this game (repeatable; default both)")
    ap.add_argument("--decisions", type=int, default=None,
                    help="decisions to play per game (default: 240,000)")
    ap.add_argument("--minutes", type=float, default=15.0,
                    help="stop a game's training after this long whatever the budget")
    ap.add_argument("--stop-after", type=int, default=None,
                    help="stop after this many decisions, the schedule unchanged (to replay a "
                         "run that the --minutes cap ended)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--hidden", type=int, nargs="+", default=[128, 64])
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--updates", type=int, default=1)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--buffer", type=int, default=200_000)
    ap.add_argument("--out", type=Path, default=WEIGHTS)
    args = ap.parse_args()
    for name in args.game or sorted(SCALE, reverse=True):
        train(name, args.decisions or DECISIONS[name], args.seed, args.envs,
              tuple(args.hidden), args.batch, args.updates, args.lr, args.buffer, args.out,
              args.minutes, args.stop_after)


if __name__ == "__main__":
    main()
