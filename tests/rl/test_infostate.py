"""Compact information-state keys: short, the same for every world a seat cannot tell apart,
different where the seat's view differs, and the same in OpenSpiel's strings."""

from __future__ import annotations

import random
from typing import Any

import pyspiel
import pytest

import cardplay
from cardplay.rl import openspiel
from cardplay.rl.actions import action_space
from cardplay.rl.infostate import info_keys

openspiel.register()


def _states(game: Any, sims: int, seed: int) -> Any:
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


def test_a_key_is_the_hand_the_moves_and_a_digest() -> None:
    game = cardplay.load("sixty-six")
    deal = game.deal(seed=4)
    keys = info_keys(game)
    space = action_space(game)
    for _ in range(5):
        deal.apply_code(deal.legal_codes()[0])
    seat = deal.to_move
    assert seat is not None
    key = keys.key(deal, seat)
    hand = sorted(cardplay.rl.observations.CARD_ID[str(c)] for c in deal.view(seat).hand)
    moves = [space.action_of(code) for _, code in deal.history]
    head, mv, digest = key.split("|")
    assert head == str(seat) + "".join(chr(48 + c) for c in hand)
    assert mv == "".join(chr(48 + a) for a in moves) and len(digest) == 12
    # the public key leaves the cards out, and so differs from the private one
    public = keys.key(deal, seat, private=False)
    assert public.startswith(f"{seat}|{mv}|") and public != key
    tensor = keys.tensor(deal, seat)
    assert tensor.shape == (52 + 30 + 3,) and tensor[:52].sum() == len(hand)
    assert list(tensor[52:52 + 5]) == moves and (tensor[57:82] == -1).all()


@pytest.mark.parametrize(("name", "opts"), [("sixty-six", {}), ("macao", {"players": 3}),
                                            ("two-ten-jack", {}), ("chukhny", {"players": 3})])
def test_worlds_the_seat_cannot_tell_apart_share_its_key(name: str, opts: dict[str, Any]) -> None:
    game = pyspiel.load_game(openspiel.game_name(name), {**opts, "infostate": "compact"})
    keys = info_keys(cardplay.load(name, **opts))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    compared = 0
    for i, state in enumerate(_states(game, 2, seed=1)):
        if i % 4:
            continue
        p = state.current_player()
        other = state.resample_from_infostate(p, sampler)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.observation_string(p) == state.observation_string(p)
        assert (keys.tensor(other.box.deal, p) == keys.tensor(state.box.deal, p)).all()
        compared += 1
    assert compared >= 4


def test_compact_keys_split_states_as_the_json_views_do() -> None:
    """Over the states of random deals, two states share a compact key exactly when they share
    the JSON view (the full View, perfect recall): the keys lose nothing."""
    json_game = pyspiel.load_game("cardplay_sixty_six", {"dealer": 0})
    compact = pyspiel.load_game("cardplay_sixty_six", {"dealer": 0, "infostate": "compact"})
    pairs = set()
    for a, b in zip(_states(json_game, 30, seed=7), _states(compact, 30, seed=7)):
        for p in (0, 1):
            pairs.add((a.information_state_string(p), b.information_state_string(p)))
    assert len({j for j, _ in pairs}) == len({c for _, c in pairs}) == len(pairs) > 500
    lengths = [len(c) for _, c in pairs]
    assert sum(lengths) / len(lengths) < 50 < min(len(j) for j, _ in pairs)


def test_a_bad_infostate_parameter_is_refused() -> None:
    with pytest.raises(Exception, match="infostate is one of json, compact"):
        pyspiel.load_game("cardplay_sixty_six", {"infostate": "short"})
