"""Two-Ten-Jack (RULES.md section 3): every scenario of 3.10 on a fixed deck order, property tests
(+5 per hand, the follower's algorithm and the trick winner against independent oracles), options,
notation, views and hidden information, sampled worlds, match flow and the heuristic bot."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardplay
from cardplay.bots import load as load_bot
from cardplay.builtin.two_ten_jack import RULES_RU, TwoTenJackGame
from cardplay.cards import format_card, parse_card
from cardplay.engine import Deal, IllegalMoveError, InvalidMoveError, Match, OptionError
from helpers import legal, plain_margin, play_out, pub

GAME = cardplay.load("two-ten-jack")
ALL = [format_card(c) for c in range(52)]


def make_deck(nondealer: str, dealer: str, stock: str = "") -> list[str]:
    """A deck order (top first) giving these 6-card hands (RULES.md 3.3a: dealt one at a time,
    non-dealer first) and a stock starting with ``stock``; the other cards follow in id order."""
    nd, de, st_ = nondealer.split(), dealer.split(), stock.split()
    assert len(nd) == 6 and len(de) == 6
    head = [c for pair in zip(nd, de) for c in pair] + st_
    assert len(set(head)) == len(head), "a card named twice"
    deck = head + [c for c in ALL if c not in head]
    assert len(deck) == 52
    return deck


def deal_of(seat0: str, seat1: str, stock: str = "") -> Deal:
    """A deal where seat 0 (non-dealer, first to lead) holds ``seat0`` and seat 1 ``seat1``."""
    return GAME.deal(deck=make_deck(seat0, seat1, stock), dealer=1)


def hand(deal: Deal, seat: int) -> set[str]:
    return {format_card(c) for c in deal._hand(seat)}


def result(deal: Deal) -> list[int]:
    r = deal.result
    assert r is not None
    return r


def first_legal(target: Deal | Match) -> None:
    target.play(target.legal_moves()[0])


# ---------------------------------------------------------------------------------------------
# RULES.md 3.10 scenarios


def test_scenario_1_club_lead_follow_then_trump() -> None:
    d = deal_of("5C 3S 4S 6S 8S 9S", "9C 2H AS 4D 5D 7D")
    d.play("5C")
    assert d.to_move == 1
    assert legal(d) == {"9C"}

    d = deal_of("5C 3S 4S 6S 8S 9S", "2H AS 3D 4D 5D 7D")
    d.play("5C")
    assert legal(d) == {"2H", "AS"}  # no club: must trump, and the A♠ is a trump
    d.play("2H")
    assert d.points == [0, 5]
    assert d.to_move == 1  # the follower won and leads next
    assert pub(d)["last_trick"]["winner"] == 1


def test_scenario_2_heart_lead() -> None:
    d = deal_of("KH 3S 4S 6S 8S 9S", "AS 4C 5C 6C 7D 8D")
    d.play("KH")
    assert legal(d) == {"AS"}  # the A♠ is his only trump: he must play it

    d = deal_of("KH 3S 4S 6S 8S 9S", "AS 3H 4C 5C 7D 8D")
    d.play("KH")
    assert legal(d) == {"AS", "3H"}

    d = deal_of("KH 3S 4S 6S 8S 9S", "4C 5D 6C 7D 8D 9C")
    d.play("KH")
    assert legal(d) == {"4C", "5D", "6C", "7D", "8D", "9C"}  # no trump at all: any card


def test_scenario_3_spade_lead() -> None:
    d = deal_of("7S 3D 4D 5D 6D 8D", "AS 9S 2H 4C 5C 7C")
    d.play("7S")
    assert legal(d) == {"AS", "9S"}  # 2♥ is illegal: he can follow with a spade

    d = deal_of("7S 3D 4D 5D 6D 8D", "AS 2H 4C 5C 7C 8C")
    d.play("7S")
    assert legal(d) == {"AS"}  # the A♠ is his only spade

    d = deal_of("7S 3D 4D 5D 6D 8D", "2H 3C 4C 5C 7C 8C")
    d.play("7S")
    assert legal(d) == {"2H"}  # no spade: must trump
    d.play("2H")
    assert d.points == [0, 5] and d.to_move == 1


@pytest.mark.parametrize(("lead", "reply"), [("AS=S", "KS"), ("AS=H", "3H")])
def test_scenario_4_declared_speculation(lead: str, reply: str) -> None:
    d = deal_of("AS 3S 4S 5D 7D 8D", "KS 3H 4C 5C 7C 8C")
    assert legal(d) == {"AS=S", "AS=H", "3S", "4S", "5D", "7D", "8D"}
    d.play(lead)
    assert pub(d, 1)["declared"] == lead[-1]
    assert legal(d) == {reply}
    d.play(reply)
    assert d.points == [1, 0]  # the A♠ wins either way (+1 for the A♠ itself)
    assert d.to_move == 0


def test_scenario_5_speculation_beats_ace_of_hearts() -> None:
    d = deal_of("AH 3S 4S 5D 7D 8D", "AS 3H 4C 5C 7C 8C")
    d.play("AH")
    assert legal(d) == {"AS", "3H"}
    d.play("AS")
    assert d.points == [0, 1]
    assert d.to_move == 1
    assert pub(d)["won"] == [[], ["AS", "AH"]]


def test_scenario_6_discard_loses_and_leader_takes_minus_five() -> None:
    d = deal_of("QD 3S 4S 5S 7S 8S", "JC 3C 4C 5C 7C 8C")
    d.play("QD")
    assert legal(d) == hand(d, 1)  # no diamond, no trump: any card
    d.play("JC")
    assert d.points == [-5, 0]
    assert d.to_move == 0


@pytest.mark.parametrize(
    ("seat0", "seat1", "lead", "reply", "points"),
    [
        ("JC 3S 4S 5D 7D 8D", "2H 5S 6S 9D TD KD", "JC", "2H", [0, 0]),
        ("6D 3S 4S 5S 7C 8C", "TH 9S QS 4C 5C 7H", "6D", "TH", [0, 6]),
        ("2S 3D 4D 5D 7D 8D", "AS 9H 4C 5C 7C 8C", "2S", "AS", [0, 2]),
    ],
)
def test_scenario_7_trick_points(seat0: str, seat1: str, lead: str, reply: str,
                                 points: list[int]) -> None:
    d = deal_of(seat0, seat1)
    d.play(lead)
    assert reply in legal(d)
    d.play(reply)
    assert d.points == points
    assert sorted(pub(d)["won"][1]) == sorted([lead, reply])
    assert pub(d)["last_trick"]["points"] == sum(points)


def test_scenario_8_full_fixed_hand_sums_to_five() -> None:
    d = GAME.deal(deck=ALL, dealer=1)
    moves = 0
    while not d.is_over:
        first_legal(d)
        moves += 1
    assert moves == 52
    assert sum(d.points) == 5
    assert d.result == d.points
    assert pub(d)["tricks_played"] == 26
    assert sum(pub(d)["tricks_won"]) == 26
    assert hand(d, 0) == hand(d, 1) == set()


def test_scenario_9_draw_order() -> None:
    # the leader wins: he draws the top stock card, the follower the next one
    d = deal_of("QD 3S 4S 5S 7S 8S", "JC 3C 4C 5C 7C 8C", stock="KH 2D")
    d.play("QD")
    d.play("JC")
    assert "KH" in hand(d, 0) and "2D" in hand(d, 1)
    assert pub(d)["stock"] == 38 and pub(d)["hand_sizes"] == [6, 6]
    # the follower wins: he draws first
    d = deal_of("5C 3S 4S 6S 8S 9S", "2H AS 3D 4D 5D 7D", stock="KH 2D")
    d.play("5C")
    d.play("2H")
    assert "KH" in hand(d, 1) and "2D" in hand(d, 0)


def _match_after_first_hand(before: list[int]) -> Match:
    """Seed 13 with seat 1 dealing: the first hand, played by first legal moves, gives +3 / +2."""
    match = GAME.match(seed=13, dealer=1)
    match._scores = list(before)  # the position of the scenario; the rest is the real match flow
    while not match.deals:
        first_legal(match)
    assert match.deals[0].result == [3, 2]
    return match


def test_scenario_10_match_end() -> None:
    m = _match_after_first_hand([29, 12])
    assert m.scores == [32, 14] and m.is_over and m.winners == [0]
    assert m.to_move is None and m.legal_moves() == []

    m = _match_after_first_hand([30, 29])
    assert m.scores == [33, 31] and m.is_over and m.winners == [0]

    m = _match_after_first_hand([28, 29])
    assert m.scores == [31, 31]
    assert not m.is_over and m.winners == []  # equal at 31: another hand
    assert m.deal is not m.deals[0] and m.deal.dealer == 0  # alternating deal
    while not m.is_over:
        first_legal(m)
    assert len(m.deals) == 2
    assert m.winners == [0 if m.scores[0] > m.scores[1] else 1]


# ---------------------------------------------------------------------------------------------
# Dealing, leading, legality and notation


def test_deal_from_fixed_order() -> None:
    deck = make_deck("2S 3S 4S 5S 6S 7S", "2H 3H 4H 5H 6H 7H", stock="8D 9D")
    d = GAME.deal(deck=deck, dealer=1)
    assert hand(d, 0) == {"2S", "3S", "4S", "5S", "6S", "7S"}
    assert hand(d, 1) == {"2H", "3H", "4H", "5H", "6H", "7H"}
    assert d.to_move == 0 and d.dealer == 1
    # with seat 0 dealing, seat 1 is the non-dealer: it gets the first card and leads
    d = GAME.deal(deck=deck, dealer=0)
    assert hand(d, 1) == {"2S", "3S", "4S", "5S", "6S", "7S"}
    assert d.to_move == 1
    assert GAME.deal(seed=3).deck == GAME.deal(seed=3).deck


def test_leader_may_lead_anything_and_speculation_needs_a_declaration() -> None:
    d = deal_of("AS 2H 3C 4D 5S JC", "KS 3H 4C 5C 7C 8C")
    assert legal(d) == {"AS=S", "AS=H", "2H", "3C", "4D", "5S", "JC"}
    assert [m.text for m in d.legal_moves()][-2:] == ["AS=S", "AS=H"]
    with pytest.raises(IllegalMoveError):
        d.play("AS")  # a plain AS is the follower's move
    with pytest.raises(IllegalMoveError):
        d.play("KS")  # not in hand
    with pytest.raises(IllegalMoveError):
        d.play("2H", seat=1)  # out of turn
    assert d.history == []
    d.play("2H")
    assert legal(d) == {"3H"}
    with pytest.raises(IllegalMoveError):
        d.play("AS=S")


def test_follower_plays_plain_speculation() -> None:
    d = deal_of("7S 3D 4D 5D 6D 8D", "AS 9S 2H 4C 5C 7C")
    d.play("7S")
    for text in ("AS=S", "AS=H"):
        with pytest.raises(IllegalMoveError):
            d.play(text)
    d.play("a♠")
    assert d.points == [0, 1] and d.to_move == 1


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QH", "QH"), ("qh", "QH"), ("Qh", "QH"), ("TH", "TH"), ("th", "TH"), ("10H", "TH"),
        ("10h", "TH"), ("10♥", "TH"), ("♥10", "TH"), ("Д♥", "QH"), ("♥Д", "QH"), ("В♣", "JC"),
        ("К♦", "KD"), ("Т♠", "AS"), ("AS", "AS"), ("as", "AS"), ("A♠", "AS"),
        ("AS=S", "AS=S"), ("as=s", "AS=S"), ("AS=s", "AS=S"), ("A♠=♠", "AS=S"), ("Т♠=S", "AS=S"),
        ("♠Т=S", "AS=S"), (" AS = S ", "AS=S"), ("AS=H", "AS=H"), ("as=h", "AS=H"),
        ("A♠=♥", "AS=H"), ("Т♠=h", "AS=H"),
    ],
)
def test_notation_accepted_spellings(text: str, canonical: str) -> None:
    assert GAME.parse_move(text).text == canonical


@pytest.mark.parametrize(
    "text",
    ["", "XX", "AS=", "=S", "AS=X", "AS=D", "AS=SS", "AS=30", "KH=S", "KH=H", "KH=20", "AS+",
     "AS=S=H", "1H", "11H", "ZS", "draw", "pass", "exchange", "stake 5", "AS+KS", "В"],
)
def test_notation_rejects_invalid_text(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="AS=S"):
        GAME.parse_move(text)


def test_move_codes() -> None:
    assert [GAME.code_of(t) for t in ("2S", "AS", "2H", "AC", "AS=S", "AS=H")] == \
        [0, 12, 13, 51, 52, 53]
    assert GAME.move(52).text == "AS=S" and GAME.move(53).text == "AS=H"
    for c in range(52):
        assert GAME.code_of(GAME.move(c)) == c


# ---------------------------------------------------------------------------------------------
# Property tests: independent oracles for the follower's algorithm, the winner and the points

POINTS = {"2H": 5, "TH": 5, "JH": 5, "2C": -5, "TC": -5, "JC": -5,
          "2S": 1, "TS": 1, "JS": 1, "AS": 1, "6D": 1}
ORDER = "23456789TJQKA"


def oracle_legal(hand_cards: set[str], lead: str, declared: str | None) -> set[str]:
    def trump(c: str) -> bool:
        return c[1] == "H" or c == "AS"

    led = declared if lead == "AS" else ("T" if lead[1] == "H" else lead[1])
    if led in ("T", "H"):
        follow = {c for c in hand_cards if trump(c)}
    else:
        follow = {c for c in hand_cards if c[1] == led}
    return follow or {c for c in hand_cards if trump(c)} or set(hand_cards)


def oracle_follower_wins(lead: str, reply: str) -> bool:
    if "AS" in (lead, reply):
        return reply == "AS"
    hearts = [c for c in (lead, reply) if c[1] == "H"]
    if hearts:
        return max(hearts, key=lambda c: ORDER.index(c[0])) == reply
    return reply[1] == lead[1] and ORDER.index(reply[0]) > ORDER.index(lead[0])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**40), dealer=st.integers(0, 1), data=st.data())
def test_property_hand_is_worth_five_and_rules_match_oracles(seed: int, dealer: int,
                                                             data: st.DataObject) -> None:
    d = GAME.deal(seed=seed, dealer=dealer)
    assert d.to_move == 1 - dealer
    pick = data.draw(st.randoms(use_true_random=False))
    while not d.is_over:
        seat = d.to_move
        assert seat is not None
        p = pub(d, seat)
        if p["trick"]:
            lead = p["trick"][0]["card"]
            want = oracle_legal(hand(d, seat), lead, p["declared"])
            assert legal(d) == want
            reply = pick.choice(sorted(want))
            before = list(d.points)
            d.play(reply)
            won = oracle_follower_wins(lead, reply)
            winner = seat if won else 1 - seat
            gain = POINTS.get(lead, 0) + POINTS.get(reply, 0)
            assert d.points[winner] == before[winner] + gain
            assert d.points[1 - winner] == before[1 - winner]
            if not d.is_over:
                assert d.to_move == winner
        else:
            moves = legal(d)
            mine = hand(d, seat)
            assert moves == ((mine - {"AS"}) | ({"AS=S", "AS=H"} if "AS" in mine else set()))
            d.play(pick.choice(sorted(moves)))
        assert sum(d.points) == sum(POINTS.get(c, 0) for w in pub(d)["won"] for c in w)
    assert sum(d.points) == 5 and d.result == d.points
    assert all(c in ALL for w in pub(d)["won"] for c in w)
    assert sorted(c for w in pub(d)["won"] for c in w) == sorted(ALL)


# ---------------------------------------------------------------------------------------------
# Options


def test_options_defaults_and_values() -> None:
    assert GAME.options_dict() == {"win_check": "end_of_hand", "target": 31,
                                   "next_dealer": "alternate"}
    g = cardplay.load("two-ten-jack", win_check="immediate", target="50", next_dealer="loser")
    assert g.options_dict() == {"win_check": "immediate", "target": 50, "next_dealer": "loser"}
    assert cardplay.load("two-ten-jack", next_dealer="winner").options.next_dealer == "winner"
    assert GAME.title == {"en": "Two-Ten-Jack", "ru": "Два-десять-валет",
                          "de": "Zwei-Zehn-Bube"}
    assert GAME.players == 2
    assert "AS=H" in GAME.rules_summary() and "Два-десять-валет" in RULES_RU
    assert isinstance(GAME, TwoTenJackGame)


@pytest.mark.parametrize(
    ("opts", "match"),
    [
        ({"win_check": "never"}, "end_of_hand"),
        ({"next_dealer": "left"}, "loser"),
        ({"target": 0}, "from 1 to 1000"),
        ({"target": -31}, "from 1 to 1000"),
        ({"target": "x"}, "from 1 to 1000"),
        ({"target": True}, "from 1 to 1000"),
        ({"players": 3}, "valid values: 2"),
    ],
)
def test_option_errors(opts: dict[str, Any], match: str) -> None:
    with pytest.raises(OptionError, match=match):
        cardplay.load("two-ten-jack", **opts)


def test_deal_takes_no_context() -> None:
    with pytest.raises(ValueError, match="context"):
        GAME.deal(seed=1, chips=3)


# ---------------------------------------------------------------------------------------------
# Views and hidden information


def test_views_hold_own_hand_and_public_state_only() -> None:
    d = deal_of("AS 2H 3C 4D 5S JC", "KS 3H 4C 5C 7C 8C", stock="KH 2D")
    v0, v1 = d.view(0).to_dict(), d.view(1).to_dict()
    assert set(v0["hand"]) == {"AS", "2H", "3C", "4D", "5S", "JC"}
    assert v0["public"] == {
        "leader": 0, "trick": [], "led": None, "declared": None, "last_trick": None,
        "won": [[], []], "tricks_won": [0, 0], "tricks_played": 0, "hand_points": [0, 0],
        "scoring": [], "stock": 40, "hand_sizes": [6, 6],
    }
    assert v1["legal_moves"] == [] and v0["legal_moves"]
    text1 = json.dumps({k: v for k, v in v1.items() if k != "hand"})
    for c in v0["hand"] + ["KH", "2D"]:
        assert c not in text1
    d.play("AS=H")
    p = pub(d, 1)
    assert p["trick"] == [{"seat": 0, "card": "AS"}] and p["declared"] == "H" and p["led"] == "H"
    d.play("3H")
    p = pub(d, 1)
    assert p["last_trick"] == {"cards": [{"seat": 0, "card": "AS"}, {"seat": 1, "card": "3H"}],
                               "declared": "H", "winner": 0, "points": 1}
    assert p["won"] == [["AS", "3H"], []] and p["hand_points"] == [1, 0]
    # the scoring cards each seat has taken, which a deal's end explains its points by
    assert p["scoring"] == [{"seat": 0, "card": "AS", "points": 1}]
    # a drawn card is seen only by its drawer
    assert "KH" in d.view(0).to_dict()["hand"]
    assert "KH" not in json.dumps(d.view(1).to_dict())
    assert "2D" in d.view(1).to_dict()["hand"]
    assert "2D" not in json.dumps(d.view(0).to_dict())


def test_finished_deal_views_show_every_card_played() -> None:
    d = GAME.deal(seed=8)
    while not d.is_over:
        first_legal(d)
    v = d.view(0).to_dict()
    assert v["is_over"] and v["result"] == d.points and v["hand"] == []
    assert sorted(c for w in v["public"]["won"] for c in w) == sorted(ALL)


# ---------------------------------------------------------------------------------------------
# Sampled worlds


def _replays_legally(world: Deal, history: list[tuple[int, str]]) -> Deal:
    again = GAME.deal(deck=world.deck, dealer=world.dealer)
    for seat, text in history:
        again.play(text, seat=seat)
    return again


def test_sampled_worlds_replay_legally_and_keep_the_view() -> None:
    rng = random.Random(4)
    for seed in range(3):
        d = GAME.deal(seed=seed)
        while not d.is_over:
            for s in (0, 1) if len(d.history) % 3 != 1 else ():
                v = d.view(s)
                w = GAME.sample_deal(v, random.Random(rng.random()))
                assert w.view(s).to_dict() == v.to_dict()
                again = _replays_legally(w, [(a, b) for a, b in v.history])
                assert again.view(s).to_dict() == v.to_dict()
                if v.public["stock"] == 0:  # every card is known once the stock is empty
                    assert hand(w, 1 - s) == hand(d, 1 - s)
            d.play(rng.choice(d.legal_moves()))


def test_sampled_worlds_respect_a_revealed_void() -> None:
    # Seat 1 plays 4D on the 7S lead: it held no spade and no trump at that moment, so of its six
    # cards now at most one (the card drawn after that trick) is a spade or a trump.
    d = deal_of("7S 3D 5D 6D 8D 9D", "4D 4C 5C 6C 7C 8C")
    d.play("7S")
    d.play("4D")
    v = d.view(0)
    spade_or_trump = {c for c in ALL if c[1] in "SH"}
    counts = set()
    for i in range(120):
        w = GAME.sample_deal(v, random.Random(i))
        assert w.view(0).to_dict() == v.to_dict()
        _replays_legally(w, list(v.history))
        counts.add(len(hand(w, 1) & spade_or_trump))
    assert counts == {0, 1}


def test_sampled_opponent_hands_are_spread_over_the_unseen_cards() -> None:
    d = GAME.deal(seed=5)
    v = d.view(0)
    seen: dict[str, int] = {}
    for i in range(400):
        for c in hand(GAME.sample_deal(v, random.Random(i)), 1):
            seen[c] = seen.get(c, 0) + 1
    unseen = set(ALL) - {str(c) for c in v.hand}
    assert set(seen) == unseen  # 46 unseen cards, 6 per sample: each expected ~52 times
    assert min(seen.values()) > 20 and max(seen.values()) < 100


# ---------------------------------------------------------------------------------------------
# Match flow


def _play_match(game: cardplay.Game, seed: int, dealer: int | None = None) -> Match:
    m = game.match(seed=seed, dealer=dealer)
    while not m.is_over:
        first_legal(m)
    return m


def test_match_alternates_the_deal_and_ends_at_31() -> None:
    m = _play_match(GAME, seed=3, dealer=0)
    dealers = [d.dealer for d in m.deals]
    assert dealers == [i % 2 for i in range(len(dealers))]
    scores = [sum(result(d)[s] for d in m.deals) for s in (0, 1)]
    assert m.scores == scores
    assert max(scores) >= 31 and scores[0] != scores[1]
    assert m.winners == [scores.index(max(scores))]
    # before the last hand nobody had won
    before = [scores[s] - result(m.deals[-1])[s] for s in (0, 1)]
    assert max(before) < 31 or before[0] == before[1]
    assert m.view(0).to_dict()["match"]["winners"] == m.winners


def test_first_dealer_is_random_from_the_seed() -> None:
    firsts = {GAME.match(seed=s).deal.dealer for s in range(20)}
    assert firsts == {0, 1}
    assert GAME.match(seed=4).deal.dealer == GAME.match(seed=4).deal.dealer
    assert GAME.match(seed=4, dealer=1).deal.dealer == 1


@pytest.mark.parametrize("rule", ["loser", "winner"])
def test_next_dealer_by_hand_points(rule: str) -> None:
    g = cardplay.load("two-ten-jack", next_dealer=rule, target=60)
    m = _play_match(g, seed=2, dealer=0)
    assert len(m.deals) >= 3
    for prev, nxt in zip(m.deals, m.deals[1:]):
        r = prev.result
        assert r is not None and r[0] != r[1]  # +5 in all: a hand cannot be tied
        low = r.index(min(r))
        assert nxt.dealer == (low if rule == "loser" else 1 - low)


def test_target_option() -> None:
    g = cardplay.load("two-ten-jack", target=5)
    m = _play_match(g, seed=1)
    assert m.deal.is_over  # checked only at the end of a hand
    assert max(m.scores) >= 5 and m.winners == [m.scores.index(max(m.scores))]


def test_immediate_win_check_ends_the_match_mid_hand() -> None:
    g = cardplay.load("two-ten-jack", win_check="immediate", target=5)
    ended_mid_hand = 0
    for seed in range(6):
        m = g.match(seed=seed)
        while not m.is_over:
            assert max(m.scores) < 5
            first_legal(m)
        live = [a + b for a, b in zip(m.finished_scores, m.deal.points)] \
            if not m.deal.is_over else m.finished_scores
        assert m.scores == live
        assert max(m.scores) >= 5 and m.winners == [m.scores.index(max(m.scores))]
        ended_mid_hand += not m.deal.is_over
        assert m.to_move is None and m.legal_moves() == []
        with pytest.raises(IllegalMoveError):
            m.play(m.deal.legal_moves()[0] if not m.deal.is_over else "2S")
        rec = json.loads(json.dumps(m.record()))
        again = cardplay.replay(rec)
        assert isinstance(again, Match) and again.scores == m.scores and again.is_over
    assert ended_mid_hand >= 4


def test_end_of_hand_win_check_waits_for_the_hand_to_end() -> None:
    m = cardplay.load("two-ten-jack", target=5).match(seed=0)
    while not m.is_over:
        if not m.deal.is_over:
            assert m.scores == m.finished_scores  # the hand in progress does not count yet
        first_legal(m)
    assert m.deal.is_over


# ---------------------------------------------------------------------------------------------
# The heuristic bot


def test_heuristic_bot_plays_legal_moves_from_views_only() -> None:
    for seed in range(4):
        d = GAME.deal(seed=seed)
        bots = [load_bot("heuristic", GAME, seed=seed), load_bot("heuristic", GAME, seed=seed + 9)]
        play_out(d, bots)
        assert sum(d.points) == 5


def test_heuristic_bot_banks_and_dumps_points() -> None:
    bot = load_bot("heuristic", GAME, seed=0)
    # following a diamond lead with no diamonds: trump with the +5 J♥ rather than waste a high trump
    d = deal_of("QD 3S 4S 5S 7S 8S", "JH AH 4C 5C 7C 8C")
    d.play("QD")
    assert bot.choose(d.view(1)).text == "JH"
    # the opponent wins a spade trick anyway: dump the -5 J♣ on it
    d = deal_of("AS 3S 4S 5D 7D 8D", "JC 4C 5C 7C 8C 9D")
    d.play("AS=S")
    assert bot.choose(d.view(1)).text == "JC"


def test_heuristic_bot_plays_the_endgame_perfectly() -> None:
    # With the stock empty the bot knows both hands; check it against brute force (a hand's
    # result is its final points).
    best = plain_margin
    rng = random.Random(7)
    for seed in range(3):
        d = GAME.deal(seed=seed)
        while pub(d)["stock"] > 0 or pub(d)["hand_sizes"][d.to_move or 0] > 4:
            d.play(rng.choice(d.legal_moves()))
        seat = d.to_move
        assert seat is not None
        target = best(d, seat)
        move = load_bot("heuristic", GAME, seed=1).choose(d.view(seat))
        after = d.copy()
        after.play(move)
        assert best(after, seat) == target


def test_parse_card_agrees_with_codes() -> None:
    for c in range(52):
        assert GAME.code_of(format_card(c)) == parse_card(format_card(c)) == c
