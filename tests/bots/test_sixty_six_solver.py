"""The Sixty-Six solver against plain minimax, and the PIMC bot on real positions."""

from __future__ import annotations

import random

import pytest

import cardplay
from cardplay.bots.sixty_six_solver import PIMCBot, minimax, solve
from cardplay.games.sixty_six import SixtySixDeal


def _positions(preset: str, count: int, cards: int) -> list[SixtySixDeal]:
    game = cardplay.load("sixty-six", preset=preset)
    rng = random.Random(11)
    out: list[SixtySixDeal] = []
    seed = 0
    while len(out) < count:
        deal = game.deal(seed=seed)
        seed += 1
        assert isinstance(deal, SixtySixDeal)
        while not deal.is_over and not (deal.phase2 and
                                        deal.hands[deal.to_move].bit_count() <= cards):
            deal.apply_code(rng.choice(deal.legal_codes()))
        if not deal.is_over:
            out.append(deal)
    return out


@pytest.mark.parametrize("preset", ["sixty-six", "schnapsen"])
def test_solver_agrees_with_minimax_on_every_move(preset: str) -> None:
    disagreements = 0
    checked = 0
    for deal in _positions(preset, 150, 3):
        seat = deal.to_move
        assert seat is not None
        best, code, values = solve(deal, seat)
        assert code is not None and code in deal.legal_codes()
        assert set(values) == set(deal.legal_codes())
        for c, v in values.items():
            child = deal.copy()
            child.apply_code(c)
            disagreements += v != minimax(child, seat)  # type: ignore[arg-type]
            checked += 1
        assert best == minimax(deal, seat)
    assert checked > 300
    assert disagreements == 0


def test_pimc_bot_plays_legal_moves_to_the_end() -> None:
    game = cardplay.load("sixty-six")
    bot = PIMCBot(game, seed=3, worlds=4, iterations=30, seconds=None, max_nodes=5_000)
    rng = random.Random(3)
    for seed in range(3):
        deal = game.deal(seed=seed)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            if seat == 0:
                deal.play(bot.choose(deal.view(seat)), seat=seat)
            else:
                deal.play(rng.choice(deal.legal_moves()), seat=seat)
        assert deal.result is not None
