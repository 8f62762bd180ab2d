"""Where a table's clock lives between moves: the ``clock`` column of its row, in either store.

A move stores its clock in the move's own transaction (``Store.add_move(..., clock=)``); these
two read and write it on their own, for a change between moves (a turn started or stopped, a
forfeit) and for a process that must see what the lease holder stored. They go through the
store's ``connection`` (SQLite's or PostgreSQL's), whose placeholders differ.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from .storage import Store

__all__ = ["load_clock", "save_clock"]


def _sql(store: Store, sql: str) -> str:
    return sql if isinstance(store.connection, sqlite3.Connection) else sql.replace("?", "%s")


def save_clock(store: Store, table_id: str, clock: dict[str, Any]) -> None:
    """Store a table's clock (committed on return: both stores run in autocommit)."""
    store.connection.execute(_sql(store, "UPDATE tables SET clock = ? WHERE id = ?"),
                             (json.dumps(clock), table_id))


def load_clock(store: Store, table_id: str) -> dict[str, Any] | None:
    """A table's clock as stored, or None (no clock, or no such table)."""
    row = store.connection.execute(_sql(store, "SELECT clock FROM tables WHERE id = ?"),
                                   (table_id,)).fetchone()
    return json.loads(row[0]) if row is not None and row[0] else None
