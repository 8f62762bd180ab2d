"""The daily deals: each UTC day's seed per game, its commitment, and each person's one attempt.

A game's day is made at its first request (``daily_days``): a seed and a salt drawn then, and
the commitment to them and to the day's parameters (:func:`cardplay.dailyplan.daily_commitment`)
shown from then on; the seed and salt are given only once the day is over. An attempt is a table
of its own, invite-only and unrated, dealing the day's series (:class:`cardplay.engine.series.
Series`) from the day's seed itself: no contribution changes the deck, so everyone holds the same
cards, and the bots' seeds come from the day's seed and the move number (``botdriver.py``), so
the same moves meet the same answers. A table's record (its seed) is withheld until the day is
over (:meth:`Daily.record_gate`), and no hints are given there (``coaching.py``).

One attempt per game and day for an account and for a browser (the ``cardplay_browser``
cookie, a long-lived random id): a second is refused with 409, whoever is signed in. A guest's
attempt is listed once they sign up or in (:meth:`Daily.on_sign`). The clock is ``now``, given
to ``create_app``: tests cross midnight without waiting.
"""

from __future__ import annotations

import datetime
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..dailyplan import (
    DAILY_LEVEL,
    PLANS,
    daily_commitment,
    daily_game,
    daily_salt,
    daily_series,
    day_of_salt,
    deal_value,
)
from ..engine import fresh_seed
from .accountdb import AccountDb
from .accounts import Account
from .accountseats import seat_for_account
from .browserid import BROWSER_COOKIE, browser_cookie, browser_key
from .dailystore import DailyStore
from .errors import RequestError
from .limits import caps_refusal
from .storage import CapRefusal, StoredTable, seat_status
from .tables import MatchHooks, Seat, Table, TableError, hash_token

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["BROWSER_COOKIE", "Daily", "DailyHooks", "browser_cookie"]



def day_of(at: float) -> str:
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d")


def check_day(value: Any) -> str:
    """A ``day`` parameter: YYYY-MM-DD, a real date (RequestError 400)."""
    try:
        if not isinstance(value, str) or len(value) != 10:
            raise ValueError
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise RequestError(400, "bad_day", "'day' is a date written YYYY-MM-DD") from None


def check_game(value: Any) -> str:
    if not isinstance(value, str) or value not in PLANS:
        raise RequestError(404, "no_game", "no game with daily deals has this name; games: "
                                         + ", ".join(sorted(PLANS)))
    return value


class Daily:
    """The daily deals of one server: days, attempts and their tables."""

    def __init__(self, hub: Hub, db: AccountDb, now: Callable[[], float] = time.time) -> None:
        self.hub = hub
        self.db = db
        self.store = DailyStore(db)
        self.now = now

    def today(self) -> str:
        return day_of(self.now())

    def is_over(self, day: str) -> bool:
        return day < self.today()

    def day_row(self, game: str, day: str) -> tuple[int, str, str] | None:
        """The day's (seed, salt, commitment); today's is made at its first request. A day
        to come has none (its seed does not exist yet)."""
        found = self.store.day(game, day)
        if found is None and day == self.today():
            seed, salt = fresh_seed(), daily_salt(day)
            found = self.store.make_day(game, day, seed, salt,
                                        daily_commitment(game, day, seed, salt), self.now())
        return found

    def info(self, game: str) -> dict[str, Any]:
        """``GET /api/daily/{game}``."""
        game = check_game(game)
        day = self.today()
        row = self.day_row(game, day)
        assert row is not None
        return {"game": game, "day": day, "deals": PLANS[game].segments, "commitment": row[2],
                "level": DAILY_LEVEL, "players": daily_game(game).players,
                "whole_match": PLANS[game].whole_match}

    def attempt(self, game: str, account: Account | None, browser: str | None
                ) -> tuple[str, str] | None:
        return self.store.attempt_of(game, self.today(), account.id if account else None,
                                     browser_key(browser))

    def start(self, game: str, account: Account | None, browser: str,
              client: str | None) -> tuple[Table, int, str]:
        """``POST /api/daily/{game}``: a table dealing today's deals (RequestError 409 when this
        account or this browser played them already)."""
        game = check_game(game)
        day = self.today()
        if self.attempt(game, account, browser) is not None:
            raise RequestError(409, "already_played", "you have played today's deals of this game "
                                                    "already; come back tomorrow")
        row = self.day_row(game, day)
        assert row is not None
        seed, salt, commitment = row
        table, token = self._table(game, seed, salt, commitment, account, client)
        bkey = browser_key(browser)
        owner = f"account:{account.id}" if account is not None else f"browser:{bkey}"
        if not self.store.add_attempt(game, day, owner, account.id if account else None, bkey,
                                      table.id, self.now()):
            self.hub.lifecycle.set_status(table, "over")  # a twin request won: this one ends
            self.hub.tables.pop(table.id, None)
            raise RequestError(409, "already_played", "you have played today's deals of this game "
                                                    "already; come back tomorrow")
        return table, 0, token

    def _table(self, game: str, seed: int, salt: str, commitment: str,
               account: Account | None, client: str | None) -> tuple[Table, str]:
        hub = self.hub
        match = daily_series(game, seed)
        players = match.game.players
        token = secrets.token_urlsafe(18)
        seats = [Seat(0, "human", hub.away_level_for(match.game), token_hash=hash_token(token))]
        seats += [Seat(i, "bot", DAILY_LEVEL, name=f"{DAILY_LEVEL} bot")
                  for i in range(1, players)]
        table_id = secrets.token_urlsafe(6)
        while table_id in hub.tables or hub.storage.load(table_id) is not None:
            table_id = secrets.token_urlsafe(6)
        dicts = [s.stored() for s in seats]
        stored = StoredTable(id=table_id, game=game, options=match.game.options_dict(),
                             seed=seed, dealer=players - 1, seats=dicts, created=time.time(),
                             salt=salt, commitment=commitment, seed_source="daily",
                             status=seat_status(dicts), creator=client, bots_only=False,
                             listed=False, server_seed=seed, contributions=None)
        try:
            hub.storage.create_table(stored, guard=lambda: caps_refusal(
                hub.storage, hub.limits, client, False))
        except CapRefusal as e:
            raise TableError(str(e), status=429) from None
        table = Table(hub, stored, match)
        table.seats = seats
        hub.tables[table_id] = table
        seats[0].away_since = time.monotonic()
        if account is not None:
            seat_for_account(hub, self.db, table, 0, account)
        hub.kick(table)
        return table, token

    # ---- a table's life

    def update(self, table: Table) -> None:
        """A deal of a daily table ended: store its finished deals' values."""
        if table.stored.seed_source != "daily":
            return
        results = getattr(table.match, "segment_results", [])
        self.store.set_values(table.id, [deal_value(r) for r in results],
                              self.now() if table.is_over else None)

    def record_gate(self, table: Table) -> str | None:
        """Why a daily table's record is withheld: its seed is the day's until the day ends."""
        if table.stored.seed_source != "daily" or table.stored.salt is None:
            return None
        if self.is_over(day_of_salt(table.stored.salt)):
            return None
        return ("a daily attempt's record holds the day's seed: it is given once the day is "
                "over (UTC), with every attempt's at /api/daily/GAME/records?day=")

    def on_sign(self, account: Account, browser: str | None) -> None:
        """A guest signed up or in: their browser's attempts join the lists as the account's."""
        key = browser_key(browser)
        if key is not None:
            self.store.claim(key, account.id)


class DailyHooks(MatchHooks):
    """The app's match hooks with the daily deals' part added: every deal's end stores the
    attempt's results so far."""

    def __init__(self, inner: MatchHooks, daily: Daily) -> None:
        self.inner = inner
        self.daily = daily

    def finished(self, table: Table) -> None:
        self.inner.finished(table)
        self.daily.update(table)

    def deal_ended(self, table: Table) -> None:
        self.inner.deal_ended(table)
        self.daily.update(table)

    def ratings_of(self, table: Table) -> list[dict[str, Any] | None] | None:
        return self.inner.ratings_of(table)
