"""Alpha-mu search after a close (cardplay.bots.sixty_six_alphamu): its Pareto fronts against a
brute force over every strategy, its two ends (one world: the exact solve; one move deep: PIMC's
count of worlds won), a concrete position where it and PIMC play different cards, and the bot
setting that turns it on."""

from __future__ import annotations

import random

import pytest

import cardplay
from cardplay.bots.sixty_six_alphamu import AlphaMu, _applied, maximal
from cardplay.bots.sixty_six_solver import _EXACT, PIMCBot, _Search, _terminal_value
from cardplay.builtin.sixty_six import SixtySixDeal
from cardplay.engine import Game, View

SCHNAPSEN = cardplay.load("sixty-six", preset="schnapsen")


def _won(d: SixtySixDeal, seat: int) -> bool:
    if d.to_move is None:
        return _terminal_value(d, seat) > 0
    return _Search(seat, 10**7).value(d, -1, 1, _EXACT) > 0


def _every_strategy(ws: dict[int, SixtySixDeal], seat: int, full: int) -> set[int]:
    """The worlds won by every strategy of ours (one card per position we can tell apart),
    the opponent answering each world at its best: no fronts, no cuts, all of them."""
    mask = full
    live = {}
    for i, d in ws.items():
        if d.to_move is None:
            if not _won(d, seat):
                mask &= ~(1 << i)
        else:
            live[i] = d
    if not live:
        return {mask}
    first = next(iter(live.values()))
    out: set[int] = set()
    if first.to_move == seat:
        for code in first.legal_codes():
            out |= _every_strategy(_applied(live, code), seat, full)
    else:
        by_code: dict[int, dict[int, SixtySixDeal]] = {}
        for i, d in live.items():
            for code in d.legal_codes():
                by_code.setdefault(code, {})[i] = d
        combined: set[int] | None = None
        for code, worlds in by_code.items():
            child = _every_strategy(_applied(worlds, code), seat, full)
            combined = child if combined is None else {a & b for a in combined for b in child}
        assert combined is not None
        out = combined
    return {v & mask for v in out}


def _worlds(game: Game, view: View) -> list[SixtySixDeal]:
    bot = PIMCBot(game, seed=0, enumerate_limit=10_000)
    return [w for w, _ in bot._worlds(view)]


def _closed_positions(count: int, cards: int) -> list[tuple[SixtySixDeal, int]]:
    """Schnapsen positions after a close (made two tricks in), random play down to ``cards``
    cards in the mover's hand, with a choice to make and several hands the opponent may hold."""
    rng = random.Random(11)
    out: list[tuple[SixtySixDeal, int]] = []
    seed = 0
    while len(out) < count:
        deal = SCHNAPSEN.deal(seed=seed)
        seed += 1
        assert isinstance(deal, SixtySixDeal)
        while deal.to_move is not None and not deal.phase2:
            view = deal.view(deal.to_move)
            texts = [m.text for m in view.legal_moves]
            if "close" in texts and len(view.public["tricks"]) >= 2:
                deal.play("close")
            else:
                deal.play(rng.choice(deal.legal_moves()))
        while deal.to_move is not None and deal.hands[deal.to_move].bit_count() > cards:
            deal.play(rng.choice(deal.legal_moves()))
        seat = deal.to_move
        if seat is None or deal.closed_by < 0 or len(deal.legal_codes()) < 2:
            continue
        if len(_worlds(SCHNAPSEN, deal.view(seat))) >= 3:
            out.append((deal, seat))
    return out


def test_maximal_keeps_the_vectors_no_other_contains() -> None:
    assert sorted(maximal([0b011, 0b001, 0b110, 0b011, 0b100, 0b010])) == [0b011, 0b110]
    assert maximal([0b111, 0b101]) == [0b111]
    assert maximal([0]) == [0]


def test_full_depth_fronts_equal_a_brute_force_over_every_strategy() -> None:
    checked = 0
    for deal, seat in _closed_positions(12, cards=3):
        worlds = _worlds(SCHNAPSEN, deal.view(seat))
        full = (1 << len(worlds)) - 1
        search = AlphaMu(worlds, seat, 10**7)
        codes = worlds[0].legal_codes()
        scores = search.scores(codes, moves=3)
        assert search.exact
        for code in codes:
            brute = _every_strategy(_applied(dict(enumerate(worlds)), code), seat, full)
            assert scores[code] == max(v.bit_count() for v in brute), (deal.record(), code)
            checked += 1
    assert checked >= 24


def test_one_world_is_the_exact_solve_and_one_move_deep_counts_pimcs_wins() -> None:
    for deal, seat in _closed_positions(10, cards=4):
        worlds = _worlds(SCHNAPSEN, deal.view(seat))
        codes = deal.legal_codes()
        one = AlphaMu([deal], seat, 10**7).scores(codes, moves=4)
        pimc = AlphaMu(worlds, seat, 10**7).scores(codes, moves=1)
        deep = AlphaMu(worlds, seat, 10**7).scores(codes, moves=4)
        for code in codes:
            assert one[code] == int(_won(_applied({0: deal}, code)[0], seat))
            wins = sum(_won(_applied({0: w}, code)[0], seat) for w in worlds)
            assert pimc[code] == wins
            # One card for all worlds can never win a world that a card per world does not.
            assert deep[code] <= wins


def _position_after(moves: list[str], seed: int) -> SixtySixDeal:
    deal = SCHNAPSEN.deal(seed=seed)
    for text in moves:
        deal.play(text)
    assert isinstance(deal, SixtySixDeal)
    return deal


def test_alpha_mu_and_pimc_play_different_cards_where_pimc_fuses_strategies() -> None:
    # Schnapsen, deal seed 1, spades trumps: seat 0 leads the jack of hearts, seat 1 takes it
    # with the ace, closes the talon and leads the ace of trumps; seat 0, out of trumps, throws
    # the queen of hearts. The closer leads again from K of spades, K of hearts, Q and A of
    # clubs, not knowing which 4 of the 9 cards seat 0 may hold are his (126 worlds).
    deal = _position_after(["JH", "AH", "close", "AS", "QH"], seed=1)
    view = deal.view(1)
    assert view.to_move == 1
    assert len(_worlds(SCHNAPSEN, view)) == 126
    pimc = PIMCBot(SCHNAPSEN, seed=0, enumerate_limit=1000, seconds=None)
    alpha_mu = PIMCBot(SCHNAPSEN, seed=0, enumerate_limit=1000, seconds=None, alpha_mu=6,
                       alpha_mu_nodes=10**7)
    assert SCHNAPSEN.move(pimc.search(view)).text == "KS"
    assert SCHNAPSEN.move(alpha_mu.search(view)).text == "AC"
    assert alpha_mu.alpha_mu_changes == 1
    # Why: one strategy that leads the ace of clubs wins more of the hands seat 0 may hold
    # than any strategy that leads the king of trumps, which PIMC prefers because it would
    # play each world's next cards knowing that world.
    worlds = _worlds(SCHNAPSEN, view)
    scores = AlphaMu(worlds, 1, 10**7).scores(deal.legal_codes(), moves=6)
    by_card = {SCHNAPSEN.move(code).text: score for code, score in scores.items()}
    assert by_card == {"KS": 46, "KH": 48, "QC": 27, "AC": 48}
    # (KH and AC tie at 48 of 126; PIMC's mean value breaks the tie for AC.)


def test_without_its_budget_or_setting_the_bot_plays_pimcs_move() -> None:
    deal = _position_after(["JH", "AH", "close", "AS", "QH"], seed=1)
    view = deal.view(1)
    starved = PIMCBot(SCHNAPSEN, seed=0, enumerate_limit=1000, seconds=None, alpha_mu=6,
                      alpha_mu_nodes=1)
    assert SCHNAPSEN.move(starved.search(view)).text == "KS"
    assert starved.alpha_mu_changes == 0
    # An exhausted or open talon hides nothing alpha-mu could use: it is not consulted.
    opening = SCHNAPSEN.deal(seed=1)
    on = PIMCBot(SCHNAPSEN, seed=3, alpha_mu=6, seconds=None)
    off = PIMCBot(SCHNAPSEN, seed=3, seconds=None)
    seat = opening.to_move
    assert seat is not None
    assert on.search(opening.view(seat)) == off.search(opening.view(seat))
    assert on.alpha_mu_changes == 0


def test_a_search_of_no_moves_or_a_negative_setting_is_refused() -> None:
    deal = _position_after(["JH", "AH", "close", "AS", "QH"], seed=1)
    with pytest.raises(ValueError, match="at least 1 of our moves"):
        AlphaMu([deal], 1, 1000).scores(deal.legal_codes(), moves=0)
    with pytest.raises(ValueError, match="alpha_mu must be 0"):
        PIMCBot(SCHNAPSEN, seed=0, alpha_mu=-1)
    with pytest.raises(ValueError, match="alpha_mu_nodes"):
        PIMCBot(SCHNAPSEN, seed=0, alpha_mu=3, alpha_mu_nodes=0)
