"""Determinization in the trick games: ``game.sample_deal(view, rng)`` for Sixty-Six (both presets),
Two-Ten-Jack and Maltese Twenty deals uniformly among the worlds consistent with the view.

A world is a whole deck order that gives the seat its view (``world.view(seat).to_dict() ==
view.to_dict()``) and replays the public history legally. With a uniformly shuffled deck and
opponents whose play does not depend on their hidden cards, every consistent deck order is equally
likely, so the sampler must return each with equal probability: an opponent's hand is then as
likely as the number of deck orders that give it, which is not the same as uniform over the hands
that fit when a void limits when a card can have been drawn.

Three kinds of test:
* consistency on random positions of every option set not covered by the conformance test;
* hand-built deals (fixed deck order, exact moves) for each public constraint: a void shown by a
  failure to follow, a failure to head, a marriage partner shown, the exchanged trump card, the
  trump card's taker, a card drawn at one exact moment, the cards of a refill; no sample may put
  a constrained card anywhere else;
* uniformity by counting: the oracle here enumerates candidate deck orders by brute force, keeps
  those that replay through the public ``play()`` to the same view, and compares the sampler's
  frequencies with the exact probabilities (a chi-square bound far from any honest fluctuation),
  and every consistent world must turn up and no other. In the late Two-Ten-Jack case the exact
  hand probabilities are far from uniform over the hands that fit, so a sampler that draws the
  hand that way fails by a wide margin.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import pytest

import cardplay
from cardplay.builtin.sixty_six import VU_SCHNAPSEN_OPTIONS
from cardplay.builtin.two_ten_jack import DrawTimes
from cardplay.cards import format_card
from cardplay.engine import Deal, Game, IllegalMoveError, View

TTJ = cardplay.load("two-ten-jack")
SIXTY_SIX = cardplay.load("sixty-six")
SCHNAPSEN = cardplay.load("sixty-six", preset="schnapsen")
MALTESE = cardplay.load("maltese-twenty")

K = TypeVar("K", bound=Hashable)


# ------------------------------------------------------------------------------------------------
# Helpers


def _cards(text: str) -> list[str]:
    return text.split()


def _play(game: Game, deck: Sequence[str], moves: Iterable[str], dealer: int = 1) -> Deal:
    deal = game.deal(deck=list(deck), dealer=dealer)
    for move in moves:
        deal.play(move)
    return deal


def _fits(game: Game, view: View, deck: Sequence[str], moves: int | None = None) -> bool:
    """Whether the deck replays the view's history through ``play()`` (only its first ``moves``
    moves when given, without comparing views) and, for the whole history, shows the same view."""
    deal = game.deal(deck=list(deck), dealer=view.dealer)
    history = view.history if moves is None else view.history[:moves]
    try:
        for seat, text in history:
            deal.play(text, seat=seat)
    except IllegalMoveError:
        return False
    return moves is not None or deal.view(view.seat).to_dict() == view.to_dict()


def _hand(deal: Deal, seat: int) -> frozenset[str]:
    # the deal's hook: a whole view rebuilds the history's text, too slow for thousands of worlds
    return frozenset(format_card(c) for c in deal._hand(seat))


def _assert_distribution(counts: Counter[Any], probs: Mapping[Any, float]) -> None:
    """Every outcome drawn is possible, every possible one was drawn, and the frequencies fit
    the exact probabilities (chi-square below dof + 6 standard deviations + 10)."""
    n = sum(counts.values())
    impossible = sorted(map(str, set(counts) - set(probs)))
    assert not impossible, f"{len(impossible)} outcomes no consistent world gives: {impossible[:5]}"
    missing = sorted(map(str, set(probs) - set(counts)))
    assert not missing, f"{len(missing)} consistent outcomes never drawn: {missing[:5]}"
    assert abs(sum(probs.values()) - 1) < 1e-9
    stat = sum((counts[k] - n * p) ** 2 / (n * p) for k, p in probs.items())
    dof = len(probs) - 1
    assert stat < dof + 6 * math.sqrt(2 * dof) + 10, f"chi-square {stat:.1f} with {dof} dof"


def _uniform(outcomes: Iterable[K]) -> dict[K, float]:
    tally = Counter(outcomes)
    total = sum(tally.values())
    return {k: v / total for k, v in tally.items()}


def _samples(game: Game, view: View, n: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    return [game.sample_deal(view, rng) for _ in range(n)]


# ------------------------------------------------------------------------------------------------
# Consistency on random positions (option sets and dealers the conformance test does not cover)


@pytest.mark.parametrize(("name", "options", "dealer"), [
    ("sixty-six", {"preset": "schnapsen"}, 1),
    ("sixty-six", {"exchange": "any_lead", "must_head": False}, 0),
    ("sixty-six", {"end_mode": "first_to_66", "marriage_requires_trick": False}, 1),
    ("sixty-six", {"allow_close": False}, 0),
    ("two-ten-jack", {}, 0),
    ("maltese-twenty", {"round_end": "both_empty"}, 0),
])
def test_sampled_worlds_replay_the_history_of_random_positions(
        name: str, options: dict[str, Any], dealer: int) -> None:
    game = cardplay.load(name, **options)
    rng = random.Random(5)
    for seed in range(4):
        deal = game.deal(seed=seed, dealer=dealer)
        step = 0
        while not deal.is_over:
            if step % 4 == seed % 4:
                for seat in (0, 1):
                    view = deal.view(seat)
                    for k in range(2):
                        world = game.sample_deal(view, random.Random(seed * 1000 + step * 2 + k))
                        assert world.view(seat).to_dict() == view.to_dict()
                        assert _fits(game, view, world.deck)
            deal.play(rng.choice(deal.legal_moves()))
            step += 1


@pytest.mark.parametrize("name, options", [
    ("sixty-six", {}), ("sixty-six", {"preset": "schnapsen"}),
    ("sixty-six", {"exchange": "any_lead"}), ("sixty-six", VU_SCHNAPSEN_OPTIONS),
    ("two-ten-jack", {})])
def test_worlds_copied_from_the_first_equal_their_deck_replayed(
        name: str, options: dict[str, Any]) -> None:
    # After the first world of a view, sample_deal copies it and replaces only what the view
    # hides, instead of replaying the history: every such world must be exactly the deal its
    # own deck order gives when the history is replayed on it, in every field.
    game = cardplay.load(name, **options)
    rng = random.Random(8)
    compared = 0
    for seed in range(6):
        deal = game.deal(seed=seed, dealer=seed % 2)
        while deal.to_move is not None:
            view = deal.view(deal.to_move)
            draws = random.Random(seed)
            for _ in range(3):
                world = game.sample_deal(view, draws)
                again = game._deal_from_order(list(world._order), world.dealer, 0, True,
                                              dict(world._context))
                for _, text in view.history:
                    again.apply_code(game.code_of(text))
                assert vars(world) == vars(again)
                compared += 1
            deal.play(rng.choice(deal.legal_moves()))
    assert compared >= 200


# ------------------------------------------------------------------------------------------------
# Sixty-Six and Schnapsen: hand-built constraints

# Schnapsen, trumps clubs (TC turned). Seat 0 (non-dealer) exchanges the trump jack for TC on the
# first lead and announces the heart marriage leading KH (QH shown); seat 1 wins with AH, both draw
# (seat 1 the 12th card, seat 0 the 13th), seat 1 closes and leads AS, and seat 0 must trump with
# TC: he holds no spade.
SCHNAPSEN_DECK = _cards("JC AH KH AS QH AC JD KC KD QC TC TH AD TS KS QS JS JH TD QD")
SCHNAPSEN_MOVES = ["exchange", "KH=20", "AH", "close", "AS", "TC"]
SCHNAPSEN_DEALT = [0, 2, 4, 6, 8]  # seat 0's dealt cards; seat 1's are the odd positions


def test_schnapsen_partner_exchange_and_void_constrain_every_sample() -> None:
    view = _play(SCHNAPSEN, SCHNAPSEN_DECK, SCHNAPSEN_MOVES).view(1)
    assert view.public["known_cards"][0] == ["QH"]
    for world in _samples(SCHNAPSEN, view, 150, seed=1):
        deck = world.deck
        dealt = {deck[i] for i in SCHNAPSEN_DEALT}
        # the exchanged jack and both marriage cards were held before any draw
        assert {"JC", "KH", "QH"} <= dealt
        assert deck[10] == "TC"  # the turned trump card, now in seat 0's tricks
        assert "QH" in _hand(world, 0)  # the shown partner is still in his hand
        assert not any(c.endswith("S") for c in _hand(world, 0))  # void in spades


# Sixty-Six, trumps hearts. Seat 0 wins the first trick and closes; seat 1 follows KD with QD (so it
# holds neither AD nor TD: it would have to head), JS on QS (no TS), and 9D on AS: no spade and no
# trump left.
SIXTY_SIX_DECK = _cards("AC 9C KD QD AS JC KS 9D QS KC TC QC JH 9S JS AH TH KH QH 9H TS AD TD JD")
SIXTY_SIX_MOVES = ["AC", "9C", "close", "KD", "QD", "QS", "JS", "AS", "9D"]


def test_sixty_six_failures_to_head_and_follow_constrain_every_sample() -> None:
    view = _play(SIXTY_SIX, SIXTY_SIX_DECK, SIXTY_SIX_MOVES, dealer=1).view(0)
    seen: set[str] = set()
    for world in _samples(SIXTY_SIX, view, 150, seed=2):
        hand = _hand(world, 1)
        assert not hand & {"AD", "TD", "TS"}
        assert not any(c[1] in "SH" for c in hand)
        seen |= hand
    assert seen == {"JD", "JC", "KC", "QC"}  # every card it may hold turns up


# Sixty-Six, trumps diamonds (QD turned). Seat 0 wins the first trick and exchanges the nine of
# trumps on the next lead; seat 0 wins the sixth trick, so it draws the last talon card and seat 1
# takes the face-up card, which is now the nine.
TAKER_DECK = _cards("QC AC 9D KD TH TS JC JH AD 9H KC JD QD 9S TD KS 9C QH KH AS AH TC QS JS")
TAKER_MOVES = ["KC", "JH", "exchange", "9S", "TS", "TD", "JC", "QH", "9C", "JD", "QC", "AS",
               "AD"]


def test_sixty_six_trump_card_taker_and_exchanged_card_in_every_sample() -> None:
    deal = _play(SIXTY_SIX, TAKER_DECK, TAKER_MOVES, dealer=1)
    for seat in (0, 1):
        view = deal.view(seat)
        public = view.public
        assert public["stock"] == 0 and public["exchange"]["seat"] == 0
        assert public["trump_card_taker"] == 1
        for world in _samples(SIXTY_SIX, view, 60, seed=3 + seat):
            # the exchanger holds the card he took, the taker the nine he left under the talon
            assert "QD" in _hand(world, 0) and "9D" in _hand(world, 1)
            assert world.deck[12] == "QD"  # the turned trump card, dealt 13th
            # the nine was in the exchanger's hand before the exchange: dealt or first drawn
            nine_at = world.deck.index("9D")
            assert nine_at in (0, 2, 4, 6, 8, 10, 13)


# ------------------------------------------------------------------------------------------------
# Sixty-Six and Schnapsen: uniformity by counting


def test_schnapsen_worlds_are_uniform_by_counting() -> None:
    """Deck positions: seat 0 dealt 0 2 4 6 8, seat 1 dealt 1 3 5 7 9, the trump card 10, then
    the draws of the first trick (seat 1 the winner: 11, seat 0: 12), then the closed talon 13-19,
    whose order nobody sees. A world is therefore which five cards each seat was dealt, which card
    each drew and which cards stay in the talon; each such world stands for the same number of
    deck orders (5! x 5! x 7!). What either seat could do depends only on its own cards, so the
    consistent worlds are the pairs of a consistent seat-0 part and a consistent seat-1 part:
    each part is enumerated with the other as dealt. Seat 0's hand (3 unknown cards of the 6
    non-spades left), what it drew and what stays in the talon all vary; the exchange and the
    marriage pin JC, KH and QH among its dealt cards."""
    view = _play(SCHNAPSEN, SCHNAPSEN_DECK, SCHNAPSEN_MOVES).view(1)
    real = SCHNAPSEN_DECK
    mine_at = [1, 3, 5, 7, 9, 11]
    theirs_at = [0, 2, 4, 6, 8, 12, *range(13, 20)]
    mine = [real[i] for i in mine_at]
    theirs = [real[i] for i in theirs_at]
    first_draw = 3  # moves before the first draw: the dealt cards decide them alone

    def deck_with(places: dict[int, str]) -> list[str]:
        deck = list(real)
        for i, c in places.items():
            deck[i] = c
        return deck

    # Seat 1's part: which of its six cards it drew.
    my_worlds = []
    for drawn in mine:
        dealt = sorted(c for c in mine if c != drawn)
        if _fits(SCHNAPSEN, view, deck_with({**dict(zip(mine_at, dealt)), 11: drawn})):
            my_worlds.append(drawn)
    # Seat 0's part: its five dealt cards (checked on the moves before the first draw), then the
    # card it drew; the rest is the talon.
    their_worlds = []
    for dealt_set in itertools.combinations(sorted(theirs), 5):
        rest = sorted(set(theirs) - set(dealt_set))
        places = dict(zip(theirs_at, [*dealt_set, *rest]))
        if not _fits(SCHNAPSEN, view, deck_with(places), moves=first_draw):
            continue
        for drawn in rest:
            talon = [c for c in rest if c != drawn]
            places = dict(zip(theirs_at, [*dealt_set, drawn, *talon]))
            if _fits(SCHNAPSEN, view, deck_with(places)):
                their_worlds.append((frozenset(dealt_set), drawn))
    assert sorted(my_worlds) == ["AC", "AS", "KC", "QC", "TH"]  # AH was led before the draw
    assert len(their_worlds) == 60  # 20 hands of 3 among JH AD TD KD QD JD, each drawn 3 ways

    samples = _samples(SCHNAPSEN, view, 2000, seed=11)
    _assert_distribution(Counter(w.deck[11] for w in samples), _uniform(my_worlds))
    _assert_distribution(Counter((frozenset(w.deck[i] for i in SCHNAPSEN_DEALT), w.deck[12])
                                 for w in samples), _uniform(their_worlds))
    # The talon's top card: any card left in the talon, equally.
    top: Counter[str] = Counter()
    for dealt_cards, drawn in their_worlds:
        for c in set(theirs) - dealt_cards - {drawn}:
            top[c] += 1
    _assert_distribution(Counter(w.deck[13] for w in samples),
                         {c: k / (7 * len(their_worlds)) for c, k in top.items()})


def test_sixty_six_hands_after_failures_to_head_are_uniform_by_counting() -> None:
    """The three cards seat 1 still holds may be any three of the twelve unseen cards, each
    placed where its real hand lay (a card still in hand was needed by no move, so where it lay
    changes nothing else); the other nine stay in the talon in a fixed order, which nobody sees."""
    deal = _play(SIXTY_SIX, SIXTY_SIX_DECK, SIXTY_SIX_MOVES, dealer=1)
    view = deal.view(0)
    real = SIXTY_SIX_DECK
    hand_at = sorted(real.index(c) for c in _hand(deal, 1))
    talon_at = list(range(15, 24))
    unseen = sorted(real[i] for i in hand_at + talon_at)
    assert len(unseen) == 12
    hands = []
    for hand in itertools.combinations(unseen, 3):
        deck = list(real)
        rest = [c for c in unseen if c not in hand]
        for i, c in zip(hand_at + talon_at, [*hand, *rest], strict=True):
            deck[i] = c
        if _fits(SIXTY_SIX, view, deck):
            hands.append(frozenset(hand))
    assert len(hands) == 4  # three of JD JC KC QC
    _assert_distribution(Counter(_hand(w, 1) for w in _samples(SIXTY_SIX, view, 800, seed=12)),
                         _uniform(hands))


# ------------------------------------------------------------------------------------------------
# Two-Ten-Jack: hand-built constraints


def _ttj_deck(nondealer: Sequence[str], dealer: Sequence[str], rest: Sequence[str]) -> list[str]:
    head = [c for pair in zip(nondealer, dealer, strict=True) for c in pair] + list(rest)
    return head + [format_card(c) for c in range(52) if format_card(c) not in head]


def test_two_ten_jack_voids_pin_the_cards_drawn_after_them() -> None:
    # Seat 1 plays 4D on 7S: no spade (the A♠ included) and no trump in its first six cards. On
    # 5C it plays the A♠, a trump: it held no club, and the A♠ can only be the card it drew
    # right after the first trick (position 13: seat 0 won and drew first).
    deck = _ttj_deck(_cards("7S 5C 8S 9S TS JS"), _cards("4D 2D 5D 6D 7D 8D"),
                     _cards("2C AS 3C 9C"))
    deal = _play(TTJ, deck, ["7S", "4D", "5C", "AS"])
    view = deal.view(0)
    lone = 0
    for world in _samples(TTJ, view, 200, seed=4):
        w = world.deck
        assert w[13] == "AS"
        dealt = [w[i] for i in range(1, 12, 2)]
        assert not any(c[1] in "SHC" for c in dealt)  # the A♠ included
        hand = _hand(world, 1)
        # after the second trick only its next draw (seat 1 won it: position 14) may be a
        # spade, a trump or a club
        odd = {c for c in hand if c[1] in "SHC"}
        assert len(odd) <= 1 and odd <= {w[14]}
        lone += len(odd)
    assert 0 < lone < 200


# A late deal built so that the opponent (seat 1) always follows with the card it has just drawn
# and keeps five diamonds from the deal. Seat 0 leads and wins every trick; at the 19th trick seat
# 1 shows a void in clubs and trumps (8D on AC). Eight cards are unseen by seat 0: seat 1's six
# (its five dealt diamonds and its 19th draw) and the two left in the stock.
_TTJ_TRICKS = [("KS", "QS"), ("AH", "KH"), ("JC", "TC"), ("JS", "TS"), ("QH", "JH"),
               ("9C", "8C"), ("9S", "8S"), ("KD", "9D"), ("TH", "8H"), ("7C", "6C"),
               ("7S", "6S"), ("7H", "6H"), ("5C", "4C"), ("5S", "4S"), ("5H", "4H"),
               ("3C", "2C"), ("3S", "2S"), ("3H", "2H"), ("AC", "8D")]
_TTJ_KEPT = ["2D", "3D", "4D", "5D", "7D"]
_TTJ_LATE = ["6D"]  # seat 1's 19th draw
_TTJ_STOCK = ["QC", "9H"]
_TTJ_FINAL = ["AS", "KC", "AD", "QD", "JD", "TD"]  # seat 0's last six draws


def _ttj_late_deck() -> list[str]:
    leads = [a for a, _ in _TTJ_TRICKS]
    follows = [b for _, b in _TTJ_TRICKS]
    deck = [""] * 52
    for i in range(6):
        deck[2 * i] = leads[i]
        deck[2 * i + 1] = (_TTJ_KEPT + follows[:1])[i]
    seat0_draws = leads[6:] + _TTJ_FINAL
    seat1_draws = follows[1:] + _TTJ_LATE
    for k in range(19):  # seat 0 wins every trick, so it draws first
        deck[12 + 2 * k] = seat0_draws[k]
        deck[13 + 2 * k] = seat1_draws[k]
    deck[50:] = _TTJ_STOCK
    assert sorted(deck) == sorted(format_card(c) for c in range(52))
    return deck


def test_two_ten_jack_late_void_hand_weights_by_counting() -> None:
    """A hand holding QC or 9H needs that card to be seat 1's 19th draw; a hand of six diamonds
    may have drawn any of them then. With the played cards left where they were dealt, the oracle
    places the eight unseen cards in all ways (the five dealt positions as a set, the 19th draw,
    the stock in order) and keeps those that replay. No played card can be the 19th draw (it
    came after seat 1's last play), and the hand's only constraint is on that draw, so however
    the played cards were placed, each (hand, stock) has the same number of completions: the
    frequencies below are the exact ones. The six-diamond hand holds a third of the worlds;
    uniform over the thirteen hands that fit, it would get 1/13."""
    deck = _ttj_late_deck()
    deal = _play(TTJ, deck, [c for trick in _TTJ_TRICKS for c in trick])
    view = deal.view(0)
    assert view.public["stock"] == 2 and view.to_move == 0
    dealt_at = [i for i in range(1, 12, 2) if deck[i] in _TTJ_KEPT]
    late_at, stock_at = 49, [50, 51]
    unseen = sorted(deck[i] for i in [*dealt_at, late_at, *stock_at])
    worlds: list[tuple[frozenset[str], tuple[str, ...]]] = []
    for hand in itertools.combinations(unseen, 6):
        rest = [c for c in unseen if c not in hand]
        for late in hand:
            dealt = sorted(c for c in hand if c != late)
            for stock in itertools.permutations(rest):
                trial = list(deck)
                for i, c in zip([*dealt_at, late_at, *stock_at], [*dealt, late, *stock],
                                strict=True):
                    trial[i] = c
                if _fits(TTJ, view, trial):
                    worlds.append((frozenset(hand), stock))
    exact = _uniform(worlds)
    six_diamonds = frozenset(_TTJ_KEPT + _TTJ_LATE)
    assert sum(p for (h, _), p in exact.items() if h == six_diamonds) == pytest.approx(1 / 3)
    assert len({h for h, _ in exact}) == 13
    samples = _samples(TTJ, view, 1500, seed=13)
    _assert_distribution(Counter((_hand(w, 1), tuple(w.deck[50:])) for w in samples), exact)


def test_two_ten_jack_draw_time_counting_matches_brute_force() -> None:
    """The sampler's table of arrival times against a brute-force count on small instances:
    windows [lo, hi] for known cards, a pool with its own lo for the unknown hand, six dealt
    cards at time 0 and one draw at each later time."""
    cases: list[tuple[int, list[tuple[int, int, int]], list[tuple[int, int]], int, int]] = [
        # draws, known (lo, hi, card), pool (lo, card), hand size, worlds
        (3, [(0, 0, 1), (0, 2, 2), (1, 3, 3), (0, 3, 4)],
         [(0, 10), (0, 11), (0, 12), (0, 13), (1, 14), (2, 15), (3, 16), (3, 17)], 5, 121),
        (2, [(0, 1, 1), (0, 2, 2), (1, 2, 3)],
         [(0, 10), (0, 11), (0, 12), (0, 18), (0, 19), (1, 13), (1, 14), (2, 15), (2, 16)], 5, 43),
        (4, [(0, 1, 1), (1, 2, 2), (0, 3, 3), (2, 4, 4), (0, 4, 5)],
         [(0, 10), (0, 11), (0, 12), (1, 14), (3, 15), (4, 16)], 5, 10),
    ]
    for draws, known, pool, size, expected in cases:
        lo_of = {c: lo for lo, _, c in known} | {c: lo for lo, c in pool}
        hi_of = {c: hi for _, hi, c in known} | {c: draws for _, c in pool}
        worlds = []
        for hand in itertools.combinations([c for _, c in pool], size):
            cards = [c for _, _, c in known] + list(hand)
            for drawn in itertools.permutations(cards, draws):
                times = {c: t + 1 for t, c in enumerate(drawn)}
                if all(lo_of[c] <= times.get(c, 0) <= hi_of[c] for c in cards):
                    worlds.append((frozenset(hand), drawn))
        assert len(worlds) == expected
        table = DrawTimes(draws, known, pool, size)
        assert table.total == expected
        rng = random.Random(draws)
        counts: Counter[Any] = Counter()
        for _ in range(4000):
            sampled, arrivals = table.sample(rng)
            assert len(arrivals[0]) == 6 and all(len(a) == 1 for a in arrivals[1:])
            counts[(frozenset(sampled), tuple(a[0] for a in arrivals[1:]))] += 1
        _assert_distribution(counts, _uniform(worlds))


# ------------------------------------------------------------------------------------------------
# Maltese Twenty


def test_maltese_twenty_played_cards_stay_in_their_refill() -> None:
    # Deck in card order, seat 1 deals: bonus 2S 3S; seat 0 is dealt 4S 6S 8S TS QS, seat 1 5S 7S
    # 9S JS KS; seat 0's first refill is AS 2H 3H 4H 5H (positions 12-16), seat 1's 6H 7H 8H 9H
    # TH (17-21). Each plays its lowest card id (spades first, ace last in a suit).
    deck = [format_card(c) for c in range(52)]
    deal = MALTESE.deal(deck=deck, dealer=1)
    for _ in range(16):
        deal.play(deal.legal_moves()[0])
    view = deal.view(0)
    assert view.history[-3:] == ((1, "7H"), (0, "3H"), (1, "8H"))
    played = {"6H", "7H", "8H"}
    for world in _samples(MALTESE, view, 150, seed=5):
        w = world.deck
        assert w[:2] == ["2S", "3S"]
        assert {w[i] for i in range(3, 12, 2)} == {"5S", "7S", "9S", "JS", "KS"}
        assert {w[i] for i in range(2, 12, 2)} == {"4S", "6S", "8S", "TS", "QS"}
        assert set(w[12:17]) == {"AS", "2H", "3H", "4H", "5H"}
        assert set(w[17:22]) == played | _hand(world, 1)


def _maltese_late(stock: int, opp_hand: int) -> Deal:
    """The first position of seeded random play with ``stock`` cards left in the stock, seat 0
    to move and ``opp_hand`` cards in seat 1's hand."""
    for seed in range(20, 40):
        deal = MALTESE.deal(seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            public = deal.view(0).public
            if public["stock"] == stock and deal.to_move == 0 \
                    and public["hand_sizes"][1] == opp_hand:
                return deal
            deal.play(rng.choice(deal.legal_moves()))
    raise AssertionError("no such position")


def test_maltese_twenty_refill_orders_are_uniform_by_counting() -> None:
    """Stock empty: seat 0 knows seat 1's cards, and only the order of each five-card refill in
    the deck is open. The oracle tries all 120 orders of seat 1's last refill (the rest as
    dealt): all replay, and the sampler must give each alike."""
    deal = _maltese_late(0, 3)
    view = deal.view(0)
    real = deal.deck
    starts = [i for i in range(12, 52, 5) if set(real[i:i + 5]) & _hand(deal, 1)]
    assert len(starts) == 1
    start = starts[0]
    orders = []
    for order in itertools.permutations(real[start:start + 5]):
        trial = list(real)
        trial[start:start + 5] = order
        if _fits(MALTESE, view, trial):
            orders.append(order)
    assert len(orders) == 120
    samples = _samples(MALTESE, view, 2400, seed=14)
    _assert_distribution(Counter(tuple(w.deck[start:start + 5]) for w in samples),
                         _uniform(orders))


def test_maltese_twenty_hands_are_uniform_by_counting() -> None:
    """Ten cards left in the stock: seat 1's hand may be any of the unseen cards. The oracle
    puts every choice of them where its hand lay (the stock keeps the others, in card order) and
    keeps those that replay."""
    deal = _maltese_late(10, 2)
    view = deal.view(0)
    real = deal.deck
    hand_at = sorted(real.index(str(c)) for c in deal.view(1).hand)
    stock_at = list(range(42, 52))
    unseen = sorted(real[i] for i in hand_at + stock_at)
    hands = []
    for hand in itertools.combinations(unseen, len(hand_at)):
        trial = list(real)
        rest = [c for c in unseen if c not in hand]
        for i, c in zip(hand_at + stock_at, [*hand, *rest], strict=True):
            trial[i] = c
        if _fits(MALTESE, view, trial):
            hands.append(frozenset(hand))
    assert len(hands) == math.comb(len(unseen), len(hand_at))
    _assert_distribution(Counter(_hand(w, 1) for w in _samples(MALTESE, view, 2000, seed=15)),
                         _uniform(hands))
