"""The browser's words over HTTP (GET /api/texts/LANG): one language's catalogue as JSON, plural
forms by CLDR category, cached with an ETag; an unknown language is refused."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardplay.i18n import BROWSER, messages


def test_each_language_serves_its_catalogue(client: TestClient) -> None:
    for lang in ("en", "ru", "de"):
        r = client.get(f"/api/texts/{lang}")
        assert r.status_code == 200 and r.headers["content-type"] == "application/json"
        body = r.json()
        assert body["lang"] == lang
        # the lobby's list, English first
        assert list(body["languages"].items()) == [("en", "English"), ("de", "Deutsch"),
                                                   ("ru", "Русский")]
        assert set(body["texts"]) == set(messages("en", BROWSER))
    de = client.get("/api/texts/de").json()["texts"]
    assert de["rules"] == "Regeln" and de["card_name"] == "{suit}-{rank}"


def test_plural_forms_come_by_cldr_category(client: TestClient) -> None:
    ru = client.get("/api/texts/ru").json()["texts"]["cards_left"]
    # Intl.PluralRules("ru") says one (1, 21), few (2-4), many (5-20), other (1.5)
    assert ru == {"one": "{n} карта", "few": "{n} карты", "many": "{n} карт",
                  "other": "{n} карт"}
    de = client.get("/api/texts/de").json()["texts"]["cards_left"]
    assert de == {"one": "{n} Karte", "other": "{n} Karten"}


def test_an_unchanged_catalogue_is_not_sent_again(client: TestClient) -> None:
    first = client.get("/api/texts/de")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache"
    again = client.get("/api/texts/de", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/api/texts/ru").headers["etag"] != etag
    assert client.get("/api/texts/de", headers={"If-None-Match": '"stale"'}).status_code == 200


def test_an_unknown_language_is_refused(client: TestClient) -> None:
    for lang in ("xx", "EN", "de-AT", "ru.po", "de.mo"):
        r = client.get(f"/api/texts/{lang}")
        assert r.status_code == 404
        assert r.json()["error"] == "unknown_language"
        assert "en, de, ru" in r.json()["message"]
