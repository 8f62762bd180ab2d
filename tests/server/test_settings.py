"""A signed-in person's settings over HTTP, in SQLite and PostgreSQL: defaults, a partial PUT
kept across a restart and apart from other accounts, refusals that change nothing (a guest,
an unknown key, a bad value, a body that is not an object, another origin, not JSON), and the
row gone with its account."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from cardplay.server.app import create_app
from cardplay.server.botpool import ThreadBotRunner

from .conftest import CHEAP_PASSWORDS, make_client
from .test_accounts import PASSWORD, sign_up

DEFAULTS = {"sound": False, "animation": "normal", "card_back": "classic", "auto_play": False,
            "confirm_play": False}
URL = "/api/me/settings"


def _get(client: TestClient) -> Any:
    r = client.get(URL)
    assert r.status_code == 200, r.text
    return r.json()["settings"]


def test_a_guest_has_no_stored_settings(client: TestClient) -> None:
    for r in (client.get(URL), client.put(URL, json={"sound": True})):
        assert r.status_code == 401
        assert r.json()["error"] == "not_signed_in" and r.json()["message"]


def test_settings_are_kept_per_account_and_across_a_restart(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        assert sign_up(client, "Ana").status_code == 201
        assert _get(client) == DEFAULTS
        r = client.put(URL, json={"sound": True, "card_back": "red"})
        assert r.status_code == 200
        assert r.json()["settings"] == {**DEFAULTS, "sound": True, "card_back": "red"}
        # a second PUT sets only what it names
        r = client.put(URL, json={"animation": "off", "auto_play": True})
        want = {**DEFAULTS, "sound": True, "card_back": "red", "animation": "off",
                "auto_play": True}
        assert r.json()["settings"] == want and _get(client) == want
        assert r.headers["cache-control"] == "no-store"
        client.cookies.clear()
        assert sign_up(client, "Bea").status_code == 201
        assert _get(client) == DEFAULTS  # another account's are its own
        client.put(URL, json={"confirm_play": True})
    with make_client(tmp_path) as again:
        r = again.post("/api/session", json={"name": "ana", "password": PASSWORD})
        assert r.status_code == 200
        assert _get(again) == want


@pytest.mark.parametrize(("body", "code"), [
    ({"volume": 3}, "unknown_setting"),
    ({"sound": True, "theme": "dark"}, "unknown_setting"),
    ({"sound": 1}, "bad_setting"),
    ({"sound": "true"}, "bad_setting"),
    ({"animation": "slow"}, "bad_setting"),
    ({"animation": None}, "bad_setting"),
    ({"card_back": "../back"}, "bad_setting"),
    ({"auto_play": 0}, "bad_setting"),
    ({"confirm_play": [True]}, "bad_setting"),
])
def test_bad_settings_are_refused_and_change_nothing(client: TestClient, body: dict[str, Any],
                                                      code: str) -> None:
    sign_up(client, "Ana")
    client.put(URL, json={"animation": "fast"})
    r = client.put(URL, json=body)
    assert r.status_code == 400 and r.json()["error"] == code and r.json()["message"]
    assert _get(client) == {**DEFAULTS, "animation": "fast"}


def test_a_put_passes_the_checks_of_every_state_change(client: TestClient) -> None:
    sign_up(client, "Ana")
    r = client.put(URL, json=[{"sound": True}])
    assert r.status_code == 400
    r = client.put(URL, content=b'{"sound": true}', headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = client.put(URL, json={"sound": True}, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    r = client.put(URL, content=b'{"sound": tru', headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert _get(client) == DEFAULTS


def test_the_settings_go_with_the_account(client: TestClient) -> None:
    sign_up(client, "Ana")
    client.put(URL, json={"sound": True})
    db = client.app.state.accounts.db  # type: ignore[attr-defined]
    assert len(db.run("SELECT * FROM account_settings")) == 1
    r = client.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert r.status_code == 204
    assert db.run("SELECT * FROM account_settings") == []
    assert client.get(URL).status_code == 401


@pytest.fixture
def pg_client(tmp_path: Path, pg_url: str) -> Iterator[TestClient]:
    app = create_app(tmp_path, runner=ThreadBotRunner(), database=pg_url,
                     passwords=CHEAP_PASSWORDS)
    with TestClient(app) as c:
        yield c


def test_settings_in_postgres_by_the_migration(pg_client: TestClient, pg_url: str) -> None:
    sign_up(pg_client, "Ana")
    r = pg_client.put(URL, json={"sound": True, "card_back": "blue"})
    assert r.status_code == 200
    assert pg_client.put(URL, json={"card_back": "green"}).status_code == 400
    assert _get(pg_client) == {**DEFAULTS, "sound": True, "card_back": "blue"}
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchone() == ("0009",)
        assert len(db.execute("SELECT * FROM account_settings").fetchall()) == 1
    r = pg_client.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert r.status_code == 204
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT * FROM account_settings").fetchall() == []
