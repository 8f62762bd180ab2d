"""The HTTP routes of seeks (DESIGN.md 6): ``/api/seeks`` and ``/api/seeks/{id}``.

* ``POST /api/seeks {"game", "options"?, "rated"?, "clock"?, "name"?, "accept"?}`` ->
  ``201 {"seek", "owner", "status"}``; the owner token also comes as an HttpOnly cookie whose
  path is the seek's own URL, so a browser proves ownership without keeping it anywhere;
* ``GET /api/seeks``: the open seeks, newest first (the lobby's list);
* ``GET /api/seeks/{id}``: to its owner only, ``{"status": "waiting"}`` or ``{"status":
  "paired", "table", "seat", "token"}`` (the token once);
* ``DELETE /api/seeks/{id}``: 204.

Errors are ``{"error": code, "message": text}``. The owner proves ownership by the session
cookie (an account's seek), the seek's cookie, or the header ``X-Seek-Owner: <owner token>``
(never a query parameter: URLs are logged).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.types import Scope

from .browserid import browser_of, give_id
from .errors import RequestError, answer
from .limits import RateLimiter
from .pairing import AccountLike, Asker, Pairing

__all__ = ["OWNER_COOKIE", "OWNER_HEADER", "seek_router"]

OWNER_COOKIE = "cardplay_seek"
OWNER_HEADER = "x-seek-owner"
_COOKIE_AGE = 3600  # seconds: a seek is long over by then

CheckedBody = Callable[..., Awaitable["dict[str, Any] | Response"]]
AccountOf = Callable[[Scope], "AccountLike | None"]


def _is_https(request: Request) -> bool:
    return request.url.scheme == "https"


def seek_router(pairing: Pairing, checked_body: CheckedBody, account_of: AccountOf,
                client_key: Callable[[Scope], str]) -> APIRouter:
    """The routes over one :class:`Pairing`. ``checked_body`` is the app's check of a
    state-changing request (origin, content type, size, JSON); ``account_of`` the accounts'
    seam (request scope -> signed-in account or None)."""
    router = APIRouter()
    # the app's own rate check, not the seeks' (Pairing counts seeks itself, per client)
    unlimited = RateLimiter(1e9)

    def asker(request: Request, browser: str | None = None) -> Asker:
        token = request.headers.get(OWNER_HEADER) or request.cookies.get(OWNER_COOKIE)
        if token is not None and len(token) > 100:
            token = None  # no token of ours is that long: not worth hashing
        return Asker(account_of(request.scope), token, client_key(request.scope), browser)

    @router.post("/api/seeks")
    async def create_seek(request: Request) -> Response:
        body = await checked_body(request, unlimited, "seeks")
        if isinstance(body, Response):
            return body
        browser, new_id = browser_of(request)
        try:
            seek, token = pairing.seek(body, asker(request, browser))
        except RequestError as e:
            return answer(e)
        again = pairing.store.get(seek.id)
        status = again.status if again is not None else seek.status
        response = JSONResponse({"seek": seek.id, "owner": token, "status": status,
                                 "game": seek.game, "options": seek.options,
                                 "rated": seek.rated, "clock": seek.clock,
                                 "players": seek.players}, status_code=201)
        response.set_cookie(OWNER_COOKIE, token, max_age=_COOKIE_AGE,
                            path=f"/api/seeks/{seek.id}", httponly=True, samesite="strict",
                            secure=_is_https(request))
        give_id(request, response, new_id)
        return response

    @router.get("/api/seeks")
    async def list_seeks() -> dict[str, Any]:
        return {"seeks": pairing.open_seeks()}

    @router.get("/api/seeks/{seek_id}")
    async def seek_status(seek_id: str, request: Request) -> Response:
        try:
            return JSONResponse(pairing.status(seek_id, asker(request)),
                                headers={"Cache-Control": "no-store"})
        except RequestError as e:
            return answer(e)

    @router.delete("/api/seeks/{seek_id}")
    async def cancel_seek(seek_id: str, request: Request) -> Response:
        body = await checked_body(request, unlimited, "cancellations", empty_ok=True)
        if isinstance(body, Response):
            return body
        try:
            pairing.cancel(seek_id, asker(request))
        except RequestError as e:
            return answer(e)
        return Response(status_code=204)

    return router
