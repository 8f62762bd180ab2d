"""The OpenSpiel games: OpenSpiel's random simulation test (with serialization), resampling,
the Python ISMCTS bot, and a leak test on the observation strings and tensors."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import cardplay
from cardplay.rl import openspiel

from .helpers import CONFIGS, IDS, VARIANT_IDS, VARIANTS, options_for

openspiel.register()


def _load(name: str, opts: dict[str, Any]) -> Any:
    return pyspiel.load_game(openspiel.game_name(name), opts)


def _sims(opts: dict[str, Any]) -> int:
    return 1 if opts.get("players", 2) > 6 else 3


@pytest.mark.parametrize(("name", "opts"), CONFIGS + VARIANTS, ids=IDS + VARIANT_IDS)
def test_random_sim_test_with_serialization(name: str, opts: dict[str, Any]) -> None:
    pyspiel.random_sim_test(_load(name, opts), num_sims=_sims(opts), serialize=True,
                            verbose=False)


OTHER_COUNTS = [(name, {"players": n}) for name in cardplay.games()
                for n in range(cardplay.engine.game_class(name).min_players,
                               cardplay.engine.game_class(name).max_players + 1)
                if (name, options_for(name, n)) not in CONFIGS]


@pytest.mark.parametrize(("name", "opts"), OTHER_COUNTS,
                         ids=[f"{name}-{o['players']}p" for name, o in OTHER_COUNTS])
def test_random_sim_test_at_every_other_player_count(name: str, opts: dict[str, Any]) -> None:
    pyspiel.random_sim_test(_load(name, opts), num_sims=1, serialize=True, verbose=False)


def test_every_game_is_registered_once() -> None:
    names = openspiel.register()
    assert names == [openspiel.game_name(g) for g in cardplay.games()]
    assert openspiel.register() == names
    assert set(names) <= set(pyspiel.registered_names())


def _random_states(game: Any, sims: int, seed: int) -> Any:
    rng = random.Random(seed)
    for _ in range(sims):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            yield state
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize(("name", "opts"), CONFIGS + VARIANTS, ids=IDS + VARIANT_IDS)
def test_resampled_worlds_look_the_same_to_the_seat(name: str, opts: dict[str, Any]) -> None:
    """The leak test on strings and tensors: a state resampled from a seat's information state
    (another deal of the hidden cards) gives that seat the same information-state and
    observation strings and tensors, though the hidden cards differ."""
    game = _load(name, opts)
    n = game.num_players()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    compared = differing = 0
    for i, state in enumerate(_random_states(game, 2, seed=1)):
        if i % 5 or state.is_terminal():
            continue
        for p in range(n) if n <= 4 else (i % n, (i + 1) % n):
            other = state.resample_from_infostate(p, sampler)
            assert other.current_player() == state.current_player()
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            if p == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            compared += 1
            differing += str(other) != str(state)
            if compared % 7 == 0:  # a resampled state serializes and clones like any other
                back = game.deserialize_state(other.serialize())
                assert str(back) == str(other) and str(other.clone()) == str(other)
    assert compared >= 4 and differing > 0


def test_strings_and_tensors_hold_the_seat_view_only() -> None:
    game = _load("sixty-six", {"dealer": 1})
    state = next(s for i, s in enumerate(_random_states(game, 1, seed=3)) if i == 4)
    deal = state.box.deal
    for p in (0, 1):
        info = state.information_state_string(p)
        obs = state.observation_string(p)
        assert info.startswith(f"p{p} ") and obs.startswith(f"p{p} ")
        own = {str(c) for c in deal.view(p).hand}
        hidden = {str(c) for c in deal.view(1 - p).hand} - set(
            cardplay.cards.format_cards(deal._known_to(p)))
        assert all(f'"{c}"' in info for c in own)
        assert not any(f'"{c}"' in info or f'"{c}"' in obs for c in hidden)
        assert '"history"' in info and '"history"' not in obs
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    observer = game.make_py_observer(public)
    text = observer.string_from(state, 0)
    assert '"hand"' not in text and '"legal_moves"' not in text
    observer.set_from(state, 0)
    assert not observer.dict["hand"].any()


@pytest.mark.parametrize("name", cardplay.games())
def test_observer_tensors_equal_the_view_encoding(name: str) -> None:
    """One observer of each kind, reused state after state (its tensor is written in place),
    gives the seat's view encoded as the View path does: without the hand for a public
    observer, followed by the history planes for a perfect-recall one."""
    from cardplay.rl.observations import Snapshot, encoder

    game = _load(name, {})
    enc = encoder(cardplay.load(name))
    kinds = {
        "private": pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                              private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER),
        "public": pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                             private_info=pyspiel.PrivateInfoType.NONE),
        "recall": pyspiel.IIGObservationType(perfect_recall=True, public_info=True,
                                             private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER),
    }
    observers = {k: game.make_py_observer(t) for k, t in kinds.items()}
    checked = 0
    for i, state in enumerate(_random_states(game, 2, seed=9)):
        if i % 3 and not state.is_terminal():
            continue
        deal = state.box.deal
        for p in range(game.num_players()):
            snap = Snapshot.of_deal(deal, p)
            want = enc.encode(snap)
            snap.hand = []
            public = enc.encode(snap)
            for kind, observer in observers.items():
                observer.set_from(state, p)
                got = observer.tensor
                if kind == "public":
                    assert np.array_equal(got, public)
                else:
                    assert np.array_equal(got[:enc.size], want)
                if kind == "recall":
                    moves = sum(1 for s, _ in deal.history if s == p)
                    n = game.num_players()
                    assert got[enc.size + 52 * n] * game.max_game_length() == \
                        pytest.approx(moves)
            checked += 1
    assert checked > 10


def test_parameters_presets_and_fixed_dealer() -> None:
    game = _load("sixty-six", {"preset": "schnapsen", "dealer": 0})
    assert game.get_parameters()["preset"] == "schnapsen"
    outcomes = game.new_initial_state().chance_outcomes()  # the dealer is fixed: cards first
    assert len(outcomes) == 20 and all(p == 1 / 20 for _, p in outcomes)
    canonical = _load("twenty", {"preset": "canonical"})
    assert canonical.num_distinct_actions() == 7185
    seeded = _load("twenty", {"preset": "canonical", "pair_counts_ten": "false"})
    assert seeded.num_distinct_actions() == 6177
    with pytest.raises(Exception, match=r"(?i)unknown parameter"):
        _load("twenty", {"colour": "red"})
    banchok = _load("banchok", {"max_moves": 7})
    assert banchok.max_game_length() == 7
    for state in _random_states(banchok, 3, seed=2):
        if state.is_terminal():
            assert abs(sum(state.returns())) < 1e-9


def test_pickled_states_replay_exactly() -> None:
    game = _load("macao", {"players": 3})
    for i, state in enumerate(_random_states(game, 1, seed=4)):
        if i % 9:
            continue
        back = pickle.loads(pickle.dumps(state.box))
        assert back.deal.view(0).to_dict() == state.box.deal.view(0).to_dict()
        assert back.deal.legal_codes() == state.box.deal.legal_codes()


@pytest.mark.parametrize("name", cardplay.games())
def test_python_ismcts_plays_complete_deals(name: str) -> None:
    cls = cardplay.engine.game_class(name)
    # dealer 1: seat 0, the bot, is not the banker (who never moves in Banchok and Macao)
    opts = {"dealer": 1} if cls.min_players == cls.max_players else {"players": 2, "dealer": 1}
    game = _load(name, opts)
    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                           max_simulations=3, random_state=rs)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rs.choice(actions, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            moves += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert state.box.deal.is_over and moves > 0
    result = [float(x) for x in state.box.deal.result]
    n = len(result)
    # zero-sum by default: each seat's result less the mean of the others'
    assert state.returns() == pytest.approx([r - (sum(result) - r) / (n - 1) for r in result])


def test_the_reward_parameter_shapes_returns_and_declares_the_utility() -> None:
    expected = {"zero_sum": ("ZERO_SUM", -3.0, 3.0), "win": ("ZERO_SUM", -1.0, 1.0),
                "raw": ("GENERAL_SUM", 0.0, 3.0)}
    for reward, (utility, lo, hi) in expected.items():
        game = _load("sixty-six", {"reward": reward, "dealer": 0})
        assert (game.get_type().utility.name, game.min_utility(), game.max_utility()) == \
            (utility, lo, hi)
        state = list(_random_states(game, 1, seed=3))[-1]
        assert state.is_terminal()
        result = [float(x) for x in state.box.deal.result]
        winner = result.index(max(result))
        got = state.returns()
        if reward == "raw":
            assert got == result
        elif reward == "zero_sum":
            assert got == [result[0] - result[1], result[1] - result[0]]
        else:
            assert got[winner] == 1.0 and got[1 - winner] == -1.0
    # Macao's results are zero-sum already: raw returns say so too
    assert _load("macao", {"reward": "raw"}).get_type().utility.name == "ZERO_SUM"
    with pytest.raises(Exception, match="reward is one of zero_sum, win, raw"):
        _load("sixty-six", {"reward": "points"})


@pytest.mark.parametrize("name", ["macao", "sixty-six"])
def test_chance_outcomes_are_the_copies_left_over_the_cards_left(name: str) -> None:
    """At every card node (one deck: 1/left each; Macao's two decks: 1 or 2 copies / left),
    after draws that took both copies of some cards."""
    game = _load(name, {"dealer": 0})
    deck = cardplay.load(name)._deck_cards()
    left = {c: deck.count(c) for c in set(deck)}
    state = game.new_initial_state()
    rng = random.Random(3)
    total = len(deck)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes == [(c, k / total) for c, k in sorted(left.items()) if k]
        card = rng.choice(outcomes)[0]
        state.apply_action(card)
        left[card] -= 1
        total -= 1
    assert total == 0 and state.current_player() >= 0


def test_a_move_after_legal_actions_is_checked_in_its_own_position() -> None:
    """The legal codes kept from legal_actions() serve the next move of that state only: a
    clone moves on its own, and an action legal before a move is refused after it."""
    game = _load("two-ten-jack", {"dealer": 0})
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    first = state.legal_actions()
    other = state.clone()
    state.apply_action(first[0])
    other.apply_action(first[-1])
    assert str(state) != str(other)
    before, legal, moves = str(state), state.legal_actions(), state.moves
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(first[0])  # the card has left the hand: never legal again
    # refused without a trace: the same position, and the next legal move still goes through
    assert str(state) == before and state.legal_actions() == legal and state.moves == moves
    state.apply_action(legal[0])
    assert state.history()[-2:] == [first[0], legal[0]]


def test_chance_actions_outside_the_outcomes_are_refused_unchanged() -> None:
    """A dealer that is not a seat, a card outside the deck and a card already dealt are
    refused with a clear error; the state keeps its history and outcomes."""
    game = _load("sixty-six", {})
    state = game.new_initial_state()
    for bad in (2, 5):
        with pytest.raises(Exception, match="not a dealer"):
            state.apply_action(bad)
    assert state.history() == [] and state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(1)
    deck = cardplay.load("sixty-six")._deck_cards()
    outside = next(c for c in range(52) if c not in deck)
    first = state.chance_outcomes()[0][0]
    state.apply_action(first)
    before = state.chance_outcomes()
    for bad in (outside, first, 52):
        with pytest.raises(Exception, match="not a card left"):
            state.apply_action(bad)
    assert state.history() == [1, first] and state.chance_outcomes() == before
    assert len(before) == len(deck) - 1
