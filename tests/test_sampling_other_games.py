"""``sample_deal`` for Twenty, Polish Banchok, Macao and Chukhny: every consistent world equally
likely.

A *world* is a deck order that reproduces the seat's view and replays the history legally from
the start (Polish Banchok, whose used cards are reshuffled under the deck by each deal's own
generator, is checked on a round dealt from the opening shuffle, where that holds too). With a
uniformly shuffled deck and opponents whose play does not depend on their hidden cards, every
consistent deck order is equally likely, so a hidden hand is NOT uniform among the possible
hands when some hands fit in more deck orders than others (a card that could only have been
drawn late, say).

The uniformity tests count: an independent oracle enumerates every placement of the unknown
cards in small hand-built positions, keeps those whose deck replays through the public
``play()`` to the same view, and the sampled worlds must hit every kept placement, no other,
and pass a chi-square test against the counts. Where the oracle fixes a factor that is the
same for every world (the order of the undrawn stock, a seat's interchangeable dealt
positions, the viewer's own arrangement, independent of the others'), the comment says why.
Speed is measured in ``benchmarks/``, not here.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar

import pytest

import cardplay
from cardplay.builtin import chukhny as chukhny_module
from cardplay.builtin.banchok import BanchokDeal
from cardplay.builtin.macao import DECK as MACAO_DECK
from cardplay.builtin.macao import VALUE, MacaoDeal
from cardplay.cards import format_card, parse_card
from cardplay.engine import Deal, Game, IllegalMoveError, View
from helpers import play_all

K = TypeVar("K", bound=Hashable)

RANKS_36 = [r + s for r in "6789TJQKA" for s in "SHDC"]


def words(text: str) -> list[str]:
    """Cards or moves written one after another."""
    return text.split()


def replays(game: Game, world: Deal, view: View, **context: Any) -> bool:
    """The world's deck order replays the history through the checked path to the same view."""
    again = game.deal(deck=world.deck, dealer=world.dealer, **context)
    try:
        play_all(again, [t for _, t in view.history])
    except IllegalMoveError:
        return False
    return bool(again.view(view.seat).to_dict() == view.to_dict())


def assert_uniform(observed: Counter[K], weights: Mapping[K, int], n: int) -> float:
    """Samples against exact counts: nothing outside the support, every world drawn, and a
    chi-square statistic within about six standard deviations of its mean (generous)."""
    assert sum(observed.values()) == n
    extra = set(observed) - set(weights)
    assert not extra, f"samples outside the consistent worlds: {sorted(map(str, extra))[:3]}"
    missing = set(weights) - set(observed)
    assert not missing, f"consistent worlds never drawn: {sorted(map(str, missing))[:3]}"
    total = sum(weights.values())
    stat = sum((observed[k] - n * w / total) ** 2 / (n * w / total) for k, w in weights.items())
    dof = len(weights) - 1
    assert stat < dof + 6 * math.sqrt(2 * dof) + 10, (stat, dof)
    return stat


def world_fits(game: Game, deck: Sequence[str], dealer: int, placed: Mapping[int, str],
               moves: list[str], seat: int, target: dict[str, Any]) -> bool:
    """The oracle's one test of a candidate world: ``deck`` with the cards of ``placed``
    (position: card) put in, dealt and replayed through the checked path, shows ``seat`` the
    very view ``target``."""
    order = list(deck)
    for p, c in placed.items():
        order[p] = c
    world = game.deal(deck=order, dealer=dealer)
    try:
        play_all(world, moves)
    except IllegalMoveError:
        return False
    return bool(world.view(seat).to_dict() == target)


def sample_counts(game: Game, view: View, n: int, outcome: Callable[[Deal], K]) -> Counter[K]:
    seen: Counter[K] = Counter()
    rng = random.Random(2024)
    for _ in range(n):
        seen[outcome(game.sample_deal(view, rng))] += 1
    return seen


# --------------------------------------------------------------------------------------------
# Twenty

# Seed preset, 2 players, dealer 1: seat 0 is dealt positions 0, 2, ..., 12, seat 1 positions
# 1, 3, ..., 13, the stock starts at 14. Seat 1 plays 2S, 3H, 6S, has no card counting at most
# 8 at move 8 and draws (position 14), then plays JD, JS and QC: it holds one card.
TWENTY_DECK = ("JS 9H KH JH 4H TS JD 6S 5H 3H QC 2S AC QH TD 8H TC 7D KD JC 9D AS 8D AD AH 7S "
               "TH 2H 8C KS 3C 8S 6D 5C 9C 3D QS 5D 6H 5S 3S KC 6C 2C 4S 4D 4C 2D QD 9S 7H 7C")
TWENTY_MOVES = words("KH 2S AC 3H 4H 6S 5H draw draw QH JD TD JS 9H QC TS")


TwentyWorld = tuple[frozenset[str], tuple[str, ...]]


def twenty_seat_worlds(game: Game, deck: list[str], dealer: int, moves: list[str], seat: int,
                       opp: int) -> tuple[View, Counter[TwentyWorld], list[int]]:
    """Every world, as (seat ``opp``'s hand, the cards of its drawn positions), counted.

    Seat ``opp``'s cards (those it played and any hand from the unseen cards) go to its drawn
    positions in every order and the rest to its seven dealt positions (all dealt at once, so
    their order never matters: each class is 7! deck orders); the undrawn stock takes the other
    unseen cards in a fixed order (the same number of orders for every class), the viewer's own
    positions stay as dealt (its arrangements do not depend on the other seat's)."""
    real = play_all(game.deal(deck=deck, dealer=dealer), moves)
    view = real.view(seat)
    target = view.to_dict()
    n = game.players
    first = (dealer + 1) % n
    dealt_pos = [i * n + (opp - first) % n for i in range(7)]
    drawn_pos: list[int] = []
    drawn = 0
    played_by_opp: list[str] = []
    played: set[str] = set()
    for s, text in view.history:
        if text == "draw":
            if s == opp:
                drawn_pos.append(7 * n + drawn)
            drawn += 1
        elif text != "pass":
            cards = [c.partition("=")[0] for c in text.split("+")]
            played.update(cards)
            if s == opp:
                played_by_opp += cards
    unseen = [c for c in deck if c not in played and c not in target["hand"]]
    undrawn = range(7 * n + drawn, 52)
    counts: Counter[TwentyWorld] = Counter()
    for hand in itertools.combinations(unseen, target["public"]["hand_sizes"][opp]):
        cards = played_by_opp + list(hand)
        stock = [c for c in unseen if c not in hand]
        for late in itertools.permutations(cards, len(drawn_pos)):
            placed = {**dict(zip(dealt_pos, [c for c in cards if c not in late])),
                      **dict(zip(drawn_pos, late)), **dict(zip(undrawn, stock))}
            if world_fits(game, deck, dealer, placed, moves, seat, target):
                counts[(frozenset(hand), late)] += 1
    return view, counts, drawn_pos


def test_twenty_forced_draw_decides_where_a_later_card_came_from() -> None:
    # Seat 1 had no card counting at most 2 at move 2 and drew; at move 4 it plays 2C: so 2C is
    # the card it drew (position 14), and none of its dealt cards counts 2 or less (A, 2, K).
    game = cardplay.load("twenty", players=2)
    hands = [["AS", "3S", "9S", "9H", "9D", "9C", "8S"],
             ["5C", "6C", "7C", "8C", "TC", "JC", "QC"]]
    top = [hands[i % 2][i // 2] for i in range(14)] + ["2C"]
    deck = top + [format_card(c) for c in range(52) if format_card(c) not in top]
    d = play_all(game.deal(deck=deck, dealer=1), ["AS", "draw", "3S", "2C"])
    view = d.view(0)
    rng = random.Random(1)
    for _ in range(200):
        world = game.sample_deal(view, rng)
        assert world.deck[14] == "2C"
        assert not {c[0] for c in world.deck[1:14:2]} & {"A", "2", "K"}
        assert world.view(0).to_dict() == view.to_dict()
    assert replays(game, world, view)


def test_twenty_seed_preset_is_uniform_over_deck_orders_not_hands() -> None:
    game = cardplay.load("twenty", players=2)
    view, counts, drawn_pos = twenty_seat_worlds(game, words(TWENTY_DECK), 1, TWENTY_MOVES,
                                                 seat=0, opp=1)
    by_hand: Counter[frozenset[str]] = Counter()
    for (hand, _late), k in counts.items():
        by_hand[hand] += k
    # 37 possible hands, not equally likely: a card counting 8 or less must be the one drawn at
    # move 8 (a dealt one was held then), while a 9, 10 or court card may sit in the drawn
    # position or in any dealt one whose card seat 1 played after the draw. A sampler uniform
    # over hands would give each 1/37; over deck orders QD is 5/73 and KS 1/73.
    assert len(by_hand) == 37 and len(counts) == 73
    assert by_hand[frozenset({"KS"})] == 1 and by_hand[frozenset({"QD"})] == 5

    def outcome(world: Deal) -> TwentyWorld:
        return (frozenset(format_card(c) for c in world._hand(1)),
                tuple(world.deck[p] for p in drawn_pos))

    assert_uniform(sample_counts(game, view, 3000, outcome), counts, 3000)


# Canonical preset, 3 players, dealer 2: the stock is empty, seats 1 and 2 pass at count 19, so
# neither holds a King or any cards that make 19. Seat 0 sees its own hand; the others' 10
# unseen cards are split 6 and 4 between them.
CANON_DECK = ("9H 3C 2H QH 8D 7S 7H JC JH TD 4H 5D JS 3D 6D 4D 4C KC 6H 5H 5C JD 9C KD 9S 6S "
              "TS 6C 8C 5S AH TC KS 2S TH KH 2D 8S 7C 3S 9D AS QC 2C 7D 4S QD QS AC 8H 3H AD")
CANON_MOVES = ["draw"] * 14 + ["KD=1"] + ["draw"] * 7 + words(
    "2D 2H+KC=1 AS+2S+KH=1 5H 5S+KS=1 AH+6C 8C 9D JS 3D+4C+4H 5D+7S 4D+9S draw 6D+8S draw "
    "3C+3S+9C draw draw 6S+TC 7D+TS 2C+7H+9H") + ["draw"] * 6 + ["pass", "pass"]


Split = tuple[frozenset[str], ...]


def canonical_splits(game: Game, deck: list[str], dealer: int, moves: list[str],
                     seat: int) -> tuple[View, Counter[Split], list[int]]:
    """Every split of the other seats' unseen cards between them, counted.

    With the stock empty the unseen cards are exactly the other seats' hands. Each seat's
    unseen cards go to the positions its unseen cards really hold; every seat drew all its cards
    before its first pass, so an unseen card may sit in any of its free positions and every
    split has the same number of arrangements (hence one representative each)."""
    real = play_all(game.deal(deck=deck, dealer=dealer), moves)
    view = real.view(seat)
    target = view.to_dict()
    others = [o for o in range(game.players) if o != seat]
    where = {c: i for i, c in enumerate(deck)}
    free = {o: sorted(where[format_card(c)] for c in real._hand(o))
            for o in others}
    unseen = sorted(deck[p] for o in others for p in free[o])
    counts: Counter[Split] = Counter()

    def split(i: int, pool: list[str], chosen: list[tuple[str, ...]]) -> None:
        if i == len(others):
            placed: dict[int, str] = {}
            for o, cards in zip(others, chosen):
                placed.update(zip(free[o], cards))
            if world_fits(game, deck, dealer, placed, moves, seat, target):
                counts[tuple(frozenset(cards) for cards in chosen)] += 1
            return
        for cards in itertools.combinations(pool, len(free[others[i]])):
            split(i + 1, [c for c in pool if c not in cards], [*chosen, cards])

    split(0, unseen, [])
    return view, counts, others


def test_twenty_canonical_passes_rule_out_every_subset_making_the_count() -> None:
    game = cardplay.load("twenty", preset="canonical", players=3)
    view, counts, others = canonical_splits(game, words(CANON_DECK), 2, CANON_MOVES, seat=0)
    assert view.public["count"] == 19 and len(counts) == 168  # of C(10, 6) = 210 splits

    def outcome(world: Deal) -> Split:
        return tuple(frozenset(format_card(c) for c in world._hand(o)) for o in others)

    seen = sample_counts(game, view, 3000, outcome)
    for hands in seen:
        for hand in hands:
            assert "K" not in {c[0] for c in hand}
            values = ["A23456789".find(c[0]) + 1 or 10 for c in hand]
            assert all(sum(s) != 19 for k in range(1, len(values) + 1)
                       for s in itertools.combinations(values, k))
    assert_uniform(seen, counts, 3000)


def test_twenty_options_outside_the_presets_stay_consistent() -> None:
    # exact counts with compulsory draws: subset constraints at every draw, checked by replay
    game = cardplay.load("twenty", count_rule="exact", may_draw_voluntarily=False, players=3)
    rng = random.Random(5)
    for seed in range(3):
        d = game.deal(seed=seed)
        step = 0
        while not d.is_over:
            if step % 4 == 0:
                view = d.view(step % 3)
                assert replays(game, game.sample_deal(view, random.Random(step)), view)
            d.play(rng.choice(d.legal_moves()))
            step += 1


# --------------------------------------------------------------------------------------------
# Chukhny


Draws = tuple[tuple[str, ...], ...]


def chukhny_worlds(game: Game, deck: list[str], dealer: int, moves: list[str],
                   seat: int) -> tuple[View, Counter[Draws], dict[int, list[int]]]:
    """Every world, as the cards of each other seat's failed draws, counted.

    Each other seat's failed-draw positions take, in every order, the cards it played without
    them being shown plus any of the unseen cards it still holds; the undrawn stock takes the
    rest in a fixed order; the viewer's own failed draws stay as they were."""
    real = play_all(game.deal(deck=deck, dealer=dealer), moves)
    view = real.view(seat)
    target = view.to_dict()
    pub = target["public"]
    pos = len(pub["start_cards"])
    slots: dict[int, list[int]] = {q: [] for q in range(game.players) if q != seat}
    for entry in pub["draws"]:
        if entry["seat"] != seat and entry["card"] is None:
            slots[entry["seat"]].append(pos)
        pos += 1
    shown = set(pub["start_cards"]) | {e["card"] for e in pub["draws"] if e["card"]}
    played = {q: [t for s, t in view.history if s == q and t not in ("draw", "take")
                  and t not in shown] for q in slots}
    holds = {q: pub["hand_sizes"][q] - len(pub["known"][q]) for q in slots}
    visible = set(target["hand"]) | shown | {t for _, t in view.history}
    for cards in pub["known"]:
        visible |= set(cards)
    unseen = [c for c in deck if c not in visible]
    undrawn = range(pos, len(deck))
    seats = sorted(slots)
    counts: Counter[Draws] = Counter()

    def place(i: int, pool: list[str], chosen: list[tuple[str, ...]]) -> None:
        if i == len(seats):
            placed = dict(zip(undrawn, pool))
            for q, cards in zip(seats, chosen):
                placed.update(zip(slots[q], cards))
            if world_fits(game, deck, dealer, placed, moves, seat, target):
                counts[tuple(chosen)] += 1
            return
        q = seats[i]
        for hand in itertools.combinations(pool, holds[q]):
            rest = [c for c in pool if c not in hand]
            for cards in itertools.permutations(played[q] + list(hand)):
                place(i + 1, rest, [*chosen, cards])

    place(0, unseen, [])
    return view, counts, slots


def test_chukhny_failed_draws_and_a_private_play() -> None:
    # 36 cards, 2 players, the pile starts at 7D. Seat 0 draws 9C, 8S (played). Seat 1 needs a
    # 9: draws KH and 6C (kept) and 9D (played). Seat 0 draws 7C, TS (played). Seat 1, needing a
    # Jack, draws JH (played); seat 0 draws QD; seat 1 plays KH from its hand. So KH was one of
    # seat 1's two failed draws (positions 3 and 4), and the other card is neither a 9 (needed
    # at both draws) nor a Jack (needed while it was held).
    game = cardplay.load("chukhny", players=2, deck_size=36)
    top = words("7D 9C 8S KH 6C 9D 7C TS JH QD")
    deck = top + [c for c in RANKS_36 if c not in top]
    d = play_all(game.deal(deck=deck, dealer=1), ["draw"] * 9 + ["KH"])
    view = d.view(0)
    rng = random.Random(3)
    others: Counter[str] = Counter()
    for _ in range(300):
        world = game.sample_deal(view, rng)
        pair = {world.deck[3], world.deck[4]}
        assert "KH" in pair
        (other,) = pair - {"KH"}
        assert other[0] not in "9J" and other not in set(top) - {"6C"}  # 6C: seat 0 never saw it
        others[other[0]] += 1
    assert set(others) == set("678TQKA")
    assert replays(game, world, view)


# 36 cards, 2 players, dealer 1, near the end of the stock. Seat 1 failed five draws (positions
# 12, 13, 14, 16, 17), later played QC, 8C, QS and 6H from its hand, and holds one unseen card;
# the needs it showed in between limit which draw each card can have been.
CHUKHNY_DECK = ("KC KS KD 7S 7H TH JS 9D 7C 7D 6S AC QS 6H KH 8D 8C QC TD AD 9C TC TS 6D 6C 8H 9H "
                "9S JC AH JD QH QD JH AS 8S")
CHUKHNY_MOVES = ["draw"] * 11 + ["7D"] + ["draw"] * 4 + ["9D"] + ["draw"] * 3 + words(
    "JS QC KS draw 8C") + ["draw"] * 9 + words("QS KD draw 6H")


def test_chukhny_is_uniform_over_deck_orders_not_hands() -> None:
    game = cardplay.load("chukhny", players=2, deck_size=36)
    view, counts, slots = chukhny_worlds(game, words(CHUKHNY_DECK), 1, CHUKHNY_MOVES, seat=0)
    by_hand: Counter[frozenset[str]] = Counter()
    for key, k in counts.items():
        by_hand[frozenset(key[0])] += k
    # six possible unseen cards for seat 1, not equally likely: 8S fits in a quarter as many
    # orders of its draws as each of the others (a sampler uniform over hands gives 1/6 each)
    assert len(counts) == 252 and len(by_hand) == 6
    played = {"QC", "8C", "QS", "6H"}
    assert by_hand[frozenset(played | {"8S"})] == 12
    assert all(k == 48 for hand, k in by_hand.items() if "8S" not in hand)

    def outcome(world: Deal) -> Draws:
        return (tuple(world.deck[p] for p in slots[1]),)

    assert_uniform(sample_counts(game, view, 4000, outcome), counts, 4000)


@pytest.mark.parametrize("counting", [False, True])
def test_chukhny_several_seats_share_the_unseen_cards(counting: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # three players, dealer 2: seat 0 draws 14 cards to find a 7; seats 1 and 2 each keep one
    # failed draw before finding the next rank; both unseen cards come from the same 18. The
    # exact counting fallback must give the same law as the rejection sampler.
    game = cardplay.load("chukhny", players=3, deck_size=36)
    deck = words("6S 6H KD 9D 8D KS 6D JS 9H JH AS TH JC KH 7C TS 8S 8H 9C QD 9S QC 7H AC AH JD "
                 "7D 6C 8C TC KC AD TD QS QH 7S")
    moves = ["draw"] * 18
    view, counts, slots = chukhny_worlds(game, deck, 2, moves, seat=0)
    assert len(counts) == 290
    if counting:
        monkeypatch.setattr(chukhny_module.sampling, "_by_rejection", lambda *a, **k: None)

    def outcome(world: Deal) -> Draws:
        return tuple(tuple(world.deck[p] for p in slots[q]) for q in (1, 2))

    assert_uniform(sample_counts(game, view, 4000, outcome), counts, 4000)


# --------------------------------------------------------------------------------------------
# Macao


def macao_late_position() -> tuple[Game, Deal]:
    """Four players, forced draws, seat 3 banks; every punter stakes 5 and decisions are
    forced. Late in the shoe, seat 2 is to decide after seat 0 stood and seat 1 bought."""
    game = cardplay.load("macao", players=4, forced_draw=True)
    deck = words("5H TS 9D 8C TD QD 4C 4C 2S KC JH 8C QS KS TS 3C 6H 8H 5D JH 5S 4D QC JC 8S AC "
                 "KH 9H AS 7D TC AH 4H 5C 6H TH 2S 3H 6S 8D QH JD 9S 6C 2H AS KD AC 5H 8H 2H TH "
                 "AH 7S 4H 5C 6C 4D 2C 3S 5D 7D 7C KH 4S 7C TC 3H 3D 6D 8D 3D 5S 9H 6D 9C 3S 4S "
                 "2D 9C KC QC 9D QS 6S QD 2C AD JD JS AD KS KD 8S 2D 7H JC 7H TD 3C 7S JS 9S QH")
    d = game.deal(deck=deck, dealer=3)
    while True:
        pub = d.view(2).public
        if d.to_move == 2 and pub["phase"] == "decide" and pub["stock"] <= 4:
            return game, d
        legal = d.legal_moves()
        d.play("stake 5" if "stake 5" in legal else legal[0])


def macao_worlds(game: Game, deal: Deal,
                 seat: int) -> tuple[View, Counter[tuple[str, ...]], list[int]]:
    """Every filling of the round's hidden positions with the unseen cards (the two decks'
    copies as cards), weighted by the distinct orders of the rest of the shoe."""
    view = deal.view(seat)
    target = view.to_dict()
    pub = target["public"]
    start = len(pub["used"])
    hidden = [start + i for i, s in enumerate(pub["dealt_to"]) if s != seat]
    pool = Counter(format_card(c) for c in MACAO_DECK)
    pool.subtract(Counter(pub["used"]) + Counter(target["hand"]))
    pool = +pool
    shoe = range(start + len(pub["dealt_to"]), len(MACAO_DECK))
    moves = [t for _, t in view.history]
    counts: Counter[tuple[str, ...]] = Counter()
    for cards in set(itertools.permutations(sorted(pool.elements()), len(hidden))):
        rest = pool - Counter(cards)
        placed = {**dict(zip(hidden, cards)), **dict(zip(shoe, sorted(rest.elements())))}
        if world_fits(game, deal.deck, deal.dealer, placed, moves, seat, target):
            orders = math.factorial(sum(rest.values()))
            for k in rest.values():
                orders //= math.factorial(k)
            counts[cards] = orders
    return view, counts, hidden


def test_macao_forced_decisions_and_the_shoe_are_uniform() -> None:
    game, deal = macao_late_position()
    view, counts, hidden = macao_worlds(game, deal, seat=2)
    pub = view.public
    assert pub["status"][:2] == ["stood", "bought"] and len(counts) == 108
    # seat 0 stood on a first card of 7-9, seat 1 bought on 0-6: the hidden positions are
    # seat 0's card, seat 1's two cards and the banker's card, in dealing order
    assert [pub["dealt_to"][p - len(pub["used"])] for p in hidden] == [0, 1, 3, 1]
    for cards in counts:
        assert VALUE[parse_card(cards[0])] >= 7 and VALUE[parse_card(cards[1])] <= 6

    def outcome(world: Deal) -> tuple[str, ...]:
        return tuple(world.deck[p] for p in hidden)

    assert_uniform(sample_counts(game, view, 1500, outcome), counts, 1500)


def test_macao_multi_buy_sums_stay_below_the_bust() -> None:
    # forced draws with multi_buy: seat 0 bought three cards while its total was 0-6 and stood
    # on 7-9 (a bust would show its cards)
    game = cardplay.load("macao", players=3, forced_draw=True, multi_buy=True)
    deal = game.deal(seed=0)
    play_all(deal, ["stake 5", "stake 5"])
    while deal.to_move == 0:
        deal.play(deal.legal_moves()[0])  # the only legal move
    bought = deal.view(1).public["bought"][0]
    assert bought == 3 and not deal.view(1).public["shown"][0]
    view = deal.view(1)
    rng = random.Random(4)
    for _ in range(300):
        world = game.sample_deal(view, rng)
        assert isinstance(world, MacaoDeal)
        values = [VALUE[c] for c in world.cards[0]]
        assert len(values) == bought + 1
        assert all(sum(values[:k]) <= 6 for k in range(1, len(values)))
        assert 7 <= sum(values) <= 9
        assert world.view(1).to_dict() == view.to_dict()


# --------------------------------------------------------------------------------------------
# Polish Banchok


def banchok_round(players: int, rounds: int) -> tuple[Game, Deal]:
    """A bank where every punter stakes 5, at the start of round ``rounds + 1``."""
    game = cardplay.load("banchok", players=players)
    deck = [format_card(c) for c in range(52)] * 2
    random.Random(players).shuffle(deck)
    d = game.deal(deck=deck)
    while d.view(0).public["round"] <= rounds:
        d.play("stake 5")
    assert d.to_move == 0
    return game, d


def test_banchok_the_last_cards_of_the_opening_shuffle_are_uniform() -> None:
    # 3 players, 8 cards a round: round 13 deals the last 8 cards of the opening shuffle
    # (positions 96..103). Seat 0 holds 96, 98, 100; seat 1's cards (97, 99, 101) and the two
    # turned cards (102, 103) are the five unseen cards of that part, in any order.
    game, d = banchok_round(3, 12)
    view = d.view(0)
    target = view.to_dict()
    parts = target["public"]["deck_parts"]
    assert parts[0] == {"size": 8, "cards": None} and len(parts) == 13
    hidden = [97, 99, 101, 102, 103]
    counts: Counter[tuple[str, ...]] = Counter()
    for cards in set(itertools.permutations([d.deck[p] for p in hidden])):
        if world_fits(game, d.deck, d.dealer, dict(zip(hidden, cards)),
                      [t for _, t in view.history], 0, target):
            counts[cards] += 1
    assert len(counts) == len(set(itertools.permutations([d.deck[p] for p in hidden])))

    def outcome(world: Deal) -> tuple[str, ...]:
        assert isinstance(world, BanchokDeal)
        return (*world.view(1).to_dict()["hand"], *map(format_card, world._deck[:2]))

    assert_uniform(sample_counts(game, view, 1200, outcome), counts, 1200)


def test_banchok_cards_come_from_the_right_part_of_the_deck() -> None:
    # 4 players, 12 cards a round: round 9 deals the opening shuffle's last 8 cards, then 4 of
    # round 1's used cards (put under the deck): seat 2's third card and the three turned cards
    # come from those 12; the rest of that part stays under the opening cards, in any order.
    game, d = banchok_round(4, 8)
    view = d.view(0)
    parts = view.public["deck_parts"]
    assert parts[0]["size"] == 8 and parts[1]["size"] == 12
    first_used = Counter(parts[1]["cards"])
    opening = Counter(format_card(c) for c in range(52) for _copy in range(2))
    for part in parts[1:]:
        opening -= Counter(part["cards"])
    rng = random.Random(9)
    tops: Counter[str] = Counter()
    n = 600
    for i in range(n):
        world = game.sample_deal(view, rng)
        assert isinstance(world, BanchokDeal)
        if i % 20 == 0:
            assert world.view(0).to_dict() == view.to_dict()
        hands = [[format_card(c) for c in world._hand(s)] for s in (1, 2)]
        assert Counter(hands[0] + hands[1][:2]) <= opening - Counter(view.to_dict()["hand"])
        rest = [format_card(c) for c in world._deck]
        assert Counter([hands[1][2], *rest[:11]]) == first_used
        tops[rest[3]] += 1
    # the cards still under the round are in any order: the first is any card of that part,
    # as often as its copies
    assert_uniform(tops, first_used, n)
