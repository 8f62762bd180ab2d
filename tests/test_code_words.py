"""No code word reaches a person (issue 32, item 4): a move a text front-end announces ("Клара:
draw.", "Борис: buy.", "Ваш ход: stake 28.") is said in the reader's words in every game and
language, and a seat's label reads right before any seat's name, "you" included ("Прикуп закрыл
Вы" read as the wrong person)."""

from __future__ import annotations

import re

import pytest

import cardplay
from cardplay.cli.play import said_move
from cardplay.engine import game_class

# what a move's code looks like: a lowercase ASCII identifier (buy, stake, draw, pass, close)
CODE_WORD = re.compile(r"\b[a-z]{2,}\b")
SEAT_LABELS_RU = {"Talon closed by": "Кто закрыл прикуп", "Took the trump card":
                  "Кто забрал козырь", "Taken by": "Кто взял",
                  "Bonus goes to": "Кто получает бонус", "Leads": "Кто заходит"}


@pytest.mark.parametrize("lang", ["ru", "de"])
@pytest.mark.parametrize("name", cardplay.games())
def test_every_move_is_announced_in_words(name: str, lang: str) -> None:
    match = cardplay.load(name).match(seed=3)
    said = []
    for _ in range(40):
        if match.is_over:
            break
        moves = match.legal_moves()
        for m in moves:
            said.append((m.text, said_move(match, m.text, lang)))
        match.play(moves[-1])
    assert said
    # no word of the notation ("buy", "stake") is said; in Russian no Latin word at all
    coded = [(code, words) for code, words in said
             if set(CODE_WORD.findall(code)) & set(CODE_WORD.findall(words))
             or (lang == "ru" and re.search(r"[A-Za-z]{2,}", words))]
    assert coded == []


def test_the_word_moves_are_the_game_s_labels() -> None:
    macao = cardplay.load("macao").match(seed=1)
    assert said_move(macao, "buy", "ru") == \
        game_class("macao").declaration.move_kind("buy").label("ru")
    assert said_move(macao, "stake 28", "ru") == \
        f"{game_class('macao').declaration.move_kind('stake 28').label('ru')} 28"
    assert said_move(macao, "stake 28", "en") == "Stake 28"


def test_russian_seat_labels_read_right_before_you() -> None:
    for en, ru in SEAT_LABELS_RU.items():
        assert cardplay.i18n.translate(en, "ru") == ru
