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

With several processes on one store (``--database`` and ``--broker``) two clients of one table
may race through different processes. Each stores move n under the key (table, n); the one
whose INSERT fails rebuilds the table from the store and answers ``stale`` with the fresh
state. A committed move is announced through the broker, and every other process with the table
in memory catches up from the store (:meth:`Hub.catch_up`) and sends its clients their views.
Only the holder of a table's lease runs its bots and grace timers (:meth:`Hub.kick`).
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
from ..fairness import commit, new_salt
from . import botpool
from .botpool import BotRunner
from .broker import Broker
from .connection import Connection
from .limits import Limits, caps_refusal
from .protocol import PROTOCOL_VERSION, ProtocolError, error_message
from .security import InputError, check_seed, clean_text, safe_text
from .storage import CapRefusal, MoveConflict, Store, StoredTable, seat_status

__all__ = ["MAX_NAME", "Connection", "Hub", "Seat", "Table", "TableError"]

log = logging.getLogger("cardplay.server")

MAX_NAME = 40  # characters of a seat name


class TableError(ValueError):
    """A request about tables that cannot be met (bad game, options, seats, no free seat)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _hash(token: str) -> str:
    # surrogatepass: a token is checked, never trusted to be clean text
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Seat:
    """One seat of a table: a person's (claimed with a token) or a bot's."""

    index: int
    kind: str  # "human" or "bot"
    level: str  # the bot's level; for a person's seat, the level of the bot that holds it
    name: str = ""
    token_hash: str | None = None  # set once a person claims the seat
    account: str | None = None  # the signed-in person's account id (None: a guest or a bot)
    conns: set[Connection] = field(default_factory=set)
    away_since: float | None = None

    @property
    def claimed(self) -> bool:
        return self.token_hash is not None

    def stored(self) -> dict[str, Any]:
        d = {"kind": self.kind, "level": self.level, "name": self.name,
             "token_hash": self.token_hash}
        if self.account is not None:
            d["account"] = self.account
        return d

    @classmethod
    def from_stored(cls, index: int, d: Mapping[str, Any]) -> Seat:
        # safe_text: a database written before names were checked may hold a lone surrogate,
        # which would make every answer that lists this seat fail to encode
        return cls(index=index, kind=str(d["kind"]), level=str(d.get("level") or "random"),
                   name=safe_text(str(d.get("name") or "")), token_hash=d.get("token_hash"),
                   account=d.get("account"))


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
        self.bots_only = all(s.kind == "bot" for s in self.seats)
        self.stopped: str | None = None  # why a table of bots only stopped before the end
        # monotonic time since which no connection is open here (eviction counts from it)
        self.idle_since: float | None = time.monotonic()
        # other processes' connected seats: process name -> (seats, monotonic expiry)
        self.remote: dict[str, tuple[frozenset[int], float]] = {}
        self._state_cache: dict[int | None, tuple[int, dict[str, Any]]] = {}
        # reviews of finished deals by (seat, deal number): a deal's review never changes
        self.reviews: dict[tuple[int, int], list[dict[str, Any]]] = {}
        self.coaching = False  # a hint or review of this table is being worked out
        self._info_cache: tuple[int, dict[str, Any]] | None = None
        # each seat's rating before and after, once a rated match ended (None: not rated)
        self.end_ratings: list[dict[str, Any] | None] | None = None
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
        if any(not c.closed for c in seat.conns):
            return True
        if self.remote:
            now = time.monotonic()
            return any(seat.index in seats and now < until
                       for seats, until in self.remote.values())
        return False

    def local_seats(self) -> list[int]:
        """The seats with an open connection in this process."""
        return [s.index for s in self.seats if any(not c.closed for c in s.conns)]

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
                 "bot_playing": s.kind == "human" and self.bot_controls(s.index, now),
                 # a claimed person's seat without an account: its name is free text
                 **({"guest": True} if s.kind == "human" and s.claimed and s.account is None
                    else {})}
                for s in self.seats]

    def summary(self) -> dict[str, Any]:
        """What the lobby lists about a table."""
        return {"id": self.id, "game": self.game.name, "title": dict(type(self.game).title),
                "options": self.game.options_dict(), "players": self.game.players,
                "seats": self.seat_info(), "open_seats": self.open_seats(),
                "version": self.version, "deal_number": len(self.match.deals) + 1,
                "is_over": self.is_over, "scores": self.match.scores,
                "created": self.created, "spectators": len(self.spectators),
                "listed": self.stored.listed,
                **self.fairness()}

    def fairness(self) -> dict[str, Any]:
        """The seed commitment every seat is shown from the start (DESIGN: provably fair)."""
        st = self.stored
        out: dict[str, Any] = {"commitment": st.commitment, "seed_source": st.seed_source}
        if self.stopped is not None:
            out["stopped"] = self.stopped
        return out

    def record(self) -> dict[str, Any]:
        """The match record with its ``fairness`` header (the salt revealed): only once the
        match is over, or a table of bots only stopped (no person's cards to hide)."""
        rec = self.match.record()
        fair = self.stored.record().get("fairness")
        if fair is not None:
            rec["fairness"] = fair
        return rec

    def has_connections(self) -> bool:
        return bool(self.spectators) or any(s.conns for s in self.seats)

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
        if self.stopped is not None:
            msg["stopped"] = self.stopped
        if self.end_ratings is not None:
            msg["ratings"] = self.end_ratings
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
    """Every table of one server process, over one store (shared by the processes of a
    site when ``broker`` joins them)."""

    def __init__(self, storage: Store, runner: BotRunner, *, grace: float = 30.0,
                 bot_delay: float = 0.0, away_level: str = "heuristic",
                 limits: Limits | None = None, broker: Broker | None = None) -> None:
        self.limits = limits if limits is not None else Limits()
        self.storage = storage
        self.broker = broker if broker is not None else Broker()
        self._wanted: set[str] = set()  # tables whose lease is being asked for
        self.runner = runner
        self.grace = grace
        self.bot_delay = bot_delay
        self.away_level = away_level
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}
        self._bot_tasks: set[asyncio.Task[None]] = set()
        self.moves_applied = 0
        self.coaching = 0  # hints and reviews being worked out, in all (limits.max_coaching)
        self.loop: asyncio.AbstractEventLoop | None = None  # set when the app starts
        # called once when a match ends here (accountseats.match_finished, set by the app)
        self.on_match_finished: Callable[[Table], list[dict[str, Any] | None] | None] | None \
            = None

    # ---- loading and creating

    def load_all(self) -> int:
        """Rebuild every table the lobby lists that was played within the eviction age; older
        ones become idle (they load when someone asks for them). Finished ones load on demand."""
        count = 0
        cutoff = time.time() - self.limits.evict_after
        for stored, last_active in self.storage.live_tables():
            if last_active < cutoff and not stored.bots_only:
                self.storage.set_status(stored.id, "idle")
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
        if stored.status == "idle":  # someone asked for it again: it is listed again
            self._set_status(table, seat_status(stored.seats))
        elif stored.status == "stopped":
            table.stopped = self._stop_reason()
        return table

    def _set_status(self, table: Table, status: str) -> None:
        if table.stored.status != status:
            table.stored.status = status
            self.storage.set_status(table.id, status)

    def _stop_reason(self) -> str:
        return (f"a table of bots only stops after {self.limits.bot_table_moves} moves "
                f"(this server's limit)")

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
                     rated: bool = False) -> tuple[Table, int | None, str | None]:
        """A new table; with ``claim`` the caller takes the first person's seat and gets its
        token. Seats: ``{"kind": "human"}`` or ``{"kind": "bot", "level": "heuristic"}``.

        The server draws the seed and commits to it; a ``seed`` is accepted only at a table
        where nobody but the creator sits (bots and the creator: practice, replays), since a
        creator who chose the shuffle of a table with other people would know their cards.
        ``client`` (a key of the creator's address) is what the per-client caps count.
        ``operator_seed``: the seed comes from the server's own code (a test, a benchmark),
        not from a client, and is recorded as such. ``listed=False``: an invite-only table,
        never in the lobby's lists (its invite link is the way in)."""
        if not isinstance(listed, bool):
            raise TableError("'listed' is true or false")
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
        try:
            chosen = check_seed(seed)
            seat_name = clean_text(name, "name", MAX_NAME)
        except InputError as e:
            raise TableError(str(e)) from None
        humans = sum(1 for spec in seat_list
                     if isinstance(spec, Mapping) and spec.get("kind") == "human")
        if chosen is not None and not operator_seed and humans > (1 if claim else 0):
            raise TableError("a seed may be chosen only at a table where nobody but you sits "
                             "(you and bots); at a table with other people the server draws "
                             "it and shows everyone a commitment to it")
        match_seed = fresh_seed() if chosen is None else chosen
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
        # a first look before any work; the store looks again as it inserts the table
        self._check_caps(client, bots_only=humans == 0)
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
        salt = new_salt()
        seat_dicts = [s.stored() for s in made]
        stored = StoredTable(id=table_id, game=game.name, options=game.options_dict(),
                             seed=match_seed, dealer=None, seats=seat_dicts,
                             created=time.time(), salt=salt, commitment=commit(match_seed, salt),
                             seed_source="server" if chosen is None else
                             "operator" if operator_seed else "creator",
                             status=seat_status(seat_dicts), creator=client,
                             bots_only=humans == 0, listed=listed, rated=rated)
        match = game.match(seed=match_seed)
        try:
            self.storage.create_table(stored, guard=lambda: caps_refusal(
                self.storage, self.limits, client, humans == 0))
        except CapRefusal as e:
            raise TableError(str(e), status=429) from None
        table = Table(self, stored, match)
        table.seats = made
        self.tables[table_id] = table
        if mine is not None:
            table.seats[mine].away_since = time.monotonic()
        self.kick(table)
        return table, mine, token

    def _check_caps(self, client: str | None, bots_only: bool) -> None:
        refusal = caps_refusal(self.storage, self.limits, client, bots_only)
        if refusal is not None:
            raise TableError(refusal, status=429)

    def away_level_for(self, game: Game) -> str:
        try:
            bots_mod.load(self.away_level, game, seed=0)
        except ValueError:
            return "random"
        return self.away_level

    def join(self, table_id: str, name: Any = "") -> tuple[Table, int, str]:
        """Claim the first free person's seat of a table (an invite link's opener)."""
        try:
            seat_name = clean_text(name, "name", MAX_NAME)
        except InputError as e:
            raise TableError(str(e)) from None
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
        seat.name = seat_name
        seat.away_since = time.monotonic()
        seat_dicts = [s.stored() for s in table.seats]
        table.stored.seats = seat_dicts
        table.stored.status = seat_status(seat_dicts)
        self.storage.update_seats(table.id, seat_dicts, table.stored.status)
        self.broker.publish(table.id, {"seats": 1})
        table.presence_changed()
        return table, seat.index, token

    # ---- connections

    def hello(self, conn: Connection, table_id: str, token: str, reply_to: Any = None) -> None:
        if conn.table is not None:
            raise ProtocolError("already_joined")
        table = self.get(table_id)
        if table is None:
            raise ProtocolError("no_table", f"no table has the id {table_id!r}")
        digest = _hash(token)
        seat = self._seat_of(table, digest)
        if seat is None and self.broker.shared and table.open_seats():
            # a seat free here may have been claimed through another process a moment ago
            # (a claimed seat's token never changes: a table with none free needs no look)
            self.reload_seats(table)
            seat = self._seat_of(table, digest)
        if seat is None:
            raise ProtocolError("bad_token")
        if self.broker.shared:
            self.catch_up(table, broadcast=False)
        conn.table, conn.seat = table, seat.index
        seat.conns.add(conn)
        seat.away_since = None
        table.idle_since = None
        conn.post(self._welcome(table, seat.index, reply_to))
        table.presence_changed(skip=conn)
        conn.post(table.state(seat.index, True))
        self._presence_out(table)
        self.kick(table)

    @staticmethod
    def token_digest(token: str) -> str:
        """What a seat stores of its token (the token itself is never stored)."""
        return _hash(token)

    def seat_by_token(self, table: Table, token: str) -> Seat | None:
        """The seat a seat token opens (the same check as ``hello``), or None."""
        return self._seat_of(table, _hash(token))

    def save_seats(self, table: Table) -> None:
        """Store a table's seats as they are now, tell the other processes, and send everyone
        here the state again (a seat's claim, name or account changed)."""
        seat_dicts = [s.stored() for s in table.seats]
        table.stored.seats = seat_dicts
        self.storage.update_seats(table.id, seat_dicts)
        self.broker.publish(table.id, {"seats": 1})
        table.presence_changed()

    @staticmethod
    def _seat_of(table: Table, digest: str) -> Seat | None:
        for seat in table.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat
        return None

    def watch(self, conn: Connection, table_id: str, reply_to: Any = None) -> None:
        if conn.table is not None:
            raise ProtocolError("already_joined")
        table = self.get(table_id)
        if table is None:
            raise ProtocolError("no_table", f"no table has the id {table_id!r}")
        if self.broker.shared:
            self.catch_up(table, broadcast=False)
        conn.table, conn.seat = table, None
        table.spectators.add(conn)
        table.idle_since = None
        conn.post(self._welcome(table, None, reply_to))
        conn.post(table.state(None, True))

    def _welcome(self, table: Table, seat: int | None, reply_to: Any) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "welcome", "protocol": PROTOCOL_VERSION,
                               "table": table.id, "seat": seat, "game": table.game.name,
                               "title": dict(type(table.game).title),
                               "options": table.game.options_dict(),
                               "players": table.game.players, **table.fairness()}
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
        if conn.seat not in table.local_seats():
            self._presence_out(table)  # the other processes stop counting this one's
        table.presence_changed()
        self._maybe_evict(table)

    def _maybe_evict(self, table: Table) -> None:
        """A finished match that nobody is looking at leaves memory (it reloads on demand)."""
        if not table.has_connections():
            table.idle_since = time.monotonic()
        if (table.is_over or table.stopped) and not table.has_connections() and \
                (table.bot_task is None or table.bot_task.done()):
            self._unload(table)

    def _unload(self, table: Table) -> None:
        self.broker.release(table.id)
        if table.grace_timer is not None:
            table.grace_timer.cancel()
            table.grace_timer = None
        if table.bot_task is not None and not table.bot_task.done():
            table.bot_task.cancel()
        self.tables.pop(table.id, None)

    def evict_idle(self, now: float | None = None) -> int:
        """Unload every table nobody has been connected to for the eviction age (its record
        stays stored; it is idle, out of the lobby, until someone asks for it). A table of
        bots only that is still playing stays: its length is bounded by its own limit."""
        now = time.monotonic() if now is None else now
        age = self.limits.evict_after
        gone = 0
        for table in list(self.tables.values()):
            if table.has_connections() or table.idle_since is None or \
                    now - table.idle_since < age:
                continue
            if table.bots_only and not table.is_over and table.stopped is None:
                continue
            # a person connected to another process is still playing: leave this process's
            # memory, not the lobby
            if not table.is_over and table.stopped is None and not table.remote:
                self._set_status(table, "idle")
            self._unload(table)
            gone += 1
        return gone

    async def sweep_forever(self) -> None:
        """Evict idle tables now and then (a few times per eviction age, at most a minute
        apart): one pass over the tables in memory, no work per table in between."""
        period = max(0.05, min(60.0, self.limits.evict_after / 4))
        while True:
            await asyncio.sleep(period)
            try:
                self.evict_idle()
            except Exception:  # a sweep must never end the sweeper
                log.exception("evicting idle tables failed")

    def _grace_over(self, table: Table) -> None:
        table.grace_timer = None
        table.presence_changed()
        self.kick(table)

    def resync(self, conn: Connection, reply_to: Any = None) -> None:
        table = self._table_of(conn)
        if self.broker.shared:  # a notice may have been lost: the store has every move
            self.catch_up(table)
        conn.post(table.state(conn.seat, True, reply_to=reply_to))

    def record(self, conn: Connection, reply_to: Any = None) -> None:
        table = self._table_of(conn)
        if not table.is_over:
            raise ProtocolError("not_over")
        msg: dict[str, Any] = {"type": "record", "record": table.record()}
        if reply_to is not None:
            msg["reply_to"] = reply_to
        conn.post(msg)

    # ---- hints and reviews (a person alone with bots: nobody else's game is helped)

    def _coached(self, conn: Connection, check_busy: bool = True) -> Table:
        table = self._table_of(conn)
        if conn.seat is None:
            raise ProtocolError("not_seated")
        if any(s.kind != "bot" for s in table.seats if s.index != conn.seat):
            raise ProtocolError("no_help")
        if check_busy:
            self._check_busy(table)
        return table

    def _check_busy(self, table: Table) -> None:
        if table.coaching or self.coaching >= self.limits.max_coaching:
            raise ProtocolError("busy")

    def _start(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._bot_tasks.add(task)
        task.add_done_callback(self._bot_tasks.discard)

    def hint(self, conn: Connection, reply_to: Any = None) -> None:
        """The values of the person's legal moves now, from their view alone."""
        table = self._coached(conn)
        seat = conn.seat
        assert seat is not None
        if table.is_over or table.match.to_move != seat:
            raise ProtocolError("out_of_turn", "a hint is given on your own turn")
        version = table.version
        view = table.match.view(seat).to_dict()
        seed = derive_seed(table.stored.seed, "hint", version)
        self._begin_coaching(table)
        self._start(self._coach(conn, table, {"type": "hint", "version": version},
                                botpool.hint_values, (view, seed), reply_to))

    def review(self, conn: Connection, deal: int, reply_to: Any = None) -> None:
        """The person's decisions of a finished deal, each with what it cost."""
        table = self._coached(conn, check_busy=False)  # a kept review is never busy
        seat = conn.seat
        assert seat is not None
        done = len(table.match.deals)
        if not 1 <= deal <= done:
            raise ProtocolError("no_deal", f"deal {deal} is not finished (finished deals: "
                                           f"{'1 to ' + str(done) if done else 'none'})")
        finished = table.match.deals[deal - 1]
        # the deal's moves (public to every seat) let a client show any earlier deal's review
        head: dict[str, Any] = {"type": "review", "deal": deal,
                                "moves": [[s, finished.game.move(c).text]
                                          for s, c in finished.history]}
        cached = table.reviews.get((seat, deal))
        if cached is not None:
            conn.post({**head, "decisions": cached,
                       **({"reply_to": reply_to} if reply_to is not None else {})})
            return
        self._check_busy(table)
        record = table.match.record()
        # the moves up to the end of that deal: nothing later is needed (or replayed)
        record["moves"] = record["moves"][:sum(len(d.history) for d in table.match.deals[:deal])]
        self._begin_coaching(table)
        self._start(self._coach(conn, table, head, botpool.review_deal, (record, seat, deal),
                                reply_to, store=(seat, deal)))

    def _begin_coaching(self, table: Table) -> None:
        table.coaching = True
        self.coaching += 1

    async def _coach(self, conn: Connection, table: Table, head: dict[str, Any], fn: Any,
                     args: tuple[Any, ...], reply_to: Any,
                     store: tuple[int, int] | None = None) -> None:
        try:
            data = await self.runner.call(fn, *args)
        except Exception:
            log.exception("working out a %s failed", head["type"])
            conn.post(error_message("unavailable", "the values could not be worked out",
                                    reply_to))
            return
        finally:
            table.coaching = False
            self.coaching -= 1
        if store is not None:
            table.reviews[store] = data
        msg = {**head, **(data if isinstance(data, dict) else {"decisions": data})}
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
        if self.broker.shared and isinstance(version, int) and version > table.version:
            self.catch_up(table)  # another process stored moves this one has not heard of
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
        progress = (match.scores, len(match.deals)) if len(match.deals) != deals else None
        try:
            self.storage.add_move(table.id, n, seat, canonical, finished=match.is_over,
                                  progress=progress)
        except MoveConflict:
            # another process stored move n first: take the table as stored, with its move
            self._reload(table)
            table.broadcast(skip=reply[0] if reply is not None else None)
            self.kick(table)
            raise ProtocolError("stale", f"another move was made first; the state is at "
                                         f"version {table.version}") from None
        except Exception as e:  # the disk refused: undo by rebuilding from what is stored
            log.exception("storing move %d of table %s failed", n, table.id)
            stored = self.storage.load(table.id)
            if stored is not None:
                rebuilt = replay(stored.record())
                assert isinstance(rebuilt, Match)
                table.match = rebuilt
            raise ProtocolError("storage", f"the move could not be stored: {e}") from None
        table.stored.moves.append((seat, canonical))
        if match.is_over:
            table.stored.status = "over"
            self._match_finished(table)
        table.updated = time.time()
        self.moves_applied += 1
        if len(match.deals) != deals:
            table.last_deal_end = table.version
        # the move rides along, so that a process one move behind needs no read of the store
        self.broker.publish(table.id, {"v": table.version, "m": [seat, canonical]})
        table.broadcast(reply)
        self.kick(table)

    def _match_finished(self, table: Table) -> None:
        """A match just ended here: the accounts' results and, at a rated table, the ratings
        (``on_match_finished``, set by the app), whose before/after go in the end state."""
        if table.stored.finished is None:
            table.stored.finished = time.time()
        if self.on_match_finished is not None:
            try:
                table.end_ratings = self.on_match_finished(table)
            except Exception:  # the match stays over and stored; only its ratings failed
                log.exception("rating table %s failed", table.id)

    # ---- several processes: catching up, seats and presence from elsewhere, leases

    def _reload(self, table: Table) -> None:
        """Rebuild a table's match from the store (after a lost race or a failed write)."""
        stored = self.storage.load(table.id)
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
        new = self.storage.moves_after(table.id, table.version)
        if not new:
            return 0
        for seat, text in new:
            try:
                self._play_stored(table, seat, text)
            except ValueError:  # cannot happen with a sound store: start again from it
                log.exception("catching up table %s failed; rebuilding it", table.id)
                self._reload(table)
                break
        if broadcast:
            table.broadcast()
            self.kick(table)
        return len(new)

    def _play_stored(self, table: Table, seat: int, text: str) -> None:
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

    def _play_notice(self, table: Table, carried: Any) -> bool:
        """Play the move a notice carries (the next one), as :meth:`catch_up` would; False
        when it cannot be (then the store decides)."""
        if not (isinstance(carried, list) and len(carried) == 2 and
                isinstance(carried[0], int) and isinstance(carried[1], str)):
            return False
        seat, text = carried
        try:
            self._play_stored(table, seat, text)
        except ValueError:
            return False
        table.broadcast()
        self.kick(table)
        return True

    def reload_seats(self, table: Table) -> None:
        """Take the seats' claims and names from the store (claimed through another process)."""
        stored = self.storage.load(table.id)
        if stored is None:
            return
        for seat, d in zip(table.seats, stored.seats):
            fresh = Seat.from_stored(seat.index, d)
            seat.token_hash, seat.name, seat.account = fresh.token_hash, fresh.name, \
                fresh.account
        table.stored.seats = stored.seats
        table.stored.status = stored.status

    def remote_change(self, table_id: str, msg: dict[str, Any]) -> None:
        """A notice from another process about a table (see :mod:`.broker`)."""
        table = self.tables.get(table_id)
        if table is None:  # not in memory here: it is read from the store when asked for
            return
        if "seats" in msg:
            self.reload_seats(table)
            table.presence_changed()
        version = msg.get("v")
        if isinstance(version, int) and version > table.version:
            played = version == table.version + 1 and self._play_notice(table, msg.get("m"))
            if not played:  # more than one move behind, or no move carried: the store
                self.catch_up(table)
        if "stopped" in msg and table.stopped is None:
            table.stopped = self._stop_reason()
            table.stored.status = "stopped"
            table.presence_changed()
        if "p" in msg and isinstance(msg.get("from"), str) and isinstance(msg["p"], list):
            seats = frozenset(i for i in msg["p"] if isinstance(i, int))
            self._set_remote(table, msg["from"], seats)

    def _set_remote(self, table: Table, proc: str, seats: frozenset[int] | None) -> None:
        """Another process's connected seats (None: forget them); a seat whose last
        connection went away starts its grace period here too."""
        before = {s.index for s in table.seats if table.connected(s)}
        if seats:
            table.remote[proc] = (seats, time.monotonic() + 2 * self.broker.ttl)
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
        self.kick(table)

    def _presence_out(self, table: Table) -> None:
        if self.broker.shared:
            self.broker.publish(table.id, {"p": table.local_seats()})

    def remote_presence(self, proc: str, tables: dict[str, Any]) -> None:
        """Another process's heartbeat: its connected seats of every table it has clients of."""
        for table_id, seats in tables.items():
            table = self.tables.get(table_id)
            if table is not None and isinstance(seats, list):
                self._set_remote(table, proc, frozenset(i for i in seats if isinstance(i, int)))

    @staticmethod
    def _may_drive(table: Table) -> bool:
        """Whether this process should hold the table's lease: the lease follows the people,
        so that a bot answers a person from the person's own process (no trip through Redis
        between them). A process without a person of the table gives way to one with them;
        with people on several processes, whichever holds it keeps it."""
        return table.bots_only or not table.remote or bool(table.local_seats())

    def _want_lease(self, table: Table) -> None:
        """Ask for the table's lease (once at a time); on getting it, catch up and drive."""
        if table.id in self._wanted:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._wanted.add(table.id)

        async def ask() -> None:
            try:
                got = await self.broker.acquire(table.id)
            finally:
                self._wanted.discard(table.id)
            if got and self.tables.get(table.id) is table:
                self.catch_up(table)
                self.kick(table)

        task = loop.create_task(ask())
        self._bot_tasks.add(task)
        task.add_done_callback(self._bot_tasks.discard)

    async def lease_tick(self) -> None:
        """Every ``ttl / 3`` seconds with a shared broker: renew the leases held and take
        those of live tables nobody holds (their holder died), in one round trip; send this
        process's presence in one heartbeat; forget other processes' presence that stopped
        being repeated."""
        now = time.monotonic()
        beat: dict[str, list[int]] = {}
        want: list[Table] = []
        for table in list(self.tables.values()):
            for proc, (_, until) in list(table.remote.items()):
                if until <= now:
                    self._set_remote(table, proc, None)
            seats = table.local_seats()
            if seats:
                beat[table.id] = seats
            if table.is_over or table.stopped is not None:
                self.broker.release(table.id)
            elif self._may_drive(table):
                want.append(table)
            else:  # the people are connected elsewhere: their process drives
                self.broker.release(table.id)
        if beat:
            self.broker.heartbeat(beat)
        had = {t.id for t in want if self.broker.holds(t.id)}
        got = await self.broker.acquire_many([t.id for t in want])
        for table in want:
            if table.id in got and table.id not in had and self.tables.get(table.id) is table:
                self.catch_up(table)
                self.kick(table)
        # tables of bots only need no client to go on: take those that nobody drives
        for table_id in self.storage.live_ids(bots_only=True):
            if table_id in self.tables or table_id in self.broken:
                continue
            if await self.broker.acquire(table_id):
                loaded = self.get(table_id)
                if loaded is not None:
                    self.kick(loaded)

    # ---- bots

    def kick(self, table: Table) -> None:
        """Start the bot of the seat to move, if a bot plays it now and none is thinking."""
        if table.is_over or table.stopped is not None:
            return
        seat = table.match.to_move
        if seat is None:
            return
        if not self.broker.holds(table.id):
            if self._may_drive(table):
                self._want_lease(table)  # another process may hold it: then it drives
            return
        if table.bots_only and table.version >= self.limits.bot_table_moves:
            table.stopped = self._stop_reason()
            self._set_status(table, "stopped")
            self.broker.publish(table.id, {"stopped": 1})
            table.presence_changed()
            return
        if not table.bot_controls(seat):
            s = table.seats[seat]
            if s.kind == "human" and s.claimed and s.away_since is not None and \
                    not table.connected(s) and table.grace_timer is None:
                # The person to move is away: look again once when the grace period is over.
                # After it, nothing changes with time: a bot takes the seat only when another
                # person is here, and their hello kicks the table again. So no timer then: a
                # timer re-armed here would spin while nobody is connected.
                wait = s.away_since + self.grace - time.monotonic()
                if wait > 0:
                    with contextlib.suppress(RuntimeError):
                        table.grace_timer = asyncio.get_running_loop().call_later(
                            wait + 0.01, self._grace_over, table)
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
        if not self.broker.holds(table.id):
            return  # the lease went to another process while the bot thought: it drives
        try:
            self._apply(table, seat, move)
        except ProtocolError as e:
            if e.code != "stale":  # a lost race is normal with several processes
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
