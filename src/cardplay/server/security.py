"""What the server accepts from strangers: bounded JSON, clean texts, allowed origins.

Everything here runs before a request or a frame reaches the hub, so that no input can make the
server answer 500, stall the event loop or store something it cannot send back:

* :func:`parse_json` parses JSON text with its nesting depth and its numbers bounded *before*
  the costly work (Python's ``int("9" * 5000)`` raises ValueError, and a 3,000-deep array
  exhausts the recursion limit), and refuses lone surrogates anywhere (JSON's ``"\\ud800"``
  decodes to a Python string that cannot be encoded to UTF-8, which would break every answer
  that echoes it);
* :func:`clean_text` checks a person's name (length, no control or invisible formatting
  characters);
* :class:`OriginPolicy` decides whether a browser page of another site may act here.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlsplit

__all__ = ["MAX_DEPTH", "MAX_ID_CHARS", "MAX_NUMBER_CHARS", "InputError", "OriginPolicy",
           "check_seed", "check_strings", "clean_text", "parse_json", "safe_text", "usable_id"]

MAX_DEPTH = 32  # no message or body of this protocol nests deeper than 4
MAX_NUMBER_CHARS = 24  # enough for any 64-bit number or float text; far below int's 4,300 digits
MAX_ID_CHARS = 64
SEED_LIMIT = 2 ** 63  # seeds are 63-bit, as the engine's own fresh seeds

_SURROGATE = re.compile("[\ud800-\udfff]")


class InputError(ValueError):
    """Input the server refuses; the message says what is wrong, for a 400 or an error frame."""


def _depth_ok(text: str, limit: int) -> bool:
    """Whether the JSON text nests at most ``limit`` deep (strings are skipped, so brackets
    inside them do not count). One linear scan, far cheaper than a recursive parse."""
    depth = 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > limit:
                return False
        elif tok in "]}":
            depth -= 1
    return True


def _bounded_number(kind: type) -> Any:
    def parse(text: str) -> Any:
        if len(text) > MAX_NUMBER_CHARS:
            raise InputError(f"a number of {len(text)} characters is too long; numbers here "
                             f"hold at most {MAX_NUMBER_CHARS}")
        return kind(text)

    return parse


def _refuse_constant(name: str) -> Any:
    raise InputError(f"{name} is not a JSON number")


def _check_strings(value: Any) -> None:
    """Refuse a lone surrogate in any string or key of a parsed value (depth already bounded)."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise InputError("a text holds a lone surrogate (\\ud800-\\udfff), which is not "
                             "Unicode text")
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_strings(k)
            _check_strings(v)
    elif isinstance(value, list):
        for v in value:
            _check_strings(v)


def parse_json(text: str | bytes, *, max_depth: int = MAX_DEPTH,
               check_strings: bool = True) -> Any:
    """Parse JSON from a stranger; InputError (never anything else) when it is not acceptable.
    ``check_strings=False`` leaves the lone-surrogate check to the caller (:func:`check_strings`),
    which may first want to read a usable ``id`` to answer with."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("the body is not UTF-8 text") from None
    if not _depth_ok(text, max_depth):
        raise InputError(f"the JSON nests deeper than {max_depth} levels")
    try:
        value = json.loads(text, parse_int=_bounded_number(int),
                           parse_float=_bounded_number(float), parse_constant=_refuse_constant)
    except InputError:
        raise
    except (ValueError, RecursionError):
        raise InputError("the text is not valid JSON") from None
    if check_strings:
        _check_strings(value)
    return value


def check_strings(value: Any) -> None:
    """InputError when any string or key in ``value`` holds a lone surrogate."""
    _check_strings(value)


def safe_text(text: str) -> str:
    """``text`` with any lone surrogate replaced, for texts that came from elsewhere (an older
    database) and must still encode to UTF-8."""
    return _SURROGATE.sub("\ufffd", text)


# Invisible formatting (Cf: bidirectional overrides, zero-width marks) could make one name look
# like another or reverse the text around it; control characters (Cc) could break a terminal or
# a log line. Neither belongs in a seat name.
_BANNED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean_text(value: Any, what: str, max_chars: int) -> str:
    """A person's short text (a seat name): a string of at most ``max_chars`` characters after
    trimming, with no control, formatting or unassigned characters. InputError otherwise."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError(f"'{what}' is a text")
    text = unicodedata.normalize("NFC", value.strip())
    if len(text) > max_chars:
        raise InputError(f"'{what}' holds at most {max_chars} characters, not {len(text)}")
    for ch in text:
        if unicodedata.category(ch) in _BANNED_CATEGORIES:
            raise InputError(f"'{what}' may not hold the character U+{ord(ch):04X} (a control, "
                             f"invisible or unassigned character)")
    return text


def usable_id(value: Any) -> str | int | None:
    """A client message's ``id`` when it can be sent back as ``reply_to``, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and -SEED_LIMIT <= value < SEED_LIMIT:
        return value
    if isinstance(value, str) and len(value) <= MAX_ID_CHARS and not _SURROGATE.search(value):
        return value
    return None


def check_seed(value: Any) -> int | None:
    """A creator's seed: None, or a whole number with 0 <= seed < 2**63."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SEED_LIMIT:
        raise InputError("'seed' is a whole number from 0 to 2**63 - 1")
    return value


def _origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` in lower case, the form browsers send in ``Origin``."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


class OriginPolicy:
    """Which web pages may act here: by default only the server's own (an ``Origin`` whose
    host and port are the request's ``Host``), plus any listed in ``allowed`` (``*`` allows
    every origin). A request with no ``Origin`` is not from a page of another site (bots,
    scripts, the same page's navigation) and is allowed."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.any = False
        listed: set[str] = set()
        for a in allowed:
            if a.strip() == "*":
                self.any = True
                continue
            origin = _origin_of(a)
            if origin is None:
                raise ValueError(f"{a!r} is not an origin such as https://cards.example.org")
            listed.add(origin)
        self.allowed = frozenset(listed)

    def allows(self, origin: str | None, host: str | None, schemes: Sequence[str]) -> bool:
        if origin is None:
            return True
        if self.any:
            return True
        got = _origin_of(origin)
        if got is None:  # "null" (a sandboxed frame, a file) and anything unparsable
            return False
        if got in self.allowed:
            return True
        return host is not None and any(got == f"{s}://{host}".lower() for s in schemes)
