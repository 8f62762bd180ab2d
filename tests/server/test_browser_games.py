"""Every game, in English, Russian and German, as a new player meets it in real Chromium: a game
against a bot started from the lobby, no word of the code on screen, the game's rules one click
away, moves played until a deal ends and the deal's end broken down in the page's language, axe
with no serious or critical violation on the table and on the deal's end, no script error, and
on a 390x844 phone the hand and the moves on screen without scrolling."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import ConsoleMessage, Page, Route, expect

from .conftest import LiveServer
from .test_browser import play_one, shots
from .test_browser_lobby import serious_violations
from .test_browser_table import VISIBLE_TEXT, code_words, screen_text

# The quickest way to a deal's end in each game: two players where the game has more, the short
# deck in Chukhny, a small bank in Macao (a deal there is a bank, broken or played out: some 6
# turns of a person instead of some 27). Every game of cardplay.games() is here
# (test_every_game_is_here).
GAMES: dict[str, dict[str, str]] = {
    "sixty-six": {}, "two-ten-jack": {}, "maltese-twenty": {}, "twenty": {},
    "macao": {"players": "2", "bank_stake": "10"}, "banchok": {"players": "2"},
    "chukhny": {"players": "2", "deck_size": "36"},
}
SEEDS = {game: 20 + i for i, game in enumerate(GAMES)}
CASES = [(game, lang) for game in GAMES for lang in ("en", "ru", "de")]
WORDS = {
    "en": {"rules": "Rules", "deal_over": "Deal 1 is over", "match_over": "The match is over",
           "result": "Result", "play_now": "Play now against bots"},
    "ru": {"rules": "Правила", "deal_over": "Сдача 1 окончена", "match_over": "Партия окончена",
           "result": "Итог", "play_now": "Играть с ботами"},
    "de": {"rules": "Regeln", "deal_over": "Runde 1 ist vorbei",
           "match_over": "Die Partie ist vorbei", "result": "Ergebnis",
           "play_now": "Jetzt gegen Bots spielen"},
}
# names of the modules' own that must not leak onto window (they are ES modules); an element's
# id is a window name of its own (the language list is #lang), so only other values count
MODULE_NAMES = ["T", "t", "h", "lang", "fourColour", "TEXTS", "CATALOG", "renderTable",
                "showLobby", "route", "playMove", "seatName"]
# The end of a deal as shown: the deal's notice, or the end screen with the last deal unfolded:
# its heading, the first row of the breakdown (when it is on screen) and the text on screen
DEAL_END = f"""() => {{ const visible = {VISIBLE_TEXT};
  const end = document.getElementById('end-screen');
  const box = end || document.getElementById('deal-over');
  if (!box) return null;
  const last = end && end.querySelector('details.last-deal');
  if (last) last.open = true;
  const breakdown = box.querySelector('.breakdown');
  return {{ end: Boolean(end), heading: box.querySelector('h2').textContent,
    first: breakdown && breakdown.checkVisibility()
      ? breakdown.querySelector('tbody th').textContent : null,
    text: visible(box) }}; }}"""
MY_TURN = ("() => document.querySelector('#deal-over, #end-screen') || (document.querySelector"
           "('.board') && document.querySelector('.board').dataset.myTurn === '1'"
           " && document.querySelector('[data-move]:not([disabled])'))")


# One step of the phone check, read at once: the end screen, a deal's notice (dismissed), not my
# turn after all, or my turn with where the hand's cards and the moves one can make are (not
# Twenty's list of sets while it is folded away) and the enabled moves anywhere on the page
PHONE_STEP = """() => {
  if (document.getElementById('end-screen')) return { kind: 'end' };
  if (document.getElementById('deal-over')) {
    const dismiss = document.getElementById('dismiss-deal');
    if (dismiss) dismiss.click();
    return { kind: 'deal' };
  }
  const board = document.querySelector('.board');
  const enabled = [...document.querySelectorAll('[data-move]:not([disabled])')];
  if (!board || board.dataset.myTurn !== '1' || !enabled.length) return { kind: 'wait' };
  const boxes = [...document.querySelectorAll('.hand button, .actions button:not([disabled]),'
    + ' .actions input, .actions summary')].filter((e) => e.checkVisibility())
    .map((e) => { const r = e.getBoundingClientRect();
      return [e.dataset.move || e.dataset.card || e.id || e.textContent,
        r.left, r.top + window.scrollY, r.right, r.bottom + window.scrollY]; });
  return { kind: 'turn', boxes,
    enabled: enabled.map((e) => [e.dataset.move, e.parentElement && e.parentElement.className]) };
}"""


def from_lobby(page: Page, server: LiveServer, decl: dict[str, Any], lang: str,
               seed: int) -> None:
    """The lobby in ``lang`` (chosen as a person does, in the page's header), the game and its
    quick options chosen, then Play now. The table's shuffle is ``seed`` (added to the request
    on its way: the lobby has no field for it), so that each run deals the same cards."""

    def seeded(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "seed": seed}))

    page.route("**/api/tables", seeded)
    page.goto(server.url + "/")
    page.select_option("#lang", lang)
    expect(page.locator("#play-now")).to_have_text(WORDS[lang]["play_now"])
    page.select_option("#game", decl["name"])
    for name, value in GAMES[decl["name"]].items():
        field = page.locator(f"#opt-{name}")
        option = next(o for o in decl["options"] if o["name"] == name)
        if option.get("choices"):  # a list's entries are the choices' positions
            field.select_option(str([str(c) for c in option["choices"]].index(value)))
        else:
            field.fill(value)
        field.dispatch_event("change")
    page.select_option("#level", "random")
    page.locator("#play-now").click()
    page.wait_for_selector(".board")


@pytest.fixture
def games(live: LiveServer) -> dict[str, dict[str, Any]]:
    """The games' declarations as the browser gets them."""
    return {g["name"]: g for g in httpx.get(live.url + "/api/games").json()}


def script_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def console(msg: ConsoleMessage) -> None:
        if msg.type == "error":
            errors.append(msg.text)

    page.on("console", console)
    return errors


def test_every_game_is_here(games: dict[str, dict[str, Any]]) -> None:
    assert sorted(GAMES) == sorted(games) == sorted(g for g in games if games[g]["available"])


@pytest.mark.parametrize("game, lang", CASES)
def test_a_game_from_the_lobby_to_a_deals_end(live: LiveServer, page: Page, tmp_path: Path,
                                              games: dict[str, dict[str, Any]], game: str,
                                              lang: str) -> None:
    errors = script_errors(page)
    decl = games[game]
    from_lobby(page, live, decl, lang, seed=SEEDS[game])
    expect(page.locator("#table-title")).to_have_text(decl["title"][lang])
    page.wait_for_function(MY_TURN, timeout=15000)
    assert code_words(screen_text(page), lang) == []
    # the table passes axe
    found = serious_violations(page)
    assert found == [], json.dumps(found, indent=1)[:3000]
    # the rules of this game, in this language, with every kind of move
    page.locator("#rules-button").click()
    expect(page.locator("#rules-h")).to_have_text(f"{WORDS[lang]['rules']}: {decl['title'][lang]}")
    expect(page.locator("#rules-dialog .rules-moves li")).to_have_count(len(decl["moves"]))
    expect(page.locator("#rules-dialog .rules-options li")).to_have_count(len(decl["options"]))
    assert code_words(screen_text(page, "#rules-dialog"), lang) == []
    page.keyboard.press("Escape")
    expect(page.locator("#rules-dialog")).to_have_count(0)
    # moves until the first deal ends
    rng = random.Random(7)
    for _ in range(400):
        if page.locator("#deal-over, #end-screen").count():
            break
        play_one(page, rng)
        if not page.locator("#deal-over, #end-screen").count():
            assert code_words(screen_text(page), lang) == []
    # read in one step: the bots may end the match meanwhile, and the end screen (with the
    # breakdown of the last deal folded in it) then replaces the deal's notice
    ended = page.evaluate(DEAL_END)
    assert ended is not None
    if ended["end"]:  # a one-deal match (Chukhny's one game), or the bots ended it
        assert ended["heading"] == WORDS[lang]["match_over"]
    else:
        # a round in Maltese Twenty, whose table counts rounds
        over = WORDS[lang]["deal_over"] if game != "maltese-twenty" else {
            "en": "Round 1 is over", "ru": "Раунд 1 окончен", "de": "Runde 1 ist vorbei"}[lang]
        assert ended["heading"] == over
    assert ended["first"] == WORDS[lang]["result"]
    assert code_words(ended["text"], lang) == []
    found = serious_violations(page)
    assert found == [], json.dumps(found, indent=1)[:3000]
    page.screenshot(path=str(shots(tmp_path) / f"{game}-{lang}-deal-end.png"), full_page=True)
    # the scripts are modules: none of their names is on window, and none of them failed
    assert page.evaluate("names => names.filter((n) => n in window"
                         " && !(window[n] instanceof Element))", MODULE_NAMES) == []
    assert errors == []


@pytest.mark.parametrize("game, lang", CASES)
def test_on_a_phone_the_hand_and_the_moves_are_on_screen(live: LiveServer, page: Page,
                                                         tmp_path: Path,
                                                         games: dict[str, dict[str, Any]],
                                                         game: str, lang: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    from_lobby(page, live, games[game], lang, seed=SEEDS[game])
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        if checked == 6:
            break
        page.wait_for_function(MY_TURN, timeout=15000)
        # read in one step, as MY_TURN did: the bots may end the match between two steps (in a
        # two-player Banchok the person banks the second deal and the bot plays it alone), and
        # the end screen then replaces the first deal's notice
        seen = page.evaluate(PHONE_STEP)
        if seen["kind"] == "end":
            break
        if seen["kind"] != "turn":  # a deal over before six of my turns (dismissed: the next)
            continue
        boxes = seen["boxes"]
        assert boxes, f"my turn, and no card and no move on the page: {seen['enabled']}"
        off = [b for b in boxes if b[1] < 0 or b[2] < 0 or b[3] > 390 or b[4] > 844]
        if off:
            page.screenshot(path=str(shots(tmp_path) / f"{game}-{lang}-phone-off.png"),
                            full_page=True)
        assert off == [], off
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        if checked == 0:
            page.screenshot(path=str(shots(tmp_path) / f"{game}-{lang}-phone.png"))
        checked += 1
        play_one(page, rng)
    assert checked >= 3
