"""Running the app under uvicorn with the server's limits (``cardplay serve``, tests, benchmarks).

uvicorn enforces most transport limits itself once told: ``limit_concurrency`` (connections and
requests in all, 503 beyond), ``timeout_keep_alive``, ``h11_max_incomplete_event_size`` (the
largest request head) and, for WebSockets, ``ws_max_size``. The WebSocket implementation is set
explicitly to ``websockets-sansio``: its frame parser reads a frame's length from the header
and fails the connection (close code 1009) before buffering any of an oversized payload.

A stop (SIGTERM) closes every connection at once (WebSockets with close code 1012) and waits
at most ``GRACEFUL_STOP`` seconds for them to finish before the app's own shutdown, which gives
the process's table leases back to the other processes: by default uvicorn would wait for the
slowest client for ever.

One limit uvicorn lacks: it waits forever for the head of a connection's first request, so a
client can hold connections open by sending a few bytes and then nothing. :class:`HeadTimeoutH11`
closes a connection whose next request head has not arrived ``header_timeout`` seconds after the
connection opened (or after its previous response).
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .limits import Limits

__all__ = ["HeadTimeoutH11", "uvicorn_config"]

MAX_REQUEST_HEAD = 16384  # bytes of a request line and headers
GRACEFUL_STOP = 1  # seconds a stopping server waits for its connections (uvicorn: whole ones)


class HeadTimeoutH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request head."""

    header_timeout: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_deadline()

    def _arm_head_deadline(self) -> None:
        old = getattr(self, "_head_deadline", None)
        if old is not None:
            old.cancel()
        # the request in progress when the deadline is armed; a new request replaces it
        self._cycle_at_arming = self.cycle
        self._head_deadline: asyncio.TimerHandle | None = self.loop.call_later(
            self.header_timeout, self._head_deadline_passed)

    def _head_deadline_passed(self) -> None:
        self._head_deadline = None
        if self.cycle is self._cycle_at_arming and not self.transport.is_closing():
            self.transport.close()

    def _cancel_head_deadline(self) -> None:
        if getattr(self, "_head_deadline", None) is not None:
            assert self._head_deadline is not None
            self._head_deadline.cancel()
            self._head_deadline = None

    def on_response_complete(self) -> None:
        # armed before the next pipelined request (if any) is parsed, so that one counts
        if not self.transport.is_closing():
            self._arm_head_deadline()
        super().on_response_complete()

    def handle_websocket_upgrade(self, event: Any) -> None:
        # the WebSocket protocol takes the transport over, with its own ping timeouts
        self._cancel_head_deadline()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_deadline()
        super().connection_lost(exc)


def uvicorn_config(app: Any, host: str, port: int, limits: Limits,
                   log_level: str = "warning") -> uvicorn.Config:
    """The uvicorn configuration that applies ``limits`` to the transport."""
    protocol = type("HeadTimeoutH11Configured", (HeadTimeoutH11,),
                    {"header_timeout": float(limits.header_timeout)})
    return uvicorn.Config(
        app, host=host, port=port, log_level=log_level,
        http=protocol, ws="websockets-sansio", ws_per_message_deflate=False,
        ws_max_size=int(limits.ws_max_size),
        ws_ping_interval=float(limits.ws_ping_interval),
        ws_ping_timeout=float(limits.ws_ping_timeout),
        limit_concurrency=int(limits.max_connections),
        timeout_keep_alive=max(1, round(limits.keep_alive_timeout)),
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD,
        timeout_graceful_shutdown=GRACEFUL_STOP,
    )
