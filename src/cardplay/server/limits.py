"""The server's limits, in one place, and the per-client rate limiter.

Every limit is a field of :class:`Limits` with its default; ``cardplay serve`` has one option
per field (``--create-rate`` for ``create_rate`` and so on), and docs/protocol.md lists them.
A client is known by its IP address: that is all a server can count without accounts.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .storage import Store

__all__ = ["Limits", "RateLimiter", "caps_refusal"]


@dataclass(frozen=True)
class Limits:
    """Limits of one server. Rates are per client per minute, with a burst of the same size."""

    create_rate: float = 10.0  # tables a client may create per minute
    join_rate: float = 30.0  # seats a client may take per minute (invite links)
    tables_per_client: int = 20  # open tables (not over, not abandoned) created by one client
    max_tables: int = 2000  # open tables in all
    bot_tables_per_client: int = 2  # tables of bots only, playing, created by one client
    max_bot_tables: int = 16  # tables of bots only, playing, in all
    bot_table_moves: int = 5000  # moves after which a table of bots only is stopped
    # moves after which a table with people is stopped: far above any match the longest
    # options allow (:mod:`.bounds`), so that only a client moving for its own sake reaches it
    table_moves: int = 20000
    # moves one client may send per minute (burst of the same size): a person needs far fewer
    move_rate: float = 1200.0
    evict_after: float = 1800.0  # seconds with no connection before a table leaves memory
    max_body: int = 16384  # bytes of an HTTP request body
    ws_max_size: int = 16384  # bytes of a WebSocket frame, refused before it is buffered
    max_connections: int = 1000  # open connections (HTTP and WebSocket) in all
    header_timeout: float = 10.0  # seconds a client may take to send a request's headers
    keep_alive_timeout: float = 5.0  # seconds an idle HTTP keep-alive connection is kept
    join_timeout: float = 30.0  # seconds a WebSocket may stay open before hello or watch
    # seconds a table with a person at it waits for a claimed seat's first hello before it
    # deals without it (absentees.py): a page load on a slow phone, twice over
    hello_wait: float = 60.0
    ws_ping_interval: float = 20.0  # seconds between the server's WebSocket pings
    ws_ping_timeout: float = 20.0  # seconds to answer a ping before the socket is closed
    # hints and reviews worked out at once, in all: the workers of their own (not the bots')
    max_coaching: int = 2
    seek_rate: float = 20.0  # seeks a client may make per minute
    seeks_per_client: int = 4  # waiting seeks of one client (an address may hold several people)
    seeks_per_account: int = 2  # waiting seeks of one account
    seek_expiry: float = 30.0  # seconds a seek waits without its owner polling before it expires
    # sign-in tries: per client, and per account from all clients together (a guesser who
    # spreads over many addresses still meets the second); a refused try costs no hashing
    signin_rate: float = 10.0
    signin_account_rate: float = 5.0
    signup_rate: float = 5.0  # accounts a client may create per minute

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"the limit {f.name} must be a positive number, not {value!r}")

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.names()}


class RateLimiter:
    """Token buckets per client: ``rate`` actions per minute, at most ``rate`` at once.

    Buckets of clients not seen for a while are forgotten (oldest first) so that a stream of
    new addresses cannot grow memory without bound; a forgotten client starts with a full
    bucket, which is what it would have had by then anyway."""

    def __init__(self, rate_per_minute: float, max_clients: int = 10000) -> None:
        self.capacity = float(rate_per_minute)
        self.per_second = rate_per_minute / 60.0
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, client: str, now: float | None = None) -> float:
        """0.0 when the action is allowed (and counted); else the seconds until it would be."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.get(client, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - last) * self.per_second)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            self._buckets.move_to_end(client)
            return (1.0 - tokens) / self.per_second
        self._buckets[client] = (tokens - 1.0, now)
        self._buckets.move_to_end(client)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)
        return 0.0


def caps_refusal(storage: Store, limits: Limits, client: str | None,
                 bots_only: bool) -> str | None:
    """Why a new table would pass a cap (open tables per client and in all, tables of bots
    only playing per client and in all), or None when it would not. Counted in the store over
    indexes, so the check costs the same however many tables there are."""
    from .storage import LIVE

    if storage.count(LIVE) >= limits.max_tables:
        return (f"this server holds its limit of {limits.max_tables} open tables; try again "
                f"when some have finished")
    if client is not None and storage.count(LIVE, creator=client) >= limits.tables_per_client:
        return (f"you have {limits.tables_per_client} open tables, the most one client may "
                f"have; finish or leave some first")
    if not bots_only:
        return None
    if storage.count(LIVE, bots_only=True) >= limits.max_bot_tables:
        return (f"this server plays at most {limits.max_bot_tables} tables of bots only at "
                f"once; try again later")
    if client is not None and \
            storage.count(LIVE, creator=client, bots_only=True) >= limits.bot_tables_per_client:
        return (f"you have {limits.bot_tables_per_client} tables of bots only playing, the "
                f"most one client may have")
    return None
