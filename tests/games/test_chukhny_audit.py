"""Independent rules audit of Chukhny against RULES.md sections 0, 7, 8, 9 (CH) and the API contract
of DESIGN.md section 2.

Fixed decks are the stock, top card first (RULES 7.3a); with the default dealer (the last seat)
seat 0 acts first. Besides hand-worked scenarios, a small reference simulator written straight
from the pseudo-code of RULES 7.4 is played in lockstep with the engine over random games of every
option combination (what one action is, who acts next, the pile, the cards out of play, the
hands, the end and the loser must all agree).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardplay
from cardplay.engine import GameError, IllegalMoveError, InvalidMoveError, OptionError
from helpers import deck_with, hand, legal, run, view_text

RANKS = "23456789TJQKA"
SUITS = "SHDC"
ALL = [r + s for s in SUITS for r in RANKS]
ALL36 = [c for c in ALL if RANKS.index(c[0]) >= 4]


def new(prefix: str, dealer: int | None = None, **opts: Any) -> cardplay.Deal:
    game = cardplay.load("chukhny", **opts)
    return game.deal(deck=deck_with(prefix, opts.get("deck_size", 52)), dealer=dealer)


# ------------------------------------------------------------------------------------------------
# A reference implementation of RULES.md 7.3 / 7.4, written independently of the engine.


class Ref:
    def __init__(self, deck: list[str], players: int, dealer: int, *, same_suit: bool = False,
                 clear: bool = True, deck_size: int = 52) -> None:
        self.n = players
        self.same = same_suit
        self.clear = clear
        self.low = 0 if deck_size == 52 else 4
        self.stock = list(deck)
        self.out: set[str] = set()
        self.hands: list[set[str]] = [set() for _ in range(players)]
        self.drawn = [0] * players
        self.loser: int | None = None
        self.over = False
        # 7.3: turn up the top card; an Ace under "clear" goes out and the next is turned up
        while True:
            c = self.stock.pop(0)
            if self.clear and c[0] == "A":
                self.out.add(c)
                continue
            self.pile = [c]
            break
        self.turn: int | None = (dealer + 1) % players

    def next_rank(self, r: str) -> str:
        i = RANKS.index(r)
        return RANKS[self.low] if i == 12 else RANKS[i + 1]

    def fits(self, card: str) -> bool:
        top = self.pile[-1]
        if card[0] != self.next_rank(top[0]):
            return False
        return not self.same or card[1] == top[1]

    def active(self, q: int) -> bool:
        return bool(self.hands[q]) or bool(self.stock)

    def next_active(self, p: int) -> int:
        for i in range(1, self.n + 1):
            q = (p + i) % self.n
            if self.active(q):
                return q
        raise AssertionError("nobody active")

    def check_end(self) -> bool:
        if self.stock:
            return False
        holders = [q for q in range(self.n) if self.hands[q]]
        if len(holders) <= 1:
            self.over = True
            self.turn = None
            self.loser = holders[0] if holders else None
            return True
        return False

    def legal(self) -> set[str]:
        p = self.turn
        assert p is not None
        if not self.pile:  # start_run(p)
            return set(self.hands[p]) if self.hands[p] else {"draw"}
        m = {c for c in self.hands[p] if self.fits(c)}
        if m:
            return m
        return {"draw"} if self.stock else {"take"}

    def start_run(self, q: int) -> None:
        if self.hands[q] or self.stock:
            self.turn = q
        else:
            self.start_run(self.next_active(q))

    def place(self, p: int, card: str) -> None:
        if card[0] == "A" and self.clear:
            self.out |= set(self.pile) | {card}
            self.pile = []
            if not self.check_end():
                self.start_run(p)
            return
        self.pile.append(card)
        if not self.check_end():
            self.turn = self.next_active(p)

    def play(self, move: str) -> None:
        p = self.turn
        assert p is not None and move in self.legal()
        if move == "draw":
            c = self.stock.pop(0)
            self.drawn[p] += 1
            if not self.pile or self.fits(c):
                self.place(p, c)
            else:
                self.hands[p].add(c)
                self.check_end()
        elif move == "take":
            if len(self.pile) >= 2:
                self.hands[p].add(self.pile[-1])
                self.out |= set(self.pile[:-1])
            else:
                self.out |= set(self.pile)
            self.pile = []
            if not self.check_end():
                self.start_run(self.next_active(p))
        else:
            self.hands[p].remove(move)
            self.place(p, move)

    def result(self) -> list[int]:
        r = [0] * self.n
        if self.loser is not None:
            r[self.loser] = -1
        return r


def compare(d: Any, ref: Ref, size: int, last: int | None = None) -> None:
    n = ref.n
    assert d.to_move == ref.turn
    assert d.is_over == ref.over
    # every hand on small tables; on large ones the seats that just acted and act next
    seats = range(n) if n <= 4 or ref.over else {q for q in (last, ref.turn) if q is not None}
    for q in seats:
        assert hand(d, q) == ref.hands[q], q
    p = d.view(0).to_dict()["public"]
    assert p["pile"] == ref.pile
    assert set(p["out"]) == ref.out
    assert p["stock"] == len(ref.stock)
    assert p["hand_sizes"] == [len(h) for h in ref.hands]
    # 7.6.7 conservation
    assert sum(len(h) for h in ref.hands) + len(ref.pile) + len(ref.out) + len(ref.stock) == size
    if ref.over:
        assert d.result == ref.result() and d.points == ref.result()
        assert d.legal_moves() == []
    else:
        assert d.result is None and d.points == [0] * n
        assert legal(d) == ref.legal()


CONFIGS = [
    {"players": 2},
    {"players": 3},
    {"players": 4, "after_ace": "wrap"},
    {"players": 2, "require_same_suit": True},
    {"players": 3, "require_same_suit": True, "after_ace": "wrap"},
    {"players": 5, "deck_size": 36},
    {"players": 3, "deck_size": 36, "after_ace": "wrap"},
    {"players": 2, "deck_size": 36, "require_same_suit": True, "after_ace": "wrap"},
    {"players": 7},
    {"players": 15, "deck_size": 36},
    {"players": 15, "after_ace": "wrap", "require_same_suit": True},
]


@pytest.mark.parametrize("opts", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_lockstep_with_a_reference_of_rules_7_4(opts: dict[str, Any]) -> None:
    game = cardplay.load("chukhny", **opts)
    size = opts.get("deck_size", 52)
    n = opts["players"]
    rng = random.Random(repr(opts))
    for g in range(6):
        deck = list(ALL if size == 52 else ALL36)
        rng.shuffle(deck)
        dealer = rng.randrange(n)
        d = game.deal(deck=deck, dealer=dealer)
        ref = Ref(deck, n, dealer, same_suit=opts.get("require_same_suit", False),
                  clear=opts.get("after_ace", "clear") == "clear", deck_size=size)
        steps = 0
        compare(d, ref, size)
        while not ref.over:
            move = rng.choice(sorted(ref.legal()))
            last = ref.turn
            d.play(move, seat=last)
            ref.play(move)
            steps += 1
            compare(d, ref, size, last)
            assert steps < 10_000
        assert d.view(0).to_dict()["public"]["drawn"] == ref.drawn, g
        assert len(d.history) == steps


# ------------------------------------------------------------------------------------------------
# 7.4 What one action is; draw / take / lead


def test_a_matching_draw_is_one_action_and_history_says_draw() -> None:
    d = new("7D 3C QH 8S")
    run(d, "draw draw draw")
    assert d.view(1).history == ((0, "draw"), (0, "draw"), (0, "draw"))
    assert d.record()["moves"] == ["draw", "draw", "draw"]
    assert d.to_move == 1 and hand(d, 0) == {"3C", "QH"}


def test_leading_with_a_non_empty_hand_forbids_draw() -> None:
    # two players; seat 0 needs a Q: draws AH, AS (kept), QS (played); seat 1 draws KC;
    # seat 0 needs an Ace and holds two
    d = new("JD AH AS QS KC", players=2)
    run(d, "draw draw draw draw")
    assert d.to_move == 0 and legal(d) == {"AH", "AS"}
    d.play("AH")                        # clears the pile; seat 0 leads again
    assert d.to_move == 0 and legal(d) == {"AS"}
    with pytest.raises(IllegalMoveError):
        d.play("draw")
    with pytest.raises(IllegalMoveError):
        d.play("take")


def test_leading_an_ace_under_clear_restarts_the_run_with_the_same_player() -> None:
    d = new("JD AH AS QS KC", players=2)
    run(d, "draw draw draw draw AH")
    d.play("AS")                        # lead an Ace: out of play, seat 0 starts again
    p = d.view(1).to_dict()["public"]
    assert set(p["out"]) == {"JD", "QS", "KC", "AH", "AS"} and p["pile"] == []
    assert d.to_move == 0 and legal(d) == {"draw"} and hand(d, 0) == set()
    d.play("draw")                      # turns up 2S (the first card of the rest)
    p = d.view(1).to_dict()["public"]
    assert p["pile"] == ["2S"] and d.to_move == 1 and legal(d) == {"draw"}
    assert p["drawn"] == [4, 1]
    assert d.view(0).history[-1] == (0, "draw")


def test_wrap_an_ace_is_an_ordinary_climb_and_a_two_follows() -> None:
    d = new("JD AH AS QS KC", players=2, after_ace="wrap")
    run(d, "draw draw draw draw")
    assert legal(d) == {"AH", "AS"}
    d.play("AS")
    p = d.view(0).to_dict()["public"]
    assert p["pile"] == ["JD", "QS", "KC", "AS"] and p["out"] == []
    assert d.to_move == 1 and legal(d) == {"draw"}
    d.play("draw")                      # seat 1 draws 2S: a 2 follows an Ace
    assert d.to_move == 0 and d.view(0).to_dict()["public"]["pile"][-1] == "2S"


def test_wrap_same_suit_after_an_ace_needs_the_two_of_that_suit() -> None:
    # seat 0 needs the K of diamonds: draws KD; seat 1 needs AD: draws AD; seat 2 needs 2D:
    # 2S (the first card of the rest) does not fit.
    d = new("QD KD AD", after_ace="wrap", require_same_suit=True)
    run(d, "draw draw")
    assert d.to_move == 2 and d.view(2).to_dict()["public"]["pile"] == ["QD", "KD", "AD"]
    d.play("draw")
    assert hand(d, 2) == {"2S"} and d.to_move == 2
    run(d, "draw draw")                 # 3S, 4S no
    assert hand(d, 2) == {"2S", "3S", "4S"}


def test_36_cards_clear_starting_aces_and_wrap_to_six() -> None:
    d = new("AS AC 9H TS", deck_size=36)
    p = d.view(0).to_dict()["public"]
    assert p["pile"] == ["9H"] and set(p["out"]) == {"AS", "AC"} and p["stock"] == 33
    d.play("draw")                      # TS fits
    assert d.to_move == 1
    w = new("KS AC 6H", deck_size=36, after_ace="wrap")
    w.play("draw")                      # AC fits (seat 0)
    w.play("draw")                      # 6H fits after an Ace (seat 1)
    assert w.view(0).to_dict()["public"]["pile"] == ["KS", "AC", "6H"] and w.to_move == 2


def test_a_failed_draw_keeps_the_same_player_even_with_the_stock_then_empty() -> None:
    # two players; 2C is turned up; seat 0 needs a 3 and the 2s and 3s lie at the bottom
    order = ["2C"] + [c for c in ALL if c[0] not in "23"] + ["2S", "2H", "2D", "3S", "3H",
                                                               "3D", "3C"]
    d = cardplay.load("chukhny", players=2).deal(deck=order)
    for _ in range(48):
        assert d.to_move == 0 and legal(d) == {"draw"}
        d.play("draw")
    # 44 cards that are neither 2 nor 3 and 2S 2H 2D kept, then 3S played
    assert len(hand(d, 0)) == 47 and d.to_move == 1
    d.play("draw")                      # seat 1 needs a 4: 3H fails
    d.play("draw")                      # 3D fails
    assert d.to_move == 1 and hand(d, 1) == {"3H", "3D"}
    d.play("draw")                      # 3C fails, the stock is empty: seat 1 must take
    assert d.to_move == 1 and legal(d) == {"take"} and not d.is_over
    d.play("take")                      # 3S taken, 2C out
    assert hand(d, 1) == {"3H", "3D", "3C", "3S"}
    assert d.to_move == 0 and not d.is_over


def test_the_game_ends_at_once_when_the_stock_runs_out_with_one_holder() -> None:
    # every card fits in turn (spades 8..A, clubs, diamonds, hearts), each Ace's player turns up
    # the next run, until 3S 4S 5S 6S; then a 7 is needed (all four are gone) and seat 1 draws
    # the last card, 2S: it does not fit, the stock is empty and seat 1 is the only holder.
    order = ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", *ALL[39:], *ALL[26:39],
             *ALL[13:26], "3S", "4S", "5S", "6S", "2S"]
    d = cardplay.load("chukhny").deal(deck=order)
    for _ in range(50):
        assert legal(d) == {"draw"} and not d.is_over
        d.play("draw")
    assert d.to_move == 1 and d.view(1).to_dict()["public"]["pile"] == ["3S", "4S", "5S", "6S"]
    d.play("draw")
    assert d.is_over and d.to_move is None
    assert d.result == [0, -1, 0] and d.points == [0, -1, 0]
    assert hand(d, 1) == {"2S"} and len(d.history) == 51
    with pytest.raises(IllegalMoveError):
        d.play("take")


def test_the_game_ends_when_a_matching_last_draw_leaves_one_holder() -> None:
    # clubs, diamonds, hearts, spades 2..Q fit in turn; a K is needed: AS fails (kept) and KS,
    # the last card, fits: the same player plays it and is the only holder.
    order = ALL[39:] + ALL[26:39] + ALL[13:26] + ALL[:11] + ["AS", "KS"]
    d = cardplay.load("chukhny").deal(deck=order)
    while not d.is_over:
        assert legal(d) == {"draw"}
        d.play("draw")
    res = d.result
    assert res is not None and sorted(res) == [-1, 0, 0]
    loser = res.index(-1)
    assert hand(d, loser) == {"AS"} and d.points == res
    assert len(d.history) == 51


# ------------------------------------------------------------------------------------------------
# 7.4 End and loser, 0.6 points/result


def test_points_zero_and_result_none_during_the_game() -> None:
    d = new("7D 3C QH 8S")
    assert d.result is None and d.points == [0, 0, 0]
    run(d, "draw draw")
    assert d.result is None and d.points == [0, 0, 0]
    v = d.view(1)
    assert v.result is None and v.points == (0, 0, 0) and not v.is_over


def test_after_the_end_no_move_is_accepted_and_text_is_parsed_first() -> None:
    order = ALL[39:] + ALL[26:39] + ALL[13:26] + ALL[:13]
    d = cardplay.load("chukhny").deal(deck=order)
    while not d.is_over:
        d.play("draw")
    assert d.to_move is None and d.result == [0, 0, 0]
    with pytest.raises(IllegalMoveError):
        d.play("take")
    with pytest.raises(InvalidMoveError):
        d.play("hello")


# ------------------------------------------------------------------------------------------------
# 0.2 / 7.3 seats and dealer


@pytest.mark.parametrize("n", [2, 3, 5, 15])
def test_default_dealer_is_the_last_seat_and_seat_zero_starts(n: int) -> None:
    d = cardplay.load("chukhny", players=n).deal(seed=11)
    assert d.dealer == n - 1 and d.players == n and d.to_move == 0
    d2 = cardplay.load("chukhny", players=n).deal(deck=deck_with("7D"), dealer=0)
    assert d2.to_move == 1 % n and d2.view(0).to_dict()["public"]["pile"] == ["7D"]


def test_the_first_card_is_the_top_of_the_deck_and_hands_start_empty() -> None:
    d = new("9H", players=4)
    for s in range(4):
        assert d.view(s).hand == ()
    assert d.view(0).to_dict()["public"]["pile"] == ["9H"]
    assert d.view(0).to_dict()["public"]["stock"] == 51
    assert d.deck[0] == "9H" and len(d.deck) == 52


def test_same_seed_same_game() -> None:
    g = cardplay.load("chukhny", players=4)
    a, b = g.deal(seed=99), g.deal(seed=99)
    assert a.deck == b.deck
    rng = random.Random(1)
    while not a.is_over:
        m = rng.choice(a.legal_moves())
        a.play(m)
        b.play(str(m))
        assert a.view(1).to_dict() == b.view(1).to_dict()


# ------------------------------------------------------------------------------------------------
# Deck errors (DESIGN 2)


def test_bad_decks_raise_value_error() -> None:
    g = cardplay.load("chukhny")
    full = list(ALL)
    for bad in (full[:-1], [*full, "2S"], [*full[:-1], "2S"], [*full[:-1], "XX"], ALL36,
                [*full[:-1], "1S"]):
        with pytest.raises(ValueError):
            g.deal(deck=bad)
    g36 = cardplay.load("chukhny", deck_size=36)
    with pytest.raises(ValueError):
        g36.deal(deck=ALL)
    with pytest.raises(ValueError):
        g36.deal(deck=[*ALL36[:-1], "5S"])
    # a string deck, spellings of 0.1, is accepted
    d = g.deal(deck=" ".join(["10♥"] + [c for c in ALL if c != "TH"]))
    assert d.view(0).to_dict()["public"]["pile"] == ["TH"]


# ------------------------------------------------------------------------------------------------
# 0.1 / 0.4 notation and error types


def test_card_spellings_play_the_card() -> None:
    spellings = {"8S": ("8S", "8s", "♠8", "8♠"),
                 "TH": ("TH", "th", "10H", "10h", "10♥", "♥10", "♥T", "t♥"),
                 "QH": ("QH", "qh", "Д♥", "д♥", "♥Д", "Q♥"),
                 "AS": ("AS", "as", "Т♠", "т♠", "♠Т", "A♠", "♠a"),
                 "JC": ("JC", "jc", "В♣", "в♣", "♣В"),
                 "KD": ("KD", "kd", "К♦", "к♦", "♦К")}
    g = cardplay.load("chukhny")
    for card, texts in spellings.items():
        for t in texts:
            assert str(g.parse_move(t)) == card, t


def test_playing_with_alternative_spellings() -> None:
    # seat 0 holds AH AS at a K: plays "т♥" (the Russian ace letter), then leads "♠A"
    d = new("JD AH AS QS KC", players=2)
    run(d, "DRAW Draw draw dRaW")
    d.play("т♥")
    assert d.to_move == 0 and hand(d, 0) == {"AS"}
    d.play("♠A")
    assert hand(d, 0) == set()
    assert [t for _, t in d.view(1).history][-2:] == ["AH", "AS"]
    rec = d.record()
    assert rec["moves"] == ["draw", "draw", "draw", "draw", "AH", "AS"]
    again = cardplay.replay(rec)
    assert again.view(0).to_dict() == d.view(0).to_dict()


def test_take_keyword_case_insensitive_and_printed_lowercase() -> None:
    order = ["2C"] + [c for c in ALL if c[0] not in "23"] + ["2S", "2H", "2D", "3S", "3H",
                                                               "3D", "3C"]
    d = cardplay.load("chukhny", players=2).deal(deck=order)
    run(d, "draw " * 51)
    assert legal(d) == {"take"}
    d.play("TAKE")
    assert d.view(0).history[-1] == (1, "take")


def test_move_objects_print_their_notation() -> None:
    d = new("7D 3C QH 8S")
    assert [str(m) for m in d.legal_moves()] == ["draw"]
    run(d, "draw draw draw")
    d2 = new("JD AH AS QS KC", players=2)
    run(d2, "draw draw draw draw")
    assert sorted(str(m) for m in d2.legal_moves()) == ["AH", "AS"]


@pytest.mark.parametrize("bad", ["XX", "", "draw 1", "take2", "pass", "stake 5", "buy", "stand",
                                 "close", "exchange", "KH=20", "AS=H", "AC+AD", "8S 9S", "11S",
                                 "0S", "1H", "ZZ", "8X"])
def test_invalid_texts_are_invalid_move_errors(bad: str) -> None:
    d = new("7D 3C QH 8S")
    with pytest.raises(InvalidMoveError):
        d.play(bad)
    # even from a seat that is not to move (text is parsed first)
    with pytest.raises(InvalidMoveError):
        d.play(bad, seat=2)
    assert d.history == [] and d.to_move == 0


def test_illegal_moves_leave_the_deal_unchanged() -> None:
    d = new("7D 3C QH 8S")
    before = d.view(0).to_dict()
    for bad in ("8S", "take", "AS", "3C"):
        with pytest.raises(IllegalMoveError):
            d.play(bad)
    with pytest.raises(IllegalMoveError):
        d.play("draw", seat=1)          # out of turn
    with pytest.raises(IllegalMoveError):
        d.play("draw", seat=2)
    assert d.view(0).to_dict() == before
    run(d, "draw draw")                 # seat 0 holds 3C QH, needs 8
    with pytest.raises(IllegalMoveError):
        d.play("3C")                    # in hand but not the required rank
    with pytest.raises(IllegalMoveError):
        d.play("QH")
    assert issubclass(IllegalMoveError, ValueError) and issubclass(InvalidMoveError, ValueError)


def test_same_suit_a_card_of_the_right_rank_but_wrong_suit_is_illegal() -> None:
    d = new("5C TH TS 6C 7C 8C 9C", players=2, require_same_suit=True)
    run(d, "draw " * 6)
    assert d.to_move == 0 and legal(d) == {"draw"}
    with pytest.raises(IllegalMoveError):
        d.play("TS")
    with pytest.raises(IllegalMoveError):
        d.play("TH")


# ------------------------------------------------------------------------------------------------
# 0.5 options


def test_options_are_errors_naming_the_valid_choices() -> None:
    for bad, word in (({"after_ace": "none"}, "wrap"), ({"deck_size": 32}, "36"),
                      ({"require_same_suit": "yes"}, "True"), ({"players": 16}, "15"),
                      ({"players": 1}, "2")):
        with pytest.raises(OptionError) as e:
            cardplay.load("chukhny", **bad)
        assert word in str(e.value), (bad, str(e.value))
        assert isinstance(e.value, ValueError) and isinstance(e.value, GameError)
    with pytest.raises(OptionError) as e:
        cardplay.load("chukhny", wrap=True)
    assert "after_ace" in str(e.value)
    with pytest.raises(ValueError):
        cardplay.load("chukhny", games=0)


def test_option_defaults_as_rules_7() -> None:
    g = cardplay.load("chukhny")
    o = g.options_dict()
    assert o["players"] == 3 and o["deck_size"] == 52 and o["require_same_suit"] is False
    assert o["after_ace"] == "clear" and o["games"] == 1
    assert g.players == 3
    for n in (2, 15):
        assert cardplay.load("chukhny", players=n).players == n


# ------------------------------------------------------------------------------------------------
# 7.5 / 8 hidden information


def test_failed_draws_hidden_from_others_counts_and_sizes_public() -> None:
    d = new("7D 3C QH 8S")
    run(d, "draw draw draw")
    for s in (1, 2):
        v = d.view(s)
        t = view_text(d, s)
        assert "3C" not in t and "QH" not in t
        p = v.to_dict()["public"]
        assert p["hand_sizes"] == [2, 0, 0] and p["drawn"] == [3, 0, 0]
        assert v.hand == ()
    assert {"3C", "QH"} <= set(json.loads(view_text(d, 0))["hand"])
    # the stock is hidden: no view names the next stock card (2S, the first of the rest)
    for s in range(3):
        assert "2S" not in view_text(d, s)


def test_legal_moves_only_in_the_view_of_the_seat_to_move() -> None:
    d = new("7D 3C QH 8S")
    assert [m.text for m in d.view(0).legal_moves] == ["draw"]
    assert d.view(1).legal_moves == () and d.view(2).legal_moves == ()


def test_views_never_contain_a_hidden_card_over_a_random_game() -> None:
    game = cardplay.load("chukhny", players=3)
    rng = random.Random(7)
    for seed in range(2):
        d = game.deal(seed=seed)
        # the true owner of every kept card: a failed draw is private until it is played
        while not d.is_over:
            hands = [hand(d, s) for s in range(3)]
            public_now = set(d.view(0).to_dict()["public"]["pile"]) | \
                set(d.view(0).to_dict()["public"]["out"])
            for s in range(3):
                t = view_text(d, s)
                stock_cards = set(d.deck) - public_now - set().union(*hands)
                for c in stock_cards:
                    assert f'"{c}"' not in t, (s, c)
            d.play(rng.choice(d.legal_moves()))


# ------------------------------------------------------------------------------------------------
# 0.6 / 7.4 Scoring and matches


def test_match_of_several_games_dealer_passes_left_and_scores_sum() -> None:
    game = cardplay.load("chukhny", players=3, games=3)
    m = game.match(seed=3, dealer=2)
    rng = random.Random(3)
    deal_objects = []
    while not m.is_over:
        if not deal_objects or deal_objects[-1] is not m.deal:
            deal_objects.append(m.deal)
            assert m.deal.result is None
            assert m.deal.to_move == (m.deal.dealer + 1) % 3
        assert m.winners == []
        m.play(rng.choice(m.legal_moves()))
    assert [d.dealer for d in m.deals] == [2, 0, 1]
    assert len({id(d) for d in m.deals}) == 3
    res = [d.result for d in m.deals]
    assert all(r is not None and sorted(r) in ([-1, 0, 0], [0, 0, 0]) for r in res)
    total = [sum(r[s] for r in res if r) for s in range(3)]
    assert m.scores == total
    assert m.winners == [s for s in range(3) if total[s] == max(total)]
    assert m.to_move is None and m.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        m.play("draw")


def test_match_deal_copy_is_independent() -> None:
    m = cardplay.load("chukhny").match(seed=5, dealer=2)
    c = m.deal.copy()
    c.play(c.legal_moves()[0])
    assert m.deal.history == [] and len(c.history) == 1
    rec = m.record()
    assert rec["game"] == "chukhny"


def test_match_default_first_dealer_is_from_the_seed() -> None:
    g = cardplay.load("chukhny", players=5)
    a, b = g.match(seed=42), g.match(seed=42)
    assert a.deal.dealer == b.deal.dealer
    assert a.deal.to_move == (a.deal.dealer + 1) % 5
