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

* **Outages.** Redis may go away at any time; the process serves on. The listener subscribes
  again with a bounded exponential backoff (every way round its loop waits: it never spins);
  meanwhile no lease call is made (a lease stays held until the expiry counted when it was
  last confirmed, never beyond), notices wait in a bounded outbox, and tables with clients
  here catch up from the store every tick. Once subscribed again every table in memory
  catches up from the store and the next tick takes the leases again. :meth:`status` is what
  ``GET /api/health`` reports.

``redis`` is imported only by :class:`RedisBroker`: plain ``cardplay serve`` needs none of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
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
_CALL_TIMEOUT = 1.0  # seconds a call to Redis may take (connect, or wait for an answer)
_BACKOFF_FIRST = 0.1  # seconds before the first new try after Redis failed
_BACKOFF_MOST = 5.0  # ... and between two tries at most (lower with a short lease time)
_POLL = 1.0  # seconds between two pings of a quiet subscription
_QUIET = 5.0  # seconds without a word on the subscription before it counts as dead


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

    def status(self) -> str:
        """``ok`` or ``down`` for a shared broker as last seen, ``none`` for one alone."""
        return "none"


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
        # the longest wait between two tries while Redis is away: no longer than a lease
        # lasts (a site that notices a dead process within ttl notices Redis's return as fast)
        self.backoff_cap = min(_BACKOFF_MOST, max(_BACKOFF_FIRST, ttl))
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
        # set while the subscription stands and calls succeed; the sender waits for it, and
        # lease calls are not even tried without it (they would fail: the listener is the
        # one that tries Redis again, with its backoff)
        self._up = asyncio.Event()
        self._broken = False  # a call failed: the listener must subscribe again
        # what says Redis is unreachable rather than that it refused one call (set at start,
        # where redis is imported)
        self._lost_errors: tuple[type[BaseException], ...] = (OSError, TimeoutError)
        self._down_since: float | None = None

    def channel(self, table_id: str) -> str:
        return f"{self.prefix}:table:{table_id}"

    def lease_key(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    def status(self) -> str:
        return "ok" if self._up.is_set() else "down"

    async def start(self, hub: Hub) -> None:
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff
        from redis.exceptions import ConnectionError as LostError
        from redis.exceptions import TimeoutError as SlowError

        self._hub = hub
        self._lost_errors = (LostError, SlowError, OSError, TimeoutError)
        # No retries inside redis-py (its default tries a call 10 more times): with Redis
        # away a call fails at once, and none waits more than _CALL_TIMEOUT for an answer;
        # trying again is the listener's job, with a backoff of its own.
        self._redis = aioredis.from_url(self.url, decode_responses=True,
                                        socket_connect_timeout=_CALL_TIMEOUT,
                                        socket_timeout=_CALL_TIMEOUT,
                                        retry=Retry(NoBackoff(), 0))
        self._acquire = self._redis.register_script(_ACQUIRE)
        self._release = self._redis.register_script(_RELEASE)
        await self._redis.ping()  # a wrong URL fails the start, not the first move
        pubsub = await self._subscribed()
        self._up.set()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(pubsub)),
                       loop.create_task(self._send()), loop.create_task(self._tick())]

    async def close(self) -> None:
        reachable = self._up.is_set()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if self._releasing:  # leases being given back already: let them finish, briefly
            await asyncio.wait(list(self._releasing), timeout=_CALL_TIMEOUT)
        if self._redis is None:
            return
        held = [t for t, until in self._held.items() if until > time.monotonic()]
        self._held.clear()
        self._up.clear()
        if held and not reachable:
            log.warning("Redis is away: the leases of %d tables expire in %g s", len(held),
                        self.ttl)
        elif held:
            # at once, so that another process drives these tables now rather than when
            # the keys expire; bounded, so that a stop during an outage is still prompt
            try:
                await asyncio.wait_for(self._release_all(held), _CALL_TIMEOUT)
                log.info("gave back the leases of %d tables", len(held))
            except Exception as e:
                log.warning("could not give back %d leases (%s); they expire in %g s",
                            len(held), _why(e), self.ttl)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._redis.aclose(), _CALL_TIMEOUT)
        self._redis = None

    async def _release_all(self, table_ids: list[str]) -> None:
        pipe = self._redis.pipeline(transaction=False)
        for table_id in table_ids:
            await self._release(keys=[self.lease_key(table_id)], args=[self.name], client=pipe)
        await pipe.execute()

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        if set(message) == {"p"} and not self._up.is_set():
            return  # presence kept for later would tell of the past (heartbeats resume)
        self._post(self.channel(table_id), json.dumps({**message, "from": self.name}))

    def _post(self, channel: str, data: str) -> None:
        if self._outbox.full():
            self._outbox.get_nowait()
        self._outbox.put_nowait((channel, data))

    def holds(self, table_id: str) -> bool:
        until = self._held.get(table_id)
        return until is not None and time.monotonic() < until

    async def acquire(self, table_id: str) -> bool:
        return table_id in await self.acquire_many([table_id])

    async def acquire_many(self, table_ids: list[str]) -> set[str]:
        if self._redis is None or not table_ids or not self._up.is_set():
            # a lease not renewed stays ours until the time counted when it was taken
            # (holds() says so), never beyond: no other call can confirm it now
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
        except Exception as e:
            self._failed(e, "renewing the leases")
            return set()
        held = set()
        for table_id, ok in zip(table_ids, answers):
            if ok:
                self._held[table_id] = sent + self.ttl * 0.9
                held.add(table_id)
            else:  # another process holds it
                self._held.pop(table_id, None)
        return held

    def heartbeat(self, tables: dict[str, list[int]]) -> None:
        if self._up.is_set():  # a heartbeat kept for later would tell of the past
            self._post(f"{self.prefix}:presence",
                       json.dumps({"from": self.name, "tables": tables}))

    def release(self, table_id: str) -> None:
        if self._held.pop(table_id, None) is None or self._redis is None or \
                not self._up.is_set():  # with Redis away the key expires by itself
            return

        async def give_up() -> None:
            try:
                await self._release(keys=[self.lease_key(table_id)], args=[self.name])
            except Exception as e:
                self._failed(e, f"giving the lease of table {table_id} back")

        with contextlib.suppress(RuntimeError):  # no loop: the process is ending anyway
            task = asyncio.get_running_loop().create_task(give_up())
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    # ---- losing Redis and finding it again

    def _failed(self, error: BaseException, what: str = "") -> None:
        """A call to Redis failed. Unreachable (no connection, no answer in time): it is away
        until the listener subscribes again. Any other failure (Redis answered with an error)
        is this call's alone, logged as such."""
        if what and not isinstance(error, self._lost_errors):
            log.error("%s failed: %s", what, _why(error))
            return
        self._broken = True
        if self._up.is_set():
            self._up.clear()
            self._down_since = time.monotonic()
            log.warning("Redis is unreachable (%s): notices wait, leases are not renewed, "
                        "trying again every %g s at most", _why(error), self.backoff_cap)

    def _back(self) -> None:
        """Subscribed again: notices flow, and what was missed meanwhile is read from the
        store (the truth); the next tick takes the leases again."""
        self._broken = False
        self._up.set()
        assert self._hub is not None
        # the others' heartbeats get their usual time to arrive before what they said
        # before the outage expires
        until = time.monotonic() + 2 * self.ttl
        for table in list(self._hub.tables.values()):
            table.remote = {p: (seats, max(t, until)) for p, (seats, t) in table.remote.items()}
        if self._down_since is not None:
            log.warning("Redis is back after %.1f s; catching the tables up from the store",
                        time.monotonic() - self._down_since)
            self._down_since = None
        self._catch_up(everything=True)

    def _catch_up(self, everything: bool) -> None:
        """Read the moves other processes stored, for the tables with a client here, or for
        every table in memory, with their seat claims (``everything``)."""
        hub = self._hub
        assert hub is not None
        for table in list(hub.tables.values()):
            if not everything and not table.has_connections():
                continue
            try:
                if everything:  # seats claimed elsewhere (a hello here reads them anyway)
                    claims = [(s.token_hash, s.name) for s in table.seats]
                    hub.reload_seats(table)
                    if claims != [(s.token_hash, s.name) for s in table.seats]:
                        table.presence_changed()
                hub.catch_up(table)
            except Exception as e:  # the store may be away too: the next tick tries again
                log.warning("catching table %s up failed: %s", table.id, _why(e))

    async def _subscribed(self) -> Any:
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.psubscribe(f"{self.prefix}:table:*")
            await pubsub.subscribe(f"{self.prefix}:presence")
        except BaseException:
            await self._drop(pubsub)
            raise
        # redis-py may connect a lost subscription again by itself, inside a read, and
        # subscribe again; the notices of the gap would be lost unnoticed. Told of it, the
        # listener starts over as after any failure, catching up from the store.
        pubsub.connection.register_connect_callback(self._reconnected)
        return pubsub

    def _reconnected(self, connection: Any) -> None:
        self._broken = True

    async def _drop(self, pubsub: Any) -> None:
        """Close a subscription, in bounded time whatever state its connection is in."""
        if pubsub.connection is not None:  # it goes back to the pool, for other calls
            pubsub.connection.deregister_connect_callback(self._reconnected)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(pubsub.aclose(), _CALL_TIMEOUT)

    async def _listen(self, pubsub: Any) -> None:
        """Hand notices to the hub. On any failure, subscribe again after a wait that doubles
        from _BACKOFF_FIRST up to ``backoff_cap`` (with jitter, so the processes of a site do
        not all come at once): every way round this loop waits, so it never spins, however
        Redis fails (a subscription that ends quietly counts as a failure too)."""
        delay = _BACKOFF_FIRST
        try:
            while True:
                try:
                    if pubsub is None:
                        pubsub = await self._subscribed()
                        await self._redis.ping()  # the calls' connections reach it too
                        self._back()
                        delay = _BACKOFF_FIRST
                    await self._receive(pubsub)
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    self._failed(e)
                if pubsub is not None:
                    await self._drop(pubsub)
                    pubsub = None
                await asyncio.sleep(delay * random.uniform(0.5, 1.0))
                delay = min(delay * 2, self.backoff_cap)
        finally:
            if pubsub is not None:
                await self._drop(pubsub)

    async def _receive(self, pubsub: Any) -> None:
        """Read notices until the subscription fails. A quiet subscription is pinged every
        _POLL seconds: one whose connection died without a word (a half-open socket, a
        partition) raises when nothing, not even a pong, came for _QUIET seconds."""
        loop = asyncio.get_running_loop()
        heard = pinged = loop.time()
        hasty = 0  # empty answers in a row that came without waiting
        while not self._broken:
            asked = loop.time()
            msg = await pubsub.get_message(timeout=_POLL)
            now = loop.time()
            # an empty answer at once is normal now and then (a subscription's confirmation,
            # a connection's end); many in a row would be a loop that never waits
            hasty = hasty + 1 if msg is None and now - asked < _POLL / 10 else 0
            if hasty > 100:
                raise ConnectionError("the subscription answers without waiting")
            if msg is not None:
                heard = now
                if msg.get("type") in ("pmessage", "message"):
                    self._notice(msg)
            elif now - heard > _QUIET:
                raise ConnectionError(f"nothing came on the subscription for {_QUIET:g} s")
            if now - pinged >= _POLL:
                pinged = now
                await pubsub.ping()
        raise ConnectionError("a call to Redis failed")

    def _notice(self, msg: dict[str, Any]) -> None:
        assert self._hub is not None
        try:
            data = json.loads(msg["data"])
            if not isinstance(data, dict) or data.get("from") == self.name:
                return
            if msg["type"] == "message":  # the presence channel
                if isinstance(data.get("tables"), dict):
                    self._hub.remote_presence(str(data["from"]), data["tables"])
                return
            head = len(self.prefix) + len(":table:")
            self._hub.remote_change(str(msg["channel"])[head:], data)
        except Exception:  # one bad notice must not end the listener
            log.exception("a notice on %s failed", msg.get("channel"))

    async def _send(self) -> None:
        while True:
            channel, data = await self._outbox.get()
            await self._up.wait()  # kept (up to _OUTBOX) while Redis is away
            try:
                await self._redis.publish(channel, data)
            except Exception as e:  # the others catch up when this process is subscribed again
                self._failed(e, f"publishing on {channel}")

    async def _tick(self) -> None:
        assert self._hub is not None
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                if self._up.is_set():
                    await self._hub.lease_tick()
                else:
                    # No notices: the people of a table on several processes still see
                    # each other's moves, read from the store. No lease tick either: no
                    # lease can be renewed, and the other processes' presence, which
                    # cannot be heard now, stays as last heard rather than expiring (a
                    # person would count as away, and a bot take the seat, for an outage).
                    self._catch_up(everything=False)
            except asyncio.CancelledError:
                raise
            except Exception:  # a tick must never end the ticker
                log.exception("the lease tick failed")


def _why(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def open_broker(url: str | None, prefix: str = "cardplay", ttl: float = 3.0) -> Broker:
    """No URL: one process alone; ``redis://`` (or ``rediss://``): :class:`RedisBroker`."""
    if url is None:
        return Broker()
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError("--broker takes a redis:// URL")
    return RedisBroker(url, prefix, ttl)
