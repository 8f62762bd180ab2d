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
