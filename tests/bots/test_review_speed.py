"""What makes a review fast without changing its values: the heuristics' view-free rollout path,
Two-Ten-Jack's inlined sampler, Maltese Twenty's exact stockless values, its rollouts finished by
one exact search, and its cards of one value valued once."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

import cardplay
from cardplay.bots import evaluate, heuristic
from cardplay.bots.evaluation import distinct_moves, game_of
from cardplay.bots.heuristics import maltese_twenty
from cardplay.bots.heuristics.two_ten_jack import (
    KEEP,
    HeuristicBot,
    heuristic_reply,
    sample_mask,
    touching_classes,
)
from cardplay.bots.rollout import PolicyRolloutBot
from cardplay.builtin.maltese_twenty import VALUES
from cardplay.builtin.two_ten_jack import AS, AS_SPADES, CARD_POINTS, FOLLOWER_WINS, TwoTenJackDeal
from cardplay.cards import cards_of_mask
from cardplay.engine import Deal
from cardplay.review import review
from helpers import plain_margin

ROLLOUT = {"two-ten-jack": {"samples": 4, "solve_endgame": False},
           "maltese-twenty": {"samples": 2, "depth": 1}}


def positions(name: str, deals: int, seed: int) -> Iterator[Deal]:
    """Every position with more than one legal move of ``deals`` randomly played deals."""
    game = cardplay.load(name)
    rng = random.Random(seed)
    for s in range(deals):
        deal = game.deal(seed=seed * 1000 + s)
        while deal.to_move is not None:
            if len(deal.legal_codes()) > 1:
                yield deal
            deal.play(rng.choice(deal.legal_moves()))


@pytest.mark.parametrize("name", ["two-ten-jack", "maltese-twenty"])
@pytest.mark.parametrize("rollout", [False, True])
def test_choose_code_plays_what_choose_plays_on_the_view(name: str, rollout: bool) -> None:
    game = cardplay.load(name)
    settings = ROLLOUT[name] if rollout else {}
    checked = 0
    for i, deal in enumerate(positions(name, 12, 5)):
        seat = deal.to_move
        assert seat is not None
        on_view = heuristic(game, i, **settings)
        on_deal = heuristic(game, i, **settings)
        expected = game.code_of(on_view.choose(deal.view(seat)))
        assert on_deal.choose_code(deal, deal.legal_codes()) == expected, (i, deal.history)
        # and the same draws: a bot that plays on keeps playing the same moves
        assert on_view.rng.random() == on_deal.rng.random()
        checked += 1
    assert checked > 300


def test_the_inlined_sampler_draws_what_random_sample_draws() -> None:
    for n in range(53):
        for k in range(n + 1):
            for seed in range(6):
                pool = sorted(random.Random(n * 100 + k).sample(range(52), n))
                a, b = random.Random(seed), random.Random(seed)
                expected = 0
                for c in a.sample(pool, k):
                    expected |= 1 << c
                assert sample_mask(b.getrandbits, pool, k) == expected, (n, k, seed)
                assert a.getrandbits(64) == b.getrandbits(64)
    with pytest.raises(ValueError, match="Sample larger than population"):
        sample_mask(random.Random(0).getrandbits, [1, 2], 3)


def stockless(count: int, max_cards: int) -> Iterator[Deal]:
    """Maltese Twenty positions once the stock is empty, the mover holding at most
    ``max_cards`` cards and the other seat at most one more, with moves of two values."""
    found = 0
    for deal in positions("maltese-twenty", 400, 9):
        seat = deal.to_move
        assert seat is not None
        pub = deal.public_state(seat)
        sizes = pub["hand_sizes"]
        if pub["stock"] == 0 and sizes[seat] <= max_cards and sizes[1 - seat] <= max_cards + 1 \
                and distinct_moves(deal.game, deal.view(seat)) > 1:
            found += 1
            yield deal.copy()
            if found == count:
                return
    raise AssertionError(f"only {found} stockless positions found")


def test_maltese_stockless_values_are_exact_minimax_over_the_engine() -> None:
    game = cardplay.load("maltese-twenty")
    moves = 0
    for i, deal in enumerate(stockless(300, 4)):
        seat = deal.to_move
        assert seat is not None
        ev = evaluate(deal.view(seat), seed=i)
        assert ev.exact and ev.worlds == 1
        assert set(ev.values) == {m.text for m in deal.legal_moves()}
        for code in deal.legal_codes():
            child = deal.copy()
            child.apply_code(code)
            # plain minimax over the engine: no pruning, no table, the round's own scoring
            assert ev.values[game.move(code).text] == plain_margin(child, seat), i
            moves += 1
    assert moves > 600


def test_a_rollout_finished_by_one_search_has_the_margin_of_the_rollout_played_out() -> None:
    game = cardplay.load("maltese-twenty")

    class PlaysOn:
        """The rollout heuristic without ``finish``: it plays every stockless move."""

        def __init__(self, g: cardplay.Game, seed: int) -> None:
            self.bot = heuristic(g, seed, **ROLLOUT["maltese-twenty"])
            self.rng = self.bot.rng

        def choose_code(self, deal: Deal, codes: list[int]) -> int:
            return int(self.bot.choose_code(deal, codes))

    finished = PolicyRolloutBot(game, lambda g, s: heuristic(g, s, **ROLLOUT["maltese-twenty"]),
                                seed=1)
    played = PolicyRolloutBot(game, PlaysOn, seed=1)
    checked = 0
    for i, deal in enumerate(positions("maltese-twenty", 30, 3)):
        if i % 7:
            continue
        a = finished.rollout(deal.copy(), i)
        b = played.rollout(deal.copy(), i)
        assert a[0] - a[1] == b[0] - b[1], (i, a, b)
        checked += 1
    assert checked > 50


def test_the_shared_endgame_table_changes_no_choice() -> None:
    game = cardplay.load("maltese-twenty")
    deals = list(stockless(40, 5))
    maltese_twenty._SHARED.clear()
    fresh = []
    for deal in deals:
        maltese_twenty._SHARED.clear()
        fresh.append(heuristic(game, 0).choose_code(deal, deal.legal_codes()))
    # the same positions with one table filled by all of them, in the opposite order
    maltese_twenty._SHARED.clear()
    kept = [heuristic(game, 0).choose_code(d, d.legal_codes()) for d in reversed(deals)]
    assert kept[::-1] == fresh


def test_cards_of_one_value_are_valued_once_and_alike() -> None:
    game = cardplay.load("maltese-twenty")
    for deal in positions("maltese-twenty", 40, 11):
        codes = deal.legal_codes()
        values = [VALUES[c] for c in codes]
        pub = deal.public_state(deal.to_move or 0)
        if pub["stock"] and len(set(values)) < len(values) and len(set(values)) > 1:
            break
    else:
        raise AssertionError("no decision with two cards of one value")
    view = deal.view(deal.to_move or 0)
    bots = game_of(view).declaration.bots
    assert bots is not None
    ev = evaluate(view, "heuristic", seed=4, worlds=12)
    assert not ev.exact
    for a in codes:
        for b in codes:
            if VALUES[a] == VALUES[b]:
                ta, tb = game.move(a).text, game.move(b).text
                assert ev.values[ta] == ev.values[tb] and ev.errors[ta] == ev.errors[tb]
    # the card sampled for each value has the value the evaluation gave it before: the same
    # worlds and rollouts, only the other cards of its value are not rolled out again
    declared = game_of(view).declaration
    try:
        object.__setattr__(declared, "bots", dataclasses.replace(bots, move_classes=None))
        before = evaluate(view, "heuristic", seed=4, worlds=12)
    finally:
        object.__setattr__(declared, "bots", bots)
    assert set(before.values) == set(ev.values)
    first: dict[int, str] = {}
    for c in codes:
        first.setdefault(VALUES[c], game.move(c).text)
    for text in first.values():
        assert ev.values[text] == before.values[text]
        assert ev.errors[text] == before.errors[text]


def test_a_review_leaves_out_turns_whose_cards_all_have_one_value() -> None:
    game = cardplay.load("maltese-twenty")
    deal = game.deal(seed=21)
    bots = [heuristic(game, s) for s in range(2)]
    alike = 0
    while deal.to_move is not None:
        codes = deal.legal_codes()
        if len(codes) > 1 and len({VALUES[c] for c in codes}) == 1:
            alike += 1
        deal.play(bots[deal.to_move].choose(deal.view(deal.to_move)))
    record = deal.record()
    replayed = cardplay.replay({**record, "moves": []})
    turns = []
    for text in record["moves"]:
        assert isinstance(replayed, Deal)
        codes = replayed.legal_codes()
        if replayed.to_move == 0 and len({VALUES[c] for c in codes}) > 1:
            turns.append(len(replayed.history))
        replayed.play(text)
    maltese_twenty._SHARED.clear()
    result = review(record, seats=[0], level="heuristic")
    assert alike > 0
    assert [d.index for d in result.decisions] == turns
    assert any(d.exact for d in result.decisions) and not all(d.exact for d in result.decisions)
    # the same record gives the same review, whatever the shared endgame table holds
    assert review(record, seats=[0], level="heuristic") == result


def test_touching_two_ten_jack_cards_have_the_values_each_had_on_its_own() -> None:
    game = cardplay.load("two-ten-jack")
    checked = 0
    for deal in positions("two-ten-jack", 30, 13):
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        classes = touching_classes(game, view)
        if len(set(classes.values())) == len(classes) or not view.public["stock"]:
            continue
        # every class is a run of the mover's cards of one suit, the lowest first
        for code, rep in classes.items():
            assert rep <= code and rep // 13 == code // 13 and rep in view.hand
        declared = game_of(view).declaration
        bots = declared.bots
        assert bots is not None
        level = "random" if checked % 3 == 0 else "heuristic"
        ev = evaluate(view, level, seed=checked, worlds=6)
        try:
            object.__setattr__(declared, "bots", dataclasses.replace(bots, move_classes=None))
            alone = evaluate(view, level, seed=checked, worlds=6)
        finally:
            object.__setattr__(declared, "bots", bots)
        # not the representative's value copied, but the value each move had when it was rolled
        # out on its own: the rollouts of touching cards are the same rollouts
        assert ev == alone, (deal.history, classes)
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def _reference_lead(bot: HeuristicBot, codes: list[int], unseen: int, opp_size: int) -> int:
    """The lead rule of thumb as written first: ``random.sample`` draws each opponent hand, the
    reply is :func:`heuristic_reply` and the gains are summed world by world."""
    pool = sorted(cards_of_mask(unseen))
    worlds = []
    for _ in range(bot.samples):
        opp = 0
        for c in (pool if opp_size == len(pool) else bot.rng.sample(pool, opp_size)):
            opp |= 1 << c
        worlds.append(opp)
    best, best_score = codes[0], -1e9
    for code in codes:
        card, kind = (AS, code - AS_SPADES) if code >= AS_SPADES else (code, code // 13)
        total = 0.0
        for opp in worlds:
            r = heuristic_reply(opp, card, kind)
            p = CARD_POINTS[card] + CARD_POINTS[r]
            total += (-p if FOLLOWER_WINS[card * 52 + r] else p) + KEEP[r]
        score = total / len(worlds) - KEEP[card]
        if score > best_score:
            best, best_score = code, score
    return best


@pytest.mark.parametrize("samples", [4, 24])
def test_two_ten_jack_leads_are_the_reference_rule_with_the_same_draws(samples: int) -> None:
    game = cardplay.load("two-ten-jack")
    leads = stockless_leads = 0
    for i, deal in enumerate(positions("two-ten-jack", 16, 17)):
        assert isinstance(deal, TwoTenJackDeal)
        seat = deal.to_move
        assert seat is not None
        _, unseen, lead, _, stock, opp_size = deal.seen(seat)
        if lead >= 0:
            continue
        fast = HeuristicBot(game, i, samples=samples, solve_endgame=False)
        slow = HeuristicBot(game, i, samples=samples, solve_endgame=False)
        codes = deal.legal_codes()
        # twice in a row: the second lead starts from the generator the first one left
        for _ in range(2):
            assert fast.choose_code(deal, codes) == _reference_lead(slow, codes, unseen,
                                                                     opp_size), deal.history
            assert fast.rng.getstate() == slow.rng.getstate()
        leads += 1
        stockless_leads += stock == 0
    assert leads > 150 and stockless_leads > 20


class _MoveByMove:
    """A Two-Ten-Jack heuristic without ``play_out``: the rollout plays it move by move."""

    def __init__(self, g: cardplay.Game, seed: int, **settings: object) -> None:
        self.bot = heuristic(g, seed, **settings)
        self.rng = self.bot.rng

    def choose_code(self, deal: Deal, codes: list[int]) -> int:
        return int(self.bot.choose_code(deal, codes))


@pytest.mark.parametrize("settings", [ROLLOUT["two-ten-jack"], {"samples": 3}])
@pytest.mark.parametrize("limit", [2000, 9])
def test_two_ten_jack_play_out_is_the_rollout_played_move_by_move(
        settings: dict[str, object], limit: int) -> None:
    game = cardplay.load("two-ten-jack")
    one_loop = PolicyRolloutBot(game, lambda g, s: heuristic(g, s, **settings), seed=2,
                                max_rollout_moves=limit)
    by_move = PolicyRolloutBot(game, lambda g, s: _MoveByMove(g, s, **settings), seed=2,
                               max_rollout_moves=limit)
    assert callable(getattr(one_loop.policies[0], "play_out", None))
    checked = 0
    for i, deal in enumerate(positions("two-ten-jack", 12, 19)):
        if i % 5:
            continue
        a = one_loop.rollout(deal.copy(), i)
        b = by_move.rollout(deal.copy(), i)
        assert a == b, (i, deal.history)
        assert one_loop._spent == by_move._spent
        # and the same draws: each seat's generator is where the move-by-move one left it
        for p, q in zip(one_loop.policies, by_move.policies):
            assert p.rng.getstate() == q.rng.getstate()  # type: ignore[attr-defined]
        checked += 1
    assert checked > 60 and one_loop._spent > 5 * checked
