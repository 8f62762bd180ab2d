"""Seeks and pairing: people who want a game wait in a pool and are seated together at a new table.

A seek holds a game, its options (checked as table creation checks them), rated or casual, a
clock, and its player count (from the options: a seek for N players waits for N - 1 others).
Seeks whose choices agree share a ``key`` and may be paired:

* casual: first come, first paired;
* rated: nearest in rating, within a window that widens while they wait
  (:func:`window`: :data:`WINDOW_START` rating points, :data:`WINDOW_GROWTH` more each second);
  every two seeks of a group must be within both one's and the other's window;
* a seek made to accept one of the lobby's open seeks (``accept``) is paired with that seek at
  once, whatever the ratings (its owner chose that opponent);
* nobody is paired with their own account, nor with a seek from their own browser (a guest's
  two tabs: the ``cardplay_browser`` cookie, browserid.py).

When a group is found a table is created with every seat a person's, each seat claimed for
its seek's owner; the owner's next poll (``GET /api/seeks/{id}``) is given the seat's token,
once. No store ever holds that token: it is derived from the seek's id, the table and the
seat under a secret of the site (``Pairing.secret``, from the signing key, the same in every
process), and the table keeps only its hash (see seekstore.py). A seek's owner is its account
(a signed-in person, by the session cookie) or
whoever holds its owner token (given once in the 201 answer, and as a cookie scoped to the
seek's URL); nobody else learns where it was seated.

A seek expires once its owner has not polled for ``limits.seek_expiry`` seconds (the page
polls every two). Each process runs :meth:`Pairing.tick` every second: it expires, prunes, and
pairs again every key with two or more waiting seeks (windows widen with time), so pairing also
happens when the seeks came in through different processes.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import math
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..engine import Game
from .bounds import check_match_length
from .clocks import UNSET, ClockError, parse_clock
from .creation import MAX_NAME
from .creation import check_game as creation_check_game
from .errors import RequestError
from .limits import Limits, RateLimiter
from .security import InputError, clean_text
from .seekstore import Seek, SeekStore
from .storage import seat_status
from .tables import TableError, hash_token

if TYPE_CHECKING:
    from .hub import Hub
    from .tables import Table

__all__ = ["WINDOW_GROWTH", "WINDOW_START", "AccountLike", "Pairing",
           "choose_group", "seek_key", "window"]

log = logging.getLogger("cardplay.server")

WINDOW_START = 100.0  # rating points either side at first
WINDOW_GROWTH = 25.0  # more rating points each second of waiting
NEW_RATING = 1500.0  # the rating of a player with none yet (the accounts' scale: mu 1500)
OPEN_LIST = 50  # open seeks the lobby lists at most
BOTS_AFTER = 20.0  # seconds of waiting before the page offers bots instead
PRUNE_AFTER = 3600.0  # seconds a finished seek is kept (its owner may poll late)
BODY_KEYS = frozenset({"game", "options", "rated", "clock", "name", "accept"})


class AccountLike(Protocol):
    """SEAM: the signed-in account of a request (``Accounts.account_of_scope`` on branch
    ``accounts`` returns one): its id and its name."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...


# the rating of an account under a game's rating key, or None for a new player
RatingOf = Callable[[str, str, int], "float | None"]


def window(seek: Seek, now: float) -> float:
    """How far from its own rating a rated seek accepts an opponent, after waiting until now."""
    return WINDOW_START + WINDOW_GROWTH * max(0.0, now - seek.created)


def seek_key(game: str, options: Mapping[str, Any], rated: bool,
             clock: Mapping[str, Any] | None) -> str:
    """What two seeks must share to be paired: the same game, options, rating and clock."""
    return json.dumps([game, dict(options), rated, clock], sort_keys=True,
                      separators=(",", ":"))


def _fits(group: Sequence[Seek], other: Seek, now: float) -> bool:
    """Whether ``other`` may join a rated group: within each member's window, and each
    member within its own."""
    r = _rating(other)
    w = window(other, now)
    return all(abs(_rating(s) - r) <= min(w, window(s, now)) for s in group)


def _distinct(group: Sequence[Seek], other: Seek) -> bool:
    """Whether ``other`` is someone else than every seek's owner in the group: not the same
    account, not the same browser (one person's two tabs, signed in or not)."""
    return all((other.account is None or s.account != other.account) and
               (other.browser is None or s.browser != other.browser) for s in group)


def choose_group(waiting: Sequence[Seek], now: float) -> list[Seek] | None:
    """One group of seeks to seat together, from the waiting seeks of one key (oldest first),
    or None. Acceptances first; then casual seeks in order of arrival, or rated seeks, each
    oldest seek with the nearest ratings that fit everyone's window."""
    if not waiting:
        return None
    n = waiting[0].players
    by_id = {s.id: s for s in waiting}
    for s in waiting:
        target = by_id.get(s.accepts) if s.accepts else None
        if target is None or target is s or not _distinct([target], s):
            continue
        group = [target, s]
        for other in waiting:
            if len(group) == n:
                break
            if other not in group and _distinct(group, other) and \
                    (not other.rated or _fits(group, other, now)):
                group.append(other)
        if len(group) == n:
            return group
    if not waiting[0].rated:
        for i, anchor in enumerate(waiting):
            group = [anchor]
            for other in waiting[i + 1:]:
                if len(group) == n:
                    break
                if _distinct(group, other):
                    group.append(other)
            if len(group) == n:
                return group
        return None
    # rated: by rating, so that each oldest seek looks outwards from its own rating, nearest
    # first, and stops at the edge of its window (a pool of a thousand costs its neighbours)
    ranked = sorted(waiting, key=_rating)
    ratings = [_rating(s) for s in ranked]
    place = {s.id: i for i, s in enumerate(ranked)}
    for anchor in waiting:
        group = [anchor]
        ra, wa = _rating(anchor), window(anchor, now)
        lo = hi = place[anchor.id]
        while len(group) < n:
            below = ra - ratings[lo - 1] if lo > 0 else math.inf
            above = ratings[hi + 1] - ra if hi + 1 < len(ranked) else math.inf
            if min(below, above) > wa:
                break
            if below <= above:
                lo -= 1
                other = ranked[lo]
            else:
                hi += 1
                other = ranked[hi]
            if _distinct(group, other) and _fits(group, other, now):
                group.append(other)
        if len(group) == n:
            return group
    return None


def _rating(seek: Seek) -> float:
    return seek.rating if seek.rating is not None else NEW_RATING


def check_game(name: Any, options: Any) -> Game:
    """The game a seek asks for, checked as table creation checks it (the same code, so the
    same messages), with the match-length bounds of a table whose every seat is a person's:
    a seek the table would refuse is refused at once instead of waiting for ever."""
    game = creation_check_game(name, options)
    check_match_length(game, [{"kind": "human"}] * game.players)
    return game


@dataclass
class Asker:
    """Who sends a request about seeks: their account (if signed in), owner token (if any)
    and client key."""

    account: AccountLike | None
    owner_token: str | None
    client: str
    browser: str | None = None  # browserid.browser_key of the request's browser


class Pairing:
    """The seeks of a site over one store, and the tables made of them in this process."""

    def __init__(self, hub: Hub, store: SeekStore, limits: Limits | None = None,
                 rating_of: RatingOf | None = None,
                 link_seat: Callable[[str, str, int], None] | None = None,
                 set_rated: Callable[[Table], None] | None = None,
                 interval: float = 1.0) -> None:
        self.hub = hub
        self.store = store
        self.limits = limits if limits is not None else hub.limits
        # accounts' seams: an account's rating, and recording that an account took a seat
        # (for its profile); without them every rated seek counts as a new player's
        self.rating_of = rating_of
        self.link_seat = link_seat
        self.set_rated = set_rated  # marks a table just made rated (accountseats.set_rated)
        self.rate = RateLimiter(self.limits.seek_rate)
        self.interval = interval
        # seconds after which the waiting page offers bots instead (told in each poll's answer)
        self.bots_after = BOTS_AFTER
        self.paired = 0  # tables made by this process
        # what seat tokens are derived under: the app sets the site's (Signer.secret), shared
        # by its processes; this process's own otherwise (one process, as in tests)
        self.secret = secrets.token_bytes(32)

    # ---- requests

    def seek(self, body: Mapping[str, Any], asker: Asker,
             now: float | None = None) -> tuple[Seek, str]:
        """A new seek (then an attempt to pair it at once); its owner token."""
        now = time.time() if now is None else now
        unknown = set(body) - BODY_KEYS
        if unknown:
            raise RequestError(400, "bad_request", f"a seek has no field {sorted(unknown)[0]!r}; "
                                                f"its fields: {', '.join(sorted(BODY_KEYS))}")
        accepted: Seek | None = None
        if "accept" in body:
            accepted = self._accepted(body)
        fields = _choices_of(accepted) if accepted is not None else body
        rated = fields.get("rated", False)
        if not isinstance(rated, bool):
            raise RequestError(400, "bad_request", "'rated' is true or false")
        try:
            game = check_game(fields.get("game"), fields.get("options"))
            name = clean_text(body.get("name"), "name", MAX_NAME)
        except (TableError, InputError) as e:
            raise RequestError(400, "bad_request", str(e)) from None
        try:  # the table's own check (every seat a person's): a seek and a table agree
            clock = parse_clock(fields.get("clock", UNSET), game.name, rated=rated,
                                people=game.players, rules=self.hub.clocks.rules)
        except ClockError as e:  # the same codes as a table's: bad_clock, clock_required
            raise RequestError(400, e.code, str(e)) from None
        if clock is not None:  # 15 and 15.0 are one clock: seeks that name it either way agree
            clock = {name: float(value) for name, value in clock.items()}
        if accepted is not None:
            self._agrees(body, accepted)
        account = asker.account
        if rated and account is None:
            raise RequestError(401, "not_signed_in", "sign in to seek a rated game")
        if accepted is not None and (
                (account is not None and accepted.account == account.id) or
                (asker.browser is not None and accepted.browser == asker.browser)):
            raise RequestError(409, "own_seek", "this open seek is your own")
        self._check_limits(asker, now)
        options = game.options_dict()
        rating = None
        if rated:  # a new player's rating when the account has none yet under this game
            known = self.rating_of(account.id, game.name, game.players) \
                if self.rating_of is not None and account is not None else None
            rating = NEW_RATING if known is None else float(known)
        token = secrets.token_urlsafe(18)
        seek = Seek(id=secrets.token_urlsafe(9), key=seek_key(game.name, options, rated, clock),
                    game=game.name, options=options, players=game.players, rated=rated,
                    clock=clock, owner_hash=hash_token(token),
                    account=account.id if account is not None else None,
                    name=account.name if account is not None else name, client=asker.client,
                    rating=rating, accepts=accepted.id if accepted is not None else None,
                    created=now, polled=now, browser=asker.browser)
        self.store.insert(seek)
        try:
            self.pair(seek.key, now, new=seek)
        except TableError as e:  # a cap on tables: the seek waits, the tick tries again
            log.warning("a seek of %s waits: %s", seek.game, e)
        return seek, token

    def _accepted(self, body: Mapping[str, Any]) -> Seek:
        target_id = body["accept"]
        if not isinstance(target_id, str) or not 0 < len(target_id) <= 40:
            raise RequestError(400, "bad_request", "'accept' is the id of an open seek")
        target = self.store.get(target_id)
        cutoff = time.time() - self.limits.seek_expiry
        if target is None or target.status != "waiting" or target.polled < cutoff:
            raise RequestError(409, "seek_gone", "that seek is no longer open: its owner was "
                                              "paired, cancelled or left")
        return target

    @staticmethod
    def _agrees(body: Mapping[str, Any], target: Seek) -> None:
        """An acceptance may repeat the accepted seek's choices, never change them."""
        for name in ("game", "rated", "clock"):
            if name in body and body[name] != getattr(target, name):
                raise RequestError(400, "bad_request", f"'{name}' differs from the accepted "
                                                    f"seek's; leave it out to take its own")
        if "options" in body and body["options"] is not None:
            game = check_game(target.game, body["options"])
            if game.options_dict() != target.options:
                raise RequestError(400, "bad_request", "'options' differ from the accepted "
                                                    "seek's; leave them out to take its own")

    def _check_limits(self, asker: Asker, now: float) -> None:
        since = now - self.limits.seek_expiry
        if asker.account is not None and self.store.count_waiting(
                account=asker.account.id, since=since) >= self.limits.seeks_per_account:
            raise RequestError(429, "too_many_seeks",
                            f"you have {self.limits.seeks_per_account} open seeks, the most "
                            f"one account may have; cancel one first")
        if self.store.count_waiting(client=asker.client, since=since) >= \
                self.limits.seeks_per_client:
            raise RequestError(429, "too_many_seeks",
                            f"this client has {self.limits.seeks_per_client} open seeks, the "
                            f"most one client may have; cancel one first")
        wait = self.rate.allow(asker.client)
        if wait > 0:
            raise RequestError(429, "rate_limited",
                            f"too many seeks from this client: at most "
                            f"{self.limits.seek_rate:g} a minute; try again in {wait:.0f} s",
                            retry_after=wait)

    def _owned(self, seek_id: str, asker: Asker) -> Seek:
        seek = self.store.get(seek_id) if 0 < len(seek_id) <= 40 else None
        if seek is None:
            raise RequestError(404, "no_seek", "no seek has this id")
        by_account = asker.account is not None and seek.account == asker.account.id
        by_token = asker.owner_token is not None and secrets.compare_digest(
            hash_token(asker.owner_token), seek.owner_hash)
        if not (by_account or by_token):
            raise RequestError(403, "not_owner", "only the seek's owner may see or cancel it "
                                              "(its session, or the owner token it was given)")
        return seek

    def status(self, seek_id: str, asker: Asker, now: float | None = None) -> dict[str, Any]:
        """What the owner's poll answers; a poll keeps the seek from expiring."""
        now = time.time() if now is None else now
        seek = self._owned(seek_id, asker)
        if seek.status == "waiting":
            if seek.polled < now - self.limits.seek_expiry:
                self.store.expire(now - self.limits.seek_expiry)
                return {"status": "expired", "waited": round(now - seek.created, 1)}
            self.store.touch(seek.id, now)
            return {"status": "waiting", "waited": round(now - seek.created, 1),
                    "bots_after": self.bots_after}
        if seek.status == "paired":
            token = self._seat_token(seek.id, seek.table, seek.seat) \
                if seek.table is not None and seek.seat is not None and \
                self.store.take_due(seek.id) else None
            return {"status": "paired", "table": seek.table, "seat": seek.seat,
                    "token": token, "url": f"/t/{seek.table}"}
        return {"status": seek.status}

    def _seat_token(self, seek_id: str, table: str, seat: int) -> str:
        """The token of the seat a seek was given: 24 characters (as a drawn token), worked
        out again wherever its owner polls, never stored."""
        mac = hmac.new(self.secret, f"{seek_id}\x00{table}\x00{seat}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()[:18]).decode("ascii")

    def cancel(self, seek_id: str, asker: Asker) -> None:
        """Take a seek out of the pool; 409 once it was paired (its table is waiting)."""
        seek = self._owned(seek_id, asker)
        if self.store.cancel(seek.id):
            return
        again = self.store.get(seek.id)
        if again is not None and again.status == "paired":
            raise RequestError(409, "already_paired", "this seek was paired already: its table "
                                                   "is waiting for you")

    def open_seeks(self, now: float | None = None) -> list[dict[str, Any]]:
        """The lobby's list: waiting seeks, newest first, without who owns them."""
        now = time.time() if now is None else now
        return [{"id": s.id, "game": s.game, "options": s.options, "players": s.players,
                 "rated": s.rated, "clock": s.clock, "name": s.name,
                 "rating": round(s.rating) if s.rating is not None else None,
                 "waited": round(now - s.created, 1)}
                for s in self.store.open_seeks(now - self.limits.seek_expiry, OPEN_LIST)]

    # ---- pairing

    def pair(self, key: str, now: float | None = None, new: Seek | None = None) -> int:
        """Seat every group of the key's waiting seeks that can be seated now; how many
        tables were made. With ``new`` (a seek just made) only the seeks it may join are
        read: those within its rating window, or the oldest few (the rest could not pair
        before it came, and the tick looks at them again as windows widen)."""
        now = time.time() if now is None else now
        since = now - self.limits.seek_expiry
        made = 0
        while True:
            if new is None:
                view = self.store.locked(key, since)
            elif new.rated:
                r, w = _rating(new), window(new, now)
                view = self.store.locked(key, since, near=(r - w, r + w),
                                         ids=[i for i in (new.id, new.accepts) if i])
            else:
                view = self.store.locked(key, since, first=4 * new.players,
                                         ids=[i for i in (new.id, new.accepts) if i])
            with view as waiting:
                group = choose_group(waiting, now)
                if group is None:
                    return made
                self._seat(group, now)
            made += 1
            if new is not None:
                return made

    def _seat(self, group: list[Seek], now: float) -> None:
        """A table with a seat for each seek's owner (in random order: nobody chooses who
        deals first); inside the store's lock, so that an error leaves the seeks waiting."""
        order = list(group)
        secrets.SystemRandom().shuffle(order)
        first = order[0]
        table, _, _ = self.hub.create_table(
            first.game, first.options, [{"kind": "human"}] * len(order), claim=False,
            client=None, clock=first.clock)
        if first.rated:
            if self.set_rated is None:
                raise TableError("rated play needs the accounts", status=503)
            self.set_rated(table)  # before any seat is claimed: nobody has seen it unrated
        monotonic = time.monotonic()
        for seat, seek in zip(table.seats, order):
            # only its hash is kept: the owner's first poll works the token out again
            seat.token_hash = hash_token(self._seat_token(seek.id, table.id, seat.index))
            seat.name = seek.name
            seat.account = seek.account
            seat.away_since = monotonic
        seat_dicts = [s.stored() for s in table.seats]
        table.stored.seats = seat_dicts
        table.stored.status = seat_status(seat_dicts)
        self.hub.storage.update_seats(table.id, seat_dicts, table.stored.status)
        for seat, seek in zip(table.seats, order):
            self.store.mark_paired(seek.id, table.id, seat.index)
            if seek.account is not None and self.link_seat is not None:
                try:  # the profile's index only: never a reason to undo the pairing (and make
                    # a table for the same seeks again at every tick, say if the account went)
                    self.link_seat(seek.account, table.id, seat.index)
                except Exception:
                    log.exception("seat %d of table %s not linked to its account",
                                  seat.index, table.id)
        self.hub.kick(table)  # claimed seats now: the grace timer of the person to move arms
        self.paired += 1
        log.info("paired %d seeks of %s at table %s", len(group), first.game, table.id)

    def tick(self, now: float | None = None) -> int:
        """Expire seeks nobody polls, forget old ones, and pair every key that may pair now
        (windows have widened); how many tables were made."""
        now = time.time() if now is None else now
        self.store.expire(now - self.limits.seek_expiry)
        self.store.prune(now - PRUNE_AFTER)
        made = 0
        for key in self.store.keys_to_pair(now - self.limits.seek_expiry):
            try:
                made += self.pair(key, now)
            except TableError as e:  # a cap on tables: these seeks wait for the next tick
                log.warning("pairing seeks of %s waits: %s", key, e)
        return made

    async def run_forever(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                self.tick()
            except Exception:  # a database hiccup: the next tick tries again
                log.exception("the pairing tick failed")


def _choices_of(seek: Seek) -> dict[str, Any]:
    return {"game": seek.game, "options": seek.options, "rated": seek.rated, "clock": seek.clock}


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) of some values, nearest rank."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]
