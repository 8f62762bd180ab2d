"""The HTTP routes of accounts, sessions, profiles and leaderboards (an APIRouter for app.py).

Every state-changing route reads its body through the app's ``checked_body`` (origin,
content type, size and rate checks, as every other state-changing request); errors are
``{"error": code, "message": text}`` (:class:`.errors.RequestError`). The contract is
DESIGN.md section 6; docs/protocol.md documents it with the routes added here:

* ``GET /api/session``: ``{"name"}``, null for a guest (always 200: the page's question);
* ``GET /api/me``: ``{"name", "sessions": [{"id", "created", "seen", "agent", "current"}]}``;
* ``DELETE /api/me/sessions/{id}``: end one session of the account (204);
* ``DELETE /api/me {"password"}``: delete the account (204; its games stay, anonymised);
* ``POST /api/tables/{id}/resume``: a fresh seat token for the account's seat there.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

import cardplay

from .accounts import (
    MAX_NAME,
    Account,
    Accounts,
    cookie_header,
    is_https,
    name_key,
)
from .accountseats import claim_guest_seats, forget_account, parse_proofs, resume_seat
from .errors import RequestError, answer
from .limits import RateLimiter
from .profiles import leaderboard, player_page

__all__ = ["CheckedBody", "account_router"]

CheckedBody = Callable[..., Awaitable["dict[str, Any] | Response"]]


def _not_signed_in() -> JSONResponse:
    return answer(RequestError(401, "not_signed_in", "sign in first"))


AccountAct = Callable[[Request, Account, "dict[str, Any]"], Awaitable[Response]]


def account_router(accounts: Accounts, hub: Any, checked_body: CheckedBody,
                   rate: RateLimiter, client_key: Callable[[Any], str],
                   on_sign: Callable[[Account, str | None], None] | None = None) -> APIRouter:
    """The routes over one server's accounts and hub. ``rate`` bounds a client's account
    requests of every kind together (the sign-in limits come on top). ``on_sign`` is told of
    each sign-up and sign-in with the request's browser cookie (the daily deals claim a
    guest's attempts there)."""
    router = APIRouter()
    db = accounts.db

    def signed_in(request: Request, account: Account, token: str, status: int,
                  linked: list[dict[str, Any]]) -> JSONResponse:
        response = JSONResponse({"name": account.name, "seats": linked}, status_code=status)
        response.headers["Set-Cookie"] = cookie_header(token, is_https(request.scope))
        response.headers["Cache-Control"] = "no-store"
        return response

    async def sign(request: Request, new: bool) -> Response:
        body = await checked_body(request, rate, "account requests")
        if isinstance(body, Response):
            return body
        agent = request.headers.get("user-agent", "")
        try:
            proofs = parse_proofs(body.get("seats"))
            act = accounts.sign_up if new else accounts.sign_in
            account, token = await act(body.get("name"), body.get("password"),
                                       client_key(request.scope), agent)
        except RequestError as e:
            return answer(e)
        linked = claim_guest_seats(hub, db, account, proofs)
        if on_sign is not None:
            on_sign(account, request.cookies.get("cardplay_browser"))
        return signed_in(request, account, token, 201 if new else 200, linked)

    @router.post("/api/accounts")
    async def api_sign_up(request: Request) -> Response:
        return await sign(request, True)

    @router.post("/api/session")
    async def api_sign_in(request: Request) -> Response:
        return await sign(request, False)

    async def as_account(request: Request, act: AccountAct, empty_ok: bool = True) -> Response:
        """A signed-in person's state-changing request: the app's checks of its body, then
        their session (401 without one), then ``act``; a RequestError is the answer."""
        body = await checked_body(request, rate, "account requests", empty_ok=empty_ok)
        if isinstance(body, Response):
            return body
        account = accounts.account_of_scope(request.scope)
        if account is None:
            return _not_signed_in()
        try:
            return await act(request, account, body)
        except RequestError as e:
            return answer(e)

    def signed_out(request: Request) -> Response:
        response = Response(status_code=204)
        response.headers["Set-Cookie"] = cookie_header("", is_https(request.scope), 0)
        return response

    @router.delete("/api/session")
    async def api_sign_out(request: Request) -> Response:
        return await as_account(request, sign_out)

    async def sign_out(request: Request, account: Account, body: dict[str, Any]) -> Response:
        everywhere = request.query_params.get("everywhere", "0")
        if everywhere not in ("0", "1"):
            raise RequestError(400, "bad_request", "everywhere is 0 or 1")
        accounts.sign_out(account, everywhere == "1")
        return signed_out(request)

    # The page asks who is signed in on every load. /api/me answers a guest 401 (the contract),
    # which a browser logs as a failed resource on every page; this asks without failing.
    @router.get("/api/session")
    async def api_session(request: Request) -> Response:
        account = accounts.account_of_scope(request.scope)
        return JSONResponse({"name": None if account is None else account.name},
                            headers={"Cache-Control": "no-store"})

    @router.get("/api/me")
    async def api_me(request: Request) -> Response:
        account = accounts.account_of_scope(request.scope)
        if account is None:
            return _not_signed_in()
        return JSONResponse({"name": account.name, "sessions": accounts.sessions(account)},
                            headers={"Cache-Control": "no-store"})

    @router.delete("/api/me/sessions/{session_id}")
    async def api_end_session(session_id: str, request: Request) -> Response:
        async def end(request: Request, account: Account, body: dict[str, Any]) -> Response:
            accounts.end_session(account, session_id)
            return Response(status_code=204)

        return await as_account(request, end)

    @router.delete("/api/me")
    async def api_delete_account(request: Request) -> Response:
        return await as_account(request, delete_account, empty_ok=False)

    async def delete_account(request: Request, account: Account,
                             body: dict[str, Any]) -> Response:
        tables = await accounts.delete(account, body.get("password"))
        forget_account(hub, tables)
        return signed_out(request)

    @router.post("/api/tables/{table_id}/resume")
    async def api_resume(table_id: str, request: Request) -> Response:
        async def resume(request: Request, account: Account, body: dict[str, Any]) -> Response:
            table, seat, token = resume_seat(hub, account, table_id)
            return JSONResponse({"table": table.id, "seat": seat, "token": token,
                                 "url": f"/t/{table.id}"}, headers={"Cache-Control": "no-store"})

        return await as_account(request, resume)

    @router.get("/api/players/{name}")
    async def api_player(name: str, request: Request) -> Response:
        account = accounts.account_of_scope(request.scope)
        # only the player themself is shown their unfinished tables
        mine = account is not None and name_key(account.name) == name_key(name.strip())
        page = player_page(db, name, mine) if len(name) <= 4 * MAX_NAME else None
        if page is None:
            return answer(RequestError(404, "no_player", "no player has this name"))
        return JSONResponse(page, headers={"Cache-Control": "no-store"})

    @router.get("/api/leaderboard/{game}")
    async def api_leaderboard(game: str, request: Request) -> Response:
        if game not in cardplay.games():
            return answer(RequestError(404, "no_game", "no game has this name"))
        raw = request.query_params.get("players", "2")
        if not (len(raw) == 1 and raw.isascii() and raw.isdigit() and 2 <= int(raw) <= 9):
            return answer(RequestError(400, "bad_request", "players is a number from 2 to 9"))
        return JSONResponse(leaderboard(db, game, int(raw)))

    return router
