"""In real Chromium: a person paired with someone who never opens the table is told how long
the table waits, then gets the cards, with a bot playing the absent seat (absentees.py). On
main the page said "waiting" for ever."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from cardplay.server.limits import Limits

from .conftest import LiveServer

SHOTS = Path(tempfile.gettempdir()) / "cardplay-screenshots"  # to look at, never compared
WAIT = 3.0  # --hello-wait of this test, seconds (the default is 60)
WORDS = {"en": ("3 s after you came", "a bot plays while away"),
         "ru": ("через 3 с после вашего прихода", "пока нет, играет бот")}


@pytest.fixture
def late_site(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path, grace=1.0, limits=Limits(hello_wait=WAIT)).start()
    yield server
    server.stop()


@pytest.mark.parametrize(("lang", "width"), [("en", 1280), ("ru", 390)])
def test_a_person_whose_opponent_never_comes_gets_the_cards(
        late_site: LiveServer, browser: Browser, lang: str, width: int) -> None:
    live = late_site
    ctx = browser.new_context(viewport={"width": width, "height": 844})
    gone = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(live.url + "/")
        page.evaluate("([n, l]) => { localStorage.setItem('cardplay.name', n); "
                      "localStorage.setItem('cardplay.lang', l); }", ["Ada", lang])
        page.goto(live.url + "/")
        page.locator("#seek-game").select_option("sixty-six")
        page.locator("#seek-clock").select_option("none")
        page.locator("#seek-start").click()
        expect(page).to_have_url(re.compile(r"/seek/[\w-]+$"))
        # someone else seeks the same from their own browser, and never opens the table
        r = gone.request.post(live.url + "/api/seeks", data={
            "game": "sixty-six", "clock": None, "name": "Gone"})
        assert r.status == 201 and r.json()["status"] == "paired", r.text()
        expect(page).to_have_url(re.compile(r"/t/[\w-]+$"), timeout=15000)
        waits, holds = WORDS[lang]
        expect(page.locator("#waiting-absent")).to_contain_text(waits)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"absent-waiting-{lang}-{width}.png"))
        page.wait_for_selector(".board", timeout=int(WAIT * 1000) + 10000)
        expect(page.locator(".badge.away")).to_have_text(holds)
        table = live.app.state.hub.get(page.url.rsplit("/", 1)[1])
        assert table.clock is None and not table.waiting
        page.screenshot(path=str(SHOTS / f"absent-dealt-{lang}-{width}.png"))
    finally:
        ctx.close()
        gone.close()
