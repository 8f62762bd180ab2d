"""The lessons ("Learn to play", cardplay.tutorials): every script replays through the engine
(each move legal at its point, the deal over after the last one, with the result and the numbers
its summary names), the notes name the cards the learner plays, and every text exists in all
three catalogues with the placeholders the notes fill."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from cardplay import tutorials
from cardplay.cards import parse_card
from cardplay.catalogues import load, placeholders
from cardplay.engine import Deal
from cardplay.i18n import BROWSER

CARD_MOVE = r"^[2-9TJQKA][SHDC]"
UI_KEYS = ("tut_learn", "tut_learn_note", "tut_title", "tut_step", "tut_your_move", "tut_watch",
           "tut_refuse", "tut_your_choice", "tut_refuse_choice", "tut_done", "tut_play_real",
           "tut_again", "tut_left", "tut_error", "tut_about")


def _other(tut: tutorials.Tutorial) -> int:
    return 1 - tut.learner


# what each lesson's summary and intro say, computed from the replayed first deal
def _sixty_six(tut: tutorials.Tutorial, deal: Deal) -> tuple[dict[str, Any], dict[str, Any]]:
    public = deal.view(tut.learner).to_dict()["public"]
    return ({"trump": public["trump_suit"], "card": public["turned_trump"]},
            {"mine": deal.points[tut.learner], "theirs": deal.points[_other(tut)],
             "gp": deal.result[tut.learner]})


def _points(tut: tutorials.Tutorial, deal: Deal) -> tuple[dict[str, Any], dict[str, Any]]:
    return {}, {"mine": deal.points[tut.learner], "theirs": deal.points[_other(tut)]}


def _maltese(tut: tutorials.Tutorial, deal: Deal) -> tuple[dict[str, Any], dict[str, Any]]:
    public = deal.view(tut.learner).to_dict()["public"]
    assert public["bonus_to"] == tut.learner  # the summary says the learner took the bonus
    return ({"bonus": public["bonus"]},
            {"mine": deal.points[tut.learner], "theirs": deal.points[_other(tut)],
             "bonus": public["bonus"]})


def _banchok(tut: tutorials.Tutorial, deal: Deal) -> tuple[dict[str, Any], dict[str, Any]]:
    public = deal.view(tut.learner).to_dict()["public"]
    assert public["bank"] == 0 and public["banker"] != tut.learner  # broken, as it says
    return {"bank": public["bank_stake"]}, {"mine": (deal.result or [])[tut.learner]}


def _macao(tut: tutorials.Tutorial, deal: Deal) -> tuple[dict[str, Any], dict[str, Any]]:
    public = deal.view(tut.learner).to_dict()["public"]
    assert public["bank"] == 0 and public["banker"] != tut.learner
    return {}, {"mine": (deal.result or [])[tut.learner]}


def _chukhny(tut: tutorials.Tutorial, deal: Deal) -> tuple[dict[str, Any], dict[str, Any]]:
    public = deal.view(tut.learner).to_dict()["public"]
    assert public["loser"] is not None and public["loser"] != tut.learner
    return {}, {"mine": (deal.result or [])[tut.learner]}


FACTS: dict[str, Callable[[tutorials.Tutorial, Deal], tuple[dict[str, Any], dict[str, Any]]]] = {
    "sixty-six": _sixty_six,
    "two-ten-jack": _points,
    "twenty": _points,
    "maltese-twenty": _maltese,
    "banchok": _banchok,
    "macao": _macao,
    "chukhny": _chukhny,
}


@pytest.fixture(scope="module")
def catalogues() -> dict[str, Any]:
    return {lang: load(lang) for lang in ("en", "ru", "de")}


def test_every_game_with_a_lesson_is_checked_here() -> None:
    assert set(tutorials.GAMES) == set(FACTS)
    assert tutorials.find("no-such-game") is None
    with pytest.raises(ValueError, match="no tutorial for 'no-such-game'; tutorials: sixty-six, "):
        tutorials.tutorial("no-such-game")


@pytest.mark.parametrize("game", tutorials.GAMES)
def test_the_script_replays_legally_to_the_end_of_the_first_deal(game: str) -> None:
    tut = tutorials.tutorial(game)
    match, deal = tutorials.play_script(tut)
    assert deal.is_over
    assert tuple(deal.result or ()) == tut.result
    assert match.view(tut.learner).to_dict()["match"]["results"][0] == list(tut.result)
    intro, summary = FACTS[game](tut, deal)
    assert dict(tut.intro.params) == intro
    assert dict(tut.summary.params) == summary


def view_hand(match: Any, tut: tutorials.Tutorial) -> list[str]:
    return list(match.view(tut.learner).to_dict()["hand"])


def legal_texts(match: Any) -> list[str]:
    return [str(m) for m in match.legal_moves()]


def _led(public: dict[str, Any]) -> str | None:
    trick = public.get("trick") or []
    return trick[0]["card"] if trick else None


@pytest.mark.parametrize("game", tutorials.GAMES)
def test_each_learner_move_and_only_those_carry_a_note_with_the_facts_of_its_moment(
        game: str) -> None:
    """A note names the card(s) played, the card led and the move's number as they are when
    the learner plays: a script replayed into another position fails here."""
    tut = tutorials.tutorial(game)
    assert tut.steps(), game
    match = tut.new_game().match(seed=tut.seed)
    for turn in tut.script:
        assert (turn.note is not None) == (turn.seat == tut.learner), turn
        if turn.note is not None:
            params = turn.note.params
            public = match.view(tut.learner).to_dict()["public"]
            if "card" in params and re.match(CARD_MOVE, turn.move):
                assert params["card"] == turn.move.split("=")[0], turn
            if "cards" in params:
                assert params["cards"] == turn.move, turn
            if "led" in params:
                assert params["led"] == _led(public), turn
            if "m" in params:
                assert params["m"] == public["count"], turn
            if "top" in params:  # the pile's top card (Chukhny)
                assert params["top"] == public["pile"][-1], turn
            if "hand" in params:  # the cards a stake is named on (Polish Banchok)
                assert params["hand"] == "+".join(view_hand(match, tut)), turn
            if "total" in params:  # the tally (Maltese Twenty): before an exact or an over
                # twenty, after any other card; under 10 where the note says no card makes 20
                value = min(10, "A23456789".find(turn.move[0]) + 1 or 10)
                before = public["tally_total"]
                over = turn.note.key in ("tut_mt_exact", "tut_mt_over_forced")
                assert params["total"] == (before if over else before + value), turn
                assert turn.note.key != "tut_mt_add_safe" or params["total"] < 10, turn
            if turn.note.key == "tut_66_close":  # "you already have {points} points"
                assert params["points"] == match.deal.points[tut.learner] >= 66, turn
            if "lo" in params:  # the range of stakes (Macao)
                stakes = [int(m.split()[1]) for m in legal_texts(match)]
                assert (params["lo"], params["hi"]) == (min(stakes), max(stakes)), turn
            for value in params.values():  # a card in a note is a real card
                if isinstance(value, str) and len(value) == 2 and value[1] in "SHDC":
                    parse_card(value)
        match.play(turn.move)


def test_a_script_that_no_longer_fits_the_game_fails_naming_the_move() -> None:
    tut = tutorials.tutorial("sixty-six")
    broken = tutorials.Tutorial(tut.game, tut.seed, tut.learner, tut.intro,
                                (tut.script[0], tutorials.Turn(1, "AH"), *tut.script[2:]),
                                tut.summary, tut.result)
    with pytest.raises(ValueError, match=r"move 2 \(AH\) is not legal"):
        tutorials.play_script(broken)
    out_of_turn = tutorials.Tutorial(tut.game, tut.seed, tut.learner, tut.intro,
                                     (tutorials.Turn(1, "9D"), *tut.script[1:]), tut.summary,
                                     tut.result)
    with pytest.raises(ValueError, match="move 1 \\(9D\\): seat 0 is to move, not 1"):
        tutorials.play_script(out_of_turn)


def test_the_server_plays_the_script_for_the_other_seats_only_while_the_deal_follows_it() -> None:
    tut = tutorials.tutorial("sixty-six")
    game = tut.new_game()
    first_bot = next(i for i, t in enumerate(tut.script) if t.seat != tut.learner)
    played = [[t.seat, t.move] for t in tut.script[:first_bot]]
    bot = tut.script[first_bot].seat
    assert tutorials.scripted_move(game, tut.seed, bot, 1, played) == tut.script[first_bot].move
    # another seed, a later deal, a move off the script, the learner's own turn: no script
    assert tutorials.scripted_move(game, tut.seed + 1, bot, 1, played) is None
    assert tutorials.scripted_move(game, tut.seed, bot, 2, played) is None
    assert tutorials.scripted_move(game, tut.seed, bot, 1, [[0, "QS"]]) is None
    assert tutorials.scripted_move(game, tut.seed, tut.learner, 1, []) is None
    other_options = tutorials.tutorial("sixty-six").new_game().__class__(match_target=8)
    assert tutorials.scripted_move(other_options, tut.seed, bot, 1, played) is None


def _notes(tut: tutorials.Tutorial) -> list[tutorials.Note]:
    return [tut.intro, tut.summary, *(t.note for t in tut.script if t.note is not None)]


@pytest.mark.parametrize("game", tutorials.GAMES)
def test_every_note_is_in_every_catalogue_with_its_placeholders(
        game: str, catalogues: dict[str, Any]) -> None:
    for note in _notes(tutorials.tutorial(game)):
        for lang, cat in catalogues.items():
            message = cat.get(note.key, BROWSER)
            assert message is not None and message.string, (lang, note.key)
            assert placeholders(message.string) == set(note.params), (lang, note.key)
            if lang != "en":  # translated, not the English left in place
                assert message.string != catalogues["en"].get(note.key, BROWSER).string


def test_the_lesson_pages_texts_are_in_every_catalogue(catalogues: dict[str, Any]) -> None:
    for key in UI_KEYS:
        texts = {lang: cat.get(key, BROWSER) for lang, cat in catalogues.items()}
        assert all(m is not None and m.string for m in texts.values()), key
        assert texts["ru"].string != texts["en"].string != texts["de"].string, key


def test_a_lesson_sent_to_the_browser_holds_the_learners_moves_only() -> None:
    tut = tutorials.tutorial("sixty-six")
    lesson = tutorials.lesson(tut)
    assert lesson["learner"] == 0
    assert [s["move"] for s in lesson["steps"]] == [t.move for t in tut.script if t.seat == 0]
    assert lesson["steps"][0] == {"move": "9H", "key": "tut_66_lead_low",
                                  "params": {"card": "9H"}}
    bot_only = {t.move for t in tut.script if t.seat != 0}
    assert not bot_only & {s["move"] for s in lesson["steps"]}
    assert lesson["summary"] == {"key": "tut_66_summary",
                                 "params": {"mine": 126, "theirs": 59, "gp": 1}}
