"""Settings, touch and undo in real Chromium: the settings panel from the lobby and the table, in
English and Russian, remembered by the browser and by the account (two browser contexts); the
card back, confirming each card, the sounds and the forced card played for the person at the
table; tap-tap and drag on a touch phone; the Undo button against bots, and none at a table
with a clock."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from .conftest import LiveServer
from .test_browser import board_attr, play_one, shots
from .test_browser_accounts import sign
from .test_browser_lobby import serious_violations
from .test_browser_table import code_words, open_seeded, screen_text

MY_TURN = ("() => document.querySelector('.board') && "
           "document.querySelector('.board').dataset.myTurn === '1'")


def _wait_turn(page: Page) -> str:
    page.wait_for_function(MY_TURN, timeout=15000)
    return board_attr(page, "data-version")


def _open_settings(page: Page) -> None:
    page.locator("#settings-button").click()
    expect(page.locator("#settings-dialog")).to_be_visible()


def test_the_panel_from_the_lobby_kept_by_the_browser_and_used_at_the_table(
        live: LiveServer, page: Page, tmp_path: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(live.url + "/")
    expect(page.locator("#settings-button")).to_have_text("Settings")
    _open_settings(page)
    dialog = page.locator("#settings-dialog")
    expect(dialog.locator("#settings-h")).to_have_text("Settings")
    # the defaults: no sound, normal movement, the classic back, nothing played or asked for me
    expect(page.locator("#set-sound")).not_to_be_checked()
    expect(dialog.locator("input[name=set-animation][value=normal]")).to_be_checked()
    expect(dialog.locator("input[name=set-card_back][value=classic]")).to_be_checked()
    expect(page.locator("#set-auto-play")).not_to_be_checked()
    expect(page.locator("#set-confirm-play")).not_to_be_checked()
    expect(page.locator("#settings-where")).to_have_text(
        "These settings are kept in this browser.")
    assert serious_violations(page) == []
    page.locator("#set-sound").check()
    # turning sound on plays what it will sound like
    assert page.evaluate("document.documentElement.dataset.lastSound") == "turn"
    dialog.get_by_label("Fast").check()
    dialog.get_by_label("Red").check()
    page.locator("#set-confirm-play").check()
    assert page.evaluate("document.documentElement.dataset.anim") == "fast"
    page.screenshot(path=str(shots(tmp_path) / "settings-en-1280.png"))
    page.locator("#settings-close").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#settings-button")).to_be_focused()
    # remembered by this browser
    page.reload()
    _open_settings(page)
    expect(page.locator("#set-sound")).to_be_checked()
    expect(dialog.locator("input[name=set-card_back][value=red]")).to_be_checked()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    open_seeded(page, live, "sixty-six", seed=11)
    assert page.evaluate("document.documentElement.dataset.anim") == "fast"
    # the bot's hand and the stock show the red back
    backs = page.locator(".seat img.back")
    assert backs.count() >= 1
    assert all(src.endswith("/static/cards/back-red.svg")
               for src in backs.evaluate_all("els => els.map((e) => e.getAttribute('src'))"))
    before = _wait_turn(page)
    card = page.locator(".hand button.legal[data-move]").first
    played = card.get_attribute("data-card")
    assert played is not None
    sounds = int(page.evaluate("document.documentElement.dataset.sounds || '0'"))
    card.click()
    # every card asks first; no asking in the other order
    suit = "♠♥♦♣"["SHDC".index(played[1])]
    expect(page.locator("#confirm-q")).to_have_text(f"Play {played[0].replace('T', '10')}{suit}?")
    assert board_attr(page, "data-version") == before
    page.locator("#confirm-yes").click()
    page.wait_for_function("v => document.querySelector('.board').dataset.version !== v",
                           arg=before)
    page.wait_for_function(f"() => Number(document.documentElement.dataset.sounds) > {sounds}")
    assert page.evaluate("document.documentElement.dataset.lastSound") in (
        "card", "turn", "trick")
    # the settings are reached at the table too, in Russian
    page.locator("#lang").select_option("ru")
    expect(page.locator("#settings-button")).to_have_text("Настройки")
    _open_settings(page)
    text = page.locator("#settings-dialog").inner_text()
    assert "Рубашка карт" in text and "Движение карт" in text
    assert code_words(text, "ru") == []
    assert serious_violations(page) == []
    page.screenshot(path=str(shots(tmp_path) / "settings-ru-table-1280.png"))


def test_the_panel_on_a_phone_in_russian_and_german(live: LiveServer, page: Page,
                                                     tmp_path: Path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    for lang, title in (("ru", "Настройки"), ("de", "Einstellungen")):
        page.goto(live.url + "/")
        page.evaluate("lang => localStorage.setItem('cardplay.lang', lang)", lang)
        page.reload()
        button = page.locator("#settings-button")
        expect(button).to_have_text(title)
        box = button.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390  # on the screen, not beside it
        _open_settings(page)
        dialog = page.locator("#settings-dialog")
        expect(dialog.locator("#settings-h")).to_have_text(title)
        close = page.locator("#settings-close").bounding_box()
        assert close is not None and close["x"] + close["width"] <= 390
        assert code_words(screen_text(page, "#settings-dialog"), lang) == []
        page.screenshot(path=str(shots(tmp_path) / f"settings-{lang}-390.png"))
        assert serious_violations(page) == []


def test_the_settings_follow_the_account_to_another_browser(live: LiveServer,
                                                             browser: Browser) -> None:
    first = browser.new_context()
    page = first.new_page()
    sign(page, live.url, "Ana", signup=True)
    _open_settings(page)
    expect(page.locator("#settings-where")).to_have_text(
        "These settings are kept in this browser and with your account Ana.")
    page.locator("#settings-dialog").get_by_label("Blue").check()
    page.locator("#set-auto-play").check()
    page.wait_for_function("async () => (await (await fetch('/api/me/settings')).json())"
                           ".settings.auto_play === true")
    first.close()
    # another browser: nothing of Ana's in its storage, the account brings the settings
    second = browser.new_context()
    other = second.new_page()
    other.goto(live.url + "/")
    _open_settings(other)
    expect(other.locator("#settings-dialog input[name=set-card_back][value=classic]")
           ).to_be_checked()
    other.keyboard.press("Escape")
    sign(other, live.url, "Ana", signup=False)
    _open_settings(other)
    expect(other.locator("#settings-dialog input[name=set-card_back][value=blue]")
           ).to_be_checked()
    expect(other.locator("#set-auto-play")).to_be_checked()
    second.close()


def test_a_forced_card_is_played_for_the_person(live: LiveServer, page: Page) -> None:
    page.goto(live.url + "/")
    page.evaluate("localStorage.setItem('cardplay.settings', JSON.stringify({auto_play: true}))")
    open_seeded(page, live, "two-ten-jack", seed=4)
    # what the status said, and when: the forced card may go before a slow test looks
    page.evaluate("""() => { window.forced = [];
      new MutationObserver(() => {
        const s = document.querySelector('#status'); const b = document.querySelector('.board');
        const legal = document.querySelectorAll('.hand button.legal[data-move]');
        if (s && b && legal.length === 1 && s.textContent.includes('it is played for you')
            && !window.forced.some((f) => f.version === b.dataset.version))
          window.forced.push({ version: b.dataset.version, card: legal[0].dataset.card });
      }).observe(document.getElementById('main'), { childList: true, subtree: true }); }""")
    rng = random.Random(5)
    for _ in range(40):
        version = _wait_turn(page)
        if page.locator(".hand button.legal[data-move]").count() == 1 and \
                page.locator(".actions [data-move]").count() == 0:
            # nobody clicks: the card goes by itself, and the status said so before
            page.wait_for_function("v => document.querySelector('.board').dataset.version !== v",
                                   arg=version, timeout=5000)
            forced = page.evaluate("window.forced")
            assert forced and forced[-1]["version"] == version, forced
            assert page.locator(f".hand button[data-card='{forced[-1]['card']}']").count() == 0
            return
        play_one(page, rng)
    raise AssertionError("no turn with a single legal card came")


def _touch_page(browser: Browser) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, device_scale_factor=1)
    return context, context.new_page()


def test_tap_tap_and_drag_on_a_touch_phone(live: LiveServer, browser: Browser,
                                           tmp_path: Path) -> None:
    context, page = _touch_page(browser)
    open_seeded(page, live, "sixty-six", seed=11)
    # a tap picks the card; a second tap plays it
    before = _wait_turn(page)
    card = page.locator(".hand button.legal[data-move]").first
    name = card.get_attribute("data-card")
    card.tap()
    picked = page.locator(f".hand button[data-card='{name}']")
    expect(picked).to_have_class("cardbtn legal tapped")
    expect(page.locator("#status")).to_contain_text("again, or tap the table, to play it")
    assert board_attr(page, "data-version") == before
    page.screenshot(path=str(shots(tmp_path) / "touch-picked-en-390.png"))
    assert serious_violations(page) == []
    picked.tap()
    page.wait_for_function("v => document.querySelector('.board').dataset.version !== v",
                           arg=before)
    assert page.locator(f".hand button[data-card='{name}']").count() == 0
    # a tap, then a tap on the table
    before = _wait_turn(page)
    card = page.locator(".hand button.legal[data-move]").first
    name = card.get_attribute("data-card")
    card.tap()
    expect(page.locator(f".hand button[data-card='{name}']")).to_have_class(
        "cardbtn legal tapped")
    page.locator(".board .centre").tap(position={"x": 5, "y": 5})
    page.wait_for_function("v => document.querySelector('.board').dataset.version !== v",
                           arg=before)
    assert page.locator(f".hand button[data-card='{name}']").count() == 0
    # a drag onto the table plays; let go on the hand again, nothing happens
    before = _wait_turn(page)
    card = page.locator(".hand button.legal[data-move]").first
    name = card.get_attribute("data-card")
    start = card.bounding_box()
    centre = page.locator(".board .centre").bounding_box()
    assert start is not None and centre is not None
    cdp = context.new_cdp_session(page)

    def touch(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    touch("touchStart", x0, y0)
    for i in range(1, 6):  # a short way, back onto the hand
        touch("touchMove", x0 + 4 * i, y0 - 4 * i)
    touch("touchEnd", x0 + 20, y0 - 20)
    page.wait_for_timeout(300)
    assert board_attr(page, "data-version") == before
    assert page.locator(f".hand button[data-card='{name}']").count() == 1
    x1, y1 = centre["x"] + centre["width"] / 2, centre["y"] + centre["height"] / 2
    touch("touchStart", x0, y0)
    for i in range(1, 11):
        touch("touchMove", x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
    touch("touchEnd", x1, y1)
    page.wait_for_function("v => document.querySelector('.board').dataset.version !== v",
                           arg=before)
    assert page.locator(f".hand button[data-card='{name}']").count() == 0
    context.close()


def test_undo_against_bots_and_none_with_a_clock(live: LiveServer, page: Page,
                                                 tmp_path: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    open_seeded(page, live, "sixty-six", seed=11)
    before = _wait_turn(page)
    hand = page.locator(".hand button").evaluate_all("els => els.map((e) => e.dataset.card)")
    expect(page.locator("#undo-button")).to_have_count(0)
    page.locator(".hand button.legal[data-move]").first.click()
    page.wait_for_function("v => document.querySelector('.board').dataset.version !== v",
                           arg=before)
    _wait_turn(page)
    undo = page.locator("#undo-button")
    expect(undo).to_have_text("Undo")
    page.screenshot(path=str(shots(tmp_path) / "undo-en-1280.png"))
    assert serious_violations(page) == []
    undo.click()
    page.wait_for_function("v => document.querySelector('.board').dataset.version === v",
                           arg=before)
    expect(page.locator("#status")).to_have_text("Your last move was taken back.")
    assert page.locator(".hand button").evaluate_all(
        "els => els.map((e) => e.dataset.card)") == hand
    expect(page.locator("#undo-button")).to_have_count(0)
    # in Russian
    page.locator(".hand button.legal[data-move]").first.click()
    page.locator("#lang").select_option("ru")
    _wait_turn(page)
    expect(page.locator("#undo-button")).to_have_text("Отменить ход")
    page.screenshot(path=str(shots(tmp_path) / "undo-ru-1280.png"))
    # a table with a clock offers none
    r = httpx.post(live.url + "/api/tables", json={
        "game": "sixty-six", "seed": 11, "clock": {"move": 60, "reserve": 300},
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})
    assert r.status_code == 201
    table = r.json()
    page.evaluate("([id, tok]) => localStorage.setItem('cardplay.token.' + id, tok)",
                  [table["table"], json.dumps({"token": table["token"], "seat": 0})])
    page.goto(live.url + "/t/" + table["table"])
    before = _wait_turn(page)
    page.locator(".hand button.legal[data-move]").first.click()
    page.wait_for_function("v => document.querySelector('.board').dataset.version !== v",
                           arg=before)
    _wait_turn(page)
    expect(page.locator("#undo-button")).to_have_count(0)



def _card_transition(page: Page) -> str:
    return str(page.evaluate(
        "getComputedStyle(document.querySelector('.hand button.cardbtn')).transitionDuration"))


def test_card_movement_off_and_the_devices_reduced_motion(live: LiveServer,
                                                          browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    open_seeded(page, live, "sixty-six", seed=11)
    assert _card_transition(page) == "0.15s"  # normal: a card rises as it is pointed at
    _open_settings(page)
    expect(page.locator("#set-reduced")).to_have_count(0)
    page.locator("#settings-dialog").get_by_label("Off").check()
    assert _card_transition(page) == "0s"
    context.close()
    # a device that asks for less motion: nothing moves even when "Fast" is chosen, and the
    # panel says why
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  reduced_motion="reduce")
    page = context.new_page()
    open_seeded(page, live, "sixty-six", seed=11)
    _open_settings(page)
    expect(page.locator("#set-reduced")).to_have_text(
        "Your device asks for reduced motion, so cards do not move whatever is chosen here.")
    page.locator("#settings-dialog").get_by_label("Fast").check()
    assert _card_transition(page) == "0s"
    context.close()
