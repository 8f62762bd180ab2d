"""What connects several ``cardplay serve`` processes on one database: change notices and leases.

:class:`Broker` is one process alone (the default): nothing to tell anyone, and it drives
every table's bots and timers. :class:`RedisBroker` (``--broker redis://...``) joins the
processes of a site:

* **Notices.** After a process commits a move it publishes ``{"v": version}`` on the table's
  channel; a process that has the table in memory loads the moves after its own version from
  the store, plays them on its match and sends its own clients their own views. The notice
  carries no cards: every process builds each seat's view itself. Seat claims (``seats``),
  a table of bots stopped (``stopped``) and who is connected where (``p``: the seats with a
  connection in that process, repeated every tick, forgotten when the repeats stop) travel
  the same way. Pub/sub may drop a notice (a reconnect); the store stays the truth, and a
  process also catches up whenever a client shows it knows a later version.
* **Leases.** One process at a time drives a table's bots and timers: the holder of the key
  ``{prefix}:lease:{table}`` (``SET NX PX``, renewed every ``ttl / 3`` while held). When the
  holder dies, the key expires and the next tick of another process takes it. A lease is a
  way to avoid doing work twice, not what keeps a table consistent: move rows are keyed
  (table, n), so even two processes that both believed they held a lease could not store two
  different move n.

``redis`` is imported only by :class:`RedisBroker`: plain ``cardplay serve`` needs none of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Broker", "RedisBroker", "open_broker"]

log = logging.getLogger("cardplay.server")

# Both scripts check the owner inside Redis, so a process whose lease expired and went to
# another can neither extend nor delete the new holder's key.
_ACQUIRE = """
local v = redis.call('GET', KEYS[1])
if v == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


_OUTBOX = 10000  # notices waiting to be published, at most


class Broker:
    """One process alone: it holds every lease, and there is nobody to notify."""

    shared = False
    ttl = 3.0

    def __init__(self) -> None:
        # host and pid name the lease holder for a person reading Redis; the random part
        # keeps a restarted process with a reused pid from passing for the dead one
        self.name = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"

    async def start(self, hub: Hub) -> None:
        """Begin listening (and ticking) for ``hub``."""

    async def close(self) -> None:
        """Release what this process holds and stop."""

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Tell the other processes about a change of a table (sent in order, later)."""

    def holds(self, table_id: str) -> bool:
        """Whether this process drives the table's bots and timers now."""
        return True

    async def acquire(self, table_id: str) -> bool:
        """Take (or renew) the table's lease; whether this process holds it now."""
        return True

    async def acquire_many(self, table_ids: list[str]) -> set[str]:
        """:meth:`acquire` for many tables at once; the ones held now."""
        return set(table_ids)

    def heartbeat(self, tables: dict[str, list[int]]) -> None:
        """Tell the others which seats of which tables have a connection here."""

    def release(self, table_id: str) -> None:
        """Give the table's lease up (a match over, a table unloaded)."""


class RedisBroker(Broker):
    """Processes joined by one Redis server: pub/sub notices and leases (see the module)."""

    shared = True

    def __init__(self, url: str, prefix: str = "cardplay", ttl: float = 3.0) -> None:
        super().__init__()
        if ttl <= 0:
            raise ValueError("the lease time must be positive")
        self.url = url
        self.prefix = prefix
        self.ttl = ttl
        # monotonic time until which a lease is surely still ours: counted from before the
        # request was sent, so it ends no later than Redis's own expiry
        self._held: dict[str, float] = {}
        # bounded: with Redis away, notices (hints, the database is the truth) are dropped,
        # oldest first, rather than piling up in memory
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue(maxsize=_OUTBOX)
        self._tasks: list[asyncio.Task[None]] = []
        self._releasing: set[asyncio.Task[None]] = set()
        self._redis: Any = None
        self._hub: Hub | None = None

    def channel(self, table_id: str) -> str:
        return f"{self.prefix}:table:{table_id}"

    def lease_key(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    async def start(self, hub: Hub) -> None:
        import redis.asyncio as aioredis

        self._hub = hub
        # a connect timeout: an unreachable Redis fails a call in seconds, not never
        self._redis = aioredis.from_url(self.url, decode_responses=True,
                                        socket_connect_timeout=2.0)
        self._acquire = self._redis.register_script(_ACQUIRE)
        self._release = self._redis.register_script(_RELEASE)
        await self._redis.ping()  # a wrong URL fails the start, not the first move
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await self._subscribe(pubsub)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(pubsub)),
                       loop.create_task(self._send()), loop.create_task(self._tick())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._redis is not None:
            for table_id in list(self._held):
                with contextlib.suppress(Exception):
                    await self._release(keys=[self.lease_key(table_id)], args=[self.name])
            self._held.clear()
            await self._redis.aclose()
            self._redis = None

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        self._post(self.channel(table_id), json.dumps({**message, "from": self.name}))

    def _post(self, channel: str, data: str) -> None:
        if self._outbox.full():
            self._outbox.get_nowait()
        self._outbox.put_nowait((channel, data))

    def holds(self, table_id: str) -> bool:
        until = self._held.get(table_id)
        return until is not None and time.monotonic() < until

    async def acquire(self, table_id: str) -> bool:
        if self._redis is None:
            return False
        sent = time.monotonic()
        try:
            ok = await self._acquire(keys=[self.lease_key(table_id)],
                                     args=[self.name, int(self.ttl * 1000)])
        except Exception:
            log.exception("taking the lease of table %s failed", table_id)
            ok = 0
        if ok:
            self._held[table_id] = sent + self.ttl * 0.9
        else:
            self._held.pop(table_id, None)
        return bool(ok)

    async def acquire_many(self, table_ids: list[str]) -> set[str]:
        if self._redis is None or not table_ids:
            return set()
        sent = time.monotonic()
        ttl_ms = int(self.ttl * 1000)
        try:
            # one round trip for every table of the tick, not one each
            pipe = self._redis.pipeline(transaction=False)
            for table_id in table_ids:
                await self._acquire(keys=[self.lease_key(table_id)], args=[self.name, ttl_ms],
                                    client=pipe)
            answers = await pipe.execute()
        except Exception:
            log.exception("renewing the leases failed")
            answers = [0] * len(table_ids)
        held = set()
        for table_id, ok in zip(table_ids, answers):
            if ok:
                self._held[table_id] = sent + self.ttl * 0.9
                held.add(table_id)
            else:
                self._held.pop(table_id, None)
        return held

    def heartbeat(self, tables: dict[str, list[int]]) -> None:
        self._post(f"{self.prefix}:presence",
                   json.dumps({"from": self.name, "tables": tables}))

    def release(self, table_id: str) -> None:
        if self._held.pop(table_id, None) is None or self._redis is None:
            return

        async def give_up() -> None:
            with contextlib.suppress(Exception):
                await self._release(keys=[self.lease_key(table_id)], args=[self.name])

        with contextlib.suppress(RuntimeError):  # no loop: the process is ending anyway
            task = asyncio.get_running_loop().create_task(give_up())
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    async def _subscribe(self, pubsub: Any) -> None:
        await pubsub.psubscribe(f"{self.prefix}:table:*")
        await pubsub.subscribe(f"{self.prefix}:presence")

    async def _send(self) -> None:
        while True:
            channel, data = await self._outbox.get()
            try:
                await self._redis.publish(channel, data)
            except Exception:  # the others catch up at their next client's request
                log.exception("publishing on %s failed", channel)

    async def _listen(self, pubsub: Any) -> None:
        assert self._hub is not None
        head = len(self.prefix) + len(":table:")
        while True:
            try:
                async for msg in pubsub.listen():
                    if msg.get("type") not in ("pmessage", "message"):
                        continue
                    try:
                        data = json.loads(msg["data"])
                        if not isinstance(data, dict) or data.get("from") == self.name:
                            continue
                        if msg["type"] == "message":  # the presence channel
                            if isinstance(data.get("tables"), dict):
                                self._hub.remote_presence(str(data["from"]), data["tables"])
                            continue
                        self._hub.remote_change(str(msg["channel"])[head:], data)
                    except Exception:  # one bad notice must not end the listener
                        log.exception("a notice on %s failed", msg.get("channel"))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the Redis subscription failed; subscribing again")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                    await self._subscribe(pubsub)

    async def _tick(self) -> None:
        assert self._hub is not None
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self._hub.lease_tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # a tick must never end the ticker
                log.exception("the lease tick failed")


def open_broker(url: str | None, prefix: str = "cardplay", ttl: float = 3.0) -> Broker:
    """No URL: one process alone; ``redis://`` (or ``rediss://``): :class:`RedisBroker`."""
    if url is None:
        return Broker()
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError("--broker takes a redis:// URL")
    return RedisBroker(url, prefix, ttl)
