"""Accounts and sessions: sign-up, sign-in, sign-out, the session cookie, deletion.

A person needs no account to play; an account gives a name that outlives one browser, a
profile, ratings. Rules kept here:

* a name is checked like a seat name (:func:`~cardplay.server.security.clean_text`, at most
  :data:`MAX_NAME` characters) and may not be empty or hold ``/`` or ``\\`` (it is part of the
  profile's URL); names are unique ignoring case (the case-folded name is the unique key);
* a password has :data:`~cardplay.server.passwords.MIN_PASSWORD` to
  :data:`~cardplay.server.passwords.MAX_PASSWORD` characters; only its Argon2id hash is stored,
  and neither is ever logged or echoed;
* a session is a random token in the ``cardplay_session`` cookie (HttpOnly, SameSite=Lax, Secure
  when the request came over https: uvicorn sets the scheme from a proxy's
  ``X-Forwarded-Proto`` only for the proxies it trusts); the database keeps the token's SHA-256,
  so a stolen database opens no session. A session unused for :data:`SESSION_IDLE` seconds ends;
* sign-in is rate-limited per client and per account name (known or not, so a 429 tells nothing
  about which names exist); a wrong password and an unknown name cost one Argon2id computation
  each and get the same :class:`RequestError` ``bad_credentials``;
* Argon2id runs in a worker thread, at most :data:`MAX_HASHING` at once, so the event loop
  never waits for it.

Seam for the rest of the server: :meth:`Accounts.account_of_scope` (an HTTP request's or a
WebSocket's ASGI scope → the signed-in :class:`Account`, or None), and
:meth:`Accounts.account_of_token` for a cookie value already read.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from starlette.types import Scope

from .accountdb import AccountDb
from .errors import RequestError
from .limits import Limits, RateLimiter
from .passwords import MAX_PASSWORD, MIN_PASSWORD, Passwords
from .security import InputError, clean_text

__all__ = ["COOKIE", "MAX_NAME", "SESSION_IDLE", "Account", "Accounts",
           "cookie_header", "name_key"]

COOKIE = "cardplay_session"
MAX_NAME = 40  # characters, as a seat name
SESSION_IDLE = 30 * 24 * 3600.0  # seconds a session may go unused before it ends
_TOUCH_EVERY = 300.0  # seconds between writes of a session's "last used" time
MAX_HASHING = 4  # Argon2id computations at once (each takes its memory cost)
_MAX_TOKEN = 100  # characters of a cookie value worth looking up


@dataclass(frozen=True)
class Account:
    """A signed-in person: the account's id and name, and the session they came with."""

    id: str
    name: str
    session: str  # the session's public id (not its token)


def name_key(name: str) -> str:
    """The unique key of a name: names that differ only in case (any script) share it."""
    return unicodedata.normalize("NFC", name).casefold()


def check_name(value: Any) -> str:
    try:
        name = clean_text(value, "name", MAX_NAME)
    except InputError as e:
        raise RequestError(400, "bad_name", str(e)) from None
    if not name:
        raise RequestError(400, "bad_name", "'name' is a name of 1 to "
                                            f"{MAX_NAME} characters")
    if "/" in name or "\\" in name:
        raise RequestError(400, "bad_name", "'name' may not hold / or \\")
    return name


def check_password(value: Any) -> str:
    if not isinstance(value, str) or not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise RequestError(400, "bad_password", f"'password' is a text of {MIN_PASSWORD} to "
                                                f"{MAX_PASSWORD} characters")
    return value


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def cookie_header(token: str, secure: bool, max_age: float = SESSION_IDLE) -> str:
    """The ``Set-Cookie`` value that sets (``token``) or, with an empty token and max_age 0,
    clears the session cookie."""
    parts = [f"{COOKIE}={token}", "Path=/", f"Max-Age={int(max_age)}", "HttpOnly",
             "SameSite=Lax"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


def cookie_of(scope: Scope) -> str | None:
    """The session cookie's value in a request's (or WebSocket's) headers."""
    for key, value in scope.get("headers") or ():
        if key != b"cookie":
            continue
        for part in bytes(value).decode("latin-1").split(";"):
            k, _, v = part.strip().partition("=")
            if k == COOKIE and v:
                return v
    return None


def is_https(scope: Scope) -> bool:
    return scope.get("scheme") in ("https", "wss")


class Accounts:
    """The accounts of one server over its database."""

    def __init__(self, db: AccountDb, passwords: Passwords, limits: Limits) -> None:
        self.db = db
        self.passwords = passwords
        self.client_rate = RateLimiter(limits.signin_rate)
        self.account_rate = RateLimiter(limits.signin_account_rate)
        self.signup_rate = RateLimiter(limits.signup_rate)
        self._hashing = asyncio.Semaphore(MAX_HASHING)

    # ---- the seam

    def account_of_token(self, token: str | None) -> Account | None:
        """The account of a session token (a cookie's value), or None: no token, an unknown or
        ended session, an account since deleted."""
        if not token or len(token) > _MAX_TOKEN or not token.isascii():
            return None
        found = self.db.session(_token_hash(token))
        if found is None:
            return None
        session_id, account_id, name, seen = found
        now = time.time()
        if now - seen > SESSION_IDLE:
            self.db.delete_session(account_id, session_id)
            return None
        if now - seen > _TOUCH_EVERY:
            self.db.touch_session(session_id, now)
        return Account(account_id, name, session_id)

    def account_of_scope(self, scope: Scope) -> Account | None:
        """The signed-in account of an HTTP request or a WebSocket (its ``cardplay_session``
        cookie), or None."""
        return self.account_of_token(cookie_of(scope))

    # ---- signing up and in

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.passwords.hash, password)

    async def _verify(self, stored: str | None, password: str) -> bool:
        async with self._hashing:
            return await asyncio.to_thread(self.passwords.verify, stored, password)

    def _open_session(self, account_id: str, name: str, agent: str) -> tuple[Account, str]:
        token = secrets.token_urlsafe(32)
        session_id = secrets.token_urlsafe(9)
        self.db.insert_session(session_id, _token_hash(token), account_id, time.time(),
                               agent[:120])
        return Account(account_id, name, session_id), token

    async def sign_up(self, name: Any, password: Any, client: str, agent: str = ""
                      ) -> tuple[Account, str]:
        """A new account and a session of it: (account, session token). RequestError: 400 a
        bad name or password, 409 the name is taken (in any case), 429 too many sign-ups."""
        clean = check_name(name)
        secret = check_password(password)
        key = name_key(clean)
        if self.db.account_by_key(key) is not None:
            raise RequestError(409, "name_taken", "this name is taken; choose another")
        wait = self.signup_rate.allow(client)
        if wait > 0:
            raise RequestError(429, "too_many_tries", f"too many new accounts from this client;"
                                                      f" try again in {wait:.0f} s", wait)
        hashed = await self._hash(secret)
        account_id = secrets.token_hex(8)
        if not self.db.insert_account(account_id, clean, key, hashed, time.time()):
            raise RequestError(409, "name_taken", "this name is taken; choose another")
        return self._open_session(account_id, clean, agent)

    async def sign_in(self, name: Any, password: Any, client: str, agent: str = ""
                      ) -> tuple[Account, str]:
        """A new session of an account: (account, session token). RequestError: 401
        ``bad_credentials`` for a wrong password and an unknown name alike, 429 too many
        tries (from this client, or at this name)."""
        if not isinstance(name, str) or not isinstance(password, str) or \
                len(name) > 4 * MAX_NAME or len(password) > MAX_PASSWORD:
            raise RequestError(400, "bad_request", "'name' and 'password' are texts")
        key = name_key(name.strip())
        for limiter, what in ((self.client_rate, "from this client"),
                              (self.account_rate, "for this name")):
            wait = limiter.allow(client if limiter is self.client_rate else key)
            if wait > 0:
                raise RequestError(429, "too_many_tries",
                                   f"too many sign-in tries {what}: at most "
                                   f"{limiter.capacity:g} a minute; try again in {wait:.0f} s",
                                   wait)
        found = self.db.account_by_key(key)
        ok = await self._verify(found[2] if found else None, password)
        if not ok or found is None:
            raise RequestError(401, "bad_credentials", "the name or the password is wrong")
        account_id, real_name, stored = found
        if self.passwords.needs_rehash(stored):
            self.db.set_password_hash(account_id, await self._hash(password))
        return self._open_session(account_id, real_name, agent)

    # ---- sessions

    def sign_out(self, account: Account, everywhere: bool = False) -> None:
        if everywhere:
            self.db.delete_sessions(account.id)
        else:
            self.db.delete_session(account.id, account.session)

    def sessions(self, account: Account) -> list[dict[str, Any]]:
        """An account's sessions for its page: id, times, browser, and which is this one."""
        return [{"id": sid, "created": created, "seen": seen, "agent": agent,
                 "current": sid == account.session}
                for sid, created, seen, agent in self.db.sessions(account.id)]

    def end_session(self, account: Account, session_id: Any) -> None:
        if not isinstance(session_id, str) or \
                not self.db.delete_session(account.id, session_id):
            raise RequestError(404, "no_session", "this account has no session with this id")

    async def delete(self, account: Account, password: Any) -> list[str]:
        """Delete an account (its password again, so a borrowed browser cannot): its sessions,
        ratings and links go; its games stay, its seats anonymised. The ids of the tables
        whose seats changed."""
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise RequestError(400, "bad_request", "'password' is a text")
        found = self.db.account_by_key(name_key(account.name))
        if found is None or found[0] != account.id or \
                not await self._verify(found[2], password):
            raise RequestError(401, "bad_credentials", "the password is wrong")
        return self.db.delete_account(account.id)
