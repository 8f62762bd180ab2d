"""The table hub: every table in play, its seats and connections, and the one driver loop.

The hub is authoritative (DESIGN.md 4.10). For each move it checks the connection's seat (proved
by its token at ``hello``) and the state version the client saw, plays the move on the match,
stores it, and only then sends every connection its own view: a seat's view to a seat, a view
without private cards to a spectator. Bots (the table's bot seats, or a bot holding the seat of a
person who is away) choose in a :class:`~cardplay.server.botpool.BotRunner`, off the event loop,
from their seat's view alone; an answer that comes back after the state moved on is dropped.

Everything here runs on the event loop's thread, so a move is checked, applied and stored without
any other message in between: of two clients racing for one move, the second finds the version
changed and gets a ``stale`` error.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import bots as bots_mod
from ..engine import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    RecordError,
    derive_seed,
    fresh_seed,
    game_class,
    replay,
)
from .botpool import BotRunner
from .protocol import PROTOCOL_VERSION, ProtocolError
from .storage import Storage, StoredTable

__all__ = ["Connection", "Hub", "Seat", "Table", "TableError"]

log = logging.getLogger("cardplay.server")


class TableError(ValueError):
    """A request about tables that cannot be met (bad game, options, seats, no free seat)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Connection:
    """One client's WebSocket as the hub sees it: an ordered outbox and where it sits."""

    def __init__(self, send: Callable[[str], Any], close: Callable[[int], Any] | None = None,
                 max_pending: int = 256) -> None:
        self._send = send
        self._close = close
        # text to send; an int: close the socket with that code; None: stop
        self.queue: asyncio.Queue[str | int | None] = asyncio.Queue()
        self.table: Table | None = None
        self.seat: int | None = None  # None: a spectator (when table is set)
        self.max_pending = max_pending
        self.closed = False

    def post(self, message: Mapping[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already encoded) for this client."""
        if self.closed:
            return
        if self.queue.qsize() >= self.max_pending:  # a client that does not read: let it go
            self.closed = True
            self.queue.put_nowait(1008)
            return
        text = message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
        self.queue.put_nowait(text)

    async def writer(self) -> None:
        """Send queued messages in order until the connection closes."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            if isinstance(text, int):
                if self._close is not None:
                    with contextlib.suppress(Exception):
                        await self._close(text)
                return
            try:
                await self._send(text)
            except Exception:
                self.closed = True
                return

    def shutdown(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            self.queue.put_nowait(None)


@dataclass
class Seat:
    """One seat of a table: a person's (claimed with a token) or a bot's."""

    index: int
    kind: str  # "human" or "bot"
    level: str  # the bot's level; for a person's seat, the level of the bot that holds it
    name: str = ""
    token_hash: str | None = None  # set once a person claims the seat
    conns: set[Connection] = field(default_factory=set)
    away_since: float | None = None

    @property
    def claimed(self) -> bool:
        return self.token_hash is not None

    def stored(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "name": self.name,
                "token_hash": self.token_hash}

    @classmethod
    def from_stored(cls, index: int, d: Mapping[str, Any]) -> Seat:
        return cls(index=index, kind=str(d["kind"]), level=str(d.get("level") or "random"),
                   name=str(d.get("name") or ""), token_hash=d.get("token_hash"))


class Table:
    """A match in play with its seats, connections and the bookkeeping of its bots."""

    def __init__(self, hub: Hub, stored: StoredTable, match: Match) -> None:
        self.hub = hub
        self.id = stored.id
        self.stored = stored
        self.match = match
        self.game: Game = match.game
        self.seats = [Seat.from_stored(i, s) for i, s in enumerate(stored.seats)]
        self.spectators: set[Connection] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.bot_version = -1
        self.grace_timer: asyncio.TimerHandle | None = None
        self.last_deal_end = -1  # version at which the latest deal ended
        self.created = stored.created
        self.updated = time.time()
        self._state_cache: dict[int | None, tuple[int, dict[str, Any]]] = {}
        self._info_cache: tuple[int, dict[str, Any]] | None = None
        if match.deals:
            self.last_deal_end = self.version

    @property
    def version(self) -> int:
        """The state version: the number of moves played in the match."""
        return len(self.match.moves)

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    def open_seats(self) -> list[int]:
        return [s.index for s in self.seats if s.kind == "human" and not s.claimed]

    def connected(self, seat: Seat) -> bool:
        return any(not c.closed for c in seat.conns)

    def bot_controls(self, index: int, now: float | None = None) -> bool:
        """Whether a bot plays this seat now: a bot's seat, or a person's seat whose person has
        been away longer than the grace period while another person at the table is here."""
        seat = self.seats[index]
        if seat.kind == "bot":
            return True
        if not seat.claimed or self.connected(seat) or seat.away_since is None:
            return False
        now = time.monotonic() if now is None else now
        if now - seat.away_since < self.hub.grace:
            return False
        return any(s.kind == "human" and s.index != index and self.connected(s)
                   for s in self.seats)

    def seat_info(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        return [{"seat": s.index, "kind": s.kind, "name": s.name,
                 "level": s.level if s.kind == "bot" else None,
                 "claimed": s.kind == "bot" or s.claimed,
                 "connected": s.kind == "bot" or self.connected(s),
                 "bot_playing": s.kind == "human" and self.bot_controls(s.index, now)}
                for s in self.seats]

    def summary(self) -> dict[str, Any]:
        """What the lobby lists about a table."""
        return {"id": self.id, "game": self.game.name, "title": dict(type(self.game).title),
                "options": self.game.options_dict(), "players": self.game.players,
                "seats": self.seat_info(), "open_seats": self.open_seats(),
                "version": self.version, "deal_number": len(self.match.deals) + 1,
                "is_over": self.is_over, "scores": self.match.scores,
                "created": self.created, "spectators": len(self.spectators)}

    # ---- views

    def spectator_view(self, deal_views: list[dict[str, Any]]) -> dict[str, Any]:
        """A view that holds no private card: what every seat's view agrees on."""
        first = deal_views[0]
        public = {k: v for k, v in first["public"].items()
                  if all(k in d["public"] and d["public"][k] == v for d in deal_views[1:])}
        view = dict(first)
        view.update(seat=None, hand=[], legal_moves=[], public=public)
        if first["is_over"]:  # a finished deal's views may show every card
            view["hands"] = [d["hand"] for d in deal_views]
        return view

    def match_info(self) -> dict[str, Any]:
        """The ``match`` part of a view (the same for every seat), built once per version."""
        cached = self._info_cache
        if cached is not None and cached[0] == self.version:
            return cached[1]
        m = self.match
        over = m.is_over
        info = {"scores": m.scores, "deal_number": len(m.deals) + (0 if over else 1),
                "results": [d.result for d in m.deals], "dealers": [d.dealer for d in m.deals],
                "is_over": over, "winners": m.winners}
        self._info_cache = (self.version, info)
        return info

    def seat_view(self, seat: int) -> dict[str, Any]:
        """``match.view(seat).to_dict()``, built without the engine's freeze-and-thaw round
        trip (a test holds the two equal for every game)."""
        v = self.match.deal.view(seat)
        over = self.match.is_over
        return {
            "game": v.game, "seat": v.seat, "players": v.players, "dealer": v.dealer,
            "to_move": None if over else v.to_move,
            "hand": [str(c) for c in v.hand],
            "legal_moves": [] if over else [m.text for m in v.legal_moves],
            "public": dict(v.public),
            "points": list(v.points), "is_over": v.is_over,
            "result": list(v.result) if v.result is not None else None,
            "history": [[s, t] for s, t in v.history],
            "options": dict(v.options),
            "match": self.match_info(),
        }

    def views(self, seat: int | None, previous: bool = True
              ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The view of the deal in play and (with ``previous``) of the last finished deal, for a
        seat or (None) a spectator."""
        n = self.game.players
        prev_deal = self.match.deals[-1] if self.match.deals and previous else None
        if seat is not None:
            cur = self.seat_view(seat)
            prev = prev_deal.view(seat).to_dict() if prev_deal is not None else None
            return cur, prev
        all_cur = [self.seat_view(s) for s in range(n)]
        cur = self.spectator_view(all_cur)
        prev = None
        if prev_deal is not None:
            prev = self.spectator_view([prev_deal.view(s).to_dict() for s in range(n)])
        return cur, prev

    def state(self, seat: int | None, full: bool, reply_to: Any = None) -> dict[str, Any]:
        """The ``state`` message for a seat (or a spectator): the view and the table around it.

        ``previous`` (the last finished deal's view) is sent on a full resync and with the
        move that ended a deal; a client keeps it until the next one."""
        version = self.version
        cached = self._state_cache.get(seat)
        if cached is not None and cached[0] == version and reply_to is None and not full:
            return cached[1]
        with_previous = full or self.last_deal_end == version
        cur, prev = self.views(seat, with_previous)
        last = None
        if self.match.moves:
            s, m = self.match.moves[-1]
            last = {"seat": s, "move": m}
        msg: dict[str, Any] = {
            "type": "state", "table": self.id, "version": version, "seat": seat,
            "game": self.game.name, "full": full, "view": cur, "seats": self.seat_info(),
            "last": last, "is_over": self.is_over, "winners": self.match.winners,
        }
        if with_previous:
            msg["previous"] = prev
        if reply_to is not None:
            msg["reply_to"] = reply_to
        else:
            self._state_cache[seat] = (version, msg)
        return msg

    def broadcast(self, reply: tuple[Connection, Any] | None = None,
                  skip: Connection | None = None) -> None:
        """Send every connection (but ``skip``) its own view of the current state."""
        self._state_cache.clear()
        encoded: dict[int | None, str] = {}
        for seat in self.seats:
            for conn in list(seat.conns):
                if conn is skip:
                    continue
                if reply is not None and conn is reply[0]:
                    conn.post(self.state(seat.index, False, reply_to=reply[1]))
                    continue
                text = encoded.get(seat.index)
                if text is None:
                    text = encoded[seat.index] = json.dumps(self.state(seat.index, False),
                                                            ensure_ascii=False)
                conn.post(text)
        if self.spectators:
            text = json.dumps(self.state(None, False), ensure_ascii=False)
            for conn in list(self.spectators):
                conn.post(text)

    def presence_changed(self, skip: Connection | None = None) -> None:
        """Seats came or went: everyone gets the state again (the seats list changed)."""
        self.broadcast(skip=skip)


class Hub:
    """Every table of one server, over one :class:`Storage`."""

    def __init__(self, storage: Storage, runner: BotRunner, *, grace: float = 30.0,
                 bot_delay: float = 0.0, away_level: str = "heuristic") -> None:
        self.storage = storage
        self.runner = runner
        self.grace = grace
        self.bot_delay = bot_delay
        self.away_level = away_level
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}
        self._bot_tasks: set[asyncio.Task[None]] = set()
        self.moves_applied = 0
        self.loop: asyncio.AbstractEventLoop | None = None  # set when the app starts

    # ---- loading and creating

    def load_all(self) -> int:
        """Rebuild every unfinished stored table (finished ones load when asked for)."""
        count = 0
        for stored in self.storage.all_tables():
            if stored.finished is not None:
                continue
            if self._rebuild(stored) is not None:
                count += 1
        now = time.monotonic()
        for table in self.tables.values():  # nobody is connected after a restart
            for seat in table.seats:
                if seat.claimed:
                    seat.away_since = now
        return count

    def _rebuild(self, stored: StoredTable) -> Table | None:
        try:
            match = replay(stored.record())
        except RecordError as e:
            self.broken[stored.id] = str(e)
            log.error("table %s cannot be rebuilt: %s", stored.id, e)
            return None
        assert isinstance(match, Match)
        table = Table(self, stored, match)
        self.tables[stored.id] = table
        return table

    def get(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is None and table_id not in self.broken:
            stored = self.storage.load(table_id)
            if stored is not None:
                table = self._rebuild(stored)
        return table

    def create_table(self, game_name: Any, options: Mapping[str, Any] | None,
                     seats: Iterable[Mapping[str, Any]], *, seed: int | None = None,
                     claim: bool = True, name: Any = "") -> tuple[Table, int | None, str | None]:
        """A new table; with ``claim`` the caller takes the first person's seat and gets its
        token. Seats: ``{"kind": "human"}`` or ``{"kind": "bot", "level": "heuristic"}``."""
        if not isinstance(game_name, str):
            raise TableError("'game' is a game's name")
        try:
            cls = game_class(game_name)
        except ValueError as e:
            raise TableError(str(e)) from None
        if not isinstance(options or {}, Mapping):
            raise TableError("'options' is an object of option names and values")
        opts = dict(options or {})
        try:
            game = cls(**opts)
        except (ValueError, TypeError) as e:
            raise TableError(str(e)) from None
        if not isinstance(seats, (list, tuple)):
            raise TableError("'seats' is a list of seats")
        seat_list = list(seats)
        if len(seat_list) != game.players:
            raise TableError(f"{game.name} with these options has {game.players} seats; "
                             f"{len(seat_list)} were given")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or seed < 0):
            raise TableError("'seed' is a whole number of at least 0")
        match_seed = fresh_seed() if seed is None else seed
        made: list[Seat] = []
        for i, spec in enumerate(seat_list):
            if not isinstance(spec, Mapping):
                raise TableError("each seat is an object such as {\"kind\": \"bot\", "
                                 "\"level\": \"random\"}")
            kind = spec.get("kind")
            if kind == "human":
                made.append(Seat(i, "human", self.away_level_for(game)))
            elif kind == "bot":
                level = spec.get("level") or "random"
                if not isinstance(level, str):
                    raise TableError("a bot's level is a name")
                try:
                    bots_mod.load(level, game, seed=0)
                except ValueError as e:
                    raise TableError(str(e)) from None
                made.append(Seat(i, "bot", level, name=f"{level} bot"))
            else:
                raise TableError("a seat's kind is 'human' or 'bot'")
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
                    s.name = name.strip()[:40] if isinstance(name, str) else ""
                    mine = s.index
                    break
        stored = StoredTable(id=table_id, game=game.name, options=game.options_dict(),
                             seed=match_seed, dealer=None, seats=[s.stored() for s in made],
                             created=time.time())
        match = game.match(seed=match_seed)
        self.storage.create_table(stored)
        table = Table(self, stored, match)
        table.seats = made
        self.tables[table_id] = table
        if mine is not None:
            table.seats[mine].away_since = time.monotonic()
        self.kick(table)
        return table, mine, token

    def away_level_for(self, game: Game) -> str:
        try:
            bots_mod.load(self.away_level, game, seed=0)
        except ValueError:
            return "random"
        return self.away_level

    def join(self, table_id: str, name: str = "") -> tuple[Table, int, str]:
        """Claim the first free person's seat of a table (an invite link's opener)."""
        table = self.get(table_id)
        if table is None:
            raise TableError("no table has this id", status=404)
        if table.is_over:
            raise TableError("the match at this table is over", status=409)
        free = table.open_seats()
        if not free:
            raise TableError("every seat at this table is taken; you may watch", status=409)
        seat = table.seats[free[0]]
        token = secrets.token_urlsafe(18)
        seat.token_hash = _hash(token)
        seat.name = name.strip()[:40] if isinstance(name, str) else ""
        seat.away_since = time.monotonic()
        self.storage.update_seats(table.id, [s.stored() for s in table.seats])
        table.presence_changed()
        return table, seat.index, token

    def lobby(self) -> dict[str, Any]:
        """Open tables (a person's seat is free) and tables in play, newest first."""
        live = sorted((t for t in self.tables.values() if not t.is_over),
                      key=lambda t: t.created, reverse=True)
        return {"open": [t.summary() for t in live if t.open_seats()][:50],
                "playing": [t.summary() for t in live if not t.open_seats()][:50]}

    # ---- connections

    def hello(self, conn: Connection, table_id: str, token: str, reply_to: Any = None) -> None:
        if conn.table is not None:
            raise ProtocolError("already_joined")
        table = self.get(table_id)
        if table is None:
            raise ProtocolError("no_table", f"no table has the id {table_id!r}")
        digest = _hash(token)
        for seat in table.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                break
        else:
            raise ProtocolError("bad_token")
        conn.table, conn.seat = table, seat.index
        seat.conns.add(conn)
        seat.away_since = None
        conn.post(self._welcome(table, seat.index, reply_to))
        table.presence_changed(skip=conn)
        conn.post(table.state(seat.index, True))
        self.kick(table)

    def watch(self, conn: Connection, table_id: str, reply_to: Any = None) -> None:
        if conn.table is not None:
            raise ProtocolError("already_joined")
        table = self.get(table_id)
        if table is None:
            raise ProtocolError("no_table", f"no table has the id {table_id!r}")
        conn.table, conn.seat = table, None
        table.spectators.add(conn)
        conn.post(self._welcome(table, None, reply_to))
        conn.post(table.state(None, True))

    def _welcome(self, table: Table, seat: int | None, reply_to: Any) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "welcome", "protocol": PROTOCOL_VERSION,
                               "table": table.id, "seat": seat, "game": table.game.name,
                               "title": dict(type(table.game).title),
                               "options": table.game.options_dict(),
                               "players": table.game.players}
        if reply_to is not None:
            msg["reply_to"] = reply_to
        return msg

    def leave(self, conn: Connection) -> None:
        """A connection closed: free its place; a person's seat starts its grace period."""
        table = conn.table
        conn.shutdown()
        if table is None:
            return
        conn.table = None
        if conn.seat is None:
            table.spectators.discard(conn)
            self._maybe_evict(table)
            return
        seat = table.seats[conn.seat]
        seat.conns.discard(conn)
        if not table.connected(seat):
            seat.away_since = time.monotonic()
            if table.grace_timer is not None:
                table.grace_timer.cancel()
                table.grace_timer = None
            self.kick(table)
        table.presence_changed()
        self._maybe_evict(table)

    def _maybe_evict(self, table: Table) -> None:
        """A finished match that nobody is looking at leaves memory (it reloads on demand)."""
        if table.is_over and not table.spectators and \
                not any(s.conns for s in table.seats) and \
                (table.bot_task is None or table.bot_task.done()):
            self.tables.pop(table.id, None)

    def _grace_over(self, table: Table) -> None:
        table.grace_timer = None
        table.presence_changed()
        self.kick(table)

    def resync(self, conn: Connection, reply_to: Any = None) -> None:
        table = self._table_of(conn)
        conn.post(table.state(conn.seat, True, reply_to=reply_to))

    def record(self, conn: Connection, reply_to: Any = None) -> None:
        table = self._table_of(conn)
        if not table.is_over:
            raise ProtocolError("not_over")
        msg: dict[str, Any] = {"type": "record", "record": table.match.record()}
        if reply_to is not None:
            msg["reply_to"] = reply_to
        conn.post(msg)

    def _table_of(self, conn: Connection) -> Table:
        if conn.table is None:
            raise ProtocolError("not_joined")
        return conn.table

    # ---- moves

    def move(self, conn: Connection, text: str, version: int, reply_to: Any = None) -> None:
        """A person's move: checked (seat, version, turn, notation, legality), applied, stored,
        then every connection gets its view; the mover's state carries ``reply_to``."""
        table = self._table_of(conn)
        if conn.seat is None:
            raise ProtocolError("not_seated")
        if table.is_over:
            raise ProtocolError("over")
        if version != table.version:
            raise ProtocolError("stale", f"the state is at version {table.version}, "
                                         f"not {version}")
        seat = conn.seat
        if table.match.to_move != seat:
            raise ProtocolError("out_of_turn", f"it is seat {table.match.to_move}'s turn, "
                                               f"not seat {seat}'s")
        self._apply(table, seat, text, reply=(conn, reply_to))

    def _apply(self, table: Table, seat: int, text: str,
               reply: tuple[Connection, Any] | None = None) -> None:
        match = table.match
        n = table.version
        deals = len(match.deals)
        try:
            match.play(text, seat=seat)
        except InvalidMoveError as e:
            raise ProtocolError("invalid", str(e)) from None
        except IllegalMoveError as e:
            raise ProtocolError("illegal", str(e)) from None
        canonical = match.moves[-1][1]
        try:
            self.storage.add_move(table.id, n, seat, canonical, finished=match.is_over)
        except Exception as e:  # the disk refused: undo by rebuilding from what is stored
            log.exception("storing move %d of table %s failed", n, table.id)
            stored = self.storage.load(table.id)
            if stored is not None:
                rebuilt = replay(stored.record())
                assert isinstance(rebuilt, Match)
                table.match = rebuilt
            raise ProtocolError("storage", f"the move could not be stored: {e}") from None
        table.stored.moves.append((seat, canonical))
        table.updated = time.time()
        self.moves_applied += 1
        if len(match.deals) != deals:
            table.last_deal_end = table.version
        table.broadcast(reply)
        self.kick(table)

    # ---- bots

    def kick(self, table: Table) -> None:
        """Start the bot of the seat to move, if a bot plays it now and none is thinking."""
        if table.is_over:
            return
        seat = table.match.to_move
        if seat is None:
            return
        if not table.bot_controls(seat):
            s = table.seats[seat]
            if s.kind == "human" and s.claimed and s.away_since is not None and \
                    not table.connected(s) and table.grace_timer is None:
                # the person to move is away: look again when the grace period is over
                wait = max(0.0, s.away_since + self.grace - time.monotonic()) + 0.01
                with contextlib.suppress(RuntimeError):
                    table.grace_timer = asyncio.get_running_loop().call_later(
                        wait, self._grace_over, table)
            return
        if table.bot_task is not None and not table.bot_task.done() and \
                table.bot_version == table.version:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet (loading before start-up); started later
            return
        table.bot_version = table.version
        task = loop.create_task(self._bot_turn(table, seat, table.version))
        table.bot_task = task
        self._bot_tasks.add(task)
        task.add_done_callback(self._bot_tasks.discard)

    def kick_all(self) -> None:
        for table in list(self.tables.values()):
            self.kick(table)

    async def _bot_turn(self, table: Table, seat: int, version: int) -> None:
        if self.bot_delay > 0:
            await asyncio.sleep(self.bot_delay)
        if table.version != version or not table.bot_controls(seat):
            return
        s = table.seats[seat]
        level = s.level
        view = table.match.view(seat).to_dict()
        bot_seed = derive_seed(table.stored.seed, "server-bot", seat)
        try:
            move = await self.runner.choose(table.game.name, table.game.options_dict(), level,
                                            bot_seed, view)
        except Exception:
            log.exception("the %s bot of table %s failed; a random move is played",
                          level, table.id)
            move = await self.runner.choose(table.game.name, table.game.options_dict(),
                                            "random", bot_seed, view)
        if table.version != version or not table.bot_controls(seat) or table.is_over:
            self.kick(table)  # the state moved on (the person came back): nothing to do
            return
        try:
            self._apply(table, seat, move)
        except ProtocolError as e:
            log.error("bot move %r at table %s refused: %s", move, table.id, e.message)

    def drop_connections(self, table_id: str, code: int = 1012) -> int:
        """Close every connection of a table from the server's side (a restart, a test)."""
        table = self.tables.get(table_id)
        if table is None:
            return 0
        conns = [c for s in table.seats for c in s.conns] + list(table.spectators)
        for c in conns:
            c.closed = True
            c.queue.put_nowait(code)
        return len(conns)

    async def close(self) -> None:
        for task in list(self._bot_tasks):
            task.cancel()
        for table in self.tables.values():
            if table.grace_timer is not None:
                table.grace_timer.cancel()
            for seat in table.seats:
                for c in list(seat.conns):
                    c.shutdown()
            for c in list(table.spectators):
                c.shutdown()
