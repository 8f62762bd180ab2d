"""The game's WebSocket endpoint, ``/ws``: the handshake's origin check, the time a socket has
to say hello, the move rate, and each message handed to the hub; every error an error frame.

It is a bare ASGI endpoint (:func:`game_socket`): each frame skips the HTTP middleware stack,
which would otherwise wrap every send of every state.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.types import Receive, Scope, Send

from .hub import Connection, Hub
from .limits import Limits, RateLimiter
from .outage import DOWN
from .protocol import ProtocolError, error_message, parse_client_message
from .security import OriginPolicy
from .storage import StoreUnavailable
from .undo import undo

__all__ = ["client_key", "game_socket", "header"]


def header(scope: Scope, name: bytes) -> str | None:
    """A request's header (the first of that name), as text."""
    for key, value in scope.get("headers") or ():
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def client_key(scope: Scope) -> str:
    """Who a client is, for the rate limits and caps: its address, hashed so that the
    database keeps no addresses."""
    client = scope.get("client")
    host = str(client[0]) if client else "unknown"
    return hashlib.sha256(b"cardplay-client:" + host.encode()).hexdigest()[:16]


def game_socket(hub: Hub, origins: OriginPolicy, limits: Limits, move_rate: RateLimiter
                ) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """The ``/ws`` endpoint of an app over ``hub``."""

    async def ws(scope: Scope, receive: Receive, send: Send) -> None:
        """``/ws`` as a bare ASGI WebSocket: each frame skips the HTTP middleware stack, which
        would otherwise wrap every send of every state."""
        first = await receive()
        if first["type"] != "websocket.connect":
            return
        if not origins.allows(header(scope, b"origin"), header(scope, b"host"),
                              ("http", "https")):
            # closing before the accept answers the handshake with 403
            await send({"type": "websocket.close", "code": 1008})
            return
        await send({"type": "websocket.accept"})

        async def send_text(text: str) -> None:
            await send({"type": "websocket.send", "text": text})

        async def close(code: int) -> None:
            await send({"type": "websocket.close", "code": code})

        conn = Connection(send_text, close)
        client = client_key(scope)
        writer = asyncio.create_task(conn.writer())

        def not_joined_in_time() -> None:
            if conn.table is None and not conn.closed:
                conn.post(error_message("not_joined", f"send hello or watch within "
                                                      f"{limits.join_timeout:g} s"))
                conn.closed = True
                conn.queue.put_nowait(1008)

        join_deadline = asyncio.get_running_loop().call_later(limits.join_timeout,
                                                              not_joined_in_time)
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
                    if msg["type"] in ("move", "undo"):
                        wait = move_rate.allow(client)
                        if wait > 0:
                            raise ProtocolError("rate", f"too many moves from this client: at "
                                                        f"most {move_rate.capacity:g} a minute; "
                                                        f"try again in {wait:.1f} s")
                    dispatch(conn, msg, mid)
                except StoreUnavailable as e:  # whatever needed the database: an answer
                    hub.outage.noticed(e)
                    conn.post(error_message("unavailable", DOWN, mid))
                except ProtocolError as e:
                    conn.post(error_message(e.code, e.message,
                                            e.reply_to if e.reply_to is not None else mid,
                                            e.reason))
                    if e.code == "stale" and conn.table is not None:
                        with contextlib.suppress(StoreUnavailable):  # the error said enough
                            hub.resync(conn)
        finally:
            join_deadline.cancel()
            try:
                hub.leave(conn)
            except StoreUnavailable as e:  # the seat is let go in memory all the same
                hub.outage.noticed(e)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(writer, timeout=1.0)

    def dispatch(conn: Connection, msg: dict[str, Any], mid: Any) -> None:
        kind = msg["type"]
        if kind == "hello":
            hub.hello(conn, msg["table"], msg["token"], mid, msg.get("contribution"))
        elif kind == "watch":
            hub.watch(conn, msg["table"], mid)
        elif kind == "move":
            hub.move(conn, msg["move"], msg["version"], mid)
        elif kind == "resync":
            hub.resync(conn, mid)
        elif kind == "record":
            hub.record(conn, mid)
        elif kind == "hint":
            hub.hint(conn, mid)
        elif kind == "review":
            hub.review(conn, msg["deal"], mid)
        elif kind == "undo":
            undo(hub, conn, msg["version"], mid)
        elif kind == "ping":
            pong: dict[str, Any] = {"type": "pong"}
            if mid is not None:
                pong["reply_to"] = mid
            conn.post(pong)

    return ws
