"""Sixty-Six's expert level (cardplay.bots.sixty_six_expert): playouts that read only the mover's
own hand, and the level as every front-end loads it."""

from __future__ import annotations

import random

import pytest

import cardplay
from cardplay.bots import load
from cardplay.bots.sixty_six_expert import expert_bot, playout_move
from cardplay.builtin.sixty_six import SixtySixDeal


def _positions(count: int) -> list[SixtySixDeal]:
    game = cardplay.load("sixty-six")
    rng = random.Random(7)
    out: list[SixtySixDeal] = []
    seed = 0
    while len(out) < count:
        deal = game.deal(seed=seed)
        seed += 1
        for _ in range(rng.randint(0, 14)):
            if deal.to_move is None:
                break
            deal.play(rng.choice(deal.legal_moves()))
        if deal.to_move is not None and len(deal.legal_codes()) > 1:
            assert isinstance(deal, SixtySixDeal)
            out.append(deal)
    return out


def test_a_playout_move_is_legal_and_never_reads_the_opponents_hand() -> None:
    game = cardplay.load("sixty-six")
    changed = 0
    for i, deal in enumerate(_positions(200)):
        seat = deal.to_move
        assert seat is not None
        move = playout_move(deal, random.Random(i))
        assert move in deal.legal_codes()
        # another world of the same view: the opponent's hand and the talon redrawn
        other = game.sample_deal(deal.view(seat), random.Random(1000 + i))
        assert isinstance(other, SixtySixDeal)
        changed += other.hands[1 - seat] != deal.hands[1 - seat]
        assert playout_move(other, random.Random(i)) == move
    assert changed > 100


def test_a_playout_takes_a_led_ten_with_the_cheapest_winner() -> None:
    found = 0
    for i, deal in enumerate(_positions(400)):
        if deal.lead < 0 or deal.lead % 13 != 8 or deal.phase2:
            continue
        seat = deal.to_move
        assert seat is not None
        rng = random.Random(i)
        if rng.random() < 0.1:  # this seed's move is the random one: not the rule's
            continue
        lead = deal.lead
        winners = [c for c in deal.legal_codes() if c < 52 and (
            (c // 13 == lead // 13 and c % 13 == 12) or (c // 13 == deal.trump != lead // 13))]
        if not winners:
            continue
        found += 1
        move = playout_move(deal, random.Random(i))
        assert move in winners
    assert found >= 3


def test_the_expert_searcher_plays_and_no_game_offers_an_expert_level_yet() -> None:
    game = cardplay.load("sixty-six")
    bot = expert_bot(game, seed=3, iterations=200, inference=16)
    assert bot.phase1 is not None and bot.phase1.rollout is playout_move
    deal = game.deal(seed=4)
    while deal.to_move is not None:
        seat = deal.to_move
        deal.play(bot.choose(deal.view(seat)) if seat == 0 else deal.legal_moves()[0])
    assert deal.result is not None
    # measured no stronger than strong (docs/bots.md), so no game declares it
    with pytest.raises(ValueError, match="unknown bot level 'expert' for sixty-six"):
        load("expert", game)
