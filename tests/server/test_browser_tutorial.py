""""Learn to play" in Chromium: from the lobby, in English and Russian, a lesson opens a table
whose panel says what to play and why, highlights it, refuses any other card with the lesson's
words, and at the end shows how the deal was scored and a way to a real game; on a phone too."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

from cardplay import tutorials
from cardplay.catalogues import load
from cardplay.i18n import BROWSER

from .conftest import LiveServer
from .test_browser import BOARD, shots
from .test_browser_lobby import serious_violations

PICKED = re.compile(r"\blesson-pick\b")  # what the lesson asks to play stands out
CASES = [(game, lang) for game in tutorials.GAMES for lang in ("en", "ru")]


def _text(lang: str, key: str) -> str:
    message = load(lang).get(key, BROWSER)
    assert message is not None
    return str(message.string)


def _my_turn_at_step(page: Page) -> dict[str, Any] | None:
    """The step the page asks for now, read at one instant (a drawing run repeats by itself
    and moves the step on): its index, the step line and the note; None once it is over."""
    page.wait_for_function(
        "() => document.querySelector('#lesson-summary') || (document.querySelector('.board')"
        " && document.querySelector('.board').dataset.myTurn === '1'"
        " && document.querySelector('#lesson[data-step]') && !document.querySelector("
        "'.board [data-move]:disabled'))", timeout=20000)
    return page.evaluate(
        """() => { const l = document.querySelector('#lesson[data-step]');
          if (!l || document.querySelector('#lesson-summary')) return null;
          return { index: Number(l.dataset.step), line: l.querySelector('#lesson-step').textContent,
            note: l.querySelector('#lesson-note').textContent,
            version: document.querySelector('.board').dataset.version }; }""")


def _play(page: Page, move: str, version: str) -> None:
    """Play the step's move as a person does (its highlighted card(s) or button), then wait
    for the table to move on from ``version``, the state the step was read in."""
    cards = [c.split("=")[0] for c in move.split("+")]
    if "+" in move:  # a set of cards (Twenty): pick each, then play them together
        for c in cards:
            expect(page.locator(f'.hand [data-card="{c}"]')).to_have_class(PICKED)
            page.locator(f'.hand [data-card="{c}"]').click()
        page.locator("#play-selected").click()
    elif page.locator(f'.hand [data-card="{move}"]').count():
        pick = page.locator(f'.hand [data-card="{move}"]')
        expect(pick).to_have_class(PICKED)
        pick.click()
    elif move.startswith("stake ") and not page.locator(f'.actions [data-move="{move}"]').count():
        # a stake the quick buttons do not offer: the lesson put it in the box
        expect(page.locator("#stake-amount")).to_have_value(move.split()[1])
        go = page.locator('.stake [data-focus-key="stake-go"]')
        expect(go).to_have_class(PICKED)
        go.click()
    elif move == "draw":  # clicked only if a drawing run has not drawn it by itself
        page.evaluate("() => { const b = document.querySelector("
                      "'.actions [data-move=\"draw\"]:not([disabled])'); if (b) b.click(); }")
    else:
        button = page.locator(f'.actions [data-move="{move}"]')
        expect(button).to_have_class(PICKED)
        button.click()
        if page.locator("#confirm-yes").count():  # closing the talon asks first
            page.locator("#confirm-yes").click()
    page.wait_for_function(
        "v => document.querySelector('#lesson-summary') || (document.querySelector('.board')"
        " && document.querySelector('.board').dataset.version !== v)", arg=version,
        timeout=20000)


def _wrong_choice(page: Page, move: str) -> Locator | None:
    """Something a person could click that is not the step's move: another card of the hand,
    else another stake in the box, else another move's button (not one that asks first)."""
    wanted = {c.split("=")[0] for c in move.split("+")}
    for c in page.locator(".hand [data-card]:not([disabled])").evaluate_all(
            "bs => bs.map(b => b.dataset.card)"):
        if c not in wanted:
            return page.locator(f'.hand [data-card="{c}"]')
    if move.startswith("stake ") and page.locator("#stake-amount").count():
        amount = page.locator("#stake-amount")
        lowest = int(amount.get_attribute("min") or 0)
        amount.fill(str(lowest if int(move.split()[1]) != lowest else lowest + 1))
        return page.locator('.stake [data-focus-key="stake-go"]')
    for other in page.locator(".actions [data-move]:not([disabled])").evaluate_all(
            "bs => bs.map(b => b.dataset.move)"):
        if other not in (move, "close") and not other.startswith("stake "):
            return page.locator(f'.actions [data-move="{other}"]')
    return None


@pytest.mark.parametrize("game, lang", CASES)
def test_a_lesson_from_the_lobby_to_its_summary(live: LiveServer, page: Page, tmp_path: Path,
                                                game: str, lang: str) -> None:
    tut = tutorials.tutorial(game)
    steps = tutorials.lesson(tut)["steps"]
    phone = lang == "ru"
    page.set_viewport_size({"width": 390, "height": 844} if phone else
                           {"width": 1280, "height": 800})
    page.goto(live.url + "/")
    page.select_option("#lang", lang)
    learn = page.locator("#learn")
    expect(learn).to_have_text(_text(lang, "tut_learn"))  # the lobby drawn anew in the language
    page.select_option("#game", game)
    expect(page.locator("#learn-note")).to_contain_text(
        _text(lang, "tut_learn_note").split("{game}")[0])
    if game == "sixty-six":  # the lobby's button, looked at
        page.screenshot(path=str(shots(tmp_path) / f"tutorial-lobby-{lang}.png"))
    learn.click()
    page.wait_for_selector(BOARD)
    panel = page.locator("#lesson")
    expect(panel).to_be_visible()
    expect(page.locator("#lesson-step")).to_have_text(
        _text(lang, "tut_step").format(n=1, total=len(steps)))
    table = page.url.rsplit("/", 1)[-1]
    refused = False
    seen: list[int] = []
    for _ in range(len(steps) + 1):
        # the page says which step it is at: a drawing run repeats by itself (Chukhny), so the
        # steps it plays are never asked for
        now = _my_turn_at_step(page)
        if now is None:
            break
        at = int(now["index"])
        assert not seen or at > seen[-1]
        assert all(steps[j]["move"] == "draw" for j in range(seen[-1] + 1 if seen else 0, at))
        seen.append(at)
        i, step = at, steps[at]
        assert now["line"] == _text(lang, "tut_step").format(n=i + 1, total=len(steps))
        note = str(now["note"])
        assert note and "{" not in note
        # (not on a draw: a drawing run may move the step on under the click)
        wrong = _wrong_choice(page, step["move"]) if not refused and step["move"] != "draw" \
            else None
        if wrong is not None:
            # a card (or stake, or move) other than the lesson's is refused with the lesson's
            # words, and nothing is sent: the table stays at the same version
            version = page.locator(BOARD).get_attribute("data-version")
            # (force: a card the rules refuse is marked aria-disabled, yet a person can click it)
            wrong.click(force=True)
            status = page.locator("#status")
            said = "tut_refuse" if re.match(r"^[2-9TJQKA][SHDC]", step["move"]) else \
                "tut_refuse_choice"
            expect(status).to_contain_text(_text(lang, said).split("{move}")[0])
            expect(status).to_contain_text(note)
            assert page.locator(BOARD).get_attribute("data-version") == version
            refused = True  # (once a lesson: the first refusal is looked at, and axed)
            page.screenshot(path=str(shots(tmp_path) / f"tutorial-{game}-{lang}-refused.png"))
            found = serious_violations(page)
            assert found == [], json.dumps(found, indent=1)[:3000]
            # a reload lands on the same step (it is read from the table's history)
            page.reload()
            again = _my_turn_at_step(page)
            assert again is not None and int(again["index"]) == at
        _play(page, step["move"], str(now["version"]))
    assert refused
    summary = page.locator("#lesson-summary")
    expect(summary).to_be_visible(timeout=20000)
    expected = _text(lang, tut.summary.key).format(**dict(tut.summary.params))
    expect(summary).to_have_text(expected)
    page.screenshot(path=str(shots(tmp_path) / f"tutorial-{game}-{lang}-summary.png"))
    # the bots played the script: the deal ended as the lesson says
    hub: Any = live.app.state.hub
    assert hub.get(table).match.view(0).to_dict()["match"]["results"][0] == list(tut.result)
    # the page with the lesson's end passes axe; the deal's breakdown beside it is the results
    # table's own (on a phone its scrolling box can hold nothing focusable: not this lesson's)
    found = [v for v in Axe().run(page, context={"exclude": [["#deal-over .breakdown"]]})
             .response["violations"] if v["impact"] in ("serious", "critical")]
    assert found == [], json.dumps(found, indent=1)[:3000]
    if phone:  # the end of the lesson fits the phone's width
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#lesson-real").click()
    expect(page.locator("#game")).to_have_value(game)
