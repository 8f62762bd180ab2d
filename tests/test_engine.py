"""The engine's public protocol (DESIGN.md 2): Move, options, load, records, seeds, Match."""

from __future__ import annotations

import dataclasses
import json
import operator
import pickle
import random

import pytest

import cardplay
from cardplay import (
    Deal,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    Move,
    OptionError,
    RecordError,
    View,
)
from cardplay.engine import GameError, derive_seed


def play_out(target: Deal | Match, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not target.is_over:
        target.play(rng.choice(sorted(str(m) for m in target.legal_moves())))


# ------------------------------------------------------------------------------------------------
# Move


def test_move_compares_with_its_text() -> None:
    m = Move("KH=20")
    assert m == "KH=20" and operator.eq("KH=20", m)  # both ways round
    assert m != "KH=40" and m != Move("KH=40")
    assert m == Move("KH=20") and hash(m) == hash(Move("KH=20")) == hash("KH=20")
    assert m in {"KH=20"} and "KH=20" in {m} and "KH=20" in [m]
    assert str(m) == "KH=20" and m.text == "KH=20"
    assert repr(m) == "Move('KH=20')" and eval(repr(m), {"Move": Move}) == m
    assert sorted([Move("close"), Move("AS"), Move("KH=20")]) == ["AS", "KH=20", "close"]
    assert m != 5


def test_move_is_immutable_text() -> None:
    m = Move("AS")
    with pytest.raises(AttributeError):
        m.text = "KS"  # type: ignore[misc]
    with pytest.raises(InvalidMoveError):
        Move(5)  # type: ignore[arg-type]


def test_legal_moves_are_moves_in_canonical_notation() -> None:
    game = cardplay.load("sixty-six")
    deal = game.deal(seed=3)
    moves = deal.legal_moves()
    assert moves and all(isinstance(m, Move) for m in moves)
    texts = [str(m) for m in moves]
    assert all(t in moves for t in texts)
    assert game.parse_move("k♥=20") == "KH=20"
    assert game.parse_move("10♥") == "TH"
    assert game.parse_move("EXCHANGE") == "exchange"
    with pytest.raises(InvalidMoveError):
        game.parse_move("KH=30")


# ------------------------------------------------------------------------------------------------
# Errors, registry, options


def test_errors_are_value_errors() -> None:
    for cls in (InvalidMoveError, IllegalMoveError, OptionError, RecordError):
        assert issubclass(cls, GameError) and issubclass(cls, ValueError)


def test_games_lists_sorted_names() -> None:
    names = cardplay.games()
    assert names == sorted(names) and "sixty-six" in names


def test_unknown_game_names_the_valid_ones() -> None:
    with pytest.raises(ValueError) as e:
        cardplay.load("sixty-seven")
    for name in cardplay.games():
        assert name in str(e.value)
    with pytest.raises(ValueError):
        cardplay.load(66)  # type: ignore[arg-type]


def test_option_errors_name_the_valid_options_and_values() -> None:
    with pytest.raises(OptionError) as e:
        cardplay.load("sixty-six", colour="red")
    for name in ("end_mode", "exchange", "must_head", "preset", "match_target"):
        assert name in str(e.value)
    with pytest.raises(OptionError) as e:
        cardplay.load("sixty-six", end_mode="sudden_death")
    assert "play_out" in str(e.value) and "first_to_66" in str(e.value)
    with pytest.raises(OptionError) as e:
        cardplay.load("sixty-six", allow_close=1)
    assert "True" in str(e.value) and "False" in str(e.value)
    with pytest.raises(OptionError) as e:
        cardplay.load("sixty-six", match_target=0)
    assert "1" in str(e.value)


def test_options_are_immutable_and_games_compare_by_options() -> None:
    a = cardplay.load("sixty-six", match_target=8)
    assert a == cardplay.load("sixty-six", match_target=8)
    assert a != cardplay.load("sixty-six")
    assert hash(a) == hash(cardplay.load("sixty-six", match_target=8))
    with pytest.raises(AttributeError):
        a.options = None  # type: ignore[misc]


@pytest.mark.parametrize("name", cardplay.games())
def test_a_game_pickles_by_its_options_even_after_views(name: str) -> None:
    # A game keeps read-only mappings and caches (which cannot, or need not, be pickled);
    # it travels as its class and options, and deals the same deals on arrival.
    game = cardplay.load(name, preset="canonical") if name == "twenty" else cardplay.load(name)
    deal = game.deal(seed=11)
    deal.view(deal.to_move or 0)
    back = pickle.loads(pickle.dumps(game))
    assert back == game and back is not game
    assert dict(back.frozen_options) == game.options_dict()
    again = back.deal(seed=11)
    assert again.view(0).to_dict() == game.deal(seed=11).view(0).to_dict()
    assert again.legal_moves() == game.deal(seed=11).legal_moves()


# ------------------------------------------------------------------------------------------------
# Deals


def test_same_seed_same_deal_and_different_seeds_differ() -> None:
    game = cardplay.load("sixty-six")
    assert game.deal(seed=7).deck == game.deal(seed=7).deck
    assert len({tuple(game.deal(seed=s).deck) for s in range(10)}) == 10
    with pytest.raises(ValueError):
        game.deal(seed="seven")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        game.deal(seed=1, dealer=-1)


def test_play_checks_turn_and_changes_nothing_on_errors() -> None:
    deal = cardplay.load("sixty-six").deal(seed=5)
    before = json.dumps([deal.record(), deal.view(0).to_dict(), deal.view(1).to_dict()])
    other = 1 - deal.to_move  # type: ignore[operator]
    legal = str(deal.legal_moves()[0])
    with pytest.raises(IllegalMoveError):
        deal.play(legal, seat=other)
    with pytest.raises(InvalidMoveError):
        deal.play("XX", seat=other)
    with pytest.raises(InvalidMoveError):
        deal.play(None)  # type: ignore[arg-type]
    assert json.dumps([deal.record(), deal.view(0).to_dict(), deal.view(1).to_dict()]) == before
    deal.play(legal, seat=deal.to_move)
    assert deal.record()["moves"] == [legal]


def test_copy_is_independent() -> None:
    deal = cardplay.load("sixty-six").deal(seed=9)
    copy = deal.copy()
    play_out(copy)
    assert copy.is_over and not deal.is_over
    assert deal.record()["moves"] == []
    assert copy.result is not None and deal.result is None


def test_view_is_frozen_and_json_ready() -> None:
    deal = cardplay.load("sixty-six").deal(seed=4)
    v = deal.view(0)
    assert isinstance(v, View) and v.seat == 0 and v.players == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.seat = 1  # type: ignore[misc]
    d = v.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert all(isinstance(c, str) for c in d["hand"])
    assert json.loads(v.to_json()) == d


def test_result_is_none_until_the_deal_is_over() -> None:
    deal = cardplay.load("sixty-six").deal(seed=12)
    assert deal.result is None and deal.to_move is not None
    play_out(deal, 12)
    assert deal.is_over and deal.to_move is None and deal.legal_moves() == []
    assert isinstance(deal.result, list) and len(deal.result) == 2
    with pytest.raises(IllegalMoveError):
        deal.play("AS")
    with pytest.raises(InvalidMoveError):
        deal.play("XX")


# ------------------------------------------------------------------------------------------------
# Records and replay


def test_replay_rebuilds_a_deal() -> None:
    game = cardplay.load("sixty-six", must_head=False)
    deal = game.deal(seed=21)
    play_out(deal, 21)
    record = deal.record()
    assert json.loads(json.dumps(record)) == record
    assert record["game"] == "sixty-six" and record["options"]["must_head"] is False
    for again in (cardplay.replay(record), cardplay.replay(json.dumps(record))):
        assert isinstance(again, Deal)
        assert again.result == deal.result
        assert [again.view(s).to_json() for s in (0, 1)] == [deal.view(s).to_json()
                                                            for s in (0, 1)]
    fixed = game.deal(deck=" ".join(deal.deck), dealer=0)
    fixed.play(fixed.legal_moves()[0])
    again = cardplay.replay(fixed.record())
    assert again.deck == fixed.deck and again.view(1).to_json() == fixed.view(1).to_json()


def test_corrupt_records_are_record_errors() -> None:
    deal = cardplay.load("sixty-six").deal(seed=7)
    deal.play(deal.legal_moves()[0])
    rec = deal.record()
    moves = rec["moves"]
    bad: list[object] = [
        "not json", "[1, 2]", 5, [rec],
        {**rec, "format": "cardplay-deal/99"},
        {k: v for k, v in rec.items() if k != "game"},
        {k: v for k, v in rec.items() if k != "moves"},
        {**rec, "moves": "AS"}, {**rec, "moves": [1]},
        {**rec, "game": "nope"}, {**rec, "options": {"colour": "red"}},
        {**rec, "options": {"end_mode": "sometimes"}}, {**rec, "options": [1]},
        {**rec, "moves": [*moves, "XX"]}, {**rec, "moves": ["close", "close"]},
        {**rec, "dealer": 5}, {**rec, "seed": "abc"},
        {**rec, "context": 5}, {**rec, "context": {"x": 1}},
        {**rec, "deck": ["AS"] * 24, "format": "cardplay-deal/1"},
    ]
    for b in bad:
        with pytest.raises(RecordError):
            cardplay.replay(b)  # type: ignore[arg-type]


def test_a_finished_deal_record_with_an_extra_move_is_corrupt() -> None:
    deal = cardplay.load("sixty-six").deal(seed=8)
    play_out(deal, 8)
    rec = deal.record()
    with pytest.raises(RecordError):
        cardplay.replay({**rec, "moves": [*rec["moves"], rec["moves"][-1]]})


# ------------------------------------------------------------------------------------------------
# Seeds


def test_derive_seed_is_deterministic() -> None:
    assert derive_seed(7, "deal", 0) == derive_seed(7, "deal", 0)
    assert derive_seed(7, "deal", 0) != derive_seed(7, "deal", 1)
    assert derive_seed(7, "deal", 0) != derive_seed(8, "deal", 0)
    assert derive_seed(7) != derive_seed(7, "deal")
    values = [derive_seed(s, "x") for s in range(100)]
    assert all(isinstance(v, int) and 0 <= v < 2**63 for v in values)
    assert len(set(values)) == 100
    # Records store seeds only, so the derivation must never change (DESIGN.md 4.7).
    assert derive_seed(7, "deal", 0) == 8167166740038332575
    assert derive_seed(0) == 7210762507766007076


# ------------------------------------------------------------------------------------------------
# Match


def test_match_protocol_basics() -> None:
    game = cardplay.load("sixty-six")
    match = game.match(seed=7)
    assert isinstance(match, Match) and match.players == 2
    assert match.scores == [0, 0] and match.winners == [] and not match.is_over
    assert match.to_move == match.deal.to_move
    assert match.legal_moves() == match.deal.legal_moves()
    v = match.view(0)
    assert v.match is not None and list(v.match["scores"]) == [0, 0]
    first = match.deal
    rng = random.Random(7)
    seen_deals = [first]
    while not match.is_over:
        assert match.winners == []
        match.play(rng.choice(sorted(str(m) for m in match.legal_moves())))
        if match.deal is not seen_deals[-1]:
            seen_deals.append(match.deal)
            assert sum(match.scores) >= 0
    assert len(seen_deals) >= 1 and seen_deals[0] is first
    assert max(match.scores) >= 7
    assert match.winners == [s for s in (0, 1) if match.scores[s] == max(match.scores)]
    assert match.to_move is None and match.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        match.play("AS")
    with pytest.raises(InvalidMoveError):
        match.play("XX")
    record = match.record()
    assert json.loads(json.dumps(record)) == record
    again = cardplay.replay(record)
    assert isinstance(again, Match)
    assert again.scores == match.scores and again.winners == match.winners
    assert again.view(1).to_json() == match.view(1).to_json()


def test_match_deal_copy_is_independent() -> None:
    match = cardplay.load("sixty-six").match(seed=11, dealer=0)
    assert match.deal.dealer == 0
    copy = match.deal.copy()
    play_out(copy)
    assert not match.deal.is_over and match.scores == [0, 0]


def test_match_seed_and_dealer_are_checked() -> None:
    game = cardplay.load("sixty-six")
    with pytest.raises(ValueError):
        game.match(seed="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        game.match(seed=1, dealer=2)
    a, b = game.match(seed=99), game.match(seed=99)
    assert a.deal.deck == b.deal.deck and a.deal.dealer == b.deal.dealer


def test_a_view_history_follows_its_own_deal_after_a_copy() -> None:
    # Views extend the previous view's history texts; a copy that goes another way, and the
    # original going on, must each show exactly their own moves.
    game = cardplay.load("sixty-six")
    deal = game.deal(seed=11)
    deal.play(deal.legal_moves()[0])
    first = deal.history[0]
    assert deal.view(0).history == ((first[0], game.move(first[1]).text),)
    twin = deal.copy()
    deal.play(deal.legal_moves()[0])
    twin.play(twin.legal_moves()[-1])
    for d in (deal, twin):
        want = tuple((s, game.move(c).text) for s, c in d.history)
        assert d.view(0).history == want
        assert d.view(1).history == want
    assert deal.view(0).history != twin.view(0).history
    # a deal whose history is replaced (as a sampler may do) is read afresh
    deal.history = list(twin.history)
    assert deal.view(0).history == twin.view(0).history


def test_shuffle_fast_is_uniform_and_reproducible() -> None:
    from cardplay.builtin.counting import shuffle_fast

    rng = random.Random(5)
    counts: dict[tuple[int, ...], int] = {}
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        shuffle_fast(items, rng.random)
        counts[tuple(items)] = counts.get(tuple(items), 0) + 1
    assert len(counts) == 24
    # 1,000 expected each; the standard deviation is about 31
    assert all(850 < n < 1150 for n in counts.values()), counts
    a, b = list(range(20)), list(range(20))
    shuffle_fast(a, random.Random(9).random)
    shuffle_fast(b, random.Random(9).random)
    assert a == b != list(range(20))


# ------------------------------------------------------------------------------------------------
# Views hold nothing of the deal's own


def _scribble(value: object) -> None:
    """Change every list and dict nested in ``value``, the way a careless bot might."""
    if isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")
    elif isinstance(value, dict):
        for item in value.values():
            _scribble(item)
        value["scribbled"] = True


@pytest.mark.parametrize("name", sorted(cardplay.games()))
def test_what_a_view_or_public_state_holds_can_be_changed_without_touching_the_deal(
        name: str) -> None:
    """Macao's last round was once the deal's own record: every nested list and dict of a view
    and of public_state must be the holder's own."""
    game = cardplay.load(name)
    rng = random.Random(3)
    for seed in range(6):
        d = game.deal(seed=seed)
        while not d.is_over:
            seat = d.to_move
            assert seat is not None
            twin = d.copy()
            shown = [json.dumps(dict(d.view(s).public), sort_keys=True) for s in range(d.players)]
            for s in range(d.players):
                for item in d.view(s).public.values():
                    _scribble(item)
                _scribble(d.public_state(s))
            assert [json.dumps(dict(d.view(s).public), sort_keys=True)
                    for s in range(d.players)] == shown
            assert d.legal_codes() == twin.legal_codes()
            d.apply_code(rng.choice(d.legal_codes()))


def test_a_take_back_goes_to_the_seat_s_last_move_of_the_deal_in_play() -> None:
    """Match.takeback_point (the browser's undo and the terminal table's u): the index of the
    seat's latest move in the deal in play; None before its first move of a deal, never past
    a deal's end, None once the match is over."""
    match = cardplay.load("twenty").match(seed=3)
    assert match.takeback_point(0) is None and match.takeback_point(1) is None
    first_deal_moves = 0
    while not match.deals:
        seat = match.to_move
        match.play(match.legal_moves()[0])
        first_deal_moves += 1
        if not match.deals:  # the deal's last move ends it: nothing of it is taken back then
            assert match.takeback_point(seat) == len(match.moves) - 1
    # a new deal: the moves of the finished one are out of reach
    assert len(match.moves) == first_deal_moves
    mover = match.to_move
    other = 1 - mover
    assert match.takeback_point(mover) is None and match.takeback_point(other) is None
    match.play(match.legal_moves()[0])
    assert match.takeback_point(mover) == first_deal_moves
    if match.to_move == other:
        match.play(match.legal_moves()[0])
        assert match.takeback_point(mover) == first_deal_moves
        assert match.takeback_point(other) == first_deal_moves + 1
    while not match.is_over:
        match.play(match.legal_moves()[0])
    assert match.takeback_point(0) is None and match.takeback_point(1) is None
