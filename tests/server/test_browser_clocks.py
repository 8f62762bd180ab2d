"""Clocks as people see them, in Debian's Chromium: the lobby's clock choice, two people (two
browser contexts) at one table with a short clock, each seat's time counting down beside it, the
warning for screen readers, a time running out and the bot's move said on both screens, and
forfeits on the end screen. Screenshots go to ``$CARDPLAY_SHOTS`` (default: the test's folder)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from cardplay.server.clocks import ClockRules

from .conftest import LiveServer
from .test_browser import shots

# a short clock: 2 s a move and 9 s of reserve, two timeouts in a row forfeit
RULES = ClockRules(min_move=1, strikes=2, deal_pause=1)


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path, clock_rules=RULES).start()
    yield server
    server.stop()


def test_the_lobby_offers_a_clock(clocked: LiveServer, page: Page) -> None:
    page.goto(clocked.url + "/")
    page.select_option("#game", "sixty-six")
    labels = page.locator("#clock option").all_text_contents()
    assert labels == ["Standard: 15 s a move + 60 s reserve",
                      "Quick: 8 s a move + 30 s reserve",
                      "Slow: 30 s a move + 180 s reserve",
                      "No clock (casual, between friends)"]
    page.select_option("#seat-1", "human")
    page.select_option("#clock", "quick")
    page.get_by_role("button", name="Create a table").click()
    page.wait_for_selector("#waiting")
    # nobody's clock runs while the table waits for the friend: both show 8 + 30 s
    expect(page.locator("li[data-seat='0'] .clock")).to_have_text("0:38")
    expect(page.locator("li[data-seat='1'] .clock")).to_have_text("0:38")
    table = page.url.rsplit("/", 1)[-1]
    summary = httpx.get(f"{clocked.url}/api/tables/{table}").json()
    assert summary["id"] == table
    # against bots alone: no clock
    page.goto(clocked.url + "/")
    page.get_by_role("button", name="Play now against bots").click()
    page.wait_for_selector(".board")
    expect(page.locator(".clock")).to_have_count(0)


def test_a_clock_runs_out_and_forfeits(clocked: LiveServer, page: Page, tmp_path: Path) -> None:
    r = httpx.post(f"{clocked.url}/api/tables", json={
        "game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}],
        "clock": {"move": 2, "reserve": 9}, "name": "Ann"})
    assert r.status_code == 201, r.text
    t = r.json()
    page.goto(clocked.url + "/")
    page.evaluate("([id, tok]) => localStorage.setItem('cardplay.token.' + id, "
                  "JSON.stringify({token: tok, seat: 0, at: Date.now()}))",
                  [t["table"], t["token"]])
    page.goto(f"{clocked.url}/t/{t['table']}")
    page.wait_for_selector("#waiting")  # the cards wait for the friend's part of the shuffle
    browser = page.context.browser
    assert browser is not None
    friend = browser.new_context().new_page()
    friend.goto(f"{clocked.url}/join/{t['table']}")
    friend.locator("#join-name").fill("Masha")
    friend.locator("#take-seat").click()
    friend.wait_for_selector(".board")
    page.wait_for_selector(".board")
    mover, waiter = (page, friend) if page.locator(".board").get_attribute(
        "data-my-turn") == "1" else (friend, page)
    seat = 0 if mover is page else 1
    running = mover.locator(f".seat[data-seat='{seat}'] .clock.running")
    expect(running).to_be_visible()
    expect(waiter.locator(f".seat[data-seat='{seat}'] .clock.running")).to_be_visible()
    # the page's own countdown: 11 s at the start, less a moment later
    first = running.inner_text()
    mover.wait_for_function(
        f"t => document.querySelector(\".seat[data-seat='{seat}'] .clock\").textContent !== t",
        arg=first, timeout=5000)
    # 10 s left: said politely to a screen reader
    expect(mover.locator("#live")).to_have_text("10 seconds left for your move.", timeout=8000)
    expect(running).to_have_class("clock running low")
    mover.screenshot(path=str(shots(tmp_path) / "clock-running.png"), full_page=True)
    # the time runs out: the bot plays the move, and both screens say so
    expect(mover.locator("#clock-note")).to_contain_text("Time ran out: the bot played",
                                                         timeout=15000)
    mover.screenshot(path=str(shots(tmp_path) / "clock-ran-out.png"), full_page=True)
    who = "Ann" if mover is page else "Masha"
    expect(waiter.locator("#clock-note")).to_contain_text(f"{who}'s time ran out: the bot played")
    # nobody plays on: two timeouts in a row forfeit, bots finish, the end screen says who
    for p in (page, friend):
        expect(p.locator("#end-screen")).to_be_visible(timeout=90000)
    forfeits = page.locator("#end-screen .forfeit")
    expect(forfeits.first).to_contain_text("forfeited: 2 timeouts in a row; a bot finishes "
                                           "the match.")
    # whoever forfeited lost, whatever the bots made of the rest
    mine = page.locator("#end-screen .forfeit[data-forfeit='0']")
    if mine.count():
        expect(page.locator("#end-screen .big")).to_have_text("You lose.")
    texts = forfeits.all_text_contents()
    assert texts and all("forfeited" in x for x in texts)
    page.screenshot(path=str(shots(tmp_path) / "clock-forfeit.png"), full_page=True)


def test_in_russian_on_a_phone(clocked: LiveServer, page: Page, tmp_path: Path) -> None:
    r = httpx.post(f"{clocked.url}/api/tables", json={
        "game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
        "clock": {"move": 2, "reserve": 9}})
    assert r.status_code == 201, r.text
    t = r.json()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(clocked.url + "/")
    page.evaluate("([id, tok]) => { localStorage.setItem('cardplay.token.' + id, "
                  "JSON.stringify({token: tok, seat: 0, at: Date.now()}));"
                  " localStorage.setItem('cardplay.lang', 'ru'); }", [t["table"], t["token"]])
    page.goto(f"{clocked.url}/t/{t['table']}")
    page.wait_for_selector(".board[data-my-turn='1']")
    mine = page.locator(".seat[data-seat='0'] .clock.running")
    expect(mine).to_be_visible()
    box = mine.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390  # on the phone's screen
    expect(page.locator(".seat[data-seat='1'] .clock")).to_have_count(0)  # a bot has none
    expect(page.locator("#live")).to_have_text("На ход осталось 10 секунд.", timeout=8000)
    page.screenshot(path=str(shots(tmp_path) / "clock-running-ru-390.png"), full_page=True)
    expect(page.locator("#clock-note")).to_contain_text("Время вышло: бот сыграл за вас",
                                                        timeout=15000)
    page.screenshot(path=str(shots(tmp_path) / "clock-ran-out-ru-390.png"), full_page=True)
