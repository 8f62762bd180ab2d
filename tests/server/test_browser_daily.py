"""The daily deals in real Chromium: two people (two browser contexts) play the same day's
Sixty-Six deals with different moves, see the same cards and the same bot answers while their
moves agree, then each other's play beside their own and the day's ranking; a second attempt is
refused. Screenshots (the daily lobby, a deal compared with others, the day's list, in English
and Russian) go to ``$CARDPLAY_SHOTS`` (default: the test's temporary folder)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .conftest import LiveServer
from .test_browser import ENABLED, board_attr, shots

PASSWORD = "correct horse battery"


def sign_up(page: Page, url: str, name: str) -> None:
    page.goto(url + "/signup")
    page.locator("#acct-name").fill(name)
    page.locator("#acct-password").fill(PASSWORD)
    page.locator("#acct-submit").click()
    expect(page.locator("#nav-profile")).to_have_text(name)


def hand(page: Page) -> list[str]:
    return [c for c in page.locator(".hand [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")]


def play_all(page: Page, pick: Callable[[int, int], int]) -> list[tuple[str, str, str]]:
    """Play the attempt to its end: ``pick(my move number, buttons) -> index`` chooses each move.
    Returns, before each of the person's moves, (their hand, the version, the moves listed)."""
    seen = []
    n = 0
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, "the attempt did not end"
        page.wait_for_function(
            "() => document.querySelector('#end-screen') || (document.querySelector('.board')"
            " && document.querySelector('.board').dataset.myTurn === '1'"
            " && document.querySelector('[data-move]:not([disabled])'))", timeout=20000)
        if page.locator("#end-screen").count():
            return seen
        version = board_attr(page, "data-version")
        # the hand, the move count and the deal's moves so far as the page lists them (the
        # bots' answers among them)
        log = page.locator("#log li").all_inner_texts() if page.locator("#log").count() else []
        seen.append((" ".join(hand(page)), board_attr(page, "data-version"), "|".join(log)))
        moves = page.locator(ENABLED + ":visible")
        moves.nth(pick(n, moves.count())).click()
        n += 1
        page.wait_for_function(
            "v => document.querySelector('#end-screen') || document.querySelector('#confirm-yes')"
            " || document.querySelector('#marriage-choice') || (document.querySelector('.board')"
            " && document.querySelector('.board').dataset.version !== v)", arg=version,
            timeout=20000)
        # a marriage's K or Q on a lead asks whether to announce: both people play it plain,
        # as the first move offered (the announcement is a move of its own in the list)
        if page.locator("#marriage-choice").count():
            page.locator("#marriage-plain").click()
        if page.locator("#confirm-yes").count() and board_attr(page, "data-version") == version:
            page.locator("#confirm-yes").click()
            page.wait_for_function(
                "v => document.querySelector('#end-screen') || (document.querySelector('.board')"
                " && document.querySelector('.board').dataset.version !== v)", arg=version,
                timeout=20000)


def test_two_people_play_the_same_days_deals(live: LiveServer, browser: Browser,
                                             tmp_path: Path) -> None:
    folder = shots(tmp_path)
    pages = [browser.new_context(viewport={"width": 1280, "height": 800}).new_page(),
             browser.new_context(viewport={"width": 390, "height": 844}).new_page()]
    for p, name in zip(pages, ("Ana", "Bo")):
        sign_up(p, live.url, name)
    # the lobby's entry leads to the daily page: today's commitment and the games
    ana, bo = pages
    ana.goto(live.url + "/")
    commitment = ana.request.get(live.url + "/api/daily/sixty-six").json()["commitment"]
    expect(ana.locator("#daily-entry-games li")).to_have_count(7)
    expect(ana.locator("#daily-entry-games")).to_contain_text(commitment[:12])
    ana.screenshot(path=str(folder / "daily-entry-en-1280.png"))
    ana.locator("#daily-link").click()
    expect(ana.locator("#daily-h")).to_have_text("Daily deals")
    expect(ana.locator("#daily-sixty-six .daily-commitment")).to_contain_text(commitment)
    ana.locator("#daily-show-name").check()
    ana.screenshot(path=str(folder / "daily-lobby-en-1280.png"), full_page=True)
    ana.locator("#daily-play-sixty-six").click()
    ana.wait_for_selector(".board")
    expect(ana.locator("#hint-button")).to_have_count(0)  # the daily deals are played unaided
    first_hand = hand(ana)
    # Ana always plays the first move offered; Bo the same for his first three, then the last
    seen_ana = play_all(ana, lambda n, count: 0)
    bo.goto(live.url + "/daily")
    bo.locator("#daily-show-name").check()
    bo.locator("#daily-play-sixty-six").click()
    bo.wait_for_selector(".board")
    assert hand(bo) == first_hand  # the same cards
    seen_bo = play_all(bo, lambda n, count: 0 if n < 3 else count - 1)
    # while their moves agreed, each of Bo's positions was Ana's: same hand, same moves so far
    # (the bots answered the same); after that they parted
    assert seen_bo[:4] == seen_ana[:4]
    assert seen_bo != seen_ana
    # Bo sees the last deal beside Ana's, and where he stands
    panel = bo.locator("#daily-compare")
    expect(panel).to_be_visible(timeout=20000)
    # the last deal's comparison (its decisions are valued first: it may come a moment later)
    expect(panel.locator("#daily-compare-h")).to_have_text("Deal 6 of 6 compared with the others",
                                                         timeout=30000)
    expect(panel.locator("#daily-moves thead th")).to_have_count(3)
    expect(panel.locator("#daily-moves thead")).to_contain_text("Ana")
    expect(panel.locator("#daily-you")).to_contain_text("place")
    bo.screenshot(path=str(folder / "daily-compare-en-390.png"), full_page=True)
    # a second attempt is refused, on the page and over HTTP
    bo.goto(live.url + "/daily")
    expect(bo.locator("#daily-sixty-six")).to_contain_text("Played today")
    expect(bo.locator("#daily-sixty-six .daily-commitment")).to_be_visible()  # on a phone too
    bo.screenshot(path=str(folder / "daily-lobby-en-390.png"), full_page=True)
    assert bo.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert bo.request.post(live.url + "/api/daily/sixty-six", data={}).status == 409
    # Ana comes back to her table: now she sees Bo's play, and the ranking
    table = ana.url
    ana.goto(table)
    expect(ana.locator("#daily-compare #daily-moves thead")).to_contain_text("Bo", timeout=20000)
    ana.locator("#daily-compare a[href='/daily/sixty-six']").click()
    rows = ana.locator("#daily-board tbody tr")
    expect(rows).to_have_count(2)
    scores = sorted(float(rows.nth(i).locator("td").nth(2).inner_text().split()[0])
                    for i in range(2))
    assert sum(scores) == 100.0  # two players on the same cards share the matchpoints
    expect(ana.locator("#daily-board")).to_contain_text("Ana")
    expect(ana.locator("#daily-board")).to_contain_text("Bo")
    ana.screenshot(path=str(folder / "daily-list-en-1280.png"), full_page=True)
    # the same pages in Russian
    for p in pages:
        p.evaluate("() => localStorage.setItem('cardplay.lang', 'ru')")
    ana.goto(live.url + "/daily")
    expect(ana.locator("#daily-h")).to_have_text("Ежедневные раздачи")
    ana.screenshot(path=str(folder / "daily-lobby-ru-1280.png"), full_page=True)
    ana.goto(live.url + "/daily/sixty-six")
    expect(ana.locator("#daily-board tbody tr")).to_have_count(2)
    ana.screenshot(path=str(folder / "daily-list-ru-1280.png"), full_page=True)
    ana.goto(table)
    expect(ana.locator("#daily-compare-h")).to_contain_text("в сравнении с другими",
                                                             timeout=20000)
    ana.screenshot(path=str(folder / "daily-compare-ru-1280.png"), full_page=True)
    for p in pages:
        p.context.close()
