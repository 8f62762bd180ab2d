"""Inference from the opponents' play (cardplay.bots.inference): the likelihood of recorded moves
under the heuristic as a noisy policy, the weighted pool searchers draw from, and evaluate's use."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

import cardplay
from cardplay.bots import evaluate, load
from cardplay.bots.inference import OpponentModel, WorldPool, heuristic_model
from cardplay.bots.ismcts import ISMCTSBot
from cardplay.engine import Deal, Game, View


def _heuristic_position(game: Game, seed: int, moves: int) -> tuple[Deal, View]:
    deal = game.deal(seed=seed)
    bots = [load("heuristic", game, seed=s) for s in range(game.players)]
    for _ in range(moves):
        seat = deal.to_move
        assert seat is not None
        deal.play(bots[seat].choose(deal.view(seat)))
    assert deal.to_move is not None
    return deal, deal.view(deal.to_move)


def test_the_true_deal_of_a_heuristic_opponent_is_among_the_most_likely_worlds() -> None:
    game = cardplay.load("sixty-six")
    model = heuristic_model(game, 0)
    spread = 0
    for seed in range(8):
        deal, view = _heuristic_position(game, seed, 9)
        rng = random.Random(seed)
        worlds = [game.sample_deal(view, rng) for _ in range(32)]
        logs = [model.log_likelihood(w, view.seat) for w in worlds]
        # the heuristic played every recorded move of the true deal: no world explains it better
        assert model.log_likelihood(deal, view.seat) >= max(logs) - 1e-12
        spread += max(logs) > min(logs)
    assert spread >= 6  # the moves do tell worlds apart


def test_each_recorded_move_costs_the_model_probability_by_the_noise() -> None:
    game = cardplay.load("sixty-six")
    deal, view = _heuristic_position(game, 3, 6)
    model = heuristic_model(game, 0, noise=0.5)
    # the true deal: every opponent decision with a choice was the heuristic's move
    choices = []
    replay = game.deal_from_order(list(deal._order), deal.dealer)
    for s, code in deal.history:
        if s != view.seat and len(replay.legal_codes()) > 1:
            choices.append(len(replay.legal_codes()))
        replay.apply_code(code)
    assert choices
    expected = sum(math.log(0.5 + 0.5 / n) for n in choices)
    assert model.log_likelihood(deal, view.seat) == pytest.approx(expected)
    with pytest.raises(ValueError, match="noise"):
        heuristic_model(game, 0, noise=0.0)


def test_a_pool_draws_its_worlds_in_proportion_to_their_weights() -> None:
    game = cardplay.load("sixty-six")
    _, view = _heuristic_position(game, 5, 9)
    pool = WorldPool(game, view, random.Random(1), heuristic_model(game, 0), 16)
    assert max(pool.weights) == 1.0 and min(pool.weights) < 1.0
    assert 1.0 <= pool.effective_size < 16
    draws = Counter()
    orders = [w._order for w in pool.worlds]
    for _ in range(20_000):
        draws[orders.index(pool.draw()._order)] += 1
    total = sum(pool.weights)
    for i, w in enumerate(pool.weights):
        expected = 20_000 * w / total
        assert abs(draws[i] - expected) <= 4 * math.sqrt(expected) + 1, i


def test_evaluate_weights_only_where_there_are_recorded_moves_to_explain() -> None:
    game = cardplay.load("sixty-six")
    fresh = game.deal(seed=2).view(0)
    assert not fresh.history
    assert evaluate(fresh, "heuristic", seed=1, worlds=16) == \
        evaluate(fresh, "heuristic", seed=1, worlds=16, inference=False)
    _, view = _heuristic_position(game, 5, 9)
    weighted = evaluate(view, "heuristic", seed=1, worlds=48)
    plain = evaluate(view, "heuristic", seed=1, worlds=48, inference=False)
    assert weighted.worlds == plain.worlds == 48
    assert weighted.values != plain.values
    assert evaluate(view, "heuristic", seed=1, worlds=48) == weighted


def test_a_search_with_inference_is_seeded_and_plays_legal_moves() -> None:
    game = cardplay.load("sixty-six")
    _, view = _heuristic_position(game, 7, 9)
    a = ISMCTSBot(game, seed=4, iterations=200, inference=32).choose(view)
    b = ISMCTSBot(game, seed=4, iterations=200, inference=32).choose(view)
    assert a == b and a in view.legal_moves
    model = OpponentModel(game, lambda g, s: load("heuristic", g, seed=s), noise=1.0)
    # noise 1: every move uniformly likely, so the weights say nothing
    worlds = [game.sample_deal(view, random.Random(s)) for s in range(6)]
    logs = {round(model.log_likelihood(w, view.seat), 9) for w in worlds}
    assert len(logs) == 1
