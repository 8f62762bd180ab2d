"""Independent rules audit of Two-Ten-Jack against RULES.md sections 0 and 3 and DESIGN.md 2.

Every expectation here is derived from the rules text, not from the implementation: a small
reference simulator of RULES 3.3a/3.4/3.5/3.6/3.7 replays whole hands from fixed deck orders and
is compared with the engine move by move, through the public API only (``to_move``,
``legal_moves``, ``view(seat).hand``, ``points``, ``result``, ``is_over``).
"""

from __future__ import annotations

import json
import random

import pytest

import cardplay
from cardplay.engine import Deal, IllegalMoveError, InvalidMoveError, Match, OptionError
from helpers import cards_in, deck_with, hand, legal

RANKS = "23456789TJQKA"
SUITS = "SHDC"
ALL = [r + s for s in SUITS for r in RANKS]
GAME = cardplay.load("two-ten-jack")
POINTS = {"2H": 5, "TH": 5, "JH": 5, "2C": -5, "TC": -5, "JC": -5,
          "2S": 1, "TS": 1, "JS": 1, "AS": 1, "6D": 1}


def interleave(nondealer: str, dealer: str, stock: str = "") -> str:
    """Deck text: RULES 3.3a gives the non-dealer cards 1, 3, ..., 11 and the dealer 2, ..., 12."""
    nd, de = nondealer.split(), dealer.split()
    assert len(nd) == len(de) == 6
    return " ".join(c for pair in zip(nd, de) for c in pair) + (" " + stock if stock else "")


def deal_text(nondealer: str, dealer: str, stock: str = "") -> Deal:
    """A deal with the default dealer (RULES 0.2: the last seat, 1), deck given as one string."""
    return GAME.deal(deck=" ".join(deck_with(interleave(nondealer, dealer, stock))))


# ---------------------------------------------------------------------------------------------
# A reference model written from RULES.md 3.3a-3.7


def is_trump(c: str) -> bool:
    return c[1] == "H" or c == "AS"


def ref_follow(hand_cards: set[str], lead: str, declared: str | None) -> set[str]:
    kind = declared if lead == "AS" else ("TRUMP" if lead[1] == "H" else lead[1])
    if kind in ("TRUMP", "H"):
        f = {c for c in hand_cards if is_trump(c)}
    elif kind == "S":
        f = {c for c in hand_cards if c[1] == "S"}
    else:
        f = {c for c in hand_cards if c[1] == kind}
    return f or {c for c in hand_cards if is_trump(c)} or set(hand_cards)


def ref_lead(hand_cards: set[str]) -> set[str]:
    out = set(hand_cards) - {"AS"}
    if "AS" in hand_cards:
        out |= {"AS=S", "AS=H"}
    return out


def ref_follower_wins(lead: str, reply: str) -> bool:
    if lead == "AS":
        return False
    if reply == "AS":
        return True
    hearts = [c for c in (lead, reply) if c[1] == "H"]
    if hearts:
        return max(hearts, key=lambda c: RANKS.index(c[0])) == reply
    return reply[1] == lead[1] and RANKS.index(reply[0]) > RANKS.index(lead[0])


class RefHand:
    """One hand of Two-Ten-Jack as RULES.md 3.3a-3.7 describe it."""

    def __init__(self, deck: list[str], dealer: int) -> None:
        nd = 1 - dealer
        self.hands: list[set[str]] = [set(), set()]
        for i in range(12):
            self.hands[nd if i % 2 == 0 else dealer].add(deck[i])
        self.stock = deck[12:]
        self.turn: int | None = nd
        self.lead: str | None = None
        self.declared: str | None = None
        self.leader = nd
        self.points = [0, 0]
        self.tricks = 0

    def legal(self) -> set[str]:
        assert self.turn is not None
        h = self.hands[self.turn]
        if self.lead is None:
            return ref_lead(h)
        return ref_follow(h, self.lead, self.declared)

    def play(self, move: str) -> None:
        assert self.turn is not None and move in self.legal()
        seat = self.turn
        if self.lead is None:
            card = "AS" if move.startswith("AS=") else move
            self.declared = {"AS=S": "S", "AS=H": "TRUMP"}.get(move)
            self.hands[seat].remove(card)
            self.lead, self.leader, self.turn = card, seat, 1 - seat
            return
        self.hands[seat].remove(move)
        winner = seat if ref_follower_wins(self.lead, move) else self.leader
        self.points[winner] += POINTS.get(self.lead, 0) + POINTS.get(move, 0)
        if self.stock:
            self.hands[winner].add(self.stock.pop(0))
            self.hands[1 - winner].add(self.stock.pop(0))
        self.tricks += 1
        self.lead = self.declared = None
        self.turn = None if self.tricks == 26 else winner
        self.leader = winner


def check_same(deal: Deal, ref: RefHand) -> None:
    assert deal.to_move == ref.turn
    assert deal.is_over == (ref.turn is None)
    assert deal.points == ref.points
    for s in (0, 1):
        assert hand(deal, s) == ref.hands[s]
    if ref.turn is not None:
        assert legal(deal) == ref.legal()
        assert deal.result is None
    else:
        assert deal.result == ref.points


@pytest.mark.parametrize("dealer", [0, 1])
def test_whole_hands_match_the_reference_model_move_by_move(dealer: int) -> None:
    rng = random.Random(1000 + dealer)
    for _ in range(12):
        deck = list(ALL)
        rng.shuffle(deck)
        deal = GAME.deal(deck=deck, dealer=dealer)
        ref = RefHand(deck, dealer)
        assert deal.dealer == dealer and deal.players == 2
        check_same(deal, ref)
        while ref.turn is not None:
            move = rng.choice(sorted(ref.legal()))
            deal.play(move, seat=ref.turn)
            ref.play(move)
            check_same(deal, ref)
        assert sum(deal.points) == 5
        assert deal.legal_moves() == []


# ---------------------------------------------------------------------------------------------
# Dealing from a fixed order (RULES 0.2, 0.3, 3.3a) and deck validation (DESIGN 2)


def test_default_dealer_is_the_last_seat_and_the_non_dealer_gets_the_odd_cards() -> None:
    deck = deck_with("2S 2H 3S 3H 4S 4H 5S 5H 6S 6H 7S 7H 8D 9D TD")
    d = GAME.deal(deck=" ".join(deck))  # a string, top card first; no dealer given
    assert d.dealer == 1 and d.players == 2 and d.to_move == 0
    assert hand(d, 0) == {"2S", "3S", "4S", "5S", "6S", "7S"}
    assert hand(d, 1) == {"2H", "3H", "4H", "5H", "6H", "7H"}
    assert GAME.deal(seed=5).dealer == 1 and GAME.deal(seed=5).to_move == 0
    d = GAME.deal(deck=deck, dealer=0)
    assert d.to_move == 1 and hand(d, 1) == {"2S", "3S", "4S", "5S", "6S", "7S"}


def test_the_stock_is_drawn_from_the_top_winner_first() -> None:
    # Seat 0 leads 8S and wins (seat 1 has no spade and no trump): seat 0 draws 8D, seat 1 9D.
    d = deal_text("8S 3D 4D 5D 7D 9C", "2C 3C 4C 5C 6C 7C", stock="8D 9D TD JD")
    d.play("8S")
    assert legal(d) == {"2C", "3C", "4C", "5C", "6C", "7C"}
    d.play("7C")
    assert d.to_move == 0 and d.points == [0, 0]
    assert "8D" in hand(d, 0) and "9D" in hand(d, 1)
    assert len(hand(d, 0)) == len(hand(d, 1)) == 6
    # Now seat 1 wins with a higher diamond? It holds 9D: 3D led, 9D beats it; seat 1 draws TD.
    d.play("3D")
    assert legal(d) == {"9D"}
    d.play("9D")
    assert d.to_move == 1
    assert "TD" in hand(d, 1) and "JD" in hand(d, 0)


def test_no_drawing_after_the_twentieth_trick_and_26_tricks_in_all() -> None:
    d = GAME.deal(seed=21)
    tricks = 0
    sizes = []
    while not d.is_over:
        d.play(d.legal_moves()[-1])
        if len(d.history) % 2 == 0:
            tricks += 1
            sizes.append((len(d.view(0).hand), len(d.view(1).hand)))
    assert tricks == 26 and len(d.history) == 52
    assert sizes[:20] == [(6, 6)] * 20
    assert sizes[20:] == [(5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0)]


@pytest.mark.parametrize(
    ("deck", "words"),
    [
        (ALL[:51], ["missing"]),
        ([*ALL, "2S"], ["extra"]),
        ([*ALL[:51], "2S"], ["missing", "extra"]),
        ([*ALL[:51], "XX"], []),
        ([*ALL[:51], "1S"], []),
    ],
)
def test_a_deck_that_is_not_exactly_the_52_cards_is_a_value_error(deck: list[str],
                                                                  words: list[str]) -> None:
    with pytest.raises(ValueError) as info:
        GAME.deal(deck=deck)
    for w in words:
        assert w in str(info.value).lower()


# ---------------------------------------------------------------------------------------------
# The follower's algorithm (RULES 3.5, TTJ-1, TTJ-6) and trick resolution (3.6)


def test_speculation_declared_trumps_with_no_trump_in_hand_allows_any_card() -> None:
    d = deal_text("AS 3D 4D 5D 7D 8D", "KS QS 4C 5C 6D 9C")
    d.play("AS=H")
    assert legal(d) == {"KS", "QS", "4C", "5C", "6D", "9C"}  # spades do not follow a trump lead
    d.play("KS")
    assert d.points == [1, 0] and d.to_move == 0


def test_speculation_declared_spades_void_in_spades_must_trump() -> None:
    d = deal_text("AS 3D 4D 5D 7D 8D", "2H 3H 4C 5C 6D 9C")
    d.play("AS=S")
    assert legal(d) == {"2H", "3H"}
    d.play("2H")  # the A♠ still wins, and takes the +5 of the 2♥
    assert d.points == [6, 0] and d.to_move == 0


def test_speculation_declared_spades_void_in_spades_and_trumps_plays_anything() -> None:
    d = deal_text("AS 3D 4D 5D 7D 8D", "2C 3C 4C 5C 6D 9C")
    d.play("AS=S")
    assert legal(d) == {"2C", "3C", "4C", "5C", "6D", "9C"}
    d.play("2C")
    assert d.points == [-4, 0]


def test_club_lead_speculation_not_allowed_while_holding_a_club() -> None:
    d = deal_text("5C 3D 4D 5D 7D 8D", "AS 9C 2H 3S 4S 6S")
    d.play("5C")
    assert legal(d) == {"9C"}
    with pytest.raises(IllegalMoveError):
        d.play("AS")


def test_diamond_lead_speculation_as_the_only_trump_is_compulsory_and_wins() -> None:
    d = deal_text("KD 3S 4D 5D 7D 8D", "AS 2C 3C 4C 5C 6C")
    d.play("KD")
    assert legal(d) == {"AS"}
    d.play("AS")
    assert d.points == [0, 1] and d.to_move == 1


@pytest.mark.parametrize(
    ("lead", "reply", "winner", "points"),
    [
        ("QH", "2H", 0, 5),   # a lower heart loses to a heart lead; the leader takes the 2♥
        ("2H", "QH", 1, 5),   # a higher heart wins
        ("KH", "AH", 1, 0),
        ("9S", "TS", 1, 1),   # a higher spade wins a spade lead
        ("TS", "9S", 0, 1),
        ("5D", "6D", 1, 1),   # the 6♦ is worth +1
        ("6D", "5D", 0, 1),
        ("JC", "QC", 1, -5),  # the winner of a J♣ takes -5
        ("AC", "2H", 1, 5),   # any heart beats a non-heart lead
        ("KS", "2S", 0, 1),
        ("AD", "TC", 0, -5),  # off-suit discard: the leader wins and takes the 10♣'s -5
    ],
)
def test_trick_winner_and_points(lead: str, reply: str, winner: int, points: int) -> None:
    rest0 = [c for c in ("3D", "4D", "7D", "8D", "9D", "3S") if c not in (lead, reply)]
    filler = ("4S", "5S", "7S", "8S", "9S", "3S") if lead[1] == "C" else \
        ("4C", "5C", "7C", "8C", "9C", "4S")
    rest1 = [c for c in filler if c not in (lead, reply, *rest0)]
    nd = " ".join([lead, *rest0[:5]])
    de = " ".join([reply, *rest1[:5]])
    d = deal_text(nd, de)
    d.play(lead)
    assert reply in legal(d)
    d.play(reply)
    want = [0, 0]
    want[winner] = points
    assert d.points == want
    assert d.to_move == winner


# ---------------------------------------------------------------------------------------------
# Notation (RULES 0.1, 0.4) and errors (DESIGN 2)


def test_every_printed_move_is_canonical_notation() -> None:
    canon = set(ALL) | {"AS=S", "AS=H"}
    rng = random.Random(3)
    for seed in range(4):
        d = GAME.deal(seed=seed)
        while not d.is_over:
            moves = d.legal_moves()
            for m in moves:
                assert str(m) in canon
                assert repr(m) == f"Move({str(m)!r})"
                assert GAME.parse_move(str(m)) == m
            texts = {str(m) for m in moves}
            if len(d.history) % 2 == 0:  # a lead: the A♠ only with its declaration
                assert "AS" not in texts
            else:  # a follow: the A♠ plain, never declared
                assert not texts & {"AS=S", "AS=H"}
            d.play(rng.choice(moves))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10S", "TS"), ("10s", "TS"), ("ts", "TS"), ("♣10", "TC"), ("10♣", "TC"), ("В♥", "JH"),
        ("в♥", "JH"), ("♦К", "KD"), ("к♦", "KD"), ("т♠", "AS"), ("♠т", "AS"), ("2♦", "2D"),
        ("♦6", "6D"), ("A♠=S", "AS=S"), ("a♠=h", "AS=H"), ("♠A=h", "AS=H"), ("♠Т=♥", "AS=H"),
        ("т♠=♠", "AS=S"), ("As=S", "AS=S"), ("aS=H", "AS=H"),
    ],
)
def test_more_accepted_spellings(text: str, canonical: str) -> None:
    assert str(GAME.parse_move(text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["KH=30", "XX", "KH=20", "QS=40", "close", "exchange", "take", "buy", "stand", "stake 5",
     "AS=spades", "AS=trumps", "AS=C", "2S+3S", "AS AS", "T", "10", "0S", "AA", "SS"],
)
def test_text_outside_the_notation_is_an_invalid_move_whoever_sends_it(text: str) -> None:
    d = deal_text("AS 3D 4D 5D 7D 8D", "KS QS 4C 5C 6D 9C")
    for seat in (None, 0, 1):
        with pytest.raises(InvalidMoveError):
            d.play(text, seat=seat)
    assert d.history == [] and d.to_move == 0


def test_illegal_moves_leave_the_deal_unchanged() -> None:
    d = deal_text("AS 3D 4D 5D 7D 8D", "KS QS 4C 5C 6D 9C", stock="2H 3H")
    before = (d.to_move, legal(d), hand(d, 0), hand(d, 1), d.points)
    for text, seat in (("AS", None), ("as", 0), ("KS", None), ("3D", 1), ("AS=S", 1),
                       ("2H", None), ("10♥", None)):
        with pytest.raises(IllegalMoveError):
            d.play(text, seat=seat)
        assert (d.to_move, legal(d), hand(d, 0), hand(d, 1), d.points) == before
        assert d.history == []
    d.play("A♠=♠", seat=0)
    assert d.history and [str(GAME.move(c)) for _, c in d.history] == ["AS=S"]
    with pytest.raises(IllegalMoveError):
        d.play("KS", seat=0)  # out of turn
    with pytest.raises(IllegalMoveError):
        d.play("4C")  # a spade is owed
    d.play("KS", seat=1)
    assert d.points == [1, 0]


def test_no_move_once_the_deal_is_over() -> None:
    d = GAME.deal(seed=2)
    while not d.is_over:
        d.play(d.legal_moves()[0])
    assert d.to_move is None and d.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        d.play("2S")
    with pytest.raises(InvalidMoveError):
        d.play("XX")


def test_result_is_none_until_the_end_then_the_card_points() -> None:
    d = GAME.deal(seed=9)
    while not d.is_over:
        assert d.result is None
        d.play(d.legal_moves()[0])
    assert d.result == d.points and sum(d.result) == 5


# ---------------------------------------------------------------------------------------------
# Options (RULES 0.5, 3.8)


def test_option_names_values_and_errors() -> None:
    for kw in ({"win_check": "end_of_hand"}, {"win_check": "immediate"}, {"target": 31},
               {"target": 1}, {"target": 500}, {"next_dealer": "alternate"},
               {"next_dealer": "loser"}, {"next_dealer": "winner"}):
        g = cardplay.load("two-ten-jack", **kw)
        for k, v in kw.items():
            assert getattr(g.options, k) == v
    with pytest.raises(OptionError) as info:
        cardplay.load("two-ten-jack", win_check="End_Of_Hand?")
    assert "end_of_hand" in str(info.value) and "immediate" in str(info.value)
    with pytest.raises(OptionError) as info:
        cardplay.load("two-ten-jack", next_dealer="right")
    for v in ("alternate", "loser", "winner"):
        assert v in str(info.value)
    with pytest.raises(OptionError) as info:
        cardplay.load("two-ten-jack", trump="hearts")
    for v in ("win_check", "target", "next_dealer"):
        assert v in str(info.value)
    for bad in (0, -1, 2.5, "abc"):
        with pytest.raises(OptionError):
            cardplay.load("two-ten-jack", target=bad)
    with pytest.raises(OptionError):
        cardplay.load("two-ten-jack", show_running_points=True)  # a UI option (RULES 0.5)
    assert isinstance(OptionError("x"), ValueError)


# ---------------------------------------------------------------------------------------------
# Views and hidden information (RULES 0.7, 3.9, 8; DESIGN 2)


def test_views_hold_no_card_the_seat_may_not_know() -> None:
    rng = random.Random(11)
    for seed in range(3):
        d = GAME.deal(seed=seed)
        played: set[str] = set()
        while not d.is_over:
            for s in (0, 1):
                v = d.view(s).to_dict()
                own = set(v["hand"])
                assert own == hand(d, s)
                assert all(c in ALL for c in own)  # canonical strings, never numbers
                assert cards_in(v) <= own | played
                if s != d.to_move:
                    assert v["legal_moves"] == []
                else:
                    assert set(v["legal_moves"]) == legal(d)
                json.dumps(v)
            move = str(rng.choice(d.legal_moves()))
            played.add("AS" if move.startswith("AS=") else move)
            d.play(move)
        assert d.view(0).to_dict()["is_over"] is True


def test_played_cards_and_declaration_are_public() -> None:
    d = deal_text("AS 3D 4D 5D 7D 8D", "KS QS 4C 5C 6D 9C")
    d.play("AS=H")
    v1 = d.view(1).to_dict()
    assert "AS" in cards_in(v1["public"]) or any("AS" in t for _, t in v1["history"])
    assert [1, "AS=H"] not in v1["history"] and [0, "AS=H"] in v1["history"]


# ---------------------------------------------------------------------------------------------
# Matches (RULES 0.6, 3.3, 3.7, 3.8; DESIGN 2)


def play_match(m: Match, pick: int = 0) -> None:
    while not m.is_over:
        assert m.winners == []
        moves = m.legal_moves()
        m.play(moves[pick % len(moves)])


def check_match(m: Match, target: int, rule: str = "alternate") -> None:
    """End condition, scores, winners and dealers of a finished end_of_hand match (RULES 3.7)."""
    results = [d.result for d in m.deals]
    assert all(r is not None and sum(r) == 5 for r in results)
    scores = [0, 0]
    for i, r in enumerate(results):
        assert r is not None
        scores = [scores[0] + r[0], scores[1] + r[1]]
        best = max(scores)
        done = best >= target and scores.count(best) == 1
        assert done == (i == len(results) - 1), (i, scores)
    assert m.scores == scores and m.is_over
    assert m.winners == [scores.index(max(scores))]
    for prev, nxt in zip(m.deals, m.deals[1:]):
        r = prev.result
        assert r is not None
        if rule == "alternate":
            want = 1 - prev.dealer
        elif rule == "loser":
            want = r.index(min(r))
        else:
            want = r.index(max(r))
        assert nxt.dealer == want


@pytest.mark.parametrize("rule", ["alternate", "loser", "winner"])
def test_match_flow_and_next_dealer(rule: str) -> None:
    g = cardplay.load("two-ten-jack", next_dealer=rule, target=40)
    for seed in range(3):
        m = g.match(seed=seed, dealer=seed % 2)
        assert m.deal.dealer == seed % 2 and m.to_move == 1 - seed % 2
        play_match(m, pick=seed)
        check_match(m, 40, rule)
        assert m.to_move is None and m.legal_moves() == []


def test_a_target_of_three_always_ends_after_one_hand() -> None:
    # Every hand distributes +5, so the higher of the two hand totals is at least 3.
    g = cardplay.load("two-ten-jack", target=3)
    for seed in range(4):
        m = g.match(seed=seed)
        first = m.deal
        play_match(m, pick=1)
        assert m.deal is first
        assert m.deal.is_over
        r = m.deal.result
        assert r is not None and m.scores == r
        assert m.winners == [r.index(max(r))]


def test_immediate_ends_at_the_first_trick_that_reaches_the_target() -> None:
    # target 1, immediate: the first hand must stop at the first trick giving a player >= 1,
    # with the match scores equal to that hand's points so far (RULES 0.6, 3.7).
    g = cardplay.load("two-ten-jack", win_check="immediate", target=1)
    for seed in range(6):
        m = g.match(seed=seed)
        first = m.deal
        while not m.is_over:
            assert m.winners == [] and m.deal is first
            assert m.scores == first.points and max(first.points) < 1
            m.play(m.legal_moves()[0])
        assert m.deal is first and not first.is_over and first.result is None
        assert max(first.points) >= 1 and m.scores == first.points
        assert m.winners == [first.points.index(max(first.points))]
        assert m.to_move is None and m.legal_moves() == []
        with pytest.raises(IllegalMoveError):
            m.play(first.legal_moves()[0])


def test_equal_totals_at_the_target_play_another_hand() -> None:
    # RULES 3.7 / TTJ-3: both >= target and equal after a hand: the match goes on.
    g = cardplay.load("two-ten-jack", target=5)
    ties = 0
    for seed in range(120):
        m = g.match(seed=seed)
        play_match(m)
        totals = [0, 0]
        for d in m.deals[:-1]:
            r = d.result
            assert r is not None
            totals = [totals[0] + r[0], totals[1] + r[1]]
            ties += totals[0] == totals[1] >= 5
        check_match(m, 5)
        if ties >= 2:
            break
    assert ties >= 2


def test_end_of_hand_scores_do_not_include_the_hand_in_progress() -> None:
    g = cardplay.load("two-ten-jack", target=1)
    m = g.match(seed=4)
    while not m.deal.is_over:
        assert m.scores == [0, 0] and not m.is_over
        m.play(m.legal_moves()[0])
    assert m.is_over and m.scores == m.deal.result


def test_match_deals_are_new_objects_and_copies_are_independent() -> None:
    m = GAME.match(seed=17, dealer=0)
    first = m.deal
    snapshot = first.copy()
    while snapshot.to_move is not None:
        snapshot.play(snapshot.legal_moves()[0])
    assert m.deal is first and len(first.history) == 0 and first.to_move == 1
    while m.deal is first:
        m.play(m.legal_moves()[0])
    assert m.deal is not first and m.deal.dealer == 1 and m.deal.to_move == 0
    assert first.result is not None and m.scores == first.result
    assert m.deal.history == [] and m.deal.result is None


def test_first_dealer_without_dealer_comes_from_the_seed() -> None:
    seen = set()
    for s in range(16):
        a, b = GAME.match(seed=s), GAME.match(seed=s)
        assert a.deal.dealer == b.deal.dealer
        assert a.to_move == 1 - a.deal.dealer
        assert legal(a) == legal(b)
        seen.add(a.deal.dealer)
    assert seen == {0, 1}


def test_match_record_replays() -> None:
    m = cardplay.load("two-ten-jack", target=12).match(seed=8)
    play_match(m, pick=2)
    again = cardplay.replay(json.loads(json.dumps(m.record())))
    assert isinstance(again, Match)
    assert again.scores == m.scores and again.winners == m.winners and again.is_over


def test_deal_records_replay() -> None:
    rng = random.Random(5)
    for kwargs in ({"seed": 44}, {"deck": " ".join(deck_with("AS KS")), "dealer": 0}):
        d = GAME.deal(**kwargs)
        for _ in range(31):
            d.play(rng.choice(d.legal_moves()))
        again = cardplay.replay(json.loads(json.dumps(d.record())))
        assert isinstance(again, Deal)
        for s in (0, 1):
            assert again.view(s).to_dict() == d.view(s).to_dict()
