"""Play a person, in real Chromium with two browser contexts (two people): one seeks from the
lobby's form, the other accepts that seek from the lobby's list, and both land at the same new
table and play it; a waiting person cancels; two signed-in people seek rated, play the match out
and see their ratings change."""

from __future__ import annotations

import random
import re
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from .browser_people import my_turn, play_out, signed_up
from .conftest import LiveServer

SHOTS = Path(tempfile.gettempdir()) / "cardplay-screenshots"  # to look at, never compared


def person(browser: Browser, live: LiveServer, name: str, width: int = 1280) -> tuple[
        BrowserContext, Page]:
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    page.goto(live.url + "/")
    page.evaluate("n => localStorage.setItem('cardplay.name', n)", name)
    page.goto(live.url + "/")
    expect(page.locator("#seek-panel")).to_be_visible()
    return ctx, page


def play_first_move(page: Page) -> None:
    version = page.locator(".board").get_attribute("data-version")
    page.locator("[data-move]:not([disabled]):visible").first.click()
    # closing asks first; so does a marriage's card on a lead (traps.js): played plain, as the
    # click did before it asked
    for step in ("#confirm-yes", "#marriage-plain"):
        if page.locator(step).count():
            page.locator(step).click()
    page.wait_for_function(
        "v => document.querySelector('.board') && document.querySelector('.board')"
        ".dataset.version !== v", arg=version, timeout=15000)


def test_one_seeks_the_other_accepts_and_both_play_at_one_table(
        live: LiveServer, browser: Browser) -> None:
    ctx_a, ann = person(browser, live, "Ann")
    ctx_b, bob = person(browser, live, "Bob", width=390)
    try:
        ann.locator("#seek-game").select_option("sixty-six")
        ann.locator("#seek-clock").select_option("slow")
        ann.locator("#seek-start").click()
        expect(ann).to_have_url(re.compile(r"/seek/[\w-]+$"))
        expect(ann.locator("#seek-status")).to_contain_text("Looking for an opponent")
        expect(ann.locator("#seek-waited")).to_contain_text("Waiting for")
        SHOTS.mkdir(exist_ok=True)
        ann.screenshot(path=str(SHOTS / "pairing-waiting-1280.png"))
        # Bob's lobby lists Ann's seek (its list refreshes every 5 s)
        bob.reload()
        entry = bob.locator("#open-seeks li")
        expect(entry).to_have_count(1, timeout=10000)
        expect(entry).to_contain_text("Ann")
        expect(entry).to_contain_text("30 s a move + 180 s reserve")  # slow: the default x2, x3
        bob.screenshot(path=str(SHOTS / "pairing-lobby-390.png"), full_page=True)
        entry.get_by_role("button", name="Accept").click()
        expect(bob).to_have_url(re.compile(r"/t/[\w-]+$"), timeout=15000)
        expect(ann).to_have_url(re.compile(r"/t/[\w-]+$"), timeout=15000)
        assert ann.url.rsplit("/", 1)[1] == bob.url.rsplit("/", 1)[1]
        table = live.app.state.hub.get(ann.url.rsplit("/", 1)[1])
        assert sorted(s.name for s in table.seats) == ["Ann", "Bob"]
        assert all(s.kind == "human" and s.claimed for s in table.seats)
        ann.wait_for_selector(".board")
        bob.wait_for_selector(".board")
        # each plays a move from their page when it is their turn
        played = 0
        deadline = time.monotonic() + 30
        while played < 4 and time.monotonic() < deadline:
            for page in (ann, bob):
                if played < 4 and my_turn(page):
                    play_first_move(page)
                    played += 1
        assert played == 4 and table.version >= 4
        assert live.app.state.hub.get(table.id).seats[0].conns  # both connected, no bot
        assert not any(s["bot_playing"] for s in table.seat_info())
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_waiting_person_takes_bots_instead(live: LiveServer, browser: Browser) -> None:
    live.app.state.pairing.bots_after = 1.0  # the server's offer, sooner than its 20 s
    ctx, page = person(browser, live, "Dora")
    try:
        page.locator("#seek-game").select_option("two-ten-jack")
        page.locator("#seek-start").click()
        expect(page.locator("#seek-status")).to_contain_text("Looking for an opponent")
        # this browser's own seek is not offered back to it in the lobby
        assert len(live.app.state.pairing.open_seeks()) == 1
        bots = page.locator("#seek-bots")
        expect(bots).to_be_visible(timeout=10000)
        bots.click()
        expect(page).to_have_url(re.compile(r"/t/[\w-]+$"), timeout=15000)
        page.wait_for_selector(".board")
        table = live.app.state.hub.get(page.url.rsplit("/", 1)[1])
        assert table.game.name == "two-ten-jack"
        assert [s.kind for s in table.seats] == ["human", "bot"]
        assert live.app.state.pairing.open_seeks() == []  # the seek was cancelled
        page.goto(live.url + "/")
        expect(page.locator("#open-seeks")).to_contain_text("Nobody is waiting")
    finally:
        ctx.close()


def test_a_waiting_person_cancels_and_the_lobby_forgets_the_seek(
        live: LiveServer, browser: Browser) -> None:
    ctx, page = person(browser, live, "Cleo")
    try:
        page.locator("#seek-start").click()
        expect(page.locator("#seek-status")).to_contain_text("Looking for an opponent")
        assert len(live.app.state.pairing.open_seeks()) == 1
        page.locator("#seek-cancel").click()
        expect(page.locator("#seek-panel")).to_be_visible()
        assert live.app.state.pairing.open_seeks() == []
        expect(page.locator("#open-seeks")).to_contain_text("Nobody is waiting")
        # rated play needs an account: the choice is off for a guest, and says why
        expect(page.locator("#seek-rated")).to_be_disabled()
        expect(page.locator("#seek-rated-hint")).to_have_text("Sign in to play rated games.")
    finally:
        ctx.close()


def test_two_signed_in_people_seek_rated_play_it_out_and_see_their_ratings(
        live: LiveServer, browser: Browser) -> None:
    """TESTING.md "Two people in one test": both sign up, both seek Sixty-Six rated from the
    lobby's form, both land at the same table, play the match to its end from their pages, and
    see both ratings change on the end screen and on both profiles."""
    pages = signed_up(browser, live, [("Ana", 1280), ("Bo", 390)])
    for page in pages:
        # a short match: the seek takes the options last chosen in the new-game form
        page.evaluate("() => localStorage.setItem('cardplay.options.sixty-six', "
                      "JSON.stringify({match_target: 1}))")
        page.goto(live.url + "/")
    try:
        for page in pages:
            page.locator("#seek-game").select_option("sixty-six")
            expect(page.locator("#seek-rated")).to_be_enabled()
            page.locator("#seek-rated").check()
            page.locator("#seek-preset").select_option("mine")
            expect(page.locator("#seek-clock option[value=none]")).to_have_count(0)
            page.locator("#seek-start").click()
        for page in pages:
            expect(page).to_have_url(re.compile(r"/t/[\w-]+$"), timeout=15000)
        table_id = pages[0].url.rsplit("/", 1)[1]
        assert pages[1].url.rsplit("/", 1)[1] == table_id
        table = live.app.state.hub.get(table_id)
        assert table.stored.rated is True and table.game.options_dict()["match_target"] == 1
        assert sorted(s.name for s in table.seats) == ["Ana", "Bo"]
        for page in pages:
            page.wait_for_selector(".board")
        play_out(pages, random.Random(3), 180)
        changes = [p.locator("#rating-changes li") for p in pages]
        for c in changes:
            expect(c).to_have_count(2)
        seat_of = {s.name: s.index for s in table.seats}
        after = {}
        for name in ("Ana", "Bo"):
            line = changes[0].nth(seat_of[name])
            expect(line).to_contain_text(f"{name}: 1500 → ")
            expect(changes[1].nth(seat_of[name])).to_have_text(line.inner_text())
            after[name] = line.inner_text().rsplit(" ", 1)[-1]
        assert "1500" not in after.values() and len(set(after.values())) == 2
        SHOTS.mkdir(exist_ok=True)
        pages[1].screenshot(path=str(SHOTS / "pairing-rated-end-390.png"))
        for page, name in zip(pages, ("Ana", "Bo")):
            page.goto(live.url + "/players/" + name)
            expect(page.locator("#ratings li")).to_contain_text(f"{after[name]} ± ")
            expect(page.locator("#games li").first).to_contain_text("rated")
    finally:
        for page in pages:
            page.context.close()


def test_a_guests_two_tabs_wait_for_someone_else(live: LiveServer, browser: Browser) -> None:
    """One browser, two tabs, one seek from each: they are never paired together (before,
    the second tab's seek was paired with the first at once: a game against oneself); a
    person in another browser is paired with the first."""
    ctx, tab1 = person(browser, live, "Tabby")
    ctx_o, other = person(browser, live, "Otto", width=390)
    try:
        tab2 = ctx.new_page()
        tab2.goto(live.url + "/")
        for tab in (tab1, tab2):
            tab.locator("#seek-game").select_option("sixty-six")
            tab.locator("#seek-start").click()
            expect(tab).to_have_url(re.compile(r"/seek/[\w-]+$"))
            expect(tab.locator("#seek-status")).to_contain_text("Looking for an opponent")
        time.sleep(2.5)  # two pairing ticks of the server
        assert re.search(r"/seek/[\w-]+$", tab1.url) and re.search(r"/seek/[\w-]+$", tab2.url)
        assert len(live.app.state.pairing.open_seeks()) == 2
        other.locator("#seek-game").select_option("sixty-six")
        other.locator("#seek-start").click()
        expect(other).to_have_url(re.compile(r"/t/[\w-]+$"), timeout=15000)
        expect(tab1).to_have_url(re.compile(r"/t/[\w-]+$"), timeout=15000)
        assert tab1.url.rsplit("/", 1)[1] == other.url.rsplit("/", 1)[1]
        assert re.search(r"/seek/[\w-]+$", tab2.url)
    finally:
        ctx.close()
        ctx_o.close()
