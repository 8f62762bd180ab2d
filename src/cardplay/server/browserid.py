"""A browser's own id (the ``cardplay_browser`` cookie): one guest's two tabs are not two people.

A guest has no account, and an address may hold a whole household: the cookie is the one thing
that two tabs of one browser share and two browsers do not. It is random, HttpOnly, sent to
every path (``Lax``: a link from elsewhere still carries it), and lives about a year; the
server stores only its SHA-256 (:func:`browser_key`), so a copy of the database names no
cookie. The same cookie, in the same form, serves any feature that must know "this browser"
(the daily deals' one attempt a day for a guest).
"""

from __future__ import annotations

import hashlib
import secrets

from starlette.requests import Request
from starlette.responses import Response

__all__ = ["BROWSER_COOKIE", "browser_cookie", "browser_key", "browser_of", "give_id"]

BROWSER_COOKIE = "cardplay_browser"
BROWSER_DAYS = 400
_MOST = 100  # characters of a cookie worth hashing; ours are 32


def browser_key(value: str | None) -> str | None:
    """What is stored of a browser id: its SHA-256; None for none (or one too long)."""
    if not value or len(value) > _MOST:
        return None
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def browser_of(request: Request) -> tuple[str, str | None]:
    """The key of the request's browser, and the id to give it (:func:`give_id`) when it came
    without one (None otherwise): its key is returned already, so its first request counts."""
    key = browser_key(request.cookies.get(BROWSER_COOKIE))
    if key is not None:
        return key, None
    value = secrets.token_urlsafe(24)
    return browser_key(value) or "", value


def browser_cookie(value: str, https: bool) -> str:
    """The ``Set-Cookie`` value that gives a browser its id."""
    return (f"{BROWSER_COOKIE}={value}; Path=/; Max-Age={BROWSER_DAYS * 86400}; HttpOnly; "
            f"SameSite=Lax" + ("; Secure" if https else ""))


def give_id(request: Request, response: Response, value: str | None) -> None:
    """Set a new browser id (from :func:`browser_of`) on the answer; nothing for None."""
    if value is not None:
        response.headers.append("set-cookie",
                                browser_cookie(value, request.url.scheme == "https"))
