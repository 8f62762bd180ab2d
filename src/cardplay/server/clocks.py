"""Clocks at work: each seat's time, the stored deadline of the person to move, timeouts, forfeits.

A table's clock is ``{"move": seconds, "reserve": seconds}``, chosen at creation (or the game's
default, :data:`DEFAULTS`). A person has ``move`` seconds for each move; a longer think draws on
their ``reserve``, which is not given back. When both are spent, the bot of the seat plays that
one move for them (its history entry, ``last`` of the state frame, says ``"timeout": true``);
after :attr:`ClockRules.strikes` timeouts in a row, or away (disconnected) longer than
:attr:`ClockRules.away_forfeit` while another person of the table is here, the person forfeits:
a bot finishes the seat and the ratings count the match as a loss (``Seat.forfeit``).

The clock's whole state (reserves left, the turn's start and deadline, strikes, timeouts and
forfeits) is stored in the table's row with every move, in the move's own transaction, so a
restarted process, or another one taking the table's lease, goes on from the stored deadline.
Only the lease holder runs the timers (:meth:`Clocks.kick`); a clock never runs for a bot, for
a person's seat a bot holds, nor while a person's seat of the table is still free; its timer
does not fire while no person of the table is connected anywhere (the deadline stays as
stored, and fires when one comes back). No clock runs in the :attr:`ClockRules.deal_pause`
seconds after the move that ended a deal: the deal's end notice is on the screen then.

One forfeit flag: ``Seat.forfeit`` (stored with the seats), which :mod:`.accountseats` counts
as a loss, rated or not (through ``hub.match_hooks``), and which every check here reads; the
clock's ``forfeits`` list is only its history (reason, move number) for the state frame and the
record. The seat is marked as the clock records the forfeit, and marked again from the stored
clock whenever a table is read (``Table``), so that a forfeit stored with a move's clock is
never lost by a seats' write that failed after it. The time control itself and its stored
state are :mod:`.timecontrol`'s; the clock's reads and writes between moves :mod:`.clockstore`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from ..engine import derive_seed
from .clockstore import load_clock, save_clock
from .protocol import ProtocolError
from .stored import StoreUnavailable
from .tables import mark_forfeits
from .timecontrol import (
    DEFAULTS,
    UNSET,
    ClockError,
    ClockRules,
    ClockState,
    default_clock,
    parse_clock,
)

if TYPE_CHECKING:
    from .hub import Hub
    from .tables import Table

__all__ = ["DEFAULTS", "UNSET", "ClockError", "ClockRules", "ClockState", "Clocks",
           "default_clock", "parse_clock"]

log = logging.getLogger("cardplay.server")


class Clocks:
    """The hub's clocks: a move's time charged, the timers of the lease holder, forfeits."""

    def __init__(self, hub: Hub, rules: ClockRules | None = None) -> None:
        self.hub = hub
        self.rules = rules or ClockRules()
        self.timers: dict[str, asyncio.TimerHandle] = {}  # table id -> its turn's timer
        self.away_timers: dict[str, asyncio.TimerHandle] = {}

    def initial(self, raw: Any, game: str, kinds: list[str]) -> dict[str, Any] | None:
        """The stored clock of a new table (None: no clock); TableError when ``raw`` is not
        a clock this table may have. A rated table's clock (never null) is checked by the
        app before (:func:`parse_clock` with ``rated``): the table is rated after it is
        made."""
        from .tables import TableError  # tables imports this module

        try:
            spec = parse_clock(raw, game, rated=False, people=kinds.count("human"),
                               rules=self.rules)
        except ClockError as e:
            raise TableError(str(e), code=e.code) from None
        return None if spec is None else ClockState.new(spec, kinds).to_json()

    # ---- a move

    def after_move(self, table: Table, seat: int, n: int, *, by_person: bool,
                   timeout: bool, deal_ended: bool) -> dict[str, Any] | None:
        """The clock after move ``n`` (already played on the match, not yet stored), as
        stored: the mover's time charged, a timeout counted, the next turn begun. None: no
        clock."""
        if table.clock is None:
            return None
        if self.hub.broker.shared and not self.hub.broker.holds(table.id):
            self.refresh(table)  # the holder may have started or stopped the turn since
        clock = table.clock.copy()
        now = time.time()
        if timeout:
            clock.reserves[seat] = 0.0
            clock.strikes[seat] += 1
            clock.timeouts.append({"n": n, "seat": seat})
            if clock.strikes[seat] >= self.rules.strikes and not table.seats[seat].forfeit:
                clock.forfeits.append({"seat": seat, "reason": "timeouts", "n": n + 1})
        elif by_person and clock.reserves[seat] is not None:
            if clock.seat == seat and clock.version == n and clock.started is not None:
                over = now - clock.started - clock.move
                if over > 0:
                    clock.reserves[seat] = max(0.0, (clock.reserves[seat] or 0.0) - over)
            clock.strikes[seat] = 0
        if deal_ended:
            clock.resume = now + self.rules.deal_pause
        clock.version = n + 1
        clock.seat = None
        clock.suspend()
        match = table.match
        nxt = match.to_move
        if not match.is_over and nxt is not None and self._runs(table, clock, nxt):
            clock.begin(nxt, now)
        return clock.to_json()

    @staticmethod
    def may_move(table: Table, seat: int) -> None:
        """Refuse a move from the seat of a person who forfeited (``Seat.forfeit``)."""
        if table.seats[seat].forfeit:
            raise ProtocolError("forfeited")

    def stored(self, table: Table, data: dict[str, Any] | None) -> dict[str, Any]:
        """The clock of a move now stored becomes the table's; what its notice carries."""
        if data is None:
            return {}
        table.clock = ClockState.from_json(data)
        table.stored.clock = data
        self._mark_forfeits(table)
        return {"c": data}

    def _mark_forfeits(self, table: Table) -> None:
        """Mark ``Seat.forfeit`` (the one forfeit flag) on each seat the clock recorded a
        forfeit of, and store the seats. The clock is stored first: should this write fail,
        the table marks the seat again from the stored clock when it is read."""
        if mark_forfeits(table):
            self._store_seats(table)

    def _store_seats(self, table: Table) -> None:
        seats = [s.stored() for s in table.seats]
        table.stored.seats = seats
        try:
            self.hub.storage.update_seats(table.id, seats)
        except StoreUnavailable as e:  # the move is stored: the flag is in memory and derived
            self.hub.outage.noticed(e)
            return
        self.hub.broker.publish(table.id, {"seats": 1})

    @staticmethod
    def _runs(table: Table, clock: ClockState, seat: int) -> bool:
        """Whether the seat's clock runs on its turn: a person's seat, not forfeited, that no
        bot holds now, at a table whose people have all taken their seats and come to it once
        (until then the match waits for them, and so does every clock)."""
        s = table.seats[seat]
        return s.kind == "human" and clock.reserves[seat] is not None and \
            not s.forfeit and not table.open_seats() and \
            not table.stored.waiting and all(clock.seen) and not table.bot_controls(seat)

    # ---- what everyone is shown

    def frame(self, table: Table, msg: dict[str, Any]) -> None:
        """Add the clock to a state frame, and ``"timeout": true`` to ``last`` when the last
        move was played for a person whose time ran out."""
        clock = table.clock
        if clock is None:
            return
        now = time.time()
        running = clock.seat is not None and clock.version == table.version and \
            clock.deadline is not None and not table.is_over and \
            not table.bot_controls(clock.seat)
        seats = [clock.left(i, now if running else None) for i in range(len(clock.reserves))]
        msg["clock"] = {"seats": seats,
                        "to_move_deadline": clock.deadline if running else None,
                        "now": round(now, 3), "move": clock.move, "reserve": clock.reserve,
                        "strikes": list(clock.strikes), "limit": self.rules.strikes,
                        "forfeits": [dict(f) for f in clock.forfeits]}
        if running and clock.started is not None and clock.started > now:
            msg["clock"]["starts"] = clock.started  # the deal's end pause
        last = msg.get("last")
        if last is not None and clock.timeouts and clock.timeouts[-1]["n"] == table.version - 1:
            msg["last"] = {**last, "timeout": True}

    def record(self, table: Table) -> dict[str, Any] | None:
        """What a match record keeps of the clock: the control, each timeout with its move,
        each forfeit."""
        clock = table.clock
        if clock is None:
            return None
        moves = table.match.moves
        return {"move": clock.move, "reserve": clock.reserve,
                "timeouts": [{"n": t["n"], "seat": t["seat"],
                              "move": moves[t["n"]][1] if t["n"] < len(moves) else None,
                              "timeout": True} for t in clock.timeouts],
                "forfeits": [dict(f) for f in clock.forfeits]}

    # ---- the lease holder's timers

    def kick(self, table: Table, quiet: bool = False) -> None:
        """Bring the table's timers up to date (only the lease holder runs them): start the
        turn of a person who can act, stop the one a bot now holds, arm the deadline and the
        away limit. A change is sent to everyone, unless ``quiet``: the caller is about to
        send every connection its state anyway (a person's hello)."""
        clock = table.clock
        if clock is None:
            return
        self._cancel(table.id)
        if table.is_over or table.stopped is not None:
            return
        if not self.hub.broker.holds(table.id):
            if quiet and self.hub.broker.shared:
                self.refresh(table)  # a hello here: show the clock as the holder stored it
            return
        if clock.version != table.version:
            self.refresh(table)
            clock = table.clock
            assert clock is not None
        changed = False
        for s in table.seats:
            if len(clock.seen) > s.index and not clock.seen[s.index] and table.connected(s):
                clock.seen[s.index] = changed = True
        if clock.version != table.version or (clock.seat is not None and
                                               clock.seat != table.match.to_move):
            # a move stored without its clock, or the cards dealt anew once every person's
            # part of the shuffle came: a fresh turn
            clock.version, clock.seat = table.version, None
            clock.suspend()
            changed = True
        seat = table.match.to_move
        here = any(s.kind == "human" and table.connected(s) for s in table.seats)
        runs = seat is not None and self._runs(table, clock, seat)
        if runs and clock.started is None:
            assert seat is not None
            clock.begin(seat, time.time())
            changed = True
        elif not runs and clock.started is not None and seat is not None and \
                table.bot_controls(seat):
            clock.suspend()  # a bot holds the seat: the person's time stops
            changed = True
        if changed:
            self.save(table, broadcast=not quiet)
        loop = self._loop()
        if loop is None or not here:
            return  # nobody of the table is connected: the stored deadline waits for them
        if runs and clock.deadline is not None:
            wait = max(0.0, clock.deadline - time.time())
            self.timers[table.id] = loop.call_later(wait, self._expired, table, table.version)
        self._arm_away(table, loop)

    def _arm_away(self, table: Table, loop: asyncio.AbstractEventLoop) -> None:
        clock = table.clock
        assert clock is not None
        now = time.monotonic()
        due: float | None = None
        for s in table.seats:
            if s.kind != "human" or not s.claimed or s.away_since is None or \
                    s.forfeit or table.connected(s):
                continue
            at = s.away_since + self.rules.away_forfeit
            if at <= now:
                if self._another_here(table, s.index):
                    self.forfeit(table, s.index, "away")
                    return  # forfeit kicked the table again
                continue
            due = at if due is None else min(due, at)
        if due is not None:
            self.away_timers[table.id] = loop.call_later(due - now + 0.01, self.hub.kick,
                                                         table)

    @staticmethod
    def _another_here(table: Table, seat: int) -> bool:
        return any(s.kind == "human" and s.index != seat and table.connected(s)
                   for s in table.seats)

    def _expired(self, table: Table, version: int) -> None:
        self.timers.pop(table.id, None)
        clock = table.clock
        if clock is None or table.version != version or table.is_over or \
                self.hub.tables.get(table.id) is not table:
            return
        seat = table.match.to_move
        if seat is None or clock.seat != seat or clock.deadline is None or \
                table.bot_controls(seat):
            return
        if time.time() < clock.deadline - 0.001:  # woken early (a clock step): wait again
            self.kick(table)
            return
        loop = self._loop()
        if loop is not None:
            self.hub.track(loop.create_task(self._bot_plays(table, seat, version)))

    async def _bot_plays(self, table: Table, seat: int, version: int) -> None:
        """The person's time ran out: their seat's bot plays this one move for them."""
        hub = self.hub
        view = table.match.view(seat).to_dict()
        level = table.seats[seat].level
        # a seed per decision, as botdriver.py's: a bot is built anew for each (botpool.py)
        bot_seed = derive_seed(table.stored.seed, "server-bot", seat, version)
        opts = table.game.options_dict()
        try:
            move = await hub.runner.choose(table.game.name, opts, level, bot_seed, view)
        except Exception:
            log.exception("the %s bot of table %s failed at a timeout", level, table.id)
            move = await hub.runner.choose(table.game.name, opts, "random", bot_seed, view)
        if table.version != version or table.is_over or not hub.broker.holds(table.id):
            return  # the person moved in time after all, or another process drives now
        try:
            hub._apply(table, seat, move, timeout=True)
        except ProtocolError as e:
            if e.code != "stale":
                log.error("timeout move %r at table %s refused: %s", move, table.id, e.message)

    # ---- forfeits, storing, other processes

    def forfeit(self, table: Table, seat: int, reason: str) -> None:
        """The person of a seat forfeits the match: stored, shown, and a bot finishes it."""
        clock = table.clock
        if clock is None or table.seats[seat].forfeit:
            return
        clock.forfeits.append({"seat": seat, "reason": reason, "n": table.version})
        if clock.seat == seat:
            clock.seat = None
            clock.suspend()
        mark_forfeits(table)  # in memory first: the state sent below shows the bot playing
        self.save(table)  # the clock stored before the seats: a read derives the flag from it
        self._store_seats(table)
        self.hub.kick(table)

    def save(self, table: Table, broadcast: bool = True) -> None:
        """Store the clock (a change between moves) and tell the other processes (and, with
        ``broadcast``, this process's connections)."""
        clock = table.clock
        if clock is None:
            return
        data = clock.to_json()
        table.stored.clock = data
        save_clock(self.hub.storage, table.id, data)
        self.hub.broker.publish(table.id, {"c": data})
        if broadcast:
            table.broadcast()

    def refresh(self, table: Table) -> None:
        """Take the clock as stored (another process changed it)."""
        data = load_clock(self.hub.storage, table.id)
        if data is not None:
            table.clock = ClockState.from_json(data)
            table.stored.clock = data
            mark_forfeits(table)

    def remote(self, table: Table, data: Any) -> None:
        """A clock another process stored and announced."""
        if isinstance(data, dict):
            with contextlib.suppress(KeyError, TypeError, ValueError):
                table.clock = ClockState.from_json(data)
                table.stored.clock = data
                mark_forfeits(table)  # in memory: the holder stores the seats

    def _cancel(self, table_id: str) -> None:
        for timers in (self.timers, self.away_timers):
            handle = timers.pop(table_id, None)
            if handle is not None:
                handle.cancel()

    def drop(self, table_id: str) -> None:
        """A table leaves memory: its timers go."""
        self._cancel(table_id)

    @staticmethod
    def _loop() -> asyncio.AbstractEventLoop | None:
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None
