"""The table as a player meets it, in real Chromium: seats named and numbered from 1, a
completed trick kept on the table with who took it and then sliding to that seat (not for
reduced motion) while the layout stays put, the talon closed only after a confirmation,
an unplayable card explained, the rules one click away, and no code identifier on screen in
English, Russian or German."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Page, expect

from helpers import english_words

from .conftest import LiveServer, create
from .test_browser import board_attr, play_one

# what a code identifier looks like on screen: snake_case words (play_out, won_trick)
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")
# ... and what else code leaves on a page: camelCase names (myTurn), JavaScript's and JSON's
# own words for a missing or raw value, an object printed as text
CODE_WORDS = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b"
                        r"|\b(?:undefined|null|NaN|true|false)\b|\[object ")
# In Russian no word on screen is in Latin letters (card ranks are В Д К Т, bots have Russian
# names), but for keys named as they are labelled (L, S, H, Enter)
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
LATIN_NAMES = {"Enter"}


def code_words(text: str, lang: str) -> list[str]:
    """What in ``text`` is the code's, not the reader's: identifiers and raw values; in Russian,
    any word in Latin letters as well; in German, any English word of the interface."""
    found: list[str] = [m.group() for m in CODE_WORDS.finditer(text)]
    if lang == "ru":
        found += [w for w in LATIN_WORD.findall(text) if w not in LATIN_NAMES]
    if lang == "de":
        found += english_words(text)
    return found


# Each piece of text a person can see (or a screen reader reads) in an element, one per line:
# innerText would run two buttons' words together ("Review my movesContinue"). The shuffle
# commitment is left out: a hash, hex by design.
VISIBLE_TEXT = """el => { const out = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const p = n.parentElement; const text = n.textContent.trim();
    if (text && p && p.checkVisibility() && !p.closest('#commitment')) out.push(text);
  }
  return out.join('\\n'); }"""


def screen_text(page: Page, selector: str = "main") -> str:
    """The text on screen in ``selector`` (the page's main part unless told)."""
    text: str = page.locator(selector).evaluate(VISIBLE_TEXT)
    return text


ENABLED_MOVES = "[data-move]:not([disabled])"


def open_seeded(page: Page, server: LiveServer, game: str, seed: int, lang: str = "en",
                options: dict[str, Any] | None = None) -> str:
    """A table against a random bot with a fixed seed, opened in the page with its seat token."""
    if options is None:
        options = {"players": 2} if game in ("macao", "chukhny") else {}
    r = httpx.post(server.url + "/api/tables", json={
        "game": game, "seed": seed, "options": options,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})
    assert r.status_code == 201, r.text
    table = r.json()
    page.goto(server.url + "/")
    page.evaluate("([id, tok, lang]) => { localStorage.setItem('cardplay.token.' + id, tok);"
                  " localStorage.setItem('cardplay.lang', lang); }",
                  [table["table"], json.dumps({"token": table["token"], "seat": table["seat"]}),
                   lang])
    page.goto(server.url + "/t/" + table["table"])
    page.wait_for_selector(".board")
    return str(table["table"])


def test_seats_trick_confirmation_and_reasons(live: LiveServer, page: Page) -> None:
    open_seeded(page, live, "sixty-six", seed=11)
    expect(page.locator(".table-head .muted")).to_contain_text("you are seat 1")
    expect(page.locator(".seat .who")).to_have_text(["Boris", "You"])
    expect(page.locator(".seat[data-seat='1'] .sub")).to_have_text("bot · random")
    rng = random.Random(2)
    saw = {"trick": False, "confirm": False, "illegal": False}
    for _ in range(60):
        if board_attr(page, "data-deal") != "1" or page.locator("#end-screen").count():
            break
        page.wait_for_function(
            "() => document.querySelector('#end-screen') || document.querySelector('#deal-over')"
            " || document.querySelector('.board').dataset.myTurn === '1'", timeout=15000)
        if page.locator("#deal-over, #end-screen").count():
            break
        # a trick just taken shows both its cards and who took it
        if page.locator("#trick-caption").count():
            caption = page.locator("#trick-caption").inner_text()
            assert re.fullmatch(r"Taken by (You|Boris)", caption), caption
            assert page.locator("#trick .played").count() >= 2
            saw["trick"] = True
        close = page.locator("[data-move='close']")
        if close.count() and not saw["confirm"]:
            version = board_attr(page, "data-version")
            close.click()
            expect(page.locator("#confirm-q")).to_have_text(
                "Close the talon? This cannot be undone.")
            assert board_attr(page, "data-version") == version  # nothing was sent
            page.keyboard.press("Escape")
            expect(page.locator("#confirm-q")).to_have_count(0)
            page.locator("[data-move='close']").click()
            page.locator("#confirm-yes").click()
            page.wait_for_function("v => document.querySelector('.board').dataset.version !== v",
                                   arg=version)
            saw["confirm"] = True
            continue
        illegal = page.locator(".hand button.illegal")
        if illegal.count() and not saw["illegal"]:
            version = board_attr(page, "data-version")
            illegal.first.click(force=True)  # aria-disabled: Playwright would wait for it
            status = page.locator("#status").inner_text()
            # the rule that forbids it (issue 32): a Sixty-Six follower is refused only once
            # the talon is closed or used up
            assert status.startswith("The talon is closed or used up, so you must "), status
            assert board_attr(page, "data-version") == version
            saw["illegal"] = True
        play_one(page, rng)
    assert saw == {"trick": True, "confirm": True, "illegal": True}


def test_no_identifier_on_screen_and_rules_in_russian(live: LiveServer, page: Page) -> None:
    for game in ("sixty-six", "twenty", "macao", "chukhny"):
        open_seeded(page, live, game, seed=5, lang="ru")
        page.wait_for_timeout(300)
        text = screen_text(page)
        assert code_words(text, "ru") == [], (game, code_words(text, "ru"))
    page.locator("#rules-button").click()
    expect(page.locator("#rules-h")).to_have_text("Правила: Чухны")
    expect(page.locator("#rules-dialog .rules-levels li")).to_have_count(4)
    expect(page.locator("#rules-dialog .rules-moves li")).to_have_count(3)  # card, draw, take
    # the table's own options: two players, as it was opened
    expect(page.locator("#rules-dialog .rules-options li").first).to_contain_text("Игроки: 2")
    assert code_words(screen_text(page, "#rules-dialog"), "ru") == []
    page.keyboard.press("Escape")
    expect(page.locator("#rules-dialog")).to_have_count(0)


def test_lobby_checks_numbers_and_play_now_is_on_a_phone_screen(live: LiveServer,
                                                                page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live.url + "/?game=sixty-six")
    box = page.locator("#play-now").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844
    page.fill("#opt-match_target", "500")
    page.locator("#opt-match_target").dispatch_event("input")
    expect(page.locator("#opt-match_target-error")).to_have_text(
        "Enter a whole number from 1 to 100.")
    page.locator("#play-now").click()
    page.wait_for_timeout(300)
    assert "/t/" not in page.url  # nothing was sent
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_rules_endpoint(client: TestClient) -> None:
    r = client.get("/api/games/sixty-six/rules?lang=ru")
    assert r.status_code == 200
    text = r.json()["text"]
    assert text.startswith("Двое набирают 66") and "- Закрыть прикуп:" in text
    assert "- Конец сдачи: Доигрывать." in text and IDENTIFIER.findall(text) == []
    assert client.get("/api/games/poker/rules").status_code == 404
    assert client.get("/api/games/sixty-six/rules?lang=xx").status_code == 400
    assert create(client)["seat"] == 0


def test_a_deal_end_is_broken_down_by_seat(live: LiveServer, page: Page) -> None:
    open_seeded(page, live, "twenty", seed=3)
    rng = random.Random(4)
    for _ in range(200):
        if page.locator("#deal-over, #end-screen").count():
            break
        play_one(page, rng)
    notice = page.locator("#deal-over")
    expect(notice.locator("h2")).to_have_text("Deal 1 is over")
    rows = notice.locator("tbody tr th").all_inner_texts()
    # the points are the result here: one row says them (two rows of the same numbers was the
    # fault of issue 32)
    assert rows[0] == "Result" and "Points" not in rows and "Penalty points in hand" in rows, rows
    # the leftover hands are cards, and the reason the deal ended is in words
    assert "Hands at the end" in rows
    assert notice.locator("tbody img.card").count() >= 1
    expect(notice.locator("dt", has_text="How the hand ended")).to_have_count(1)
    # the plays of the deal are not repeated as text
    expect(notice.locator("dt", has_text="Plays so far")).to_have_count(0)
    page.locator("#dismiss-deal").click()
    expect(notice).to_have_count(0)


def test_one_click_draws_until_the_draw_is_no_longer_the_only_move(live: LiveServer,
                                                                   page: Page) -> None:
    table = open_seeded(page, live, "chukhny", seed=3)
    hub = live.app.state.hub
    for _ in range(60):
        page.wait_for_function(
            "() => document.querySelector('#end-screen') || document.querySelector('#deal-over')"
            " || document.querySelector('.board').dataset.myTurn === '1'", timeout=15000)
        if page.locator("#deal-over, #end-screen").count():
            break
        moves = page.locator(ENABLED_MOVES)
        texts = [moves.nth(i).get_attribute("data-move") for i in range(moves.count())]
        before = hub.get(table).version
        if texts == ["draw"]:
            page.locator("[data-move='draw']").click()
            # the table goes on drawing by itself while drawing is all there is to do: the
            # server is watched until the run is over (a draw every 0.35 s: 20 s is plenty)
            match = hub.get(table).match
            for _ in range(200):
                page.wait_for_timeout(100)
                if match.to_move != 0 or [str(m) for m in match.legal_moves()] != ["draw"]:
                    break
            else:
                raise AssertionError("one click did not draw until something else could be done")
            drawn = [m for s, m in match.moves[before:] if s == 0]
            if len(drawn) >= 2:
                assert set(drawn) == {"draw"}
                return
        else:
            version = board_attr(page, "data-version")
            moves.first.click()
            page.wait_for_function("v => document.querySelector('.board').dataset.version !== v",
                                   arg=version)
    raise AssertionError("no run of forced draws came up")


# Records, as the page changes, each trick that leaves the table (#trick-outgoing, once per
# slide) with the caption of the trick last shown, how many completed tricks were cleared, the
# trick area's height and the hand's top.
WATCH_TRICKS = """() => { window.__out = []; window.__captions = []; window.__layout = [];
  window.__cleared = 0; let caption = null; let taken = '';
  new MutationObserver(() => {
    const now = [...document.querySelectorAll('#trick .taken-cards img')].map((i) => i.alt)
      .join();
    if (taken && now !== taken) window.__cleared += 1;
    taken = now;
    const board = document.querySelector('.board');
    const c = document.getElementById('trick-caption');
    if (c && c.textContent !== caption) window.__captions.push(c.textContent);
    const el = document.getElementById('trick-outgoing');
    if (el && !window.__out.some((x) => x.start === el.dataset.start)) {
      window.__out.push({start: el.dataset.start, winner: el.dataset.winner, caption,
        cls: el.className, anim: getComputedStyle(el).animationName,
        dy: parseInt(el.style.getPropertyValue('--dy'), 10)});
    }
    if (c) caption = c.textContent;
    const trick = document.getElementById('trick'); const hand = document.querySelector('.hand');
    if (board && board.dataset.deal === '1' && !document.getElementById('deal-over') && trick
        && hand)
      window.__layout.push([trick.offsetHeight,
                            Math.round(hand.getBoundingClientRect().top + window.scrollY),
                            document.querySelector('.centre').offsetHeight, board.dataset.version]);
  }).observe(document.getElementById('main'), {childList: true, subtree: true}); }"""


def test_a_cleared_trick_goes_to_its_winner(live: LiveServer, page: Page) -> None:
    # (a seed of its own: the server keeps a bot per seed between tables, so a table with a
    # seed another test used may see that bot's later choices, and play out differently)
    open_seeded(page, live, "sixty-six", seed=34)
    page.evaluate(WATCH_TRICKS)
    rng = random.Random(2)
    for _ in range(20):  # the whole first deal
        if page.locator("#deal-over, #end-screen").count():
            break
        play_one(page, rng)
    out = page.evaluate("window.__out")
    assert len(out) >= 3, out
    for x in out:
        # the cards slide to the box of the seat that took them: down to the hand, up to Boris
        mine = x["caption"] == "Taken by You"
        assert x["caption"] in ("Taken by You", "Taken by Boris"), x
        assert x["winner"] == ("0" if mine else "1"), x
        assert x["cls"] == "outgoing " + ("to-hand" if mine else "to-seat"), x
        assert x["anim"] == "to-winner" and (x["dy"] > 0) == mine, x
    assert {x["winner"] for x in out} == {"0", "1"}
    # the trick area keeps its size, and the hand never moves up, while the deal lasts
    layout = page.evaluate("window.__layout")
    assert len({x[0] for x in layout}) == 1, layout
    tops = [x[1] for x in layout]
    assert tops == sorted(tops), [x for i, x in enumerate(layout) if x[1:3] != layout[i - 1][1:3]]
    # for people who ask for less motion, the trick simply goes
    page.emulate_media(reduced_motion="reduce")
    open_seeded(page, live, "sixty-six", seed=34)
    page.evaluate(WATCH_TRICKS)
    for _ in range(10):
        play_one(page, rng)
    assert page.evaluate("window.__cleared") >= 3
    assert page.evaluate("window.__out") == []


@pytest.mark.parametrize("preset", ["seed", "canonical"])
def test_every_set_of_cards_in_twenty_can_be_picked_and_played(live: LiveServer, page: Page,
                                                               preset: str) -> None:
    # Twenty plays sets of cards (AC+AD; a King with its value under the canonical rules): each
    # set the rules allow now is reached by picking its cards in the hand, a card that could
    # start a set is picked (not played alone), and the picked set is what is played
    table = open_seeded(page, live, "twenty", seed=8, options={"preset": preset})
    match = live.app.state.hub.get(table).match
    rng = random.Random(1)
    for _ in range(80):
        page.wait_for_function(
            "() => document.querySelector('#deal-over, #end-screen')"
            " || document.querySelector('.board').dataset.myTurn === '1'", timeout=15000)
        if page.locator("#end-screen").count():
            break
        if page.locator("#deal-over").count():
            page.locator("#dismiss-deal").click()
            continue
        legal = [str(m) for m in match.legal_moves()]
        sets = [m for m in legal if "+" in m]
        if len(sets) >= 2:
            break
        if "draw" in legal:  # a bigger hand has more sets
            version = board_attr(page, "data-version")
            page.locator("[data-move='draw']").click()
            page.wait_for_function("v => document.querySelector('.board').dataset.version !== v",
                                   arg=version)
        else:
            play_one(page, rng)
    else:
        raise AssertionError("no turn with two sets to choose from came up")
    assert len(sets) >= 2, "the match ended before two sets could be played"
    expect(page.locator("#status")).to_contain_text(
        "Pick cards in your hand to play them together.")
    expect(page.locator("#sets summary")).to_have_text(f"Sets you can play ({len(sets)})")
    version = board_attr(page, "data-version")
    cards = lambda m: [part.split("=")[0] for part in m.split("+")]  # noqa: E731
    for m in sets:
        for c in reversed(cards(m)):  # in any order
            page.locator(f".hand [data-card='{c}']").click()
        expect(page.locator("#play-selected")).to_have_attribute("data-move", m)
        expect(page.locator("#play-selected")).to_be_enabled()
        label = page.locator("#play-selected").inner_text()
        assert not re.search(r"\b(\w+) \1\b", label), label  # no "Play Play cards: …"
        page.locator("#clear-selection").click()
        expect(page.locator("#play-selected")).to_have_count(0)
    # a card of a set, even one that could be played alone, is picked, not played
    first = cards(sets[0])[0]
    page.locator(f".hand [data-card='{first}']").click()
    expect(page.locator(f".hand [data-card='{first}']")).to_have_attribute("aria-pressed", "true")
    alone = [m for m in legal if m.split("=")[0] == first]
    if preset == "seed":  # at most the move number: each card of a set also plays alone
        assert alone
    if alone:
        expect(page.locator("#play-selected")).to_have_attribute("data-move", alone[0])
    # cards that make no legal set together say so (and none is played by surprise)
    playable = {c for m in legal if m not in ("draw", "pass") for c in cards(m)} - {first}
    wrong = next((c for c in sorted(playable) if sorted([first, c]) not in
                  [sorted(cards(m)) for m in legal]), None)
    assert wrong is not None, legal
    page.locator(f".hand [data-card='{wrong}']").click()
    expect(page.locator("#play-selected")).to_be_disabled()
    expect(page.locator("#set-note")).to_have_text("These cards cannot be played together now.")
    page.locator("#clear-selection").click()
    assert board_attr(page, "data-version") == version  # nothing was played meanwhile
    # the last set, picked and played
    for c in cards(sets[-1]):
        page.locator(f".hand [data-card='{c}']").click()
    page.locator("#play-selected").click()
    page.wait_for_function("v => document.querySelector('.board').dataset.version !== v",
                           arg=version)
    assert (0, sets[-1]) in match.moves[-3:]
