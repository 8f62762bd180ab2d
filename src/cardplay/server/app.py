"""The FastAPI application: the lobby's HTTP API, the game WebSocket and the browser UI.

HTTP (JSON):

* ``GET /api/games``: every game with its title, players, options and bot levels;
* ``GET /api/games/{name}/rules?lang=en|ru|de``: the rules of a game for players, as text;
* ``GET /api/texts/{lang}``: the browser's words in one language (``texts.py``), with an ETag;
* ``GET /api/tables``: open tables (a person's seat is free) and tables in play, a page at a
  time (``?list=open|playing&limit=&cursor=``);
* ``POST /api/tables``: a new table ``{"game", "options", "seats", "seed"?, "name"?, "listed"?,
  "clock"?}`` (``listed: false``: invite-only, in no lobby list; ``clock``: see clocks.py);
  the caller takes the first person's seat:
  ``{"table", "seat", "token", "url", "invite", "watch"}``;
* ``POST /api/tables/{id}/join``: an invite link's opener takes a free seat: ``{"seat", "token"}``;
* ``GET /api/health``: ``{"status", "database", "broker"}`` (200 when every dependency is up,
  503 when one is down), for load balancers;
* ``GET /api/tables/{id}``: a table's summary; ``GET /api/tables/{id}/record``: its match record
  once the match is over, signed with the server's key;
* ``GET /api/keys``: the public key that signs records (``signing.py``);
* ``/api/seeks``: seeks and pairing (``pairingroutes.py``, ``pairing.py``).
* ``/api/tutorials``: lessons, "Learn to play" (``tutorials.py``).

WebSocket ``/ws``: the game protocol (``protocol.py``, ``docs/protocol.md``). Pages: ``/`` (the
lobby), ``/t/{id}`` (a seat), ``/join/{id}`` (an invite), ``/watch/{id}`` (a spectator),
``/seek/{id}`` (waiting to be paired),
``/signin``, ``/signup``, ``/account``, ``/players/{name}``, ``/leaderboard/{game}`` all serve
the same static page, which holds no rules: it renders views and sends moves.

Strangers are kept within bounds here (see ``limits.py`` and ``security.py``): state-changing
requests need a JSON body of bounded size and depth, from an allowed origin when they carry
one, within per-client rate limits; WebSockets with an ``Origin`` must come from an allowed
one, and must say hello (or watch) soon after they open.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import logging
import mimetypes
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

import cardplay

from ..i18n import LANGS
from ..wording import rules_text
from .accountdb import AccountDb
from .accountroutes import account_router
from .accounts import Accounts
from .accountseats import AccountHooks, seat_for_account, set_rated
from .botpool import BotRunner, ProcessBotRunner, ThreadBotRunner
from .broker import open_broker
from .catalog import game_catalog
from .clocks import UNSET, ClockError, ClockRules
from .daily import Daily, DailyHooks
from .dailyroutes import daily_router
from .errors import RequestError, answer, code_of, install, refusal
from .gamesocket import client_key, game_socket
from .gamesocket import header as _header
from .health import Health
from .hub import Hub, TableError
from .limits import Limits, RateLimiter
from .lobby import DEFAULT_PAGE, CursorError, lobby, lobby_list
from .outage import DOWN
from .pairing import Pairing
from .pairingroutes import seek_router
from .passwords import PRODUCTION, PasswordConfig, Passwords
from .ratings import rating_key
from .security import InputError, OriginPolicy, parse_json
from .seekstore import open_seek_store
from .settingsroutes import settings_router
from .signing import KEY_FILE, Signer
from .storage import Storage, StoreUnavailable, default_data_dir, open_store
from .texts import texts_body
from .tutorials import tutorial_router

__all__ = ["STATIC", "CardplayApp", "create_app"]

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("cardplay.server")

# The browser's scripts are ES modules, which a browser refuses to run unless they come with a
# JavaScript type. Python guesses types from the system's tables (/etc/mime.types, the Windows
# registry), and some of those say text/plain for .js: the type is set here, whatever they say.
mimetypes.add_type("text/javascript", ".js")


def _digits(text: str, most: int) -> bool:
    return 0 < len(text) <= most and text.isascii() and text.isdigit()


def create_app(data_dir: str | os.PathLike[str] | None = None, *,
               runner: BotRunner | None = None, grace: float = 30.0, bot_delay: float = 0.0,
               durability: str = "normal", limits: Limits | None = None,
               allowed_origins: Iterable[str] = (), database: str | None = None,
               broker: str | None = None, broker_prefix: str = "cardplay",
               lease_ttl: float = 3.0, clock_rules: ClockRules | None = None,
               signing_key: str | os.PathLike[str] | None = None,
               passwords: PasswordConfig = PRODUCTION,
               coach_runner: BotRunner | None = None,
               now: Callable[[], float] = time.time) -> CardplayApp:
    """The app over one data directory. ``runner`` runs the bots (default: worker processes);
    ``grace`` is how long a person may be away before a bot holds the seat; ``bot_delay`` a
    pause before each bot move, so that people can follow the play. ``limits`` bounds what
    clients may do (``Limits()``: the defaults of ``cardplay serve``); ``allowed_origins``
    lists the web origins besides the server's own whose pages may act here (``*``: any).

    ``database`` (a ``postgresql://`` URL) stores the tables in PostgreSQL instead of SQLite
    in ``data_dir``; ``broker`` (a ``redis://`` URL) connects this process with the others on
    that database: each table's changes reach every process, and one process at a time (the
    holder of the table's lease, ``lease_ttl`` seconds unless renewed) drives its bots and
    timers. ``broker_prefix`` names this site's keys and channels in Redis. ``clock_rules``
    bounds the tables' time controls (``ClockRules()``: the defaults, see clocks.py).

    ``signing_key``: the Ed25519 key file that signs finished records (default:
    ``signing-key.pem`` in the data directory, made on first start); the processes of one site
    share one key.

    ``passwords``: Argon2id's cost (production by default; tests pass a cheap one).

    ``coach_runner`` works out hints and reviews, apart from the bots (default: with bots in
    worker processes, ``limits.max_coaching`` worker processes of its own at a lower priority;
    with bots in a thread, as in tests, threads).

    ``now``: the wall clock of the daily deals (UTC days; tests pass one that crosses
    midnight)."""
    limits = limits if limits is not None else Limits()
    origins = OriginPolicy(allowed_origins)
    if broker is not None and database is None:
        raise ValueError("--broker needs --database: processes share their tables through it")
    link = open_broker(broker, broker_prefix, lease_ttl)  # checked before the store opens
    storage = open_store(data_dir, database, durability)
    bot_runner = runner if runner is not None else ProcessBotRunner()
    signer = Signer.open(signing_key if signing_key is not None else
                         Path(data_dir if data_dir is not None else default_data_dir()) / KEY_FILE)
    hub = Hub(storage, bot_runner, grace=grace, bot_delay=bot_delay, limits=limits, broker=link)
    hub.signer = signer
    hub.clocks.rules = clock_rules or ClockRules()
    if coach_runner is None:  # processes beside processes (serve); a thread beside a thread
        coach_runner = ProcessBotRunner(limits.max_coaching, niceness=10) \
            if isinstance(bot_runner, ProcessBotRunner) else ThreadBotRunner(limits.max_coaching)
    hub.coach.runner = coach_runner
    health = Health(storage, link)
    catalog: list[dict[str, Any]] = []
    create_rate = RateLimiter(limits.create_rate)
    join_rate = RateLimiter(limits.join_rate)
    move_rate = RateLimiter(limits.move_rate)
    account_db = AccountDb(lambda: storage.connection, postgres=not isinstance(storage, Storage))
    accounts = Accounts(account_db, Passwords(passwords), limits)
    daily = Daily(hub, account_db, now)
    hub.match_hooks = DailyHooks(AccountHooks(account_db), daily)
    hub.record_gate = daily.record_gate
    pairing = Pairing(
        hub, open_seek_store(storage), limits,
        rating_of=lambda account, game, players: next(
            (mu for key, mu, _, _ in account_db.ratings_of(account)
             if key == rating_key(game, players)), None),
        link_seat=lambda account, table, seat: account_db.link_seat(account, table, seat,
                                                                    time.time()),
        set_rated=lambda table: set_rated(account_db, table))
    pairing.secret = signer.secret("seat-tokens")  # every process derives the same tokens

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        catalog.extend(game_catalog())
        await link.start(hub)
        loaded = hub.load_all()
        log.info("resumed %d tables from %s", loaded, storage.where)
        storage.start_checkpointer()
        await bot_runner.warm()
        # what is loaded now lives as long as the server: keep it out of the collector's
        # full passes, which would otherwise pause every table now and then
        gc.collect()
        gc.freeze()
        hub.kick_all()
        sweeper = asyncio.create_task(hub.sweep_forever())
        pairer = asyncio.create_task(pairing.run_forever())
        try:
            yield
        finally:
            sweeper.cancel()
            pairer.cancel()
            pairing.store.close()
            await hub.close()
            await link.close()
            health.close()
            bot_runner.close()
            coach_runner.close()
            storage.close()

    app = FastAPI(title="cardplay", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.state.storage = storage
    app.state.pairing = pairing
    app.state.signer = signer
    app.state.accounts = accounts
    app.state.daily = daily
    install(app)  # FastAPI's own refusals (404, 405, 422) and anything unforeseen: the shape

    @app.exception_handler(StoreUnavailable)
    async def store_down(request: Request, e: StoreUnavailable) -> Response:
        # any request that needed the database while it is down: answered at once, 503
        hub.outage.noticed(e)
        return refusal(503, "unavailable", DOWN, retry_after=2)

    def body_error(e: TableError) -> JSONResponse:
        return refusal(e.status, e.code or code_of(e.status), str(e))

    def too_large() -> JSONResponse:
        return refusal(413, "too_large", f"the body holds at most {limits.max_body} bytes")

    async def checked_body(request: Request, rate: RateLimiter, what: str,
                           empty_ok: bool = False) -> dict[str, Any] | JSONResponse:
        """The JSON object of a state-changing request, or the answer that refuses it:
        403 from a page of another origin, 415 not JSON (a cross-site form or text/plain
        request cannot send application/json without the browser asking first), 413 too
        large, 400 not acceptable JSON, 429 over the client's rate."""
        scope = request.scope
        if not origins.allows(_header(scope, b"origin"), _header(scope, b"host"),
                              ("http", "https")):
            return refusal(403, "bad_origin", "requests from pages of another origin are not "
                                              "accepted here (see cardplay serve --allow-origin)")
        ctype = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        length = _header(scope, b"content-length")
        if not (empty_ok and ctype == "" and length in (None, "0")) and \
                ctype != "application/json":
            return refusal(415, "unsupported_media_type", "the body must be JSON, sent as "
                                                          "Content-Type: application/json")
        if length is not None and (not _digits(length, 12) or int(length) > limits.max_body):
            return too_large()
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limits.max_body:
                return too_large()
        wait = rate.allow(client_key(scope))
        if wait > 0:
            return refusal(429, "rate_limited", f"too many {what} from this client: at most "
                                                f"{rate.capacity:g} a minute; try again in "
                                                f"{wait:.0f} s", retry_after=wait)
        if not raw and empty_ok:
            return {}
        try:
            body = parse_json(bytes(raw))
        except InputError as e:
            return refusal(400, "bad_json", f"the body is not acceptable JSON: {e}")
        if not isinstance(body, dict):
            return refusal(400, "bad_json", "the body is a JSON object")
        return body

    # HEAD too: some load balancers ask with it (the same status, no body)
    @app.api_route("/api/health", methods=["GET", "HEAD"])
    async def api_health() -> Response:
        status, body = await health.report()
        return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})

    app.include_router(account_router(accounts, hub, checked_body,
                                      RateLimiter(limits.create_rate * 6), client_key,
                                      on_sign=daily.on_sign))
    app.include_router(daily_router(daily, accounts, checked_body, create_rate, client_key))
    app.include_router(settings_router(accounts, checked_body,
                                       RateLimiter(limits.create_rate * 6),
                                       postgres=account_db.postgres))

    @app.get("/api/games")
    async def api_games() -> list[dict[str, Any]]:
        return catalog or game_catalog()

    @app.get("/api/games/{name}/rules")
    async def api_rules(name: str, request: Request) -> Response:
        lang = request.query_params.get("lang", "en")
        if name not in cardplay.games():
            return refusal(404, "no_game", "no game has this name")
        if lang not in LANGS:
            return refusal(400, "bad_request", "lang is one of " + ", ".join(LANGS))
        game = cardplay.load(name)
        options = dataclasses.asdict(game.options)
        return JSONResponse({"game": name, "lang": lang,
                             "text": rules_text(game.declaration, options, lang)})

    @app.get("/api/texts/{lang}")
    async def api_texts(lang: str, request: Request) -> Response:
        if lang not in LANGS:
            return refusal(404, "unknown_language", "no catalogue has this language; "
                                                    "languages: " + ", ".join(LANGS))
        body, etag = texts_body(lang)
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/api/tables")
    async def api_tables(request: Request) -> Response:
        q = request.query_params
        raw_limit = q.get("limit")
        # a number too long or not plain digits is out of range, not an error of int()
        limit = DEFAULT_PAGE if raw_limit is None else \
            int(raw_limit) if _digits(raw_limit, 4) else -1
        try:
            if "list" in q or "cursor" in q:
                tables, nxt = lobby_list(hub, q.get("list", "open"), limit, q.get("cursor"))
                return JSONResponse({"tables": tables, "next": nxt})
            return JSONResponse(lobby(hub, limit))
        except CursorError as e:
            return refusal(400, "bad_request", str(e))

    @app.post("/api/tables")
    async def api_create(request: Request) -> Response:
        body = await checked_body(request, create_rate, "new tables")
        if isinstance(body, Response):
            return body
        account = accounts.account_of_scope(request.scope)
        rated = body.get("rated", False)
        try:
            check_rated(rated, body.get("seats"), account is not None)
        except RequestError as e:
            return answer(e)
        if rated and body.get("clock", UNSET) is None:  # rated play is always timed
            refused = ClockError("a rated table needs a clock; 'clock': null is for casual "
                                 "tables", "clock_required")
            return refusal(400, refused.code, str(refused))
        try:
            table, seat, token = hub.create_table(
                body.get("game"), body.get("options"), body.get("seats") or [],
                seed=body.get("seed"), name=body.get("name"),
                client=client_key(request.scope), listed=body.get("listed", True),
                contribution=body.get("contribution"), clock=body.get("clock", UNSET))
        except TableError as e:
            return body_error(e)
        if rated:
            set_rated(account_db, table)
        if account is not None and seat is not None:
            seat_for_account(hub, account_db, table, seat, account)
        return JSONResponse({"table": table.id, "seat": seat, "token": token,
                             "url": f"/t/{table.id}", "invite": f"/join/{table.id}",
                             "watch": f"/watch/{table.id}", **table.fairness()},
                            status_code=201)

    @app.post("/api/tables/{table_id}/join")
    async def api_join(table_id: str, request: Request) -> Response:
        body = await checked_body(request, join_rate, "seats taken", empty_ok=True)
        if isinstance(body, Response):
            return body
        account = accounts.account_of_scope(request.scope)
        found = hub.get(table_id)
        if found is not None and found.stored.rated and account is None:
            return refusal(401, "not_signed_in", "a rated table seats signed-in people only")
        if found is not None and found.stored.rated and account is not None and \
                any(s.account == account.id for s in found.seats):
            return refusal(409, "already_seated", "you already sit at this rated table")
        try:
            table, seat, token = hub.join(table_id, body.get("name"), body.get("contribution"))
        except TableError as e:
            return body_error(e)
        if account is not None:
            seat_for_account(hub, account_db, table, seat, account)
        return JSONResponse({"table": table.id, "seat": seat, "token": token,
                             "url": f"/t/{table.id}", **table.fairness()})

    app.include_router(seek_router(pairing, checked_body, accounts.account_of_scope, client_key))
    app.include_router(tutorial_router(hub, checked_body, create_rate, client_key))

    def no_table() -> JSONResponse:
        return refusal(404, "no_table", "no table has this id")

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str) -> Response:
        table = hub.get(table_id)
        if table is None:
            return no_table()
        return JSONResponse(table.summary())

    @app.get("/api/keys")
    async def api_keys() -> dict[str, Any]:
        return signer.keys()

    @app.get("/api/tables/{table_id}/record")
    async def api_record(table_id: str) -> Response:
        table = hub.get(table_id)
        if table is None:
            return no_table()
        if not table.is_over and table.stopped is None:
            return refusal(409, "not_over", "the record is given only once the match is over")
        hidden = hub.record_gate(table)
        if hidden is not None:
            return refusal(409, "day_not_over", hidden)
        headers = {"Content-Disposition":
                   f'attachment; filename="cardplay-{table.game.name}-{table.id}.json"'}
        return JSONResponse(table.record(), headers=headers)

    ws = game_socket(hub, origins, limits, move_rate)

    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    @app.get("/join/{table_id}", include_in_schema=False)
    @app.get("/watch/{table_id}", include_in_schema=False)
    @app.get("/seek/{table_id}", include_in_schema=False)
    @app.get("/account", include_in_schema=False)
    @app.get("/signin", include_in_schema=False)
    @app.get("/signup", include_in_schema=False)
    @app.get("/players/{table_id}", include_in_schema=False)
    @app.get("/leaderboard/{table_id}", include_in_schema=False)
    @app.get("/daily", include_in_schema=False)
    @app.get("/daily/{table_id}", include_in_schema=False)
    async def page(table_id: str = "") -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return CardplayApp(app, ws)


def check_rated(rated: Any, seats: Any, signed_in: bool) -> None:
    """A table's ``rated`` flag: true or false; a rated table needs a signed-in creator and
    no bot seat (RequestError 400 or 401)."""
    if not isinstance(rated, bool):
        raise RequestError(400, "bad_request", "'rated' is true or false")
    if not rated:
        return
    if isinstance(seats, list) and any(not isinstance(s, dict) or s.get("kind") != "human"
                                       for s in seats):
        raise RequestError(400, "bot_seat", "a table with a bot seat is never rated")
    if not signed_in:
        raise RequestError(401, "not_signed_in", "sign in to create a rated table")


class CardplayApp:
    """The ASGI application: ``/ws`` goes straight to the game protocol, everything else
    (pages, static files, the HTTP API, the lifespan) to the FastAPI app. ``state`` is the
    FastAPI app's (``state.hub``, ``state.storage``)."""

    def __init__(self, api: FastAPI,
                 ws: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.api = api
        self.state = api.state
        self._ws = ws

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope.get("path") == "/ws":
            await self._ws(scope, receive, send)
        else:
            await self.api(scope, receive, send)
