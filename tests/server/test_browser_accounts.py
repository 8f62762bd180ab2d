"""Accounts in real Chromium: sign up, sign out, sign in; a guest's finished game carried into a
new account; two people (two browser contexts) play a rated Sixty-Six match to its end and see
both ratings change on the end screen and on both profiles."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .conftest import LiveServer
from .test_browser import play_one

SHOTS = Path("/tmp/cardplay-shots")
PASSWORD = "correct horse battery"


def sign(page: Page, url: str, name: str, signup: bool) -> None:
    page.goto(url + ("/signup" if signup else "/signin"))
    page.locator("#acct-name").fill(name)
    page.locator("#acct-password").fill(PASSWORD)
    page.locator("#acct-submit").click()
    expect(page.locator("#player-h")).to_have_text(name)
    expect(page.locator("#nav-profile")).to_have_text(name)


def test_sign_up_sign_out_sign_in(live: LiveServer, page: Page) -> None:
    page.goto(live.url + "/")
    expect(page.locator("#nav-signin")).to_be_visible()
    page.locator("#nav-signup").click()
    page.locator("#acct-name").fill("Ana")
    page.locator("#acct-password").fill("short")
    page.locator("#acct-submit").click()
    assert page.url.endswith("/signup")  # the browser's own check: at least 8 characters
    page.locator("#acct-password").fill(PASSWORD)
    page.locator("#acct-submit").click()
    expect(page.locator("#player-h")).to_have_text("Ana")
    cookie = next(c for c in page.context.cookies() if c["name"] == "cardplay_session")
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Lax"
    assert page.evaluate("document.cookie") == ""  # the page's scripts cannot read it
    page.locator("#nav-account").click()
    expect(page.locator("#sessions li")).to_have_count(1)
    page.locator("#sign-out").click()
    expect(page.locator("#nav-signin")).to_be_visible()
    assert page.request.get(live.url + "/api/me").status == 401
    # a wrong password gets the shared answer, in the reader's language
    page.goto(live.url + "/signin")
    page.locator("#acct-name").fill("ana")
    page.locator("#acct-password").fill("wrong password")
    page.locator("#acct-submit").click()
    expect(page.locator("#acct-error")).to_have_text("The name or the password is wrong.")
    page.locator("#acct-password").fill(PASSWORD)
    page.locator("#acct-submit").click()
    expect(page.locator("#player-h")).to_have_text("Ana")
    assert page.request.get(live.url + "/api/me").json()["name"] == "Ana"


def test_a_guests_history_comes_into_a_new_account(live: LiveServer, page: Page) -> None:
    r = page.request.post(live.url + "/api/tables", data={
        "game": "sixty-six", "options": {"match_target": 1}, "seed": 5, "name": "guest",
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})
    assert r.status == 201
    t = r.json()
    page.goto(live.url + "/")
    page.evaluate("([id, tok]) => localStorage.setItem('cardplay.token.' + id, tok)",
                  [t["table"], json.dumps({"token": t["token"], "seat": 0, "at": 1})])
    page.goto(live.url + "/t/" + t["table"])
    page.wait_for_selector(".board")
    rng = random.Random(3)
    for _ in range(200):
        if page.locator("#end-screen").count():
            break
        play_one(page, rng)
    expect(page.locator("#end-screen")).to_be_visible()
    won = "You win" in page.locator("#end-screen").inner_text()
    sign(page, live.url, "Guest Carried", signup=True)
    games = page.locator("#games li")
    expect(games).to_have_count(1)
    expect(games.first).to_contain_text("won" if won else "lost")
    expect(games.first).to_contain_text("random bot")
    summary = page.request.get(live.url + f"/api/tables/{t['table']}").json()
    assert summary["seats"][0]["name"] == "Guest Carried" and "guest" not in summary["seats"][0]


def my_turn(page: Page) -> bool:
    return bool(page.evaluate(
        "() => !!(document.querySelector('.board') && document.querySelector('.board')"
        ".dataset.myTurn === '1' && document.querySelector('[data-move]:not([disabled])'))"))


def test_two_people_play_a_rated_match_and_see_their_ratings(live: LiveServer,
                                                           browser: Browser) -> None:
    pages = [browser.new_context(viewport={"width": 1280, "height": 900}).new_page(),
             browser.new_context(viewport={"width": 390, "height": 844}).new_page()]
    for p, name in zip(pages, ("Ana", "Bo")):
        sign(p, live.url, name, signup=True)
    r = pages[0].request.post(live.url + "/api/tables", data={
        "game": "sixty-six", "options": {"match_target": 1}, "rated": True,
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status == 201, r.text()
    t = r.json()
    j = pages[1].request.post(live.url + f"/api/tables/{t['table']}/join", data={})
    assert j.status == 200
    for p, seat in zip(pages, (t, j.json())):
        p.evaluate("([id, tok]) => localStorage.setItem('cardplay.token.' + id, tok)",
                   [t["table"], json.dumps({"token": seat["token"], "seat": seat["seat"]})])
        p.goto(live.url + "/t/" + t["table"])
    for p in pages:  # the cards come once both seats have their part of the shuffle
        p.wait_for_selector(".board")
    rng = random.Random(7)
    deadline = time.monotonic() + 120
    while not all(p.locator("#end-screen").count() for p in pages):
        assert time.monotonic() < deadline, "the match did not end"
        moved = False
        for p in pages:
            if not p.locator("#end-screen").count() and my_turn(p):
                play_one(p, rng)
                moved = True
        if not moved:
            time.sleep(0.05)
    changes = [p.locator("#rating-changes li") for p in pages]
    for c in changes:
        expect(c).to_have_count(2)
        expect(c.nth(0)).to_contain_text("Ana: 1500 → ")
        expect(c.nth(1)).to_contain_text("Bo: 1500 → ")
    SHOTS.mkdir(exist_ok=True)
    pages[0].screenshot(path=str(SHOTS / "rated-end-1280.png"))
    pages[1].screenshot(path=str(SHOTS / "rated-end-390.png"))
    after = [c.nth(i).inner_text().rsplit(" ", 1)[-1] for i, c in enumerate(changes)]
    assert after[0] != "1500" and after[1] != "1500"
    for p, name, rating in zip(pages, ("Ana", "Bo"), after):
        p.goto(live.url + "/players/" + name)
        expect(p.locator("#ratings li")).to_contain_text(f"{rating} ± ")
        expect(p.locator("#ratings li")).to_contain_text("provisional")
        expect(p.locator("#games li").first).to_contain_text("rated")
    pages[0].screenshot(path=str(SHOTS / "profile-1280.png"))
    pages[1].goto(live.url + "/leaderboard/sixty-six")
    expect(pages[1].locator("#board tbody tr")).to_have_count(2)
    pages[1].screenshot(path=str(SHOTS / "leaderboard-390.png"))
    for p in pages:
        p.context.close()
