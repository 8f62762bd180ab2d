"""Bots at the tables: when a bot plays a seat (:meth:`BotDriver.kick`) and its turn.

Bots (the table's bot seats, or a bot holding the seat of a person who is away) choose in a
:class:`~cardplay.server.botpool.BotRunner`, off the event loop, from their seat's view alone;
an answer that comes back after the state moved on is dropped. Only the process holding a
table's lease drives its bots.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from ..engine import derive_seed
from .protocol import ProtocolError
from .tables import Table

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("cardplay.server")


class BotDriver:
    """Starts each bot's turn and plays its answer through the hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def kick(self, table: Table) -> None:
        """Start the bot of the seat to move, if a bot plays it now and none is thinking."""
        if table.is_over or table.stopped is not None or table.waiting:
            return  # (waiting: no card is dealt yet)
        seat = table.match.to_move
        if seat is None:
            return
        hub = self.hub
        if not hub.broker.holds(table.id):
            if hub.cluster.may_drive(table):
                hub.cluster.want_lease(table)  # another process may hold it: then it drives
            return
        if hub.lifecycle.stop_at_limit(table):
            return
        if not table.bot_controls(seat):
            hub.lifecycle.await_grace(table, seat)
            return
        if table.bot_task is not None and not table.bot_task.done() and \
                table.bot_version == table.version:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet (loading before start-up); started later
            return
        table.bot_version = table.version
        task = loop.create_task(self.bot_turn(table, seat, table.version))
        table.bot_task = task
        hub.track(task)

    def kick_all(self) -> None:
        for table in list(self.hub.tables.values()):
            self.kick(table)

    async def bot_turn(self, table: Table, seat: int, version: int) -> None:
        """The one place a bot is asked for a move: from its seat's view, after the hub's
        ``bot_delay``; its answer is played only if the state is still the one it saw."""
        hub = self.hub
        if hub.bot_delay > 0:
            await asyncio.sleep(hub.bot_delay)
        if table.version != version or not table.bot_controls(seat):
            return
        s = table.seats[seat]
        level = s.level
        view = table.match.view(seat).to_dict()
        bot_seed = derive_seed(table.stored.seed, "server-bot", seat)
        if table.stored.seed_source == "daily":
            # a fresh bot each decision, seeded by the position's move number: the day's bots
            # answer the same moves the same way at every attempt (a cached bot's random
            # state would carry what it did at other people's tables)
            bot_seed = derive_seed(table.stored.seed, "daily-bot", seat, version)
        try:
            move = await hub.runner.choose(table.game.name, table.game.options_dict(), level,
                                           bot_seed, view)
        except Exception:
            log.exception("the %s bot of table %s failed; a random move is played",
                          level, table.id)
            move = await hub.runner.choose(table.game.name, table.game.options_dict(),
                                           "random", bot_seed, view)
        if table.version != version or not table.bot_controls(seat) or table.is_over:
            self.kick(table)  # the state moved on (the person came back): nothing to do
            return
        if not hub.broker.holds(table.id):
            return  # the lease went to another process while the bot thought: it drives
        try:
            hub._apply(table, seat, move)
        except ProtocolError as e:
            if e.code != "stale":  # a lost race is normal with several processes
                log.error("bot move %r at table %s refused: %s", move, table.id, e.message)
