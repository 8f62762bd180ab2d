"""Sixty-Six's strong search (cardplay.bots.sixty_six_playouts): playouts that read only the
mover's own hand, exact values once a playout reaches phase 2, and the level as every front-end
loads it."""

from __future__ import annotations

import random

import cardplay
from cardplay.bots import load
from cardplay.bots.sixty_six_playouts import LEAF_CARDS, exact_leaf, playout_move, playout_searcher
from cardplay.bots.sixty_six_solver import PIMCBot, minimax
from cardplay.builtin.sixty_six import VU_SCHNAPSEN_OPTIONS, SixtySixDeal


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


def test_an_exact_leaf_names_the_winner_of_best_play_and_waits_for_phase_two() -> None:
    """In Schnapsen every phase-2 position is valued as plain minimax values it (the winner's
    side gets 1); phase 1 and Sixty-Six's six-card hands are left to the playout."""
    rng = random.Random(5)
    checked = {1: 0, -1: 0}
    for name, options in (("schnapsen", VU_SCHNAPSEN_OPTIONS), ("sixty-six", {})):
        game = cardplay.load("sixty-six", **options)
        for seed in range(40):
            deal = game.deal(seed=seed)
            assert isinstance(deal, SixtySixDeal)
            while deal.to_move is not None and not deal.phase2:
                assert exact_leaf(deal) is None
                deal.apply_code(rng.choice(deal.legal_codes()))
            if deal.to_move is None:
                continue
            if deal.hands[deal.to_move].bit_count() > LEAF_CARDS:
                assert name == "sixty-six" and exact_leaf(deal) is None
                continue
            rewards = exact_leaf(deal)
            truth = minimax(deal, 0)
            sign = (truth > 0) - (truth < 0)
            assert rewards == {1: [1.0, 0.0], -1: [0.0, 1.0], 0: [0.5, 0.5]}[sign], (name, seed)
            if sign:
                checked[sign] += 1
    assert checked[1] >= 5 and checked[-1] >= 5


def test_the_strong_level_is_this_searcher_and_plays_a_whole_deal() -> None:
    game = cardplay.load("sixty-six")
    strong = load("strong", game, seed=3)
    assert isinstance(strong, PIMCBot) and strong.phase1 is not None
    assert strong.phase1.rollout is playout_move and strong.phase1.leaf is exact_leaf
    # fast keeps random playouts to the end of the deal
    fast = load("fast", game, seed=3)
    assert isinstance(fast, PIMCBot) and fast.phase1 is not None and fast.phase1.leaf is None
    bot = playout_searcher(game, seed=3, iterations=200, inference=16, exact_leaves=1)
    deal = game.deal(seed=4)
    while deal.to_move is not None:
        seat = deal.to_move
        deal.play(bot.choose(deal.view(seat)) if seat == 0 else deal.legal_moves()[0])
    assert deal.result is not None


def test_the_expert_level_is_strong_with_four_times_the_budget() -> None:
    """Sixty-Six's expert (issue 33) is strong's searcher with more of each budget (alpha-mu's
    depth after a close among them) and a 5 s cap, nothing else."""
    game = cardplay.load("sixty-six")
    assert game.declaration.bots is not None
    levels = game.declaration.bots.levels
    strong, expert = levels["strong"], levels["expert"]
    assert expert.factory == strong.factory
    changed = {k for k in expert.settings if expert.settings[k] != strong.settings.get(k)}
    assert changed == {"iterations", "schnapsen_iterations", "seconds", "closed_worlds",
                       "enumerate_limit", "alpha_mu", "alpha_mu_nodes"}
    assert set(expert.settings) == set(strong.settings)
    assert expert.settings["iterations"] == 4 * strong.settings["iterations"]
    assert expert.settings["schnapsen_iterations"] == 4 * strong.settings["schnapsen_iterations"]
    assert expert.settings["seconds"] == 5.0
    bot = load("expert", game, seed=3)
    assert isinstance(bot, PIMCBot) and bot.phase1 is not None
    assert bot.phase1.rollout is playout_move and bot.phase1.leaf is exact_leaf
    assert bot.phase1.iterations == 6000
    assert (bot.alpha_mu, bot.alpha_mu_nodes) == (5, 200_000)
    assert load("strong", game, seed=3).alpha_mu == 3  # type: ignore[attr-defined]


def test_schnapsen_iterations_apply_to_the_twenty_card_preset_only() -> None:
    """``schnapsen_iterations`` replaces ``iterations`` in the Schnapsen preset (the VU rules are
    that preset too) and is ignored by Sixty-Six's own 24 cards."""
    settings = {"iterations": 150, "seconds": None, "schnapsen_iterations": 450}
    for options, expected in (({}, 150), ({"preset": "schnapsen"}, 450),
                              (VU_SCHNAPSEN_OPTIONS, 450)):
        bot = playout_searcher(cardplay.load("sixty-six", **options), seed=5, **settings)
        assert bot.phase1 is not None and bot.phase1.iterations == expected, options
