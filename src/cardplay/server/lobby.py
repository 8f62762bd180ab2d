"""The lobby: the game catalog and the paginated list of tables.

A page of tables is one range of an SQLite index (``Storage.lobby_page``): its cost does not
grow with the number of tables. A table in memory is shown live (who is connected, spectators);
one that is not is shown from its row. While the store is down the lobby lists the tables this
process holds in memory (the page says ``"partial": true``).
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, Any

from ..engine import game_class
from .security import safe_text
from .storage import LIVE, StoreUnavailable

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["DEFAULT_PAGE", "MAX_PAGE", "CursorError", "lobby", "lobby_list"]

DEFAULT_PAGE = 50
MAX_PAGE = 100


class CursorError(ValueError):
    """A lobby cursor or page size that this server did not hand out."""


def encode_cursor(created: float, table_id: str) -> str:
    return base64.urlsafe_b64encode(f"{created!r}|{table_id}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[float, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, _, table_id = raw.partition("|")
        value = float(created)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise CursorError("'cursor' is not one this server handed out") from None
    if not table_id or value != value:
        raise CursorError("'cursor' is not one this server handed out")
    return value, table_id


def _row_summary(row: dict[str, Any]) -> dict[str, Any]:
    """A table's lobby entry from its stored row (nobody is connected to it here)."""
    cls = game_class(row["game"])
    seats = row["seats"]
    players = len(seats)
    return {"id": row["id"], "game": row["game"], "title": dict(cls.title),
            "options": row["options"], "players": players,
            # safe_text: a row written before names were checked may hold a lone surrogate
            "seats": [{"seat": i, "kind": s.get("kind"),
                       "name": safe_text(str(s.get("name") or "")),
                       "level": s.get("level") if s.get("kind") == "bot" else None,
                       "claimed": s.get("kind") == "bot" or bool(s.get("token_hash")),
                       "connected": s.get("kind") == "bot", "bot_playing": False}
                      for i, s in enumerate(seats)],
            "open_seats": [i for i, s in enumerate(seats)
                           if s.get("kind") == "human" and not s.get("token_hash")],
            "version": row["version"], "deal_number": row["deals"] + 1, "is_over": False,
            "scores": row["scores"] if row["scores"] is not None else [0] * players,
            "created": row["created"], "spectators": 0, "commitment": row["commitment"]}


def lobby_list(hub: Hub, status: str, limit: int = DEFAULT_PAGE,
               cursor: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
    """One page of the tables of ``status`` (open or playing), newest first, and the cursor of
    the next page (None on the last)."""
    if status not in LIVE:
        raise CursorError("'list' is 'open' or 'playing'")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
        raise CursorError(f"'limit' is a whole number from 1 to {MAX_PAGE}")
    before = decode_cursor(cursor) if cursor else None
    try:
        rows = hub.storage.lobby_page(status, limit + 1, before)
    except StoreUnavailable as e:
        hub.outage.noticed(e)
        return _from_memory(hub, status, limit, before)
    more = len(rows) > limit
    rows = rows[:limit]
    out = []
    for row in rows:
        table = hub.tables.get(row["id"])
        out.append(table.summary() if table is not None else _row_summary(row))
    nxt = encode_cursor(rows[-1]["created"], rows[-1]["id"]) if more and rows else None
    return out, nxt


def _from_memory(hub: Hub, status: str, limit: int, before: tuple[float, str] | None
                 ) -> tuple[list[dict[str, Any]], str | None]:
    """A page as :func:`lobby_list` gives it, of the tables in this process's memory (the
    store is down): the same order and cursors, so paging goes on once it is back."""
    found = sorted((t for t in hub.tables.values()
                    if t.stored.status == status and t.stored.listed and
                    (before is None or (t.created, t.id) < before)),
                   key=lambda t: (t.created, t.id), reverse=True)
    page = found[:limit]
    nxt = encode_cursor(page[-1].created, page[-1].id) if len(found) > limit else None
    return [t.summary() for t in page], nxt


def lobby(hub: Hub, limit: int = DEFAULT_PAGE) -> dict[str, Any]:
    """The first page of open tables and of tables in play, with the cursors of the next."""
    open_tables, next_open = lobby_list(hub, "open", limit)
    playing, next_playing = lobby_list(hub, "playing", limit)
    page: dict[str, Any] = {"open": open_tables, "playing": playing, "next_open": next_open,
                            "next_playing": next_playing}
    if hub.outage.down_since is not None:  # listed from memory: other processes' are missing
        page["partial"] = True
    return page
