"""Undo at a casual table against bots: a person takes back their last move in the deal in play.

What it takes back: the seat's latest move in the deal in play and every move after it (the
bots' answers); the table's version goes back to that move's number, as if they were never
played. When: at a table where every other seat is a bot's, without a clock and not rated,
while that deal is in play (never past a deal's end, never once the match is over). It may be
asked again, one move of the person's at a time, back to the deal's first one.

The undone moves are deleted from the stored move list (the version moves back) rather than
kept beside an "undo" entry: the record stays a plain list of the moves that count, which
``cardplay replay`` and ``cardplay verify`` read as they are, with nothing new for them (or any
older verifier) to understand, and a table rebuilt after a restart is the game as it stands.
The bots' answers stay the same: each decision's seed comes from the table's seed, the seat and
the move number (:mod:`.botdriver`), so the same card played again meets the same answers.

With several processes (a broker), only the holder of the table's lease undoes (it alone drives
the bots, so no bot move of another process can land between the delete and the notice); the
others rebuild the table from the store when the notice comes (:mod:`.cluster`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .connection import Connection
from .protocol import ProtocolError

if TYPE_CHECKING:  # tables.py asks undo_point for its states: no import of it at run time
    from .hub import Hub
    from .tables import Table

__all__ = ["undo", "undo_point", "undo_table"]


def undo_table(table: Table, seat: int) -> bool:
    """Whether the table is one where ``seat`` may undo at all: every other seat a bot's, no
    clock, not rated, not a daily deal (whose result is compared with everyone's: a take-back
    would let one person try each line of the same cards), and so no multi-person play."""
    return (table.clock is None and not table.stored.rated
            and table.stored.seed_source != "daily"
            and table.seats[seat].kind == "human"
            and all(s.kind == "bot" for s in table.seats if s.index != seat))


def undo_point(table: Table, seat: int) -> int | None:
    """The move number an undo by ``seat`` goes back to (its latest move in the deal in
    play), or None when there is nothing it may take back now."""
    if table.waiting or table.is_over or table.stopped is not None or \
            not undo_table(table, seat):
        return None
    return table.match.takeback_point(seat)


def undo(hub: Hub, conn: Connection, version: int, reply_to: Any = None) -> None:
    """Take back the connection's seat's last move and the bots' answers after it: checked,
    deleted from the store, the match rebuilt, then every connection gets its view (the
    undoer's state carries ``reply_to``)."""
    table = conn.table
    if table is None:
        raise ProtocolError("not_joined")
    seat = conn.seat
    if seat is None:
        raise ProtocolError("not_seated")
    if table.waiting:
        raise ProtocolError("waiting")
    if table.is_over:
        raise ProtocolError("over")
    if not undo_table(table, seat):
        raise ProtocolError("no_undo")
    if hub.outage.settle(table) or version != table.version:
        raise ProtocolError("stale", f"the state is at version {table.version}, not {version}")
    point = undo_point(table, seat)
    if point is None:
        raise ProtocolError("nothing_to_undo")
    if not hub.broker.holds(table.id):
        # another process drives this table's bots: its next move could land in between
        hub.cluster.want_lease(table)
        raise ProtocolError("unavailable", "the table is being played by another server "
                                           "process just now; try again in a moment")
    hub.storage.remove_moves(table.id, point)  # a store that is down refuses: nothing changed
    del table.stored.moves[point:]
    hub.outage.undo(table)  # the match rebuilt from the moves kept
    if table.bot_task is not None:  # a bot still thinking about a state now gone
        table.bot_task.cancel()
        table.bot_task = None
    table.bot_version = -1
    hub.broker.publish(table.id, {"undo": table.version})
    table.broadcast((conn, reply_to))
    hub.kick(table)
