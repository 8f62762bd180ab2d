"""Twenty (RULES.md section 2): the test scenarios of 2.8 on fixed deck orders, the move generator
against brute force, options and presets, notation, views and hidden information, sampling, match
flow, and the heuristic bot."""

from __future__ import annotations

import json
import random
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardplay
from cardplay.bots import load as load_bot
from cardplay.builtin.twenty import (
    DRAW,
    PASS,
    PLAY_BASE,
    RULES_RU,
    Twenty,
    TwentyDeal,
    king_values,
    play_code,
)
from cardplay.cards import format_card, parse_card
from cardplay.engine import Deal, IllegalMoveError, InvalidMoveError, OptionError
from helpers import legal, play_all, play_out, pub

SEED = cardplay.load("twenty")
CANON = cardplay.load("twenty", preset="canonical")
ALL = [format_card(c) for c in range(52)]


def deck(hands: list[list[str]], stock: list[str] | None = None,
         dealer: int | None = None) -> list[str]:
    """A deck order (top first) dealing ``hands`` (7 cards per seat, seat 0 first) with
    ``dealer`` (default: the last seat); the stock starts with ``stock`` and goes on with the
    cards not named, in id order. Layout of RULES.md 2.3a: seven rounds of one card to each seat
    from the dealer's left, then the stock."""
    n = len(hands)
    if dealer is None:
        dealer = n - 1
    stock = stock or []
    order: list[str | None] = [None] * (7 * n)
    for seat, hand in enumerate(hands):
        assert len(hand) == 7
        k = (seat - dealer - 1) % n
        for i, card in enumerate(hand):
            order[i * n + k] = card
    named = [c for c in order if c is not None] + stock
    assert len(set(named)) == len(named), "a card named twice"
    rest = [c for c in ALL if c not in set(named)]
    out = [c for c in order if c is not None] + stock + rest
    assert sorted(out) == sorted(ALL)
    return out


def hand_of(deal: Deal, seat: int) -> set[str]:
    return set(deal.view(seat).to_dict()["hand"])


def mask(cards: str) -> int:
    return sum(1 << parse_card(c) for c in cards.split())


# --------------------------------------------------------------------------------------------
# RULES.md 2.8 test scenarios


def test_scenario_1_seed_move_1() -> None:
    d = SEED.deal(deck=deck([["5C", "9D", "KS", "6C", "7C", "8C", "9C"], ALL[:7]]), dealer=1)
    assert d.to_move == 0 and pub(d)["count"] == 1
    assert legal(d) == {"KS"}  # a King counts 1; the player must play it (no draw)
    d = SEED.deal(deck=deck([["AH", "KS", "5C", "6C", "7C", "8C", "9C"], ALL[:7]]), dealer=1)
    assert legal(d) == {"AH", "KS"}  # AH+KS counts at least 2 > 1
    with pytest.raises(IllegalMoveError):
        d.play("AH+KS")


def _scenario_2_3_deal(game: Twenty) -> Deal:
    d = game.deal(deck=deck([["AS", "9S", "9H", "9D", "9C", "8S", "8H"],
                             ["AC", "AD", "2S", "KH", "5H", "6H", "7H"]]), dealer=1)
    d.play("AS", seat=0)
    assert d.to_move == 1 and pub(d)["count"] == 2
    return d


def test_scenario_2_seed_move_2() -> None:
    d = _scenario_2_3_deal(SEED)
    assert legal(d) == {"AC", "AD", "AC+AD", "2S", "KH", "AC+KH", "AD+KH"}
    assert "AC+AD+KH" not in legal(d)  # its least count is 3
    with pytest.raises(IllegalMoveError):
        d.play("AC+AD+KH")


def test_scenario_3_canonical_count_2() -> None:
    d = _scenario_2_3_deal(CANON)
    assert legal(d) == {"AC+AD", "2S", "KH=2", "AC+KH=1", "AD+KH=1", "draw"}
    with pytest.raises(IllegalMoveError):
        d.play("AC")  # makes 1, not 2
    # the set is accepted with any values that make the count, or with none
    for text, canonical in [("KH", "KH=2"), ("kh=2", "KH=2"), ("KH+AC", "AC+KH=1"),
                            ("KH=1+AC", "AC+KH=1"), ("♥К", "KH=2")]:
        e = d.copy()
        e.play(text)
        assert e.history[-1][1] == CANON.code_of(canonical)
        assert e.view(0).history[-1] == (1, canonical)
        assert pub(e)["count"] == 3
    with pytest.raises(IllegalMoveError):
        d.play("KH=3")  # values that do not make the count
    with pytest.raises(IllegalMoveError):
        d.play("AC+KH=2")
    with pytest.raises(InvalidMoveError):
        d.play("KH=30")
    assert d.history == [(0, play_code(mask("AS"), 0))]


def _pair_deal(game: Twenty) -> Deal:
    d = game.deal(deck=deck([["AS", "3S", "5S", "7S", "9S", "QS", "JS"],
                             ["2S", "4S", "6S", "8S", "TC", "TD", "3H"]]), dealer=1)
    play_all(d, ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"])
    assert d.to_move == 1 and pub(d)["count"] == 10
    return d


def test_scenario_4_pair_of_tens_counts_ten() -> None:
    d = _pair_deal(CANON)
    assert legal(d) == {"TC", "TD", "TC+TD", "draw"}
    d.play("TD+TC")
    assert pub(d)["count"] == 11 and hand_of(d, 1) == {"3H"}
    d = _pair_deal(cardplay.load("twenty", preset="canonical", pair_counts_ten=False))
    assert legal(d) == {"TC", "TD", "draw"}  # the pair makes 20
    with pytest.raises(IllegalMoveError):
        d.play("TC+TD")


# Scenario 5: four players reach count 20 with seat 3 to make it. Each seat draws 4 cards in
# four rounds of draws, then the counts 1..19 are made by seats 0, 1, 2, 3, 0, ... in turn.
_S5_PLAYS = {
    0: ["AS", "5S", "9S", "KH=13", "8C+9C"],          # counts 1, 5, 9, 13, 17
    1: ["2S", "6S", "JS", "KD=14", "8D+QH"],          # 2, 6, 10, 14, 18
    2: ["3S", "7S", "AD+QS", "KC=15", "9D+JH"],       # 3, 7, 11, 15, 19
    3: ["4S", "8S", "2C+TS", "6C+TH"],                # 4, 8, 12, 16
}
_S5_CARDS = {
    0: "AS 5S 9S KH 8C 9C 2H 3H 4H 5H 6H",
    1: "2S 6S JS KD 8D QH 7H 8H 2D 3D 4D",
    2: "3S 7S AD QS KC 9D JH 5D 6D 7D TD",
    3: "4S 8S 2C TS 6C TH KS TC QD 9H AH",
}


def _scenario_5_deal() -> Deal:
    game = cardplay.load("twenty", preset="canonical", players=4)
    cards = {s: _S5_CARDS[s].split() for s in range(4)}
    stock = [cards[s][7 + r] for r in range(4) for s in range(4)]
    d = game.deal(deck=deck([cards[s][:7] for s in range(4)], stock), dealer=3)
    play_all(d, ["draw"] * 16)
    assert pub(d)["count"] == 1 and pub(d)["stock"] == 8
    for c in range(1, 20):
        seat = (c - 1) % 4
        assert d.to_move == seat
        d.play(_S5_PLAYS[seat][(c - 1) // 4], seat=seat)
    assert d.to_move == 3 and pub(d)["count"] == 20
    assert hand_of(d, 3) == {"KS", "TC", "QD", "9H", "AH"}
    return d


def test_scenario_5_canonical_count_20() -> None:
    d = _scenario_5_deal()
    assert legal(d) == {
        "KS=20", "TC+QD", "AH+9H+KS=10",  # the three of RULES.md 2.8
        "AH+KS=19", "9H+KS=11", "TC+KS=10", "QD+KS=10", "AH+TC+KS=9", "AH+QD+KS=9",
        "9H+TC+KS=1", "9H+QD+KS=1", "AH+9H+TC", "AH+9H+QD", "draw",
    }
    e = d.copy()
    e.play("9H+AH+KS")  # values filled in
    assert e.view(3).history[-1] == (3, "AH+9H+KS=10")
    with pytest.raises(IllegalMoveError):
        d.play("AH+9H+KS=9")
    with pytest.raises(IllegalMoveError):
        d.play("TC+QD+KS")  # 21 at least
    # making 20 ends the hand: fewest cards wins, ties on the lower penalty
    e = d.copy()
    e.play("KS")
    assert e.is_over and pub(e)["outcome"] == "twenty"
    # seats 2 and 3 hold 4 cards: {5D 6D 7D TD} = 25 beats {TC QD 9H AH} = 30
    assert e.result == [-25, -25, 20, -30] and e.points == e.result
    e = d.copy()
    e.play("TC+QD")
    assert e.result == [-25, -25, -25, 20]


def test_scenario_6_no_play_means_draw_then_pass() -> None:
    # seed: no card counts 1 or less, so the only move is to draw
    d = SEED.deal(deck=deck([["5C", "9D", "QS", "6C", "7C", "8C", "9C"], ALL[:7]], ["AH"]),
                  dealer=1)
    assert legal(d) == {"draw"}
    d.play("draw")
    assert hand_of(d, 0) >= {"AH"} and pub(d)["count"] == 2 and d.to_move == 1
    # canonical: seat 0 holds no Ace or King; once the stock is empty he passes and the count
    # stays; seat 1 (all Aces and Kings) can play but not draw
    low = [f"{r}{s}" for r in "234567" for s in "SHDC"] + ["8S", "8H"]
    high = [c for c in ALL if c not in low]
    order = [c for pair in zip(low, high) for c in pair]
    d = CANON.deal(deck=order, dealer=1)
    play_all(d, ["draw"] * 38)
    assert pub(d)["stock"] == 0 and d.to_move == 0
    assert legal(d) == {"pass"}
    d.play("pass")
    assert pub(d)["count"] == 1 and pub(d)["passes"] == 1 and d.to_move == 1
    assert "draw" not in legal(d) and "pass" not in legal(d) and "AS" in legal(d)
    d.play("AS")
    assert pub(d)["passes"] == 0 and legal(d) == {"2S", "2H", "2D", "2C"}


def _empty_stock(d: TwentyDeal, hands: list[str], count: int) -> None:
    """Put a deal in a position the 52-card game only reaches rarely (for rule unit tests)."""
    d.hands = [mask(h) for h in hands]
    d.top = len(d.stock)
    d.m = count


def test_scenario_6_pass_advances_the_seed_move_number() -> None:
    # with 24+ stock cards and at most 20 turns, the seed preset never empties the stock;
    # the rule is checked on a constructed position
    d = SEED.deal(seed=1)
    assert isinstance(d, TwentyDeal)
    _empty_stock(d, ["9S 9H", "TS TH"], 5)
    assert legal(d) == {"pass"}
    d.play("pass")
    assert pub(d)["count"] == 6 and d.to_move == 1
    # at move 20 every card fits under at_most; with exact counting a pass there ends the hand
    game = cardplay.load("twenty", preset="canonical", count_advances_on_draw=True)
    d = game.deal(seed=1)
    assert isinstance(d, TwentyDeal)
    _empty_stock(d, ["9S 9H", "TS TH"], 20)
    assert legal(d) == {"pass"}
    d.play("pass")
    assert d.is_over and pub(d)["outcome"] == "twenty" and d.result == [20, -20]


def test_deadlock_guard_ends_the_canonical_hand() -> None:
    d = CANON.deal(seed=3)
    assert isinstance(d, TwentyDeal)
    _empty_stock(d, ["9S 9H", "TS TH"], 5)
    assert legal(d) == {"pass"}
    d.play("pass")
    assert not d.is_over and legal(d) == {"pass"}
    d.play("pass")  # every player has passed in succession
    assert d.is_over and pub(d)["outcome"] == "passes"
    assert d.result == [20, -20]  # 2 cards each; 10 beats 20


def _scenario_7_deal(first_draw: str, **options: Any) -> Deal:
    game = cardplay.load("twenty", players=3, **options)
    d = game.deal(deck=deck([["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
                             ["9D", "3D", "4D", "5D", "6D", "7D", "8D"],
                             ["4S", "5S", "6S", "7S", "8S", "9S", "TS"]],
                            [first_draw, "AD", "QS"]), dealer=2)
    for seat in range(3):
        assert legal(d) == {"draw"}  # nobody holds a card of count <= the move number
        d.play("draw", seat=seat)
    script = ["3C", "3D", "4S", "4C", "4D", "5S", "5C", "5D", "6S", "6C", "6D", "7S", "7C", "7D",
              "8S", "8C", "8D"]
    for mv, text in enumerate(script, start=4):
        seat = (mv - 1) % 3
        assert pub(d)["count"] == mv and d.to_move == seat
        assert "draw" not in legal(d)
        d.play(text, seat=seat)
    return d


def test_scenario_7_hand_ends_after_move_20_penalties_break_the_tie() -> None:
    d = _scenario_7_deal("KH")
    assert d.is_over and pub(d)["turns"] == 20 and pub(d)["outcome"] == "twenty"
    assert [len(h) for h in pub(d)["hands"]] == [2, 2, 3]
    # {AD 9D} = 10 beats {KH 2C} = 25
    assert set(pub(d)["hands"][1]) == {"9D", "AD"} and set(pub(d)["hands"][0]) == {"2C", "KH"}
    assert d.result == [-25, 20, -25]
    assert pub(d)["winners"] == [1] and pub(d)["penalties"] == [25, 10, 25]


def test_tie_policy_share_and_nobody() -> None:
    d = _scenario_7_deal("AH")  # {2C AH} = 10 ties {9D AD} = 10
    assert d.result == [20, 20, -25]
    d = _scenario_7_deal("AH", tie_policy="nobody")
    assert d.result == [-10, -10, -25] and pub(d)["winners"] == []


def test_scenario_8_going_out_ends_the_hand_at_once() -> None:
    d = SEED.deal(deck=deck([["AS", "2S", "3S", "4S", "5S", "6S", "3H"],
                             ["TC", "TD", "JC", "JD", "QC", "QD", "9C"]],
                            ["QH", "QS", "JH", "JS"]), dealer=1)
    for mv in ["AS", "draw", "3S", "draw", "5S", "draw", "2S+4S", "draw"]:
        if mv == "draw":
            assert legal(d) == {"draw"}
        d.play(mv)
    assert pub(d)["count"] == 9 and hand_of(d, 0) == {"6S", "3H"}
    d.play("6S+3H")
    assert d.is_over and pub(d)["outcome"] == "out" and pub(d)["count"] == 9
    assert d.result == [20, -105] and d.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        d.play("draw")


def _scenario_9_deal(seat1: str, moves: list[str], **options: Any) -> Deal:
    game = cardplay.load("twenty", preset="canonical", **options)
    seat0 = ["AS", "AC", "2S", "2C", "3S", "2D", "4S"] if "2D+4S" in moves else \
        ["AS", "AC", "2S", "2C", "3S", "3C", "4S"]
    d = game.deal(deck=deck([seat0, seat1.split()], ["7H"]), dealer=1)
    play_all(d, moves)
    assert d.is_over and pub(d)["outcome"] == "out"
    return d


_S9_MOVES = ["AS", "2H", "AC+2S", "AD+3H", "2C+3S", "draw", "2D+4S"]


def test_scenario_9_penalties() -> None:
    d = _scenario_9_deal("2H 3H AD AH TH JH KH", _S9_MOVES)
    assert set(pub(d)["hands"][1]) == {"AH", "TH", "JH", "KH", "7H"}
    assert d.result == [20, -50]
    d = _scenario_9_deal("2H 3H AD AH TH JH KH", _S9_MOVES, penalty_2_to_9=0)
    assert d.result == [20, -45]
    d = _scenario_9_deal("2H AH 3H AD 5H TH TD",
                         ["AS", "2H", "AC+2S", "AH+3H", "2C+3S", "AD+5H", "3C+4S"])
    assert set(pub(d)["hands"][1]) == {"TH", "TD"} and d.result == [20, -20]


def test_penalty_values() -> None:
    assert SEED.penalty(mask("AS 2S 9H TD JC QS KH")) == 5 + 5 + 5 + 10 + 10 + 10 + 20
    zero = cardplay.load("twenty", penalty_2_to_9=0)
    assert zero.penalty(mask("AS 2S 9H TD JC QS KH")) == 5 + 10 + 10 + 10 + 20


def test_scenario_10_match_is_won_at_the_target() -> None:
    # a player at 85 wins a hand: +20 -> 105 wins the match (the 85 is set on a fresh match)
    match = SEED.match(seed=3, dealer=1)
    match._scores = [85, 0]
    rng = random.Random(3)
    while not match.deals:
        match.play(rng.choice(match.legal_moves()))
    assert match.deals[0].result == [20, -10]
    assert match.is_over and match.scores == [105, -10] and match.winners == [0]
    assert match.to_move is None and match.legal_moves() == []
    # the same player losing that hand stays below the target and the match goes on
    match = SEED.match(seed=0, dealer=1)
    match._scores = [85, 0]
    rng = random.Random(0)
    while not match.deals:
        match.play(rng.choice(match.legal_moves()))
    assert match.deals[0].result == [-20, 20]
    assert not match.is_over and match.scores == [65, 20] and match.winners == []
    # with target 20 the first hand's sole winner wins the match at once
    game = cardplay.load("twenty", target=20)
    match = game.match(seed=4, dealer=1)
    rng = random.Random(4)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves()))
    assert len(match.deals) == 1 and match.scores == [20, -15] and match.winners == [0]


def test_match_end_rule() -> None:
    over = SEED._match_over
    winners = SEED._match_winners

    def m(*scores: int) -> Any:
        return SimpleNamespace(scores=list(scores), deals=[None] * 6)

    assert over(m(105, 40)) and winners(m(105, 40)) == [0]
    assert over(m(100, 40)) and not over(m(99, 40))
    # co-winners crossing together: the higher total wins; equal totals play another hand
    assert over(m(110, 105, -30)) and winners(m(110, 105, -30)) == [0]
    assert not over(m(105, 105, -30))


def test_match_through_the_public_api() -> None:
    game = cardplay.load("twenty", target=40)
    match = game.match(seed=11)
    rng = random.Random(11)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves()))
    assert all(d.result is not None for d in match.deals)
    assert match.scores == [sum(col) for col in zip(*(d.result for d in match.deals))]  # type: ignore
    best = max(match.scores)
    assert best >= 40 and match.winners == [match.scores.index(best)]
    v = match.view(0).to_dict()
    assert v["match"]["is_over"] and v["match"]["winners"] == match.winners


def test_max_hands_ends_a_match_that_never_reaches_the_target() -> None:
    game = cardplay.load("twenty", players=4, max_hands=3, target=10_000)
    match = game.match(seed=2)
    rng = random.Random(2)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves()))
    assert len(match.deals) == 3
    best = max(match.scores)
    assert match.winners == [i for i, s in enumerate(match.scores) if s == best]


def test_scenario_11_rotation_and_first_dealer() -> None:
    game = cardplay.load("twenty", players=4)
    match = game.match(seed=5, dealer=0)
    assert match.deal.dealer == 0 and match.to_move == 1
    rng = random.Random(5)
    while len(match.deals) < 1:
        match.play(rng.choice(match.legal_moves()))
    assert match.deals[0].dealer == 0
    assert match.deal.dealer == 1 and match.to_move == 2
    # the first dealer is drawn from the match seed
    firsts = {game.match(seed=s).deal.dealer for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert game.match(seed=7).deal.dealer == game.match(seed=7).deal.dealer


# --------------------------------------------------------------------------------------------
# The move generator against brute force over all subsets of the hand (with King values)


def _king_totals(n: int) -> frozenset[int]:
    """Every total that ``n`` Kings can make, each King any value 1..20."""
    totals = {0}
    for _ in range(n):
        totals = {t + v for t in totals for v in range(1, 21)}
    return frozenset(totals)


_KING_TOTALS = [_king_totals(n) for n in range(5)]
_KING_LEAST = [min(t) for t in _KING_TOTALS]
_VALUE = [1 if c % 13 == 12 else 10 if c % 13 >= 8 else c % 13 + 2 for c in range(52)]


def _brute(game: Twenty, cards: list[int], m: int) -> set[int]:
    """Every subset of the hand (built up one card at a time), each card at its value, each King
    at every value 1..20, each same-rank 10/J/Q pair at 20 or 10 (with pair_counts_ten)."""
    exact = game.options.count_rule == "exact"
    pairs_on = game.options.pair_counts_ten
    k = len(cards)
    size = 1 << k
    value = [0] * size  # sum of the non-King cards' values
    kings = [0] * size
    tjq = [0] * size  # 3 bits of count for each of 10, J, Q
    masks = [0] * size
    out = set()
    for sub in range(1, size):
        low = sub & -sub
        i = low.bit_length() - 1
        c = cards[i]
        rank = c % 13
        prev = sub ^ low
        value[sub] = value[prev] + (0 if rank == 11 else _VALUE[c])
        kings[sub] = kings[prev] + (rank == 11)
        tjq[sub] = t = tjq[prev] + (1 << (3 * (rank - 8)) if 8 <= rank <= 10 else 0)
        masks[sub] = set_mask = masks[prev] | 1 << c
        pairs = (t & 7) // 2 + (t >> 3 & 7) // 2 + (t >> 6) // 2 if pairs_on and t else 0
        sums = [value[sub] - 10 * j for j in range(pairs + 1)]
        king_totals = _KING_TOTALS[kings[sub]]
        if not exact:
            if min(sums) + _KING_LEAST[kings[sub]] <= m:  # Kings at their cheapest
                out.add(play_code(set_mask))
        else:
            made = [m - s for s in sums if m - s in king_totals]
            if made:
                out.add(play_code(set_mask, max(made)))
    return out


_VARIANTS = [
    cardplay.load("twenty"),
    cardplay.load("twenty", preset="canonical"),
    cardplay.load("twenty", pair_counts_ten=True),
    cardplay.load("twenty", preset="canonical", pair_counts_ten=False),
]
_COURT_HEAVY = [c for c in range(52) if c % 13 in (0, 1, 8, 9, 10, 11, 12)]


def test_generator_equals_brute_force_on_thousands_of_hands() -> None:
    rng = random.Random(20)
    checked = 0
    for game in _VARIANTS:
        for _ in range(550):
            size = rng.choice([1, 2, 3, 4, 5, 6, 7, 7, 8, 9])
            pool = _COURT_HEAVY if rng.random() < 0.5 else range(52)
            cards = rng.sample(list(pool), size)
            m = rng.randint(1, 20)
            hand = sum(1 << c for c in cards)
            assert set(game.plays(hand, m)) == _brute(game, cards, m), (cards, m)
            assert len(set(game.plays(hand, m))) == len(game.plays(hand, m))
            checked += 1
    assert checked >= 2000


@settings(max_examples=60, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=1, max_size=11, unique=True),
       m=st.integers(1, 20), variant=st.integers(0, len(_VARIANTS) - 1))
def test_property_generator_equals_brute_force(cards: list[int], m: int, variant: int) -> None:
    game = _VARIANTS[variant]
    hand = sum(1 << c for c in cards)
    assert sorted(game.plays(hand, m)) == sorted(_brute(game, cards, m))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["seed", "canonical"]),
       players=st.integers(2, 4))
def test_property_deals_keep_their_invariants(seed: int, preset: str, players: int) -> None:
    game = cardplay.load("twenty", preset=preset, players=players)
    d = game.deal(seed=seed)
    rng = random.Random(seed)
    while not d.is_over:
        p = pub(d)
        assert sum(p["hand_sizes"]) + p["stock"] + sum(len(x["cards"]) for x in p["pile"]) == 52
        assert 1 <= p["count"] <= 20
        codes = d.legal_codes()
        plays = [c for c in codes if c >= PLAY_BASE]
        assert (DRAW in codes) == (p["stock"] > 0 and (not plays or preset == "canonical"))
        assert (PASS in codes) == (p["stock"] == 0 and not plays)
        d.apply_code(rng.choice(codes))
    res = d.result
    assert res is not None
    assert all(r == 20 or r <= 0 for r in res)
    if preset == "seed":
        assert pub(d)["turns"] <= 20


# --------------------------------------------------------------------------------------------
# Options and presets


def test_presets_and_overrides() -> None:
    o = SEED.options
    assert (o.preset, o.players, o.count_rule, o.count_advances_on_draw, o.may_draw_voluntarily,
            o.pair_counts_ten, o.penalty_2_to_9, o.tie_policy, o.target) == \
        ("seed", 2, "at_most", True, False, False, 5, "share", 100)
    o = CANON.options
    assert (o.count_rule, o.count_advances_on_draw, o.may_draw_voluntarily, o.pair_counts_ten) \
        == ("exact", False, True, True)
    o = cardplay.load("twenty", preset="canonical", pair_counts_ten=False, players=3).options
    assert (o.count_rule, o.pair_counts_ten, o.players) == ("exact", False, 3)
    o = cardplay.load("twenty", count_rule="exact", may_draw_voluntarily="true").options
    assert (o.preset, o.count_rule, o.may_draw_voluntarily, o.count_advances_on_draw) == \
        ("seed", "exact", True, True)
    assert cardplay.load("twenty", players="4").players == 4


@pytest.mark.parametrize(("name", "value", "names"), [
    ("preset", "pagat", "'seed', 'canonical'"),
    ("players", 5, "from 2 to 4"),
    ("players", 1, "from 2 to 4"),
    ("count_rule", "less", "'at_most', 'exact'"),
    ("pair_counts_ten", "yes", "False, True"),
    ("penalty_2_to_9", 3, "5, 0"),
    ("tie_policy", "split", "'share', 'nobody'"),
    ("target", 0, "from 1 to"),
    ("max_hands", -1, "from 1 to"),
])
def test_option_errors_name_the_valid_values(name: str, value: Any, names: str) -> None:
    with pytest.raises(OptionError) as err:
        cardplay.load("twenty", **{name: value})
    assert names in str(err.value)
    with pytest.raises(OptionError, match="valid options"):
        cardplay.load("twenty", penalty=0)


def test_rules_texts() -> None:
    text = SEED.rules_summary()
    assert "at_most" in text and "draw" in text and "64 + (mask" in text
    assert "Король" in RULES_RU and SEED.title["ru"] == "Двадцать (20)"


# --------------------------------------------------------------------------------------------
# Notation


@pytest.mark.parametrize(("text", "canonical"), [
    ("AC+AD", "AC+AD"), ("ad+ac", "AC+AD"), (" AD + AC ", "AC+AD"), ("2s", "2S"),
    ("10♥", "TH"), ("♥10", "TH"), ("Т♠", "AS"), ("К♥+Т♣", "AC+KH"),
    ("KH+AS+2C+TD+JS+QC", "AS+2C+TD+JS+QC+KH"), ("AS+AH+AD+AC", "AC+AD+AH+AS"),
    ("KS+KH+KD+KC", "KC+KD+KH+KS"), ("DRAW", "draw"), ("Pass", "pass"), (" draw ", "draw"),
])
def test_notation_seed(text: str, canonical: str) -> None:
    assert SEED.parse_move(text) == canonical
    assert SEED.parse_move(canonical).text == canonical


@pytest.mark.parametrize("text", [
    "KH=1", "AS=1", "AS+", "+AS", "AS++AD", "AS+AS", "XX", "", "  ", "stake 5", "play",
    "1S", "AS AD", "AS,AD", "take", "KH=30",
])
def test_notation_seed_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        SEED.parse_move(text)


@pytest.mark.parametrize(("text", "canonical"), [
    ("AC+KH=1", "AC+KH=1"), ("KH=1+AC", "AC+KH=1"), ("KH=5+KC=3", "KC=7+KH=1"),
    ("KC=20+KH=20", "KC=20+KH=20"), ("kh=20", "KH=20"), ("KH = 7", "KH=7"),
    ("AC+KH", "AC+KH"), ("TC+QD", "TC+QD"),
])
def test_notation_exact(text: str, canonical: str) -> None:
    assert CANON.parse_move(text) == canonical


@pytest.mark.parametrize("text", [
    "KH=0", "KH=21", "KH=05", "KH=+5", "KH=", "KH=5+KC", "AS=1", "KH=1.5", "KH=x", "KH=30",
])
def test_notation_exact_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        CANON.parse_move(text)


def test_king_values_and_codes() -> None:
    assert king_values(1, 20) == [20]
    assert king_values(2, 20) == [19, 1]
    assert king_values(3, 5) == [3, 1, 1]
    assert king_values(2, 40) == [20, 20]
    assert CANON.move(play_code(mask("KC KH"), 20)).text == "KC=19+KH=1"
    assert SEED.move(play_code(mask("AS"))).text == "AS"
    assert SEED.move(DRAW).text == "draw" and SEED.move(PASS).text == "pass"
    assert play_code(mask("AS")) == PLAY_BASE + (1 << parse_card("AS"))
    # codes round-trip through the text
    rng = random.Random(3)
    for _ in range(200):
        cards = rng.sample(range(52), rng.randint(1, 6))
        nk = sum(1 for c in cards if c % 13 == 11)
        code = play_code(sum(1 << c for c in cards), rng.randint(nk, 20 * nk) if nk else 0)
        assert CANON.code_of(CANON.move(code).text) == code
        plain = play_code(sum(1 << c for c in cards))
        assert SEED.code_of(SEED.move(plain).text) == plain


# --------------------------------------------------------------------------------------------
# Views and hidden information


def test_views_hide_other_hands_and_drawn_cards() -> None:
    game = cardplay.load("twenty", players=3)
    d = game.deal(deck=deck([["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
                             ["9D", "3D", "4D", "5D", "6D", "7D", "8D"],
                             ["4S", "5S", "6S", "7S", "8S", "9S", "TS"]],
                            ["KH", "AD", "QS"]), dealer=2)
    d.play("draw")
    assert "KH" in hand_of(d, 0)
    for seat in (1, 2):
        text = json.dumps(d.view(seat).to_dict())
        assert "KH" not in text and "2C" not in text
        assert d.view(seat).to_dict()["history"] == [[0, "draw"]]
    p = pub(d, 1)
    assert p["hand_sizes"] == [8, 7, 7] and p["stock"] == 52 - 21 - 1
    assert "hands" not in p and d.view(1).legal_moves != ()
    assert d.view(0).legal_moves == ()
    play_all(d, ["draw", "draw", "KH"])
    p = pub(d, 2)
    assert p["pile"] == [{"seat": 0, "at": 4, "move": "KH", "cards": ["KH"], "kings": []}]
    # once over, every hand is shown
    d = _scenario_7_deal("KH")
    assert pub(d, 2)["hands"][0] == ["KH", "2C"]


def test_exact_views_show_king_values() -> None:
    d = _scenario_2_3_deal(CANON)
    d.play("AC+KH")
    p = pub(d, 0)
    assert p["pile"][-1] == {"seat": 1, "at": 2, "move": "AC+KH=1", "cards": ["AC", "KH"],
                             "kings": [1]}


# --------------------------------------------------------------------------------------------
# Sampling


@pytest.mark.parametrize("preset", ["seed", "canonical"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_sampled_worlds_match_the_view(preset: str, players: int) -> None:
    game = cardplay.load("twenty", preset=preset, players=players)
    rng = random.Random(players)
    for seed in range(3):
        d = game.deal(seed=seed)
        step = 0
        while True:
            if step % 2 == 0 or d.is_over:
                for s in range(players):
                    v = d.view(s)
                    w = game.sample_deal(v, random.Random(seed * 7 + s))
                    assert w.view(s).to_dict() == v.to_dict()
                    assert w.dealer == d.dealer
            if d.is_over:
                break
            d.play(rng.choice(d.legal_moves()))
            step += 1


def _replays(game: Twenty, world: Deal, view: Any) -> bool:
    """The world's deck order replays the public history through the checked path."""
    again = game.deal(deck=world.deck, dealer=world.dealer)
    try:
        for _, text in view.history:
            again.play(text)
    except IllegalMoveError:
        return False
    return bool(again.view(view.seat).to_dict() == view.to_dict())


@pytest.mark.parametrize("preset", ["seed", "canonical"])
@pytest.mark.parametrize("players", [2, 4])
def test_sampled_worlds_replay_the_history(preset: str, players: int) -> None:
    game = cardplay.load("twenty", preset=preset, players=players)
    rng = random.Random(40 + players)
    for seed in range(4):
        d = game.deal(seed=100 + seed)
        step = 0
        while not d.is_over:
            if step % 2 == 0:
                s = step % players
                v = d.view(s)
                assert _replays(game, game.sample_deal(v, random.Random(step)), v)
            d.play(rng.choice(d.legal_moves()))
            step += 1


def test_sampling_after_a_canonical_pass() -> None:
    # three players draw the whole stock (seat k gets the positions = k mod 3); seat 1, with no
    # Ace or King, must pass at count 1: so no world may give it an Ace or a King
    high = [c for c in ALL if c[0] in "AK"]
    low = [c for c in ALL if c[0] not in "AK"]
    seat1 = low[:17]
    rest = low[17:] + high
    seat0, seat2 = rest[:18], rest[18:]
    order = [(seat0, seat1, seat2)[i % 3][i // 3] for i in range(52)]
    game = cardplay.load("twenty", preset="canonical", players=3)
    d = game.deal(deck=order, dealer=2)
    play_all(d, ["draw"] * 31)
    assert d.to_move == 1 and legal(d) == {"pass"}
    d.play("pass")
    v = d.view(0)
    for i in range(30):
        w = game.sample_deal(v, random.Random(i))
        assert not {format_card(c)[0] for c in w._hand(1)} & {"A", "K"}
        assert _replays(game, w, v)


def test_sampling_respects_forced_draws() -> None:
    # seed preset: seat 1 had to draw at move 2, so its 7 dealt cards all count more than 2
    d = SEED.deal(deck=deck([["AS", "9S", "9H", "9D", "9C", "8S", "8H"],
                             ["5C", "6C", "7C", "8C", "TC", "JC", "QC"]]),
                  dealer=1)
    play_all(d, ["AS", "draw"])
    v = d.view(0)
    low = {"A", "2", "K"}
    seen_low = 0
    for i in range(60):
        w = SEED.sample_deal(v, random.Random(i))
        assert isinstance(w, TwentyDeal)
        dealt = [format_card(c) for c in w._order[1:14:2]]  # seat 1's seven dealt cards
        assert not any(c[0] in low for c in dealt), dealt
        drawn = format_card(w._order[14])
        seen_low += drawn[0] in low
        assert w.view(0).to_dict() == v.to_dict()
    assert seen_low > 0  # the drawn card itself is unconstrained


def test_sampling_is_uniform_over_unseen_cards() -> None:
    d = CANON.deal(seed=8)
    v = d.view(0)
    own = set(v.to_dict()["hand"])
    counts: Counter[str] = Counter()
    n = 1000
    for i in range(n):
        w = CANON.sample_deal(v, random.Random(i))
        counts.update(format_card(c) for c in w._hand(1))
    assert set(counts) == set(ALL) - own
    expected = n * 7 / 45
    assert all(abs(k - expected) < 0.35 * expected for k in counts.values())


# --------------------------------------------------------------------------------------------
# Fast path, copies, records


def test_copy_and_record_round_trip() -> None:
    d = _scenario_5_deal()
    e = d.copy()
    e.play("KS")
    assert not d.is_over and e.is_over
    rec = json.loads(json.dumps(e.record()))
    again = cardplay.replay(rec)
    assert isinstance(again, Deal) and again.result == e.result
    assert rec["moves"][-1] == "KS=20"


def test_unknown_deal_context_is_an_error() -> None:
    with pytest.raises(ValueError, match="context"):
        SEED.deal(seed=1, chips=3)


# --------------------------------------------------------------------------------------------
# The heuristic bot


@pytest.mark.parametrize("preset", ["seed", "canonical"])
@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_bot_plays_legal_moves(preset: str, players: int) -> None:
    game = cardplay.load("twenty", preset=preset, players=players)
    bots = [load_bot("heuristic", game, seed=s) for s in range(players)]
    for seed in range(6):
        play_out(game.deal(seed=seed), bots)


def test_heuristic_bot_goes_out_when_it_can() -> None:
    g = SEED
    deal = g.deal(deck=deck([["AS", "2S", "3S", "4S", "5S", "6S", "3H"],
                             ["TC", "TD", "JC", "JD", "QC", "QD", "9C"]],
                            ["QH", "QS", "JH", "JS"]), dealer=1)
    play_all(deal, ["AS", "draw", "3S", "draw", "5S", "draw", "2S+4S", "draw"])
    bot = load_bot("heuristic", g, seed=1)
    assert bot.choose(deal.view(0)) == "3H+6S"
