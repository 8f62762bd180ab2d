"""One client's WebSocket as the hub sees it: an ordered outbox and where it sits."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .hub import Table

__all__ = ["Connection"]


class Connection:
    """One client's WebSocket as the hub sees it: an ordered outbox and where it sits."""

    def __init__(self, send: Callable[[str], Any], close: Callable[[int], Any] | None = None,
                 max_pending: int = 256) -> None:
        self._send = send
        self._close = close
        # text to send; an int: close the socket with that code; None: stop
        self.queue: asyncio.Queue[str | int | None] = asyncio.Queue()
        self.table: Table | None = None
        self.seat: int | None = None  # None: a spectator (when table is set)
        self.max_pending = max_pending
        self.closed = False

    def post(self, message: Mapping[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already encoded) for this client."""
        if self.closed:
            return
        if self.queue.qsize() >= self.max_pending:  # a client that does not read: let it go
            self.closed = True
            self.queue.put_nowait(1008)
            return
        text = message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
        self.queue.put_nowait(text)

    async def writer(self) -> None:
        """Send queued messages in order until the connection closes."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            if isinstance(text, int):
                if self._close is not None:
                    with contextlib.suppress(Exception):
                        await self._close(text)
                return
            try:
                await self._send(text)
            except Exception:
                self.closed = True
                return

    def shutdown(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            self.queue.put_nowait(None)
