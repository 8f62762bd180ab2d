"""The HTTP routes of the daily deals (an APIRouter for app.py; DESIGN.md section 6 names three).

* ``GET /api/daily``: every game's today (``{"day", "games": [...]}``), for the lobby;
* ``GET /api/daily/{game}``: ``{"game", "day", "deals", "commitment", "level", ...}`` and, to
  someone who played, ``attempt``: their table and deals finished;
* ``POST /api/daily/{game}``: ``201 {"table", "seat", "token", "url"}``; ``409 already_played``;
* ``GET /api/daily/{game}/results?day=``: ``{"day", "players": [{"name", "score", "deals",
  "player", "rank"}]}``, ``"seed"`` and ``"salt"`` once the day is over, ``you`` to a player;
* ``GET /api/daily/{game}/month?month=YYYY-MM``: the month's list;
* ``GET /api/daily/{game}/deal/{n}?day=``: deal n compared with the others' (to someone who
  finished it);
* ``GET /api/daily/{game}/records?day=``: every listed attempt's signed record, once the day is
  over (409 before);
* ``GET|POST /api/daily-names``: whether the account's name shows on the daily lists.

A guest is known by the ``cardplay_browser`` cookie, set when missing.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..dailyplan import PLANS, daily_header
from .accountroutes import CheckedBody
from .accounts import Account, Accounts, is_https
from .browserid import BROWSER_COOKIE, browser_key
from .daily import Daily, browser_cookie, check_day, check_game
from .dailycompare import Comparer
from .dailyrank import month_list, player_key, results
from .errors import RequestError, answer, code_of, refusal
from .limits import RateLimiter
from .tables import TableError

__all__ = ["daily_router"]

_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


def _error(e: RequestError | TableError) -> JSONResponse:
    if isinstance(e, TableError):
        return refusal(e.status, e.code or code_of(e.status), str(e))
    return answer(e)


def daily_router(daily: Daily, accounts: Accounts, checked_body: CheckedBody,
                 rate: RateLimiter, client_key: Callable[[Any], str]) -> APIRouter:
    router = APIRouter()
    store = daily.store
    comparer = Comparer(daily.hub, store)

    def who(request: Request) -> tuple[Account | None, str | None]:
        return accounts.account_of_scope(request.scope), request.cookies.get(BROWSER_COOKIE)

    def answer(request: Request, body: Any, status: int = 200) -> JSONResponse:
        """A JSON answer, with a fresh browser id when the request came without one."""
        response = JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
        if browser_key(request.cookies.get(BROWSER_COOKIE)) is None:
            response.headers["Set-Cookie"] = browser_cookie(secrets.token_urlsafe(24),
                                                            is_https(request.scope))
        return response

    def asked_day(request: Request) -> str:
        raw = request.query_params.get("day")
        return daily.today() if raw is None else check_day(raw)

    def own_attempt(game: str, day: str, request: Request) -> Any:
        account, browser = who(request)
        key = browser_key(browser)
        for attempt in store.attempts(game, day):
            if (account is not None and attempt[1] == account.id) or \
                    (key is not None and attempt[0] == "browser:" + key):
                return attempt
        return None

    def game_info(game: str, request: Request) -> dict[str, Any]:
        info = daily.info(game)
        own = own_attempt(game, info["day"], request)
        info["attempt"] = None if own is None else {"table": own[2], "deals": len(own[3]),
                                                    "over": own[4] is not None}
        return info

    @router.get("/api/daily")
    async def api_daily_all(request: Request) -> Response:
        return answer(request, {"day": daily.today(),
                                "games": [game_info(g, request) for g in PLANS]})

    @router.get("/api/daily/{game}")
    async def api_daily(game: str, request: Request) -> Response:
        try:
            return answer(request, game_info(game, request))
        except RequestError as e:
            return _error(e)

    @router.post("/api/daily/{game}")
    async def api_daily_start(game: str, request: Request) -> Response:
        body = await checked_body(request, rate, "daily attempts", empty_ok=True)
        if isinstance(body, Response):
            return body
        account, browser = who(request)
        fresh = None
        if browser is None or browser_key(browser) is None:
            browser = fresh = secrets.token_urlsafe(24)
        try:
            table, seat, token = daily.start(game, account, browser, client_key(request.scope))
        except (RequestError, TableError) as e:
            return _error(e)
        response = JSONResponse({"table": table.id, "seat": seat, "token": token,
                                 "url": f"/t/{table.id}", "commitment": table.stored.commitment},
                                status_code=201, headers={"Cache-Control": "no-store"})
        if fresh is not None:
            response.headers["Set-Cookie"] = browser_cookie(fresh, is_https(request.scope))
        return response

    @router.get("/api/daily/{game}/results")
    async def api_daily_results(game: str, request: Request) -> Response:
        try:
            game = check_game(game)
            day = asked_day(request)
        except RequestError as e:
            return _error(e)
        account, _ = who(request)
        body = results(store, game, day, account.id if account else None,
                       own_attempt(game, day, request))
        row = store.day(game, day)
        if row is not None and daily.is_over(day):
            body["seed"], body["salt"] = row[0], row[1]
        if row is not None:
            body["commitment"] = row[2]
        return answer(request, body)

    @router.get("/api/daily/{game}/month")
    async def api_daily_month(game: str, request: Request) -> Response:
        try:
            game = check_game(game)
        except RequestError as e:
            return _error(e)
        month = request.query_params.get("month") or daily.today()[:7]
        if not _MONTH.match(month):
            return _error(RequestError(400, "bad_month", "'month' is written YYYY-MM"))
        account, _ = who(request)
        return answer(request, month_list(store, game, month, account.id if account else None))

    @router.get("/api/daily/{game}/deal/{deal}")
    async def api_daily_deal(game: str, deal: str, request: Request) -> Response:
        try:
            game = check_game(game)
            day = asked_day(request)
        except RequestError as e:
            return _error(e)
        if not (deal.isascii() and deal.isdigit() and 1 <= int(deal) <= PLANS[game].segments):
            return _error(RequestError(400, "bad_deal", f"the deal is a number from 1 to "
                                                      f"{PLANS[game].segments}"))
        own = own_attempt(game, day, request)
        if own is None or len(own[3]) < int(deal):
            return _error(RequestError(403, "not_played", "a deal is compared with the others' "
                                                        "once you have played it"))
        account, _ = who(request)
        ids = [a[1] for a in store.attempts(game, day) if a[1]]
        names = {a: (n if shown or (account is not None and a == account.id) else None)
                 for a, (n, shown) in store.names(ids).items()}
        return answer(request, await comparer.deal(game, day, int(deal), own, names))

    @router.get("/api/daily/{game}/records")
    async def api_daily_records(game: str, request: Request) -> Response:
        try:
            game = check_game(game)
            day = check_day(request.query_params.get("day"))
        except RequestError as e:
            return _error(e)
        row = store.day(game, day)
        if not daily.is_over(day):
            return _error(RequestError(409, "day_not_over", "the day's records are given once "
                                                          "the day is over (UTC)"))
        if row is None:
            return _error(RequestError(404, "no_day", "nobody played this game that day"))
        signer = daily.hub.signer
        records = []
        for attempt in store.attempts(game, day):
            series = comparer.series(attempt[2]) if attempt[1] else None
            if series is None:
                continue
            rec = daily_header(series.record(), row[1], row[2])
            rec["daily"] = {"day": day, "player": player_key(attempt[1] or "", day)}
            records.append(signer.sign(rec) if signer is not None else rec)
        return answer(request, {"day": day, "game": game, "seed": row[0], "salt": row[1],
                                "commitment": row[2], "records": records})

    @router.get("/api/daily-names")
    async def api_names(request: Request) -> Response:
        account, _ = who(request)
        if account is None:
            return _error(RequestError(401, "not_signed_in", "sign in first"))
        return answer(request, {"shown": store.shown(account.id)})

    @router.post("/api/daily-names")
    async def api_set_names(request: Request) -> Response:
        body = await checked_body(request, rate, "daily settings")
        if isinstance(body, Response):
            return body
        account, _ = who(request)
        if account is None:
            return _error(RequestError(401, "not_signed_in", "sign in first"))
        if set(body) != {"shown"} or not isinstance(body["shown"], bool):
            return _error(RequestError(400, "bad_request", "the body is {\"shown\": true|false}"))
        store.set_shown(account.id, body["shown"])
        return answer(request, {"shown": body["shown"]})

    return router
