"""The rules at the table, in real Chromium (issue 32, clauses 3 and 4, item 4): a click on a card
the rules forbid says the rule that forbids it, in the reader's language, at once; the rules
dialog of the table and of the lobby states how the game is played; and no move reaches the
status line, the history or the screen reader's announcements as a code word ("Борис: buy.",
"Ваш ход: stake 28.") in any game, in Russian or German."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from cardplay.wording import card_text

from .conftest import LiveServer
from .test_browser import board_attr, play_one
from .test_browser_table import code_words, open_seeded

# the words of the games' move notation: none may reach a person
NOTATION = re.compile(r"\b(?:buy|stand|stake|draw|pass|take|close|exchange)\b")
MY_TURN = ("() => document.querySelector('#end-screen') || (document.querySelector('.board')"
           " && document.querySelector('.board').dataset.myTurn === '1')")
TOO_MUCH = {
    "en": r"Laying {card} adds at least (\d+), more than the move number (\d+): the cards you lay "
          r"must add up to \2 or less \(a King counts 1\)\.",
    "ru": r"Сумма {card} — не меньше (\d+), а это больше номера хода (\d+): выложенные карты "
          r"должны давать в сумме не больше \2 \(король считается за 1\)\.",
    "de": r"Mit {card} sind es mindestens (\d+), mehr als die Zugnummer (\d+): Die gelegten "
          r"Karten dürfen zusammen höchstens \2 zählen \(ein König zählt 1\)\.",
}


@pytest.mark.parametrize("lang", ["en", "ru", "de"])
def test_a_card_that_does_not_fit_says_the_count_rule(live: LiveServer, page: Page,
                                                      lang: str) -> None:
    open_seeded(page, live, "twenty", seed=5, lang=lang)
    page.wait_for_function(MY_TURN, timeout=15000)
    card_button = page.locator(".hand button.illegal").first
    card = card_button.get_attribute("data-card")
    assert card is not None
    version = board_attr(page, "data-version")
    card_button.click(force=True)  # aria-disabled: Playwright would wait for it
    status = page.locator("#status").inner_text()
    m = re.fullmatch(TOO_MUCH[lang].format(card=re.escape(card_text(card, lang))), status)
    assert m is not None, status
    assert int(m.group(1)) > int(m.group(2))
    assert board_attr(page, "data-version") == version  # nothing was sent


def test_two_ten_jack_names_the_duty_to_follow_or_trump(live: LiveServer, page: Page) -> None:
    open_seeded(page, live, "two-ten-jack", seed=3, lang="en")
    rng = random.Random(1)
    for _ in range(40):
        page.wait_for_function(MY_TURN, timeout=15000)
        illegal = page.locator(".hand button.illegal")
        if illegal.count():
            illegal.first.click(force=True)
            status = page.locator("#status").inner_text()
            assert re.fullmatch(
                r"You must follow suit: \S+ was led, so play a [♠♥♦♣] card: .+\."
                r"|A trump was led \(\S+\), so you must follow with a trump \(a heart or the "
                r"A♠\): .+\."
                r"|You hold no [♠♥♦♣] card, so you must trump \(a heart or the A♠\): .+\.",
                status), status
            return
        play_one(page, rng)
    raise AssertionError("no card was ever refused")


def test_the_rules_dialog_states_the_rules(live: LiveServer, page: Page) -> None:
    open_seeded(page, live, "two-ten-jack", seed=3, lang="ru")
    page.locator("#rules-button").click()
    rules = page.locator("#rules-dialog .rules-play li")
    expect(rules.nth(3)).to_contain_text("нужно бить козырем — червой или тузом пик")
    expect(page.locator("#rules-dialog")).to_contain_text("2♥, 10♥ и В♥ — по +5")
    page.locator("#rules-close").click()
    page.goto(live.url + "/?game=maltese-twenty")
    page.locator("#lobby-rules").click()
    expect(page.locator("#rules-dialog .rules-play li")).to_have_count(6)
    expect(page.locator("#rules-dialog .rules-play li").nth(2)).to_have_text(
        "Ровно 20 приносят +10 тому, кто их набрал, и счёт сбрасывается. Перебор больше 20 стоит "
        "20 очков и тоже сбрасывает счёт.")


GAMES = ["macao", "banchok", "chukhny", "twenty", "sixty-six", "two-ten-jack", "maltese-twenty"]


@pytest.mark.parametrize("lang", ["ru", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_no_move_is_shown_as_a_code_word(live: LiveServer, page: Page, game: str,
                                         lang: str) -> None:
    options = {"players": 2} if game in ("macao", "chukhny", "banchok") else {}
    open_seeded(page, live, game, seed=4, lang=lang, options=options)
    rng = random.Random(3)
    seen: list[str] = []
    for _ in range(6):
        page.wait_for_function(MY_TURN, timeout=15000)
        if page.locator("#end-screen").count():
            break
        play_one(page, rng)
        page.wait_for_timeout(80)  # the announcement is written a moment later
        for sel in ("#status", "#log"):  # line by line (a list's items are separate lines)
            if page.locator(sel).count():
                seen.append(page.locator(sel).first.inner_text())
        seen.append(page.locator("#live").text_content() or "")  # a screen reader's only
    text = "\n".join(seen)
    assert text.strip()
    assert NOTATION.findall(text) == [], text
    assert code_words(text, lang) == [], text
    # "Ваш ход: Ставка 28." read as "your turn", not as the move you made
    assert "Ваш ход: " not in text


@pytest.mark.parametrize("lang, own", [("ru", "JQA"), ("de", "JQ"), ("en", "")])
def test_the_cards_show_the_letters_the_words_use(live: LiveServer, page: Page, lang: str,
                                                  own: str) -> None:
    open_seeded(page, live, "sixty-six", seed=4, lang=lang)
    page.wait_for_function(MY_TURN, timeout=15000)
    faces = page.locator(".hand button[data-card]").evaluate_all(
        "bs => bs.map(b => [b.dataset.card, b.querySelector('img').getAttribute('src')])")
    assert len(faces) == 6
    assert not own or any(card[0] in own for card, _ in faces)  # the test sees one redrawn
    for card, src in faces:
        want = f"/static/cards/2c-{lang}/{card}.svg" if card[0] in own else \
            f"/static/cards/2c/{card}.svg"
        assert src == want, (card, src)
        assert page.request.get(live.url + src).status == 200
