"""The Gymnasium single-seat environment: the env checker, masks, rewards, illegal actions."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cardplay
from cardplay.rl.gym import CardplayEnv, Pool

from .helpers import CONFIGS, IDS, VARIANT_IDS, VARIANTS


@pytest.mark.parametrize(("name", "opts"), CONFIGS + VARIANTS, ids=IDS + VARIANT_IDS)
def test_check_env(name: str, opts: dict[str, Any]) -> None:
    for opponents in ("random", "heuristic"):
        env = CardplayEnv(name, opponents=opponents, seat="random", **opts)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env, skip_render_check=True)
        assert not [str(w.message) for w in caught]


def _play(env: CardplayEnv, seed: int) -> tuple[float, list[int], dict[str, Any]]:
    obs, info = env.reset(seed=seed)
    total = 0.0
    actions = []
    rng = np.random.default_rng(seed)
    while True:
        legal = info["legal_actions"]
        assert np.array_equal(np.flatnonzero(env.action_masks()), legal)
        assert np.array_equal(info["action_mask"], env.action_masks())
        assert env.observation_space.contains(obs)
        a = int(rng.choice(legal))
        actions.append(a)
        obs, reward, terminated, truncated, info = env.step(a)
        total += reward
        if terminated or truncated:
            return total, actions, info


@pytest.mark.parametrize("name", cardplay.games())
def test_reward_is_the_seat_result_and_seeds_replay(name: str) -> None:
    env = CardplayEnv(name, opponents="heuristic", seat="random")
    raw = CardplayEnv(name, opponents="heuristic", seat="random", reward="raw")
    for seed in range(3):
        total, actions, info = _play(env, seed)
        deal = env.table.deal
        assert deal.is_over
        result = list(deal.result)  # type: ignore[arg-type]
        others = [r for s, r in enumerate(result) if s != env.seat]
        # zero-sum by default: the seat's result less the mean of the others'
        assert total == pytest.approx(result[env.seat] - sum(others) / len(others))
        assert _play(raw, seed)[0] == float(result[env.seat])
        assert not info["action_mask"].any()
        again = _play(env, seed)
        assert again[0] == total and again[1] == actions


def test_illegal_action_penalty_keeps_the_position() -> None:
    env = CardplayEnv("sixty-six", illegal_penalty=-2.5)
    obs, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert reward == -2.5 and not terminated and not truncated
    assert f"action {illegal} is not legal for seat 0 now; legal actions:" in \
        info2["illegal_action"]
    assert np.array_equal(obs, obs2)
    assert np.array_equal(info["legal_actions"], info2["legal_actions"])
    # ... and nothing was played: a legal action still works
    _, _, _, _, info3 = env.step(int(info2["legal_actions"][0]))
    assert "illegal_action" not in info3


def test_illegal_action_can_end_the_episode() -> None:
    env = CardplayEnv("macao", illegal="terminate", seat=1)
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step(0)  # a card slot: never legal in Macao
    assert reward == -1.0 and terminated and "not legal" in info["illegal_action"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_match_episode_and_truncation() -> None:
    env = CardplayEnv("chukhny", episode="match", games=2, players=3, opponents="heuristic",
                      reward="raw")
    total, _, _ = _play(env, 7)
    match = env.table.match
    assert match is not None and match.is_over
    assert total == float(match.finished_scores[0])
    env = CardplayEnv("two-ten-jack", max_moves=6)
    _, info = env.reset(seed=1)
    truncated = False
    while not truncated:
        _, _, terminated, truncated, info = env.step(int(info["legal_actions"][0]))
        assert not terminated
    assert env.table.moves >= 6 and not env.table.over


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="seat is 0 to 1"):
        CardplayEnv("sixty-six", seat=2)
    with pytest.raises(ValueError, match="unknown bot level"):
        CardplayEnv("sixty-six", opponents="grandmaster")
    with pytest.raises(ValueError, match=r"a list of 2 \(one per other seat\), not 1"):
        CardplayEnv("twenty", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="illegal="):
        CardplayEnv("twenty", illegal="ignore")
    with pytest.raises(ValueError, match="reward='points' is not valid; valid: zero_sum, win"):
        CardplayEnv("twenty", reward="points")
    with pytest.raises(ValueError, match="an opponent is a bot level, a bot"):
        CardplayEnv("sixty-six", opponents=[3])
    env = CardplayEnv("twenty", players=3, opponents=["random", "heuristic"],
                      render_mode="ansi")
    env.reset(seed=0)
    assert "hand:" in (env.render() or "")


def test_random_opponents_move_as_random_bots_do() -> None:
    """The environment plays RandomBot opponents from the legal codes, without their views:
    the very moves RandomBot.choose would pick."""
    from cardplay.bots import RandomBot

    for name in ("twenty", "macao", "chukhny"):
        game = cardplay.load(name)
        a, b = RandomBot(game, seed=5), RandomBot(game, seed=5)
        deal = game.deal(seed=3)
        while not deal.is_over:
            t = deal.to_move
            assert t is not None
            move = a.choose(deal.view(t))
            code = b.rng.choice(deal.legal_codes())
            assert game.move(code) == move
            deal.apply_code(code)


# ---- ids, opponents of every kind, one mask dtype (issue 34, clause 2)

def test_gymnasium_ids_are_registered_on_import_and_make_works() -> None:
    import gymnasium

    import cardplay.rl

    assert cardplay.rl.gym_ids() == [f"cardplay/{n}-v0" for n in cardplay.games()]
    for env_id in cardplay.rl.gym_ids():
        assert env_id in gymnasium.registry
    env = gymnasium.make("cardplay/sixty-six-v0", opponents="heuristic", reward="win")
    assert isinstance(env.unwrapped, CardplayEnv) and env.unwrapped.game.name == "sixty-six"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    obs, info = env.reset(seed=2)
    assert obs.shape == env.observation_space.shape and info["action_mask"].dtype == np.int8


class _LowestCode:
    """A bot object: the legal move with the lowest engine code."""

    def __init__(self, game: cardplay.Game) -> None:
        self.game = game
        self.calls = 0

    def choose(self, view: cardplay.View) -> cardplay.Move:
        self.calls += 1
        return min(view.legal_moves, key=self.game.code_of)


def test_opponents_may_be_bots_callables_or_a_pool() -> None:
    game = cardplay.load("sixty-six")
    bot = _LowestCode(game)
    seen: list[int] = []

    def last_move(view: cardplay.View) -> cardplay.Move:
        seen.append(view.seat)
        return view.legal_moves[-1]

    env = CardplayEnv("sixty-six", opponents=bot, seat=0)
    _play(env, 1)
    assert bot.calls > 0
    env = CardplayEnv("sixty-six", opponents=last_move, seat=1)
    _play(env, 1)
    assert seen and set(seen) == {0}
    # a three-seat game: one opponent per other seat, or a pool drawn per episode
    env = CardplayEnv("chukhny", players=3, opponents=[last_move, "random"], seat=0)
    seen.clear()
    _play(env, 2)
    assert set(seen) == {1}
    pool_bot = _LowestCode(cardplay.load("chukhny", players=3))
    env = CardplayEnv("chukhny", players=3, opponents=Pool([pool_bot, "random"]), seat=0)
    drawn = []
    for seed in range(12):
        env.reset(seed=seed)
        drawn.append(tuple(type(env.bots[s]).__name__ for s in (1, 2)))
    kinds = {k for pair in drawn for k in pair}
    assert kinds == {"_LowestCode", "RandomBot"}
    # the draw is part of the seeded episode: the same seeds draw the same opponents
    again = []
    for seed in range(12):
        env.reset(seed=seed)
        again.append(tuple(type(env.bots[s]).__name__ for s in (1, 2)))
    assert again == drawn
    env = CardplayEnv("chukhny", players=3, opponents=Pool(["random", pool_bot], [0, 1]))
    env.reset(seed=0)
    assert all(env.bots[s] is pool_bot for s in (1, 2))
    with pytest.raises(ValueError, match="Pool weights are 2 numbers"):
        Pool(["random", "heuristic"], [1])
    with pytest.raises(ValueError, match="unknown bot level"):
        CardplayEnv("sixty-six", opponents=Pool(["random", "grandmaster"]))


def test_every_mask_is_int8() -> None:
    from cardplay.rl.pettingzoo import raw_env

    env = CardplayEnv("two-ten-jack")
    _, info = env.reset(seed=0)
    assert env.action_masks().dtype == np.int8 and info["action_mask"].dtype == np.int8
    assert np.array_equal(env.action_masks(), info["action_mask"])
    e = raw_env("two-ten-jack")
    e.reset(seed=0)
    assert e.observe("player_0")["action_mask"].dtype == np.int8
