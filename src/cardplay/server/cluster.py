"""Several processes on one store: catching up, seats and presence from elsewhere, leases.

With several processes on one store (``--database`` and ``--broker``) two clients of one table
may race through different processes. Each stores move n under the key (table, n); the one
whose INSERT fails rebuilds the table from the store (:meth:`Cluster.reload`) and answers
``stale`` with the fresh state. A committed move is announced through the broker, and every
other process with the table in memory catches up from the store (:meth:`Cluster.catch_up`) and
sends its clients their views. Only the holder of a table's lease runs its bots and grace timers
(:meth:`cardplay.server.botdriver.BotDriver.kick`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from ..engine import Match, replay
from .dealing import take_stored
from .storage import StoreUnavailable
from .tables import Seat, Table

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("cardplay.server")


class Cluster:
    """This process's part in a site of several: other processes' moves, seats, presence and
    the leases that say which process drives a table."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.wanted: set[str] = set()  # tables whose lease is being asked for

    def reload(self, table: Table) -> None:
        """Rebuild a table's match from the store (after a lost race or a failed write)."""
        stored = self.hub.storage.load(table.id)
        if stored is None:
            return
        rebuilt = replay(stored.record())
        assert isinstance(rebuilt, Match)
        table.match = rebuilt
        table.stored.moves = stored.moves
        table.stored.status = stored.status
        table.last_deal_end = table.version if rebuilt.deals else -1
        table._state_cache.clear()

    def catch_up(self, table: Table, broadcast: bool = True) -> int:
        """Play the moves another process stored after this one's version; how many. With
        ``broadcast``, this process's clients get their views and the bots are kicked."""
        new = self.hub.storage.moves_after(table.id, table.version)
        if not new:
            return 0
        for seat, text in new:
            try:
                self.play_stored(table, seat, text)
            except ValueError:  # cannot happen with a sound store: start again from it
                log.exception("catching up table %s failed; rebuilding it", table.id)
                self.reload(table)
                break
        if broadcast:
            table.broadcast()
            self.hub.kick(table)
        return len(new)

    def play_stored(self, table: Table, seat: int, text: str) -> None:
        """Play on this process's copy of a table a move another process stored (ValueError,
        and nothing changed, when the match refuses it)."""
        match = table.match
        deals = len(match.deals)
        match.play(text, seat=seat)
        table.stored.moves.append((seat, text))
        if len(match.deals) != deals:
            table.last_deal_end = table.version
        if match.is_over:
            table.stored.status = "over"
        table.updated = time.time()

    def play_notice(self, table: Table, carried: Any) -> bool:
        """Play the move a notice carries (the next one), as :meth:`catch_up` would; False
        when it cannot be (then the store decides)."""
        if not (isinstance(carried, list) and len(carried) == 2 and
                isinstance(carried[0], int) and isinstance(carried[1], str)):
            return False
        seat, text = carried
        try:
            self.play_stored(table, seat, text)
        except ValueError:
            return False
        table.broadcast()
        self.hub.kick(table)
        return True

    def reload_seats(self, table: Table) -> None:
        """Take the seats' claims and names from the store (claimed through another process)."""
        stored = self.hub.storage.load(table.id)
        if stored is None:
            return
        for seat, d in zip(table.seats, stored.seats):
            fresh = Seat.from_stored(seat.index, d)
            seat.token_hash, seat.name, seat.account = fresh.token_hash, fresh.name, \
                fresh.account
            seat.forfeit = seat.forfeit or fresh.forfeit  # a forfeit is never undone
        table.stored.seats = stored.seats
        table.stored.status = stored.status
        take_stored(self.hub, table, stored)  # a contribution taken there deals here too

    def remote_change(self, table_id: str, msg: dict[str, Any]) -> None:
        """A notice from another process about a table (see :mod:`.broker`)."""
        try:
            self._remote_change(table_id, msg)
        except StoreUnavailable as e:  # the notice's moves are read once the store is back
            self.hub.outage.doubtful.add(table_id)
            self.hub.outage.noticed(e)

    def _remote_change(self, table_id: str, msg: dict[str, Any]) -> None:
        table = self.hub.tables.get(table_id)
        if table is None:  # not in memory here: it is read from the store when asked for
            return
        if "c" in msg:  # the clock first: the move's state frame shows it
            self.hub.clocks.remote(table, msg["c"])
            if "v" not in msg:
                table.broadcast()
        if "seats" in msg:
            self.reload_seats(table)
            table.presence_changed()
        if "undo" in msg:  # moves taken back (undo.py): the store has the moves that stay
            self.reload(table)
            table.broadcast()
        version = msg.get("v")
        if isinstance(version, int) and version > table.version:
            played = version == table.version + 1 and self.play_notice(table, msg.get("m"))
            if not played:  # more than one move behind, or no move carried: the store
                self.catch_up(table)
        if "stopped" in msg and table.stopped is None:
            table.stopped = self.hub.lifecycle.stop_reason(table)
            table.stored.status = "stopped"
            table.presence_changed()
        if "p" in msg and isinstance(msg.get("from"), str) and isinstance(msg["p"], list):
            seats = frozenset(i for i in msg["p"] if isinstance(i, int))
            self.set_remote(table, msg["from"], seats)

    def set_remote(self, table: Table, proc: str, seats: frozenset[int] | None) -> None:
        """Another process's connected seats (None: forget them); a seat whose last
        connection went away starts its grace period here too."""
        before = {s.index for s in table.seats if table.connected(s)}
        if seats:
            table.remote[proc] = (seats, time.monotonic() + 2 * self.hub.broker.ttl)
        else:
            table.remote.pop(proc, None)
        after = {s.index for s in table.seats if table.connected(s)}
        if before == after:
            return
        now = time.monotonic()
        for i in before - after:
            if table.seats[i].claimed:
                table.seats[i].away_since = now
        for i in after - before:
            table.seats[i].away_since = None
        table.presence_changed()
        self.hub.kick(table)

    def presence_out(self, table: Table) -> None:
        if self.hub.broker.shared:
            self.hub.broker.publish(table.id, {"p": table.local_seats()})

    def remote_presence(self, proc: str, tables: dict[str, Any]) -> None:
        """Another process's heartbeat: its connected seats of every table it has clients of."""
        for table_id, seats in tables.items():
            table = self.hub.tables.get(table_id)
            if table is not None and isinstance(seats, list):
                self.set_remote(table, proc, frozenset(i for i in seats if isinstance(i, int)))

    @staticmethod
    def may_drive(table: Table) -> bool:
        """Whether this process should hold the table's lease: the lease follows the people,
        so that a bot answers a person from the person's own process (no trip through Redis
        between them). A process without a person of the table gives way to one with them;
        with people on several processes, whichever holds it keeps it."""
        return table.bots_only or not table.remote or bool(table.local_seats())

    def want_lease(self, table: Table) -> None:
        """Ask for the table's lease (once at a time); on getting it, catch up and drive."""
        if table.id in self.wanted:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.wanted.add(table.id)

        async def ask() -> None:
            try:
                got = await self.hub.broker.acquire(table.id)
            finally:
                self.wanted.discard(table.id)
            if got and self.hub.tables.get(table.id) is table:
                self.catch_up(table)
                self.hub.kick(table)

        self.hub.track(loop.create_task(ask()))

    async def lease_tick(self) -> None:
        """Every ``ttl / 3`` seconds with a shared broker: renew the leases held and take
        those of live tables nobody holds (their holder died), in one round trip; send this
        process's presence in one heartbeat; forget other processes' presence that stopped
        being repeated. With the store down, what needs it waits for the next tick."""
        try:
            await self._lease_tick()
        except StoreUnavailable as e:
            self.hub.outage.noticed(e)

    async def _lease_tick(self) -> None:
        now = time.monotonic()
        beat: dict[str, list[int]] = {}
        want: list[Table] = []
        for table in list(self.hub.tables.values()):
            for proc, (_, until) in list(table.remote.items()):
                if until <= now:
                    self.set_remote(table, proc, None)
            seats = table.local_seats()
            if seats:
                beat[table.id] = seats
            if table.is_over or table.stopped is not None:
                self.hub.broker.release(table.id)
            elif self.may_drive(table):
                want.append(table)
            else:  # the people are connected elsewhere: their process drives
                self.hub.broker.release(table.id)
        if beat:
            self.hub.broker.heartbeat(beat)
        had = {t.id for t in want if self.hub.broker.holds(t.id)}
        got = await self.hub.broker.acquire_many([t.id for t in want])
        for table in want:
            if table.id in got and table.id not in had and self.hub.tables.get(table.id) is table:
                self.catch_up(table)
                self.hub.kick(table)
        # tables of bots only need no client to go on: take those that nobody drives
        for table_id in self.hub.storage.live_ids(bots_only=True):
            if table_id in self.hub.tables or table_id in self.hub.broken:
                continue
            if await self.hub.broker.acquire(table_id):
                loaded = self.hub.get(table_id)
                if loaded is not None:
                    self.hub.kick(loaded)
