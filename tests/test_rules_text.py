"""The rules a person reads (``cardplay rules``, the table's rules dialog, the lobby's) state the
rules (issue 32, clause 4): for every game and its named variants, the paragraphs that apply
cover every move kind, every rule that can refuse a move and every way the game scores; the
rules name every move kind and option by its label; and every paragraph is a finished text in
English, Russian and German."""

from __future__ import annotations

import re
from typing import Any

import pytest

import cardplay
from cardplay.engine import game_class
from cardplay.wording import rules_text

LANGS = ("en", "ru", "de")
# the rule sets a table can play: each game's defaults, and its named variants
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    *((name, {}) for name in cardplay.games()),
    ("sixty-six", {"preset": "schnapsen"}),
    ("twenty", {"preset": "canonical"}),
]


def ids(v: tuple[str, dict[str, Any]]) -> str:
    return v[0] + "".join(f"-{k}={x}" for k, x in v[1].items())


@pytest.mark.parametrize("variant", VARIANTS, ids=[ids(v) for v in VARIANTS])
def test_the_rules_cover_every_move_and_scoring_item(variant: tuple[str, dict[str, Any]]) -> None:
    name, opts = variant
    game = cardplay.load(name, **opts)
    d = game.declaration
    options = game.options_dict()
    covered = {c for r in d.rules if r.applies(options) for c in r.covers}
    want = {f"move:{k.name}" for k in d.moves} | {f"score:{s}" for s in d.scoring}
    assert want - covered == set()
    assert d.scoring, "every game scores somehow"


@pytest.mark.parametrize("name", cardplay.games())
def test_every_rule_that_refuses_a_move_is_stated(name: str) -> None:
    """Each refusal is explained by a paragraph of the variant where it can happen (Twenty's
    "more than the move number" in the seed counting, "not exactly" in the canonical one)."""
    covered: set[str] = set()
    for game_name, opts in VARIANTS:
        if game_name == name:
            game = cardplay.load(name, **opts)
            options = game.options_dict()
            covered |= {c for r in game.declaration.rules if r.applies(options) for c in r.covers}
    d = game_class(name).declaration
    assert {f"refusal:{r.name}" for r in d.refusals} - covered == set()


@pytest.mark.parametrize("name", cardplay.games())
def test_every_cover_names_something_the_game_declares(name: str) -> None:
    cls = game_class(name)
    d = cls.declaration
    known = {f"move:{k.name}" for k in d.moves} | {f"refusal:{r.name}" for r in d.refusals} | \
        {f"score:{s}" for s in d.scoring} | {f"option:{o}" for o in cls.option_fields()}
    for rule in d.rules:
        assert set(rule.covers) <= known, (rule.text.en, set(rule.covers) - known)
        for option, value in rule.when:
            assert option in cls.option_fields(), option
            assert value in cls.option_fields()[option].metadata.get("choices", (value,))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", VARIANTS, ids=[ids(v) for v in VARIANTS])
def test_the_rules_text_holds_every_paragraph_move_and_option(
        variant: tuple[str, dict[str, Any]], lang: str) -> None:
    name, opts = variant
    game = cardplay.load(name, **opts)
    d = game.declaration
    options = game.options_dict()
    text = rules_text(d, options, lang)
    shown = [r for r in d.rules if r.applies(options)]
    assert len(shown) >= 4, "the rules are more than a line"
    for rule in shown:
        words = rule.text(lang)
        assert f"- {words}\n" in text
        # a finished text: a capital first, a full stop last, no placeholder left
        assert words[0].isupper() and words.endswith("."), words
        assert "{" not in words
        if lang != "en":
            assert words != rule.text.en, f"not translated into {lang}: {rule.text.en}"
    hidden = [r for r in d.rules if not r.applies(options)]
    for rule in hidden:  # another variant's paragraph is not shown at this table
        assert f"- {rule.text(lang)}\n" not in text
    for kind in d.moves:
        assert kind.label(lang) in text
    for option in d.options:
        assert option.label(lang) in text


def test_two_ten_jack_says_when_to_trump_and_which_cards_score() -> None:
    text = rules_text(game_class("two-ten-jack").declaration, {}, "en")
    assert "A follower who cannot follow suit must trump with a heart or the A♠" in text
    assert "2♥, 10♥ and J♥ +5 each; 2♣, 10♣ and J♣ −5 each; 2♠, 10♠, J♠ and A♠ +1 each; " \
        "6♦ +1" in text
    ru = rules_text(game_class("two-ten-jack").declaration, {}, "ru")
    assert "нужно бить козырем — червой или тузом пик" in ru


def test_maltese_twenty_rules_are_whole_sentences() -> None:
    d = game_class("maltese-twenty").declaration
    for lang in LANGS:
        paragraphs = [r.text(lang) for r in d.rules]
        assert len(paragraphs) == 6
        for p in paragraphs:
            # a sentence that ends without its full stop runs into the next capital
            assert re.search(r"[a-zа-яäöüß0-9] (?:The|Going|After|In|Each|When) ", p) is None, p
            assert p.endswith(".")


def test_schnapsen_rules_are_schnapsen_s() -> None:
    d = game_class("sixty-six").declaration
    schnapsen = rules_text(d, cardplay.load("sixty-six", preset="schnapsen").options_dict())
    plain = rules_text(d, cardplay.load("sixty-six").options_dict())
    assert "Schnapsen: 20 cards" in schnapsen and "Schnapsen: 20 cards" not in plain
    assert "the holder of the jack of trumps may swap it" in schnapsen
    assert "the holder of the 9 of trumps may swap it" in plain
    assert "winner of the 12th trick scores 10 more points" in plain
    assert "winner of the 12th trick" not in schnapsen


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", cardplay.games())
def test_every_line_of_the_rules_is_finished(name: str, lang: str) -> None:
    """Two descriptions side by side (an option's and its value's) ran into one another without
    a full stop: "… sobald der Stock leer ist Sobald ein Spieler …"."""
    game = cardplay.load(name)
    text = rules_text(game.declaration, game.options_dict(), lang)
    items = [line for line in text.split("\n") if line.startswith("- ")]
    assert len(items) >= 6
    for line in items:
        assert line[-1] in ".!?:…»“\"", line
        # no sentence runs into the next: a lowercase letter never meets a capital after a space
        # unless a full stop or another mark parts them
        assert re.search(r"[a-zа-яäöüß] (?:Sobald|When|The|Wer|Когда|Кто) [a-zа-яäöüß]", line
                         ) is None, line
