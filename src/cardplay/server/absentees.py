"""Seats claimed but never opened: after ``limits.hello_wait`` the cards are dealt without them.

A table deals its first card once every person's seat has its part of the shuffle, which a
seat gives with its first ``hello`` (dealing.py). A seat claimed by someone who then never
opens the table (a paired person who closed the tab, an invite taken and dropped) would hold
the deal for ever, clock or no clock (no clock runs before the first card), and whoever did
come would look at "waiting" with nothing to do and nothing to press.

So once a person is at a table that still waits, a timer of ``hello_wait`` seconds starts;
when it runs out with someone still there, the server draws the part of every claimed seat
that has none (marked ``drawn``, as for a hello without one) and the cards are dealt. The
absent person's seat is then played by a bot while they are away, as anyone's is once away
past the grace period, and is theirs again the moment they open the table: the person who
came gets a game at once, and the one who is late (a slow phone, a tab closed by mistake)
loses nothing they cannot take back. Ending the table or handing out a win would throw away
both people's wait for one missed page load. A free seat (an invite not yet taken) is not
waited for here: nobody claimed it, and its table is open in the lobby.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from . import dealing
from .storage import StoreUnavailable

if TYPE_CHECKING:
    from .hub import Hub
    from .tables import Table

__all__ = ["Absentees"]

log = logging.getLogger("cardplay.server")


class Absentees:
    """The hub's timers of tables that wait for a claimed seat's first hello."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.timers: dict[str, asyncio.TimerHandle] = {}

    @staticmethod
    def absent(table: Table) -> list[int]:
        """The claimed people's seats whose part of the shuffle is still to come."""
        parts = table.stored.contributions
        if not table.waiting or parts is None:
            return []
        return [s.index for s in table.seats
                if s.kind == "human" and s.claimed and parts[s.index] is None]

    def arm(self, table: Table) -> None:
        """Someone is at ``table``: if it waits for a claimed seat, start its timer (once)."""
        if table.id in self.timers or not self.absent(table):
            return
        with contextlib.suppress(RuntimeError):  # no running loop (a test without one)
            self.timers[table.id] = asyncio.get_running_loop().call_later(
                self.hub.limits.hello_wait, self.over, table)

    def over(self, table: Table) -> None:
        """The wait is over: deal without the absent seats, if anyone is still here."""
        self.timers.pop(table.id, None)
        if self.hub.tables.get(table.id) is not table or not table.has_connections():
            return  # left memory, or nobody to play: the next hello starts a new wait
        try:
            if self.hub.broker.shared:  # another process may have taken a part meanwhile
                self.hub.cluster.reload_seats(table)
            for seat in self.absent(table):
                dealing.take_contribution(self.hub, table, seat, None, draw=True)
        except StoreUnavailable as e:  # the store is away: the next hello tries again
            self.hub.outage.noticed(e)
            return
        if not table.waiting:
            log.info("table %s dealt without its absent seats after %g s", table.id,
                     self.hub.limits.hello_wait)
            table.presence_changed()  # everyone here gets the cards
