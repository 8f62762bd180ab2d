"""The WebSocket protocol: client messages, their checks, and the error codes.

One WebSocket per client at ``/ws``; every frame is one JSON object with a ``type``. The full
description, with examples, is ``docs/protocol.md``. A client may put an ``id`` (a string or a
whole number) in any message; the server's answer to that message (an ``error``, a ``record``, a
``pong``, or the ``state`` that follows the client's own move) carries it back as ``reply_to``.
"""

from __future__ import annotations

from typing import Any

from .security import MAX_ID_CHARS, InputError, check_strings, parse_json, usable_id

__all__ = ["CLIENT_TYPES", "ERROR_CODES", "MAX_MESSAGE", "PROTOCOL_VERSION", "ProtocolError",
           "error_message", "parse_client_message"]

PROTOCOL_VERSION = 1
MAX_MESSAGE = 4096  # characters; no client message needs more

# type -> {field: (accepted types, required)}
_STR = (str,)
_INT = (int,)
_ID = (str, int)
CLIENT_TYPES: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {"table": (_STR, True), "token": (_STR, True), "contribution": (_STR, False)},
    "watch": {"table": (_STR, True)},
    "move": {"move": (_STR, True), "version": (_INT, True)},
    "resync": {},
    "record": {},
    "hint": {},
    "review": {"deal": (_INT, True)},
    "undo": {"version": (_INT, True)},
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
    "no_help": "hints and reviews are offered only to a person playing against bots alone",
    "busy": "a hint or review for this connection is still being worked out",
    "no_deal": "that deal is not finished",
    "unavailable": "not possible just now (the database is down, or the values could not be "
                   "worked out); nothing changed",
    "rate": "too many moves from this client; wait a moment",
    "forfeited": "this seat's person forfeited the match (time); a bot plays it to the end",
    "waiting": "the cards are not dealt yet: a person's seat is still to be taken",
    "bad_contribution": "a contribution is 32 hexadecimal characters",
    "no_undo": "undo is offered only to a person alone with bots at a casual table without a "
               "clock",
    "nothing_to_undo": "this seat has no move to take back in the deal in play",
}


class ProtocolError(Exception):
    """A message the server refuses: an error code of :data:`ERROR_CODES` and a message."""

    def __init__(self, code: str, message: str | None = None, reply_to: Any = None,
                 reason: dict[str, Any] | None = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message or ERROR_CODES[code])
        self.code = code
        self.message = message or ERROR_CODES[code]
        self.reply_to = reply_to  # the message's usable id, when the error is found parsing
        # the rule that refused a move, in words for a person (Reason.to_dict), where known
        self.reason = reason


def error_message(code: str, message: str, reply_to: Any = None,
                  reason: dict[str, Any] | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if reply_to is not None:
        msg["reply_to"] = reply_to
    if reason is not None:
        msg["reason"] = reason
    return msg


def parse_client_message(text: str | bytes | None) -> dict[str, Any]:
    """The checked dict of one client frame; ProtocolError when it is not a valid message.

    The ``id`` is read as soon as the frame is a JSON object, so that every later refusal
    (a wrong type, a missing field, a lone surrogate in a field) carries it as ``reply_to``.
    The frame size is bounded twice: by the transport (``ws_max_size`` bytes, before the frame
    is buffered) and here (characters)."""
    if not isinstance(text, str):
        raise ProtocolError("malformed", "frames are JSON text, not binary")
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"a message holds at most {MAX_MESSAGE} characters")
    try:
        msg = parse_json(text, check_strings=False)
    except InputError as e:
        raise ProtocolError("malformed", f"the frame is not acceptable JSON: {e}") from None
    if not isinstance(msg, dict):
        raise ProtocolError("malformed", "a message is a JSON object")
    raw_id = msg.get("id")
    mid = usable_id(raw_id)
    if raw_id is not None and mid is None:
        raise ProtocolError("malformed", f"'id' is a whole number or a text of at most "
                                         f"{MAX_ID_CHARS} characters")
    try:
        check_strings(msg)
    except InputError as e:
        raise ProtocolError("malformed", str(e), mid) from None
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("malformed", "a message has a string 'type'", mid)
    fields = CLIENT_TYPES.get(kind)
    if fields is None:
        shown = kind if len(kind) <= 40 else kind[:40] + "..."
        raise ProtocolError("unknown_type", f"unknown message type {shown!r}; known types: "
                                            f"{', '.join(CLIENT_TYPES)}", mid)
    for name, (types, required) in fields.items():
        if name not in msg:
            if required:
                raise ProtocolError("malformed", f"a {kind} message needs {name!r}", mid)
            continue
        value = msg[name]
        if isinstance(value, bool) or not isinstance(value, types):
            want = " or ".join("string" if t is str else "whole number" for t in types)
            raise ProtocolError("malformed", f"{kind}: {name!r} must be a {want}", mid)
    return msg
