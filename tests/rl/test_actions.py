"""The fixed action spaces: sizes, both-way mappings to the notation and to engine codes."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import cardplay
from cardplay.cards import parse_card, rank_of
from cardplay.rl.actions import action_space, describe

from .helpers import CONFIGS, IDS, VARIANT_IDS, VARIANTS, positions

SIZES = {
    ("sixty-six", ()): 70,
    ("two-ten-jack", ()): 54,
    ("maltese-twenty", ()): 52,
    ("chukhny", ()): 54,
    ("banchok", ()): 352,
    ("banchok", (("bank_stake", 20),)): 112,
    ("macao", ()): 104,
    ("macao", (("max_stake", 20),)): 74,
    ("twenty", ()): 6177,
    ("twenty", (("preset", "canonical"),)): 7185,
}


def test_every_registered_game_has_the_space_it_declares() -> None:
    for name in cardplay.games():
        game = cardplay.load(name)
        assert action_space(game).size == game.facts.action_space, name


@pytest.mark.parametrize(("name", "opts"), list(SIZES))
def test_documented_sizes(name: str, opts: tuple[tuple[str, Any], ...]) -> None:
    assert action_space(cardplay.load(name, **dict(opts))).size == SIZES[(name, opts)]


@pytest.mark.parametrize(("name", "opts"), CONFIGS + VARIANTS, ids=IDS + VARIANT_IDS)
def test_legal_moves_map_into_the_space(name: str, opts: dict[str, Any]) -> None:
    """Every legal move of random deals is an action; distinct actions play distinct moves; the
    action's text names the move (Twenty: its ranks) and parses back to the action."""
    game = cardplay.load(name, **opts)
    space = action_space(game)
    seen = 0
    for d in positions(game, 12, seed=3):
        codes = d.legal_codes()
        legal = space.legal(codes)
        assert len(set(legal.values())) == len(legal)
        assert all(0 <= a < space.size for a in legal)
        assert space.legal_actions(codes) == sorted(legal)
        assert [i for i, b in enumerate(space.mask(codes)) if b] == sorted(legal)
        for a, code in legal.items():
            assert code in codes
            assert space.action_of(code) == a
            assert space.code_of(a, codes) == code
            move = game.move(code).text
            assert space.action_of_text(move) == a
            assert space.action_of_text(space.text(a)) == a
            if name != "twenty":
                assert space.text(a) == move
            seen += 1
        if name != "twenty":  # one action per legal move
            assert len(legal) == len(codes)
        else:  # one action per rank multiset among the legal sets
            ranks = {(c, tuple(sorted(Counter(rank_of(x) for x in space.cards_of(c)).items())))
                     for c in codes}
            assert len(legal) == len({r for _, r in ranks})
        assert space.code_of(space.size - 1 if space.size - 1 not in legal else -5, codes) \
            is None
    assert seen > 50


def test_twenty_plays_a_canonical_set_of_the_chosen_ranks() -> None:
    game = cardplay.load("twenty", preset="canonical")
    space = action_space(game)
    hand = ["AS", "AH", "AD", "5C", "5H", "KC", "KD"]
    rest = [c for c in cardplay.cards.format_cards(range(52)) if c not in hand]
    order = [c for pair in zip(hand, rest) for c in pair] + rest[7:]
    deal = game.deal(deck=order, dealer=1)  # seat 0 gets the 1st, 3rd, ... card
    assert sorted(str(c) for c in deal.view(0).hand) == sorted(hand)
    codes = deal.legal_codes()
    a = space.action_of_text("A")
    code = space.code_of(a, codes)
    assert code is not None and game.move(code).text == "AS"  # the lowest card id
    assert space.text(a) == "A"
    # A King counts any value: one action per multiset, whatever the King's value.
    k = space.action_of_text("K")
    assert space.action_of_text("KC=1") == k == space.action_of_text("KD")
    assert space.text(space.action_of_text("AS+AD+5C")) == "A+A+5"
    with pytest.raises(ValueError, match="can never be played"):
        space.action_of_text("Q+J+T")


def test_cards_of_marriages_and_the_speculation() -> None:
    ss = action_space(cardplay.load("sixty-six"))
    assert ss.cards_of(ss.action_of_text("QH=20")) == (parse_card("QH"),)
    assert ss.cards_of(ss.action_of_text("KC=40")) == (parse_card("KC"),)
    assert ss.cards_of(ss.action_of_text("close")) == ()
    tj = action_space(cardplay.load("two-ten-jack"))
    assert tj.cards_of(tj.action_of_text("AS=H")) == (parse_card("AS"),)


def test_macao_and_banchok_stakes() -> None:
    m = action_space(cardplay.load("macao"))
    assert (m.action_of_text("buy"), m.action_of_text("stand")) == (52, 53)
    assert m.action_of_text("stake 1") == 54 and m.text(103) == "stake 50"
    with pytest.raises(ValueError, match="outside the action space"):
        m.action_of_text("stake 51")
    b = action_space(cardplay.load("banchok", bank_stake=10))
    assert b.action_of_text("stake 29") == 81 == b.size - 1
    with pytest.raises(ValueError, match="outside the action space"):
        b.action_of_text("stake 30")


def test_bad_actions_are_named() -> None:
    space = action_space(cardplay.load("sixty-six"))
    for bad in (-1, 70, True, "3"):
        with pytest.raises(ValueError, match="actions are 0 to 69"):
            space.text(bad)  # type: ignore[arg-type]
    assert describe(cardplay.load("chukhny"), [52, 53]) == ["52: draw", "53: take"]


def test_random_codes_of_every_size_are_rejected_or_mapped() -> None:
    rng = random.Random(1)
    for name in cardplay.games():
        space = action_space(cardplay.load(name))
        for _ in range(200):
            code = rng.randrange(0, 200)
            try:
                a = space.action_of(code)
            except ValueError as e:
                assert "outside the action space" in str(e)
            else:
                assert 0 <= a < space.size
