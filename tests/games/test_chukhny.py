"""Chukhny: the rules scenarios of RULES.md section 7, options, notation, views, sampling, matches.

Every scenario deals from a fixed deck order (RULES.md 7.3a): the deck is the stock, top card
first, and the first card is turned up as the pile. With the default dealer (the last seat),
seat 0 plays first. The expected states below were worked out by hand from RULES.md 7.4.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardplay
from cardplay.bots import RandomBot
from cardplay.bots import load as load_bot
from cardplay.bots.heuristics.chukhny import HeuristicBot
from cardplay.builtin import chukhny as ch
from cardplay.builtin.chukhny import DRAW, TAKE, Chukhny, ChukhnyDeal
from cardplay.cards import cards_of_mask, format_card, parse_card
from cardplay.engine import (
    Deal,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    OptionError,
    derive_seed,
)
from helpers import cs, deck_with, hand, legal, play_out, pub, run

RANKS = "23456789TJQKA"
ALL = [r + s for s in "SHDC" for r in RANKS]


# ------------------------------------------------------------------------------------------------
# Helpers


def new(prefix: str, dealer: int | None = None, **opts: Any) -> ChukhnyDeal:
    game = cardplay.load("chukhny", **opts)
    d = game.deal(deck=" ".join(deck_with(prefix, game.options.deck_size)), dealer=dealer)
    assert isinstance(d, ChukhnyDeal)
    return d


# ------------------------------------------------------------------------------------------------
# RULES.md 7.6 scenarios


def test_scenario_1_drawing_until_the_required_card() -> None:
    d = new("7D 3C QH 8S")
    assert pub(d)["pile"] == ["7D"] and pub(d)["need"] == "8" and d.to_move == 0
    assert legal(d) == {"draw"}
    d.play("draw")                      # 3C: kept, the same player draws again
    assert hand(d, 0) == {"3C"} and d.to_move == 0 and legal(d) == {"draw"}
    d.play("draw")                      # QH: kept
    assert hand(d, 0) == {"3C", "QH"} and d.to_move == 0
    d.play("draw")                      # 8S: played at once
    assert hand(d, 0) == {"3C", "QH"}
    assert d.to_move == 1 and legal(d) == {"draw"}
    p = pub(d, 1)
    assert p["pile"] == ["7D", "8S"] and p["need"] == "9" and p["need_suit"] is None
    assert p["stock"] == 48 and p["hand_sizes"] == [2, 0, 0] and p["drawn"] == [3, 0, 0]
    assert p["draws"] == [
        {"seat": 0, "need": "8", "need_suit": None, "card": None},
        {"seat": 0, "need": "8", "need_suit": None, "card": None},
        {"seat": 0, "need": "8", "need_suit": None, "card": "8S"},
    ]
    assert d.points == [0, 0, 0] and d.result is None
    # the drawn cards are private: seat 1 and seat 2 see neither of them
    for seat in (1, 2):
        text = d.view(seat).to_json()
        assert "3C" not in text and "QH" not in text
    assert d.view(0).to_dict()["hand"] == ["QH", "3C"]     # id order: hearts before clubs


SCEN2 = "5C TH TS 6C 7C 8C 9C"


def test_scenario_2_must_play_a_required_card_and_may_choose() -> None:
    d = new(SCEN2, players=2)
    run(d, "draw draw draw")            # TH, TS kept, 6C played
    run(d, "draw")                      # seat 1: 7C
    run(d, "draw")                      # seat 0 holds no 8: 8C
    run(d, "draw")                      # seat 1: 9C
    assert d.to_move == 0 and pub(d)["pile"][-1] == "9C" and hand(d, 0) == {"TH", "TS"}
    assert legal(d) == {"TH", "TS"}
    with pytest.raises(IllegalMoveError):
        d.play("draw")
    with pytest.raises(IllegalMoveError):
        d.play("QH")
    d.play("TS")
    assert d.to_move == 1 and pub(d)["need"] == "J" and hand(d, 0) == {"TH"}


def test_scenario_2_same_suit_must_draw_without_the_ten_of_clubs() -> None:
    d = new(SCEN2, players=2, require_same_suit=True)
    run(d, "draw draw draw draw draw draw")
    assert d.to_move == 0 and hand(d, 0) == {"TH", "TS"}
    assert pub(d)["need"] == "T" and pub(d)["need_suit"] == "C"
    assert legal(d) == {"draw"}
    with pytest.raises(IllegalMoveError):
        d.play("TH")
    d.play("draw")                      # 2S (the first card of the rest) does not fit
    assert hand(d, 0) == {"TH", "TS", "2S"}
    assert pub(d)["draws"][-1] == {"seat": 0, "need": "T", "need_suit": "C", "card": None}


# seat 0: 5D 9D kept, 3C; seat 1: 6D 8S 8H 8D 8C kept, 4C; seat 2: 7D kept, 5C;
# seat 0: 6C; seat 1: 7C; seat 2 needs an 8 and draws the other 38 cards (no 8 among them).
SCEN3 = "2C 5D 9D 3C 6D 8S 8H 8D 8C 4C 7D 5C 6C 7C"


def scen3_until_take() -> ChukhnyDeal:
    d = new(SCEN3)
    run(d, "draw " * 3 + "draw " * 6 + "draw " * 2 + "draw draw")
    assert d.to_move == 2 and pub(d)["stock"] == 38
    run(d, "draw " * 38)
    return d


def test_scenario_3_take_the_top_card_when_the_stock_is_empty() -> None:
    d = scen3_until_take()
    assert d.to_move == 2 and pub(d)["stock"] == 0 and legal(d) == {"take"}
    assert pub(d)["pile"] == ["2C", "3C", "4C", "5C", "6C", "7C"]
    d.play("take")
    p = pub(d)
    assert p["pile"] == [] and p["leading"] and p["need"] is None
    assert set(p["out"]) == cs("2C 3C 4C 5C 6C")
    assert p["known"] == [[], [], ["7C"]]
    assert "7C" in hand(d, 2) and d._known_to(0) == {parse_card("7C")}
    # the next player leads any card
    assert d.to_move == 0 and legal(d) == {"5D", "9D"}
    d.play("5D")
    assert d.to_move == 1 and legal(d) == {"6D"}
    d.play("6D")
    assert d.to_move == 2 and legal(d) == cs("7S 7H 7D 7C")
    d.play("7D")
    # RULES 7.6.3: the pile is [5, 6, 7] and p holds no 8
    assert pub(d)["pile"] == ["5D", "6D", "7D"] and hand(d, 0) == {"9D"}
    assert d.to_move == 0 and legal(d) == {"take"}
    d.play("take")
    p = pub(d)
    assert hand(d, 0) == {"9D", "7D"} and p["known"][0] == ["7D"] and p["known"][2] == ["7C"]
    assert {"5D", "6D"} <= set(p["out"]) and p["pile"] == []
    assert d.to_move == 1 and legal(d) == cs("8S 8H 8D 8C")
    assert not d.is_over and d.points == [0, 0, 0]


def test_a_one_card_pile_goes_out_of_play_and_nobody_takes_it() -> None:
    d = new("2C KS 4S 4H 4D 4C 3C", players=2)
    run(d, "draw " * 6)                 # seat 0 keeps KS 4S 4H 4D 4C and plays 3C
    run(d, "draw " * 45)                # seat 1 draws the whole stock: no 4 in it
    assert pub(d)["stock"] == 0 and d.to_move == 1 and legal(d) == {"take"}
    d.play("take")                      # 3C to seat 1, 2C out
    assert d.to_move == 0 and legal(d) == cs("KS 4S 4H 4D 4C")
    d.play("KS")
    assert d.to_move == 1 and legal(d) == cs("AS AH AD AC")
    d.play("AS")                        # clears the pile; seat 1 leads again
    assert d.to_move == 1 and pub(d)["leading"] and {"KS", "AS"} <= set(pub(d)["out"])
    d.play("JH")
    assert d.to_move == 0 and legal(d) == {"take"}
    before = hand(d, 0)
    d.play("take")
    assert hand(d, 0) == before and "JH" in pub(d)["out"] and pub(d)["pile"] == []
    assert d.to_move == 1 and pub(d)["leading"]


def test_scenario_4_ace_clears_the_pile_and_its_player_leads_again() -> None:
    d = new("KD 5H AS")
    run(d, "draw draw")                 # 5H kept, AS played onto KD
    p = pub(d)
    assert p["pile"] == [] and set(p["out"]) == {"KD", "AS"} and p["leading"]
    assert d.to_move == 0 and legal(d) == {"5H"}
    d.play("5H")
    assert d.to_move == 1 and pub(d)["need"] == "6"


def test_scenario_4_ace_with_an_empty_hand_turns_up_the_next_card() -> None:
    d = new("KD AS 7H")
    d.play("draw")
    assert d.to_move == 0 and legal(d) == {"draw"} and pub(d)["pile"] == []
    d.play("draw")                      # turns up 7H as the first card of a new run
    p = pub(d)
    assert p["pile"] == ["7H"] and d.to_move == 1 and p["need"] == "8"
    assert p["draws"][-1] == {"seat": 0, "need": None, "need_suit": None, "card": "7H"}
    assert p["drawn"] == [2, 0, 0] and p["hand_sizes"] == [0, 0, 0]


def test_scenario_4_wrap_needs_a_two_after_an_ace() -> None:
    d = new("KD 5H AS", after_ace="wrap")
    run(d, "draw draw")
    assert pub(d)["pile"] == ["KD", "AS"] and pub(d)["need"] == "2" and d.to_move == 1
    d.play("draw")                      # 2S is the next card
    assert pub(d)["pile"] == ["KD", "AS", "2S"] and d.to_move == 2
    d36 = new("KD 7H AS", deck_size=36, after_ace="wrap")
    run(d36, "draw draw")
    assert pub(d36)["need"] == "6"


# Every later draw fits: 3C..AC, then each Ace's player (seat 2, then 1, then 0) turns up or
# plays on; seat 0 keeps 2H and 2S, which nothing ever requires under "clear".
SCEN5 = ("2C 2H 2S " + " ".join(r + "C" for r in RANKS[1:]) + " " +
         " ".join(r + "D" for r in RANKS) + " " + " ".join(r + "H" for r in RANKS[1:]) + " " +
         " ".join(r + "S" for r in RANKS[1:]))


def test_scenario_5_the_last_holder_loses() -> None:
    d = new(SCEN5)
    moves = 0
    while not d.is_over:
        assert d.result is None and d.points == [0, 0, 0]
        assert legal(d) == {"draw"}
        d.play("draw")
        moves += 1
    assert moves == 51
    assert d.to_move is None and d.legal_moves() == []
    assert d.result == [-1, 0, 0] and d.points == [-1, 0, 0]
    p = pub(d, 1)
    assert p["stock"] == 0 and p["hand_sizes"] == [2, 0, 0] and p["loser"] == 0
    assert p["hands"] == [["2S", "2H"], [], []]
    assert d.loser == 0
    with pytest.raises(IllegalMoveError):
        d.play("draw")


def test_nobody_holding_cards_is_a_drawn_game() -> None:
    d = new(" ".join(ALL[39:] + ALL[26:39] + ALL[13:26] + ALL[:13]))  # clubs .. spades, 2 to A
    while not d.is_over:
        assert legal(d) == {"draw"}
        d.play("draw")
    assert d.result == [0, 0, 0] and pub(d)["loser"] is None and len(d.history) == 51


def test_scenario_6_a_starting_ace_is_discarded() -> None:
    d = new("AS AH 7D")
    p = pub(d)
    assert p["pile"] == ["7D"] and set(p["out"]) == {"AS", "AH"} and p["need"] == "8"
    assert p["start_cards"] == ["AS", "AH", "7D"] and p["stock"] == 49
    w = new("AS AH 7D", after_ace="wrap")
    assert pub(w)["pile"] == ["AS"] and pub(w)["out"] == [] and pub(w)["need"] == "2"
    assert pub(w)["start_cards"] == ["AS"] and pub(w)["stock"] == 51


def test_the_player_on_the_dealers_left_starts() -> None:
    for dealer in range(4):
        d = new("7D", dealer=dealer, players=4)
        assert d.dealer == dealer and d.to_move == (dealer + 1) % 4


def test_an_empty_handed_player_is_skipped_once_the_stock_is_empty() -> None:
    # 4 players: seat 0 keeps KS, 4S..4C, seat 1 draws the rest; seats 2 and 3 never hold cards.
    d = new("2C KS 4S 4H 4D 4C 3C", players=4)
    run(d, "draw " * 6 + "draw " * 45)
    d.play("take")
    assert d.to_move == 0               # seats 2 and 3 are finished
    d.play("4S")
    assert d.to_move == 1 and legal(d) == cs("5S 5H 5D 5C")
    d.play("5S")
    assert d.to_move == 0               # seat 2 and 3 are skipped
    assert legal(d) == {"take"}


# ------------------------------------------------------------------------------------------------
# Scenario 7 and the properties: conservation and termination


def check_invariants(d: ChukhnyDeal) -> None:
    size = d.game.deck_size
    hands = d._hands
    pile = 0
    for c in d._pile:
        pile |= 1 << c
    stock = 0
    for c in d._order[d._pos:]:
        stock |= 1 << c
    parts = [*hands, pile, d._out, stock]
    union = 0
    total = 0
    for m in parts:
        assert union & m == 0, "a card is in two places"
        union |= m
        total += m.bit_count()
    assert total == size and union == d.game.deck_mask
    p = pub(d)
    assert sum(p["hand_sizes"]) + len(p["pile"]) + len(p["out"]) + p["stock"] == size
    assert sum(p["drawn"]) + len(p["start_cards"]) == size - p["stock"]
    for k, h in zip(d._known, hands):
        assert k & ~h == 0
    if d.to_move is not None:
        assert hands[d.to_move] or p["stock"] > 0


def play_random(d: ChukhnyDeal, rng: random.Random, check: bool = True) -> None:
    steps = 0
    while not d.is_over:
        if check:
            check_invariants(d)
        d.apply_code(rng.choice(d.legal_codes()))
        steps += 1
        assert steps < 4 * d.game.deck_size + 100
    if check:
        check_invariants(d)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 15), deck_size=st.sampled_from([52, 36]),
       same=st.booleans(), after_ace=st.sampled_from(["clear", "wrap"]),
       seed=st.integers(0, 2**32), moves=st.integers(0, 2**32))
def test_property_conservation_and_termination(players: int, deck_size: int, same: bool,
                                               after_ace: str, seed: int, moves: int) -> None:
    game = cardplay.load("chukhny", players=players, deck_size=deck_size,
                         require_same_suit=same, after_ace=after_ace)
    d = game.deal(seed=seed)
    assert isinstance(d, ChukhnyDeal)
    play_random(d, random.Random(moves))
    res = d.result
    assert res is not None and len(res) == players
    assert sorted(set(res)) in ([0], [-1, 0]) and res.count(-1) <= 1
    holders = [s for s in range(players) if d._hands[s]]
    assert d.stock_size == 0 and len(holders) <= 1
    assert (res.index(-1) if -1 in res else None) == (holders[0] if holders else None)
    assert d.points == res


def test_every_player_count_terminates() -> None:
    for players in range(2, 16):
        game = cardplay.load("chukhny", players=players)
        for seed in range(3):
            d = game.deal(seed=seed)
            assert isinstance(d, ChukhnyDeal)
            play_random(d, random.Random(seed), check=seed == 0)
            assert d.is_over


# ------------------------------------------------------------------------------------------------
# Options


def test_default_options() -> None:
    game = cardplay.load("chukhny")
    assert game.options_dict() == {"players": 3, "deck_size": 52, "require_same_suit": False,
                                   "after_ace": "clear", "games": 1}
    assert game.players == 3 and game.deck_size == 52 and game._deck_cards() == list(range(52))
    assert isinstance(game, Chukhny) and game.title == {"en": "Chukhny", "ru": "Чухны",
                                                          "de": "Tschuchny"}
    assert (Chukhny.min_players, Chukhny.max_players) == (2, 15)


def test_option_values_and_errors() -> None:
    g = cardplay.load("chukhny", players="15", deck_size="36", require_same_suit="true",
                      after_ace="wrap", games="4")
    assert g.options_dict() == {"players": 15, "deck_size": 36, "require_same_suit": True,
                                "after_ace": "wrap", "games": 4}
    for bad in ({"players": 1}, {"players": 16}, {"players": "x"}, {"players": True},
                {"deck_size": 40}, {"deck_size": "32"}, {"require_same_suit": "maybe"},
                {"require_same_suit": 1}, {"after_ace": "none"}, {"games": 0}, {"games": -1},
                {"games": 1.5}, {"colour": "red"}):
        with pytest.raises(OptionError) as e:
            cardplay.load("chukhny", **bad)
        msg = str(e.value)
        assert "valid" in msg or "whole number" in msg


def test_the_36_card_deck() -> None:
    g = cardplay.load("chukhny", deck_size=36)
    cards = g._deck_cards()
    assert g.deck_size == 36 and len(cards) == 36
    assert {format_card(c)[0] for c in cards} == set("6789TJQKA")
    d = g.deal(seed=3)
    assert len(d.deck) == 36 and set(d.deck) == {format_card(c) for c in cards}
    with pytest.raises(ValueError, match="not in this game"):
        g.deal(deck=" ".join(ALL))
    with pytest.raises(ValueError, match="missing"):
        g.deal(deck=d.deck[:-1])
    with pytest.raises(InvalidMoveError, match="36-card"):
        d.play("2S")
    assert g.code_of("6S") == parse_card("6S")


def test_a_deal_takes_no_context() -> None:
    with pytest.raises(ValueError, match="context"):
        cardplay.load("chukhny").deal(seed=1, chips=[1, 2, 3])


# ------------------------------------------------------------------------------------------------
# Notation


def test_notation_accepted_spellings() -> None:
    g = cardplay.load("chukhny")
    for text in ("draw", "DRAW", " Draw ", "dRaW"):
        assert g.code_of(text) == DRAW and str(g.parse_move(text)) == "draw"
    for text in ("take", "TAKE", "Take "):
        assert g.code_of(text) == TAKE and str(g.parse_move(text)) == "take"
    for text, card in (("8S", "8S"), ("8s", "8S"), ("th", "TH"), ("10♥", "TH"), ("♥10", "TH"),
                       ("Т♠", "AS"), ("В♣", "JC"), ("д♦", "QD"), ("К♥", "KH"), ("A♣", "AC")):
        assert str(g.parse_move(text)) == card, text
    assert [g.move(c).text for c in (0, 12, 51, DRAW, TAKE)] == ["2S", "AS", "AC", "draw", "take"]


def test_notation_invalid_text() -> None:
    g = cardplay.load("chukhny")
    for bad in ("XX", "", "draws", "pass", "stake 5", "8S=20", "11H", "buy", "AS+", "1S",
                "take 1", "draw draw"):
        with pytest.raises(InvalidMoveError) as e:
            g.code_of(bad)
        assert "draw" in str(e.value) and "take" in str(e.value)
    d = g.deal(seed=1)
    with pytest.raises(InvalidMoveError):
        d.play(5)  # type: ignore[arg-type]


def test_illegal_moves_and_history_text() -> None:
    d = new("7D 3C QH 8S")
    for bad in ("take", "8S", "3C"):
        with pytest.raises(IllegalMoveError):
            d.play(bad)
    with pytest.raises(IllegalMoveError, match="turn"):
        d.play("draw", seat=1)
    d.play("Draw", seat=0)
    assert d.view(2).history == ((0, "draw"),)
    assert d.record()["moves"] == ["draw"]


def test_rules_texts() -> None:
    g = cardplay.load("chukhny")
    text = g.rules_summary()
    assert text.startswith("Chukhny") and "draw" in text and "take" in text and "52" in text
    assert "Чухны" in ch.RULES_RU and "draw" in ch.RULES_RU


# ------------------------------------------------------------------------------------------------
# Views and hidden information


def test_views_hold_public_facts_and_only_own_private_cards() -> None:
    game = cardplay.load("chukhny", players=4)
    rng = random.Random(4)
    for seed in range(3):
        d = game.deal(seed=seed)
        assert isinstance(d, ChukhnyDeal)
        while not d.is_over:
            for s in range(4):
                v = d.view(s).to_dict()
                p = v["public"]
                assert p["hand_sizes"] == [h.bit_count() for h in d._hands]
                assert p["stock"] == d.stock_size
                assert set(v["hand"]) == {format_card(c) for c in cards_of_mask(d._hands[s])}
                public_cards = set(p["pile"]) | set(p["out"]) | set(p["start_cards"]) | \
                    {e["card"] for e in p["draws"] if e["card"]} | \
                    {c for k in p["known"] for c in k}
                mine = set(v["hand"])
                for o in range(4):
                    if o == s:
                        continue
                    theirs = {format_card(c) for c in cards_of_mask(d._hands[o])}
                    hidden = theirs - {format_card(c) for c in cards_of_mask(d._known[o])}
                    assert not (hidden & (public_cards | mine))
                assert "hands" not in p
            d.apply_code(rng.choice(d.legal_codes()))
        p = pub(d)
        assert "hands" in p and p["loser"] == d.loser


def test_failed_draw_log_records_the_need() -> None:
    d = new(SCEN2, players=2)
    run(d, "draw draw draw")
    draws = pub(d, 1)["draws"]
    assert [(e["seat"], e["need"], e["card"]) for e in draws] == \
        [(0, "6", None), (0, "6", None), (0, "6", "6C")]


# ------------------------------------------------------------------------------------------------
# sample_deal


def replay_checked(world: Deal, seat: int, view_dict: dict[str, Any]) -> None:
    """The sampled world's deck, replayed through the checking API, gives the same view."""
    game = world.game
    again = game.deal(deck=world.deck, dealer=world.dealer)
    for _s, text in world.history:
        again.play(game.move(text))
    assert again.view(seat).to_dict() == view_dict


@pytest.mark.parametrize("opts", [
    {"players": 3},
    {"players": 2, "deck_size": 36},
    {"players": 4, "require_same_suit": True},
    {"players": 3, "after_ace": "wrap"},
    {"players": 9},
])
def test_sampled_worlds_are_consistent(opts: dict[str, Any]) -> None:
    game = cardplay.load("chukhny", **opts)
    rng = random.Random(7)
    for seed in range(2):
        d = game.deal(seed=seed)
        step = 0
        while True:
            if step % 7 == 0 or d.is_over:
                s = step % d.players
                view = d.view(s)
                vd = view.to_dict()
                world = game.sample_deal(view, random.Random(step))
                assert world.view(s).to_dict() == vd
                replay_checked(world, s, vd)
            if d.is_over:
                break
            d.apply_code(rng.choice(d.legal_codes()))
            step += 1


def test_the_fallback_sampler_is_consistent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ch.sampling, "_by_rejection", lambda *a, **k: None)
    game = cardplay.load("chukhny", players=3)
    rng = random.Random(3)
    d = game.deal(seed=3)
    step = 0
    while not d.is_over:
        if step % 5 == 0:
            s = step % 3
            view = d.view(s)
            world = game.sample_deal(view, random.Random(step))
            replay_checked(world, s, view.to_dict())
        d.apply_code(rng.choice(d.legal_codes()))
        step += 1


# 36 cards, 2 players. Seat 0 draws KH onto QD; seat 1 needs an Ace and keeps KC and 8S before
# drawing AC, which clears the pile; seat 1 leads KC (so one of his two kept cards was KC);
# seat 0 keeps 9C. Seat 0's view: seat 1's other kept card is any unseen non-Ace.
SMALL_DECK = ("QD KH KC 8S AC 9C KD 8C 8D AS 6C KS QS JS AH 7D JH TD 9H JC 8H 7C 9D QH 7H AD "
              "7S TH 6H TC 9S 6S JD 6D TS QC")
SMALL_MOVES = "draw draw draw draw KC draw"


def _small_view() -> tuple[Chukhny, Any]:
    game = cardplay.load("chukhny", players=2, deck_size=36)
    assert isinstance(game, Chukhny)
    d = game.deal(deck=SMALL_DECK)
    run(d, SMALL_MOVES)
    return game, d.view(0)


def _exact_marginals(game: Chukhny, view: Any) -> tuple[int, Counter[tuple[int, str]]]:
    """Every world by brute force: seat 0's one failed draw (position 5) was its one card, 9C;
    any two unknown cards in seat 1's failed-draw positions 2 and 3, the rest in the stock; keep
    the worlds that replay legally (checked moves) to the same view."""
    order = SMALL_DECK.split()
    slots = [2, 3]
    pool = [c for c in order if c not in ("QD", "KH", "AC", "9C")]
    target = view.to_dict()
    counts: Counter[tuple[int, str]] = Counter()
    total = 0
    for combo in itertools.permutations(pool, len(slots)):
        deck = order[:]
        for p, c in zip(slots, combo):
            deck[p] = c
        rest = [c for c in pool if c not in combo]
        deck = deck[:6] + rest
        w = game.deal(deck=deck)
        try:
            run(w, SMALL_MOVES)
        except IllegalMoveError:
            continue
        if w.view(0).to_dict() != target:
            continue
        total += 1
        for p, c in zip(slots, combo):
            counts[(p, c)] += 1
    return total, counts


@pytest.mark.parametrize("fallback", [False, True])
def test_sampling_is_uniform_over_consistent_worlds(fallback: bool,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    game, view = _small_view()
    total, exact = _exact_marginals(game, view)
    # KC in position 2 or 3, the other one any of the 28 unseen cards but the 3 unseen Aces
    assert total == 2 * 28
    if fallback:
        monkeypatch.setattr(ch.sampling, "_by_rejection", lambda *a, **k: None)
    n = 1000
    seen: Counter[tuple[int, str]] = Counter()
    for i in range(n):
        w = game.sample_deal(view, random.Random(i))
        assert w.deck[5] == "9C"
        for p in (2, 3):
            seen[(p, w.deck[p])] += 1
    assert set(seen) <= set(exact)
    for key, k in exact.items():
        q = k / total
        sd = (q * (1 - q) / n) ** 0.5
        assert abs(seen[key] / n - q) < 5 * sd + 1e-9, key


# ------------------------------------------------------------------------------------------------
# Matches


def test_match_flow_dealer_rotation_and_winners() -> None:
    game = cardplay.load("chukhny", players=3, games=4)
    m = game.match(seed=5, dealer=1)
    rng = random.Random(5)
    firsts = []
    while not m.is_over:
        if not m.deal.history:
            firsts.append(m.deal.to_move)
        assert m.winners == []
        m.play(rng.choice(m.legal_moves()))
    dealers = [d.dealer for d in m.deals]
    assert dealers == [1, 2, 0, 1] and firsts == [2, 0, 1, 2]
    results = [d.result for d in m.deals]
    total = [sum(r[s] for r in results if r is not None) for s in range(3)]
    assert all(r is not None for r in results)
    assert m.scores == total and all(-4 <= t <= 0 for t in total)
    assert m.winners == [s for s in range(3) if total[s] == max(total)]
    v = m.view(0).to_dict()
    assert v["match"]["is_over"] and v["match"]["winners"] == m.winners


def test_single_game_match_and_first_dealer_from_the_seed() -> None:
    game = cardplay.load("chukhny", players=4)
    dealers = set()
    for seed in range(12):
        m = game.match(seed=seed)
        want = random.Random(derive_seed(seed, "first-dealer")).randrange(4)
        assert m.first_dealer == want and m.deal.dealer == want
        dealers.add(want)
        rng = random.Random(seed)
        while not m.is_over:
            m.play(rng.choice(m.legal_moves()))
        assert len(m.deals) == 1
        res = m.deals[0].result
        assert res is not None
        assert m.winners == [s for s in range(4) if res[s] == 0]
    assert len(dealers) > 1


def test_a_fixed_deck_deal_replays_from_its_record() -> None:
    d = new(SCEN2, players=2)
    run(d, "draw " * 6 + "TH")
    again = cardplay.replay(d.record())
    assert isinstance(again, Deal) and not isinstance(again, Match)
    assert again.view(0).to_dict() == d.view(0).to_dict()


# ------------------------------------------------------------------------------------------------
# The heuristic bot


def test_bot_is_loaded_by_level_and_plays_legal_moves() -> None:
    for opts in ({"players": 3}, {"players": 2, "after_ace": "wrap"},
                 {"players": 5, "require_same_suit": True}, {"players": 15, "deck_size": 36}):
        game = cardplay.load("chukhny", **opts)
        bot = load_bot("heuristic", game, seed=1)
        assert isinstance(bot, HeuristicBot)
        others = RandomBot(game, seed=2)
        play_out(game.deal(seed=9), [bot] + [others] * (game.players - 1))
    with pytest.raises(ValueError):
        HeuristicBot(cardplay.load("sixty-six"))


def test_bot_leads_low_and_keeps_aces() -> None:
    game = cardplay.load("chukhny", players=3)
    bot = HeuristicBot(game, seed=0)
    d = scen3_until_take()
    d.play("take")
    assert str(bot.choose(d.view(0))) == "5D"
    # whenever it leads under "clear" with a choice, it keeps its Aces and leads low
    rng = random.Random(1)
    leads = 0
    for seed in range(6):
        d2 = game.deal(seed=seed)
        while not d2.is_over:
            s = d2.to_move
            assert s is not None
            v = d2.view(s)
            if s == 0:
                move = bot.choose(v)
                codes = [game.code_of(m) for m in v.legal_moves]
                if v.public["leading"] and len(codes) > 1:
                    leads += 1
                    c = game.code_of(move)
                    if any(x % 13 != 12 for x in codes):
                        assert c % 13 != 12
                    assert c % 13 <= min(x % 13 for x in codes) + 3
                d2.play(move)
            else:
                d2.apply_code(rng.choice(d2.legal_codes()))
    assert leads > 10


def test_bot_shows_a_card_already_known_to_be_its_own() -> None:
    game = cardplay.load("chukhny", players=3)
    d = scen3_until_take()
    run(d, "take 5D 6D")
    assert d.to_move == 2 and legal(d) == cs("7S 7H 7D 7C")
    assert str(HeuristicBot(game).choose(d.view(2))) == "7C"
