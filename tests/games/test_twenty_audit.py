"""Independent rules audit of Twenty against RULES.md sections 0 and 2 and DESIGN.md 2.

Expectations come from the rules text, not from the implementation: a small reference model of
RULES 2.2-2.5 (deal from a fixed order, the ``fits`` pseudocode of 2.4, move-number/count
advancement, draw/pass, end of hand, scoring) and of the 0.4 notation (printing order, King
values) replays random hands from fixed deck orders and is compared with the engine move by move
through the public API only (``to_move``, ``legal_moves``, ``view``, ``points``, ``result``).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import pytest

import cardplay
from cardplay.engine import Deal, IllegalMoveError, InvalidMoveError, OptionError
from helpers import deck_with, hand, legal

RANKS = "23456789TJQKA"
SUITS = "SHDC"
ALL = [r + s for s in SUITS for r in RANKS]
SEED = cardplay.load("twenty")
CANON = cardplay.load("twenty", preset="canonical")
CARD_RE = re.compile(r"(?<![0-9A-Z])([2-9TJQKA][SHDC])(?![A-Z0-9])")

# RULES 2.2 / 0.4: count values, penalties, and the printing order (A, 2 .. 10, J, Q, K; C D H S)
VALUE = {"A": 1, **{str(v): v for v in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 0}
PRINT_RANK = "A23456789TJQK"
PRINT_SUIT = "CDHS"


def penalty(card: str, p29: int = 5) -> int:
    r = card[0]
    return 5 if r == "A" else 20 if r == "K" else 10 if r in "TJQ" else p29


def dealt(hands: list[list[str]], dealer: int | None = None, stock: list[str] | None = None
          ) -> list[str]:
    """RULES 2.3a, written from the text: seven rounds of one card to each player, starting
    with the dealer's left; then the stock, top first."""
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    top = []
    for i in range(7):
        for k in range(n):
            top.append(hands[(dealer + 1 + k) % n][i])
    return deck_with(top + (stock or []))


# ---------------------------------------------------------------------------------------------
# Reference model


def king_split(n: int, total: int) -> list[int]:
    out, left = [], total
    for i in range(n):
        v = min(20, left - (n - 1 - i))
        out.append(v)
        left -= v
    return out


def fmt(cards: list[str], kings_total: int | None) -> str:
    cs = sorted(cards, key=lambda c: (PRINT_RANK.index(c[0]), PRINT_SUIT.index(c[1])))
    if kings_total is None:
        return "+".join(cs)
    nk = sum(c[0] == "K" for c in cs)
    vals = iter(king_split(nk, kings_total))
    return "+".join(f"{c}={next(vals)}" if c[0] == "K" else c for c in cs)


def ref_plays(hand: list[str], m: int, exact: bool, pairs_on: bool) -> set[str]:
    """Every legal play of RULES 2.4 ``fits`` as canonical text (0.4)."""
    by_rank: dict[str, list[str]] = {}
    for c in hand:
        by_rank.setdefault(c[0], []).append(c)
    ranks = sorted(by_rank)
    out: set[str] = set()

    def rec(i: int, chosen: list[tuple[str, int]], least: int) -> None:
        if least > m:
            return
        if i == len(ranks):
            if not chosen:
                return
            k_n = sum(c for r, c in chosen if r == "K")
            f = sum(VALUE[r] * c for r, c in chosen)
            p = sum(c // 2 for r, c in chosen if r in "TJQ") if pairs_on else 0
            total = None
            if not exact:
                ok = f - 10 * p + k_n <= m
            else:
                ok = False
                for k in range(p, -1, -1):
                    base = f - 10 * k
                    if base + k_n <= m <= base + 20 * k_n:
                        ok = True
                        total = m - base if k_n else None
                        break
            if not ok:
                return
            pools = [itertools.combinations(sorted(by_rank[r]), c) for r, c in chosen]
            for combo in itertools.product(*pools):
                cards = [c for grp in combo for c in grp]
                out.add(fmt(cards, total))
            return
        r = ranks[i]
        rec(i + 1, chosen, least)
        for c in range(1, len(by_rank[r]) + 1):
            v = 1 if r == "K" else VALUE[r]
            add = c * v - (10 * (c // 2) if pairs_on and r in "TJQ" else 0)
            rec(i + 1, [*chosen, (r, c)], least + add)

    rec(0, [], 0)
    return out


class Ref:
    """RULES 2.3-2.5 for one hand."""

    def __init__(self, deck: list[str], n: int, dealer: int, opts: dict[str, Any]) -> None:
        self.n = n
        self.exact = opts["count_rule"] == "exact"
        self.pairs = opts["pair_counts_ten"]
        self.adv = opts["count_advances_on_draw"]
        self.vol = opts["may_draw_voluntarily"]
        self.p29 = opts.get("penalty_2_to_9", 5)
        self.tie = opts.get("tie_policy", "share")
        self.hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(7 * n):
            self.hands[(dealer + 1 + i) % n].append(deck[i])
        self.stock = deck[7 * n:]
        self.m = 1
        self.turn: int | None = (dealer + 1) % n
        self.passes = 0
        self.result: list[int] | None = None

    def legal(self) -> set[str]:
        assert self.turn is not None
        plays = ref_plays(self.hands[self.turn], self.m, self.exact, self.pairs)
        out = set(plays)
        if self.stock and (not plays or self.vol):
            out.add("draw")
        if not self.stock and not plays:
            out.add("pass")
        return out

    def play(self, text: str, cards: list[str]) -> None:
        t = self.turn
        assert t is not None
        if text == "draw":
            self.hands[t].append(self.stock.pop(0))
            self.passes = 0
        elif text == "pass":
            self.passes += 1
        else:
            for c in cards:
                self.hands[t].remove(c)
            self.passes = 0
            if not self.hands[t]:
                return self.finish([t])
            if self.m == 20:
                return self.finish(None)
            self.m += 1
            self.turn = (t + 1) % self.n
            return None
        if self.adv:
            if self.m == 20:
                return self.finish(None)
            self.m += 1
        elif self.passes == self.n:
            return self.finish(None)
        self.turn = (t + 1) % self.n
        return None

    def finish(self, winners: list[int] | None) -> None:
        pens = [sum(penalty(c, self.p29) for c in h) for h in self.hands]
        if winners is None:
            few = min(len(h) for h in self.hands)
            cand = [i for i in range(self.n) if len(self.hands[i]) == few]
            low = min(pens[i] for i in cand)
            cand = [i for i in cand if pens[i] == low]
            winners = [] if len(cand) > 1 and self.tie == "nobody" else cand
        self.result = [20 if i in winners else -pens[i] for i in range(self.n)]
        self.turn = None


def cards_of(text: str) -> list[str]:
    return [p.split("=")[0] for p in text.split("+")]


def run_against_ref(game: Any, deck: list[str], dealer: int | None, rng: random.Random,
                    draw_bias: float) -> None:
    o = game.options
    opts = {k: getattr(o, k) for k in ("count_rule", "pair_counts_ten", "count_advances_on_draw",
                                       "may_draw_voluntarily", "penalty_2_to_9", "tie_policy")}
    n = o.players
    d = game.deal(deck=deck) if dealer is None else game.deal(deck=deck, dealer=dealer)
    ref = Ref(deck, n, n - 1 if dealer is None else dealer, opts)
    assert d.dealer == (n - 1 if dealer is None else dealer) and d.players == n
    played: set[str] = set()
    step = 0
    while ref.turn is not None:
        assert d.to_move == ref.turn and not d.is_over
        assert d.result is None and d.points == [0] * n  # RULES 0.6: all 0 until the end
        for s in range(n):
            assert hand(d, s) == set(ref.hands[s])
        want = ref.legal()
        got = legal(d)
        assert got == want, (ref.m, sorted(ref.hands[ref.turn]), got ^ want)
        if step % 5 == 0:  # 0.7: a view shows its own cards and played cards only
            for s in range(n):
                text = json.dumps(d.view(s).to_dict())
                assert set(CARD_RE.findall(text)) <= set(ref.hands[s]) | played
        plays = sorted(w for w in want if w not in ("draw", "pass"))
        if plays and (("draw" not in want) or rng.random() > draw_bias):
            mv = rng.choice(plays)
        else:
            mv = "draw" if "draw" in want else "pass"
        d.play(mv, seat=ref.turn)
        if mv not in ("draw", "pass"):
            played |= set(cards_of(mv))
        ref.play(mv, cards_of(mv))
        step += 1
    assert d.is_over and d.to_move is None and d.legal_moves() == []
    assert d.result == ref.result and d.points == ref.result


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", ["seed", "canonical"])
def test_random_hands_follow_the_reference_model(preset: str, players: int) -> None:
    game = cardplay.load("twenty", preset=preset, players=players)
    rng = random.Random(1000 + players)
    for i in range(6):
        deck = ALL[:]
        rng.shuffle(deck)
        dealer = None if i % 2 == 0 else rng.randrange(players)
        run_against_ref(game, deck, dealer, rng, draw_bias=0.2)


@pytest.mark.parametrize("opts", [
    {"pair_counts_ten": True},
    {"preset": "canonical", "pair_counts_ten": False},
    {"preset": "canonical", "penalty_2_to_9": 0, "tie_policy": "nobody"},
    {"count_rule": "exact"},
])
def test_option_variants_follow_the_reference_model(opts: dict[str, Any]) -> None:
    game = cardplay.load("twenty", players=3, **opts)
    rng = random.Random(7)
    # court-heavy decks so pairs and Kings come up often
    court = [c for c in ALL if c[0] in "TJQKA"]
    rest = [c for c in ALL if c not in court]
    for _ in range(4):
        rng.shuffle(court)
        rng.shuffle(rest)
        deck = court[:21] + rest + court[21:]
        run_against_ref(game, deck, None, rng, draw_bias=0.3)


# ---------------------------------------------------------------------------------------------
# Deal from a fixed order (RULES 0.2, 0.3, 2.3, 2.3a)


def test_fixed_order_three_players_default_dealer() -> None:
    game = cardplay.load("twenty", players=3)
    deck = ALL[:]  # 2S 3S 4S ... AS 2H ... ; positions 0, 3, 6, ... go to seat 0
    d = game.deal(deck=" ".join(deck))
    assert d.dealer == 2 and d.to_move == 0
    for s in range(3):
        assert hand(d, s) == {deck[i * 3 + s] for i in range(7)}
    # seat 0 holds 2S 5S 8S JS AS 4H 7H: the ace plays at move 1, nothing else (seed)
    assert legal(d) == {"AS"}


def test_fixed_order_four_players_dealer_one() -> None:
    game = cardplay.load("twenty", players=4)
    top = ["KS", "2C", "3C", "4C", *[c for c in ALL if c not in ("KS", "2C", "3C", "4C")][:24]]
    deck = deck_with(top)
    d = game.deal(deck=deck, dealer=1)
    # dealer 1: seat 2 is on his left, gets the top card and acts first
    assert d.to_move == 2
    assert "KS" in hand(d, 2) and "2C" in hand(d, 3) and "3C" in hand(d, 0) and "4C" in hand(d, 1)
    for k, s in enumerate((2, 3, 0, 1)):
        assert hand(d, s) == {deck[i * 4 + k] for i in range(7)}
    # the stock is drawn from the top: deck[28] is the first card drawn
    d.play("KS", seat=2)   # move 1
    assert d.to_move == 3  # clockwise
    assert "2C" in legal(d) and "draw" not in legal(d)  # 2C fits move 2: it must play


def test_stock_is_drawn_from_the_top() -> None:
    hands = [["5C", "6C", "7C", "8C", "9C", "TC", "JC"], ["5D", "6D", "7D", "8D", "9D", "TD", "JD"]]
    d = SEED.deal(deck=dealt(hands, stock=["QH", "2H"]))
    assert d.to_move == 0 and legal(d) == {"draw"}
    d.play("draw")
    assert "QH" in hand(d, 0) and d.to_move == 1
    assert legal(d) == {"draw"}  # move 2: 5D .. JD do not fit
    d.play("draw")
    assert "2H" in hand(d, 1) and d.to_move == 0


def test_bad_decks_are_value_errors() -> None:
    with pytest.raises(ValueError):
        SEED.deal(deck=ALL[:51])
    with pytest.raises(ValueError):
        SEED.deal(deck=[*ALL[:51], "2S"])
    with pytest.raises(ValueError):
        SEED.deal(deck=[*ALL, "2S"])
    with pytest.raises(ValueError):
        SEED.deal(deck=[*ALL[:51], "XX"])


# ---------------------------------------------------------------------------------------------
# Turn structure, error types (DESIGN 2; RULES 0.4)


def _simple() -> Deal:
    hands = [["AS", "2S", "9C", "8C", "7C", "6C", "5C"], ["9D", "8D", "7D", "6D", "5D", "4D", "3D"]]
    return SEED.deal(deck=dealt(hands, stock=["KH"]))


def test_seed_must_play_when_able_and_cannot_pass() -> None:
    d = _simple()
    assert legal(d) == {"AS"}
    with pytest.raises(IllegalMoveError):
        d.play("draw")
    with pytest.raises(IllegalMoveError):
        d.play("pass")
    with pytest.raises(IllegalMoveError):
        d.play("2S")  # 2 > move 1
    with pytest.raises(IllegalMoveError):
        d.play("KH")  # not in hand (it is the top stock card)
    assert d.history == [] and d.to_move == 0


def test_error_types_and_order_of_checks() -> None:
    d = _simple()
    with pytest.raises(IllegalMoveError):
        d.play("AS", seat=1)  # out of turn
    with pytest.raises(InvalidMoveError):
        d.play("XX", seat=1)  # unparseable, whoever sends it
    with pytest.raises(InvalidMoveError):
        d.play("AS=1", seat=1)
    with pytest.raises(InvalidMoveError):
        d.play("KH=1")  # '=' is invalid under at_most
    with pytest.raises(InvalidMoveError):
        d.play("buy")
    with pytest.raises(InvalidMoveError):
        d.play("exchange")
    with pytest.raises(InvalidMoveError):
        d.play("stake 5")
    assert issubclass(InvalidMoveError, ValueError) and issubclass(IllegalMoveError, ValueError)
    assert d.history == []
    d.play("AS", seat=0)
    assert d.to_move == 1


def test_canonical_draw_is_illegal_once_the_stock_is_empty() -> None:
    # three players: 31 stock cards; everybody draws until the stock is empty, then plays only
    game = cardplay.load("twenty", preset="canonical", players=3)
    rng = random.Random(5)
    deck = ALL[:]
    rng.shuffle(deck)
    d = game.deal(deck=deck)
    for _ in range(31):
        assert "draw" in legal(d)
        d.play("draw")
    assert "draw" not in legal(d)
    with pytest.raises(IllegalMoveError):
        d.play("draw")
    # the count never advanced on draws (RULES 2.4 step 5, canonical): still 1
    assert sum(len(hand(d, s)) for s in range(3)) == 52
    assert all(m == "pass" or m[0] == "A" or m == f"K{m[1]}=1" for m in legal(d))


def test_deal_over_errors() -> None:
    hands = [["AS", "2S", "3S", "4S", "5S", "6S", "2H"], ["9D", "TD", "JD", "QD", "TC", "JC", "QC"]]
    # 2 players, seed: seat 0 plays at moves 1, 3, 5, 7; seat 1 can only draw (all > 8)
    d = SEED.deal(deck=dealt(hands, stock=["QS", "QH", "JS", "JH"]))
    for mv in ["AS", "draw", "2S", "draw", "5S", "draw", "3S+4S", "draw"]:
        d.play(mv)
    assert hand(d, 0) == {"2H", "6S"} and len(hand(d, 1)) == 11
    d.play("6S+2H")  # move 9: goes out at once
    # RULES 2.5: +20 for the winner, minus the penalties: 9 (5) + six 10/J/Q (60) + QS QH JS JH
    assert d.is_over and d.result == [20, -(5 + 60 + 40)] and d.points == d.result
    with pytest.raises(IllegalMoveError):
        d.play("draw")
    with pytest.raises(InvalidMoveError):
        d.play("XX")


# ---------------------------------------------------------------------------------------------
# Move number / count advancement and the end of the hand


def test_seed_hand_ends_after_twenty_turns_of_draws() -> None:
    # nobody can ever play: everybody holds only 9s, 10s, ... and draws high cards (seed preset)
    high = [c for c in ALL if c[0] in "9TJQ"]  # 16 cards
    hands = [high[:7], high[7:14]]
    # stock: high[14:] first, then the rest; after move 9 plays become possible
    d = SEED.deal(deck=dealt(hands, stock=high[14:]))
    turns = 0
    while not d.is_over:
        moves = legal(d)
        mv = "draw" if "draw" in moves else sorted(moves)[0]
        d.play(mv)
        turns += 1
    assert turns == 20


def test_canonical_count_advances_only_when_made_and_20_ends() -> None:
    # seat 0: A 2 3 4 5 6 + K; seat 1: 7 8 9 T J Q + K ... canonical makes counts 1..20
    hands = [["AS", "2S", "3S", "4S", "5S", "6S", "KS"], ["7H", "8H", "9H", "TH", "JH", "QH", "KH"]]
    d = CANON.deal(deck=dealt(hands))
    assert legal(d) >= {"AS", "KS=1", "draw"}
    d.play("draw")  # count stays 1
    assert d.to_move == 1 and legal(d) == {"KH=1", "draw"}
    d.play("draw")
    assert legal(d) >= {"AS", "KS=1"} and "2S" not in legal(d)
    d.play("AS")  # count 1 made -> 2
    assert legal(d) == {"KH=2", "draw"}
    d.play("KH")  # values filled in
    assert d.view(0).history[-1] == (1, "KH=2")
    assert "3S" in legal(d) and "2S" not in legal(d) and "KS=3" in legal(d)


def test_canonical_king_values_printed_first_king_high() -> None:
    hands = [["KS", "KC", "KD", "2S", "3S", "4S", "5S"], ["KH", "AH", "2H", "3H", "4H", "5H", "6H"]]
    d = CANON.deal(deck=dealt(hands))
    # count 1: three Kings make at least 3, so only single Kings and... no Ace in seat 0
    assert legal(d) == {"KC=1", "KD=1", "KS=1", "draw"}
    d.play("KD=1")
    d.play("AH+KH")  # count 2: AH + KH as 1
    assert d.view(0).history[-1] == (1, "AH+KH=1")
    # count 3: two Kings: first as high as possible leaving 1 for the next; suit order C D H S
    assert {"KC=2+KS=1", "2S+KC=1", "2S+KS=1", "3S", "KC=3", "KS=3", "draw"} == legal(d)
    d.play("KS=1+KC=2")  # any values that make the count, in any order
    assert d.view(1).history[-1] == (0, "KC=2+KS=1")


# ---------------------------------------------------------------------------------------------
# Scoring (RULES 2.5)


def test_match_scores_rotation_and_winners() -> None:
    game = cardplay.load("twenty", players=3, target=40)
    match = game.match(seed=21, dealer=1)
    rng = random.Random(21)
    seen_deals: list[Deal] = []
    prev: Deal | None = None
    while not match.is_over:
        if match.deal is not prev:
            prev = match.deal
            seen_deals.append(prev)
            k = len(seen_deals) - 1
            assert prev.dealer == (1 + k) % 3  # the deal passes to the left
            assert match.to_move == (prev.dealer + 1) % 3
            assert match.winners == []
        match.play(rng.choice(match.legal_moves()))
    results = [d.result for d in seen_deals]
    assert all(r is not None for r in results)
    assert match.scores == [sum(r[i] for r in results) for i in range(3)]  # type: ignore[index]
    best = max(match.scores)
    assert best >= 40 and match.winners == [match.scores.index(best)]
    assert match.scores.count(best) == 1
    # the first crossing ends it: before the last deal, nobody was >= 40 as sole leader
    before = [sum(r[i] for r in results[:-1]) for i in range(3)]  # type: ignore[index]
    assert max(before) < 40 or before.count(max(before)) > 1
    with pytest.raises(IllegalMoveError):
        match.play("draw")
    with pytest.raises(InvalidMoveError):
        match.play("XX")


# ---------------------------------------------------------------------------------------------
# Notation (RULES 0.1, 0.4)


@pytest.mark.parametrize(("text", "canonical"), [
    ("KH+QD+JC+TS+9H+AC", "AC+9H+TS+JC+QD+KH"),
    ("AS+AH+AD+AC+2C", "AC+AD+AH+AS+2C"),
    ("10c+10d", "TC+TD"), ("♣10+♦10", "TC+TD"), ("В♠+Д♥", "JS+QH"), ("т♦+к♣", "AD+KC"),
    ("jS", "JS"),
])
def test_seed_printing_and_parsing(text: str, canonical: str) -> None:
    assert str(SEED.parse_move(text)) == canonical


@pytest.mark.parametrize(("text", "canonical"), [
    ("KS=1+KC=1+KD=1", "KC=1+KD=1+KS=1"), ("KS+KC=2", None), ("K♠=3", "KS=3"),
    ("KD=10+KC=10", "KC=19+KD=1"), ("KH=20+KS=20+KD=20", "KD=20+KH=20+KS=20"),
])
def test_exact_printing_and_parsing(text: str, canonical: str | None) -> None:
    if canonical is None:
        with pytest.raises(InvalidMoveError):
            CANON.parse_move(text)  # a value for every King or for none
    else:
        assert str(CANON.parse_move(text)) == canonical


# ---------------------------------------------------------------------------------------------
# Options (RULES 0.5, 2.6; DESIGN 2)


@pytest.mark.parametrize(("name", "value"), [
    ("preset", "CANON"), ("count_rule", "atmost"), ("tie_policy", "none"), ("target", -1),
    ("players", 0), ("players", 52),
])
def test_bad_option_values(name: str, value: Any) -> None:
    with pytest.raises(OptionError):
        cardplay.load("twenty", **{name: value})
    assert issubclass(OptionError, ValueError)


def test_defaults_and_players() -> None:
    for n, stock in ((2, 38), (3, 31), (4, 24)):
        g = cardplay.load("twenty", players=n)
        d = g.deal(seed=1)
        assert d.players == n and d.dealer == n - 1 and d.to_move == 0
        assert [len(d.view(s).hand) for s in range(n)] == [7] * n
        assert sum(len(d.view(s).hand) for s in range(n)) + stock == 52
    assert cardplay.load("twenty").players == 2
