"""Accounts in real Chromium: sign up, sign out, sign in; a guest's finished game carried into a
new account; two people (two browser contexts) play a rated Sixty-Six match to its end and see
both ratings change on the end screen and on both profiles."""

from __future__ import annotations

import json
import random
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .browser_people import PASSWORD, play_out, sign, signed_up
from .conftest import LiveServer
from .test_browser import play_one
from .test_browser_table import code_words, screen_text

SHOTS = Path("/tmp/cardplay-shots")


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


def test_the_account_pages_in_german(live: LiveServer, page: Page) -> None:
    """The lobby's language choice carries to the account pages: their words come from the
    German catalogue, none of them left in English."""
    page.goto(live.url + "/")
    page.select_option("#lang", "de")
    expect(page.locator("#nav-signup")).to_have_text("Registrieren")
    expect(page.locator("#nav-signin")).to_have_text("Anmelden")
    expect(page.locator("#nav-leaderboard")).to_have_text("Rangliste")
    page.locator("#nav-signup").click()
    expect(page.locator("#acct-h")).to_have_text("Registrieren")
    assert page.title() == "Registrieren · cardplay"
    assert code_words(screen_text(page), "de") == []
    page.locator("#acct-name").fill("Lena")
    page.locator("#acct-password").fill(PASSWORD)
    page.locator("#acct-submit").click()
    expect(page.locator("#player-h")).to_have_text("Lena")
    expect(page.locator("main h2").first).to_have_text("Wertungen")
    assert code_words(screen_text(page), "de") == []
    page.locator("#nav-account").click()
    expect(page.locator("#account-h")).to_have_text("Dein Konto: Lena")
    expect(page.locator("#sessions li")).to_contain_text("(dieser Browser)")
    assert code_words(screen_text(page), "de") == []
    page.locator("#sign-out").click()
    expect(page.locator("#nav-signin")).to_have_text("Anmelden")
    page.locator("#nav-signin").click()
    page.locator("#acct-name").fill("lena")
    page.locator("#acct-password").fill("wrong password")
    page.locator("#acct-submit").click()
    expect(page.locator("#acct-error")).to_have_text("Name oder Passwort ist falsch.")
    page.locator("#nav-leaderboard").click()
    expect(page.locator("#board-h")).to_contain_text("Rangliste: ")
    expect(page.locator("main")).to_contain_text("Noch keine.")
    assert code_words(screen_text(page), "de") == []


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


def test_two_people_play_a_rated_match_and_see_their_ratings(live: LiveServer,
                                                           browser: Browser) -> None:
    pages = signed_up(browser, live, [("Ana", 1280), ("Bo", 390)])
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
    play_out(pages, random.Random(7), 120)
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


def test_an_unknown_player_or_game_is_said_in_the_readers_language(
        live: LiveServer, page: Page) -> None:
    """The server's refusals carry a code (errors.py); the page says it in its own words, not
    the server's English message (on main a Russian page read "no player has this name")."""
    page.goto(live.url + "/")
    page.select_option("#lang", "ru")
    page.wait_for_function("() => localStorage.getItem('cardplay.lang') === 'ru'")
    page.goto(live.url + "/players/nobody-at-all")
    expect(page.locator("#main .error")).to_have_text("Игрока с таким именем нет.")
    page.goto(live.url + "/leaderboard/no-such-game")
    expect(page.locator("#main .error")).to_have_text("Игры с таким названием нет.")
    page.select_option("#lang", "de")  # the choice is kept once the words have come
    page.wait_for_function("() => localStorage.getItem('cardplay.lang') === 'de'")
    page.goto(live.url + "/players/nobody-at-all")
    expect(page.locator("#main .error")).to_have_text("Kein Spieler hat diesen Namen.")
