"""The state of a process's dependencies (its database and its broker) for ``GET /api/health``.

A load balancer asks often, so an answer costs little and never waits long: the broker's state
is what the broker last saw (no call to Redis), and the database is probed at most once a
``every`` seconds, each probe bounded by ``PROBE_TIMEOUT`` (a database that does not answer in
time is ``down``). PostgreSQL is probed on a connection of the probe's own, in a worker thread:
the store's calls run on the event loop, and a probe there could hold every table up while the
database is away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from .broker import Broker
from .storage import Store

__all__ = ["PROBE_TIMEOUT", "Health"]

log = logging.getLogger("cardplay.server")

PROBE_TIMEOUT = 0.5  # seconds a database probe may take before the database counts as down


class Health:
    """``report()``: the HTTP status and body of ``GET /api/health``."""

    def __init__(self, storage: Store, broker: Broker, every: float = 1.0) -> None:
        self.storage = storage
        self.broker = broker
        self.every = every
        url = getattr(storage, "url", None)  # PostgreSQL's store has one, SQLite's not
        self._url: str | None = url if isinstance(url, str) else None
        self._conn: Any = None  # the probe's own PostgreSQL connection
        self._database = "ok"
        self._checked = float("-inf")
        self._probe: asyncio.Future[bool] | None = None

    async def report(self) -> tuple[int, dict[str, str]]:
        database = await self.database()
        broker = self.broker.status()
        down = database == "down" or broker == "down"
        return (503 if down else 200), {"status": "down" if down else "ok",
                                         "database": database, "broker": broker}

    async def database(self) -> str:
        if time.monotonic() - self._checked < self.every:
            return self._database
        if self._probe is None or self._probe.done():
            # one probe at a time, whoever asks meanwhile waits for the same one; a probe
            # that outlives its timeout goes on in its thread and is not started again
            self._probe = asyncio.ensure_future(self._check())
        try:
            ok = await asyncio.wait_for(asyncio.shield(self._probe), PROBE_TIMEOUT)
        except TimeoutError:
            ok = False
        self._database = "ok" if ok else "down"
        self._checked = time.monotonic()
        return self._database

    async def _check(self) -> bool:
        try:
            if self._url is None:
                self.storage.move_count("")  # SQLite: a file of this process, an index read
            else:
                await asyncio.to_thread(self._ping_postgres, self._url)
            return True
        except Exception as e:
            log.warning("the database probe failed: %s", e)
            return False

    def _ping_postgres(self, url: str) -> None:
        import psycopg

        try:
            if self._conn is None or self._conn.closed or self._conn.broken:
                self._conn = psycopg.connect(url, autocommit=True, connect_timeout=2)
            self._conn.execute("SELECT 1")
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None
