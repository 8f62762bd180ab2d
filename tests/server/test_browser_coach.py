"""Hints and reviews as a player meets them, in real Chromium: a hint names the best move with
the values of every move, a finished deal's review marks the costly decisions on its moves, in
English and Russian, with no code identifier on screen."""

from __future__ import annotations

import json
import random
from pathlib import Path

import httpx
from playwright.sync_api import Page, expect

from .conftest import LiveServer
from .test_browser import board_attr, play_one, shots
from .test_browser_lobby import serious_violations
from .test_browser_table import IDENTIFIER, open_seeded


def _play_to_deal_end(page: Page, rng: random.Random) -> None:
    for _ in range(80):
        if page.locator("#deal-over, #end-screen").count():
            return
        play_one(page, rng)
    raise AssertionError("the deal did not end")


def test_a_hint_then_a_review_of_the_deal(live: LiveServer, page: Page, tmp_path: Path) -> None:
    open_seeded(page, live, "sixty-six", seed=11)
    page.wait_for_function("() => document.querySelector('.board').dataset.myTurn === '1'",
                           timeout=15000)
    version = board_attr(page, "data-version")
    page.locator("#hint-button").click()
    hint = page.locator("#hint")
    expect(hint).to_be_visible(timeout=20000)
    # the verdict in words (tests/server/test_browser_advice.py has its sentences); the values
    # of every move under "The numbers"
    assert hint.locator("#hint-words").inner_text().startswith(("Best: ", "A close call: "))
    hint.locator("#hint-numbers summary").click()
    legal = page.locator(".hand button.legal, .actions [data-move]").count()
    rows = hint.locator("li")
    assert rows.count() == legal
    # the best move is listed first and is marked
    expect(hint.locator("li.best")).to_have_count(1)
    assert hint.locator("li").first.get_attribute("class") == "best"
    assert "deals dealt from what you can see" in hint.inner_text() or "Exact" in \
        hint.inner_text()
    page.screenshot(path=str(shots(tmp_path) / "hint-en.png"))
    assert serious_violations(page) == []
    assert board_attr(page, "data-version") == version  # asking changed nothing
    _play_to_deal_end(page, random.Random(3))
    page.locator("#review-button").click()
    expect(page.locator("#review")).to_be_visible(timeout=60000)
    moves = page.locator("#review .review-moves li")
    assert moves.count() >= 12
    mine = page.locator("#review li.mine")
    assert mine.count() >= 1
    summary = page.locator("#review-summary").inner_text()
    costly = page.locator("#review li.costly").count()
    if costly:
        assert summary.startswith(f"{costly} of your {mine.count()} decisions cost something")
        assert page.locator("#review li.costly .cost").first.inner_text().startswith("Best: ")
    else:
        assert summary == f"None of your {mine.count()} decisions cost anything measurable."
    assert not IDENTIFIER.findall(page.locator("#deal-over").inner_text())
    page.locator("#deal-over").screenshot(path=str(shots(tmp_path) / "review-en.png"))
    # the score sheet reviews any finished deal, the same review again
    page.locator("#dismiss-deal").click()
    page.locator("#score-sheet summary").click()
    page.locator("#score-sheet [data-review='1']").click()
    again = page.locator("#review-1")
    expect(again).to_be_visible()
    expect(again.locator("h3")).to_have_text("Your moves in deal 1")
    assert again.locator(".review-summary").inner_text() == summary
    assert again.locator("li.costly").count() == costly
    page.locator("#score-sheet").screenshot(path=str(shots(tmp_path) / "review-sheet-en.png"))


def test_in_russian_and_never_at_a_table_with_another_person(live: LiveServer, page: Page,
                                                             tmp_path: Path) -> None:
    open_seeded(page, live, "two-ten-jack", seed=4, lang="ru")
    page.wait_for_function("() => document.querySelector('.board').dataset.myTurn === '1'",
                           timeout=15000)
    page.keyboard.press("h")
    hint = page.locator("#hint")
    expect(hint).to_be_visible(timeout=20000)
    assert hint.locator("#hint-words").inner_text().startswith(("Лучше всего: ",
                                                                "Почти равные ходы: "))
    hint.locator("#hint-numbers summary").click()
    assert "Оценки: ваш ожидаемый итог сдачи минус итог соперника." in hint.inner_text()
    assert not IDENTIFIER.findall(hint.inner_text())
    page.screenshot(path=str(shots(tmp_path) / "hint-ru.png"))
    # a table with a second person offers neither, even on that person's turn
    # (each seat sends its part of the shuffle as it is taken, so the cards are dealt at once)
    r = httpx.post(live.url + "/api/tables", json={
        "game": "two-ten-jack", "seats": [{"kind": "human"}, {"kind": "human"}],
        "contribution": "a" * 32})
    assert r.status_code == 201
    first = r.json()
    second = httpx.post(f"{live.url}/api/tables/{first['table']}/join",
                        json={"contribution": "b" * 32}).json()
    turns = []
    for token, seat in ((first["token"], 0), (second["token"], 1)):
        page.evaluate("([id, tok]) => localStorage.setItem('cardplay.token.' + id, tok)",
                      [first["table"], json.dumps({"token": token, "seat": seat})])
        page.goto(live.url + "/t/" + first["table"])
        page.wait_for_selector(".board")
        turns.append(board_attr(page, "data-my-turn"))
        expect(page.locator("#hint-button")).to_have_count(0)
    assert sorted(turns) == ["0", "1"]
    page.screenshot(path=str(shots(tmp_path) / "no-hint-two-people.png"))
