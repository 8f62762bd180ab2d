"""Macao (RULES.md section 6): scenarios from fixed shoes, options, notation, hidden information,
match flow, conservation properties, and the exact expected-value bot."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardplay
from cardplay.bots.heuristics.macao import (
    FULL_COUNTS,
    HeuristicBot,
    MultiBuySolver,
    buy_dist,
    decide_dist,
    multi_buy_ev,
    multi_round_ev,
    payoff,
    round_dist,
    stand_dist,
    unseen_counts,
)
from cardplay.builtin.macao import DECK, RULES_RU, VALUE, Macao, MacaoDeal, hand_value
from cardplay.cards import format_card, parse_card
from cardplay.engine import (
    Deal,
    IllegalMoveError,
    InvalidMoveError,
    OptionError,
    View,
    derive_seed,
)
from helpers import legal, play_out, shoe, stakes


def load(**options: object) -> Macao:
    g = cardplay.load("macao", **options)
    assert isinstance(g, Macao)
    return g


def deal_of(game: Macao, *top: str, **kw: object) -> MacaoDeal:
    d = game.deal(deck=shoe(*top), **kw)  # type: ignore[arg-type]
    assert isinstance(d, MacaoDeal)
    return d


def play(d: Deal, *moves: str) -> None:
    for m in moves:
        d.play(m, seat=d.to_move)


# --------------------------------------------------------------------------------------------
# 6.6 scenario 1: values


@pytest.mark.parametrize(("cards", "value"), [
    (["5S", "6H"], 1), (["3S", "7D"], 0), (["AS", "8C"], 9), (["KH"], 0), (["9D"], 9),
    (["QS", "4H"], 4), (["AC"], 1), (["TS"], 0), (["JS", "TD"], 0),
])
def test_values(cards: list[str], value: int) -> None:
    assert hand_value([parse_card(c) for c in cards]) == value


def test_value_table() -> None:
    assert [VALUE[parse_card(r + "S")] for r in "23456789TJQKA"] == \
        [2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1]
    assert hand_value([parse_card("5S"), parse_card("6S")], multi_buy=True) == 11
    assert sorted(DECK) == sorted(list(range(52)) * 2)


def test_value_through_a_showdown() -> None:
    d = deal_of(load(players=2), "5S", "2D", "6H")
    play(d, "stake 10", "buy")
    last = d.view(0).public["last_round"]
    assert last["hands"][0] == ["5S", "6H"] and last["values"][0] == 1
    assert last["banker_card"] == "2D" and last["banker_value"] == 2
    assert d.points == [-10, 10]


# --------------------------------------------------------------------------------------------
# 6.6 scenario 2: who pays


@pytest.mark.parametrize(("banker", "punter", "sign"), [
    ("8S", "9H", 1),    # banker 8, punter 9: the banker pays
    ("AS", "2H", 1),    # banker 1, punter 2: the banker pays
    ("KS", "AH", 1),    # banker 0, punter 1: the banker pays
    ("AS", "TH", -1),   # banker 1, punter 0: the punter pays
    ("2S", "AH", -1),   # banker 2, punter 1: the punter pays
    ("5S", "5H", 0),    # equal: push
    ("QS", "JH", 0),    # 0 against 0: push
])
def test_showdown(banker: str, punter: str, sign: int) -> None:
    d = deal_of(load(players=2), punter, banker)
    assert d.dealer == 1 and d.to_move == 0
    assert legal(d) == stakes(5, 50)
    d.play("stake 20")
    assert d.to_move == 0 and legal(d) == {"buy", "stand"}
    assert d.view(0).hand == (parse_card(punter),)
    d.play("stand")
    assert d.points == [20 * sign, -20 * sign]
    pub = d.view(1).public
    assert pub["bank"] == 200 - 20 * sign
    assert pub["chips"] == [1000 + 20 * sign, 800]
    assert pub["last_round"]["won"] == [20 * sign, -20 * sign]
    assert pub["used"] == [punter, banker]
    # the next round has begun from the same shoe
    assert pub["round"] == 2 and pub["phase"] == "stake" and pub["stock"] == 102


def test_deal_from_a_fixed_order_three_players() -> None:
    # stakes first; then one card to seat 0, seat 1, the banker (seat 2); buys from the top.
    d = deal_of(load(), "5S", "6S", "QD", "3S", "7S")
    assert d.dealer == 2 and d.to_move == 0
    play(d, "stake 10")
    assert d.to_move == 1 and legal(d) == stakes(5, 50)
    play(d, "stake 30")
    assert d.view(0).hand == (parse_card("5S"),)
    assert d.view(1).hand == (parse_card("6S"),)
    assert d.view(2).hand == ()            # the banker does not see his own card
    assert d.view(0).public["dealt_to"] == [0, 1, 2]
    play(d, "buy")
    assert d.view(0).hand == (parse_card("5S"), parse_card("3S"))
    assert d.view(1).public["bought"] == [1, 0, 0]
    assert d.view(1).public["status"] == ["bought", "staked", "banker"]
    play(d, "buy")
    # showdown: banker Q = 0; seat 0 has 8, seat 1 has 6+7 = 3: both win
    assert d.points == [10, 30, -40]
    last = d.view(0).public["last_round"]
    assert last["hands"] == [["5S", "3S"], ["6S", "7S"], []]
    assert last["values"] == [8, 3, None]
    assert last["stakes"] == [10, 30, None]
    assert d.view(0).public["used"] == ["5S", "6S", "QD", "3S", "7S"]


# --------------------------------------------------------------------------------------------
# 6.6 scenario 3: exactly one buy


def test_a_buy_is_exactly_one_card() -> None:
    d = deal_of(load(), "5S", "6S", "QD", "3S", "7S")
    play(d, "stake 10", "stake 10", "buy")
    assert len(d.view(0).hand) == 2
    assert d.to_move == 1
    with pytest.raises(IllegalMoveError):
        d.play("buy", seat=0)
    assert len(d.view(0).hand) == 2
    d2 = deal_of(load(players=2), "5S", "QD", "3S")
    play(d2, "stake 10", "buy")
    # the round is over; a second buy does not fit the staking phase
    with pytest.raises(IllegalMoveError):
        d2.play("buy")
    assert d2.view(0).public["last_round"]["hands"][0] == ["5S", "3S"]


# --------------------------------------------------------------------------------------------
# 6.6 scenario 4: coverage


def test_coverage() -> None:
    g = load(players=4, bank_stake=60)
    d = deal_of(g, "5S", "6S", "7S", "8S")
    assert d.dealer == 3 and legal(d) == stakes(5, 50)
    d.play("stake 50")
    assert legal(d) == stakes(5, 10)
    with pytest.raises(IllegalMoveError):
        d.play("stake 11")
    d.play("stake 10")
    # the third punter faces no coverage and sits out; cards go to the stakers and the banker
    pub = d.view(2).public
    assert pub["status"] == ["staked", "staked", "sat_out", "banker"]
    assert pub["dealt_to"] == [0, 1, 3]
    assert d.to_move == 0 and d.view(2).hand == ()
    assert d.view(1).hand == (parse_card("6S"),)


def test_coverage_leaves_exactly_the_minimum() -> None:
    d = deal_of(load(players=4, bank_stake=60), "5S")
    play(d, "stake 50", "stake 5")
    assert d.to_move == 2 and legal(d) == {"stake 5"}
    d2 = deal_of(load(players=4, bank_stake=60), "5S")
    play(d2, "stake 50", "stake 6")
    assert d2.to_move == 0 and d2.view(0).public["status"][2] == "sat_out"


def test_stake_is_capped_by_the_punters_chips() -> None:
    g = load()
    d = deal_of(g, "5S", chips=[12, 3, 1000])
    assert legal(d) == stakes(5, 12)
    d.play("stake 12")
    # seat 1 holds fewer chips than min_stake: out, without a move
    assert d.to_move == 0 and d.view(0).public["status"][1] == "out"
    assert d.view(0).public["dealt_to"] == [0, 2]


# --------------------------------------------------------------------------------------------
# 6.6 scenario 5: shoe exhaustion


def _stand_rounds(d: Deal, rounds: int, buyers: list[tuple[int, int]]) -> None:
    """Play ``rounds`` rounds at 5 chips; seats in ``buyers`` as (round, seat) buy."""
    for r in range(1, rounds + 1):
        assert d.view(0).public["round"] == r
        while d.view(0).public["phase"] == "stake":
            d.play("stake 5")
        while d.view(0).public["round"] == r and not d.is_over:
            seat = d.to_move
            d.play("buy" if (r, seat) in buyers and "buy" in legal(d) else "stand")


def test_shoe_exhaustion_ends_the_turn() -> None:
    g = load(players=4, bank_stake=1000)
    d = game_deal = g.deal(seed=5)
    # 24 rounds of 4 cards plus 2 bought cards leave 6 < 2*3+1 cards: the turn ends
    _stand_rounds(d, 24, [(1, 0), (1, 1)])
    assert game_deal.is_over
    pub = d.view(0).public
    assert pub["stock"] == 6 and pub["round"] == 24 and pub["phase"] == "over"
    assert pub["bank"] == 0
    assert d.result is not None and sum(d.result) == 0
    assert d.result[3] == pub["chips"][3] - 1000


def test_seven_cards_still_make_a_round() -> None:
    g = load(players=4, bank_stake=1000)
    d = g.deal(seed=6)
    _stand_rounds(d, 24, [(1, 0)])
    pub = d.view(0).public
    assert not d.is_over and pub["stock"] == 7 and pub["round"] == 25
    _stand_rounds_from(d, 25)
    assert d.is_over and d.view(0).public["stock"] == 3


def _stand_rounds_from(d: Deal, r: int) -> None:
    while d.view(0).public["phase"] == "stake":
        d.play("stake 5")
    while d.view(0).public["round"] == r and not d.is_over:
        d.play("stand")


# --------------------------------------------------------------------------------------------
# 6.6 scenario 6: a broken bank


def test_broken_bank_ends_the_turn() -> None:
    g = load(players=2, bank_stake=10)
    d = deal_of(g, "9S", "KS")
    assert legal(d) == stakes(5, 10)
    play(d, "stake 10", "stand")
    assert d.is_over and d.result == [10, -10]
    assert d.view(0).public["bank"] == 0


def test_bank_below_min_stake_ends_the_turn() -> None:
    g = load(players=2, bank_stake=10)
    d = deal_of(g, "9S", "KS")
    play(d, "stake 6", "stand")
    assert d.is_over and d.result == [6, -6]


def test_a_losing_punter_feeds_the_bank() -> None:
    g = load(players=2, bank_stake=10)
    d = deal_of(g, "KS", "9S", "9H", "KH")
    play(d, "stake 10", "stand")
    assert not d.is_over and d.view(0).public["bank"] == 20
    assert legal(d) == stakes(5, 20)


# --------------------------------------------------------------------------------------------
# Options


def test_option_defaults() -> None:
    g = load()
    assert g.options_dict() == {
        "players": 3, "start_chips": 1000, "min_stake": 5, "max_stake": 50, "bank_stake": 200,
        "stake_timing": "before_deal", "banker_unlimited": False, "forced_draw": False,
        "naturals": False, "multi_buy": False,
    }
    assert g.players == 3 and Macao.min_players == 2 and Macao.max_players == 8
    assert load(players="5").players == 5
    assert load(naturals="true").options.naturals is True
    assert g.title == {"en": "Macao", "ru": "Макао", "de": "Macao"}


@pytest.mark.parametrize(("name", "value", "match"), [
    ("players", 1, "2 to 8"), ("players", 9, "2 to 8"), ("players", "x", "2 to 8"),
    ("start_chips", 0, "from 1 to"), ("min_stake", -5, "from 1 to"),
    ("max_stake", 2.5, "from 1 to"), ("bank_stake", True, "from 1 to"),
    ("stake_timing", "never", "before_deal"), ("banker_unlimited", "maybe", "False"),
    ("forced_draw", 1, "True"), ("naturals", None, "True"), ("multi_buy", "yes", "True"),
    ("preset", "seed", "valid options"),
])
def test_option_errors(name: str, value: object, match: str) -> None:
    with pytest.raises(OptionError, match=match):
        load(**{name: value})


@pytest.mark.parametrize(("opts", "match"), [
    ({"min_stake": 60}, "min_stake <= max_stake"),
    ({"bank_stake": 4}, "bank_stake >= 5"),
    ({"naturals": True, "bank_stake": 14}, "bank_stake >= 15"),
    ({"start_chips": 199}, "start_chips >= bank_stake"),
])
def test_option_combinations(opts: dict[str, object], match: str) -> None:
    with pytest.raises(OptionError, match=match):
        load(**opts)


def test_deal_context_errors() -> None:
    g = load()
    with pytest.raises(ValueError, match="chips"):
        g.deal(seed=1, chips=[1000, 1000])
    with pytest.raises(ValueError, match="chips"):
        g.deal(seed=1, chips=[1000, -1, 1000])
    with pytest.raises(ValueError, match="bank_stake"):
        g.deal(seed=1, chips=[1000, 1000, 199])
    with pytest.raises(ValueError, match="valid: chips"):
        g.deal(seed=1, bonus=3)
    d = g.deal(seed=1, chips=[700, 20, 300])
    assert d.view(0).public["chips"] == [700, 20, 100]
    assert d.record()["context"] == {"chips": [700, 20, 300]}
    assert "context" not in g.deal(seed=1).record()


def test_no_punter_able_to_stake_ends_at_once() -> None:
    d = load(players=2).deal(seed=3, chips=[4, 1000])
    assert d.is_over and d.result == [0, 0] and d.legal_moves() == []


# --------------------------------------------------------------------------------------------
# Notation


@pytest.mark.parametrize(("text", "canon"), [
    ("stake 25", "stake 25"), ("STAKE 25", "stake 25"), ("Stake 7", "stake 7"),
    ("  stake   40 ", "stake 40"), ("stake\t5", "stake 5"), ("buy", "buy"), ("BUY", "buy"),
    (" Stand ", "stand"), ("stand", "stand"), ("stake 1000000", "stake 1000000"),
])
def test_parse(text: str, canon: str) -> None:
    g = load()
    assert g.parse_move(text).text == canon
    assert g.move(g.code_of(text)).text == canon


@pytest.mark.parametrize("text", [
    "stake 0", "stake 01", "stake -5", "stake +5", "stake", "stake 2.5", "stake25", "stake five",
    "buy 1", "buys", "hit", "AS", "10♥", "", "stake 5 5", "stake ５", "exchange", "pass",
])
def test_invalid_notation(text: str) -> None:
    g = load()
    with pytest.raises(InvalidMoveError, match="'stake N'"):
        g.parse_move(text)
    d = g.deal(seed=1)
    with pytest.raises(InvalidMoveError):
        d.play(text)


def test_move_codes() -> None:
    g = load()
    assert g.code_of("buy") == 52 and g.code_of("stand") == 53
    assert g.code_of("stake 25") == 125 and g.move(105).text == "stake 5"
    assert [m.text for m in deal_of(g).legal_moves()][:2] == ["stake 5", "stake 6"]
    d = deal_of(g, "5S")
    play(d, "stake 5", "stake 5")
    assert [m.text for m in d.legal_moves()] == ["buy", "stand"]
    with pytest.raises(InvalidMoveError):
        g.move(60)


def test_illegal_stakes() -> None:
    d = load().deal(seed=2)
    for bad in ("stake 4", "stake 51", "stake 1000000", "buy", "stand"):
        with pytest.raises(IllegalMoveError, match="legal moves"):
            d.play(bad)
    assert d.history == []


# --------------------------------------------------------------------------------------------
# Naturals, forced draw, multi-buy, unlimited banker, stake after the first card


@pytest.mark.parametrize(("punter", "banker", "buy", "won"), [
    (["9S"], "5S", False, 3 * 10),        # a punter's natural 9 pays three times
    (["8S"], "KS", False, 2 * 10),
    (["7S"], "5S", False, 10),
    (["4S", "5S"], "8S", True, -2 * 10),  # the banker's natural 8 beats a bought 9
    (["9S"], "8S", False, 3 * 10),        # natural against natural: the higher, its multiple
    (["8S"], "9S", False, -3 * 10),
    (["7S"], "7H", False, 0),
    (["3S", "3H"], "5S", True, 10),       # no naturals: the usual comparison
    (["3S", "TH"], "5S", True, -10),
])
def test_naturals(punter: list[str], banker: str, buy: bool, won: int) -> None:
    g = load(players=2, naturals=True)
    d = deal_of(g, punter[0], banker, *punter[1:])
    d.play("stake 10")
    if VALUE[parse_card(punter[0])] >= 7:
        assert legal(d) == {"stand"}
    else:
        assert legal(d) == {"buy", "stand"}
    d.play("buy" if buy else "stand")
    assert d.points == [won, -won]


def test_naturals_coverage_counts_stakes_three_times() -> None:
    g = load(players=3, naturals=True, bank_stake=60)
    d = deal_of(g, "5S")
    assert legal(d) == stakes(5, 20)
    d.play("stake 15")
    assert legal(d) == stakes(5, 5)
    d2 = deal_of(g, "5S", chips=[30, 14, 1000])
    assert legal(d2) == stakes(5, 10)        # 30 chips cover a triple loss of 10
    d2.play("stake 10")
    assert d2.view(0).public["status"][1] == "out"


def test_forced_draw() -> None:
    g = load(forced_draw=True)
    d = deal_of(g, "5S", "7S", "KD", "2S")
    play(d, "stake 5", "stake 5")
    assert legal(d) == {"buy"}
    d.play("buy")
    assert legal(d) == {"stand"}
    d.play("stand")
    assert d.points == [5, 5, -10]


def test_multi_buy_and_bust() -> None:
    g = load(multi_buy=True)
    d = deal_of(g, "2S", "6H", "KD", "3S", "4S", "TS", "5S", "2H")
    play(d, "stake 10", "stake 20", "buy", "buy")
    assert d.to_move == 0 and legal(d) == {"buy", "stand"}   # 2+3+4 = 9, still his turn
    d.play("buy")                                            # a ten: still 9
    assert d.to_move == 0 and d.points == [0, 0, 0]
    d.play("buy")                                            # a 5: 14, bust
    assert d.points == [-10, 0, 10]                          # he loses at once
    pub = d.view(1).public
    assert pub["shown"][0] == ["2S", "3S", "4S", "TS", "5S"]
    assert pub["status"][0] == "busted"
    assert d.to_move == 1
    play(d, "buy", "stand")                                  # 6 + 2 = 8 against 0
    assert d.points == [-10, 20, -10]
    assert d.view(0).public["last_round"]["won"] == [-10, 20, -10]


def test_banker_unlimited() -> None:
    g = load(bank_stake=60, banker_unlimited=True)
    d = deal_of(g, "9S", "9H", "KS")
    d.play("stake 50")
    assert legal(d) == stakes(5, 50)
    play(d, "stake 50", "stand", "stand")
    pub = d.view(0).public
    assert d.points == [50, 50, -100]
    assert pub["bank"] == 0 and pub["chips"][2] == 900
    assert not d.is_over and legal(d) == stakes(5, 50)
    # without the option the second punter could only have staked 10
    d2 = deal_of(load(bank_stake=60), "9S")
    d2.play("stake 50")
    assert legal(d2) == stakes(5, 10)


def test_banker_unlimited_turn_ends_when_he_is_broke() -> None:
    g = load(players=2, bank_stake=10, start_chips=10, banker_unlimited=True)
    d = deal_of(g, "9S", "KS")
    assert legal(d) == stakes(5, 10)
    play(d, "stake 10", "stand")
    assert d.is_over and d.result == [10, -10]


def test_stake_after_first_card() -> None:
    g = load(players=4, bank_stake=60, stake_timing="after_first_card")
    d = deal_of(g, "5S", "6S", "7S", "KD", "3S")
    pub = d.view(0).public
    assert pub["dealt_to"] == [0, 1, 2, 3] and pub["phase"] == "stake"
    assert d.view(0).hand == (parse_card("5S"),)
    assert d.view(2).hand == (parse_card("7S"),)
    play(d, "stake 50", "stake 10")
    assert d.view(0).public["status"] == ["staked", "staked", "sat_out", "banker"]
    assert d.to_move == 0 and legal(d) == {"buy", "stand"}
    play(d, "buy", "stand")
    assert d.points == [50, 10, 0, -60]
    last = d.view(3).public["last_round"]
    assert last["hands"] == [["5S", "3S"], ["6S"], ["7S"], []]
    assert last["stakes"] == [50, 10, None, None]
    assert d.view(3).public["used"] == ["5S", "6S", "7S", "KD", "3S"]


# --------------------------------------------------------------------------------------------
# Hidden information


def test_banker_card_hidden_from_everybody() -> None:
    d = deal_of(load(), "5S", "6S", "QD")
    play(d, "stake 10", "stake 10")
    for s in range(3):
        text = json.dumps(d.view(s).to_dict())
        assert "QD" not in text
    assert "6S" not in json.dumps(d.view(0).to_dict())
    assert "5S" not in json.dumps(d.view(1).to_dict())
    assert "5S" not in json.dumps(d.view(2).to_dict())
    assert d._known_to(0) == set() and d._hand(2) == []
    play(d, "stand", "stand")
    # after the showdown every card of the round is public
    for s in range(3):
        assert d.view(s).public["last_round"]["banker_card"] == "QD"


def _hidden_positions(d: MacaoDeal, seat: int) -> list[int]:
    own = [] if seat == d.dealer else \
        [d.rstart + i for i, s in enumerate(d.dealt) if s == seat]
    return [p for p in range(d.rstart, len(d._order)) if p not in own]


def _replay_on(game: Macao, d: MacaoDeal, order: list[int]) -> MacaoDeal:
    w = game.deal(deck=order, dealer=d.dealer, **d._context)
    assert isinstance(w, MacaoDeal)
    for seat, code in d.history:
        w.play(game.move(code), seat=seat)
    return w


@pytest.mark.parametrize("players", [2, 3, 5])
def test_views_do_not_depend_on_hidden_cards(players: int) -> None:
    # Copy-aware leak test: swapping any two cards that a seat cannot see (the banker's card,
    # other punters' cards, the shoe) leaves that seat's view exactly as it was.
    g = load(players=players)
    rng = random.Random(players)
    for seed in range(2):
        d = g.deal(seed=seed)
        assert isinstance(d, MacaoDeal)
        step = 0
        while not d.is_over and step < 40:
            if step % 4 == 1:
                for seat in range(players):
                    hidden = _hidden_positions(d, seat)
                    for _ in range(2):
                        i, j = rng.sample(hidden, 2)
                        order = list(d._order)
                        order[i], order[j] = order[j], order[i]
                        w = _replay_on(g, d, order)
                        assert w.view(seat).to_dict() == d.view(seat).to_dict()
            d.play(rng.choice(d.legal_moves()))
            step += 1


def test_public_cards_are_the_used_ones() -> None:
    g = load()
    rng = random.Random(4)
    d = g.deal(seed=4)
    assert isinstance(d, MacaoDeal)
    while not d.is_over:
        pub = d.view(0).public
        assert pub["used"] == [format_card(c) for c in d._order[:d.rstart]]
        assert len(pub["used"]) + len(pub["dealt_to"]) + pub["stock"] == 104
        d.play(rng.choice(d.legal_moves()))


# --------------------------------------------------------------------------------------------
# sample_deal


@pytest.mark.parametrize("opts", [
    {}, {"forced_draw": True}, {"naturals": True}, {"multi_buy": True},
    {"multi_buy": True, "forced_draw": True, "naturals": True},
    {"stake_timing": "after_first_card", "naturals": True, "players": 4},
    {"banker_unlimited": True, "players": 5, "bank_stake": 50},
])
def test_sampled_worlds_are_consistent(opts: dict[str, object]) -> None:
    g = load(**opts)
    rng = random.Random(7)
    for seed in range(2):
        d = g.deal(seed=seed)
        assert isinstance(d, MacaoDeal)
        step = 0
        while not d.is_over and step < 40:
            if step % 3 == 0:
                for seat in range(g.players):
                    view = d.view(seat)
                    world = g.sample_deal(view, random.Random(step * 7 + seat))
                    assert world.view(seat).to_dict() == view.to_dict()
                    # the world's moves are legal in it, checked move by move
                    again = _replay_on(g, d, list(world._order))
                    assert again.view(seat).to_dict() == view.to_dict()
            d.play(rng.choice(d.legal_moves()))
            step += 1


def test_sampled_worlds_vary_the_hidden_cards() -> None:
    g = load()
    d = deal_of(g, "5S", "6S", "QD")
    play(d, "stake 10", "stake 10")
    seen_banker = set()
    seen_other = set()
    for k in range(40):
        w = g.sample_deal(d.view(0), random.Random(k))
        assert isinstance(w, MacaoDeal)
        assert w.cards[0] == [parse_card("5S")]
        seen_banker.add(w.bcard)
        seen_other.add(w.cards[1][0])
    assert len(seen_banker) > 10 and len(seen_other) > 10


def test_sampled_worlds_respect_forced_decisions() -> None:
    # Under forced_draw a punter who stood holds 7-9 and one who bought held 0-6 first.
    g = load(forced_draw=True)
    d = deal_of(g, "8S", "2S", "QD", "3S")
    play(d, "stake 5", "stake 5", "stand")
    for k in range(30):
        w = g.sample_deal(d.view(1), random.Random(k))
        assert isinstance(w, MacaoDeal)
        assert VALUE[w.cards[0][0]] >= 7
    play(d, "buy")
    # after the showdown the cards are public and the world is the real one
    w = g.sample_deal(d.view(1), random.Random(1))
    assert w.view(1).to_dict() == d.view(1).to_dict()


# --------------------------------------------------------------------------------------------
# Properties: conservation of chips and cards


OPTION_SETS = st.fixed_dictionaries({
    "players": st.integers(2, 8),
    "stake_timing": st.sampled_from(["before_deal", "after_first_card"]),
    "banker_unlimited": st.booleans(),
    "forced_draw": st.booleans(),
    "naturals": st.booleans(),
    "multi_buy": st.booleans(),
    "bank_stake": st.sampled_from([15, 60, 200, 1000]),
})


def _check_invariants(d: MacaoDeal) -> None:
    total = sum(d.start)
    assert sum(d.chips) + d.bank == total
    assert all(c >= 0 for c in d.chips) and d.bank >= 0
    assert sum(d.points) == 0
    # every one of the 104 cards is in exactly one place: used, a hand, the banker, the shoe
    round_cards = [c for cs in d.cards for c in cs]
    if d.bcard >= 0:
        round_cards.append(d.bcard)
    assert Counter(round_cards) == Counter(d._order[d.rstart:d.pos])
    places = [*d._order[:d.rstart], *round_cards, *d._order[d.pos:]]
    assert Counter(places) == Counter(DECK)
    assert len(places) == 104


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=OPTION_SETS, seed=st.integers(0, 2**32), data=st.data())
def test_property_chips_and_cards_are_conserved(opts: dict[str, object], seed: int,
                                                 data: st.DataObject) -> None:
    g = load(**opts)
    d = g.deal(seed=seed)
    assert isinstance(d, MacaoDeal)
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    _check_invariants(d)
    while not d.is_over:
        d.play(rng.choice(d.legal_moves()))
        _check_invariants(d)
    assert d.result == d.points
    assert d.bank == 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_property_match_scores_are_chip_changes(players: int, seed: int) -> None:
    g = load(players=players, start_chips=300, bank_stake=200)
    m = g.match(seed=seed)
    rng = random.Random(seed)
    while not m.is_over:
        ctx = m.deal._context.get("chips")
        assert ctx == [300 + s for s in m.finished_scores]
        m.play(rng.choice(m.legal_moves()))
    assert sum(m.scores) == 0
    assert all(300 + s >= 0 for s in m.scores)


# --------------------------------------------------------------------------------------------
# Match flow


def _expected_first_banker(seed: int, n: int) -> int:
    rng = random.Random(derive_seed(seed, "first-dealer"))
    cards = sorted(list(range(52)) * 2)
    rng.shuffle(cards)
    i, who = 0, list(range(n))
    while True:
        if i + len(who) > len(cards):
            rng.shuffle(cards)
            i = 0
        ranks = [cards[i + k] % 13 for k in range(len(who))]
        i += len(who)
        low = min(ranks)
        who = [s for s, r in zip(who, ranks) if r == low]
        if len(who) == 1:
            return who[0]


def test_first_banker_is_the_lowest_card() -> None:
    firsts: Counter[int] = Counter()
    for seed in range(30):
        m = load().match(seed=seed)
        assert m.first_dealer == _expected_first_banker(seed, 3)
        firsts[m.first_dealer] += 1
    assert len(firsts) == 3


def _play_match(m: cardplay.Match, rng: random.Random) -> None:
    while not m.is_over:
        m.play(rng.choice(m.legal_moves()))


def test_every_player_banks_once_passing_left() -> None:
    g = load(players=4)
    m = g.match(seed=3, dealer=2)
    _play_match(m, random.Random(3))
    assert [d.dealer for d in m.deals] == [2, 3, 0, 1]
    results = [d.result for d in m.deals]
    assert all(r is not None for r in results)
    assert m.scores == [sum(r[s] for r in results if r is not None) for s in range(4)]
    best = max(m.scores)
    assert m.winners == [s for s in range(4) if m.scores[s] == best]
    assert m.view(0).to_dict()["match"]["dealers"] == [2, 3, 0, 1]


def test_a_poor_player_skips_his_bank() -> None:
    # With start_chips == bank_stake, a punter who loses anything cannot bank any more.
    g = load(players=3, start_chips=200, bank_stake=200)
    skipped = 0
    for seed in range(12):
        m = g.match(seed=seed)
        _play_match(m, random.Random(seed))
        dealers = [d.dealer for d in m.deals]
        first = m.first_dealer
        assert dealers[0] == first
        chips = [200] * 3
        expected = []
        for k in range(3):
            seat = (first + k) % 3
            if chips[seat] >= 200 and any(chips[o] >= 5 for o in range(3) if o != seat):
                expected.append(seat)
                res = m.deals[len(expected) - 1].result
                assert res is not None
                chips = [c + r for c, r in zip(chips, res)]
        assert dealers == expected
        skipped += 3 - len(dealers)
        assert m.winners == [s for s in range(3) if m.scores[s] == max(m.scores)]
    assert skipped > 0


def test_can_bank() -> None:
    g = load()
    assert g.can_bank(0, [200, 5, 0])
    assert not g.can_bank(0, [200, 4, 3])
    assert not g.can_bank(0, [199, 1000, 1000])


def test_match_record_replays() -> None:
    g = load(players=3, naturals=True, multi_buy=True)
    m = g.match(seed=8)
    _play_match(m, random.Random(8))
    again = cardplay.replay(json.loads(json.dumps(m.record())))
    assert isinstance(again, cardplay.Match)
    assert again.scores == m.scores and again.winners == m.winners


def test_rules_texts() -> None:
    g = load()
    text = g.rules_summary()
    assert text.startswith("Macao") and "stake N" in text and "buy" in text
    assert "Макао" in RULES_RU and "stake N" in RULES_RU


# --------------------------------------------------------------------------------------------
# The exact expected-value bot


POOLS = [
    [0, 0, 0, 1, 3, 5, 7, 8, 9, 9, 4],
    [0, 7, 7, 8, 9, 2, 2, 6],
    [0, 0, 0, 0, 5, 5, 5, 1, 9],
    [3, 4, 5, 6, 7, 8, 9, 0, 1, 2],
]


def _counts(vals: list[int]) -> list[int]:
    c = [0] * 10
    for v in vals:
        c[v] += 1
    return c


def _pay(vp: int, pn: bool, vb: int, naturals: bool) -> int:
    # written independently of the bot's payoff(): the RULES 6.4 settlement
    if naturals and (pn or vb >= 7):
        mp = vp - 6 if pn else 0
        mb = vb - 6 if vb >= 7 else 0
        if pn and vb >= 7:
            return mp if vp > vb else (-mb if vb > vp else 0)
        return mp if pn else -mb
    return (vp > vb) - (vp < vb)


def _tally(outcomes: list[int]) -> list[int]:
    t = [0] * 7
    for o in outcomes:
        t[o + 3] += 1
    return t


@pytest.mark.parametrize("vals", POOLS)
@pytest.mark.parametrize("naturals", [False, True])
def test_stand_and_buy_counts_match_enumeration(vals: list[int], naturals: bool) -> None:
    cnt = _counts(vals)
    for v in range(10):
        for nat in ([False, True] if naturals and v >= 7 else [False]):
            counts, den = stand_dist(v, nat, cnt, naturals)
            assert den == len(vals)
            assert counts == _tally([_pay(v, nat, b, naturals) for b in vals])
        counts, den = buy_dist(v, cnt, naturals)
        pairs = list(permutations(range(len(vals)), 2))
        assert den == len(pairs)
        assert counts == _tally([_pay((v + vals[i]) % 10, False, vals[j], naturals)
                                 for i, j in pairs])


def _brute_round(vals: list[int], naturals: bool, forced: bool) -> list[int]:
    """Enumerate (first card, bought card, banker card) orderings with the exact best policy."""
    out: list[int] = []
    n = len(vals)
    for i in range(n):
        v1 = vals[i]
        rest = [vals[k] for k in range(n) if k != i]
        nat = naturals and v1 >= 7
        stand = [_pay(v1, nat, b, naturals) for b in rest]
        buy = [_pay((v1 + rest[a]) % 10, False, rest[b], naturals)
               for a, b in permutations(range(len(rest)), 2)]
        if nat:
            do_buy = False
        elif forced:
            do_buy = v1 <= 6
        else:
            do_buy = Fraction(sum(buy), len(buy)) > Fraction(sum(stand), len(stand))
        if do_buy:
            out.extend(buy)
        else:
            out.extend(o for o in stand for _ in range(len(rest) - 1))
    return out


@pytest.mark.parametrize("vals", POOLS)
@pytest.mark.parametrize(("naturals", "forced"), [(False, False), (True, False), (False, True)])
def test_round_counts_match_enumeration(vals: list[int], naturals: bool, forced: bool) -> None:
    counts, den = round_dist(_counts(vals), naturals, forced)
    brute = _brute_round(vals, naturals, forced)
    assert den == len(brute)
    assert counts == _tally(brute)
    win = Fraction(sum(counts[4:]), den)
    lose = Fraction(sum(counts[:3]), den)
    assert win == Fraction(sum(1 for o in brute if o > 0), len(brute))
    assert lose == Fraction(sum(1 for o in brute if o < 0), len(brute))


def test_decide_dist_agrees_with_stand_and_buy() -> None:
    cnt = list(FULL_COUNTS)
    cnt[3] -= 1
    buy, (counts, den) = decide_dist(3, cnt, False, False)
    sd, bd = stand_dist(3, False, cnt), buy_dist(3, cnt)
    t = sum(cnt)
    assert den == t * (t - 1)
    ev_s = Fraction(sum((k - 3) * c for k, c in enumerate(sd[0])), sd[1])
    ev_b = Fraction(sum((k - 3) * c for k, c in enumerate(bd[0])), bd[1])
    assert buy == (ev_b > ev_s)
    assert counts == (bd[0] if buy else [c * (t - 1) for c in sd[0]])


@cache
def _brute_multi(s: int, rest: tuple[int, ...], left: int, naturals: bool, forced: bool,
                 natural: bool = False) -> tuple[Fraction, Fraction | None]:
    """(stand, buy) by enumerating every card order of a small pool (multi_buy)."""
    stand = Fraction(sum(_pay(s, natural, b, naturals) for b in rest), len(rest))
    if natural or left <= 0 or len(rest) < 2:
        return stand, None
    acc = Fraction(0)
    for i, x in enumerate(rest):
        if s + x > 9:
            acc -= 1
            continue
        nxt = rest[:i] + rest[i + 1:]
        st_, bu_ = _brute_multi(s + x, nxt, left - 1, naturals, forced)
        if forced:
            acc += bu_ if (s + x <= 6 and bu_ is not None) else st_
        else:
            acc += st_ if bu_ is None else max(st_, bu_)
    return stand, acc / len(rest)


@pytest.mark.parametrize("vals", POOLS[1:])
@pytest.mark.parametrize(("naturals", "forced"), [(False, False), (True, False), (False, True)])
def test_multi_buy_matches_enumeration(vals: list[int], naturals: bool, forced: bool) -> None:
    cnt = _counts(vals)
    for s in range(10):
        for left in (1, 2, 20):
            st_, bu_ = multi_buy_ev(s, cnt, left, naturals, forced)
            bst, bbu = _brute_multi(s, tuple(vals), left, naturals, forced)
            assert st_ == pytest.approx(float(bst), abs=1e-12)
            assert bu_ == pytest.approx(float(bbu), abs=1e-12)  # type: ignore[arg-type]
    # the round value at staking time
    ev = multi_round_ev(cnt, 20, naturals, forced)
    total = Fraction(0)
    for i, v1 in enumerate(vals):
        rest = tuple(vals[:i] + vals[i + 1:])
        nat = naturals and v1 >= 7
        fst, fbu = _brute_multi(v1, rest, 20, naturals, forced, nat)
        if fbu is None:
            total += fst
        elif forced:
            total += fbu if v1 <= 6 else fst
        else:
            total += max(fst, fbu)
    assert ev == pytest.approx(float(total / len(vals)), abs=1e-12)


def test_multi_buy_solver_prunes_without_changing_values() -> None:
    cnt = _counts(POOLS[0])
    solver = MultiBuySolver(cnt, 50)
    st_, bu_ = solver.decision(2)
    bst, bbu = _brute_multi(2, tuple(POOLS[0]), 50, False, False)
    assert (st_, bu_) == pytest.approx((float(bst), float(bbu)), abs=1e-12)  # type: ignore[arg-type]


def _simulate(cnt: list[int], naturals: bool, rounds: int, seed: int) -> tuple[float, float, float]:
    """Plain-int simulation of random rounds under the bot's policy: mean payoff, its standard
    error, and the win rate."""
    vals = [v for v in range(10) for _ in range(cnt[v])]
    t = len(vals)
    buy_on = []
    for v1 in range(10):
        rest = list(cnt)
        rest[v1] -= 1
        buy_on.append(decide_dist(v1, rest, naturals, False)[0] if cnt[v1] else False)
    pay = [[[_pay(vp, pn, vb, naturals) for vb in range(10)] for pn in (False, True)]
           for vp in range(10)]
    rnd = random.Random(seed).random
    s = s2 = 0
    wins = 0
    for _ in range(rounds):
        i = int(rnd() * t)
        j = int(rnd() * t)
        while j == i:
            j = int(rnd() * t)
        k = int(rnd() * t)
        while k in (i, j):
            k = int(rnd() * t)
        v1 = vals[i]
        if buy_on[v1]:
            o = pay[(v1 + vals[j]) % 10][0][vals[k]]
        else:
            o = pay[v1][naturals and v1 >= 7][vals[k]]
        s += o
        s2 += o * o
        wins += o > 0
    mean = s / rounds
    var = s2 / rounds - mean * mean
    return mean, (var / rounds) ** 0.5, wins / rounds


@pytest.mark.parametrize(("naturals", "used"), [(False, 40), (True, 0)])
def test_probabilities_match_a_simulation(naturals: bool, used: int) -> None:
    cnt = list(FULL_COUNTS)
    gone = random.Random(used).sample([v for v in range(10) for _ in range(cnt[v])], used)
    for v in gone:
        cnt[v] -= 1
    counts, den = round_dist(cnt, naturals)
    ev = sum((k - 3) * c for k, c in enumerate(counts)) / den
    p_win = sum(counts[4:]) / den
    n = 100_000
    mean, se, win = _simulate(cnt, naturals, n, seed=used + naturals)
    assert abs(mean - ev) < 3 * se
    assert abs(win - p_win) < 3 * (p_win * (1 - p_win) / n) ** 0.5


def test_payoff_table() -> None:
    assert payoff(9, False, 8, False) == 1 and payoff(0, False, 1, False) == -1
    assert payoff(5, False, 5, False) == 0
    assert payoff(9, True, 3, True) == 3 and payoff(8, True, 9, True) == -3
    assert payoff(9, False, 7, True) == -1 and payoff(2, False, 8, True) == -2


def test_unseen_counts_from_a_view() -> None:
    g = load()
    d = deal_of(g, "5S", "6S", "QD", "3S", "7S", "9S", "9H", "KC")
    play(d, "stake 10", "stake 10", "buy", "stand")
    v = d.view(0)
    cnt = unseen_counts(v)
    expect = list(FULL_COUNTS)
    for t in ("5S", "6S", "QD", "3S"):
        expect[VALUE[parse_card(t)]] -= 1
    assert cnt == expect and sum(cnt) == 100
    play(d, "stake 10", "stake 10")
    v = d.view(1)
    cnt = unseen_counts(v)
    assert sum(cnt) == 100 - 1            # seat 1 knows its own 9H, not seat 0's 7S or the banker's


def test_bot_choices() -> None:
    g = load()
    bot = HeuristicBot(g, seed=1)
    d = deal_of(g, "9S", "KS", "QD", "3S")
    v = d.view(0)
    assert bot.choose(v) == "stake 50"           # a fresh shoe favours the punter
    play(d, "stake 50")
    assert bot.choose(d.view(1)) == "stake 50"
    play(d, "stake 50")
    assert bot.choose(d.view(0)) == "stand"      # 9 stands
    play(d, "stand")
    assert bot.choose(d.view(1)) == "buy"        # 0 buys
    edge = bot.stake_edge(d.view(1), unseen_counts(d.view(1)))
    assert edge == pytest.approx(0.0, abs=1.0) and edge > 0


def test_round_value_is_never_negative_with_a_free_choice() -> None:
    # Standing always is worth exactly 0 (punter and banker cards are exchangeable draws), so
    # with a free buy/stand choice the round is worth >= 0; a pool of nines is worth exactly 0.
    cnt = [0] * 10
    cnt[9] = 12
    assert _num(round_dist(cnt)) == 0
    for vals in POOLS:
        assert _num(round_dist(_counts(vals))) >= 0
        assert _num(round_dist(_counts(vals), naturals=True)) >= 0


def test_bot_stakes_the_minimum_with_a_negative_edge() -> None:
    # Under forced_draw a pool of fives and nines makes the compulsory buy on 5 a loser.
    cnt = [0] * 10
    cnt[5], cnt[9] = 20, 6
    assert _num(round_dist(cnt, forced_draw=True)) < 0
    assert _num(round_dist(cnt)) >= 0
    g = load(players=2, forced_draw=True)
    bot = HeuristicBot(g, seed=1)
    d = deal_of(g, "5S")
    bot.stake_edge = lambda view, cnt: -0.01  # type: ignore[method-assign]
    assert bot.choose(d.view(0)) == "stake 5"
    bot.stake_edge = lambda view, cnt: 0.0  # type: ignore[method-assign]
    assert bot.choose(d.view(0)) == "stake 5"
    bot.stake_edge = lambda view, cnt: 0.01  # type: ignore[method-assign]
    assert bot.choose(d.view(0)) == "stake 50"


def _with_chips(view: View, chips: list[int], bank: int) -> View:
    return dataclasses.replace(view, public={**view.public, "chips": chips, "bank": bank})


def test_strong_keeps_a_lead_of_more_than_100_chips_in_the_last_bank_with_the_least_stake() -> None:
    g = load()
    keeper = HeuristicBot(g, seed=1, protect_lead=100)
    plain = HeuristicBot(g, seed=1)
    v = deal_of(g, "9S", "KS", "QD", "3S").view(0)  # seat 2 banks; a fresh shoe favours punters
    ahead = _with_chips(v, [1101, 1000, 800], 200)  # 101 ahead of the banker's 800 + 200
    assert plain.choose(ahead) == "stake 50"
    assert keeper.choose(ahead) == "stake 5"
    assert HeuristicBot.lead(ahead) == 101
    # exactly 100 ahead is not more than 100; the banker's bank counts as his
    assert keeper.choose(_with_chips(v, [1100, 1000, 800], 200)) == "stake 50"
    behind_bank = _with_chips(v, [1150, 1000, 800], 400)
    assert HeuristicBot.lead(behind_bank) == -50
    assert keeper.choose(behind_bank) == "stake 50"
    # in a match only the last bank of the rotation is played for the lead: earlier, the other
    # punters would go on winning from the later banks while the leader staked the minimum
    first_bank = dataclasses.replace(ahead, match={"dealers": [], "deal_number": 1})
    last_bank = dataclasses.replace(ahead, match={"dealers": [0, 1], "deal_number": 3})
    assert not HeuristicBot.last_bank(first_bank) and HeuristicBot.last_bank(last_bank)
    assert keeper.choose(first_bank) == "stake 50"
    assert keeper.choose(last_bank) == "stake 5"
    # the declared strong level is this bot
    strong = cardplay.bots.load("strong", g, seed=1)
    assert strong.choose(ahead) == "stake 5" and strong.choose(v) == "stake 50"


def _num(d: tuple[list[int], int]) -> int:
    return sum((k - 3) * c for k, c in enumerate(d[0]))


def test_bot_plays_legal_moves_under_every_option() -> None:
    for opts in ({}, {"multi_buy": True}, {"naturals": True, "forced_draw": True},
                 {"stake_timing": "after_first_card", "multi_buy": True, "players": 4}):
        g = load(**opts)
        bots = [HeuristicBot(g, seed=s) for s in range(g.players)]
        play_out(g.deal(seed=11), bots)


def test_bot_beats_random() -> None:
    from cardplay.arena import compare
    report = compare(load(), "heuristic", "random", deals=6, seed=2)
    assert report.mean_result_a > 0
    assert report.share > report.fair_share


def test_a_view_of_the_last_round_is_a_copy_that_its_holder_may_change() -> None:
    """The record of the last round is shared by a deal and its copies: a bot that changes what
    its view shows must change nothing for the deal, its copies or the next view."""
    game = cardplay.load("macao")
    rng = random.Random(5)
    d = game.deal(seed=11)
    while d.view(0).public["last_round"] is None:
        d.apply_code(rng.choice(d.legal_codes()))
    before = json.loads(json.dumps(d.view(0).public["last_round"]))
    twin = d.copy()
    shown = d.view(0).public["last_round"]
    shown["hands"][0].append("AS")
    shown["won"][0] = 999
    shown["round"] = -1
    assert d.view(0).public["last_round"] == before
    assert twin.view(1).public["last_round"] == before
