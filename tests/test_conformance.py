"""One conformance test over every registered game: random play, invariants, replay, no leaks.

Games added later are covered automatically, since the tests are parametrised over
``cardplay.games()`` and over each game's supported player counts.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardplay
from cardplay.engine import Deal, Game, IllegalMoveError, InvalidMoveError, RecordError

CARD_RE = re.compile(r"^(?:[2-9TJQKA][SHDC])$")


def _configs() -> list[tuple[str, int]]:
    out = []
    for name in cardplay.games():
        cls = cardplay.engine.game_class(name)
        lo, hi = cls.min_players, cls.max_players
        counts = sorted({lo, hi, min(lo + 1, hi)})
        for n in counts:
            out.append((name, n))
    return out


CONFIGS = _configs()
IDS = [f"{n}-{p}p" for n, p in CONFIGS]


def _load(name: str, players: int) -> Game:
    cls = cardplay.engine.game_class(name)
    if "players" in cls.option_fields():
        return cardplay.load(name, players=players)
    return cardplay.load(name)


def _play_random(deal: Deal, rng: random.Random, limit: int = 5000) -> str:
    """Play random legal moves to the end; return the text of the last move played."""
    steps = 0
    last = ""
    while not deal.is_over:
        moves = deal.legal_moves()
        assert moves, "a deal that is not over must offer a legal move"
        last = rng.choice(moves).text
        deal.play(last, seat=deal.to_move)
        steps += 1
        assert steps < limit, "a deal must end"
    return last


def _cards_in(obj: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(obj, str):
        for token in re.split(r"[^0-9A-Z]+", obj):
            if CARD_RE.match(token):
                found.add(token)
    elif isinstance(obj, dict):
        for v in obj.values():
            found |= _cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= _cards_in(v)
    return found


def test_registry_lists_games_sorted() -> None:
    names = cardplay.games()
    assert names == sorted(names)
    assert "sixty-six" in names


def test_unknown_game_and_option_are_errors() -> None:
    with pytest.raises(ValueError, match="valid games"):
        cardplay.load("no-such-game")
    for name in cardplay.games():
        with pytest.raises(cardplay.OptionError, match="valid options"):
            cardplay.load(name, no_such_option=1)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_random_deals_end_with_results(name: str, players: int) -> None:
    game = _load(name, players)
    for seed in range(8):
        deal = game.deal(seed=seed)
        assert deal.players == players
        assert deal.result is None
        last = _play_random(deal, random.Random(seed))
        assert deal.is_over and deal.to_move is None
        assert deal.legal_moves() == []
        assert deal.result is not None and len(deal.result) == players
        if last:
            with pytest.raises(IllegalMoveError):
                deal.play(last)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_same_seed_same_deal_and_replay(name: str, players: int) -> None:
    game = _load(name, players)
    a, b = game.deal(seed=11), game.deal(seed=11)
    assert a.deck == b.deck
    _play_random(a, random.Random(3))
    rec = json.loads(json.dumps(a.record()))
    again = cardplay.replay(rec)
    assert isinstance(again, Deal)
    assert again.record() == a.record()
    assert again.result == a.result
    for s in range(players):
        assert again.view(s).to_dict() == a.view(s).to_dict()
    # the same deck order gives the same deal
    c = game.deal(deck=a.deck, dealer=a.dealer, seed=a.seed, **a._context)
    for s in range(players):
        assert c.view(s).to_dict() == game.deal(seed=11).view(s).to_dict()


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_bad_moves_change_nothing(name: str, players: int) -> None:
    game = _load(name, players)
    deal = game.deal(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        if deal.is_over:
            break
        before = json.dumps(deal.record(), sort_keys=True)
        views = [deal.view(s).to_dict() for s in range(players)]
        for bad in ("XX", "", "KH=30", "stake -1", "play", "AS+", "stake 01"):
            with pytest.raises(InvalidMoveError):
                deal.play(bad)
        other = (deal.to_move + 1) % players  # type: ignore[operator]
        with pytest.raises(IllegalMoveError):
            deal.play(deal.legal_moves()[0], seat=other)
        assert json.dumps(deal.record(), sort_keys=True) == before
        assert [deal.view(s).to_dict() for s in range(players)] == views
        deal.play(rng.choice(deal.legal_moves()))


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_views_are_json_and_hide_other_hands(name: str, players: int) -> None:
    game = _load(name, players)
    rng = random.Random(9)
    for seed in range(4):
        deal = game.deal(seed=seed)
        while not deal.is_over:
            for s in range(players):
                v = deal.view(s)
                d = v.to_dict()
                json.dumps(d)
                assert d["seat"] == s
                assert d["to_move"] == deal.to_move
                assert (len(d["legal_moves"]) > 0) == (deal.to_move == s)
                for c in d["hand"]:
                    assert CARD_RE.match(c), c
                # no card held privately by another seat appears in this view,
                # except those the rules let this seat know
                known = {str(cardplay.Card(c)) for c in deal._known_to(s)}
                own = set(d["hand"])
                shown = _cards_in({k: v for k, v in d.items() if k not in ("hand", "history")})
                for o in range(players):
                    if o == s:
                        continue
                    private = {str(cardplay.Card(c)) for c in deal._hand(o)}
                    leaked = (private & shown) - known - own
                    assert not leaked, f"seat {s} sees {leaked} of seat {o}"
            deal.play(rng.choice(deal.legal_moves()))


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_sampled_worlds_agree_with_the_view(name: str, players: int) -> None:
    game = _load(name, players)
    rng = random.Random(21)
    for seed in range(3):
        deal = game.deal(seed=seed)
        step = 0
        while not deal.is_over:
            if step % 3 == 0:
                for s in range(players):
                    view = deal.view(s)
                    world = game.sample_deal(view, random.Random(step * 31 + s))
                    assert world.view(s).to_dict() == view.to_dict()
                    if game.sampled_deals_replay:
                        # the world could really have produced the history: its deck order
                        # replays every move through the checked path
                        again = game.deal(deck=world.deck, dealer=world.dealer, seed=world.seed,
                                          **world._context)
                        for _, text in view.history:
                            again.play(text)
                        assert again.view(s).to_dict() == view.to_dict()
                    # a sampled world plays on like a real one
                    w = world.copy()
                    if not w.is_over:
                        w.play(rng.choice(w.legal_moves()))
            deal.play(rng.choice(deal.legal_moves()))
            step += 1


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_copy_is_independent(name: str, players: int) -> None:
    game = _load(name, players)
    deal = game.deal(seed=2)
    rng = random.Random(2)
    for _ in range(5):
        if not deal.is_over:
            deal.play(rng.choice(deal.legal_moves()))
    snap = json.dumps(deal.record(), sort_keys=True)
    views = [deal.view(s).to_dict() for s in range(players)]
    twin = deal.copy()
    _play_random(twin, rng)
    assert json.dumps(deal.record(), sort_keys=True) == snap
    assert [deal.view(s).to_dict() for s in range(players)] == views


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_fast_path_agrees_with_public_api(name: str, players: int) -> None:
    game = _load(name, players)
    for seed in range(4):
        a, b = game.deal(seed=seed), game.deal(seed=seed)
        rng = random.Random(seed)
        while not a.is_over:
            codes = b.legal_codes()
            assert [game.move(c) for c in codes] == a.legal_moves()
            c = rng.choice(codes)
            a.play(game.move(c))
            b.apply_code(c)
        assert b.is_over and a.result == b.result
        assert a.record() == b.record()


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_whole_matches_end_and_replay(name: str, players: int) -> None:
    game = _load(name, players)
    for seed in range(2):
        match = game.match(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not match.is_over:
            assert match.winners == []
            moves = match.legal_moves()
            assert moves
            match.play(rng.choice(moves), seat=match.to_move)
            steps += 1
            assert steps < 200_000
        assert match.to_move is None and match.legal_moves() == []
        assert all(0 <= w < players for w in match.winners)
        assert len(match.scores) == players
        rec = json.loads(json.dumps(match.record()))
        again = cardplay.replay(rec)
        assert isinstance(again, cardplay.Match)
        assert again.scores == match.scores and again.winners == match.winners
        for s in range(players):
            assert again.view(s).to_dict() == match.view(s).to_dict()


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_corrupt_records_are_record_errors(name: str, players: int) -> None:
    game = _load(name, players)
    deal = game.deal(seed=4)
    deal.play(deal.legal_moves()[0])
    rec = deal.record()
    for bad in (
        {**rec, "moves": ["XX"]},
        {**rec, "moves": "AS"},
        {**rec, "game": "nope"},
        {**rec, "options": {"nope": 1}},
        {k: v for k, v in rec.items() if k != "moves"},
        {**rec, "moves": [*rec["moves"], *rec["moves"], *rec["moves"]] * 40},
        "{not json",
        [],
    ):
        with pytest.raises(RecordError):
            cardplay.replay(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_wrong_decks_are_rejected(name: str, players: int) -> None:
    game = _load(name, players)
    deck = game.deal(seed=1).deck
    with pytest.raises(ValueError, match="missing"):
        game.deal(deck=deck[:-1])
    with pytest.raises(ValueError, match="extra"):
        game.deal(deck=[*deck, deck[0]])
    with pytest.raises(ValueError):
        game.deal(deck=[*deck[:-1], "ZZ"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_moves_exist_exactly_while_someone_is_to_move(data: st.DataObject) -> None:
    name, players = data.draw(st.sampled_from(CONFIGS))
    game = _load(name, players)
    deal = game.deal(seed=data.draw(st.integers(0, 2**32)))
    while True:
        moves = deal.legal_moves()
        assert bool(moves) == (deal.to_move is not None)
        if not moves:
            break
        deal.play(moves[data.draw(st.integers(0, len(moves) - 1))])


def test_games_stays_callable_after_a_game_is_imported() -> None:
    before = cardplay.games()
    for name in before:
        cardplay.load(name)
    assert cardplay.games() == before
