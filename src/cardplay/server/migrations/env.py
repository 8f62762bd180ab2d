"""Alembic's environment for cardplay's PostgreSQL schema (online migrations only)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool, text

# any fixed number: the key of the advisory lock that lets one process migrate at a time
_LOCK = 0x63617264706C6179  # "cardplay", below 2**63


def run() -> None:
    url = context.config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=None)
        with context.begin_transaction():
            # processes started together wait here; the second finds the schema at head
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": _LOCK})
            context.run_migrations()
    engine.dispose()


run()
