"""The store's outages: undoing a move that was not stored, settling doubtful ones, recovering.

A move is applied in memory before it is stored; when the store cannot take it, the table goes
back to the moves it holds in memory (:meth:`Outage.undo`, never a read of the store, which is
down too). When the connection died after the write was sent, the move may have committed all
the same: the table is *doubtful* and takes no move until a read of the store settles it
(:meth:`Outage.settle`). While the store is down one task per process looks for it with a
growing pause (:meth:`Outage.noticed`), then settles every doubtful table and wakes the bots,
which do not try by themselves in between.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from ..engine import Match, replay
from .protocol import ProtocolError
from .storage import StoreUnavailable
from .tables import Table

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("cardplay.server")

FIRST_PAUSE, LONGEST_PAUSE = 0.25, 4.0  # seconds between looks at a store that is down
# what a person is told (the driver's own words stay in the log)
DOWN = "the database is not reachable just now; nothing changed; try again in a moment"
DOUBTFUL = ("the database went away while your move was being stored, so it may or may not "
            "have been kept; nothing changed here, and the state will show which once the "
            "database is back")


def unavailable(message: str = DOWN) -> ProtocolError:
    return ProtocolError("unavailable", message)


class Outage:
    """Doubtful tables and the one task that waits for the store to come back."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.doubtful: set[str] = set()  # table ids whose last write may have committed
        self.down_since: float | None = None  # monotonic; None while the store answers
        self.watcher: asyncio.Task[None] | None = None

    def undo(self, table: Table) -> None:
        """Take a table back to the moves it holds as stored (in memory): the move just
        played on its match was not stored."""
        rebuilt = replay(table.stored.record())
        assert isinstance(rebuilt, Match)
        table.match = rebuilt
        table.last_deal_end = table.version if rebuilt.deals else -1
        table._state_cache.clear()
        table._info_cache = None

    def failed_write(self, table: Table, e: StoreUnavailable) -> ProtocolError:
        """A move of ``table`` met an outage: undo it, note a doubtful write, start looking
        for the store; the error to answer."""
        self.undo(table)
        if e.ambiguous:
            self.doubtful.add(table.id)
        self.noticed(e)
        return unavailable(DOUBTFUL if e.ambiguous else DOWN)

    def settle(self, table: Table) -> bool:
        """Before a doubtful table takes another move: read the store for the moves after
        its version (the doubtful one, if it committed, and any another process stored) and
        play them. True when moves came in (the caller's version is then stale).
        ``unavailable`` while the store is still down."""
        if table.id not in self.doubtful:
            return False
        try:
            caught = self.hub.cluster.catch_up(table)
        except StoreUnavailable as e:
            self.noticed(e)
            raise unavailable(DOUBTFUL) from None
        self.doubtful.discard(table.id)
        if caught:
            log.info("table %s: %d move(s) found stored after an outage", table.id, caught)
        return caught > 0

    def noticed(self, e: StoreUnavailable) -> None:
        """The store failed a call: from now on one task looks for it until it answers."""
        if self.down_since is None:
            self.down_since = time.monotonic()
            log.warning("the store is unavailable: %s", e)
        if self.watcher is not None and not self.watcher.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (start-up, a test's direct call): the next call tells
            return
        self.watcher = loop.create_task(self.watch())
        self.hub.track(self.watcher)

    async def watch(self) -> None:
        """Look for the store with a growing pause; once it answers, settle every doubtful
        table in memory and start the bots' turns that the outage stopped."""
        pause = FIRST_PAUSE
        while True:
            await asyncio.sleep(pause)
            try:
                self.hub.storage.ping()
                break
            except StoreUnavailable:
                pause = min(LONGEST_PAUSE, pause * 2)
            except Exception:  # not an outage the store knows of: keep looking, and say so
                log.exception("looking for the store failed")
                pause = min(LONGEST_PAUSE, pause * 2)
        took = time.monotonic() - (self.down_since or time.monotonic())
        self.down_since = None
        log.warning("the store is back after %.1f s", took)
        self.recover()

    def recover(self) -> None:
        """The store answers again: settle the doubtful tables, and kick every table (their
        bots stopped at the outage). A table that fails again waits for the next outage's
        end."""
        for table_id in list(self.doubtful):
            table = self.hub.tables.get(table_id)
            if table is None:  # left memory: it is read from the store when asked for
                self.doubtful.discard(table_id)
                continue
            try:
                self.settle(table)
            except ProtocolError:
                return  # down again: noticed() started the next watch
        self.hub.kick_all()
