"""The FastAPI application: the lobby's HTTP API, the game WebSocket and the browser UI.

HTTP (JSON):

* ``GET /api/games``: every game with its title, players, options and bot levels;
* ``GET /api/tables``: open tables (a person's seat is free) and tables in play;
* ``POST /api/tables``: a new table ``{"game", "options", "seats", "seed"?, "name"?}``; the caller
  takes the first person's seat: ``{"table", "seat", "token", "url", "invite", "watch"}``;
* ``POST /api/tables/{id}/join``: an invite link's opener takes a free seat: ``{"seat", "token"}``;
* ``GET /api/tables/{id}``: a table's summary; ``GET /api/tables/{id}/record``: its match record
  once the match is over.

WebSocket ``/ws``: the game protocol (``protocol.py``, ``docs/protocol.md``). Pages: ``/`` (the
lobby), ``/t/{id}`` (a seat), ``/join/{id}`` (an invite), ``/watch/{id}`` (a spectator) all serve
the same static page, which holds no rules: it renders views and sends moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from .botpool import BotRunner, ProcessBotRunner
from .catalog import game_catalog
from .hub import Connection, Hub, TableError
from .protocol import ProtocolError, error_message, parse_client_message
from .storage import Storage, default_data_dir

__all__ = ["STATIC", "CardplayApp", "create_app"]

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("cardplay.server")


def create_app(data_dir: str | os.PathLike[str] | None = None, *,
               runner: BotRunner | None = None, grace: float = 30.0, bot_delay: float = 0.0,
               durability: str = "normal") -> CardplayApp:
    """The app over one data directory. ``runner`` runs the bots (default: worker processes);
    ``grace`` is how long a person may be away before a bot holds the seat; ``bot_delay`` a
    pause before each bot move, so that people can follow the play."""
    storage = Storage(data_dir if data_dir is not None else default_data_dir(), durability)
    bot_runner = runner if runner is not None else ProcessBotRunner()
    hub = Hub(storage, bot_runner, grace=grace, bot_delay=bot_delay)
    catalog: list[dict[str, Any]] = []

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        catalog.extend(game_catalog())
        loaded = hub.load_all()
        log.info("resumed %d tables from %s", loaded, storage.path)
        storage.start_checkpointer()
        await bot_runner.warm()
        # what is loaded now lives as long as the server: keep it out of the collector's
        # full passes, which would otherwise pause every table now and then
        gc.collect()
        gc.freeze()
        hub.kick_all()
        try:
            yield
        finally:
            await hub.close()
            bot_runner.close()
            storage.close()

    app = FastAPI(title="cardplay", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.state.storage = storage

    def body_error(e: TableError) -> JSONResponse:
        return JSONResponse({"error": str(e)}, status_code=e.status)

    @app.get("/api/games")
    async def api_games() -> list[dict[str, Any]]:
        return catalog or game_catalog()

    @app.get("/api/tables")
    async def api_tables() -> dict[str, Any]:
        return hub.lobby()

    @app.post("/api/tables")
    async def api_create(request: Request) -> Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return JSONResponse({"error": "the body is a JSON object"}, status_code=400)
        if not isinstance(body, dict):
            return JSONResponse({"error": "the body is a JSON object"}, status_code=400)
        try:
            table, seat, token = hub.create_table(
                body.get("game"), body.get("options"), body.get("seats") or [],
                seed=body.get("seed"), name=body.get("name") or "")
        except TableError as e:
            return body_error(e)
        return JSONResponse({"table": table.id, "seat": seat, "token": token,
                             "url": f"/t/{table.id}", "invite": f"/join/{table.id}",
                             "watch": f"/watch/{table.id}"}, status_code=201)

    @app.post("/api/tables/{table_id}/join")
    async def api_join(table_id: str, request: Request) -> Response:
        name = ""
        with contextlib.suppress(Exception):
            body = await request.json()
            if isinstance(body, dict) and isinstance(body.get("name"), str):
                name = body["name"]
        try:
            table, seat, token = hub.join(table_id, name)
        except TableError as e:
            return body_error(e)
        return JSONResponse({"table": table.id, "seat": seat, "token": token,
                             "url": f"/t/{table.id}"})

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str) -> dict[str, Any]:
        table = hub.get(table_id)
        if table is None:
            raise HTTPException(404, "no table has this id")
        return table.summary()

    @app.get("/api/tables/{table_id}/record")
    async def api_record(table_id: str) -> Response:
        table = hub.get(table_id)
        if table is None:
            raise HTTPException(404, "no table has this id")
        if not table.is_over:
            raise HTTPException(409, "the record is given only once the match is over")
        headers = {"Content-Disposition":
                   f'attachment; filename="cardplay-{table.game.name}-{table.id}.json"'}
        return JSONResponse(table.match.record(), headers=headers)

    async def ws(receive: Receive, send: Send) -> None:
        """``/ws`` as a bare ASGI WebSocket: each frame skips the HTTP middleware stack, which
        would otherwise wrap every send of every state."""
        first = await receive()
        if first["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})

        async def send_text(text: str) -> None:
            await send({"type": "websocket.send", "text": text})

        async def close(code: int) -> None:
            await send({"type": "websocket.close", "code": code})

        conn = Connection(send_text, close)
        writer = asyncio.create_task(conn.writer())
        try:
            while not conn.closed:
                frame = await receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                mid = None
                try:
                    msg = parse_client_message(text if text is not None else frame.get("bytes"))
                    mid = msg.get("id")
                    dispatch(conn, msg, mid)
                except ProtocolError as e:
                    conn.post(error_message(e.code, e.message, mid))
                    if e.code == "stale" and conn.table is not None:
                        hub.resync(conn)
        finally:
            hub.leave(conn)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(writer, timeout=1.0)

    def dispatch(conn: Connection, msg: dict[str, Any], mid: Any) -> None:
        kind = msg["type"]
        if kind == "hello":
            hub.hello(conn, msg["table"], msg["token"], mid)
        elif kind == "watch":
            hub.watch(conn, msg["table"], mid)
        elif kind == "move":
            hub.move(conn, msg["move"], msg["version"], mid)
        elif kind == "resync":
            hub.resync(conn, mid)
        elif kind == "record":
            hub.record(conn, mid)
        elif kind == "ping":
            pong: dict[str, Any] = {"type": "pong"}
            if mid is not None:
                pong["reply_to"] = mid
            conn.post(pong)

    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    @app.get("/join/{table_id}", include_in_schema=False)
    @app.get("/watch/{table_id}", include_in_schema=False)
    async def page(table_id: str = "") -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return CardplayApp(app, ws)


class CardplayApp:
    """The ASGI application: ``/ws`` goes straight to the game protocol, everything else
    (pages, static files, the HTTP API, the lifespan) to the FastAPI app. ``state`` is the
    FastAPI app's (``state.hub``, ``state.storage``)."""

    def __init__(self, api: FastAPI,
                 ws: Callable[[Receive, Send], Awaitable[None]]) -> None:
        self.api = api
        self.state = api.state
        self._ws = ws

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope.get("path") == "/ws":
            await self._ws(receive, send)
        else:
            await self.api(scope, receive, send)
