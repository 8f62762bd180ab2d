"""The lobby remembers a player: the last game, bot level and options come back, the tables this
browser has a seat at are listed, and a finished game against bots is one click from a rematch."""

from __future__ import annotations

import json
import random

import httpx
from playwright.sync_api import Page, Route, expect

from .conftest import LiveServer
from .test_browser import play_one, start_from_lobby


def serious_violations(page: Page) -> list[dict[str, object]]:
    from axe_playwright_python.sync_playwright import Axe

    return [v for v in Axe().run(page).response["violations"]
            if v["impact"] in ("serious", "critical")]


def test_rematch_and_your_tables(live: LiveServer, page: Page) -> None:
    r = httpx.post(live.url + "/api/tables", json={
        "game": "sixty-six", "options": {"match_target": 1}, "seed": 5,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}]})
    assert r.status_code == 201
    first = r.json()
    page.goto(live.url + "/")
    page.evaluate("([id, tok]) => localStorage.setItem('cardplay.token.' + id, tok)",
                  [first["table"], json.dumps({"token": first["token"], "seat": 0})])
    page.goto(live.url + "/t/" + first["table"])
    page.wait_for_selector(".board")
    rng = random.Random(1)
    for _ in range(200):
        if page.locator("#end-screen").count():
            break
        play_one(page, rng)
    expect(page.locator("#end-screen")).to_be_visible()
    # the end screen, with the last deal's review open, passes axe
    page.locator("#end-screen details.last-deal summary").click()
    page.locator("#end-screen #review-button").click()
    expect(page.locator("#end-screen #review")).to_be_visible(timeout=60000)
    found = serious_violations(page)
    assert found == [], json.dumps(found, indent=1)[:3000]
    page.locator("#rematch").click()
    page.wait_for_function("id => !location.pathname.endsWith(id)", arg=first["table"])
    second = page.url.rsplit("/", 1)[-1]
    page.wait_for_selector(".board")
    hub = live.app.state.hub
    old, new = hub.get(first["table"]), hub.get(second)
    assert new.game.options_dict() == old.game.options_dict()
    assert [(s.kind, s.level if s.kind == "bot" else None) for s in new.seats] == \
        [("human", None), ("bot", "heuristic")]
    assert not new.is_over and new.stored.seed != old.stored.seed
    page.goto(live.url + "/")
    mine = page.locator("#your-tables li")
    expect(mine).to_have_count(2)
    expect(mine.nth(0)).to_contain_text("Deal 1 · you are seat 1")
    expect(mine.nth(1)).to_contain_text("finished")
    mine.nth(0).get_by_role("link", name="Back to the table").click()
    page.wait_for_selector(".board")
    assert page.url.endswith("/t/" + second)


def test_the_lobby_remembers_the_last_game_level_and_options(live: LiveServer,
                                                             page: Page) -> None:
    page.goto(live.url + "/")
    page.wait_for_selector("#open-h")
    # a browser with no table of its own sees the lists alone, no stray "null"
    assert "null" not in page.locator(".lobby").inner_text()
    start_from_lobby(page, live, "two-ten-jack", level="heuristic", options={"target": "21"})
    page.goto(live.url + "/")
    expect(page.locator("#game")).to_have_value("two-ten-jack")
    expect(page.locator("#level")).to_have_value("heuristic")
    expect(page.locator("#opt-target")).to_have_value("21")
    # another game has its own options
    page.select_option("#game", "sixty-six")
    expect(page.locator("#opt-match_target")).to_have_value("7")


def test_an_invite_only_table_from_the_lobby(live: LiveServer, page: Page) -> None:
    page.goto(live.url + "/")
    page.select_option("#game", "two-ten-jack")
    page.select_option("#seat-1", "human")
    expect(page.locator("#unlisted")).to_be_checked()  # unlisted unless asked otherwise
    page.get_by_role("button", name="Create a table").click()
    invite = page.locator("#invite-url").input_value()
    table = invite.rsplit("/", 1)[-1]
    lists = httpx.get(live.url + "/api/tables").json()
    assert table not in [t["id"] for t in lists["open"] + lists["playing"]]
    assert live.app.state.hub.get(table).stored.listed is False
    # unticked, the table is in the open list for anyone
    page.goto(live.url + "/")
    page.select_option("#game", "two-ten-jack")
    page.select_option("#seat-1", "human")
    page.locator("#unlisted").uncheck()
    page.get_by_role("button", name="Create a table").click()
    public = page.locator("#invite-url").input_value().rsplit("/", 1)[-1]
    assert public in [t["id"] for t in httpx.get(live.url + "/api/tables").json()["open"]]


def test_a_language_switch_while_the_lobby_loads_leaves_one_lobby(live: LiveServer,
                                                                  page: Page) -> None:
    # the games' list is held back until the language has been switched: two lobbies wait for
    # it, and only the newer may show
    held: list[Route] = []
    page.route("**/api/games", lambda route: held.append(route))
    page.goto(live.url + "/")
    page.select_option("#lang", "ru")
    for _ in range(100):
        if len(held) == 2:
            break
        page.wait_for_timeout(50)
    assert len(held) == 2
    for route in held:
        route.continue_()
    expect(page.locator("#play-now")).to_have_text("Играть с ботами")
    page.wait_for_timeout(300)
    expect(page.locator("#new-game")).to_have_count(1)
    expect(page.locator("main h1")).to_have_count(1)


def test_the_level_chooser_says_how_often_a_level_beats_the_one_below(live: LiveServer,
                                                                      page: Page) -> None:
    """Issue 33: a player choosing an opponent reads, in their language, how often that level
    won against the level below it in the arena (the figures the catalogue serves)."""
    six = next(g for g in httpx.get(live.url + "/api/games").json() if g["name"] == "sixty-six")
    fast = next(s for s in six["strength"] if s["level"] == "fast")
    share = round(100 * fast["share"])
    expert = next(s for s in six["strength"] if s["level"] == "expert")
    page.goto(live.url + "/")
    page.select_option("#game", "sixty-six")
    # a browser with no level of its own starts at strong, not at expert's seconds a move
    expect(page.locator("#level")).to_have_value("strong")
    expect(page.locator("#level option")).to_have_text(
        ["random", "heuristic", "fast", "strong", "expert"])
    line = page.locator("#level-strength")
    page.select_option("#level", "expert")
    expect(line).to_have_text(f"Against “strong”, “expert” won {round(100 * expert['share'])}% "
                              "of test deals (50% would mean equal strength).")
    page.select_option("#level", "fast")
    expect(line).to_have_text(f"Against “heuristic”, “fast” won {share}% of test deals "
                              "(50% would mean equal strength).")
    page.select_option("#level", "random")  # nothing below it: nothing said
    expect(line).to_have_text("")
    page.select_option("#lang", "ru")
    expect(page.locator("#play-now")).to_have_text("Играть с ботами")  # the lobby drawn anew
    page.select_option("#game", "sixty-six")
    page.select_option("#level", "fast")
    expect(line).to_have_text(f"Против уровня «эвристический» уровень «быстрый» выиграл "
                              f"{share} % пробных сдач (при равной силе было бы 50 %).")
    # the rules' list of levels says it too
    page.locator("#lobby-rules").click()
    expect(page.locator("#rules-dialog .rules-levels")).to_contain_text(
        f"выиграл {share} % пробных сдач")
    page.keyboard.press("Escape")
    page.select_option("#lang", "de")
    expect(page.locator("#play-now")).to_have_text("Jetzt gegen Bots spielen")
    page.select_option("#game", "sixty-six")
    page.select_option("#level", "expert")
    expect(line).to_have_text(f"Gegen „stark“ gewann „Experte“ {round(100 * expert['share'])} % "
                              "der Testrunden (gleich stark wären 50 %).")
