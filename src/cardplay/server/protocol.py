"""The WebSocket protocol: client messages, their checks, and the error codes.

One WebSocket per client at ``/ws``; every frame is one JSON object with a ``type``. The full
description, with examples, is ``docs/protocol.md``. A client may put an ``id`` (a string or a
whole number) in any message; the server's answer to that message (an ``error``, a ``record``, a
``pong``, or the ``state`` that follows the client's own move) carries it back as ``reply_to``.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["CLIENT_TYPES", "ERROR_CODES", "MAX_MESSAGE", "PROTOCOL_VERSION", "ProtocolError",
           "error_message", "parse_client_message"]

PROTOCOL_VERSION = 1
MAX_MESSAGE = 4096  # characters; no client message needs more

# type -> {field: (accepted types, required)}
_STR = (str,)
_INT = (int,)
_ID = (str, int)
CLIENT_TYPES: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {"table": (_STR, True), "token": (_STR, True)},
    "watch": {"table": (_STR, True)},
    "move": {"move": (_STR, True), "version": (_INT, True)},
    "resync": {},
    "record": {},
    "ping": {},
}

ERROR_CODES: dict[str, str] = {
    "malformed": "the frame is not a JSON object of a known type with the right fields",
    "unknown_type": "the message's type is not one the server knows",
    "too_large": "the message is longer than the server accepts",
    "no_table": "no table has this id",
    "bad_token": "the seat token does not belong to this table",
    "already_joined": "this connection is already at a table (open a new one to change)",
    "not_joined": "send hello (a seat) or watch (a spectator) first",
    "not_seated": "a spectator cannot move",
    "stale": "the move was made against an older state version; a state follows",
    "out_of_turn": "it is not this seat's turn",
    "invalid": "the move does not fit the game's notation",
    "illegal": "the move is not legal now",
    "over": "the match is over",
    "not_over": "the record is given only once the match is over",
    "storage": "the move could not be stored; nothing changed",
}


class ProtocolError(Exception):
    """A message the server refuses: an error code of :data:`ERROR_CODES` and a message."""

    def __init__(self, code: str, message: str | None = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message or ERROR_CODES[code])
        self.code = code
        self.message = message or ERROR_CODES[code]


def error_message(code: str, message: str, reply_to: Any = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if reply_to is not None:
        msg["reply_to"] = reply_to
    return msg


def parse_client_message(text: str | bytes | None) -> dict[str, Any]:
    """The checked dict of one client frame; ProtocolError when it is not a valid message."""
    if not isinstance(text, str):
        raise ProtocolError("malformed", "frames are JSON text, not binary")
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"a message holds at most {MAX_MESSAGE} characters")
    try:
        msg = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("malformed", "the frame is not valid JSON") from None
    if not isinstance(msg, dict):
        raise ProtocolError("malformed", "a message is a JSON object")
    mid = msg.get("id")
    if mid is not None and (isinstance(mid, bool) or not isinstance(mid, (str, int))):
        raise ProtocolError("malformed", "'id' is a string or a whole number")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("malformed", "a message has a string 'type'")
    fields = CLIENT_TYPES.get(kind)
    if fields is None:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}; known types: "
                                            f"{', '.join(CLIENT_TYPES)}")
    for name, (types, required) in fields.items():
        if name not in msg:
            if required:
                raise ProtocolError("malformed", f"a {kind} message needs {name!r}")
            continue
        value = msg[name]
        if isinstance(value, bool) or not isinstance(value, types):
            want = " or ".join("string" if t is str else "whole number" for t in types)
            raise ProtocolError("malformed", f"{kind}: {name!r} must be a {want}")
    return msg
