"""The vectorised self-play environment: batches, rewards, seeds, errors."""

from __future__ import annotations

import numpy as np
import pytest

import cardplay
from cardplay.rl.observations import encoder
from cardplay.rl.vector import VectorEnv


@pytest.mark.parametrize(("name", "players"), [("sixty-six", 2), ("chukhny", 3),
                                               ("macao", 3)])
def test_batches_hold_each_deals_seat_to_move(name: str, players: int) -> None:
    opts = {} if name == "sixty-six" else {"players": players}
    venv = VectorEnv(name, num_envs=5, **opts)
    game = cardplay.load(name, **opts)
    batch = venv.reset(seed=3)
    size = encoder(game).size
    assert batch.obs.shape == (5, size) and batch.obs.dtype == np.float32
    assert batch.mask.shape == (5, venv.action_size) and batch.mask.dtype == np.int8
    assert batch.rewards.shape == (5, players)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        for i, table in enumerate(venv.tables):
            seat = int(batch.to_move[i])
            assert table.to_move == seat
            assert np.array_equal(batch.obs[i], table.observe(seat))
            assert sorted(np.flatnonzero(batch.mask[i])) == sorted(table.legal())
        batch = venv.step(venv.sample(rng))
        for i in np.flatnonzero(batch.dones):
            deal = venv.finished[i]
            assert deal is not None and deal.is_over
            result = [float(r) for r in deal.result]  # type: ignore[union-attr]
            mean_others = [(sum(result) - r) / (players - 1) for r in result]
            assert batch.rewards[i] == pytest.approx(
                [r - m for r, m in zip(result, mean_others)])
            ended += 1
        quiet = ~batch.dones
        assert not batch.rewards[quiet].any()
    assert ended >= 5


def test_a_seeded_run_replays_and_raw_rewards_are_the_results() -> None:
    def run(seed: int) -> list[tuple[bytes, bytes]]:
        venv = VectorEnv("two-ten-jack", num_envs=4, reward="raw")
        rng = np.random.default_rng(1)
        batch = venv.reset(seed=seed)
        out = []
        for _ in range(80):
            batch = venv.step(venv.sample(rng))
            out.append((batch.obs.tobytes(), batch.rewards.tobytes()))
            for i in np.flatnonzero(batch.dones):
                assert list(batch.rewards[i]) == list(venv.finished[i].result)  # type: ignore
        return out

    assert run(5) == run(5) and run(5) != run(6)


def test_an_illegal_action_is_refused_before_any_deal_moves() -> None:
    venv = VectorEnv("sixty-six", num_envs=3)
    batch = venv.reset(seed=1)
    before = batch.obs.copy()
    actions = venv.sample(np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(batch.mask[1] == 0)[0])
    with pytest.raises(ValueError, match=r"deal 1: cardplay\.rl: sixty-six: action \d+ is not"):
        venv.step(actions)
    # nothing moved: the same decisions, and legal actions step every deal
    assert np.array_equal(before, batch.obs)
    assert [t.moves for t in venv.tables] == [0, 0, 0]
    venv.step(venv.sample(np.random.default_rng(0)))
    assert [t.moves for t in venv.tables] == [1, 1, 1]
    with pytest.raises(ValueError, match="step takes 3 integer actions"):
        venv.step([0, 1])
    with pytest.raises(ValueError, match="num_envs is a whole number"):
        VectorEnv("sixty-six", num_envs=0)
    with pytest.raises(RuntimeError, match="reset"):
        VectorEnv("sixty-six").step([0] * 8)
