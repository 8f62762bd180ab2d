"""A stranger's probe of every route: whatever is sent, the answer is a status below 500 and,
when it refuses, ``{"error": code, "message": text}`` (DESIGN.md section 6).

The routes are read from the app's own router (included routers too), so a route added later
is probed without anyone listing it here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.routing import BaseRoute, Mount

from cardplay.server.limits import Limits

from .conftest import create, make_client

CODE = re.compile(r"^[a-z][a-z0-9_]*$")
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
STATE_CHANGING = ("POST", "PUT", "PATCH", "DELETE")
# rates far above what the probe sends: each answer is then the refusal of what was sent,
# never of how often
ROOMY = Limits(create_rate=1e6, join_rate=1e6, seek_rate=1e6, signin_rate=1e6,
               signin_account_rate=1e6, signup_rate=1e6, seeks_per_client=10**6,
               tables_per_client=10**6, max_body=2000)

# (what it is, headers, body): each is sent to every state-changing route with a stated status,
# or None where the route decides (any 4xx, never 500)
JSON = {"Content-Type": "application/json"}
BODIES: list[tuple[str, dict[str, str], bytes, int | None]] = [
    ("bad origin", {**JSON, "Origin": "https://evil.example"}, b"{}", 403),
    ("null origin", {**JSON, "Origin": "null"}, b"{}", 403),
    ("form", {"Content-Type": "application/x-www-form-urlencoded"}, b"a=1", 415),
    ("text", {"Content-Type": "text/plain"}, b"{}", 415),
    ("huge", JSON, b'{"name": "' + b"x" * 5000 + b'"}', 413),
    ("lying length", {**JSON, "Content-Length": "99999999999999999999"}, b"{}", 413),
    ("broken JSON", JSON, b'{"game": ', 400),
    ("not UTF-8", JSON, b'{"name": "\xff\xfe"}', 400),
    ("lone surrogate", JSON, b'{"name": "\\ud800"}', 400),
    ("deep", JSON, b"[" * 40 + b"]" * 40, 400),
    ("long number", JSON, b'{"seed": ' + b"9" * 60 + b"}", 400),
    ("NaN", JSON, b'{"seed": NaN}', 400),
    ("array", JSON, b"[1, 2]", 400),
    ("string", JSON, b'"hello"', 400),
    ("wrong types", JSON, b'{"game": 5, "options": [], "seats": "all", "name": 7, '
                          b'"password": null, "rated": "yes", "clock": "fast", "seed": -1, '
                          b'"listed": 2, "accept": {}, "contribution": 1.5}', None),
    ("unicode junk", JSON, '{"game": "\u202eevil\u0000", "name": "\u200b\U0001f0cf\u0301", '
                           '"password": "\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000"}'
                           .encode(), None),
    ("empty object", JSON, b"{}", None),
]
# what each path parameter is filled with, besides a real table's id
JUNK_PARAMS = ["nope", "%F0%9F%83%8F%E2%80%AE", "a" * 300, "..%2F..%2Fetc", "%00", "-1"]


def walk(routes: list[BaseRoute]) -> Iterator[tuple[str, frozenset[str]]]:
    """(path, methods) of every route, into included routers; a mount as GET and HEAD."""
    for r in routes:
        inner = getattr(r, "original_router", None)
        if inner is not None:
            yield from walk(inner.routes)
        elif isinstance(r, Mount):
            yield r.path + "/{file}", frozenset({"GET", "HEAD"})
        else:
            methods = set(getattr(r, "methods", None) or ())
            if "GET" in methods:
                methods.add("HEAD")  # Starlette answers HEAD wherever GET is
            yield r.path, frozenset(methods)


def refused_in_shape(r: Any, what: str) -> None:
    assert r.status_code < 500, f"{what}: {r.status_code} {r.text[:300]}"
    if r.status_code < 400 or r.request.method == "HEAD":
        return
    body = r.json()
    assert set(body) == {"error", "message"}, f"{what}: {body}"
    assert CODE.match(body["error"]), f"{what}: {body}"
    assert isinstance(body["message"], str) and body["message"].strip(), f"{what}: {body}"


@pytest.fixture
def probe(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, frozenset[str]]]]:
    with make_client(tmp_path, limits=ROOMY) as c:
        routes: dict[str, frozenset[str]] = {}
        for path, methods in walk(c.app.api.router.routes):  # type: ignore[attr-defined]
            routes[path] = routes.get(path, frozenset()) | methods
        yield c, routes


def fill(path: str, value: str) -> str:
    return re.sub(r"\{[^}]+\}", value, path)


def test_the_probe_sees_every_route(probe: tuple[TestClient, dict[str, frozenset[str]]]) -> None:
    _, routes = probe
    for path in ("/api/tables", "/api/tables/{table_id}/join", "/api/accounts", "/api/session",
                 "/api/me", "/api/me/sessions/{session_id}", "/api/seeks",
                 "/api/seeks/{seek_id}", "/api/players/{name}", "/api/leaderboard/{game}",
                 "/api/tables/{table_id}/resume", "/static/{file}", "/t/{table_id}"):
        assert path in routes, path
    assert routes["/api/seeks/{seek_id}"] == {"GET", "HEAD", "DELETE"}


def test_every_wrong_method_is_405_in_shape(
        probe: tuple[TestClient, dict[str, frozenset[str]]]) -> None:
    client, routes = probe
    table = create(client)["table"]
    for path, methods in routes.items():
        url = fill(path, "app.js" if path.startswith("/static") else table)
        for method in METHODS:
            if method in methods:
                continue
            r = client.request(method, url, headers=JSON, content=b"{}")
            what = f"{method} {url}"
            assert r.status_code == 405, f"{what}: {r.status_code} {r.text[:200]}"
            refused_in_shape(r, what)
            if method != "HEAD":  # an answer to HEAD has no body
                assert r.json()["error"] == "method_not_allowed", what


def test_every_bad_body_is_refused_in_shape(
        probe: tuple[TestClient, dict[str, frozenset[str]]]) -> None:
    client, routes = probe
    table = create(client)["table"]
    for path, methods in routes.items():
        for method in sorted(methods & set(STATE_CHANGING)):
            url = fill(path, table)
            for what, headers, body, status in BODIES:
                r = client.request(method, url, headers=headers, content=body)
                label = f"{method} {url} ({what})"
                refused_in_shape(r, label)
                if status is not None:
                    assert r.status_code == status, f"{label}: {r.status_code} {r.text[:200]}"
                elif r.status_code >= 400:
                    assert 400 <= r.status_code < 500, label


def test_every_junk_address_is_answered_in_shape(
        probe: tuple[TestClient, dict[str, frozenset[str]]]) -> None:
    client, routes = probe
    for path, methods in routes.items():
        if "{" not in path:
            continue
        for value in JUNK_PARAMS:
            url = fill(path, value)
            for method in sorted(methods & {"GET", "HEAD", "DELETE", "POST"}):
                r = client.request(method, url, headers=JSON,
                                   content=b"{}" if method != "GET" else None)
                refused_in_shape(r, f"{method} {url}")


@pytest.mark.parametrize("query", ["limit=-5", "limit=99999999999999999999", "cursor=%FF%FE",
                                   "list=nonsense", "lang=xx", "players=99", "players=%00",
                                   "everywhere=2", "day=\u202e"])
def test_junk_queries_are_refused_in_shape(
        probe: tuple[TestClient, dict[str, frozenset[str]]], query: str) -> None:
    client, routes = probe
    for path, methods in routes.items():
        url = fill(path, "sixty-six") + "?" + query
        for method in sorted(methods & {"GET", "DELETE"}):
            refused_in_shape(client.request(method, url), f"{method} {url}")


@pytest.mark.parametrize(("url", "status", "code"), [
    ("/api/nothing", 404, "not_found"),
    ("/nothing/at/all", 404, "not_found"),
    ("/static/no-such-file.js", 404, "not_found"),
    ("/static/../src/cardplay/server/app.py", 404, "not_found"),
    ("/api/tables/nope", 404, "no_table"),
    ("/api/tables/nope/record", 404, "no_table"),
    ("/api/games/nope/rules", 404, "no_game"),
    ("/api/games/sixty-six/rules?lang=xx", 400, "bad_request"),
    ("/api/tables?list=open&cursor=junk", 400, "bad_request"),
])
def test_refusals_that_were_in_other_shapes(
        probe: tuple[TestClient, dict[str, frozenset[str]]], url: str, status: int,
        code: str) -> None:
    client, _ = probe
    r = client.get(url)
    assert r.status_code == status, r.text
    assert r.json() == {"error": code, "message": r.json()["message"]}
    refused_in_shape(r, url)


def test_each_check_of_a_body_has_its_code(
        probe: tuple[TestClient, dict[str, frozenset[str]]]) -> None:
    client, _ = probe
    cases = [({**JSON, "Origin": "https://evil.example"}, b"{}", 403, "bad_origin"),
             ({"Content-Type": "text/plain"}, b"{}", 415, "unsupported_media_type"),
             (JSON, b"{" + b" " * 3000 + b"}", 413, "too_large"),
             (JSON, b"{nope", 400, "bad_json"),
             (JSON, b"[]", 400, "bad_json"),
             (JSON, b'{"game": "nope"}', 400, "bad_request")]
    for headers, body, status, code in cases:
        r = client.post("/api/tables", headers=headers, content=body)
        assert (r.status_code, r.json()["error"]) == (status, code), r.text
        assert r.json()["message"]


def test_a_method_refusal_says_which_methods_are_allowed(
        probe: tuple[TestClient, dict[str, frozenset[str]]]) -> None:
    client, _ = probe
    r = client.put("/api/keys")
    assert r.status_code == 405 and r.headers["allow"] == "GET"
    assert r.json()["error"] == "method_not_allowed"


def test_an_unforeseen_failure_is_500_in_shape_and_says_nothing_of_its_cause(
        tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        def broken() -> Any:
            raise RuntimeError("secret detail: /etc/cardplay/key.pem")

        c.app.state.hub.get = lambda table_id: broken()  # type: ignore[attr-defined]
        quiet = TestClient(c.app, raise_server_exceptions=False)
        r = quiet.get("/api/tables/abc")
        assert r.status_code == 500
        assert r.json()["error"] == "internal_error"
        assert "secret" not in r.text and "key.pem" not in r.text
