"""Which account sits at which seat: linking seats, resuming them, results and ratings at the end.

How a seat records its account: the seat's stored dict gets ``"account": <account id>`` and
its ``name`` is the account's name; the state frame's ``seats`` then carries that name, and a
claimed person's seat without an account is marked ``"guest": true`` (``hub.Seat.seat_info``).
The ``account_seats`` rows (:mod:`.accountdb`) index the same links for profiles.

* :func:`seat_for_account`: a seat just taken (created, joined) by a signed-in person;
* :func:`claim_guest_seats`: a guest who signs up or in brings the seat tokens their browser
  kept; each seat a token opens, not yet any account's, becomes theirs (a finished match's
  result is recorded at once);
* :func:`resume_seat`: a signed-in person opens one of their unfinished tables on another
  device: a fresh seat token is issued (the old one stops working);
* :func:`match_finished`: called once when a match ends (:class:`AccountHooks`): every
  account's result, and for a rated table the ratings (:func:`.ratings.rate_match`); the
  before/after ratings per seat. A seat with ``Seat.forfeit`` (stored ``"forfeit": true``)
  lost, whatever the score (the clocks set it when a person forfeits; a bot then finishes it);
* :func:`forget_account`: after an account's deletion, the tables in memory take the
  anonymised seats from the store.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from .accountdb import AccountDb
from .accounts import Account
from .errors import RequestError
from .ratings import SeatOutcome, rate_match, stored_change
from .tables import MatchHooks, hash_token

if TYPE_CHECKING:
    from .hub import Hub
    from .tables import Table

log = logging.getLogger("cardplay.server")

__all__ = ["MAX_PROOFS", "AccountHooks", "claim_guest_seats", "end_ratings", "forfeited",
           "forget_account", "match_finished", "parse_proofs", "resume_seat",
           "seat_for_account", "seat_result", "set_rated"]

MAX_PROOFS = 100  # seat tokens one sign-up or sign-in may bring


def parse_proofs(value: Any) -> list[tuple[str, str]]:
    """The ``seats`` of a sign-up or sign-in body: ``[{"table", "token"}]`` (absent: none).
    RequestError 400 when it is anything else, before anything is changed."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_PROOFS:
        raise RequestError(400, "bad_seats", f"'seats' is a list of at most {MAX_PROOFS} "
                                             "{\"table\", \"token\"} objects")
    out = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("table"), str) or \
                not isinstance(item.get("token"), str) or len(item["table"]) > 64 or \
                len(item["token"]) > 100:
            raise RequestError(400, "bad_seats", "each of 'seats' is {\"table\": id, "
                                                 "\"token\": the seat's token}")
        out.append((item["table"], item["token"]))
    return out


def seat_result(table: Table, index: int, forfeits: Collection[int] = ()) -> str | None:
    """A seat's result once the match is over: win, loss or draw (every seat a winner, or
    none); a forfeit is a loss. None while the match goes on."""
    if not table.is_over:
        return None
    if index in forfeits:
        return "loss"
    winners = table.match.winners
    if forfeits:  # those who stayed beat those who forfeited, whatever the bots then won
        stayed = [i for i in range(table.game.players) if i not in forfeits]
        won = [i for i in winners if i not in forfeits] or stayed
        return "win" if index in won else "loss"
    if not winners or len(winners) == table.game.players:
        return "draw"
    return "win" if index in winners else "loss"


def seat_for_account(hub: Hub, db: AccountDb, table: Table, index: int,
                     account: Account) -> None:
    """Record that a signed-in person took a seat: its account and name, stored and shown."""
    seat = table.seats[index]
    seat.account = account.id
    seat.name = account.name
    table.save_seats()
    db.link_seat(account.id, table.id, index, time.time())


def claim_guest_seats(hub: Hub, db: AccountDb, account: Account,
                      proofs: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Give an account the guest seats its tokens open: ``[{"table", "seat"}]`` linked
    (seats another account holds, and unknown tables or tokens, are passed over)."""
    linked = []
    now = time.time()
    for table_id, token in proofs:
        table = hub.get(table_id)
        if table is None:
            continue
        seat = table.seat_by_token(token)
        if seat is None or seat.account not in (None, account.id):
            continue
        if seat.account is None:
            seat.account = account.id
            seat.name = account.name
            table.save_seats()
        db.link_seat(account.id, table.id, seat.index, now)
        result = seat_result(table, seat.index)
        if result is not None:
            db.set_result(table.id, seat.index, result, table.stored.finished or now)
        linked.append({"table": table.id, "seat": seat.index})
    return linked


def resume_seat(hub: Hub, account: Account, table_id: str) -> tuple[Table, int, str]:
    """A fresh token of the account's seat at a table in play: (table, seat, token).
    RequestError 404 when the account has no seat there, 409 when the match is over."""
    table = hub.get(table_id)
    seat = None if table is None else \
        next((s for s in table.seats if s.account == account.id), None)
    if table is None or seat is None:
        raise RequestError(404, "no_seat", "you have no seat at a table with this id")
    if table.is_over:
        raise RequestError(409, "over", "the match at this table is over")
    token = secrets.token_urlsafe(18)
    seat.token_hash = hash_token(token)
    table.save_seats()
    return table, seat.index, token


def forfeited(table: Table) -> set[int]:
    """The seats whose person forfeited the match (``Seat.forfeit``, stored as
    ``"forfeit": true``: the clocks set it, and it outlives a restart)."""
    return {s.index for s in table.seats if s.forfeit}


def match_finished(db: AccountDb, table: Table, forfeits: Collection[int] | None = None
                   ) -> list[dict[str, Any] | None] | None:
    """Once a match ends: store each account's result, and for a rated table update the
    ratings. Per seat ``{"before", "after"}`` (None for a seat not rated), or None for an
    unrated table. ``forfeits``: the seats that forfeited (default: :func:`forfeited`); a
    forfeit is a loss, whatever the score."""
    if forfeits is None:
        forfeits = forfeited(table)
    now = table.stored.finished or time.time()
    for seat in table.seats:
        if seat.account is not None:
            result = seat_result(table, seat.index, forfeits)
            if result is not None:
                db.set_result(table.id, seat.index, result, now)
    if not table.stored.rated or not table.is_over:
        return None
    winners = set(table.match.winners)
    outcomes = [SeatOutcome(s.account if s.kind == "human" else None,
                            s.index in winners and s.index not in forfeits,
                            s.index in forfeits) for s in table.seats]
    return rate_match(db, table.id, table.game.name, table.game.players, outcomes, now)


def end_ratings(db: AccountDb, table: Table) -> list[dict[str, Any] | None] | None:
    """The stored before/after ratings of a finished rated table (:class:`AccountHooks`): for
    the processes that did not rate it, and after a restart. None when nothing is stored."""
    if not table.stored.rated or not table.is_over:
        return None
    out = stored_change(db, table.id, [SeatOutcome(s.account, False) for s in table.seats])
    return out if any(o is not None for o in out) else None


def forget_account(hub: Hub, table_ids: list[str]) -> None:
    """The tables in memory take their seats from the store again after an account's
    deletion anonymised them, and show everyone the change."""
    for table_id in table_ids:
        table = hub.tables.get(table_id)
        if table is not None:
            hub.reload_seats(table)
            table.presence_changed()
        hub.broker.publish(table_id, {"seats": 1})


def set_rated(db: AccountDb, table: Table) -> None:
    """Make a table just created rated (``POST /api/tables`` with ``"rated": true``). Written
    right after the table's insert, with nothing of this process in between; a guest of
    another process who took a seat in that instant would only make the match unrated."""
    table.stored.rated = True
    db.run("UPDATE tables SET rated = ? WHERE id = ?", (True, table.id))


class AccountHooks(MatchHooks):
    """The accounts' part of a match's end (``hub.match_hooks``): results, ratings, and the
    before/after ratings in the final state."""

    def __init__(self, db: AccountDb) -> None:
        self.db = db

    def finished(self, table: Table) -> None:
        if table.stored.finished is None:
            table.stored.finished = time.time()
        try:
            table.end_ratings = match_finished(self.db, table)
        except Exception:  # the match stays over and stored; only its results failed
            log.exception("recording the end of table %s failed", table.id)

    def ratings_of(self, table: Table) -> list[dict[str, Any] | None] | None:
        return end_ratings(self.db, table)
