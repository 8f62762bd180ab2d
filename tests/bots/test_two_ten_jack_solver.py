"""The Two-Ten-Jack solver against plain minimax, and the PIMC bot on real positions."""

from __future__ import annotations

import random

import pytest

import cardplay
from cardplay.bots.two_ten_jack_solver import (
    WIN,
    PIMCBot,
    final_value,
    heuristic_rollout,
    minimax,
    solve,
)
from cardplay.games.two_ten_jack import AS_SPADES, AS_TRUMPS, TwoTenJackDeal

GAME = cardplay.load("two-ten-jack")


def _random_position(rng: random.Random, seed: int, tricks: int) -> TwoTenJackDeal | None:
    """A deal played at random to ``tricks`` completed tricks, sometimes with the lead on the
    table so that the searching seat is the follower."""
    deal = GAME.deal(seed=seed)
    assert isinstance(deal, TwoTenJackDeal)
    while not deal.is_over and deal._tricks < tricks:
        deal.apply_code(rng.choice(deal.legal_codes()))
    if not deal.is_over and rng.random() < 0.5:
        deal.apply_code(rng.choice(deal.legal_codes()))
    return None if deal.is_over else deal


def _disagreements(positions: list[TwoTenJackDeal], depth: int | None,
                   draws: bool = True) -> tuple[int, int]:
    checked = disagreements = 0
    for deal in positions:
        seat = deal.to_move
        assert seat is not None
        best, code, values = solve(deal, seat, depth, draws=draws)
        assert set(values) == set(deal.legal_codes())
        assert code is not None and values[code] == best
        for c, v in values.items():
            child = deal.copy()
            assert isinstance(child, TwoTenJackDeal)
            if not draws:
                child._pos = 40  # the engine then draws nothing after this trick either
            child.apply_code(c)
            rest = depth if depth is None or child._tricks == deal._tricks else depth - 1
            disagreements += abs(v - minimax(child, seat, rest, draws=draws)) > 1e-9
            checked += 1
    return checked, disagreements


def test_exact_solver_agrees_with_minimax_on_every_move_of_stockless_endgames() -> None:
    rng = random.Random(5)
    positions = [p for seed in range(600) if (p := _random_position(rng, seed, 22 + seed % 2))
                 is not None]
    checked, disagreements = _disagreements(positions, None)
    assert checked >= 1000
    assert disagreements == 0


@pytest.mark.parametrize("draws", [True, False])
def test_depth_limited_solver_agrees_with_minimax_while_the_stock_lasts(draws: bool) -> None:
    rng = random.Random(9)
    positions = [p for seed in range(90) if (p := _random_position(rng, seed, seed % 19))
                 is not None]
    checked, disagreements = _disagreements(positions, 2, draws)
    assert checked >= 300
    assert disagreements == 0


def _endgame(mine: str, theirs: str, margin: int) -> TwoTenJackDeal:
    """Seat 0 to lead with ``mine`` against ``theirs``, the stock gone, ``margin`` points up."""
    deal = GAME.deal(seed=0)
    assert isinstance(deal, TwoTenJackDeal)
    hands = [0, 0]
    for seat, text in ((0, mine), (1, theirs)):
        for card in text.split():
            hands[seat] |= 1 << GAME.code_of(card)
    deal._hands = hands
    deal._pts = [margin, 0]
    deal._pos = 40
    deal._tricks = 26 - hands[0].bit_count()
    deal._turn = deal._leader = 0
    return deal


def test_win_comes_before_margin() -> None:
    assert final_value(1) == WIN + 1
    assert final_value(-1) == -WIN - 1
    assert final_value(3) > final_value(1) > final_value(-1) > final_value(-35)


def test_a_two_trick_endgame_has_its_exact_values() -> None:
    # Leading 10H: the follower must trump with JH and takes +10, then leads 3D, on which the
    # leader must drop 2C (-5 for the follower): net -5. Leading 2C: JH trumps it (0 points), then
    # 3D forces 10H, which wins +5: net +5.
    deal = _endgame("TH 2C", "JH 3D", 0)
    best, code, values = solve(deal, 0)
    assert values == {GAME.code_of("TH"): -WIN - 5, GAME.code_of("2C"): WIN + 5}
    assert code == GAME.code_of("2C") and best == WIN + 5
    # Two points up before these tricks, the bad lead still loses the deal: -5 + 2 = -3.
    assert solve(_endgame("TH 2C", "JH 3D", 2), 0)[2][GAME.code_of("TH")] == -WIN - 3


def test_the_speculation_lead_is_searched_with_both_declarations() -> None:
    # AS declared a spade still forces a trump from a hand without spades; declared a trump it
    # forces JH too: either way the leader takes AS + JH (+6) and then wins 3C with 2C (-5).
    deal = _endgame("AS 2C", "JH 3C", 0)
    _, _, values = solve(deal, 0)
    assert set(values) == {AS_SPADES, AS_TRUMPS, GAME.code_of("2C")}
    assert values[AS_SPADES] == values[AS_TRUMPS] == WIN + 11
    assert values[GAME.code_of("2C")] == WIN + 11


def test_pimc_bot_plays_whole_deals_legally_and_reproducibly() -> None:
    def play(seed: int) -> list[tuple[int, int]]:
        bot = PIMCBot(GAME, seed=seed, worlds=3, depth=2, draws=False)
        rng = random.Random(seed)
        deal = GAME.deal(seed=seed)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            if seat == 0:
                deal.play(bot.choose(deal.view(seat)), seat=seat)
            else:
                deal.play(rng.choice(deal.legal_moves()), seat=seat)
        result = deal.result
        assert result is not None and sum(result) == 5
        return list(deal.history)

    assert play(4) == play(4)
    play(5)


def test_pimc_bot_plays_the_exact_move_once_the_stock_is_empty() -> None:
    rng = random.Random(2)
    bot = PIMCBot(GAME, seed=1, worlds=1, depth=1)
    for seed in range(6):
        deal = GAME.deal(seed=seed)
        assert isinstance(deal, TwoTenJackDeal)
        while deal._pos < 40 or len(deal.legal_codes()) < 2:
            deal.apply_code(rng.choice(deal.legal_codes()))
        seat = deal.to_move
        assert seat is not None
        best, _, values = solve(deal, seat)
        chosen = GAME.code_of(bot.choose(deal.view(seat)))
        assert values[chosen] == best


def test_heuristic_rollout_dumps_the_minus_five_club_on_the_opponents_trick() -> None:
    # The opponent leads KH (a trump): the follower has no trump and holds 2C and 3D. The rule
    # dumps the -5 club on the opponent's trick (the club is a liability worth -0.75 to keep).
    deal = _endgame("KH 4S", "2C 3D", 0)
    deal.apply_code(GAME.code_of("KH"))
    rng = random.Random(0)
    picks = {heuristic_rollout(deal, rng) for _ in range(40)}
    assert GAME.code_of("2C") in picks
    assert picks <= {GAME.code_of("2C"), GAME.code_of("3D")}
    assert sum(heuristic_rollout(deal, random.Random(s)) == GAME.code_of("2C")
               for s in range(40)) >= 30
