"""Hints and reviews: what a person alone with bots may ask of the bots' judgement.

Only a person whose every other seat is a bot's gets them (nobody else's game is helped). The
work runs in a :class:`~cardplay.server.botpool.BotRunner` of its own (:attr:`Coach.runner`,
``limits.max_coaching`` workers at a lower priority than the bots'), never in the bots' one,
so that no bot's move waits behind a review; at most ``limits.max_coaching`` at once in all
(more are answered ``busy``) and one per table, and a finished deal's review is kept.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from ..engine import derive_seed
from . import botpool
from .botpool import BotRunner
from .connection import Connection
from .protocol import ProtocolError, error_message
from .tables import Table, table_of

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("cardplay.server")


class Coach:
    """The hub's hints and reviews, with the count of those being worked out."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.running = 0  # hints and reviews being worked out, in all (limits.max_coaching)
        # the workers of hints and reviews; the app gives it its own (the bots' until then)
        self.runner: BotRunner = hub.runner

    def coached(self, conn: Connection, check_busy: bool = True) -> Table:
        table = table_of(conn)
        if conn.seat is None:
            raise ProtocolError("not_seated")
        if any(s.kind != "bot" for s in table.seats if s.index != conn.seat):
            raise ProtocolError("no_help")
        if table.waiting:
            raise ProtocolError("waiting")
        if check_busy:
            self.check_busy(table)
        return table

    def check_busy(self, table: Table) -> None:
        if table.coaching:
            raise ProtocolError("busy", "this table's last hint or review is still being "
                                        "worked out")
        most = self.hub.limits.max_coaching
        if self.running >= most:
            raise ProtocolError("busy", f"the server is working out {most} hints and reviews, "
                                        f"the most it does at once; try again in a moment")

    def start(self, work: Any) -> None:
        self.hub.track(asyncio.get_running_loop().create_task(work))

    def hint(self, conn: Connection, reply_to: Any = None) -> None:
        """The values of the person's legal moves now, from their view alone."""
        table = self.coached(conn)
        seat = conn.seat
        assert seat is not None
        if table.stored.seed_source == "daily":  # everyone plays the day's deals unaided
            raise ProtocolError("no_help", "no hints at the daily deals")
        if table.is_over or table.match.to_move != seat:
            raise ProtocolError("out_of_turn", "a hint is given on your own turn")
        version = table.version
        view = table.match.view(seat).to_dict()
        seed = derive_seed(table.stored.seed, "hint", version)
        self.begin(table)
        self.start(self.work(conn, table, {"type": "hint", "version": version},
                                botpool.hint_values, (view, seed), reply_to))

    def review(self, conn: Connection, deal: int, reply_to: Any = None) -> None:
        """The person's decisions of a finished deal, each with what it cost."""
        table = self.coached(conn, check_busy=False)  # a kept review is never busy
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
        self.check_busy(table)
        record = table.match.record()
        # the moves up to the end of that deal: nothing later is needed (or replayed)
        record["moves"] = record["moves"][:sum(len(d.history) for d in table.match.deals[:deal])]
        self.begin(table)
        self.start(self.work(conn, table, head, botpool.review_deal, (record, seat, deal),
                                reply_to, store=(seat, deal)))

    def begin(self, table: Table) -> None:
        table.coaching = True
        self.running += 1

    async def work(self, conn: Connection, table: Table, head: dict[str, Any], fn: Any,
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
            self.running -= 1
        if store is not None:
            table.reviews[store] = data
        msg = {**head, **(data if isinstance(data, dict) else {"decisions": data})}
        if reply_to is not None:
            msg["reply_to"] = reply_to
        conn.post(msg)
