"""The Sixty-Six solver against plain minimax, its values, and the PIMC bot on real positions."""

from __future__ import annotations

import math
import random

import pytest

import cardplay
from cardplay.bots.sixty_six_solver import (
    POINT_VALUE,
    WIN_VALUE,
    PIMCBot,
    evaluate,
    minimax,
    solve,
)
from cardplay.builtin.sixty_six import CLOSE, EXCHANGE, SixtySix, SixtySixDeal


def _positions(preset: str, count: int, cards: int, phase2: bool = True,
               seed: int = 11) -> list[SixtySixDeal]:
    """Positions reached by random play: phase 2 with at most ``cards`` in the mover's hand (the
    random play closes the talon in some of them), or phase 1 with 4 or more talon cards."""
    game = cardplay.load("sixty-six", preset=preset)
    rng = random.Random(seed)
    out: list[SixtySixDeal] = []
    deal_seed = 0
    while len(out) < count:
        deal = game.deal(seed=deal_seed)
        deal_seed += 1
        assert isinstance(deal, SixtySixDeal)
        if phase2:
            while not deal.is_over and not (deal.phase2 and
                                            deal.hands[deal._turn or 0].bit_count() <= cards):
                deal.apply_code(rng.choice(deal.legal_codes()))
        else:
            for _ in range(rng.randrange(12)):
                codes = [c for c in deal.legal_codes() if c != CLOSE]
                if deal.is_over or deal.talon_size < 4:
                    break
                deal.apply_code(rng.choice(codes))
            if deal.phase2 or deal.talon_size < 4:
                continue
        if not deal.is_over:
            out.append(deal)
    return out


@pytest.mark.parametrize("preset", ["sixty-six", "schnapsen"])
def test_solver_agrees_with_minimax_on_every_move(preset: str) -> None:
    disagreements = 0
    checked = 0
    positions = _positions(preset, 700, 2) + _positions(preset, 300, 3, seed=12)
    closed = sum(d.closed_by >= 0 for d in positions)
    for deal in positions:
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
    assert closed > 100  # closed talons (no last-trick bonus, failed closes) are covered too
    assert checked > 1500
    assert disagreements == 0


def test_solver_agrees_with_minimax_from_the_other_seat() -> None:
    # Values for the seat not to move: the best is then the opponent's (the minimum).
    for deal in _positions("sixty-six", 200, 2, seed=5):
        seat = deal.to_move
        assert seat is not None
        best, code, values = solve(deal, 1 - seat)
        assert best == minimax(deal, 1 - seat) == min(values.values())
        assert code is not None and values[code] == best


def _reference(deal: SixtySixDeal, seat: int, tricks: int, root: bool = True) -> int:
    """Depth-limited minimax by the solver's documented model: phase 1 stops after ``tricks``
    tricks at a lead and scores with evaluate(); below the root the exchange, when legal, is the
    only lead option and closing is left out; phase 2 runs to the end."""
    if deal.is_over:
        return minimax(deal, seat)
    if not deal.phase2 and tricks <= 0 and deal.lead < 0:
        return evaluate(deal, seat)
    codes = list(deal.legal_codes())
    if not root and deal.lead < 0 and not deal.phase2:
        codes = [EXCHANGE] if EXCHANGE in codes else [c for c in codes if c != CLOSE]
    vals = []
    for code in codes:
        child = deal.copy()
        assert isinstance(child, SixtySixDeal)
        following = deal.lead >= 0
        child.apply_code(code)
        vals.append(_reference(child, seat, tricks - 1 if following else tricks, False))
    return max(vals) if deal.to_move == seat else min(vals)


@pytest.mark.parametrize("preset", ["sixty-six", "schnapsen"])
def test_depth_limited_search_agrees_with_depth_limited_minimax(preset: str) -> None:
    for deal in _positions(preset, 60, 0, phase2=False):
        seat = deal.to_move
        assert seat is not None
        codes = [c for c in deal.legal_codes() if c != CLOSE]
        _, _, values = solve(deal, seat, depth=1, codes=codes)
        for c in codes:
            child = deal.copy()
            assert isinstance(child, SixtySixDeal)
            child.apply_code(c)
            expected = _reference(child, seat, 0 if deal.lead >= 0 else 1, False)
            assert values[c] == expected


def test_values_count_the_win_first_then_game_points() -> None:
    game = cardplay.load("sixty-six")
    rng = random.Random(2)
    margins = set()
    for seed in range(40):
        deal = game.deal(seed=seed)
        assert isinstance(deal, SixtySixDeal)
        while not deal.is_over:
            deal.apply_code(rng.choice(deal.legal_codes()))
        r = deal.result
        assert r is not None
        margin = r[0] - r[1]
        margins.add(margin)
        expected = 0 if margin == 0 else \
            (WIN_VALUE if margin > 0 else -WIN_VALUE) + POINT_VALUE * margin
        assert solve(deal, 0)[0] == expected
        assert solve(deal, 1)[0] == -expected
    assert {1, 2, -1, -2} <= margins


def test_evaluation_stays_below_any_decided_hand() -> None:
    for deal in _positions("sixty-six", 40, 0, phase2=False, seed=8):
        for seat in (0, 1):
            v = evaluate(deal, seat)
            assert abs(v) < WIN_VALUE
            assert v == -evaluate(deal, 1 - seat)


def _closed_position() -> SixtySixDeal:
    """A deal where seat 0 closed the talon before the last draw and led: seat 1 is to follow."""
    game = cardplay.load("sixty-six")
    rng = random.Random(4)
    for seed in range(200):
        deal = game.deal(seed=seed)
        assert isinstance(deal, SixtySixDeal)
        for _ in range(10):
            deal.apply_code(rng.choice([c for c in deal.legal_codes() if c != CLOSE]))
            if deal.is_over:
                break
        if deal.is_over or deal.to_move != 0 or deal.lead >= 0 or deal.talon_size != 2:
            continue
        if CLOSE in deal.legal_codes():
            deal.apply_code(CLOSE)
            deal.apply_code(min(c for c in deal.legal_codes() if c < 52))
            return deal
    raise AssertionError("no closing position found")


def test_after_a_close_every_opponent_hand_is_solved_once() -> None:
    deal = _closed_position()
    game = deal.game
    view = deal.view(1)
    pub = view.public
    # The opponent's unknown cards: any card not in seat 1's hand, not played, not shown by him
    # and not the turned trump card (dead in the closed talon, or taken by an exchange and shown).
    played = {c for t in pub["tricks"] for c in t["cards"]} | {t["card"] for t in pub["trick"]}
    shown = set(pub["known_cards"][0])
    gone = {str(c) for c in view.hand} | played | shown | {pub["turned_trump"]}
    if pub["exchange"] is not None:
        gone.add(pub["exchange"]["gave"])
    unseen = [c for c in game.cards if game.move(c).text not in gone]
    hands = math.comb(len(unseen), pub["hand_sizes"][0] - len(shown))
    assert 4 < hands < 40
    bot = PIMCBot(game, seed=1, enumerate_limit=hands, move_nodes=10**9, seconds=None)
    assert bot.search(view) in deal.legal_codes()
    assert bot.last_worlds == hands
    few = PIMCBot(game, seed=1, enumerate_limit=hands - 1, closed_worlds=7, move_nodes=10**9,
                  seconds=None)
    few.search(view)
    assert few.last_worlds == 7


def _deck(first: list[str], turned: str, game: SixtySix) -> list[str]:
    """A deck whose non-dealer gets ``first`` (the dealer the next unused cards) and whose turned
    trump card is ``turned``."""
    rest = [game.move(c).text for c in game.cards
            if game.move(c).text not in first and game.move(c).text != turned]
    order: list[str] = []
    for card in first:
        order += [card, rest.pop(0)]
    return [*order, turned, *rest]


@pytest.mark.parametrize("preset", ["sixty-six", "schnapsen"])
def test_closes_at_once_with_every_trump_and_the_marriage(preset: str) -> None:
    # Seat 0 (the non-dealer) holds every trump but the turned card: closing before the first
    # trick takes every trick and 40 for the marriage, 3 game points in every world; leaving
    # the talon open lets the opponent draw trumps.
    game = cardplay.load("sixty-six", preset=preset)
    assert isinstance(game, SixtySix)
    first = ["AS", "TS", "KS", "QS", "AH"] + ([] if preset == "schnapsen" else ["JS"])
    turned = "JS" if preset == "schnapsen" else "9S"
    deal = game.deal(deck=" ".join(_deck(first, turned, game)), dealer=1)
    assert isinstance(deal, SixtySixDeal)
    assert deal.to_move == 0 and CLOSE in deal.legal_codes()
    bot = PIMCBot(game, seed=2, worlds=4, depth=1, seconds=None)
    assert bot.search(deal.view(0)) == CLOSE
    closed = deal.copy()
    assert isinstance(closed, SixtySixDeal)
    closed.apply_code(CLOSE)
    assert solve(closed, 0)[0] == WIN_VALUE + 3 * POINT_VALUE


@pytest.mark.parametrize("options", [{}, {"preset": "schnapsen"}, {"allow_close": False}])
def test_pimc_bot_plays_legal_moves_to_the_end(options: dict[str, object]) -> None:
    game = cardplay.load("sixty-six", **options)
    bot = PIMCBot(game, seed=3, worlds=2, depth=1, max_nodes=1_500, move_nodes=3_000,
                  closed_worlds=3, enumerate_limit=6, seconds=None)
    rng = random.Random(3)
    for seed in range(3):
        deal = game.deal(seed=seed)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            if seat == seed % 2:
                deal.play(bot.choose(deal.view(seat)), seat=seat)
            else:
                deal.play(rng.choice(deal.legal_moves()), seat=seat)
        assert deal.result is not None


def test_with_a_follower_search_only_leads_in_the_first_phase() -> None:
    from cardplay.bots import load
    from cardplay.bots.ismcts import ISMCTSBot

    game = cardplay.load("sixty-six")
    heuristic = load("heuristic", game, seed=4)
    rng = random.Random(5)
    follows = leads = 0
    for seed in range(4):
        deal = game.deal(seed=seed)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            if view.public["phase"] == 1 and len(view.legal_moves) > 1:
                bot = PIMCBot(game, seed=seed, iterations=40, seconds=None, follower=heuristic)
                if view.public["trick"]:
                    # A follow is the follower's move, whatever the search would play.
                    assert bot.search(view) == game.code_of(heuristic.choose(view))
                    follows += 1
                else:
                    alone = ISMCTSBot(game, seed=seed, iterations=40)
                    assert bot.search(view) == alone.search(view)
                    leads += 1
            deal.play(rng.choice(deal.legal_moves()), seat=seat)
    assert follows >= 5 and leads >= 5
