"""Sixty-Six options that reproduce the VU Amsterdam bot platform's Schnapsen (RULES.md 4.12).

``marriage_lead="king"`` and ``marriage_credit="next_trick"``, and their named combination
``VU_SCHNAPSEN_OPTIONS``. Every deal is dealt from a fixed Schnapsen deck order with ``dealer=1``
(RULES.md 4.3a): seat 0 gets cards 1, 3, ..., 9, seat 1 cards 2, 4, ..., 10, card 11 is the trump
card and cards 12..20 are the talon in drawing order. The expected moves and points were worked out
by hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardplay
from cardplay.builtin.sixty_six import VU_SCHNAPSEN_OPTIONS
from cardplay.engine import Deal, IllegalMoveError, OptionError
from helpers import legal, pub, run

# Spades are trumps (AS turned). Seat 0: KH QH AD TD JS; seat 1: AH TH KD QD JC.
# Talon: QC JD KC TS JH AC QS TC KS, then AS.
MARRIAGE_DECK = "KH AH QH TH AD KD TD QD JS JC AS QC JD KC TS JH AC QS TC KS"
# Spades are trumps (QS turned). Seat 0: AH AS TS KD QD; seat 1: TH KH AC AD JC.
# Talon: JH QC JD TC KC KS QH TD JS, then QS.
SIXTY_SIX_DECK = "AH TH AS KH TS AC KD AD QD JC QS JH QC JD TC KC KS QH TD JS"
# RULES 4.11-style Schnapsen deck of the main suite: seat 0 TH KH KS JS JC, seat 1 QS QH AD KD AS.
SCHNAPSEN_DECK = "TH QS KH QH KS AD JS KD JC AS TS QC JH JD AC TD KC AH TC QD"


def new(deck: str, **opts: Any) -> Deal:
    return cardplay.load("sixty-six", **opts).deal(deck=deck, dealer=1)


def vu(deck: str) -> Deal:
    return new(deck, **VU_SCHNAPSEN_OPTIONS)


def test_the_combination_is_the_schnapsen_preset_without_closing() -> None:
    game = cardplay.load("sixty-six", **VU_SCHNAPSEN_OPTIONS)
    assert VU_SCHNAPSEN_OPTIONS == {"preset": "schnapsen", "allow_close": False,
                                    "marriage_lead": "king", "marriage_credit": "next_trick"}
    opts = game.options_dict()
    assert opts["end_mode"] == "first_to_66" and opts["exchange"] == "any_lead"
    assert opts["schwarz_rule"] == "no_tricks" and opts["marriage_requires_trick"] is True
    assert game.deck_size == 20
    defaults = cardplay.load("sixty-six").options_dict()
    assert defaults["marriage_lead"] == "either" and defaults["marriage_credit"] == "first_trick"


def test_first_lead_offers_the_jack_exchange_and_only_the_kings_marriage() -> None:
    d = vu(MARRIAGE_DECK)
    assert legal(d) == {"KH", "QH", "AD", "TD", "JS", "KH=20", "exchange"}
    with pytest.raises(IllegalMoveError):
        d.play("QH=20")
    with pytest.raises(IllegalMoveError):
        d.play("close")
    # The default Schnapsen preset offers the queen's lead and closing on the same hand.
    assert legal(new(MARRIAGE_DECK, preset="schnapsen")) == \
        {"KH", "QH", "AD", "TD", "JS", "KH=20", "QH=20", "exchange", "close"}
    d.play("exchange")
    assert {str(c) for c in d.view(0).hand} == {"KH", "QH", "AD", "TD", "AS"}
    assert pub(d)["trump_card"] == "JS"
    assert legal(d) == {"KH", "QH", "AD", "TD", "AS", "KH=20"}


def test_marriage_lead_king_alone_and_its_cached_legal_moves() -> None:
    # Both games share one process-wide table of lead moves: the queen's lead must come and go
    # with the option whichever game fills the table first.
    either = new(MARRIAGE_DECK, preset="schnapsen", allow_close=False)
    king = new(MARRIAGE_DECK, preset="schnapsen", allow_close=False, marriage_lead="king")
    assert "QH=20" in legal(either) and "QH=20" not in legal(king)
    assert "QH=20" in legal(either)
    run(king, "KH=20 AH")
    assert king.view(1).to_dict()["public"]["marriages"] == \
        [{"seat": 0, "suit": "H", "points": 20, "shown": "QH"}]


def test_next_trick_credit_waits_for_the_declarers_next_trick() -> None:
    d = vu(MARRIAGE_DECK)
    run(d, "KH=20 AH")  # seat 0 declares before any trick and loses it: 20 pending
    assert d.points == [0, 15] and pub(d)["pending"] == [20, 0]
    # Seat 1 has won a trick; its 20 still waits for its next trick.
    assert legal(d) == {"TH", "KD", "QD", "JC", "QC", "KD=20"}
    d.play("KD=20")
    assert d.points == [0, 15] and pub(d)["pending"] == [20, 20]
    d.play("AD")  # seat 0 takes the king: 15 and its own pending 20
    assert d.points == [35, 15] and pub(d)["pending"] == [0, 20]
    run(d, "JD QD")  # seat 1 wins the next trick: 5 and the waiting 20
    assert d.points == [35, 40] and pub(d)["pending"] == [0, 0]
    assert not d.is_over and d.to_move == 1


def test_first_trick_credit_is_the_default() -> None:
    d = new(MARRIAGE_DECK, preset="schnapsen")
    run(d, "KH=20 AH KD=20")  # seat 1 has a trick: its 20 counts at once
    assert d.points == [0, 35] and pub(d)["pending"] == [20, 0]
    d.play("AD")
    assert d.points == [35, 35] and pub(d)["pending"] == [0, 0]


def test_a_marriage_never_decides_the_hand_on_the_lead() -> None:
    moves = "AH TH AS KH TS AC"  # seat 0 takes three tricks: 21 + 15 + 21 = 57
    preset = new(SIXTY_SIX_DECK, preset="schnapsen", allow_close=False, marriage_lead="king")
    run(preset, moves)
    assert preset.points == [57, 0]
    assert legal(preset) == {"KD", "QD", "JH", "JD", "KC", "KD=20"}
    preset.play("KD=20")  # credited at once: 77, the hand is over before seat 1 plays
    assert preset.is_over and preset.points == [77, 0] and preset.result == [3, 0]

    d = vu(SIXTY_SIX_DECK)
    run(d, moves)
    d.play("KD=20")
    assert not d.is_over and d.to_move == 1 and d.points == [57, 0]
    assert pub(d)["pending"] == [20, 0]
    d.play("AD")  # seat 1 takes the king: the 20 keeps waiting
    assert d.points == [57, 15] and pub(d)["pending"] == [20, 0] and d.to_move == 1
    assert legal(d) == {"JC", "QC", "TC", "KS", "QH"}
    d.play("JC")
    assert not d.is_over
    d.play("KC")  # 6 and the waiting 20: 83; seat 1 has 15, under 33
    assert d.is_over and d.points == [83, 15] and d.result == [2, 0]
    assert pub(d)["outcome"]["reason"] == "reached_66"


def test_the_last_trick_decides_an_undecided_hand() -> None:
    d = vu(SCHNAPSEN_DECK)
    run(d, "KS QH JC JH TH KD QC AS KC KH QS TS JS AH JD AD QD TD TC AC")
    p = pub(d)
    assert d.is_over and len(p["tricks"]) == 10 and p["tricks"][-1]["winner"] == 1
    assert d.points == [64, 56] and d.result == [0, 1]
    assert p["outcome"]["reason"] == "last_trick"


def test_sampled_worlds_keep_the_pending_marriages() -> None:
    game = cardplay.load("sixty-six", **VU_SCHNAPSEN_OPTIONS)
    d = game.deal(deck=MARRIAGE_DECK, dealer=1)
    run(d, "KH=20 AH KD=20")
    view = d.view(0)
    rng = random.Random(5)
    for _ in range(20):
        world = game.sample_deal(view, rng)
        assert world.view(0).to_dict()["public"]["pending"] == [20, 20]
        assert {str(m) for m in world.legal_moves()} == {"QH", "AD", "TD", "JS", "JD"}
        assert world.points == [0, 15]


@pytest.mark.parametrize(("name", "value", "valid"), [
    ("marriage_lead", "queen", ["'either'", "'king'"]),
    ("marriage_credit", "at_once", ["'first_trick'", "'next_trick'"]),
])
def test_option_values_are_checked(name: str, value: str, valid: list[str]) -> None:
    with pytest.raises(OptionError) as e:
        cardplay.load("sixty-six", **{name: value})
    assert name in str(e.value)
    for v in valid:
        assert v in str(e.value)


def test_next_trick_credit_cannot_combine_with_credit_at_once() -> None:
    with pytest.raises(OptionError, match="marriage_requires_trick"):
        cardplay.load("sixty-six", marriage_credit="next_trick", marriage_requires_trick=False)
    with pytest.raises(OptionError, match="marriage_requires_trick"):
        cardplay.load("sixty-six", **{**VU_SCHNAPSEN_OPTIONS, "marriage_requires_trick": False})
