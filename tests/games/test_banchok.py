"""Polish Banchok (RULES.md section 5): scenarios from fixed decks, options, notation, views,
match flow, invariants, and the exact win probability of the heuristic bot."""

from __future__ import annotations

import itertools
import json
import math
import random
import time
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardplay
from cardplay.bots import load as load_bot
from cardplay.bots.heuristics.banchok import (
    HeuristicBot,
    choose_stake,
    win_probability,
    win_probability_of_view,
    winning_cards,
)
from cardplay.builtin.banchok import RULES_RU, Banchok, BanchokDeal, deck_knowledge
from cardplay.cards import format_card, parse_card
from cardplay.engine import IllegalMoveError, InvalidMoveError, OptionError, derive_seed
from helpers import legal, pub, shoe, stakes

FULL = [c for c in range(52) for _ in range(2)]


def load(**options: Any) -> Banchok:
    g = cardplay.load("banchok", **options)
    assert isinstance(g, Banchok)
    return g


def seeded(game: Banchok, seed: int, **kw: Any) -> BanchokDeal:
    d = game.deal(seed=seed, **kw)
    assert isinstance(d, BanchokDeal)
    return d


GAME = load()
GAME2 = load(players=2)


def dealt(game: Any, *top: str, **kw: Any) -> BanchokDeal:
    d = game.deal(deck=shoe(*top), **kw)
    assert isinstance(d, BanchokDeal)
    return d


def last_entry(d: Any, seat: int = 0) -> dict[str, Any]:
    """The latest settlement (this round's, else the previous round's)."""
    p = pub(d, seat)
    return (p["settled"] or p["previous"])[-1]


# ------------------------------------------------------------------------------------------------
# Scenario 1 and 2: who wins (one punter, seat 0; the banker is seat 1)


@pytest.mark.parametrize(("turned", "wins"), [
    ("QH", True),   # K♥ >= Q♥
    ("JC", False),  # no club
    ("AH", False),  # A♥ beats K♥
    ("TD", True),   # the second deck's 10♦: a tie goes to the punter
    ("2S", True),   # A♠ >= 2♠
])
def test_scenario_1_same_suit_and_at_least_as_high(turned: str, wins: bool) -> None:
    d = dealt(GAME2, "AS", "KH", "TD", turned)
    assert d.dealer == 1 and d.to_move == 0
    assert [str(c) for c in d.view(0).hand] == ["AS", "KH", "TD"]
    assert d.view(1).hand == ()
    d.play("stake 10")
    p = pub(d, 1)
    assert p["settled"] == [] and p["round"] == 2  # one punter: every settlement ends a round
    entry = p["previous"][0]
    assert entry == {"seat": 0, "stake": 10, "turned": turned, "cards": ["AS", "KH", "TD"],
                     "won": wins}
    assert p["bank"] == (90 if wins else 110)
    assert d.points == ([10, -10] if wins else [-10, 10])
    assert p["chips"] == ([1010, 900] if wins else [990, 900])
    assert [str(c) for c in d.view(0).hand] == shoe("AS", "KH", "TD", turned)[4:7]


def test_scenario_2_highest_card_of_the_suit_decides() -> None:
    d = dealt(GAME2, "3C", "9C", "4D", "8C")
    d.play("stake 20")
    assert last_entry(d)["won"] is True
    assert d.points == [20, -20]
    d = dealt(GAME2, "3C", "9C", "4D", "TC")
    d.play("stake 20")
    assert last_entry(d)["won"] is False
    assert d.points == [-20, 20]


@pytest.mark.parametrize(("hand", "turned", "high", "low"), [
    (("KH", "2S", "3D"), "AH", False, True),   # ace low: A♥ is below K♥
    (("AS", "5H", "3D"), "2S", True, False),   # ace low: A♠ is below 2♠
    (("AS", "5H", "3D"), "AS", True, True),    # equal cards win either way
])
def test_ace_low_option(hand: tuple[str, ...], turned: str, high: bool, low: bool) -> None:
    for game, want in ((GAME2, high), (load(players=2, ace_low=True), low)):
        d = dealt(game, *hand, turned)
        d.play("stake 5")
        assert last_entry(d)["won"] is want


def test_deal_order_three_punters_one_card_at_a_time() -> None:
    # 4 players: banker 3, punters 0, 1, 2 clockwise from the banker's left.
    g = load(players=4)
    d = dealt(g, "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS")
    assert [str(c) for c in d.view(0).hand] == ["2S", "5S", "8S"]
    assert [str(c) for c in d.view(1).hand] == ["3S", "6S", "9S"]
    assert [str(c) for c in d.view(2).hand] == ["4S", "7S", "TS"]
    assert pub(d)["punters"] == [0, 1, 2] and pub(d)["stock"] == 104 - 9
    d.play("stake 5")  # J♠ turned for seat 0: he loses
    assert pub(d)["settled"][0]["turned"] == "JS" and d.to_move == 1
    d.play("stake 5")  # Q♠ turned for seat 1
    assert pub(d)["settled"][1]["turned"] == "QS" and d.to_move == 2
    # The banker of a deal may be any seat; his left is the first punter.
    d = dealt(g, "2S", "3S", "4S", "5S", dealer=1)
    assert pub(d)["punters"] == [2, 3, 0] and d.to_move == 2
    assert str(d.view(2).hand[0]) == "2S"
    assert d.view(1).hand == () and pub(d)["chips"] == [1000, 900, 1000, 1000]


# ------------------------------------------------------------------------------------------------
# Scenario 3: stake limits


def test_scenario_3_stake_limits() -> None:
    d = dealt(GAME, "AS", "2C", "KH", "3C", "TD", "4C", "QS")
    assert legal(d) == stakes(5, 100)
    assert pub(d)["stake_range"] == [5, 100]
    d.play("stake 97")  # seat 0 wins (A♠ over Q♠): the bank holds 3
    assert pub(d)["bank"] == 3 and d.to_move == 1
    assert legal(d) == {"stake 3"}
    with pytest.raises(IllegalMoveError):
        d.play("stake 5")


def test_scenario_3_punter_with_4_chips_is_out() -> None:
    d = dealt(GAME, "AS", "KH", "TD", chips=[4, 1000, 1000])
    assert pub(d)["out"] == [0] and pub(d)["punters"] == [1]
    assert d.to_move == 1 and d.view(0).hand == ()
    assert [str(c) for c in d.view(1).hand] == ["AS", "KH", "TD"]
    assert legal(d) == stakes(5, 100)


def test_stake_capped_by_own_chips() -> None:
    d = dealt(GAME, chips=[50, 1000, 1000])
    assert legal(d) == stakes(5, 50)
    with pytest.raises(IllegalMoveError):
        d.play("stake 51")


def test_punter_found_out_at_his_turn_throws_his_cards_in() -> None:
    # bank_stake 4: seat 2 (4 chips) is dealt in (bank 4), but after seat 0 loses 4 the bank
    # holds 8, so the minimum is 5 and seat 2 is out when his turn comes.
    g = load(players=4, bank_stake=4)
    d = dealt(g, "2S", "3H", "4S", "5H", "6S", "7H", "KC",
              chips=[1000, 1000, 4, 1000], out=[1])
    assert pub(d)["punters"] == [0, 2]
    assert [str(c) for c in d.view(2).hand] == ["3H", "5H", "7H"]
    d.play("stake 4")
    p = pub(d, 1)
    assert p["out"] == [1, 2] and p["round"] == 2 and d.to_move == 0
    used = sorted(parse_card(c) for c in ("2S", "4S", "6S", "KC", "3H", "5H", "7H"))
    assert p["deck_parts"][-1] == {"size": 7, "cards": [format_card(c) for c in used]}
    assert d.view(2).hand == () and p["chips"] == [996, 1000, 4, 996] and p["bank"] == 8
    assert p["previous"][1] == {"seat": 2, "stake": None, "turned": None,
                                "cards": ["3H", "5H", "7H"], "won": None}


# ------------------------------------------------------------------------------------------------
# Scenarios 4 and 5: the bank triples or breaks


def test_scenario_4_tripling_ends_the_bank_at_once() -> None:
    g = load(players=5)  # banker 4, punters 0..3
    spades = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"]
    d = dealt(g, *spades, "AS", "AH", "AD")  # every punter loses
    assert d.to_move == 0
    d.play("stake 100")
    d.play("stake 50")
    assert pub(d)["bank"] == 250 and d.to_move == 2
    d.play("stake 60")
    assert d.is_over and d.to_move is None
    p = pub(d)
    assert p["outcome"] == "tripled" and p["bank"] == 0
    assert p["chips"] == [900, 950, 940, 1000, 900 + 310]
    assert d.result == [-100, -50, -60, 0, 210]
    assert [s["seat"] for s in p["settled"]] == [0, 1, 2]  # seat 3 did not play
    assert len(d.view(3).hand) == 3
    assert d.legal_moves() == []
    # Exactly three times the bank stake is enough.
    d = dealt(g, *spades, "AS", "AH", "AD")
    d.play("stake 100")
    d.play("stake 100")
    assert d.is_over and pub(d)["outcome"] == "tripled" and d.result == [-100, -100, 0, 0, 200]
    d = dealt(g, *spades, "AS", "AH", "AD")
    d.play("stake 100")
    d.play("stake 99")
    assert not d.is_over and pub(d)["bank"] == 299 and d.to_move == 2


def test_scenario_5_break() -> None:
    d = dealt(GAME, "AS", "AH", "KS", "KH", "QS", "QH", "2S", "2H")
    d.play("stake 60")
    assert pub(d)["bank"] == 40
    assert legal(d) == stakes(5, 40)
    d.play("stake 40")
    assert d.is_over
    assert pub(d)["outcome"] == "broken" and pub(d)["bank"] == 0
    assert d.result == [60, 40, -100]


def test_no_punter_can_stake_ends_the_bank() -> None:
    d = dealt(GAME, chips=[3, 0, 1000])
    assert d.is_over and pub(d)["outcome"] == "no_punters"
    assert d.result == [0, 0, 0] and pub(d)["out"] == [0, 1]


# ------------------------------------------------------------------------------------------------
# Scenario 6: continuity and conservation


def test_scenario_6_used_cards_go_under_the_deck() -> None:
    top = ["2S", "3S", "4S", "5S", "6S", "7S", "AC", "AD"]
    nxt = ["8H", "9H", "TH", "JH", "QH", "KH"]
    d = dealt(GAME, *top, *nxt)
    d.play("stake 5")
    d.play("stake 5")  # both lose (clubs/diamonds turned): the round is over
    p = pub(d)
    assert p["round"] == 2 and p["bank"] == 110 and d.to_move == 0
    # The next round deals on from the top, without a reshuffle.
    assert [str(c) for c in d.view(0).hand] == ["8H", "TH", "QH"]
    assert [str(c) for c in d.view(1).hand] == ["9H", "JH", "KH"]
    # The 8 used cards lie under the deck, in an order shuffled from the deal's seed.
    assert Counter(d._deck[-8:]) == Counter(parse_card(c) for c in top)
    assert p["deck_parts"] == [
        {"size": 96, "cards": None},
        {"size": 8, "cards": [format_card(c) for c in sorted(parse_card(c) for c in top)]},
    ]
    assert p["stock"] == 104 - 6
    assert Counter(d._deck + d._hands[0] + d._hands[1] + d._used) == Counter(FULL)
    again = dealt(GAME, *top, *nxt)
    again.play("stake 5")
    again.play("stake 5")
    assert again._deck == d._deck
    other = dealt(GAME, *top, *nxt, seed=12345)
    other.play("stake 5")
    other.play("stake 5")
    assert Counter(other._deck[-8:]) == Counter(d._deck[-8:])


# ------------------------------------------------------------------------------------------------
# Scenario 7 and the match


def test_scenario_7_nobody_banks_twice_in_a_row() -> None:
    for seed in range(6):
        m = load(players=3, banks_per_player=3).match(seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            m.play(rng.choice(m.legal_moves()))
        dealers = [d.dealer for d in m.deals]
        assert all(a != b for a, b in itertools.pairwise(dealers))


def _fake_match(game: Banchok, dealers: list[int], chips: list[int],
                out: tuple[int, ...] = ()) -> Any:
    deals = []
    for d in dealers:
        deal = game.deal(seed=1, dealer=d)
        assert isinstance(deal, BanchokDeal)
        deals.append(deal)
    deals[-1]._chips = list(chips)
    deals[-1]._out = [s in out for s in range(game.players)]
    return SimpleNamespace(deals=deals)


def test_bank_passes_left_skipping_those_who_cannot_bank() -> None:
    g = load(players=4, banks_per_player=2)
    assert isinstance(g, Banchok)
    m = _fake_match(g, [0], [1000, 99, 1000, 1000])
    assert g._next_banker(m) == 2  # seat 1 holds less than the bank stake
    m = _fake_match(g, [0], [1000, 1000, 1000, 1000], out=(1,))
    assert g._next_banker(m) == 2
    m = _fake_match(g, [3], [1000, 1000, 1000, 1000])
    assert g._next_banker(m) == 0
    # 8 banking turns in all; skipped turns count: 0, 1, 2, 3, 0, (1 skipped) 2 uses 7 turns.
    m = _fake_match(g, [0, 1, 2, 3, 0, 2], [1000, 1000, 1000, 1000])
    assert g._next_banker(m) == 3
    m = _fake_match(g, [0, 1, 2, 3, 0, 2, 3], [1000, 1000, 1000, 1000])
    assert g._next_banker(m) is None and g._match_over(m)
    m = _fake_match(g, [0, 1, 2, 3, 0, 1], [1000, 50, 50, 1000])
    assert g._next_banker(m) == 3  # seat 2 skipped (turn 7), seat 3 banks (turn 8)
    m = _fake_match(g, [0, 1, 2, 3, 0, 1, 2], [1000, 1000, 1000, 50])
    assert g._next_banker(m) is None  # seat 3 skipped (turn 8), seat 0 would be turn 9 > 8


def test_match_ends_when_fewer_than_two_can_play_or_nobody_else_can_bank() -> None:
    g = load(players=3, banks_per_player=5)
    assert isinstance(g, Banchok)
    assert g._next_banker(_fake_match(g, [0], [1300, 4, 0])) is None
    assert g._next_banker(_fake_match(g, [0], [1300, 5, 0])) is None  # only seat 0 could bank
    assert g._next_banker(_fake_match(g, [0], [1000, 5, 100])) == 2


def test_first_banker_draws_the_lowest_card_and_ties_draw_again() -> None:
    class Stacked(random.Random):
        def __init__(self, orders: list[list[str]]) -> None:
            super().__init__(0)
            self.orders = orders

        def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
            top = [parse_card(c) for c in self.orders.pop(0)]
            x[:] = top + x[len(top):]

    assert GAME._first_dealer(Stacked([["5S", "2H", "3C"]])) == 1
    # Seats 1 and 2 tie with twos (suits are not compared); they draw again: K♦ vs 9♠.
    assert GAME._first_dealer(Stacked([["5S", "2H", "2C"], ["KD", "9S"]])) == 2
    low = load(ace_low=True)
    assert low._first_dealer(Stacked([["AS", "2H", "3C"]])) == 0
    assert GAME._first_dealer(Stacked([["AS", "2H", "3C"]])) == 1
    # From a match seed: deterministic, and every seat can be first.
    firsts = {GAME.match(seed=s).first_dealer for s in range(30)}
    assert firsts == {0, 1, 2}
    assert GAME.match(seed=7).first_dealer == GAME._first_dealer(
        random.Random(derive_seed(7, "first-dealer")))


def test_whole_match_flow_chips_carry_over_and_winners() -> None:
    g = load(players=3, banks_per_player=2)
    m = g.match(seed=3, dealer=1)
    bot = load_bot("heuristic", g, seed=1)
    while not m.is_over:
        assert m.to_move is not None
        m.play(bot.choose(m.view(m.to_move)))
    dealers = [d.dealer for d in m.deals]
    assert dealers[0] == 1
    for a, b in itertools.pairwise(m.deals):
        assert isinstance(a, BanchokDeal) and isinstance(b, BanchokDeal)
        assert b._start_chips == a._chips  # chips carry over into the next bank
        assert b._context["chips"] == a._chips
    assert len(m.deals) <= 6
    assert sum(m.scores) == 0
    totals = [0, 0, 0]
    for d in m.deals:
        assert d.result is not None
        totals = [t + r for t, r in zip(totals, d.result)]
    assert m.scores == totals
    assert m.winners == [s for s in range(3) if m.scores[s] == max(m.scores)]
    last = m.deals[-1]
    assert isinstance(last, BanchokDeal)
    assert [1000 + x for x in m.scores] == last._chips
    rec = json.loads(json.dumps(m.record()))
    again = cardplay.replay(rec)
    assert isinstance(again, cardplay.Match) and again.scores == m.scores


def test_three_players_one_rotation_everyone_banks_once() -> None:
    g = load()
    m = g.match(seed=11, dealer=0)
    rng = random.Random(4)
    while not m.is_over:
        m.play(min(m.legal_moves(), key=lambda mv: int(mv.text.split()[1]))
               if rng.random() < 0.9 else rng.choice(m.legal_moves()))
    assert [d.dealer for d in m.deals] == [0, 1, 2]


# ------------------------------------------------------------------------------------------------
# Options and notation


def test_options_defaults_and_errors() -> None:
    o = GAME.options
    assert (o.players, o.start_chips, o.bank_stake, o.banks_per_player, o.ace_low) == \
        (3, 1000, 100, 1, False)
    assert GAME.title == {"en": "Polish Banchok", "ru": "Польский банчок",
                          "de": "Polnischer Bantschok"}
    assert len(GAME._deck_cards()) == 104 and Counter(GAME._deck_cards()) == Counter(FULL)
    for n in (2, 10):
        assert load(players=n).players == n
    for bad in ({"players": 1}, {"players": 11}, {"start_chips": 0}, {"bank_stake": -1},
                {"banks_per_player": 0}, {"ace_low": "maybe"}, {"players": "three"},
                {"piggyback": True}):
        with pytest.raises(OptionError):
            cardplay.load("banchok", **bad)
    with pytest.raises(OptionError, match="bank_stake"):
        cardplay.load("banchok", start_chips=50, bank_stake=100)
    assert load(ace_low="true").options.ace_low is True
    g = load(start_chips=200, bank_stake=50)
    d = seeded(g, 1)
    assert pub(d)["bank"] == 50 and pub(d)["chips"] == [200, 200, 150]
    assert pub(d)["target"] == 150


def test_bad_context_and_decks() -> None:
    with pytest.raises(ValueError, match="chips"):
        GAME.deal(seed=1, chips=[1000, 1000])
    with pytest.raises(ValueError, match="chips"):
        GAME.deal(seed=1, chips=[1000, -1, 1000])
    with pytest.raises(ValueError, match="out"):
        GAME.deal(seed=1, out=[5])
    with pytest.raises(ValueError, match="banker"):
        GAME.deal(seed=1, chips=[1000, 1000, 99])
    with pytest.raises(ValueError, match="banker"):
        GAME.deal(seed=1, out=[2])
    with pytest.raises(ValueError, match="context"):
        GAME.deal(seed=1, bank=5)
    with pytest.raises(ValueError, match="missing"):
        GAME.deal(deck=[format_card(c) for c in range(52)])


@pytest.mark.parametrize(("text", "n"), [
    ("stake 25", 25), ("STAKE 25", 25), ("Stake 5", 5), ("  stake   7 ", 7), ("stake\t9", 9),
    ("stake 1", 1), ("stake 100000", 100000),
])
def test_notation_accepted(text: str, n: int) -> None:
    assert GAME.code_of(text) == 52 + n
    assert GAME.parse_move(text).text == f"stake {n}"
    assert str(GAME.move(52 + n)) == f"stake {n}"


@pytest.mark.parametrize("text", [
    "stake 0", "stake 01", "stake -5", "stake +5", "stake", "stake 2.5", "stake 5x", "25",
    "stake5", "stakes 5", "AS", "buy", "", "stake ٥", "stake 5 5", "bet 5", "stake 0x10",
])
def test_notation_rejected(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="stake N"):
        GAME.code_of(text)
    d = GAME.deal(seed=1)
    with pytest.raises(InvalidMoveError):
        d.play(text)


def test_out_of_range_stakes_are_illegal() -> None:
    d = GAME.deal(seed=1)
    for text in ("stake 4", "stake 101", "stake 1000000"):
        with pytest.raises(IllegalMoveError, match="legal moves"):
            d.play(text)
    with pytest.raises(IllegalMoveError, match="more than any bank"):
        d.play("stake " + "9" * 5000)
    with pytest.raises(IllegalMoveError):
        d.play("stake 5", seat=1)
    assert d.history == []


def test_rules_texts() -> None:
    doc = GAME.rules_summary()
    assert "stake N" in doc and "52 + N" in doc and "ace_low" in doc
    assert "stake N" in RULES_RU and "банк" in RULES_RU


# ------------------------------------------------------------------------------------------------
# Views and hidden information


def test_views_show_cards_only_when_settled() -> None:
    d = dealt(GAME, "AS", "2C", "KH", "3C", "TD", "4C", "QS", "5H")
    for s in (1, 2):
        v = d.view(s).to_dict()
        assert v["public"]["settled"] == [] and "AS" not in json.dumps(v)
    assert d.view(2).hand == () and d.view(2).legal_moves == ()
    d.play("stake 5")
    for s in range(3):
        p = pub(d, s)
        assert p["settled"] == [{"seat": 0, "stake": 5, "turned": "QS",
                                 "cards": ["AS", "KH", "TD"], "won": True}]
        assert "5H" not in json.dumps(d.view(s).to_dict())  # the next card: hidden from all
    assert [str(c) for c in d.view(1).hand] == ["2C", "3C", "4C"]
    assert d.view(0).hand == () and d.view(2).hand == ()


def test_views_do_not_depend_on_hidden_cards() -> None:
    # A copy-aware leak test: change another punter's hidden cards and the deck's order (within
    # what the seat cannot know) and every other seat's view stays the same.
    for players in (3, 10):
        g = load(players=players)
        rng = random.Random(players)
        for seed in range(6):
            d = seeded(g, seed)
            while not d.is_over:
                assert isinstance(d, BanchokDeal)
                hidden = [s for s in d._punters if d._hands[s]]
                for s in range(players):
                    others = [o for o in hidden if o != s]
                    if not others:
                        continue
                    before = d.view(s).to_dict()
                    twin = d.copy()
                    assert isinstance(twin, BanchokDeal)
                    o = rng.choice(others)
                    top = twin._parts[0]  # a card of the top part may swap with a hidden one
                    if d._round == 1 or len(twin._deck) == top:
                        j = rng.randrange(3)
                        k = rng.randrange(top)
                        twin._hands[o][j], twin._deck[k] = twin._deck[k], twin._hands[o][j]
                    twin._deck.sort()  # the deck's order is unknown to everyone
                    after = twin.view(s).to_dict()
                    assert after == before
                d.play(rng.choice(d.legal_moves()))


def test_sample_deal_keeps_the_view_and_deals_unknown_cards() -> None:
    g = load(players=4)
    d = dealt(g, "AS", "2C", "2D", "KH", "3C", "3D", "TD", "4C", "4D", "QS")
    v = d.view(0)
    seen = Counter()  # type: Counter[int]
    for i in range(300):
        w = g.sample_deal(v, random.Random(i))
        assert w.view(0).to_dict() == v.to_dict()
        assert Counter(w._deck + [c for h in w._hands for c in h]) == Counter(FULL)
        seen[w._deck[0]] += 1
    # The next card is drawn from the 101 cards seat 0 has not seen: about 3 in each 101.
    assert len(seen) > 40 and seen[parse_card("AS")] <= seen.most_common(1)[0][1]
    # Views of a finished deal are kept too (seat 0 wins 100 with A♠ over Q♠: broken).
    d.play("stake 100")
    assert d.is_over
    for s in range(4):
        w = g.sample_deal(d.view(s), random.Random(s))
        assert w.view(s).to_dict() == d.view(s).to_dict()


def test_sampled_worlds_in_later_rounds_play_on_consistently() -> None:
    g = load(players=6)
    d = seeded(g, 8)
    rng = random.Random(8)
    step = 0
    while not d.is_over:
        assert isinstance(d, BanchokDeal)
        if step % 7 == 0:
            s = rng.randrange(6)
            v = d.view(s)
            w = g.sample_deal(v, random.Random(step))
            assert w.view(s).to_dict() == v.to_dict()
            assert w._parts == d._parts and w._opening == d._opening and w._idx == d._idx
            assert Counter(w._deck + [c for h in w._hands for c in h] + w._used) == \
                Counter(FULL)
            for hand, real in zip(w._hands, d._hands):
                assert len(hand) == len(real)
            while not w.is_over:
                w.apply_code(rng.choice(w.legal_codes()))
                assert sum(w._parts) == len(w._deck)
            assert w.result is not None and sum(w.result) == 0
        d.apply_code(d.legal_codes()[0])
        step += 1
    assert d._round > 6  # later rounds, whose deck tops are earlier rounds' used cards


# ------------------------------------------------------------------------------------------------
# Invariants (Hypothesis)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_chips_conserved_and_every_card_in_one_place(data: st.DataObject) -> None:
    players = data.draw(st.integers(2, 10))
    bank_stake = data.draw(st.integers(1, 150))
    start = data.draw(st.integers(bank_stake, 400))
    g = load(players=players, bank_stake=bank_stake, start_chips=start)
    d = seeded(g, data.draw(st.integers(0, 2**32)))
    assert isinstance(d, BanchokDeal)
    total = start * players
    steps = 0
    while True:
        assert sum(d._chips) + d._bank == total
        assert sum(d.points) == 0 and min(d._chips) >= 0 and d._bank >= 0
        assert Counter(d._deck + [c for h in d._hands for c in h] + d._used) == Counter(FULL)
        assert sum(d._parts) == len(d._deck)
        assert all(len(h) in (0, 3) for h in d._hands) and d._hands[d.dealer] == []
        if d.is_over:
            break
        codes = d.legal_codes()
        d.apply_code(codes[data.draw(st.integers(0, len(codes) - 1))])
        steps += 1
        assert steps < 5000
    assert d.result == d.points and d._bank == 0
    assert sum(d.result) == 0


# ------------------------------------------------------------------------------------------------
# The exact probability of the heuristic bot


_ENGINE_WINS: dict[tuple[tuple[int, ...], int, bool], bool] = {}


def _engine_wins(hand: list[int], turned: int, ace_low: bool = False) -> bool:
    """Whether the engine pays the punter when ``turned`` is turned against ``hand``."""
    key = (tuple(hand), turned, ace_low)
    if key not in _ENGINE_WINS:
        g = GAME2 if not ace_low else load(players=2, ace_low=True)
        d = dealt(g, *(format_card(c) for c in [*hand, turned]))
        d.play("stake 5")
        _ENGINE_WINS[key] = d.points[0] > 0
    return _ENGINE_WINS[key]


@pytest.mark.parametrize("ace_low", [False, True])
def test_probability_equals_brute_force_enumeration(ace_low: bool) -> None:
    rv = load(ace_low=ace_low).rank_values
    rng = random.Random(5)
    hands = [["AS", "AH", "AD"], ["AS", "KH", "TD"], ["3C", "9C", "4D"], ["KH", "KH", "2C"],
             ["2S", "2H", "2D"]]
    for hand_text in hands:
        hand = [parse_card(c) for c in hand_text]
        wins = winning_cards(hand, rv)
        possible = [c for c in range(52) if hand.count(c) < 2]  # a third copy cannot turn up
        assert [wins[c] for c in possible] == [_engine_wins(hand, c, ace_low) for c in possible]
        # A fresh deck: every copy of the 104 except the three in hand, one by one.
        pool = list(FULL)
        for c in hand:
            pool.remove(c)
        brute = sum(_engine_wins(hand, c, ace_low) for c in pool) / len(pool)
        counts = [pool.count(c) for c in range(52)]
        assert math.isclose(win_probability(hand, counts, rv), brute)
        # Small parts: a few random multisets of 1..12 cards.
        for _ in range(5):
            small = rng.sample(FULL, rng.randint(1, 12))
            brute = sum(_engine_wins(hand, c, ace_low) for c in small) / len(small)
            counts = [small.count(c) for c in range(52)]
            assert math.isclose(win_probability(hand, counts, rv), brute)
    assert win_probability([0], [0] * 52, rv) == 0.0


def test_rules_5_7_example_three_aces() -> None:
    # A♠ A♥ A♦ against a fresh deck: 78 spades, hearts and diamonds less the 3 held, of 101.
    d = dealt(GAME, "AS", "2C", "AH", "3C", "AD", "4C")
    assert math.isclose(win_probability_of_view(d.view(0), GAME.rank_values), 75 / 101)
    # Seat 1's clubs 2-3-4 win only against the other 2, 3 and 4 of clubs.
    assert math.isclose(win_probability_of_view(d.view(1), GAME.rank_values), 3 / 101)


def test_probability_matches_a_simulation_of_100000_rounds() -> None:
    # Plain ints: seat 0's cards are fixed; each simulated round deals the other punter 3 hidden
    # cards from the shuffled candidates, then turns the next one. The exact chance ignores the
    # hidden cards (they are exchangeable with the rest of the part).
    rv = GAME.rank_values
    d = dealt(GAME, "AS", "2D", "KH", "3D", "TD", "4D")
    fresh = list(FULL)
    for c in (parse_card("AS"), parse_card("KH"), parse_card("TD")):
        fresh.remove(c)
    small = [parse_card(c) for c in ("KS", "AS", "QH", "2H", "9D", "TD", "JD", "3C", "7C")]
    cases = [
        ([parse_card(c) for c in ("AS", "KH", "TD")], fresh,
         win_probability_of_view(d.view(0), rv)),
        ([parse_card(c) for c in ("QS", "5H", "TD")], small, None),
    ]
    n = 100_000
    for hand, pool, exact in cases:
        counts = [pool.count(c) for c in range(52)]
        p = win_probability(hand, counts, rv)
        if exact is not None:
            assert math.isclose(p, exact)
        wins_of = winning_cards(hand, rv)
        work = list(pool)
        m = len(work)
        rnd = random.Random(2024).random
        wins = 0
        for _ in range(n):
            # A partial shuffle: 3 hidden cards for the other punter, then the turned card.
            j = int(rnd() * m)
            work[0], work[j] = work[j], work[0]
            j = 1 + int(rnd() * (m - 1))
            work[1], work[j] = work[j], work[1]
            j = 2 + int(rnd() * (m - 2))
            work[2], work[j] = work[j], work[2]
            j = 3 + int(rnd() * (m - 3))
            work[3], work[j] = work[j], work[3]
            wins += wins_of[work[3]]
        se = math.sqrt(p * (1 - p) / n)
        assert abs(wins / n - p) < 3 * se, (wins / n, p, se)


def test_knowledge_is_exact_for_the_last_punter_of_a_round() -> None:
    # When every other punter of the round is settled nothing is hidden: the candidates for the
    # next card are exactly the cards left in the deck's top part, in later rounds too.
    g = load(players=10)
    checked = later = 0
    for seed in range(4):
        d = seeded(g, seed)
        while not d.is_over:
            assert isinstance(d, BanchokDeal)
            s = d.to_move
            assert s is not None
            if all(not d._hands[o] for o in d._punters if o != s):
                counts = deck_knowledge(d.view(s)).next_card_counts()
                top = Counter(d._deck[:d._parts[0]])
                assert counts == [top[c] for c in range(52)]
                checked += 1
                later += not d._opening
            codes = d.legal_codes()
            d.apply_code(codes[0])  # the minimum keeps the bank alive for many rounds
    assert checked > 20 and later > 10


def test_probability_is_calibrated_against_the_engine() -> None:
    # Over many real decisions (minimum stakes make long banks, so the deck's top part is often
    # an earlier round's few used cards), the wins match the sum of the exact probabilities, and
    # a probability of 0 or 1 is never wrong.
    expected = var = 0.0
    wins = certain = 0
    for seed, players in ((1, 3), (2, 3), (3, 4), (4, 6)):
        g = load(players=players)
        rv = g.rank_values
        d = seeded(g, 100 + seed)
        while not d.is_over:
            s = d.to_move
            assert s is not None
            p = win_probability_of_view(d.view(s), rv)
            before = d.points[s]
            d.apply_code(d.legal_codes()[0])
            won = d.points[s] > before
            if p in (0.0, 1.0):
                certain += 1
                assert won == (p == 1.0)
            expected += p
            var += p * (1 - p)
            wins += won
    assert certain > 10
    assert abs(wins - expected) < 3 * math.sqrt(var) + 1e-9


# ------------------------------------------------------------------------------------------------
# The bot


def test_bot_stakes_from_the_probability() -> None:
    strong = dealt(GAME, "AS", "2C", "AH", "3C", "AD", "4C")
    weak = dealt(GAME, "2S", "AS", "2H", "AH", "2D", "AD")
    bot = load_bot("heuristic", GAME, seed=1)
    assert isinstance(bot, HeuristicBot)
    assert bot.choose(strong.view(0)).text == "stake 100"  # p = 0.74: the maximum
    assert bot.choose(weak.view(0)).text == "stake 5"      # p = 3/101: the minimum
    kelly = HeuristicBot(GAME, kelly=1.0)
    assert kelly.choose(strong.view(0)).text == "stake 100"
    assert choose_stake(0.5, 5, 100, 1000) == 5
    assert choose_stake(0.51, 5, 100, 1000) == 100
    assert choose_stake(0.51, 5, 100, 1000, kelly=1.0) == 20
    assert choose_stake(0.501, 5, 100, 1000, kelly=1.0) == 5
    assert choose_stake(0.9, 5, 50, 1000, kelly=0.5) == 50
    assert choose_stake(0.47, 5, 100, 1000, threshold=0.45) == 100
    assert choose_stake(0.47, 5, 100, 1000, kelly=1.0, threshold=0.45) == 5
    assert choose_stake(0.44, 5, 100, 1000, threshold=0.45) == 5
    risky = HeuristicBot(GAME, threshold=0.0)
    assert risky.choose(weak.view(0)).text == "stake 100"


def test_bot_plays_legal_fast_moves() -> None:
    for players in (2, 3, 10):
        g = load(players=players)
        bots = [load_bot("heuristic", g, seed=s) for s in range(players)]
        moves = 0
        spent = 0.0
        for seed in range(5):
            d = seeded(g, seed)
            while not d.is_over:
                s = d.to_move
                assert s is not None
                v = d.view(s)
                t0 = time.perf_counter()
                mv = bots[s].choose(v)
                spent += time.perf_counter() - t0
                assert mv in v.legal_moves
                d.play(mv, seat=s)
                moves += 1
        assert spent / moves < 0.010
