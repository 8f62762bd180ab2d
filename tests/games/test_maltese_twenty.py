"""Maltese Twenty (RULES.md section 1): the test scenarios of 1.8 on fixed deck orders, property
tests of the Tally scores, options, notation, views and hidden information, sampling, match flow."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardplay
from cardplay.builtin.maltese_twenty import (
    RULES_RU,
    VALUES,
    MalteseTwentyGame,
    bonus_of,
    tally_score,
)
from cardplay.cards import format_card, parse_card
from cardplay.engine import Deal, IllegalMoveError, InvalidMoveError, OptionError
from helpers import play_all, play_out, pub

GAME = MalteseTwentyGame()
BOTH = MalteseTwentyGame(round_end="both_empty")
ALL = [format_card(c) for c in range(52)]


def deck_from_plays(plays: list[str], bonus: tuple[str, str] = ("7D", "3C")) -> list[str]:
    """The deck order (top first) under which the starter and the responder can play ``plays``
    alternately (starter first) in the order each received the cards; the cards not named follow
    in id order. Layout of RULES.md 1.2a: 2 bonus cards, 5 + 5 dealt alternately starting with the
    starter, then the stock in chunks of 5 drawn by the starter and the responder in turn."""
    used = {*plays, *bonus}
    assert len(used) == len(plays) + 2, "a card named twice"
    seq = list(plays) + [c for c in ALL if c not in used]
    starter, responder = seq[0::2], seq[1::2]
    deck = list(bonus)
    for i in range(5):
        deck += [starter[i], responder[i]]
    for k in range(1, 5):
        deck += starter[5 * k:5 * k + 5] + responder[5 * k:5 * k + 5]
    assert sorted(deck) == sorted(ALL)
    return deck


# Two full rounds built from value groups (see the comments): every play is fixed.
# Groups that go over 20 without touching 20 and with at most 4 cards: -20 to whoever ends them.
_GROUPS = [
    "TS AS AH TH", "TD AD 2S TC", "JS 2H 2D JH", "JD 3S 3H JC", "QS 4S 4H QH",  # B -20 x 5
    "QD 4D QC",  # ends on index 22: A -20
    "KS 5S KH",  # index 25: B -20
]
_MIDDLE = ["9S 9H 5H",  # index 31: B -20
           "9D 8S 5D",  # index 34: A -20
           "8H 8D 6S",  # index 37: B -20
           "6H 6D 6C 8C"]  # index 41: B -20
# Scenario 9: indices 42-47 are A, B, A, B, A (5-Tally 15: A +15), B 9 (24: B -20); then A 7H
# (the starter's 25th card) and B holds 7C.
BONUS_ROUND = " ".join([*_GROUPS, "KD 7S KC", *_MIDDLE, "AC 2C 3D 4C 5C 9C", "7H 7C"]).split()
# Scenarios 8 and 10: no positive score at all; A's 25th card leaves the Tally at 2+1+7 = 10 and B
# holds KC, which makes exactly 20 when B may still play it (round_end = both_empty).
NO_BONUS_ROUND = " ".join([*_GROUPS, "KD 7S 7H", *_MIDDLE, "9C 5C 4C 3D",
                           "2C AC 7C KC"]).split()


# ---------------------------------------------------------------------------------------------
# 1.8 scenarios


@pytest.mark.parametrize(("first", "second", "bonus"), [
    ("7D", "3C", 4), ("KH", "JS", 10), ("AC", "AD", 10), ("AS", "KS", 9), ("TC", "2D", 8),
])
def test_scenario_1_bonus(first: str, second: str, bonus: int) -> None:
    deal = GAME.deal(deck=deck_from_plays([], bonus=(first, second)))
    for seat in (0, 1):
        p = pub(deal, seat)
        assert p["bonus_cards"] == [first, second]
        assert p["bonus"] == bonus
    assert bonus_of(parse_card(first), parse_card(second)) == bonus
    assert bonus_of(parse_card(second), parse_card(first)) == bonus


def test_deal_from_fixed_order() -> None:
    top = ["7D", "3C", "AS", "2S", "AH", "2H", "AD", "2D", "AC", "2C", "3S", "3H"]
    deck = top + [c for c in ALL if c not in top]
    deal = GAME.deal(deck=deck)
    assert deal.to_move == 0 and deal.dealer == 1
    assert {str(c) for c in deal.view(0).hand} == {"AS", "AH", "AD", "AC", "3S"}
    assert {str(c) for c in deal.view(1).hand} == {"2S", "2H", "2D", "2C", "3H"}
    assert {str(m) for m in deal.legal_moves()} == {"AS", "AH", "AD", "AC", "3S"}
    p = pub(deal)
    assert p["stock"] == 40 and p["hand_sizes"] == [5, 5] and p["tally"] == []
    assert p["round"] == 1 and p["starter"] == 0 and p["last_positive_scorer"] is None
    # with dealer 0, seat 1 starts and gets cards 3, 5, 7, 9, 11
    deal = GAME.deal(deck=deck, dealer=0)
    assert deal.to_move == 1
    assert {str(c) for c in deal.view(1).hand} == {"AS", "AH", "AD", "AC", "3S"}
    assert {str(c) for c in deal.view(0).hand} == {"2S", "2H", "2D", "2C", "3H"}


def test_scenario_2_exact_twenty() -> None:
    deal = GAME.deal(deck=deck_from_plays(["9S", "5H", "6D"]))
    play_all(deal, ["9S", "5H"])
    assert pub(deal)["tally_total"] == 14
    deal.play("6D")
    p = pub(deal)
    assert deal.points == [10, 0]
    assert p["tally"] == [] and p["tally_total"] == 0
    assert p["cleared"] == ["9S", "5H", "6D"]
    assert p["last_positive_scorer"] == 0
    assert p["last_event"] == {"seat": 0, "kind": "exact", "points": 10}
    assert deal.to_move == 1


def test_scenario_3_over_twenty() -> None:
    deal = GAME.deal(deck=deck_from_plays(["9S", "5H", "7D"], bonus=("2C", "3C")))
    play_all(deal, ["9S", "5H", "7D"])
    p = pub(deal)
    assert deal.points == [-20, 0]
    assert p["tally"] == [] and p["cleared"] == ["9S", "5H", "7D"]
    assert p["last_positive_scorer"] is None
    assert p["last_event"] == {"seat": 0, "kind": "over", "points": -20}


def test_scenario_4_doubling_chain() -> None:
    deal = GAME.deal(deck=deck_from_plays(["2S", "3S", "4S", "5S", "AS", "3H", "AH", "2H"]))
    play_all(deal, ["2S", "3S", "4S", "5S"])
    assert deal.points == [0, 0]
    deal.play("AS")
    assert deal.points == [15, 0] and pub(deal)["tally_total"] == 15
    deal.play("3H")
    assert deal.points == [15, 30] and pub(deal)["tally_total"] == 18
    deal.play("AH")
    assert deal.points == [75, 30] and pub(deal)["tally_total"] == 19
    assert pub(deal)["last_positive_scorer"] == 0
    deal.play("2H")
    p = pub(deal)
    assert deal.points == [75, 10]
    assert p["tally"] == [] and p["last_positive_scorer"] == 0


def test_longest_tally_scores_up_to_480() -> None:
    plays = ["AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C", "3S", "3H"]
    deal = GAME.deal(deck=deck_from_plays(plays))
    seen = []
    for m in plays:
        before = deal.points
        seat = deal.to_move
        assert seat is not None
        deal.play(m)
        seen.append(deal.points[seat] - before[seat])
    assert seen == [0, 0, 0, 0, 15, 30, 60, 120, 240, 480]
    assert deal.points == [315, 630]
    assert pub(deal)["tally_total"] == 18 and len(pub(deal)["tally"]) == 10


def test_scenario_5_exact_twenty_beats_five_tally() -> None:
    deal = GAME.deal(deck=deck_from_plays(["4S", "4H", "4D", "3C", "5S"], bonus=("2C", "2D")))
    play_all(deal, ["4S", "4H", "4D", "3C"])
    assert pub(deal)["tally_total"] == 15
    deal.play("5S")
    assert deal.points == [10, 0]
    assert pub(deal)["tally"] == []


def test_scenario_6_over_twenty_beats_five_tally() -> None:
    deal = GAME.deal(deck=deck_from_plays(["4S", "4H", "4D", "3C", "6S"], bonus=("2C", "2D")))
    play_all(deal, ["4S", "4H", "4D", "3C", "6S"])
    assert deal.points == [-20, 0]
    assert pub(deal)["tally"] == [] and pub(deal)["last_positive_scorer"] is None


def test_scenario_7_tally_survives_refill() -> None:
    plays = ["TS", "TH", "TD", "TC", "JS", "JH", "2S", "2H", "2D"]
    deck = deck_from_plays(plays)
    deal = GAME.deal(deck=deck)
    play_all(deal, plays[:-1])
    assert deal.points == [0, 30]
    assert pub(deal)["stock"] == 40 and pub(deal)["hand_sizes"] == [1, 1]
    deal.play("2D")  # A's 5th card, the Tally's 3rd
    p = pub(deal)
    assert p["tally"] == ["2S", "2H", "2D"] and p["tally_total"] == 6
    assert p["stock"] == 35 and p["hand_sizes"] == [5, 1]
    assert {str(c) for c in deal.view(0).hand} == set(deck[12:17])
    assert deal.to_move == 1
    deal.play(deck[11])  # B's 5th card: B refills too, the Tally still stands
    p = pub(deal)
    assert len(p["tally"]) == 4 and p["stock"] == 30 and p["hand_sizes"] == [5, 5]
    assert {str(c) for c in deal.view(1).hand} == set(deck[17:22])


def test_scenario_8_round_end_first_empty() -> None:
    deal = GAME.deal(deck=deck_from_plays(NO_BONUS_ROUND))
    play_all(deal, NO_BONUS_ROUND[:48])
    assert deal.to_move == 0 and pub(deal)["stock"] == 0
    assert pub(deal)["hand_sizes"] == [1, 1]
    deal.play("7C")  # the starter's 25th card ends the round at once
    assert deal.is_over and deal.to_move is None and deal.legal_moves() == []
    p = pub(deal)
    assert p["hand_sizes"] == [0, 1]
    assert [str(c) for c in deal.view(1).hand] == ["KC"]
    assert p["tally"] == ["2C", "AC", "7C"] and p["tally_total"] == 10
    with pytest.raises(IllegalMoveError):
        deal.play("KC")


def test_scenario_8_round_end_both_empty() -> None:
    deal = BOTH.deal(deck=deck_from_plays(NO_BONUS_ROUND))
    play_all(deal, NO_BONUS_ROUND[:49])
    assert not deal.is_over and deal.to_move == 1
    assert [str(m) for m in deal.legal_moves()] == ["KC"]
    assert deal.points == [-60, -200]
    deal.play("KC")  # the responder's last card still scores: 10 + 10 = 20
    assert deal.is_over
    p = pub(deal)
    assert p["hand_sizes"] == [0, 0] and p["last_positive_scorer"] == 1
    assert p["bonus"] == 4 and p["bonus_to"] == 1
    assert deal.result == deal.points == [-60, -190 + 4]


def test_scenario_9_bonus_to_last_positive_scorer() -> None:
    for game in (GAME, BOTH):
        deal = game.deal(deck=deck_from_plays(BONUS_ROUND))
        play_all(deal, BONUS_ROUND[:46])
        assert deal.points == [-60, -180]
        deal.play("5C")  # A: 5-Tally, +15
        assert deal.points == [-45, -180] and pub(deal)["last_positive_scorer"] == 0
        deal.play("9C")  # B: 24, -20
        assert deal.points == [-45, -200] and pub(deal)["last_positive_scorer"] == 0
        # what the deal's end explains the points by: each seat's scores by kind, in the order
        # each kind first happened (B's first group went over before anything else)
        assert pub(deal)["scored"] == [
            {"seat": 1, "kind": "over", "times": 10, "points": -200},
            {"seat": 0, "kind": "over", "times": 3, "points": -60},
            {"seat": 0, "kind": "tally", "times": 1, "points": 15},
        ]
        assert deal.result is None
        deal.play("7H")
        if game is BOTH:
            assert deal.result is None
            deal.play("7C")
        assert deal.is_over
        assert pub(deal)["bonus_to"] == 0
        assert deal.result == deal.points == [-45 + 4, -200]


def test_scenario_10_no_positive_score_no_bonus() -> None:
    deal = GAME.deal(deck=deck_from_plays(NO_BONUS_ROUND))
    play_all(deal, NO_BONUS_ROUND[:49])
    assert deal.is_over
    p = pub(deal)
    assert p["last_positive_scorer"] is None and p["bonus_to"] is None
    assert deal.result == [-60, -200]


def test_scenario_11_end_of_game() -> None:
    def winners(game: MalteseTwentyGame, scores: list[int]) -> list[int]:
        return game._match_winners(SimpleNamespace(scores=scores))  # type: ignore[arg-type]

    assert winners(GAME, [37, 37]) == [0, 1]
    assert winners(GAME, [38, 37]) == [0]
    assert winners(GAME, [-5, 3]) == [1]
    assert winners(GAME, [-40, -40]) == [0, 1]
    strict = cardplay.load("maltese-twenty", winner_rule="over_20_and_higher")
    assert isinstance(strict, MalteseTwentyGame)
    assert winners(strict, [38, 37]) == [0]
    assert winners(strict, [37, 37]) == [0, 1]
    assert winners(strict, [20, 3]) == []
    assert winners(strict, [21, 3]) == [0]
    assert winners(strict, [15, 15]) == []


def test_scenario_12_match_of_two_rounds() -> None:
    match = GAME.match(seed=12)
    assert match.deal.dealer == 1 and match.to_move == 0
    assert pub(match.deal)["round"] == 1 and pub(match.deal)["starter"] == 0
    first = match.deal
    rng = random.Random(0)
    while match.deal is first:
        match.play(rng.choice(match.legal_moves()))
    second = match.deal
    assert first.is_over and not match.is_over
    assert match.scores == first.result
    assert second.dealer == 0 and match.to_move == 1  # B moves first in round 2
    p = pub(second)
    assert p["round"] == 2 and p["starter"] == 1 and p["stock"] == 40
    assert second.deck != first.deck
    assert p["bonus_cards"] == second.deck[:2]
    assert p["bonus"] == bonus_of(parse_card(second.deck[0]), parse_card(second.deck[1]))
    assert match.view(1).to_dict()["match"]["deal_number"] == 2
    while not match.is_over:
        assert match.winners == []
        match.play(rng.choice(match.legal_moves()))
    assert len(match.deals) == 2
    assert match.scores == [a + b for a, b in zip(first.result or [], second.result or [])]
    best = max(match.scores)
    assert match.winners == [s for s in (0, 1) if match.scores[s] == best]
    assert match.to_move is None and match.legal_moves() == []


def test_match_with_explicit_dealer_and_strict_winner_rule() -> None:
    strict = cardplay.load("maltese-twenty", winner_rule="over_20_and_higher")
    match = strict.match(seed=3, dealer=0)
    assert match.deal.dealer == 0 and match.to_move == 1
    rng = random.Random(3)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves()))
    assert [d.dealer for d in match.deals] == [0, 1]
    assert [d._context for d in match.deals] == [{"round": 1}, {"round": 2}]
    best = max(match.scores)
    expected = [s for s in (0, 1) if match.scores[s] == best] if best > 20 else []
    assert match.winners == expected
    again = cardplay.replay(json.loads(json.dumps(match.record())))
    assert isinstance(again, cardplay.Match)
    assert again.scores == match.scores and again.winners == match.winners


# ---------------------------------------------------------------------------------------------
# Properties


def _tally_value(p: dict[str, Any]) -> int:
    return sum(VALUES[parse_card(c)] for c in p["tally"])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), both=st.booleans(), picks=st.randoms(use_true_random=False))
def test_property_tally_scores_and_clears(seed: int, both: bool, picks: random.Random) -> None:
    """Every play scores +10 at 20, -20 over 20, 15*2^(n-5) for an n >= 5 card Tally under 20,
    else 0; the Tally clears exactly on 20 or more; no card is lost."""
    deal = (BOTH if both else GAME).deal(seed=seed)
    moves = 0
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        before = pub(deal)
        card = picks.choice(deal.legal_moves())
        deal.play(card)
        moves += 1
        after = pub(deal)
        total = before["tally_total"] + VALUES[parse_card(str(card))]
        n = len(before["tally"]) + 1
        gained = after["scores"][seat] - before["scores"][seat]
        assert after["scores"][1 - seat] == before["scores"][1 - seat]
        if total == 20:
            assert gained == 10 and after["last_positive_scorer"] == seat
        elif total > 20:
            assert gained == -20
            assert after["last_positive_scorer"] == before["last_positive_scorer"]
        elif n >= 5:
            assert gained == 15 * 2 ** (n - 5) == tally_score(n)
            assert after["last_positive_scorer"] == seat
        else:
            assert gained == 0
        if total >= 20:
            assert after["tally"] == [] and after["tally_total"] == 0
            assert after["cleared"] == [*before["cleared"], *before["tally"], str(card)]
        else:
            assert after["tally"] == [*before["tally"], str(card)]
            assert after["tally_total"] == total == _tally_value(after) < 20
        held = sum(after["hand_sizes"])
        assert held + after["stock"] + len(after["tally"]) + len(after["cleared"]) + 2 == 52
    assert moves == (50 if both else 49)
    p = pub(deal)
    lps = p["last_positive_scorer"]
    expected = list(p["scores"])
    if lps is not None:
        expected[lps] += p["bonus"]
    assert deal.result == deal.points == expected


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 49), s=st.integers(0, 1))
def test_property_sampled_worlds_fit_the_view(seed: int, steps: int, s: int) -> None:
    deal = GAME.deal(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if deal.is_over:
            break
        deal.play(rng.choice(deal.legal_moves()))
    view = deal.view(s)
    unseen = set(ALL) - set(view.to_dict()["hand"]) - set(pub(deal)["bonus_cards"]) \
        - {t for _, t in view.history}
    for k in range(3):
        world = GAME.sample_deal(view, random.Random(k))
        assert world.view(s).to_dict() == view.to_dict()
        assert {format_card(c) for c in world._hand(1 - s)} <= unseen


# ---------------------------------------------------------------------------------------------
# Options, notation, errors


def test_options_and_option_errors() -> None:
    assert GAME.options.round_end == "first_empty"
    assert GAME.options.winner_rule == "higher_total"
    assert GAME.players == 2 and GAME.name == "maltese-twenty"
    assert GAME.title == {"en": "Maltese Twenty", "ru": "Двадцать (Мальтийская)",
                          "de": "Maltesisches Zwanzig"}
    assert BOTH.options.round_end == "both_empty"
    with pytest.raises(OptionError, match=r"first_empty.*both_empty"):
        cardplay.load("maltese-twenty", round_end="never")
    with pytest.raises(OptionError, match=r"higher_total.*over_20_and_higher"):
        cardplay.load("maltese-twenty", winner_rule="lower")
    # a UI-only option is not an engine option (RULES.md 0.5)
    with pytest.raises(OptionError, match="valid options: round_end, winner_rule"):
        cardplay.load("maltese-twenty", show_discard_history=True)
    # exactly two players
    assert cardplay.load("maltese-twenty", players=2) == GAME
    with pytest.raises(OptionError, match="players=3"):
        cardplay.load("maltese-twenty", players=3)


@pytest.mark.parametrize(("text", "card"), [
    ("QH", "QH"), ("qh", "QH"), ("TH", "TH"), ("th", "TH"), ("10H", "TH"), ("10h", "TH"),
    ("10♥", "TH"), ("♥10", "TH"), ("Д♥", "QH"), ("♥Д", "QH"), ("Т♠", "AS"), ("В♣", "JC"),
    ("К♦", "KD"), ("as", "AS"), (" 9D ", "9D"), ("A♠", "AS"),
])
def test_notation_accepted_spellings(text: str, card: str) -> None:
    assert str(GAME.parse_move(text)) == card
    assert GAME.code_of(text) == parse_card(card)
    assert GAME.move(parse_card(card)).text == card


@pytest.mark.parametrize("text", [
    "", "XX", "KH=30", "AS+", "draw", "pass", "stake 5", "1H", "11H", "AS AH", "ZS", "Д", "ДH",
    "exchange", "A",
])
def test_notation_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="card to play"):
        GAME.parse_move(text)
    deal = GAME.deal(seed=1)
    with pytest.raises(InvalidMoveError):
        deal.play(text)


def test_illegal_moves_change_nothing() -> None:
    deal = GAME.deal(deck=deck_from_plays(["9S", "5H"]))
    hand_b = {str(c) for c in deal.view(1).hand}
    before = json.dumps(deal.record())
    with pytest.raises(IllegalMoveError, match="not legal"):
        deal.play("5H")  # B's card, A to move
    with pytest.raises(IllegalMoveError, match="turn"):
        deal.play("9S", seat=1)
    with pytest.raises(IllegalMoveError):
        deal.play("7D")  # a bonus card, out of play
    assert json.dumps(deal.record()) == before
    deal.play("9♠")
    assert deal.history == [(0, parse_card("9S"))] and pub(deal)["tally"] == ["9S"]
    assert {str(c) for c in deal.view(1).hand} == hand_b


def test_deal_context_and_records() -> None:
    deal = GAME.deal(seed=4, round=2)
    assert pub(deal)["round"] == 2 and deal.to_move == 0
    deal.play(deal.legal_moves()[0])
    rec = json.loads(json.dumps(deal.record()))
    assert rec["context"] == {"round": 2}
    again = cardplay.replay(rec)
    assert isinstance(again, Deal)
    assert again.view(0).to_dict() == deal.view(0).to_dict()
    for bad in (3, 0, True, 1.0, "1"):
        with pytest.raises(ValueError, match="round must be 1 or 2"):
            GAME.deal(seed=4, round=bad)
    with pytest.raises(ValueError, match="context"):
        GAME.deal(seed=4, chips=5)
    with pytest.raises(cardplay.RecordError):
        cardplay.replay({**rec, "context": {"round": 7}})


def test_rules_texts() -> None:
    text = GAME.rules_summary()
    assert text.startswith("Maltese Twenty") and "round_end" in text and "0..51" in text
    assert "Бонус" in RULES_RU and "round_end" in RULES_RU


# ---------------------------------------------------------------------------------------------
# Views and hidden information


def test_views_hide_the_other_hand_and_the_stock() -> None:
    deck = deck_from_plays([])
    deal = GAME.deal(deck=deck)
    rng = random.Random(5)
    for _ in range(20):
        for s in (0, 1):
            d = deal.view(s).to_dict()
            text = json.dumps({k: v for k, v in d.items() if k != "hand"})
            for c in deal._hand(1 - s):
                assert f'"{format_card(c)}"' not in text
            undrawn = deck[52 - pub(deal)["stock"]:]
            for text_card in undrawn:
                assert f'"{text_card}"' not in text
            assert set(d["hand"]) == {format_card(c) for c in deal._hand(s)}
            assert (d["legal_moves"] != []) == (deal.to_move == s)
        deal.play(rng.choice(deal.legal_moves()))
    p = pub(deal, 1)
    assert set(p) == {"round", "starter", "bonus_cards", "bonus", "tally", "tally_total",
                      "cleared", "scores", "hand_sizes", "stock", "last_positive_scorer",
                      "last_event", "bonus_to", "scored"}
    played = {t for _, t in deal.view(1).history}
    assert set(p["tally"]) | set(p["cleared"]) == played
    assert p["stock"] == 40 - 5 * 4 and p["scores"] == deal.points


def test_copy_and_fast_path() -> None:
    deal = GAME.deal(seed=9)
    for _ in range(7):
        deal.apply_code(deal.legal_codes()[-1])
    twin = deal.copy()
    snap = deal.view(0).to_dict()
    while not twin.is_over:
        twin.apply_code(twin.legal_codes()[0])
    assert deal.view(0).to_dict() == snap
    assert deal.legal_codes() == sorted(deal._hand(deal.to_move))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# The heuristic bot


def _bot(game: MalteseTwentyGame | Any = GAME, seed: int = 0) -> Any:
    from cardplay.bots import load

    return load("heuristic", game, seed=seed)


def test_bot_plays_legal_moves_and_is_deterministic() -> None:
    for game in (GAME, BOTH):
        deal = game.deal(seed=21)
        bots = [_bot(game, 1), _bot(game, 2)]
        moves = [str(move) for move in play_out(deal, bots)]
        again = game.deal(seed=21)
        bots = [_bot(game, 1), _bot(game, 2)]
        for m in moves:
            seat = again.to_move
            assert seat is not None
            assert str(bots[seat].choose(again.view(seat))) == m
            again.play(m)


def test_bot_makes_twenty_and_avoids_going_over() -> None:
    # A holds 9S then 6D TS TD KS; after 9S, 5H the Tally is 14: 6D makes 20, a ten goes over
    deal = GAME.deal(deck=deck_from_plays(["9S", "5H", "6D", "2S", "TS", "3S", "TD", "4S", "KS"]))
    play_all(deal, ["9S", "5H"])
    assert str(_bot().choose(deal.view(0))) == "6D"
    # A holds 9S then TS KS KH 2S; on a Tally of 14 every card but 2S goes over
    deal = GAME.deal(deck=deck_from_plays(["9S", "5H", "TS", "3H", "KS", "4H", "KH", "6H", "2S"]))
    play_all(deal, ["9S", "5H"])
    assert {str(m) for m in deal.legal_moves()} == {"TS", "KS", "KH", "2S"}
    assert str(_bot(seed=3).choose(deal.view(0))) == "2S"


def test_bot_endgame_search_is_exact() -> None:
    from cardplay.bots.heuristics.maltese_twenty import _INF, _STEP, _Endgame

    def brute(t: int, k: int, me: tuple[int, ...], them: tuple[int, ...], lps: int,
              both: bool, bonus: int) -> int:
        best = -_INF
        for i, v in enumerate(me):
            gain, t1, k1, positive = _STEP[t, k, v]
            last = 1 if positive else lps
            rest = me[:i] + me[i + 1:]
            if not rest and (not both or not them):
                val = gain + (bonus if last == 1 else -bonus if last == 2 else 0)
            else:
                val = gain - brute(t1, k1, them, rest, (0, 2, 1)[last], both, bonus)
            best = max(best, val)
        return best

    rng = random.Random(0)
    values = [v for v in range(1, 10) for _ in range(4)] + [10] * 16
    for _ in range(60):
        both = rng.random() < 0.5
        bonus = rng.randint(1, 10)
        end = _Endgame(both, bonus)
        a = rng.randint(1, 4)
        b = a if rng.random() < 0.5 else a - 1
        if b == 0 and not both:
            b = 1
        cards = rng.sample(values, a + b)
        me, them = tuple(sorted(cards[:a])), tuple(sorted(cards[a:]))
        t = rng.randint(0, 19)
        k = rng.randint(1, 4) if t else 0
        lps = rng.randint(0, 2)
        exact = brute(t, k, me, them, lps, both, bonus)
        assert end.value(t, k, me, them, lps, -_INF, _INF) == exact
        # narrower windows give bounds on the same value, from the kept table too
        assert end.value(t, k, me, them, lps, exact - 1, exact + 1) == exact
        assert end.value(t, k, me, them, lps, exact, exact + 9) <= exact
        assert end.value(t, k, me, them, lps, exact - 9, exact) >= exact


def test_bot_beats_random_on_a_few_deals() -> None:
    from cardplay.arena import compare

    report = compare(GAME, "heuristic", "random", deals=8, seed=5)
    assert report.share >= 0.75
