"""The PettingZoo AEC environments: PettingZoo's own API and seed tests, rewards, errors."""

from __future__ import annotations

import contextlib
import io
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import cardplay
from cardplay.rl.actions import action_space
from cardplay.rl.pettingzoo import env, raw_env

from .helpers import CONFIGS, IDS, VARIANT_IDS, VARIANTS

SEEDS = 50


def _quiet_api_test(e: Any) -> None:
    # api_test prints progress and warns that dict observations are not arrays (PettingZoo's
    # own classic games get the same warnings); failures are assertions.
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        api_test(e, num_cycles=100_000)


@pytest.mark.parametrize(("name", "opts"), CONFIGS, ids=IDS)
def test_api_test_on_50_seeds(name: str, opts: dict[str, Any]) -> None:
    for seed in range(SEEDS):
        e = env(name, seed=seed, **opts)
        e.reset(seed=seed)
        for agent in e.possible_agents:
            e.action_space(agent).seed(seed)
        _quiet_api_test(e)


@pytest.mark.parametrize(("name", "opts"), CONFIGS + VARIANTS, ids=IDS + VARIANT_IDS)
def test_seed_test(name: str, opts: dict[str, Any]) -> None:
    seed_test(lambda: env(name, **opts), num_cycles=1000)


@pytest.mark.parametrize(("name", "opts"), VARIANTS, ids=VARIANT_IDS)
def test_api_test_on_variants(name: str, opts: dict[str, Any]) -> None:
    for seed in range(5):
        _quiet_api_test(env(name, seed=seed, **opts))


@pytest.mark.parametrize("name", ["sixty-six", "chukhny", "twenty"])
def test_match_episodes(name: str) -> None:
    opts: dict[str, Any] = {"sixty-six": {"match_target": 2}, "chukhny": {"games": 3},
                            "twenty": {"target": 30}}[name]
    _quiet_api_test(env(name, episode="match", **opts))
    e = raw_env(name, episode="match", reward="raw", **opts)
    e.reset(seed=3)
    paid = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        paid[agent] += reward
        e.step(None if terminated or truncated else
               e.action_space(agent).sample(obs["action_mask"]))
    match = e.table.match
    assert match is not None and match.is_over
    assert [paid[a] for a in e.possible_agents] == [float(s) for s in match.finished_scores]


def _deal_rewards(reward: str, name: str = "two-ten-jack", seed: int = 9,
                  **opts: Any) -> tuple[list[float], list[int]]:
    e = raw_env(name, reward=reward, **opts)
    e.reset(seed=seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward_, terminated, truncated, _ = e.last()
        total[agent] += reward_
        # the first legal action: the same deal whatever the reward
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    result = e.table.deal.result
    assert result is not None
    return [total[a] for a in e.possible_agents], list(result)


def test_rewards_are_the_deal_result_shaped_as_asked() -> None:
    raw, result = _deal_rewards("raw")
    assert sum(result) == 5 and raw == [float(r) for r in result]
    # the same deal zero-sum (the default): each seat's result less the other's
    zero, _ = _deal_rewards("zero_sum")
    assert zero == [float(result[0] - result[1]), float(result[1] - result[0])]
    win, _ = _deal_rewards("win")
    assert win == ([1.0, -1.0] if result[0] > result[1] else [-1.0, 1.0])


def test_three_seat_rewards_sum_to_zero() -> None:
    for seed in range(4):
        zero, result = _deal_rewards("zero_sum", "chukhny", seed, players=3)
        win, _ = _deal_rewards("win", "chukhny", seed, players=3)
        assert sum(zero) == pytest.approx(0.0) and sum(win) == pytest.approx(0.0)
        for s in range(3):
            others = [r for t, r in enumerate(result) if t != s]
            assert zero[s] == pytest.approx(result[s] - sum(others) / 2)
        # Chukhny: one loser (-1), two winners (0) sharing the win: shares 1/2, 1/2, 0, each
        # less the mean of the others' shares
        assert result.count(-1) == 1 and sorted(win) == [-0.5, 0.25, 0.25]


def test_observations_and_masks() -> None:
    e = raw_env("chukhny", players=3)
    e.reset(seed=1)
    space = action_space(e.game)
    deal = e.table.deal
    for agent in e.possible_agents:
        obs = e.observe(agent)
        assert obs["observation"].dtype == np.float32
        assert obs["action_mask"].dtype == np.int8
        seat = int(agent.split("_")[1])
        expect = sorted(space.legal(deal.legal_codes())) if seat == deal.to_move else []
        assert np.flatnonzero(obs["action_mask"]).tolist() == expect
    assert e.agent_selection == f"player_{deal.to_move}"


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = env("sixty-six")
    e.reset(seed=2)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.unwrapped.table.deal.view(0).to_dict()
    with pytest.raises(ValueError, match=r"action 0 is not legal for seat \d now; legal actions:"):
        e.step(illegal)
    for bad in (3.5, "QH", None, True, 99):
        with pytest.raises(ValueError, match="not legal"):
            e.step(bad)
    assert e.unwrapped.table.deal.view(0).to_dict() == before


def test_max_moves_truncates() -> None:
    e = raw_env("chukhny", max_moves=5)
    e.reset(seed=1)
    steps = 0
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated and not terminated
            e.step(None)
            continue
        e.step(e.action_space(agent).sample(obs["action_mask"]))
        steps += 1
    assert steps == 5


def test_same_seed_same_episode_different_constructor_seed_different_deal() -> None:
    def first_obs(**kw: Any) -> np.ndarray:
        e = raw_env("sixty-six", **kw)
        e.reset(seed=5)
        return e.observe(e.agent_selection)["observation"]

    assert np.array_equal(first_obs(), first_obs())
    assert not all(np.array_equal(first_obs(), first_obs(seed=s)) for s in range(1, 4))


def test_order_is_checked_and_the_wrapper_is_optional() -> None:
    e = env("sixty-six")
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        e.observe("player_0")
    for seed in range(3):
        _quiet_api_test(env("two-ten-jack", wrap=True, seed=seed))


def test_render_and_errors() -> None:
    e = raw_env("macao", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None and "legal:" in text and "stake" in text
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("macao", render_mode="rgb")
    with pytest.raises(ValueError, match="episode"):
        raw_env("macao", episode="hand")
    with pytest.raises(cardplay.OptionError):
        raw_env("macao", players=9)
    with pytest.raises(ValueError, match="loaded game"):
        raw_env(cardplay.load("macao"), players=3)
    assert str(raw_env(cardplay.load("macao"))) == "cardplay_macao"


def test_last_before_reset_raises_and_after_a_step_observes_the_next_agent() -> None:
    e = raw_env("maltese-twenty")
    with pytest.raises(RuntimeError, match="reset"):
        e.last()
    e.reset(seed=3)
    obs, *_ = e.last()
    first = e.agent_selection
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    obs, reward, terminated, truncated, info = e.last()
    seat = e.possible_agents.index(e.agent_selection)
    assert e.agent_selection != first and (reward, terminated, truncated, info) == \
        (0.0, False, False, {})
    deal = e.table.deal
    assert np.array_equal(obs["observation"], e.table.encoder.encode_view(deal.view(seat)))
    assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(deal.legal_codes())
    assert e.last(observe=False)[0] is None
