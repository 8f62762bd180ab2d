"""A table's life in memory: caps at creation, status, grace timers, stopping, eviction, closing.

A table with nobody connected leaves memory after ``limits.evict_after`` (it stays stored, idle,
out of the lobby, until someone asks for it); a finished one leaves as soon as nobody looks at
it. A table of bots only stops after ``limits.bot_table_moves`` moves. A person who goes away
keeps their seat for ``hub.grace`` seconds before a bot may play it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from .limits import caps_refusal
from .storage import StoreUnavailable
from .tables import Table, TableError

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("cardplay.server")


class Lifecycle:
    """The hub's limits and timers: what may be created, and when a table stops or leaves."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    # ---- loading at start

    def load_all(self) -> int:
        """At start, rebuild only the tables of bots only that are playing (they play on with
        nobody connected, and :attr:`Limits.max_bot_tables` bounds them); a table with people
        is replayed when someone first opens it (:meth:`Hub.get`), the lobby listing it from
        its row until then, so a start does not replay every old table at once. A table with
        people not played within the eviction age becomes idle (out of the lobby)."""
        count = 0
        cutoff = time.time() - self.hub.limits.evict_after
        for stored, last_active in self.hub.storage.live_tables():
            if not stored.bots_only:
                if last_active < cutoff:
                    self.hub.storage.set_status(stored.id, "idle")
                continue
            if self.hub._rebuild(stored) is not None:
                count += 1
        return count

    # ---- caps, status and stopping

    def check_caps(self, client: str | None, bots_only: bool) -> None:
        refusal = caps_refusal(self.hub.storage, self.hub.limits, client, bots_only)
        if refusal is not None:
            raise TableError(refusal, status=429, code="too_many_tables")

    def set_status(self, table: Table, status: str) -> None:
        """Store a table's status (what the lobby lists); with the store down, the memory's
        status stays as it was, so that a later change stores it again."""
        if table.stored.status != status:
            try:
                self.hub.storage.set_status(table.id, status)
            except StoreUnavailable as e:
                self.hub.outage.noticed(e)
                return
            table.stored.status = status

    def move_cap(self, table: Table) -> int:
        limits = self.hub.limits
        return limits.bot_table_moves if table.bots_only else limits.table_moves

    def stop_reason(self, table: Table | None = None) -> str:
        if table is not None and not table.bots_only:
            return (f"a table with people stops after {self.hub.limits.table_moves} moves "
                    f"(this server's limit)")
        return (f"a table of bots only stops after {self.hub.limits.bot_table_moves} moves "
                f"(this server's limit)")

    def stop_at_limit(self, table: Table) -> bool:
        """Stop a table that reached its move limit (True: it stopped now)."""
        if table.stopped is not None or table.is_over or table.version < self.move_cap(table):
            return False
        table.stopped = self.stop_reason(table)
        self.set_status(table, "stopped")
        self.hub.broker.publish(table.id, {"stopped": 1})
        table.presence_changed()
        return True

    # ---- grace periods

    def await_grace(self, table: Table, seat: int) -> None:
        """The seat to move is a person's that no bot plays now: arm its grace timer."""
        s = table.seats[seat]
        if s.kind == "human" and s.claimed and s.away_since is not None and \
                not table.connected(s) and table.grace_timer is None:
            # The person to move is away: look again once when the grace period is over.
            # After it, nothing changes with time: a bot takes the seat only when another
            # person is here, and their hello kicks the table again. So no timer then: a
            # timer re-armed here would spin while nobody is connected.
            wait = s.away_since + self.hub.grace - time.monotonic()
            if wait > 0:
                with contextlib.suppress(RuntimeError):
                    table.grace_timer = asyncio.get_running_loop().call_later(
                        wait + 0.01, self.grace_over, table)

    def grace_over(self, table: Table) -> None:
        table.grace_timer = None
        table.presence_changed()
        self.hub.kick(table)

    # ---- leaving memory

    def maybe_evict(self, table: Table) -> None:
        """A finished match that nobody is looking at leaves memory (it reloads on demand)."""
        if not table.has_connections():
            table.idle_since = time.monotonic()
        if (table.is_over or table.stopped) and not table.has_connections() and \
                (table.bot_task is None or table.bot_task.done()):
            self.unload(table)

    def unload(self, table: Table) -> None:
        self.hub.broker.release(table.id)
        self.hub.clocks.drop(table.id)
        if table.grace_timer is not None:
            table.grace_timer.cancel()
            table.grace_timer = None
        if table.bot_task is not None and not table.bot_task.done():
            table.bot_task.cancel()
        self.hub.tables.pop(table.id, None)

    def evict_idle(self, now: float | None = None) -> int:
        """Unload every table nobody has been connected to for the eviction age (its record
        stays stored; it is idle, out of the lobby, until someone asks for it). A table of
        bots only that is still playing stays: its length is bounded by its own limit."""
        now = time.monotonic() if now is None else now
        age = self.hub.limits.evict_after
        gone = 0
        for table in list(self.hub.tables.values()):
            if table.has_connections() or table.idle_since is None or \
                    now - table.idle_since < age:
                continue
            if table.bots_only and not table.is_over and table.stopped is None:
                continue
            # a person connected to another process is still playing: leave this process's
            # memory, not the lobby
            if not table.is_over and table.stopped is None and not table.remote:
                self.set_status(table, "idle")
            self.unload(table)
            gone += 1
        return gone

    async def sweep_forever(self) -> None:
        """Evict idle tables now and then (a few times per eviction age, at most a minute
        apart): one pass over the tables in memory, no work per table in between."""
        period = max(0.05, min(60.0, self.hub.limits.evict_after / 4))
        while True:
            await asyncio.sleep(period)
            try:
                self.evict_idle()
            except Exception:  # a sweep must never end the sweeper
                log.exception("evicting idle tables failed")

    # ---- closing

    def drop_connections(self, table_id: str, code: int = 1012) -> int:
        """Close every connection of a table from the server's side (a restart, a test)."""
        table = self.hub.tables.get(table_id)
        if table is None:
            return 0
        conns = [c for s in table.seats for c in s.conns] + list(table.spectators)
        for c in conns:
            c.closed = True
            c.queue.put_nowait(code)
        return len(conns)

    async def close(self) -> None:
        for task in list(self.hub.tasks):
            task.cancel()
        for table in self.hub.tables.values():
            self.hub.clocks.drop(table.id)
            if table.grace_timer is not None:
                table.grace_timer.cancel()
            for seat in table.seats:
                for c in list(seat.conns):
                    c.shutdown()
            for c in list(table.spectators):
                c.shutdown()
