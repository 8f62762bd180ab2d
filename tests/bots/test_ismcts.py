"""ISMCTS: its early stop saves iterations without changing a single move."""

from __future__ import annotations

import random

import cardplay
from cardplay.bots.ismcts import ISMCTSBot


def _phase_one_views(game_name: str, deals: int) -> list[cardplay.View]:
    game = cardplay.load(game_name)
    rng = random.Random(3)
    views = []
    for seed in range(deals):
        deal = game.deal(seed=seed)
        while deal.to_move is not None:
            view = deal.view(deal.to_move)
            if len(view.legal_moves) > 1:
                views.append(view)
            deal.play(rng.choice(view.legal_moves))
    return views


def test_an_early_stop_plays_the_move_of_the_whole_budget() -> None:
    game = cardplay.load("sixty-six")
    views = _phase_one_views("sixty-six", 6)
    assert len(views) >= 30
    saved = 0
    for i, view in enumerate(views):
        early = ISMCTSBot(game, seed=i, iterations=200)
        whole = ISMCTSBot(game, seed=i, iterations=200, stop_early=False)
        assert early.search(view) == whole.search(view)
        assert whole.last_iterations == 200
        assert early.last_iterations <= 200
        saved += 200 - early.last_iterations
    # The stop must actually happen somewhere, or this test would check nothing.
    assert saved > 0


def test_a_leaf_value_ends_each_rollout_and_is_what_the_search_backs_up() -> None:
    """The leaf hook is asked at every rollout step, and its rewards replace the finished deal's:
    a leaf that always answers ends each iteration right below the tree, and a leaf that pays
    only for one root move makes the search play that move."""
    game = cardplay.load("sixty-six")
    view = _phase_one_views("sixty-six", 1)[0]
    asked: list[int] = []

    def always(deal: cardplay.Deal) -> list[float]:
        asked.append(len(deal.history))
        return [0.5] * deal.players

    bot = ISMCTSBot(game, seed=1, iterations=60, leaf=always, stop_early=False)
    assert game.move(bot.search(view)) in view.legal_moves
    assert bot.last_iterations == 60 and len(asked) == 60
    # the tree's expansion comes first: every leaf is at least one move below the root
    assert min(asked) == len(view.history) + 1

    target = game.code_of(view.legal_moves[-1])

    def favour(deal: cardplay.Deal) -> list[float]:
        first = game.code_of(game.move(deal.history[len(view.history)][1]))
        mine = 1.0 if first == target else 0.0
        rewards = [1.0 - mine] * deal.players
        rewards[view.seat] = mine
        return rewards

    assert ISMCTSBot(game, seed=2, iterations=300, leaf=favour).search(view) == target
