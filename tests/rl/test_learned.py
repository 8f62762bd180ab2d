"""The learned baselines: the shipped NumPy policies as the level ``learned``, and the deep Monte
Carlo trainer of ``benchmarks/train_dmc.py`` (its gradients, and a tiny run end to end)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import cardplay
from cardplay.arena import run
from cardplay.bots import LEVELS
from cardplay.bots import load as load_bot
from cardplay.bots.policy import WEIGHTS, load_policy

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("sixty-six", "two-ten-jack")


def _trainer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_dmc", ROOT / "benchmarks" /
                                                  "train_dmc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_policy_is_small_and_says_how_it_was_trained(name: str) -> None:
    path = WEIGHTS / f"{name}.npz"
    assert path.stat().st_size < 400 * 1024
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
        assert all(z[k].dtype == np.float16 for k in z.files if k != "meta")
    assert meta["game"] == name and meta["method"].startswith("deep Monte Carlo")
    assert meta["decisions"] > 100_000


@pytest.mark.parametrize("name", SHIPPED)
def test_learned_plays_whole_deals_and_beats_random(name: str) -> None:
    game = cardplay.load(name)
    bot = load_bot("learned", game, seed=1)
    deal = game.deal(seed=3)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        move = bot.choose(deal.view(seat)) if seat == 0 else deal.legal_moves()[0]
        assert move in deal.legal_moves()
        deal.play(move, seat=seat)
    report, _ = run(name, "learned", "random", deals=40, seed=5)
    # over 500 deals (docs/bots.md): 0.695 and 0.562 of deals, +1.01 and +3.52 a deal
    assert report.bot_a == "learned" and report.mean_result_a > report.mean_result_b + 0.3


def test_learned_is_a_research_level_only() -> None:
    # not offered by the web catalogue or `cardplay play --vs` (they list LEVELS)
    assert "learned" not in LEVELS
    with pytest.raises(ValueError, match="no learned policy ships for chukhny; games with one: "
                                         "sixty-six, two-ten-jack"):
        load_bot("learned", cardplay.load("chukhny", players=3))


def test_the_backward_pass_matches_numeric_gradients() -> None:
    dmc = _trainer()
    rng = np.random.default_rng(0)
    params = [(p[0].astype(np.float64), p[1].astype(np.float64))
              for p in dmc.init([5, 4, 3], rng)]
    params[-1] = (rng.standard_normal((4, 3)), rng.standard_normal(3))
    x = rng.standard_normal((6, 5))
    weights = rng.standard_normal((6, 3))

    def loss(ps: list[tuple[np.ndarray, np.ndarray]]) -> float:
        out, _ = dmc.forward(ps, x)
        return float((out * weights).sum())

    _, inputs = dmc.forward(params, x)
    grads = dmc.backward(params, inputs, weights)
    for layer in range(2):
        for which in range(2):
            p = params[layer][which]
            g = grads[layer][which]
            idx = (0, 1) if p.ndim == 2 else (1,)
            old = p[idx]
            p[idx] = old + 1e-6
            up = loss(params)
            p[idx] = old - 1e-6
            down = loss(params)
            p[idx] = old
            assert g[idx] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-6)


def test_a_tiny_training_run_writes_a_policy_that_plays(tmp_path: Path) -> None:
    dmc = _trainer()
    path = dmc.train("two-ten-jack", decisions=3000, seed=2, envs=16, hidden=(16,),
                     batch_size=64, updates=1, lr=1e-3, buffer=5000, out=tmp_path, minutes=5)
    again = dmc.train("two-ten-jack", decisions=3000, seed=2, envs=16, hidden=(16,),
                      batch_size=64, updates=1, lr=1e-3, buffer=5000, out=tmp_path / "b",
                      minutes=5)
    game = cardplay.load("two-ten-jack")
    with np.load(path) as a, np.load(again) as b:  # the same seed, the same weights
        assert all(np.array_equal(a[k], b[k]) for k in a.files if k != "meta")
    stopped = dmc.train("two-ten-jack", decisions=3000, seed=2, envs=16, hidden=(16,),
                        batch_size=64, updates=1, lr=1e-3, buffer=5000, out=tmp_path / "c",
                        minutes=5, stop_after=1600)
    with np.load(stopped) as z:
        meta = json.loads(str(z["meta"]))
    assert (meta["decisions"], meta["budget"], meta["hidden"]) == (1600, 3000, [16])
    bot = load_policy(path, game, seed=0)
    deal = game.deal(seed=1)
    seat = deal.to_move
    assert seat is not None
    assert bot.choose(deal.view(seat)) in deal.legal_moves()
