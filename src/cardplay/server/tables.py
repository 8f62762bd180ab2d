"""Tables and seats: a match in play, who sits where, each connection's view and its sending.

A seat's view goes to a seat, a view without private cards to a spectator
(:meth:`Table.spectator_view`); :meth:`Table.broadcast` sends every connection its own. Claiming
a seat (with a token) and the moves themselves are the hub's (:mod:`.hub`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine import Game, Match
from .connection import Connection
from .protocol import PROTOCOL_VERSION, ProtocolError
from .refusals import hand_refusals
from .security import safe_text
from .storage import StoredTable
from .timecontrol import ClockState
from .undo import undo_point

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["MatchHooks", "Seat", "Table", "TableError", "hash_token", "mark_forfeits", "table_of"]


class TableError(ValueError):
    """A request about tables that cannot be met (bad game, options, seats, no free seat)."""

    def __init__(self, message: str, status: int = 400, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        # the answer is {"error": code, "message": text} (DESIGN.md section 6); without a
        # code of its own, the code of its status (errors.code_of)
        self.code = code


def hash_token(token: str) -> str:
    """What a seat keeps of its token (the token itself is never stored)."""
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
    forfeit: bool = False  # the person forfeited the match: a loss whatever the score
    conns: set[Connection] = field(default_factory=set)
    away_since: float | None = None

    @property
    def claimed(self) -> bool:
        return self.token_hash is not None

    def stored(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "name": self.name,
                "token_hash": self.token_hash,
                **({"account": self.account} if self.account is not None else {}),
                **({"forfeit": True} if self.forfeit else {})}

    @classmethod
    def from_stored(cls, index: int, d: Mapping[str, Any]) -> Seat:
        # safe_text: a database written before names were checked may hold a lone surrogate,
        # which would make every answer that lists this seat fail to encode
        return cls(index=index, kind=str(d["kind"]), level=str(d.get("level") or "random"),
                   name=safe_text(str(d.get("name") or "")), token_hash=d.get("token_hash"),
                   account=d.get("account"), forfeit=bool(d.get("forfeit")))


def mark_forfeits(table: Table) -> bool:
    """Mark ``Seat.forfeit`` on every seat the table's clock recorded a forfeit of (in memory);
    whether a seat was newly marked."""
    fresh = [table.seats[int(f["seat"])] for f in table.clock.forfeits] \
        if table.clock is not None else []
    fresh = [s for s in fresh if not s.forfeit]
    for s in fresh:
        s.forfeit = True
    return bool(fresh)


class MatchHooks:
    """What a match's end does beyond the table: these do nothing; the app sets the accounts'
    (:class:`cardplay.server.accountseats.AccountHooks`: results, ratings) as
    ``hub.match_hooks``."""

    def finished(self, table: Table) -> None:
        """Called once when a match ends: by ``Hub._apply``, in the process that stored the
        final move, before anyone is sent the final state (processes that learn of the move
        from the store do not call it)."""

    def deal_ended(self, table: Table) -> None:
        """Called when a move ended a deal (before everyone is sent the state)."""

    def ratings_of(self, table: Table) -> list[dict[str, Any] | None] | None:
        """A finished rated table's ratings before and after, per seat, as stored (for a
        process that did not rate it, or one that restarted); None: none."""
        return None


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
        # the time control and its state, as stored (None: no clock); see clocks.py
        self.clock = ClockState.from_json(stored.clock) if stored.clock else None
        mark_forfeits(self)  # a forfeit stored with a move's clock, whatever the seats say
        if match.deals:
            self.last_deal_end = self.version

    @property
    def version(self) -> int:
        """The state version: the number of moves played in the match."""
        return len(self.match.moves)

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    @property
    def waiting(self) -> bool:
        """No card is dealt yet: a person's part of the shuffle is still to come (the match
        held meanwhile is a placeholder that nobody is shown)."""
        return self.stored.waiting

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
        """Whether a bot plays this seat now: a bot's seat, a forfeited one, or a person's seat
        whose person has been away longer than the grace period while another person at the
        table is here."""
        seat = self.seats[index]
        if seat.kind == "bot" or seat.forfeit:
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

    def welcome(self, seat: int | None, reply_to: Any) -> dict[str, Any]:
        """The ``welcome`` message that answers a hello (``seat``) or a watch (None)."""
        msg: dict[str, Any] = {"type": "welcome", "protocol": PROTOCOL_VERSION,
                               "table": self.id, "seat": seat, "game": self.game.name,
                               "title": dict(type(self.game).title),
                               "options": self.game.options_dict(),
                               "players": self.game.players, **self.fairness()}
        if self.waiting:  # how long a claimed seat is waited for (absentees.py)
            msg["hello_wait"] = self.hub.limits.hello_wait
        if reply_to is not None:
            msg["reply_to"] = reply_to
        return msg

    def fairness(self) -> dict[str, Any]:
        """The seed commitment every seat is shown from the start (DESIGN: provably fair)."""
        st = self.stored
        out: dict[str, Any] = {"commitment": st.commitment, "seed_source": st.seed_source,
                               "waiting": self.waiting}
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
        clock = self.hub.clocks.record(self)
        if clock is not None:
            rec["clock"] = clock
        signer = self.hub.signer
        return signer.sign(rec) if signer is not None else rec

    def seat_by_token(self, token: str) -> Seat | None:
        """The seat a seat token opens (the check ``hello`` makes), or None."""
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat
        return None

    def save_seats(self) -> None:
        """Store the seats as they are now, tell the other processes, and send everyone here
        the state again (a seat's claim, name or account changed)."""
        seat_dicts = [s.stored() for s in self.seats]
        self.stored.seats = seat_dicts
        self.hub.storage.update_seats(self.id, seat_dicts)
        self.hub.broker.publish(self.id, {"seats": 1})
        self.presence_changed()

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
        series = getattr(m, "series_info", None)  # the daily deals' segments (series.py)
        if series is not None:
            info.update(series())
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
        if self.waiting:  # no card exists yet: the seats, and nothing to play
            msg: dict[str, Any] = {
                "type": "state", "table": self.id, "version": 0, "seat": seat,
                "game": self.game.name, "full": full, "view": None, "seats": self.seat_info(),
                "last": None, "is_over": False, "winners": [], "waiting": True}
            if self.clock is not None:  # every clock waits too
                self.hub.clocks.frame(self, msg)
            if reply_to is not None:
                msg["reply_to"] = reply_to
            return msg
        cached = self._state_cache.get(seat)
        if cached is not None and cached[0] == version and reply_to is None and not full:
            return cached[1]
        with_previous = full or self.last_deal_end == version
        cur, prev = self.views(seat, with_previous)
        last = None
        if self.match.moves:
            s, m = self.match.moves[-1]
            last = {"seat": s, "move": m}
        msg = {
            "type": "state", "table": self.id, "version": version, "seat": seat,
            "game": self.game.name, "full": full, "view": cur, "seats": self.seat_info(),
            "last": last, "is_over": self.is_over, "winners": self.match.winners,
            "waiting": False,
        }
        if with_previous:
            msg["previous"] = prev
        if seat is not None and not self.is_over:
            refused = hand_refusals(self.match.deal, seat)
            if refused:
                msg["refusals"] = refused
        if self.clock is not None:
            self.hub.clocks.frame(self, msg)
        if self.stopped is not None:
            msg["stopped"] = self.stopped
        if seat is not None and undo_point(self, seat) is not None:
            msg["undo"] = True  # this seat may take back its last move now (undo.py)
        if self.end_ratings is None and self.stored.rated and self.is_over:
            # rated by another process, or before a restart: as stored
            self.end_ratings = self.hub.match_hooks.ratings_of(self)
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


def table_of(conn: Connection) -> Table:
    """The table a connection has joined (``not_joined`` when none)."""
    if conn.table is None:
        raise ProtocolError("not_joined")
    return conn.table
