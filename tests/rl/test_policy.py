"""Bots from models: policy files in the arena, ``policy_bot`` over any model, ``learned``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cardplay
from cardplay.arena import BotSpecError, run
from cardplay.bots.policy import load_policy, policy_bot, save_policy
from cardplay.cli import main
from cardplay.rl.actions import action_space
from cardplay.rl.observations import encoder


def _random_weights(game: cardplay.Game, hidden: int = 8, seed: int = 0
                    ) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    n_in, n_out = encoder(game).size, action_space(game).size
    return [(rng.normal(size=(n_in, hidden)), rng.normal(size=hidden)),
            (rng.normal(size=(hidden, n_out)), rng.normal(size=n_out))]


def test_a_saved_policy_plays_in_the_arena_command(tmp_path: Path) -> None:
    game = cardplay.load("two-ten-jack")
    path = save_policy(tmp_path / "mine.npz", _random_weights(game), game, note="test")
    out = tmp_path / "res"
    assert main(["arena", "two-ten-jack", str(path), "random", "--deals", "3",
                 "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["bot_a"] == "mine" and report["games_played"] == 6


def test_a_policy_plays_its_best_scored_legal_action(tmp_path: Path) -> None:
    game = cardplay.load("sixty-six")
    weights = _random_weights(game, seed=3)
    bot = load_policy(save_policy(tmp_path / "p.npz", weights, game), game, seed=0)
    deal = game.deal(seed=5)
    seat = deal.to_move
    assert seat is not None
    view = deal.view(seat)
    # the forward pass by hand, with the float16 weights the file keeps
    h = encoder(game).encode_view(view)
    w0, b0 = (np.asarray(x, np.float16).astype(np.float32) for x in weights[0])
    w1, b1 = (np.asarray(x, np.float16).astype(np.float32) for x in weights[1])
    scores = np.maximum(h @ w0 + b0, 0) @ w1 + b1
    legal = action_space(game).legal([game.code_of(m) for m in view.legal_moves])
    best = max(legal, key=lambda a: scores[a])
    assert bot.choose(view) == game.move(legal[best])


def test_a_policy_for_another_game_is_refused(tmp_path: Path) -> None:
    ttj = cardplay.load("two-ten-jack")
    path = save_policy(tmp_path / "ttj.npz", _random_weights(ttj), ttj)
    with pytest.raises(BotSpecError, match="a policy for two-ten-jack"):
        run("sixty-six", str(path), "random", deals=1)
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(BotSpecError, match="not a cardplay policy file"):
        run("sixty-six", str(tmp_path / "junk.npz"), "random", deals=1)


def test_policy_bot_wraps_any_model_and_refuses_an_illegal_choice() -> None:
    game = cardplay.load("sixty-six")
    seen: list[tuple[int, int]] = []

    def last_legal(obs: np.ndarray, mask: np.ndarray) -> int:
        seen.append((obs.shape[0], int(mask.sum())))
        return int(np.flatnonzero(mask)[-1])

    deal = game.deal(seed=2)
    seat = deal.to_move
    assert seat is not None
    view = deal.view(seat)
    legal = action_space(game).legal([game.code_of(m) for m in view.legal_moves])
    assert policy_bot(last_legal, game).choose(view) == game.move(legal[max(legal)])
    assert seen == [(encoder(game).size, len(view.legal_moves))]
    illegal = min(set(range(70)) - set(legal))
    with pytest.raises(ValueError, match=f"predict chose action {illegal} .*not legal now"):
        policy_bot(lambda obs, mask: illegal, game).choose(view)
    with pytest.raises(ValueError, match="predict returned 3 scores; sixty-six has 70"):
        policy_bot(lambda obs, mask: np.zeros(3), game).choose(view)
