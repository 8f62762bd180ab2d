"""The table hub: every table of a process, loading and creating them, joining, and each move.

The hub is authoritative (DESIGN.md 4.10). For each move it checks the connection's seat (proved
by its token at ``hello``) and the state version the client saw, plays the move on the match,
stores it, and only then sends every connection its own view (:mod:`.tables`). Everything here
runs on the event loop's thread, so a move is checked, applied and stored without any other
message in between: of two clients racing for one move, the second finds the version changed
and gets a ``stale`` error.

The hub owns its parts, each in its own module: :mod:`.lifecycle` (caps, status, grace timers,
eviction, closing), :mod:`.botdriver` (the bots' turns), :mod:`.coaching` (hints and reviews)
and :mod:`.cluster` (several processes on one store: catching up, presence, leases), and
:mod:`.outage` (the store down: undoing, settling doubtful moves, recovering). Every move is
applied and stored in :meth:`Hub._apply`; a match ends there (:meth:`Hub._match_finished`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..engine import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    RecordError,
    replay,
)
from . import dealing
from .absentees import Absentees
from .botdriver import BotDriver
from .botpool import BotRunner
from .broker import Broker
from .clocks import UNSET, Clocks
from .cluster import Cluster
from .coaching import Coach
from .connection import Connection
from .creation import MAX_NAME, away_level_for, check_new_table
from .lifecycle import Lifecycle
from .limits import Limits, caps_refusal
from .outage import Outage
from .protocol import ProtocolError
from .security import InputError, clean_text
from .signing import Signer
from .storage import CapRefusal, MoveConflict, Store, StoredTable, StoreUnavailable, seat_status
from .tables import MatchHooks, Seat, Table, TableError, table_of
from .tables import hash_token as _hash  # under its old name, which tests import from here

__all__ = ["MAX_NAME", "Connection", "Hub", "Seat", "Table", "TableError"]

log = logging.getLogger("cardplay.server")

class Hub:
    """Every table of one server process, over one store (shared by the processes of a
    site when ``broker`` joins them)."""

    def __init__(self, storage: Store, runner: BotRunner, *, grace: float = 30.0,
                 bot_delay: float = 0.0, away_level: str = "heuristic",
                 limits: Limits | None = None, broker: Broker | None = None) -> None:
        self.limits = limits if limits is not None else Limits()
        self.storage = storage
        self.broker = broker if broker is not None else Broker()
        self.runner = runner
        self.grace = grace
        self.bot_delay = bot_delay
        self.away_level = away_level
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}
        # the hub's tasks (bots' turns, leases asked for, hints): close() cancels those left
        self.tasks: set[asyncio.Task[None]] = set()
        self.moves_applied = 0
        self.loop: asyncio.AbstractEventLoop | None = None  # set when the app starts
        self.signer: Signer | None = None  # signs finished records (set by the app)
        self.match_hooks = MatchHooks()  # results and ratings: the app sets the accounts' hooks
        # why a finished table's record is still withheld (None: it is not); daily.py's
        self.record_gate: Callable[[Table], str | None] = lambda table: None
        # the hub's parts, each over this hub (one concern per module)
        self.lifecycle = Lifecycle(self)
        self.cluster = Cluster(self)
        self.bots = BotDriver(self)
        self.coach = Coach(self)
        self.outage = Outage(self)
        self.clocks = Clocks(self)  # its rules: the app's (create_app's clock_rules)
        self.absentees = Absentees(self)  # deals without a claimed seat that never comes

    def track(self, task: asyncio.Task[None]) -> None:
        """Keep a task of the hub's until it ends (so that :meth:`close` can cancel it)."""
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # ---- loading and creating

    def load_all(self) -> int:
        return self.lifecycle.load_all()

    def _rebuild(self, stored: StoredTable) -> Table | None:
        try:
            match = replay(stored.record())
        except RecordError as e:
            self.broken[stored.id] = str(e)
            log.error("table %s cannot be rebuilt: %s", stored.id, e)
            return None
        assert isinstance(match, Match)
        table = Table(self, stored, match)
        now = time.monotonic()
        for seat in table.seats:  # nobody is connected here to a table just read
            if seat.claimed:
                seat.away_since = now
        self.tables[stored.id] = table
        if stored.status == "idle":  # someone asked for it again: it is listed again
            self.lifecycle.set_status(table, seat_status(stored.seats))
        elif stored.status == "stopped":
            table.stopped = self.lifecycle.stop_reason(table)
        return table

    def get(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is None and table_id not in self.broken:
            stored = self.storage.load(table_id)
            if stored is not None:
                table = self._rebuild(stored)
        return table

    def create_table(self, game_name: Any, options: Mapping[str, Any] | None,
                     seats: Iterable[Mapping[str, Any]], *, seed: Any = None,
                     claim: bool = True, name: Any = "", client: str | None = None,
                     operator_seed: bool = False, listed: Any = True,
                     contribution: Any = None,
                     clock: Any = UNSET) -> tuple[Table, int | None, str | None]:
        """A new table; with ``claim`` the caller takes the first person's seat and gets its
        token. Seats: ``{"kind": "human"}`` or ``{"kind": "bot", "level": "heuristic"}``.

        The server draws the seed and commits to it; a ``seed`` is accepted only at a table
        where nobody but the creator sits (bots and the creator: practice, replays), since a
        creator who chose the shuffle of a table with other people would know their cards.
        ``client`` (a key of the creator's address) is what the per-client caps count.
        ``operator_seed``: the seed comes from the server's own code (a test, a benchmark),
        not from a client, and is recorded as such. ``listed=False``: an invite-only table,
        never in the lobby's lists (its invite link is the way in). ``contribution``: the
        creator's part of the shuffle (:mod:`.dealing`)."""
        new = check_new_table(game_name, options, seats, seed=seed, claim=claim, name=name,
                              operator_seed=operator_seed, listed=listed,
                              contribution=contribution, away_level=self.away_level)
        game, made, humans, chosen = new.game, new.seats, new.humans, new.seed
        seat_name, given = new.name, new.contribution
        clock_state = self.clocks.initial(clock, game.name, [s.kind for s in made])
        # a first look before any work; the store looks again as it inserts the table
        self.lifecycle.check_caps(client, bots_only=humans == 0)
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables or self.storage.load(table_id) is not None:
            table_id = secrets.token_urlsafe(6)
        token = None
        mine = None
        if claim:
            for s in made:
                if s.kind == "human":
                    token = secrets.token_urlsafe(18)
                    s.token_hash = _hash(token)
                    s.name = seat_name
                    mine = s.index
                    break
        seat_dicts = [s.stored() for s in made]
        source = "server" if chosen is None else "operator" if operator_seed else "creator"
        fair = dealing.new_fairness(game, [s.kind for s in made], None, chosen, source)
        stored = StoredTable(id=table_id, game=game.name, options=game.options_dict(),
                             seed=fair.seed, dealer=None, seats=seat_dicts,
                             created=time.time(), salt=fair.salt, commitment=fair.commitment,
                             seed_source=source, status=seat_status(seat_dicts), creator=client,
                             bots_only=humans == 0, listed=listed, server_seed=fair.server_seed,
                             contributions=fair.contributions, clock=clock_state)
        first = dealing.entry(stored, mine, given, draw=False) if mine is not None else None
        if first is not None and stored.contributions is not None and mine is not None:
            stored.contributions[mine] = first
            dealing.fix_seed(stored)
        # while a person's part is to come, the match is a placeholder nobody is shown
        match = game.match(seed=stored.seed)
        try:
            self.storage.create_table(stored, guard=lambda: caps_refusal(
                self.storage, self.limits, client, humans == 0))
        except CapRefusal as e:
            raise TableError(str(e), status=429, code="too_many_tables") from None
        table = Table(self, stored, match)
        table.seats = made
        self.tables[table_id] = table
        if mine is not None:
            table.seats[mine].away_since = time.monotonic()
        self.kick(table)
        return table, mine, token

    def away_level_for(self, game: Game) -> str:
        return away_level_for(self.away_level, game)

    def join(self, table_id: str, name: Any = "", contribution: Any = None
             ) -> tuple[Table, int, str]:
        """Claim the first free person's seat of a table (an invite link's opener), with the
        seat's part of the shuffle when given."""
        try:
            seat_name = clean_text(name, "name", MAX_NAME)
            given = dealing.check_contribution(contribution)
        except (InputError, ValueError) as e:
            raise TableError(str(e)) from None
        table = self.get(table_id)
        if table is None:
            raise TableError("no table has this id", status=404, code="no_table")
        if table.is_over:
            raise TableError("the match at this table is over", status=409, code="over")
        free = table.open_seats()
        if not free:
            raise TableError("every seat at this table is taken; you may watch", status=409,
                             code="table_full")
        seat = table.seats[free[0]]
        token = secrets.token_urlsafe(18)
        seat_dicts = [s.stored() for s in table.seats]
        seat_dicts[seat.index] = {**seat_dicts[seat.index], "token_hash": _hash(token),
                                  "name": seat_name}
        status = seat_status(seat_dicts)
        # stored first: a store that is down refuses the seat and nothing here changes
        self.storage.update_seats(table.id, seat_dicts, status)
        seat.token_hash = seat_dicts[seat.index]["token_hash"]
        seat.name = seat_name
        seat.away_since = time.monotonic()
        table.stored.seats = seat_dicts
        table.stored.status = status
        dealing.take_contribution(self, table, seat.index, given, draw=False)
        self.broker.publish(table.id, {"seats": 1})
        table.presence_changed()
        return table, seat.index, token

    # ---- connections

    def hello(self, conn: Connection, table_id: str, token: str, reply_to: Any = None,
              contribution: str | None = None) -> None:
        if conn.table is not None:
            raise ProtocolError("already_joined")
        given = dealing.hello_contribution(contribution)
        table = self.get(table_id)
        if table is None:
            raise ProtocolError("no_table", f"no table has the id {table_id!r}")
        seat = table.seat_by_token(token)
        if seat is None and self.broker.shared and table.open_seats():
            # a seat free here may have been claimed through another process a moment ago
            # (a claimed seat's token never changes: a table with none free needs no look)
            self.cluster.reload_seats(table)
            seat = table.seat_by_token(token)
        if seat is None:
            raise ProtocolError("bad_token")
        self.outage.settle(table)
        if self.broker.shared:
            if table.waiting:  # another process may have dealt it
                self.cluster.reload_seats(table)
            self.cluster.catch_up(table, broadcast=False)
        # a seat's first hello brings its part of the shuffle, or has the server draw it
        dealing.take_contribution(self, table, seat.index, given, draw=True)
        conn.table, conn.seat = table, seat.index
        seat.conns.add(conn)
        seat.away_since = None
        table.idle_since = None
        self.clocks.kick(table, quiet=True)  # a turn that starts now shows in the states below
        self.absentees.arm(table)  # a claimed seat's person may never come
        conn.post(table.welcome(seat.index, reply_to))
        table.presence_changed(skip=conn)
        conn.post(table.state(seat.index, True))
        self.cluster.presence_out(table)
        self.kick(table)

    def watch(self, conn: Connection, table_id: str, reply_to: Any = None) -> None:
        if conn.table is not None:
            raise ProtocolError("already_joined")
        table = self.get(table_id)
        if table is None:
            raise ProtocolError("no_table", f"no table has the id {table_id!r}")
        self.outage.settle(table)
        if self.broker.shared:
            self.cluster.catch_up(table, broadcast=False)
        conn.table, conn.seat = table, None
        table.spectators.add(conn)
        table.idle_since = None
        conn.post(table.welcome(None, reply_to))
        conn.post(table.state(None, True))

    def leave(self, conn: Connection) -> None:
        """A connection closed: free its place; a person's seat starts its grace period."""
        table = conn.table
        conn.shutdown()
        if table is None:
            return
        conn.table = None
        if conn.seat is None:
            table.spectators.discard(conn)
            self.lifecycle.maybe_evict(table)
            return
        seat = table.seats[conn.seat]
        seat.conns.discard(conn)
        if not table.connected(seat):
            seat.away_since = time.monotonic()
            if table.grace_timer is not None:
                table.grace_timer.cancel()
                table.grace_timer = None
            self.kick(table)
        if conn.seat not in table.local_seats():
            self.cluster.presence_out(table)  # the other processes stop counting this one's
        table.presence_changed()
        self.lifecycle.maybe_evict(table)

    def resync(self, conn: Connection, reply_to: Any = None) -> None:
        table = table_of(conn)
        self.outage.settle(table)
        if self.broker.shared:  # a notice may have been lost: the store has every move
            self.cluster.catch_up(table)
        conn.post(table.state(conn.seat, True, reply_to=reply_to))

    def record(self, conn: Connection, reply_to: Any = None) -> None:
        table = table_of(conn)
        if not table.is_over:
            raise ProtocolError("not_over")
        hidden = self.record_gate(table)
        if hidden is not None:  # a daily attempt: its seed is the day's, secret until its end
            raise ProtocolError("not_over", hidden)
        msg: dict[str, Any] = {"type": "record", "record": table.record()}
        if reply_to is not None:
            msg["reply_to"] = reply_to
        conn.post(msg)

    # ---- moves

    def move(self, conn: Connection, text: str, version: int, reply_to: Any = None) -> None:
        """A person's move: checked (seat, version, turn, notation, legality), applied, stored,
        then every connection gets its view; the mover's state carries ``reply_to``."""
        table = table_of(conn)
        if conn.seat is None:
            raise ProtocolError("not_seated")
        if self.broker.shared and isinstance(version, int) and version > table.version:
            self.cluster.catch_up(table)  # another process stored moves this one has not heard of
        if table.waiting:
            raise ProtocolError("waiting")
        if table.is_over:
            raise ProtocolError("over")
        self.clocks.may_move(table, conn.seat)  # a forfeited person is told so first
        if table.stopped is not None or self.lifecycle.stop_at_limit(table):
            raise ProtocolError("over", table.stopped)
        if version != table.version:
            raise ProtocolError("stale", f"the state is at version {table.version}, "
                                         f"not {version}")
        seat = conn.seat
        if table.match.to_move != seat:
            raise ProtocolError("out_of_turn", f"it is seat {table.match.to_move}'s turn, "
                                               f"not seat {seat}'s")
        self._apply(table, seat, text, reply=(conn, reply_to))

    def _apply(self, table: Table, seat: int, text: str,
               reply: tuple[Connection, Any] | None = None, timeout: bool = False) -> None:
        if self.outage.settle(table):  # a doubtful move was stored: this one came too late
            raise ProtocolError("stale", f"the state is at version {table.version}")
        match = table.match
        n = table.version
        deals = len(match.deals)
        try:
            match.play(text, seat=seat)
        except InvalidMoveError as e:
            raise ProtocolError("invalid", str(e)) from None
        except IllegalMoveError as e:
            raise ProtocolError("illegal", str(e),
                                reason=e.reason.to_dict() if e.reason is not None else None
                                ) from None
        canonical = match.moves[-1][1]
        progress = (match.scores, len(match.deals)) if len(match.deals) != deals else None
        try:
            # inside the try: a process without the lease reads the stored clock first, and
            # a store that is down then undoes the move like a failed write
            clock = self.clocks.after_move(table, seat, n, by_person=reply is not None,
                                           timeout=timeout, deal_ended=progress is not None)
            self.storage.add_move(table.id, n, seat, canonical, finished=match.is_over,
                                  progress=progress, clock=clock)
        except MoveConflict:
            # another process stored move n first: take the table as stored, with its move
            try:
                self.cluster.reload(table)
            except StoreUnavailable as e:  # gone between the two calls: undo in memory
                raise self.outage.failed_write(table, e) from None
            table.broadcast(skip=reply[0] if reply is not None else None)
            self.kick(table)
            raise ProtocolError("stale", f"another move was made first; the state is at "
                                         f"version {table.version}") from None
        except StoreUnavailable as e:  # the database is down: undo from memory, not from it
            log.warning("storing move %d of table %s failed: %s", n, table.id, e)
            raise self.outage.failed_write(table, e) from None
        except Exception:  # the disk refused: undo from the moves held in memory
            log.exception("storing move %d of table %s failed", n, table.id)
            self.outage.undo(table)
            raise ProtocolError("storage", "the move could not be stored; nothing "
                                           "changed") from None
        table.stored.moves.append((seat, canonical))
        timed = self.clocks.stored(table, clock)  # the table's clock now; its notice
        if match.is_over:
            table.stored.status = "over"
        table.updated = time.time()
        self.moves_applied += 1
        if len(match.deals) != deals:
            table.last_deal_end = table.version
            self.match_hooks.deal_ended(table)
        if match.is_over:
            self._match_finished(table)
        # the move (and the clock) ride along: a process one move behind needs no read
        self.broker.publish(table.id, {"v": table.version, "m": [seat, canonical], **timed})
        table.broadcast(reply)
        self.kick(table)

    def _match_finished(self, table: Table) -> None:
        """Once a match ends, in the process that stored the final move (see MatchHooks)."""
        self.match_hooks.finished(table)

    # ---- the parts' methods that the app, the broker and tests call on the hub

    def kick(self, table: Table) -> None:
        self.bots.kick(table)
        self.clocks.kick(table)

    def kick_all(self) -> None:
        self.bots.kick_all()

    def catch_up(self, table: Table, broadcast: bool = True) -> int:
        return self.cluster.catch_up(table, broadcast)

    def reload_seats(self, table: Table) -> None:
        self.cluster.reload_seats(table)

    def remote_change(self, table_id: str, msg: dict[str, Any]) -> None:
        self.cluster.remote_change(table_id, msg)

    def remote_presence(self, proc: str, tables: dict[str, Any]) -> None:
        self.cluster.remote_presence(proc, tables)

    async def lease_tick(self) -> None:
        await self.cluster.lease_tick()

    def hint(self, conn: Connection, reply_to: Any = None) -> None:
        self.coach.hint(conn, reply_to)

    def review(self, conn: Connection, deal: int, reply_to: Any = None) -> None:
        self.coach.review(conn, deal, reply_to)

    def evict_idle(self, now: float | None = None) -> int:
        return self.lifecycle.evict_idle(now)

    async def sweep_forever(self) -> None:
        await self.lifecycle.sweep_forever()

    def drop_connections(self, table_id: str, code: int = 1012) -> int:
        return self.lifecycle.drop_connections(table_id, code)

    async def close(self) -> None:
        await self.lifecycle.close()
