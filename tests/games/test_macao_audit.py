"""Independent rules audit of Macao against RULES.md sections 0, 6, 8, 9 (MC) and the API contract
of DESIGN.md section 2. Every test fixes the shoe (or only uses public API facts) and expects an
exact outcome; only the public API is used (no private attributes, no game-specific view keys
except where a card text must or must not appear)."""

from __future__ import annotations

import json

import pytest

import cardplay
from cardplay.engine import IllegalMoveError, InvalidMoveError, OptionError
from helpers import hand_list, legal, shoe, stakes, view_text

RANKS = "23456789TJQKA"
SUITS = "SHDC"
ALL = [r + s for s in SUITS for r in RANKS]


# --------------------------------------------------------------------------------------------
# 0.2 / 6.2a: seats, banker and dealing from a fixed order


def test_default_banker_is_the_last_seat_for_every_table_size() -> None:
    for n in range(2, 9):
        d = cardplay.load("macao", players=n).deal(seed=3)
        assert d.dealer == n - 1 and d.players == n
        assert d.to_move == 0
        assert legal(d) == stakes(5, 50)


def test_fixed_order_with_banker_seat_zero() -> None:
    # 6.2a: one card to each staking punter clockwise from the banker's left (seats 1, 2),
    # then one to the banker, then the bought cards from the top in punter order.
    d = cardplay.load("macao").deal(deck=shoe("5S", "6S", "QD", "3S", "7S"), dealer=0)
    assert d.dealer == 0 and d.to_move == 1
    d.play("stake 10", seat=1)
    assert d.to_move == 2
    d.play("stake 20", seat=2)
    assert hand_list(d, 1) == ["5S"] and hand_list(d, 2) == ["6S"] and hand_list(d, 0) == []
    assert d.to_move == 1
    d.play("buy", seat=1)
    assert hand_list(d, 1) == ["5S", "3S"]
    assert d.to_move == 2
    d.play("stand", seat=2)
    # banker QD = 0; seat 1: 5+3 = 8 wins 10; seat 2: 6 wins 20
    assert d.points == [-30, 10, 20]


def test_fixed_order_eight_players_banker_in_the_middle() -> None:
    g = cardplay.load("macao", players=8)
    top = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "KD", "8H", "9H"]
    d = g.deal(deck=shoe(*top), dealer=3)
    order = []
    for _ in range(7):
        order.append(d.to_move)
        d.play("stake 5")
    assert order == [4, 5, 6, 7, 0, 1, 2]
    expect = {4: "AS", 5: "2S", 6: "3S", 7: "4S", 0: "5S", 1: "6S", 2: "7S"}
    for seat, card in expect.items():
        assert hand_list(d, seat) == [card]
    assert hand_list(d, 3) == []
    # decisions in the same order; the first two buyers take 8H then 9H
    assert d.to_move == 4
    d.play("buy")              # A + 8 = 9
    assert hand_list(d, 4) == ["AS", "8H"]
    assert d.to_move == 5
    d.play("stand")            # 2
    assert d.to_move == 6
    d.play("buy")              # 3 + 9 = 2
    assert hand_list(d, 6) == ["3S", "9H"]
    for _ in range(4):
        d.play("stand")
    # banker KD = 0: every punter has a value above 0 and wins 5
    assert d.points == [5, 5, 5, -35, 5, 5, 5, 5]


def test_the_second_round_continues_from_the_same_shoe() -> None:
    # 6.2: the shoe is not reshuffled during a bank; 6.4: used cards are set aside and the bank
    # persists across rounds (MC-6).
    g = cardplay.load("macao", players=2)
    d = g.deal(deck=shoe("9S", "KS", "4H", "2C", "3D", "8C"))
    d.play("stake 20")          # round 1: punter 9S, banker KS
    d.play("stand")             # 9 > 0: the banker pays 20
    assert d.points == [20, -20]
    assert not d.is_over and d.to_move == 0
    assert legal(d) == stakes(5, 50)
    d.play("stake 30")          # round 2: punter 4H, banker 2C
    assert hand_list(d, 0) == ["4H"]
    d.play("buy")               # 4 + 3 = 7 against 2
    assert d.points == [50, -50]
    d.play("stake 50")          # round 3: punter 8C, banker 2S (the rest of the shoe)
    assert hand_list(d, 0) == ["8C"]
    d.play("stand")             # 8 > 2
    assert d.points == [100, -100]
    # bank 200 - 100 = 100 >= min_stake: the turn goes on
    assert not d.is_over
    assert legal(d) == stakes(5, 50)


def test_bought_cards_follow_the_banker_card_in_punter_order() -> None:
    # A punter who stands takes no card: the next buyer takes the next card of the shoe.
    d = cardplay.load("macao", players=4).deal(deck=shoe("2S", "3S", "4S", "TD", "5H", "6H"))
    for _ in range(3):
        d.play("stake 5")
    d.play("stand")           # seat 0 stands on 2
    d.play("buy")             # seat 1 takes 5H: 3 + 5 = 8
    d.play("buy")             # seat 2 takes 6H: 4 + 6 = 0
    # banker TD = 0: seat 0 (2) wins, seat 1 (8) wins, seat 2 (0) pushes
    assert d.points == [5, 5, 0, -10]


# --------------------------------------------------------------------------------------------
# 0.6: points and result


def test_points_and_result_semantics() -> None:
    g = cardplay.load("macao", players=3, bank_stake=20)
    d = g.deal(deck=shoe("9S", "2S", "KH", "9D", "2D", "KC"))
    assert d.points == [0, 0, 0] and d.result is None
    d.play("stake 15")
    assert d.points == [0, 0, 0] and d.result is None
    d.play("stake 5")
    d.play("stand")
    d.play("stand")
    # banker KH = 0: seat 0 (9) wins 15, seat 1 (2) wins 5; bank 20 -> 0 < 5: the turn ends
    assert d.is_over and d.to_move is None and d.legal_moves() == []
    assert d.result == [15, 5, -20]
    assert d.points == [15, 5, -20]
    assert sum(d.result) == 0


def test_the_banker_takes_back_the_bank_in_his_result() -> None:
    # Punters lose into the bank; at the end the banker's result is bank taken back - stake.
    g = cardplay.load("macao", players=2, bank_stake=10)
    d = g.deal(deck=shoe("KS", "9S", "9H", "KH"))
    d.play("stake 10")
    d.play("stand")             # 0 < 9: the punter pays 10, bank 20
    assert d.points == [-10, 10] and d.result is None
    d.play("stake 20")
    d.play("stand")             # 9 > 0: the bank pays 20, bank 0: the turn ends
    assert d.is_over and d.result == [10, -10]


def test_a_bank_of_exactly_min_stake_still_plays() -> None:
    # 6.4: "while ... bank >= min_stake"
    g = cardplay.load("macao", players=2, bank_stake=10)
    d = g.deal(deck=shoe("9S", "KS"))
    d.play("stake 5")
    d.play("stand")
    assert not d.is_over and d.points == [5, -5]
    assert legal(d) == {"stake 5"}


def test_a_push_changes_nothing() -> None:
    d = cardplay.load("macao", players=2).deal(deck=shoe("TS", "KD", "7S", "7C"))
    d.play("stake 50")
    d.play("stand")              # 0 against 0
    assert d.points == [0, 0] and not d.is_over
    d.play("stake 40")
    d.play("stand")              # 7 against 7
    assert d.points == [0, 0]


# --------------------------------------------------------------------------------------------
# 6.3 coverage and limits


def test_coverage_in_seat_order_from_the_bankers_left() -> None:
    # Scenario 4 with the banker at seat 1: punters act in the order 2, 3, 0.
    g = cardplay.load("macao", players=4, bank_stake=60)
    d = g.deal(deck=shoe("5S", "6S", "7S", "8S"), dealer=1)
    assert d.to_move == 2
    d.play("stake 50")
    assert d.to_move == 3 and legal(d) == stakes(5, 10)
    d.play("stake 10")
    # seat 0 faces no coverage: he sits out; the stakers (2, 3) and the banker get the cards
    assert d.to_move == 2
    assert hand_list(d, 2) == ["5S"] and hand_list(d, 3) == ["6S"] and hand_list(d, 0) == []


def test_a_small_bank_limits_the_first_stake() -> None:
    d = cardplay.load("macao", bank_stake=30).deal(seed=1)
    assert legal(d) == stakes(5, 30)


def test_stake_limits_follow_the_options() -> None:
    g = cardplay.load("macao", min_stake=10, max_stake=20)
    d = g.deal(seed=2)
    assert legal(d) == stakes(10, 20)
    for bad in ("stake 9", "stake 21"):
        with pytest.raises(IllegalMoveError):
            d.play(bad)
    g1 = cardplay.load("macao", min_stake=25, max_stake=25)
    assert legal(g1.deal(seed=2)) == {"stake 25"}


# --------------------------------------------------------------------------------------------
# 6.6 scenario 5: shoe exhaustion, from a fixed shoe


@pytest.mark.parametrize(("buys", "rounds"), [(0, 25), (1, 25), (2, 24)])
def test_shoe_exhaustion_with_three_punters(buys: int, rounds: int) -> None:
    # Each round needs 2P+1 = 7 cards; without buys 24 rounds use 96 cards, so round 25 is
    # played from 8 (and after it 4 remain); one buy leaves exactly 7 (played); two leave 6.
    g = cardplay.load("macao", players=4, bank_stake=1000)
    d = g.deal(deck=shoe())
    played = 0
    while not d.is_over:
        for _ in range(3):
            d.play("stake 5")
        for k in range(3):
            d.play("buy" if played == 0 and k < buys else "stand")
        played += 1
        assert played <= 26
    assert played == rounds
    assert sum(d.result or []) == 0


def test_shoe_exhaustion_with_one_punter() -> None:
    # 2P+1 = 3 cards a round: 51 rounds of 2 cards leave 2 < 3.
    g = cardplay.load("macao", players=2, bank_stake=1000)
    d = g.deal(deck=shoe())
    rounds = 0
    while not d.is_over:
        d.play("stake 5")
        d.play("stand")
        rounds += 1
    assert rounds == 51


# --------------------------------------------------------------------------------------------
# Options (6.3, 6.4, 0.5)


def test_every_documented_option_and_value_is_accepted() -> None:
    for name, values in {
        "players": [2, 8], "start_chips": [1000], "min_stake": [5], "max_stake": [50],
        "bank_stake": [200], "stake_timing": ["before_deal", "after_first_card"],
        "banker_unlimited": [False, True], "forced_draw": [False, True],
        "naturals": [False, True], "multi_buy": [False, True],
    }.items():
        for v in values:
            g = cardplay.load("macao", **{name: v})
            assert getattr(g.options, name) == v


def test_unknown_option_names_the_valid_ones() -> None:
    with pytest.raises(OptionError) as e:
        cardplay.load("macao", bank=200)
    for name in ("bank_stake", "min_stake", "max_stake", "stake_timing", "multi_buy"):
        assert name in str(e.value)
    assert isinstance(e.value, ValueError)


def test_bad_stake_timing_names_the_valid_values() -> None:
    with pytest.raises(OptionError) as e:
        cardplay.load("macao", stake_timing="after_deal")
    assert "before_deal" in str(e.value) and "after_first_card" in str(e.value)


@pytest.mark.parametrize("players", [0, 1, 9, 15])
def test_players_out_of_range(players: int) -> None:
    with pytest.raises(OptionError):
        cardplay.load("macao", players=players)


def test_forced_draw_with_naturals() -> None:
    g = cardplay.load("macao", players=3, forced_draw=True, naturals=True)
    d = g.deal(deck=shoe("7S", "6S", "KD", "AH"))
    d.play("stake 5")
    d.play("stake 5")
    assert legal(d) == {"stand"}        # a natural 7 stands
    d.play("stand")
    assert legal(d) == {"buy"}          # 6 must buy
    d.play("buy")                       # 6 + 1 = 7, not a natural
    # banker KD = 0, no natural: seat 0's natural 7 pays 1x; seat 1's 7 wins 1x
    assert d.points == [5, 5, -10]


@pytest.mark.parametrize(("punter", "banker", "won"), [
    ("3S", "9S", -30),     # the banker's natural 9 collects 3x from a plain 3
    ("3S", "8S", -20),
    ("3S", "7S", -10),
    ("AS", "6S", -10),     # no natural: plain comparison
    ("9S", "KS", 30),      # the punter's natural 9 is paid 3x
])
def test_naturals_unambiguous_settlements(punter: str, banker: str, won: int) -> None:
    g = cardplay.load("macao", players=2, naturals=True)
    d = g.deal(deck=shoe(punter, banker))
    d.play("stake 10")
    d.play("stand")
    assert d.points == [won, -won]


def test_multi_buy_total_of_ten_busts_at_once() -> None:
    # With multi_buy values are plain sums and a total over 9 loses at once.
    g = cardplay.load("macao", players=2, multi_buy=True)
    d = g.deal(deck=shoe("4S", "KD", "6S", "9H", "9C"))
    d.play("stake 10")
    d.play("buy")               # 4 + 6 = 10 > 9: bust
    assert d.points == [-10, 10]
    assert not d.is_over and d.to_move == 0
    assert legal(d) == stakes(5, 50)


def test_multi_buy_plain_sum_can_reach_nine_with_several_cards() -> None:
    g = cardplay.load("macao", players=2, multi_buy=True)
    d = g.deal(deck=shoe("2S", "8D", "3S", "QS", "4S"))
    d.play("stake 10")
    d.play("buy")               # 5
    assert legal(d) == {"buy", "stand"}
    d.play("buy")               # 5 + Q = 5
    d.play("buy")               # 9
    assert legal(d) == {"buy", "stand"}
    d.play("stand")             # 9 > 8
    assert d.points == [10, -10]


def test_default_rules_allow_one_buy_only() -> None:
    d = cardplay.load("macao", players=2).deal(deck=shoe("2S", "8D", "3S"))
    d.play("stake 10")
    d.play("buy")
    # the round is settled at once (one punter, one buy): 5 < 8
    assert d.points == [-10, 10]
    assert legal(d) == stakes(5, 50)


def test_after_first_card_banker_seat_one() -> None:
    g = cardplay.load("macao", players=4, stake_timing="after_first_card")
    d = g.deal(deck=shoe("AS", "2S", "3S", "KD", "9H"), dealer=1)
    # every punter sees his first card before staking (seats 2, 3, 0), then the banker's card
    assert d.to_move == 2
    assert hand_list(d, 2) == ["AS"] and hand_list(d, 3) == ["2S"] and hand_list(d, 0) == ["3S"]
    assert hand_list(d, 1) == []
    for s in range(4):
        assert "KD" not in view_text(d, s)
    d.play("stake 5")
    d.play("stake 5")
    d.play("stake 5")
    d.play("buy")               # seat 2: A + 9 = 0
    assert hand_list(d, 2) == ["AS", "9H"]
    d.play("stand")
    d.play("stand")
    # banker KD = 0: seat 2 pushes, seat 3 (2) and seat 0 (3) win
    assert d.points == [5, -10, 0, 5]


# --------------------------------------------------------------------------------------------
# 0.4 notation and errors


@pytest.mark.parametrize(("text", "canon"), [
    ("sTaKe 12", "stake 12"), ("bUy", "buy"), ("STAND", "stand"), ("Stake 50", "stake 50"),
])
def test_keywords_are_case_insensitive(text: str, canon: str) -> None:
    d = cardplay.load("macao", players=2).deal(deck=shoe("5S", "KD"))
    if canon.startswith("stake"):
        d.play(text)
        assert d.view(0).history[-1] == (0, canon)
    else:
        d.play("stake 5")
        d.play(text)
        assert d.view(0).history[1] == (0, canon)


@pytest.mark.parametrize("text", [
    "draw", "take", "KH=20", "AS=H", "close", "exchange", "AC+AD", "QH", "10♥", "Т♠",
    "stake", "stake 05", "stake -1", "stake 0", "stand 5", "buy buy",
])
def test_text_of_no_macao_notation_is_invalid(text: str) -> None:
    d = cardplay.load("macao").deal(seed=4)
    with pytest.raises(InvalidMoveError):
        d.play(text)
    assert d.view(0).history == ()


def test_legal_moves_print_in_canonical_notation() -> None:
    d = cardplay.load("macao", players=2).deal(deck=shoe("5S", "KD"))
    moves = d.legal_moves()
    assert sorted(str(m) for m in moves) == sorted(f"stake {n}" for n in range(5, 51))
    assert len(moves) == 46
    d.play(next(m for m in moves if str(m) == "stake 8"))
    assert sorted(str(m) for m in d.legal_moves()) == ["buy", "stand"]
    assert d.view(0).history == ((0, "stake 8"),)


def test_out_of_turn_and_unparseable_errors() -> None:
    d = cardplay.load("macao").deal(seed=5)
    before = d.view(0).to_dict()
    with pytest.raises(IllegalMoveError):
        d.play("stake 5", seat=1)
    with pytest.raises(IllegalMoveError):
        d.play("stake 5", seat=2)          # the banker never acts
    with pytest.raises(InvalidMoveError):
        d.play("hit", seat=1)              # unparseable, whoever sends it
    with pytest.raises(IllegalMoveError):
        d.play("buy")                      # fits, but not in the staking phase
    assert d.view(0).to_dict() == before
    assert issubclass(IllegalMoveError, ValueError) and issubclass(InvalidMoveError, ValueError)


def test_moves_after_the_deal_is_over() -> None:
    g = cardplay.load("macao", players=2, bank_stake=10)
    d = g.deal(deck=shoe("9S", "KS"))
    d.play("stake 10")
    d.play("stand")
    assert d.is_over
    with pytest.raises(IllegalMoveError):
        d.play("stake 5")
    with pytest.raises(InvalidMoveError):
        d.play("nonsense")


def test_bad_decks_are_value_errors_that_say_what_is_wrong() -> None:
    g = cardplay.load("macao")
    with pytest.raises(ValueError, match="missing"):
        g.deal(deck=ALL)                             # one deck only
    with pytest.raises(ValueError, match="extra"):
        g.deal(deck=[*shoe(), "AS"])
    with pytest.raises(ValueError):
        g.deal(deck=[*shoe()[:-1], "ZZ"])
    d = g.deal(deck=" ".join(shoe("9D")))             # a string deck works too
    assert d.to_move == 0


def test_the_same_seed_gives_the_same_deal() -> None:
    g = cardplay.load("macao")
    a, b = g.deal(seed=11), g.deal(seed=11)
    for d in (a, b):
        d.play("stake 10")
        d.play("stake 10")
    assert [hand_list(a, s) for s in range(3)] == [hand_list(b, s) for s in range(3)]
    assert a.view(0).to_dict() == b.view(0).to_dict()


# --------------------------------------------------------------------------------------------
# 6.5 / 8: hidden information


def test_views_hide_other_punters_cards_and_the_banker_card() -> None:
    d = cardplay.load("macao").deal(deck=shoe("5S", "6D", "QC", "3H", "7C"))
    d.play("stake 10")
    d.play("stake 10")
    # seat 0 holds 5S, seat 1 6D, the banker QC (unseen)
    assert "6D" not in view_text(d, 0) and "QC" not in view_text(d, 0)
    assert "5S" not in view_text(d, 1) and "QC" not in view_text(d, 1)
    assert all(c not in view_text(d, 2) for c in ("5S", "6D", "QC"))
    assert d.view(2).hand == ()
    d.play("buy")                 # seat 0 buys 3H: the buy is public, the card is not
    for s in (1, 2):
        v = d.view(s)
        assert "3H" not in view_text(d, s)
        assert (0, "buy") in v.history
    assert "3H" in view_text(d, 0)
    assert d.view(1).legal_moves and d.view(0).legal_moves == ()
    d.play("stand")
    # the showdown turned every card: all of them are public (used) now
    for s in range(3):
        t = view_text(d, s)
        assert all(c in t for c in ("5S", "6D", "QC", "3H"))
        assert "7C" not in t      # still in the shoe


def test_view_cards_are_canonical_strings() -> None:
    d = cardplay.load("macao", players=2).deal(deck=shoe("TH", "KD"))
    d.play("stake 5")
    v = d.view(0).to_dict()
    assert v["hand"] == ["TH"]
    json.dumps(v)


# --------------------------------------------------------------------------------------------
# Match (6.3 / 6.4, 0.6, DESIGN 2)


def _finish(m: cardplay.Match) -> None:
    while not m.is_over:
        moves = m.legal_moves()
        # the smallest stake, and always stand: a slow, deterministic match
        m.play("stand" if "stand" in moves else moves[0])


@pytest.mark.parametrize(("players", "dealer", "expect"), [
    (3, 1, [1, 2, 0]), (2, 1, [1, 0]), (2, 0, [0, 1]), (5, 3, [3, 4, 0, 1, 2]),
])
def test_every_player_banks_once_passing_left(players: int, dealer: int,
                                              expect: list[int]) -> None:
    m = cardplay.load("macao", players=players).match(seed=9, dealer=dealer)
    assert m.deal.dealer == dealer and m.winners == []
    seen = [m.deal]
    while not m.is_over:
        moves = m.legal_moves()
        m.play("stand" if "stand" in moves else moves[0])
        if not m.is_over and m.deal is not seen[-1]:
            seen.append(m.deal)
    assert [d.dealer for d in seen] == expect
    results = [d.result for d in seen]
    assert all(r is not None and sum(r) == 0 for r in results)
    assert m.scores == [sum(r[s] for r in results if r) for s in range(players)]
    best = max(m.scores)
    assert m.winners == [s for s in range(players) if m.scores[s] == best]
    assert m.to_move is None and m.legal_moves() == []


def test_match_scores_count_finished_deals_only() -> None:
    m = cardplay.load("macao", players=2).match(seed=2, dealer=0)
    first = m.deal
    while m.deal is first:
        moves = m.legal_moves()
        m.play("stand" if "stand" in moves else moves[0])
    assert first.result is not None
    assert m.scores == first.result
    # a round played in the second deal does not touch the match scores until it ends
    m.play("stake 50")
    m.play("stand")
    if m.deal is not first and not m.deal.is_over and m.deal.points != [0, 0]:
        assert m.scores == first.result


def test_match_deal_copy_is_independent() -> None:
    m = cardplay.load("macao").match(seed=4, dealer=2)
    c = m.deal.copy()
    c.play("stake 5")
    assert m.deal.view(0).history == () and m.to_move == 0
    m.play("stake 7")
    assert c.view(0).history == ((0, "stake 5"),)


def test_moves_after_the_match_is_over() -> None:
    m = cardplay.load("macao", players=2, bank_stake=50).match(seed=1, dealer=0)
    _finish(m)
    assert m.is_over
    with pytest.raises(IllegalMoveError):
        m.play("stand")
    with pytest.raises(InvalidMoveError):
        m.play("garbage")


def test_match_without_dealer_is_deterministic_from_its_seed() -> None:
    g = cardplay.load("macao", players=4)
    firsts = {g.match(seed=s).deal.dealer for s in range(12)}
    assert firsts <= {0, 1, 2, 3} and len(firsts) > 1
    assert g.match(seed=5).deal.dealer == g.match(seed=5).deal.dealer


def test_match_record_replays() -> None:
    m = cardplay.load("macao", players=3, stake_timing="after_first_card").match(seed=3)
    _finish(m)
    again = cardplay.replay(json.loads(json.dumps(m.record())))
    assert isinstance(again, cardplay.Match)
    assert again.scores == m.scores and again.winners == m.winners and again.is_over



def test_multi_buy_buys_while_the_shoe_has_cards() -> None:
    # 6.4: with multi_buy, ``buy`` is legal while the shoe has cards. Round 1 takes 3 cards
    # (one buy), rounds 2-50 two each (everyone stands), so round 51 starts from the last 3
    # cards: AS to the punter, KC to the banker, AH for one buy; then the shoe is empty.
    top, tail = ["2S", "KD", "3S"], ["AS", "KC", "AH"]
    rest = shoe(*top, *tail)[len(top) + len(tail):]
    g = cardplay.load("macao", players=2, bank_stake=1000, multi_buy=True)
    d = g.deal(deck=[*top, *rest, *tail])
    d.play("stake 5")
    d.play("buy")               # 2 + 3 = 5
    assert legal(d) == {"buy", "stand"}
    d.play("stand")
    for _ in range(49):
        d.play("stake 5")
        d.play("stand")
    assert not d.is_over
    d.play("stake 5")
    assert hand_list(d, 0) == ["AS"]
    assert legal(d) == {"buy", "stand"}
    d.play("buy")               # AH: 2, and the shoe is empty
    assert hand_list(d, 0) == ["AS", "AH"]
    assert legal(d) == {"stand"}
    d.play("stand")             # 2 > 0 (KC)
    assert d.is_over
