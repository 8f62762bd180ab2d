"""Independent rules audit of Maltese Twenty: RULES.md sections 0, 1, 8 and 9 (MT), DESIGN.md 2.

Every expectation is derived from the rules text, not from the implementation: a small reference
model of RULES 1.2a-1.5 replays whole rounds from fixed deck orders and is compared with the engine
move by move through the public API only (``to_move``, ``legal_moves``, ``view(seat)``, ``points``,
``result``, ``is_over``); the other tests pin single rules with fixed decks and exact outcomes.
"""

from __future__ import annotations

import json
import random

import pytest

import cardplay
from cardplay.engine import Deal, IllegalMoveError, InvalidMoveError, Match, OptionError
from helpers import hand, legal

RANKS = "23456789TJQKA"
SUITS = "SHDC"
ALL = [r + s for s in SUITS for r in RANKS]
VAL = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10, **{str(i): i for i in range(2, 10)}}
GAME = cardplay.load("maltese-twenty")
BOTH = cardplay.load("maltese-twenty", round_end="both_empty")


def val(card: str) -> int:
    return VAL[card[0]]


# ---------------------------------------------------------------------------------------------
# A reference model written from RULES.md 1.2a-1.5


class RefRound:
    """One round as RULES 1.2a/1.3/1.4/1.5 describe it."""

    def __init__(self, deck: list[str], dealer: int = 1, both_empty: bool = False) -> None:
        self.starter = (dealer + 1) % 2
        s, r = self.starter, 1 - self.starter
        self.bonus = abs(val(deck[0]) - val(deck[1])) or 10
        self.hands: list[list[str]] = [[], []]
        self.hands[s] = list(deck[2:12:2])   # cards 3, 5, 7, 9, 11
        self.hands[r] = list(deck[3:12:2])   # cards 4, 6, 8, 10, 12
        self.stock = list(deck[12:])
        self.tally: list[str] = []
        self.cleared: list[str] = []
        self.scores = [0, 0]
        self.lps: int | None = None
        self.turn: int | None = s
        self.both_empty = both_empty
        self.moves = 0

    def play(self, card: str) -> int:
        """Play ``card`` for the seat to move; return what that play scored."""
        p = self.turn
        assert p is not None
        self.hands[p].remove(card)
        self.tally.append(card)
        self.moves += 1
        t, n = sum(map(val, self.tally)), len(self.tally)
        gained = 0
        if t == 20:
            gained, self.lps = 10, p
        elif t > 20:
            gained = -20
        elif n >= 5:
            gained, self.lps = 15 * 2 ** (n - 5), p
        self.scores[p] += gained
        if t >= 20:
            self.cleared += self.tally
            self.tally = []
        if not self.hands[p]:
            if self.stock:
                self.hands[p], self.stock = self.stock[:5], self.stock[5:]
            elif not self.both_empty or not self.hands[1 - p]:
                self.turn = None
                return gained
        self.turn = 1 - p
        return gained

    @property
    def points(self) -> list[int]:
        pts = list(self.scores)
        if self.turn is None and self.lps is not None:
            pts[self.lps] += self.bonus
        return pts


def view_text(deal: Deal | Match, seat: int) -> str:
    """The view's JSON without the seat's own hand and legal moves."""
    d = deal.view(seat).to_dict()
    d.pop("hand")
    d.pop("legal_moves")
    return json.dumps(d, ensure_ascii=False)


def shows(text: str, card: str) -> bool:
    return f'"{card}"' in text


def check_same(deal: Deal, ref: RefRound, leaks: bool = False) -> None:
    assert deal.to_move == ref.turn
    assert deal.is_over == (ref.turn is None)
    assert deal.points == ref.points
    for s in (0, 1):
        assert hand(deal, s) == set(ref.hands[s])
    if ref.turn is not None:
        assert legal(deal) == set(ref.hands[ref.turn])
        assert deal.result is None
        assert deal.view(1 - ref.turn).legal_moves == ()
    else:
        assert deal.result == ref.points
        assert deal.legal_moves() == []
    if leaks and ref.turn is not None:
        for s in (0, 1):
            text = view_text(deal, s)
            for c in [*ref.hands[1 - s], *ref.stock]:
                assert not shows(text, c), (s, c)
            for c in [*ref.tally, *ref.cleared]:
                assert shows(text, c), (s, c)


@pytest.mark.parametrize("dealer", [0, 1])
@pytest.mark.parametrize("round_end", ["first_empty", "both_empty"])
def test_whole_rounds_match_the_reference_model_move_by_move(dealer: int, round_end: str) -> None:
    game = cardplay.load("maltese-twenty", round_end=round_end)
    rng = random.Random(7 + dealer + (10 if round_end == "both_empty" else 0))
    for k in range(6):
        deck = list(ALL)
        rng.shuffle(deck)
        deal = game.deal(deck=deck, dealer=dealer)
        ref = RefRound(deck, dealer, round_end == "both_empty")
        assert deal.dealer == dealer and deal.players == 2
        check_same(deal, ref, leaks=k == 0)
        while ref.turn is not None:
            card = rng.choice(sorted(ref.hands[ref.turn]))
            deal.play(card, seat=ref.turn)
            ref.play(card)
            check_same(deal, ref, leaks=k == 0)
        assert ref.moves == (50 if round_end == "both_empty" else 49)
        assert len(deal.history) == ref.moves


# ---------------------------------------------------------------------------------------------
# Dealing from a fixed order (RULES 0.2, 0.3, 1.2a) and deck validation (DESIGN 2)


def in_order_plays(deck: list[str]) -> list[str]:
    """The 50 cards in the order played when each player plays his cards in the order received
    (RULES 1.2a: starter 3, 5, ..., 11, responder 4, ..., 12; then stock chunks of 5, starter
    first)."""
    st = deck[2:12:2] + [c for k in range(4) for c in deck[12 + 10 * k:17 + 10 * k]]
    rs = deck[3:12:2] + [c for k in range(4) for c in deck[17 + 10 * k:22 + 10 * k]]
    return [c for pair in zip(st, rs) for c in pair]


def test_dealer_zero_makes_b_the_starter_who_gets_the_odd_cards_and_refills_first() -> None:
    deck = list(ALL)
    random.Random(3).shuffle(deck)
    deal = GAME.deal(deck=" ".join(deck), dealer=0)  # a string, top card first
    assert deal.dealer == 0 and deal.to_move == 1
    assert hand(deal, 1) == set(deck[2:12:2]) and hand(deal, 0) == set(deck[3:12:2])
    for card in in_order_plays(deck)[:9]:
        deal.play(card)
    # seat 1 played its 5th card: it holds cards 13-17 of the deck; seat 0 still 1 card
    assert hand(deal, 1) == set(deck[12:17]) and hand(deal, 0) == {deck[11]}
    assert deal.to_move == 0
    deal.play(deck[11])
    assert hand(deal, 0) == set(deck[17:22]) and deal.to_move == 1


def test_default_dealer_is_b_and_a_acts_first_from_a_seed_too() -> None:
    for seed in range(5):
        deal = GAME.deal(seed=seed)
        assert deal.dealer == 1 and deal.players == 2 and deal.to_move == 0
        assert len(hand(deal, 0)) == len(hand(deal, 1)) == 5
    assert GAME.deal(seed=11).view(0).to_dict() == GAME.deal(seed=11).view(0).to_dict()
    assert GAME.deal(seed=11).view(0).to_dict() != GAME.deal(seed=12).view(0).to_dict()


@pytest.mark.parametrize("dealer", [0, 1])
def test_round_ends_right_after_the_starters_25th_card(dealer: int) -> None:
    deck = list(ALL)
    random.Random(40 + dealer).shuffle(deck)
    plays = in_order_plays(deck)
    starter = (dealer + 1) % 2
    for game, n in ((GAME, 49), (BOTH, 50)):
        deal = game.deal(deck=deck, dealer=dealer)
        for i, card in enumerate(plays[:n]):
            assert not deal.is_over and deal.result is None
            assert deal.to_move == (starter if i % 2 == 0 else 1 - starter)
            deal.play(card)
        assert deal.is_over and deal.to_move is None and deal.legal_moves() == []
        assert deal.result == deal.points
        if n == 49:
            assert hand(deal, 1 - starter) == {plays[49]} and hand(deal, starter) == set()
            with pytest.raises(IllegalMoveError):
                deal.play(plays[49])
        else:
            assert hand(deal, 0) == hand(deal, 1) == set()


@pytest.mark.parametrize(("deck", "message"), [
    (ALL[:-1], "AC"),                       # missing the ace of clubs
    ([*ALL, "AS"], "AS"),                   # 53 cards, one extra
    (["KH", *ALL[1:]], "2S"),               # a duplicate KH, the 2S missing
    ([*ALL[:-1], "XX"], "XX"),              # not a card at all
    (ALL + ALL, "52"),                      # two decks
])
def test_deck_orders_that_are_not_exactly_the_52_cards_are_rejected(deck: list[str],
                                                                    message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAME.deal(deck=deck)


def test_deck_order_accepts_the_other_card_spellings() -> None:
    deck = list(ALL)
    random.Random(8).shuffle(deck)
    spelled = [("10" + c[1].lower()) if c[0] == "T" else c.lower() for c in deck]
    a = GAME.deal(deck=spelled)
    b = GAME.deal(deck=deck)
    assert a.view(0).to_dict() == b.view(0).to_dict()
    assert a.view(1).to_dict() == b.view(1).to_dict()


# ---------------------------------------------------------------------------------------------
# Scoring rules (RULES 1.4, 1.5, MT-2, MT-5, MT-8) on fixed decks


def deck_for(plays: list[str], bonus: tuple[str, str] = ("7D", "3C")) -> list[str]:
    """A deck under which starter and responder can play ``plays`` alternately (starter first),
    each in the order received; the unnamed cards follow in ALL order."""
    used = [*bonus, *plays]
    assert len(set(used)) == len(used)
    seq = plays + [c for c in ALL if c not in used]
    st, rs = seq[0::2], seq[1::2]
    deck = list(bonus) + [c for i in range(5) for c in (st[i], rs[i])]
    for k in range(1, 5):
        deck += st[5 * k:5 * k + 5] + rs[5 * k:5 * k + 5]
    assert sorted(deck) == sorted(ALL)
    return deck


def gains(deal: Deal, plays: list[str]) -> list[int]:
    out = []
    for card in plays:
        seat = deal.to_move
        assert seat is not None
        before = deal.points[seat]
        deal.play(card)
        out.append(deal.points[seat] - before)
    return out


def test_tally_count_restarts_after_an_exact_twenty() -> None:
    # 9 + 5 + 6 = 20: A +10, cleared. The new Tally 2 3 4 5 A = 15 has 5 cards: B +15 (not more).
    plays = ["9S", "5H", "6D", "2S", "3S", "4S", "5S", "AS"]
    deal = GAME.deal(deck=deck_for(plays))
    assert gains(deal, plays) == [0, 0, 10, 0, 0, 0, 0, 15]
    assert deal.points == [10, 15]


def test_tally_count_restarts_after_an_over_twenty() -> None:
    # 9 + 8 + 7 = 24: A -20, cleared. Then 2 3 4 5 A: B +15; 3 (18): A +30.
    plays = ["9S", "8H", "7S", "2S", "3S", "4S", "5S", "AS", "3H"]
    deal = GAME.deal(deck=deck_for(plays))
    assert gains(deal, plays) == [0, 0, -20, 0, 0, 0, 0, 15, 30]
    assert deal.points == [10, 15]


def test_exact_twenty_takes_precedence_on_the_tenth_card() -> None:
    # A A A A 2 2 2 2 3 (15, nine cards: 15, 30, 60, 120, 240), then 5 makes exactly 20: +10.
    plays = ["AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C", "3S", "5S"]
    deal = GAME.deal(deck=deck_for(plays, bonus=("KH", "QS")))
    assert gains(deal, plays) == [0, 0, 0, 0, 15, 30, 60, 120, 240, 10]
    assert deal.points == [315, 160]
    # the Tally was cleared: the next card starts a new one (no score for a 1-card Tally)
    nxt = deal.legal_moves()[0]
    before = deal.points
    deal.play(nxt)
    assert deal.points == before


def test_over_twenty_on_the_sixth_card_costs_twenty() -> None:
    plays = ["2S", "3S", "4S", "5S", "AS", "9H"]  # 15 with 5 cards (A +15), then 24: B -20
    deal = GAME.deal(deck=deck_for(plays))
    assert gains(deal, plays) == [0, 0, 0, 0, 15, -20]


def test_ten_valued_cards_all_count_ten() -> None:
    for pair in (["TS", "KH"], ["JD", "QC"], ["KS", "10H"], ["AS", "9H"]):
        canon = [("T" + c[-1]) if c.startswith("10") else c for c in pair]
        deal = GAME.deal(deck=deck_for(canon))
        assert gains(deal, pair) == ([0, 0] if pair[0] == "AS" else [0, 10])
    deal = GAME.deal(deck=deck_for(["AS", "9H", "TS"]))  # the ace counts 1: 1 + 9 + 10 = 20
    assert gains(deal, ["AS", "9H", "TS"]) == [0, 0, 10]


@pytest.mark.parametrize(("first", "second", "bonus"), [
    ("7D", "3C", 4), ("KH", "JS", 10), ("AC", "AD", 10), ("AS", "KS", 9), ("TC", "2D", 8),
    ("KS", "AS", 9), ("2D", "TC", 8), ("QH", "TS", 10), ("9C", "AH", 8), ("5S", "5H", 10),
])
def test_the_bonus_goes_to_the_last_positive_scorer(first: str, second: str, bonus: int) -> None:
    # A makes exact 20 on his first card of a Tally 9 + 5 + 6; the rest of the round is played in
    # the order received; compare with the reference model, then check the bonus arithmetic.
    plays = ["9H", "5C", "6C"]
    deck = deck_for(plays, bonus=(first, second))
    ref = RefRound(deck)
    deal = GAME.deal(deck=deck)
    for card in in_order_plays(deck)[:49]:
        deal.play(card)
        ref.play(card)
    assert ref.bonus == bonus
    assert deal.is_over
    expected = list(ref.scores)
    if ref.lps is not None:
        expected[ref.lps] += bonus
    assert deal.result == deal.points == expected


def cards(text: str) -> list[str]:
    return text.split()


# Decks found offline with the reference model; every play is "the card received earliest".
LAST_EXACT = cards("3S 9H 7S 9S 6S TH 2D QH 8C 4S JC KD AS 8H JS QC QS 4D 7D 2C 7C 3C 6C 4H AC 5H "
                    "8S 5C 7H KS 4C 6D 5S 3D 2H 9D TS TC KH 2S AD KC 6H 5D 9C QD JH 8D AH 3H JD TD")
BOTH_OVER = cards("QC 2D 3H QS KH 3D QD 3C QH 4H 5D AS 2S 8H 5H 5C 8S AH 4C 7S 7H 3S 6H JD 4S 6C "
                   "9C JH KC 8C 6S 9S TH 6D 7D 2C 2H TS 9D 9H 8D 5S JS TD 4D 7C KD TC AC JC AD KS")
BOTH_TALLY = cards("KC 7H 9H 9S 8C QH AS 4D 4H JS 7C KH 6H TD QC 8H 6D 3H JH 9D 2D 4S 8D KD 7D 8S "
                    "KS 5D QD TH QS 3D 2H 5S 5H JD TS 7S 4C 3S 2S 6C TC JC AH 2C 5C 6S 9C 3C AD AC")
D0_LAST_TALLY = cards("4H QH 6D 3C 8S 9C 4S 8C 3S 2S 5C 6H TC 2H 5D AD 7D 3D 7H AC KH 9H 6S "
                      "JH TS 8H JS JD 9S 9D 7C QD 8D 6C 5H TH KD TD 4D KC 7S 3H QS AS 2D 4C "
                      "AH 5S KS QC 2C JC")


def test_the_starters_25th_card_scores_exact_twenty_and_takes_the_bonus() -> None:
    plays = in_order_plays(LAST_EXACT)
    deal = GAME.deal(deck=LAST_EXACT)
    for card in plays[:48]:
        deal.play(card)
    assert deal.points == [-120, -50] and deal.result is None
    assert plays[47:49] == ["JD", "JH"]
    deal.play(plays[48])  # JH on JD: exactly 20, +10, then the bonus |3 - 9| = 6
    assert deal.is_over
    assert deal.result == deal.points == [-120 + 10 + 6, -50]


def test_both_empty_a_last_card_over_twenty_does_not_take_the_bonus() -> None:
    plays = in_order_plays(BOTH_OVER)
    deal = BOTH.deal(deck=BOTH_OVER)
    for card in plays[:49]:
        deal.play(card)
    assert not deal.is_over and deal.result is None and deal.to_move == 1
    assert deal.points == [-150, -65]
    deal.play(plays[49])  # the responder's last card goes over: -20; A keeps the bonus |10 - 2|
    assert deal.is_over
    assert deal.result == deal.points == [-150 + 8, -85]
    # under the default the same deal ends one card earlier: B's last card is never played
    deal = GAME.deal(deck=BOTH_OVER)
    for card in plays[:49]:
        deal.play(card)
    assert deal.is_over and deal.result == [-150 + 8, -65]


def test_both_empty_a_last_card_tally_score_takes_the_bonus() -> None:
    plays = in_order_plays(BOTH_TALLY)
    ref = RefRound(BOTH_TALLY, both_empty=True)
    deal = BOTH.deal(deck=BOTH_TALLY)
    for card in plays:
        gained = ref.play(card)
        deal.play(card)
    assert gained == 30 and ref.lps == 1 and ref.bonus == 3  # A +15 (5-Tally), then B +30
    assert deal.result == deal.points == [-65, -60 + 3]
    # the default: A's 25th card (a positive score) ends the round and A gets the bonus
    deal = GAME.deal(deck=BOTH_TALLY)
    for card in plays[:49]:
        deal.play(card)
    assert deal.is_over and deal.result == [-65 + 3, -90]


def test_dealer_zero_round_ends_after_bs_25th_card_which_takes_the_bonus() -> None:
    plays = in_order_plays(D0_LAST_TALLY)
    deal = GAME.deal(deck=D0_LAST_TALLY, dealer=0)
    assert deal.to_move == 1
    for card in plays[:48]:
        deal.play(card)
    assert deal.to_move == 1 and deal.points == [-120, -90]
    deal.play(plays[48])  # B's 25th card: a 5-Tally, +15; the round ends; bonus |4 - 10| = 6
    assert deal.is_over and hand(deal, 0) == {plays[49]} and hand(deal, 1) == set()
    assert deal.result == deal.points == [-120, -90 + 15 + 6]


# ---------------------------------------------------------------------------------------------
# Notation (RULES 0.1, 0.4) and errors (DESIGN 2)


@pytest.mark.parametrize(("text", "card"), [
    ("10s", "TS"), ("10S", "TS"), ("♣10", "TC"), ("10♣", "TC"), ("t♦", "TD"), ("♦T", "TD"),
    ("т♠", "AS"), ("♠Т", "AS"), ("д♥", "QH"), ("♥д", "QH"), ("в♣", "JC"), ("♣В", "JC"),
    ("к♦", "KD"), ("♦К", "KD"), ("♠a", "AS"), ("Ah", "AH"), ("aH", "AH"), ("2c", "2C"),
    ("9♦", "9D"), ("♦9", "9D"), ("Jd", "JD"), ("kS", "KS"),
])
def test_every_card_spelling_plays_the_canonical_card(text: str, card: str) -> None:
    deal = GAME.deal(deck=deck_for([card]))
    assert card in deal.legal_moves()
    deal.play(text)
    assert deal.view(1).history == ((0, card),)
    assert card not in hand(deal, 0)


def test_legal_moves_print_canonically() -> None:
    plays = ["TH", "2S", "JC", "3S", "QD", "4S", "KS", "5S", "AH", "6S"]
    deal = GAME.deal(deck=deck_for(plays))
    assert sorted(str(m) for m in deal.legal_moves()) == sorted(["TH", "JC", "QD", "KS", "AH"])
    assert all(repr(m) == f"Move({str(m)!r})" for m in deal.legal_moves())
    deal.play("10♥")
    assert shows(view_text(deal, 1), "TH") and not shows(view_text(deal, 1), "10♥")


@pytest.mark.parametrize("text", [
    "draw", "DRAW", "pass", "take", "buy", "stand", "stake 5", "exchange", "close", "KH=20",
    "AS=H", "AC+AD", "2S+3S", "XX", "", "1S", "11S", "AX", "A", "S", "AS AH", "ТS", "10",
])
def test_text_that_is_not_a_card_is_an_invalid_move_whoever_sends_it(text: str) -> None:
    deal = GAME.deal(seed=3)
    before = deal.view(0).to_dict()
    for seat in (None, 0, 1):
        with pytest.raises(InvalidMoveError):
            deal.play(text, seat=seat)
    assert deal.view(0).to_dict() == before


def test_cards_that_cannot_be_played_now_are_illegal_moves() -> None:
    deck = deck_for(["9S", "5H"], bonus=("7D", "3C"))
    deal = GAME.deal(deck=deck)
    before = (deal.view(0).to_dict(), deal.view(1).to_dict())
    b_card = deck[3]
    for text, seat in ((b_card, None),       # the opponent's card
                       ("7D", None),         # a bonus card, out of play
                       (deck[12], None),     # a stock card
                       ("9S", 1),            # out of turn, the card is the mover's
                       (b_card, 1)):         # out of turn, the card is the sender's own
        with pytest.raises(IllegalMoveError):
            deal.play(text, seat=seat)
    assert (deal.view(0).to_dict(), deal.view(1).to_dict()) == before
    deal.play("9S", seat=0)
    with pytest.raises(IllegalMoveError):
        deal.play("9S")  # already played
    assert issubclass(IllegalMoveError, ValueError) and issubclass(InvalidMoveError, ValueError)


def test_moves_after_the_end_of_the_round_and_of_the_match() -> None:
    deck = list(ALL)
    random.Random(5).shuffle(deck)
    plays = in_order_plays(deck)
    deal = GAME.deal(deck=deck)
    for card in plays[:49]:
        deal.play(card)
    with pytest.raises(IllegalMoveError):
        deal.play(plays[49])
    with pytest.raises(InvalidMoveError):
        deal.play("draw")
    match = GAME.match(seed=4)
    rng = random.Random(4)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves()))
    assert match.to_move is None and match.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        match.play("AS")
    with pytest.raises(InvalidMoveError):
        match.play("stake 5")


# ---------------------------------------------------------------------------------------------
# Options (RULES 0.5, 1.6; DESIGN 2)


def test_option_names_defaults_and_errors() -> None:
    assert "maltese-twenty" in cardplay.games()
    game = cardplay.load("maltese-twenty", round_end="first_empty", winner_rule="higher_total")
    assert game == GAME
    assert GAME.options.round_end == "first_empty" and GAME.options.winner_rule == "higher_total"
    cardplay.load("maltese-twenty", round_end="both_empty", winner_rule="over_20_and_higher")
    for kwargs, names in (({"round_end": "second_empty"}, ["first_empty", "both_empty"]),
                          ({"round_end": True}, ["first_empty", "both_empty"]),
                          ({"winner_rule": "lower_total"}, ["higher_total", "over_20_and_higher"]),
                          ({"winner_rule": None}, ["higher_total", "over_20_and_higher"]),
                          ({"target": 100}, ["round_end", "winner_rule"]),
                          ({"rounds": 3}, ["round_end", "winner_rule"]),
                          ({"reveal_on_settle": True}, ["round_end", "winner_rule"])):
        with pytest.raises(OptionError) as info:
            cardplay.load("maltese-twenty", **kwargs)
        assert isinstance(info.value, ValueError)
        for name in names:
            assert name in str(info.value)
    with pytest.raises(ValueError):
        cardplay.load("maltese-twenty", players=3)
    with pytest.raises(ValueError):
        cardplay.load("maltese_twenty")


# ---------------------------------------------------------------------------------------------
# Matches (RULES 0.6, 1.5; DESIGN 2)


def finish_deal(match: Match, rng: random.Random) -> None:
    first = match.deal
    while match.deal is first and not match.is_over:
        match.play(rng.choice(match.legal_moves()))


@pytest.mark.parametrize("seed", range(6))
def test_a_match_is_two_rounds_a_then_b_with_scores_and_winners(seed: int) -> None:
    for rule in ("higher_total", "over_20_and_higher"):
        game = cardplay.load("maltese-twenty", winner_rule=rule)
        match = game.match(seed=seed)
        rng = random.Random(seed)
        r1 = match.deal
        start1 = (hand(r1, 0), hand(r1, 1))
        assert r1.dealer == 1 and match.to_move == 0 and r1.to_move == 0
        assert match.scores == [0, 0] and match.winners == [] and not match.is_over
        # RULES 0.6: match scores are the sum of finished rounds' results only
        for _ in range(20):
            match.play(rng.choice(match.legal_moves()))
            assert match.scores == [0, 0] and r1.result is None
        finish_deal(match, rng)
        assert r1.is_over and r1.result is not None
        r2 = match.deal
        start2 = (hand(r2, 0), hand(r2, 1))
        assert r2 is not r1 and not match.is_over and match.winners == []
        # round 2 is dealt afresh (RULES 1.5): two new hands of 5 from its own deck order
        assert len(start2[0]) == len(start2[1]) == 5 and start2 != start1
        assert r2.points == [0, 0] and r2.result is None and len(r2.history) == 0
        assert r2.dealer == 0 and match.to_move == 1 and r2.to_move == 1
        assert match.scores == r1.result
        v = match.view(1)
        assert v.to_move == 1 and v.match is not None
        assert list(v.match["scores"]) == r1.result
        for _ in range(20):
            match.play(rng.choice(match.legal_moves()))
            assert match.scores == r1.result
        finish_deal(match, rng)
        assert match.is_over and r2.is_over and match.deal is r2
        assert match.to_move is None and match.legal_moves() == []
        assert match.scores == [a + b for a, b in zip(r1.result, r2.result or [])]
        s = match.scores
        best = max(s)
        want = [i for i in (0, 1) if s[i] == best]
        if rule == "over_20_and_higher" and best <= 20:
            want = []
        assert match.winners == want


def test_match_deal_copy_is_independent() -> None:
    match = GAME.match(seed=21)
    rng = random.Random(21)
    for _ in range(7):
        match.play(rng.choice(match.legal_moves()))
    twin = match.deal.copy()
    snapshot = match.view(0).to_dict()
    while not twin.is_over:
        twin.play(twin.legal_moves()[0])
    assert twin.result is not None
    assert match.view(0).to_dict() == snapshot and not match.deal.is_over


def test_records_of_fixed_deck_deals_replay_exactly() -> None:
    deck = list(ALL)
    random.Random(9).shuffle(deck)
    deal = BOTH.deal(deck=deck, dealer=0)
    for card in in_order_plays(deck)[:31]:
        deal.play(card)
    again = cardplay.replay(json.loads(json.dumps(deal.record())))
    assert isinstance(again, Deal)
    assert again.dealer == 0 and again.to_move == deal.to_move
    for s in (0, 1):
        assert again.view(s).to_dict() == deal.view(s).to_dict()


# ---------------------------------------------------------------------------------------------
# Views (RULES 0.7, 1.7, 8; DESIGN 2)


def test_views_show_the_public_state_and_hide_the_rest() -> None:
    plays = ["9S", "5H", "6D", "2S", "3S"]
    deck = deck_for(plays, bonus=("KH", "JS"))
    deal = GAME.deal(deck=deck)
    for card in plays:
        deal.play(card)
    for s in (0, 1):
        v = deal.view(s)
        d = v.to_dict()
        text = view_text(deal, s)
        assert v.seat == s and v.to_move == 1 and d["dealer"] == 1
        assert list(v.points) == deal.points == [10, 0]
        for c in ("KH", "JS", "9S", "5H", "6D", "2S", "3S"):  # bonus cards, cleared, Tally
            assert shows(text, c)
        for c in deck[12:]:                                  # the stock
            assert not shows(text, c)
        for c in hand(deal, 1 - s):                          # the other hand
            assert not shows(text, c)
        assert set(d["hand"]) == hand(deal, s)
        assert all(isinstance(c, str) and len(c) == 2 for c in d["hand"])
        public = json.dumps(d["public"])
        assert "10" in public  # the bonus value |K - J| = 0 -> 10
        json.dumps(d)  # JSON-ready
    assert set(deal.view(1).to_dict()["legal_moves"]) == hand(deal, 1)
    assert deal.view(0).to_dict()["legal_moves"] == []


def greedy(match: Match, rng: random.Random) -> str:
    """A move that scores the most at once for the mover (ties broken by ``rng``)."""
    deal = match.deal
    seat = deal.to_move
    assert seat is not None
    best: int | None = None
    choices: list[str] = []
    for move in deal.legal_moves():
        trial = deal.copy()
        trial.play(move)
        gain = trial.points[seat] - deal.points[seat]
        if best is None or gain > best:
            best, choices = gain, [str(move)]
        elif gain == best:
            choices.append(str(move))
    return rng.choice(choices)


# With this engine's shuffles these seeds end on a best total of exactly 20 (76), of 21 (550) and
# on equal totals (278); the assertions hold whatever the totals are.
@pytest.mark.parametrize("seed", [76, 550, 278])
def test_match_winners_at_the_over_20_boundary_and_on_ties(seed: int) -> None:
    results = {}
    for rule in ("higher_total", "over_20_and_higher"):
        match = cardplay.load("maltese-twenty", winner_rule=rule).match(seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            assert match.winners == []
            match.play(greedy(match, rng))
        results[rule] = (match.scores, match.winners)
    scores, winners = results["higher_total"]
    assert results["over_20_and_higher"][0] == scores
    best = max(scores)
    assert winners == [i for i in (0, 1) if scores[i] == best]  # a tie lists both (a draw)
    strict = results["over_20_and_higher"][1]
    if best <= 20:
        assert strict == []                                     # nobody wins
    elif scores[0] != scores[1]:
        assert strict == [scores.index(best)]


@pytest.mark.parametrize("dealer", [0, 1])
def test_sampled_worlds_fit_views_for_both_dealers_options_and_match_rounds(dealer: int) -> None:
    for game in (GAME, BOTH):
        for seed in range(4):
            deal = game.deal(seed=seed, dealer=dealer)
            rng = random.Random(seed)
            for _ in range(rng.randint(0, 50)):
                if deal.is_over:
                    break
                deal.play(rng.choice(deal.legal_moves()))
            for s in (0, 1):
                view = deal.view(s)
                world = game.sample_deal(view, random.Random(seed))
                assert world.dealer == dealer
                assert world.view(s).to_dict() == view.to_dict()
    match = BOTH.match(seed=5, dealer=dealer)
    rng = random.Random(5)
    while not match.is_over:
        if rng.random() < 0.1:
            for s in (0, 1):
                view = match.view(s)
                world = BOTH.sample_deal(view, rng)
                want = view.to_dict()
                want["match"] = None
                assert world.view(s).to_dict() == want
        match.play(rng.choice(match.legal_moves()))


def test_a_match_without_seed_or_dealer_starts_with_a_and_replays() -> None:
    match = GAME.match()
    assert match.deal.dealer == 1 and match.to_move == 0 and match.players == 2
    rng = random.Random(2)
    for _ in range(60):
        match.play(rng.choice(match.legal_moves()))
    assert len(match.deals) == 1 and match.deal.dealer == 0
    again = cardplay.replay(json.loads(json.dumps(match.record())))
    assert isinstance(again, Match)
    assert again.scores == match.scores and again.to_move == match.to_move
    assert again.view(1).to_dict() == match.view(1).to_dict()
