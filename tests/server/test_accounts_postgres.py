"""The account tests over PostgreSQL (the schema by Alembic's revision 0003): the same tests
as over SQLite, through the `client` below."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient

from cardplay.server.app import create_app
from cardplay.server.botpool import ThreadBotRunner
from cardplay.server.pgstore import PostgresStorage

from .conftest import CHEAP_PASSWORDS
from .test_accounts import (  # the same tests, here over the `client` below
    PASSWORD,
    test_a_guests_tables_come_with_them_at_sign_up,
    test_a_rated_match_changes_both_ratings_and_shows_them,
    test_deleting_an_account_keeps_its_games_anonymised,
    test_games_are_listed_newest_first,
    test_names_unique_ignoring_case_in_any_script,
    test_one_session_can_be_ended_from_the_account_page,
    test_sign_out_everywhere_ends_every_session,
    test_sign_up_sign_out_sign_in,
    test_unfinished_tables_show_only_to_their_player_and_resume,
)

__all__ = [
    "test_a_guests_tables_come_with_them_at_sign_up",
    "test_a_rated_match_changes_both_ratings_and_shows_them",
    "test_deleting_an_account_keeps_its_games_anonymised", "test_games_are_listed_newest_first",
    "test_names_unique_ignoring_case_in_any_script",
    "test_one_session_can_be_ended_from_the_account_page",
    "test_sign_out_everywhere_ends_every_session", "test_sign_up_sign_out_sign_in",
    "test_unfinished_tables_show_only_to_their_player_and_resume",
]


@pytest.fixture
def client(tmp_path: Path, pg_url: str) -> Iterator[TestClient]:
    app = create_app(tmp_path, runner=ThreadBotRunner(), database=pg_url,
                     passwords=CHEAP_PASSWORDS)
    with TestClient(app) as c:
        assert type(app.state.storage) is PostgresStorage
        yield c


def test_no_password_or_token_in_postgres(client: TestClient, pg_url: str) -> None:
    r = client.post("/api/accounts", json={"name": "Ana", "password": PASSWORD})
    assert r.status_code == 201
    token = client.cookies["cardplay_session"]
    with psycopg.connect(pg_url) as db:
        dump = repr(db.execute("SELECT * FROM accounts").fetchall()) + \
            repr(db.execute("SELECT * FROM sessions").fetchall())
    assert PASSWORD not in dump and token not in dump and "$argon2id$" in dump
