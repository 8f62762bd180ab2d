"""The protocol over PostgreSQL: the SQLite tests of one process, again with a PostgreSQL
store (a throwaway server from the Debian package, one fresh database per test), and the
store's own guarantees: its schema comes from Alembic, and move n of a table is stored once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient

from cardplay.server.app import create_app
from cardplay.server.botpool import ThreadBotRunner
from cardplay.server.pgstore import PostgresStorage
from cardplay.server.storage import MoveConflict, StoredTable, StoreUnavailable

from .conftest import create, hello, recv
from .test_protocol import (  # the same tests, here over the `client` below
    test_a_move_that_cannot_be_stored_changes_nothing,
    test_an_invite_only_table_is_never_listed,
    test_create_join_and_lobby,
    test_create_table_rejects,
    test_every_error_changes_nothing,
    test_games_catalog,
    test_over_and_record,
    test_reconnect_gets_a_full_resync,
    test_spectator_sees_no_private_card,
    test_two_clients_race_for_one_move,
)

__all__ = [
    "test_a_move_that_cannot_be_stored_changes_nothing",
    "test_an_invite_only_table_is_never_listed", "test_create_join_and_lobby",
    "test_create_table_rejects", "test_every_error_changes_nothing", "test_games_catalog",
    "test_over_and_record", "test_reconnect_gets_a_full_resync",
    "test_spectator_sees_no_private_card", "test_two_clients_race_for_one_move",
]


@pytest.fixture
def client(tmp_path: Path, pg_url: str) -> Iterator[TestClient]:
    app = create_app(tmp_path, runner=ThreadBotRunner(), database=pg_url)
    with TestClient(app) as c:
        assert type(app.state.storage) is PostgresStorage
        yield c


def test_schema_is_alembics_and_sqlite_is_untouched(client: TestClient, pg_url: str,
                                                   tmp_path: Path) -> None:
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [("0009",)]
        names = {r[0] for r in db.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert names == {"alembic_version", "tables", "moves", "accounts", "sessions",
                     "account_seats", "ratings", "rating_history", "seeks", "daily_days",
                     "daily_attempts", "daily_names", "account_settings"}
    with psycopg.connect(pg_url) as db:  # revision 0002: invite-only tables
        assert db.execute("SELECT column_default FROM information_schema.columns WHERE "
                          "table_name = 'tables' AND column_name = 'listed'").fetchone() == \
            ("true",)
    with psycopg.connect(pg_url) as db:  # revision 0003: the server seed and contributions
        assert db.execute("SELECT column_name, data_type FROM information_schema.columns WHERE "
                          "table_name = 'tables' AND column_name IN ('server_seed', "
                          "'contributions') ORDER BY column_name").fetchall() == \
            [("contributions", "text"), ("server_seed", "bigint")]
        # revision 0005: a table's clock, JSON text like the other JSON columns
        assert db.execute("SELECT data_type FROM information_schema.columns WHERE "
                          "table_name = 'tables' AND column_name = 'clock'").fetchone() == \
            ("text",)
    assert not (tmp_path / "cardplay.db").exists()
    # a second store on the same database migrates nothing and finds the same schema
    PostgresStorage(pg_url).close()


def test_a_tables_contributions_and_deck_seed_round_trip(pg_url: str) -> None:
    store, other = PostgresStorage(pg_url), PostgresStorage(pg_url, migrate=False)
    try:
        store.create_table(StoredTable(id="c1", game="sixty-six", options={}, seed=0,
                                       dealer=None, seats=[{"kind": "human"}] * 2,
                                       created=time.time(), server_seed=2**62 + 5,
                                       contributions=[None, None]))
        assert store.load("c1").waiting  # type: ignore[union-attr]
        a, b = {"value": "a" * 32, "drawn": False}, {"value": "b" * 32, "drawn": True}
        # two processes, one seat each, neither having seen the other's: both are kept
        assert store.add_contribution("c1", 0, a) == [a, None]
        assert other.add_contribution("c1", 1, b) == [a, b]
        # a seat's part is taken once: a later one is not
        assert store.add_contribution("c1", 0, b) == [a, b]
        store.set_seed("c1", 2**63 - 1)
        loaded = other.load("c1")
        assert loaded is not None and not loaded.waiting
        assert (loaded.server_seed, loaded.contributions, loaded.seed) == \
            (2**62 + 5, [a, b], 2**63 - 1)
    finally:
        store.close()
        other.close()


def test_moves_are_stored_and_a_second_move_n_conflicts(pg_url: str) -> None:
    store = PostgresStorage(pg_url)
    try:
        store.create_table(StoredTable(id="t1", game="sixty-six", options={}, seed=5,
                                       dealer=None, seats=[{"kind": "human"}] * 2,
                                       created=time.time()))
        store.add_move("t1", 0, 0, "QH")
        with pytest.raises(MoveConflict):
            store.add_move("t1", 0, 1, "KH", progress=([1, 0], 1))
        store.add_move("t1", 1, 1, "KH")
        loaded = store.load("t1")
        assert loaded is not None
        assert loaded.moves == [(0, "QH"), (1, "KH")] and loaded.deals == 0
        assert store.moves_after("t1", 1) == [(1, "KH")]
        assert store.move_count("t1") == 2 and store.count() == 1
    finally:
        store.close()


def test_played_moves_are_rows_before_they_are_heard(client: TestClient, pg_url: str) -> None:
    t = create(client, seed=11)
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, t["table"], t["token"])
        for _ in range(6):
            while state["view"]["to_move"] != 0:
                state = recv(ws, "state")
            move = state["view"]["legal_moves"][0]
            ws.send_json({"type": "move", "move": move, "version": state["version"]})
            state = recv(ws, "state")
            assert state["last"] == {"seat": 0, "move": move}
            # the acknowledgement came after the commit (the bot may have moved since)
            with psycopg.connect(pg_url) as db:
                row = db.execute("SELECT seat, move FROM moves WHERE table_id = %s AND n = %s",
                                 (t["table"], state["version"] - 1)).fetchone()
            assert row == (0, move)




def test_cardplay_db_upgrade(pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from cardplay.cli import main

    assert main(["db", "upgrade", "--database", pg_url]) == 0
    assert "revision 0009" in capsys.readouterr().out
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [("0009",)]
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone() == (0,)
    assert main(["db", "upgrade", "--database", pg_url]) == 0  # nothing left to do
    assert main(["db", "upgrade", "--database", "sqlite:///x"]) == 2


def test_a_lost_connection_is_opened_again(pg_url: str) -> None:
    store = PostgresStorage(pg_url)
    try:
        store.create_table(StoredTable(id="t1", game="sixty-six", options={}, seed=5,
                                       dealer=None, seats=[{"kind": "human"}] * 2,
                                       created=time.time()))
        with psycopg.connect(pg_url, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
        assert killed == [(True,)]
        # a read is tried again on a new connection; so is the next write
        assert store.move_count("t1") == 0
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        # a write is not retried blindly: it may have committed before the loss, so the
        # error says the outcome is unknown
        with pytest.raises(StoreUnavailable) as lost:
            store.add_move("t1", 0, 0, "QH")
        assert lost.value.ambiguous is True
        store.add_move("t1", 0, 0, "QH")
        assert store.moves_after("t1", 0) == [(0, "QH")]
    finally:
        store.close()


def test_plain_sqlite_serving_imports_none_of_the_multi_extra(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = ("import sys; from cardplay.server.app import create_app; create_app(sys.argv[1]); "
            "print(sorted(m for m in ('psycopg', 'redis', 'alembic', 'sqlalchemy') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                         text=True, check=True, timeout=60).stdout
    assert out.strip() == "[]"


def test_two_processes_creating_at_once_cannot_pass_a_cap_together(pg_url: str) -> None:
    """Each store is what one process holds; the cap here is one table in all."""
    import threading

    from cardplay.server.storage import CapRefusal

    stores = [PostgresStorage(pg_url), PostgresStorage(pg_url, migrate=False)]
    counted = threading.Barrier(2, timeout=5)
    outcome: dict[int, str] = {}

    def create(i: int) -> None:
        def guard() -> str | None:
            full = stores[i].count() >= 1
            if i == 0:
                counted.wait()  # the first has counted; the second starts now
                time.sleep(0.3)  # and would count 0 too, were it not kept waiting
            return "full" if full else None

        if i == 1:
            counted.wait()
        try:
            stores[i].create_table(StoredTable(id=f"t{i}", game="sixty-six", options={},
                                               seed=5, dealer=None, seats=[{"kind": "bot"}],
                                               created=time.time()), guard=guard)
            outcome[i] = "created"
        except CapRefusal as e:
            outcome[i] = str(e)

    try:
        threads = [threading.Thread(target=create, args=(i,)) for i in (0, 1)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=10)
        assert outcome == {0: "created", 1: "full"}
        assert stores[0].count() == 1
    finally:
        for store in stores:
            store.close()


def test_the_options_are_checked(tmp_path: Path, pg_url: str) -> None:
    with pytest.raises(ValueError, match="--broker needs --database"):
        create_app(tmp_path, runner=ThreadBotRunner(), broker="redis://127.0.0.1:1/0")
    with pytest.raises(ValueError, match="postgresql://"):
        create_app(tmp_path, runner=ThreadBotRunner(), database="sqlite:///x.db")
    with pytest.raises(ValueError, match="redis://"):
        create_app(tmp_path, runner=ThreadBotRunner(), database=pg_url, broker="http://x")
    assert not (tmp_path / "cardplay.db").exists()
