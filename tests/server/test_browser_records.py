"""The end screen's "Check this record" in Debian's Chromium: the browser sends its own part of
the shuffle when it creates a table, and after the match checks the record in the page with
WebCrypto (SHA-256 for the commitment and the seed, Ed25519 for the signature), showing that
part; a forged record is caught there too."""

from __future__ import annotations

import json
import random
from typing import Any

from playwright.sync_api import Page, Route, expect

from cardplay.fairness import deck_seed

from .conftest import LiveServer
from .test_browser import play_one, start_from_lobby


def finish(page: Page, live: LiveServer) -> str:
    table = start_from_lobby(page, live, "sixty-six", options={"match_target": "1"})
    rng = random.Random(3)
    for _ in range(200):
        if page.locator("#end-screen").count():
            break
        play_one(page, rng)
    expect(page.locator("#end-screen")).to_be_visible()
    return table


def test_the_end_screen_checks_the_record_in_the_page(live: LiveServer, page: Page) -> None:
    table = finish(page, live)
    kept = json.loads(page.evaluate(f"() => localStorage.getItem('cardplay.token.{table}')"))
    mine = kept["contribution"]
    stored = live.app.state.hub.get(table).stored
    # the part this browser drew is the one the server took, and the deck came from it
    assert stored.contributions[0] == {"value": mine, "drawn": False}
    assert stored.seed == deck_seed(stored.server_seed, [mine, None])
    page.locator("#check-record").click()
    result = page.locator("#check-result")
    expect(result.locator("li")).to_have_count(5)
    expect(result).to_contain_text("The commitment shown before the first card matches")
    expect(result).to_contain_text("dealt from the server's seed and every player's random part")
    # Chromium 137 and later check Ed25519 in WebCrypto: the signature is checked here
    expect(result).to_contain_text("The server's signature is valid.")
    expect(page.locator("#check-mine")).to_have_text(f"Your random part is in it: {mine}")
    assert result.locator("li.bad").count() == 0
    # a browser without Ed25519 in WebCrypto still checks the hashes, and says the signature
    # needs `cardplay verify`, rather than calling it valid
    page.evaluate("() => { crypto.subtle.importKey = () => Promise.reject("
                  "new DOMException('no Ed25519', 'NotSupportedError')); }")
    page.locator("#check-record").click()
    expect(result).to_contain_text("This browser cannot check Ed25519 signatures")
    expect(result).not_to_contain_text("The server's signature is valid.")
    expect(result.locator("li.ok")).to_have_count(3)  # commitment, seed, own part


def test_a_forged_record_is_caught_in_the_page(live: LiveServer, page: Page) -> None:
    table = finish(page, live)

    def forged(route: Route) -> None:
        record: Any = json.loads(route.fetch().text())
        record["dealer"] = 0  # the forgery of issue 30, defect 3
        route.fulfill(status=200, content_type="application/json", body=json.dumps(record))

    page.route(f"**/api/tables/{table}/record", forged)
    page.locator("#check-record").click()
    result = page.locator("#check-result")
    expect(result).to_contain_text("The commitment does NOT match the record.")
    expect(result).to_contain_text("The server's signature is NOT valid.")
    # the seed itself was not touched: that line still holds
    expect(result.locator("li.ok")).to_have_count(2)
