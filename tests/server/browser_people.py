"""People in real Chromium for the browser tests: signing up or in, and playing a match out
from several pages at once (TESTING.md "Two people in one test")."""

from __future__ import annotations

import random
import time

from playwright.sync_api import Browser, Page, expect

from .conftest import LiveServer
from .test_browser import play_one

PASSWORD = "correct horse battery"


def sign(page: Page, url: str, name: str, signup: bool) -> None:
    """Sign up (or in) on the page's form; done once the player's page shows the name."""
    page.goto(url + ("/signup" if signup else "/signin"))
    page.locator("#acct-name").fill(name)
    page.locator("#acct-password").fill(PASSWORD)
    page.locator("#acct-submit").click()
    expect(page.locator("#player-h")).to_have_text(name)
    expect(page.locator("#nav-profile")).to_have_text(name)


def signed_up(browser: Browser, live: LiveServer, people: list[tuple[str, int]]) -> list[Page]:
    """A page for each (name, viewport width), each in a browser context of its own (one
    person each), signed up under that name."""
    pages = []
    for name, width in people:
        page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        sign(page, live.url, name, signup=True)
        pages.append(page)
    return pages


def my_turn(page: Page) -> bool:
    return bool(page.evaluate(
        "() => !!(document.querySelector('.board') && document.querySelector('.board')"
        ".dataset.myTurn === '1' && document.querySelector('[data-move]:not([disabled])'))"))


def play_out(pages: list[Page], rng: random.Random, seconds: float) -> None:
    """Each page plays a legal move whenever it is its turn, until every page shows the end
    screen (a failure after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not all(p.locator("#end-screen").count() for p in pages):
        assert time.monotonic() < deadline, "the match did not end"
        moved = False
        for p in pages:
            if not p.locator("#end-screen").count() and my_turn(p):
                play_one(p, rng)
                moved = True
        if not moved:
            time.sleep(0.05)
