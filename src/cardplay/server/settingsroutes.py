"""A signed-in person's table settings (sound, animation, card back, forced moves, confirming).

``GET /api/me/settings`` answers ``{"settings": {...}}``: every setting, stored values over the
defaults; ``PUT /api/me/settings`` takes an object of some or all of them, sets those given
(the others keep their values) and answers like the GET. Guests get ``401 not_signed_in``: a
browser keeps a guest's settings itself (localStorage). A body with an unknown key
(``400 unknown_setting``) or a value a setting does not take (``400 bad_setting``) changes
nothing. The PUT passes the app's ``checked_body`` (origin, content type, size, rate) first,
as every state-changing route does.

Rows: ``account_settings`` (one per account, the settings as a JSON object), in the database of
the accounts (SQLite: made here on start; PostgreSQL: migration 0009), deleted with the account.
"""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from .accountdb import AccountDb
from .accountroutes import CheckedBody
from .accounts import Accounts
from .errors import RequestError
from .errors import answer as refused
from .limits import RateLimiter

__all__ = ["DEFAULTS", "SCHEMA", "SETTINGS", "check_settings", "settings_router"]

# each setting: its default and the values it takes (the browser's choices, in this order)
SETTINGS: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "sound": (False, (False, True)),  # off by default: a page that beeps unasked is rude
    "animation": ("normal", ("off", "normal", "fast")),
    "card_back": ("classic", ("classic", "red", "blue")),
    "auto_play": (False, (False, True)),  # play the only legal card for the person
    "confirm_play": (False, (False, True)),  # ask before every move, not only irreversible ones
}
DEFAULTS: dict[str, Any] = {k: d for k, (d, _) in SETTINGS.items()}

SCHEMA = """
CREATE TABLE IF NOT EXISTS account_settings (
    account   TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    settings  TEXT NOT NULL,
    updated   DOUBLE PRECISION NOT NULL
)
"""


def check_settings(body: Any) -> dict[str, Any]:
    """The settings a body sets, checked (RequestError 400 naming the first fault)."""
    if not isinstance(body, dict):
        raise RequestError(400, "bad_request", "the settings are a JSON object")
    for key, value in body.items():
        if key not in SETTINGS:
            raise RequestError(400, "unknown_setting",
                               f"no setting is named {key[:40]!r}; settings: "
                               f"{', '.join(SETTINGS)}")
        allowed = SETTINGS[key][1]
        # True == 1 in Python: a setting of true/false takes exactly a JSON boolean
        if not any(type(value) is type(a) and value == a for a in allowed):
            raise RequestError(400, "bad_setting",
                               f"{key} is one of {', '.join(json.dumps(a) for a in allowed)}")
    return dict(body)


def stored_settings(db: AccountDb, account_id: str) -> dict[str, Any]:
    """The account's settings over the defaults (a stored value no longer allowed is dropped)."""
    rows = db.run("SELECT settings FROM account_settings WHERE account = ?", (account_id,))
    out = dict(DEFAULTS)
    if rows:
        try:
            saved = json.loads(rows[0][0])
        except ValueError:
            saved = {}
        for key, value in (saved.items() if isinstance(saved, dict) else ()):
            try:
                out.update(check_settings({key: value}))
            except RequestError:
                continue
    return out


def settings_router(accounts: Accounts, checked_body: CheckedBody, rate: RateLimiter,
                    postgres: bool) -> APIRouter:
    """The settings routes over one server's accounts (SQLite gets its table here)."""
    router = APIRouter()
    db = accounts.db
    if not postgres:
        db.run(SCHEMA)

    def answer(settings: dict[str, Any]) -> JSONResponse:
        return JSONResponse({"settings": settings}, headers={"Cache-Control": "no-store"})

    def not_signed_in() -> JSONResponse:
        return refused(RequestError(401, "not_signed_in", "settings are kept for signed-in "
                                                        "people; a guest's browser keeps its own"))

    @router.get("/api/me/settings")
    async def api_settings(request: Request) -> Response:
        account = accounts.account_of_scope(request.scope)
        if account is None:
            return not_signed_in()
        return answer(stored_settings(db, account.id))

    @router.put("/api/me/settings")
    async def api_set_settings(request: Request) -> Response:
        body = await checked_body(request, rate, "account requests")
        if isinstance(body, Response):
            return body
        account = accounts.account_of_scope(request.scope)
        if account is None:
            return not_signed_in()
        try:
            given = check_settings(body)
        except RequestError as e:
            return refused(e)
        with db.transaction():
            merged = {**stored_settings(db, account.id), **given}
            db.run("INSERT INTO account_settings (account, settings, updated) VALUES (?, ?, ?) "
                   "ON CONFLICT (account) DO UPDATE SET settings = excluded.settings, "
                   "updated = excluded.updated",
                   (account.id, json.dumps(merged, sort_keys=True), time.time()))
        return answer(merged)

    return router

