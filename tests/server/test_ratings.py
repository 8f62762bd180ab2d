"""Ratings (openskill Plackett-Luce): keys per game and player count, forfeits, bots, history,
the same answer when a table is rated twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardplay.server.accountdb import AccountDb
from cardplay.server.ratings import (
    MU,
    PROVISIONAL_GAMES,
    SIGMA,
    SeatOutcome,
    rate_match,
    rating_key,
    split_key,
)
from cardplay.server.storage import Storage


@pytest.fixture
def db(tmp_path: Path) -> AccountDb:
    store = Storage(tmp_path)
    db = AccountDb(lambda: store.connection, postgres=False)
    for name in ("a", "b", "c"):
        db.insert_account(name, name.upper(), name, "$argon2id$not-a-real-hash", 0.0)
    return db


def test_keys() -> None:
    assert rating_key("sixty-six", 2) == "sixty-six"
    assert rating_key("banchok", 3) == "banchok/3"
    assert split_key("banchok/3") == ("banchok", 3)
    assert split_key("sixty-six") == ("sixty-six", 2)


def test_a_win_raises_and_a_loss_lowers_and_history_is_kept(db: AccountDb) -> None:
    out = rate_match(db, "t1", "sixty-six", 2, [SeatOutcome("a", True), SeatOutcome("b", False)],
                     now=100.0)
    assert out[0] is not None and out[1] is not None
    assert out[0]["before"] == {"rating": round(MU), "deviation": round(SIGMA), "games": 0,
                                "provisional": True}
    assert out[0]["after"]["rating"] > MU > out[1]["after"]["rating"]
    assert out[0]["after"]["deviation"] < SIGMA
    # zero-sum at equal uncertainty: what one wins the other loses
    assert out[0]["after"]["rating"] - MU == pytest.approx(MU - out[1]["after"]["rating"], abs=1)
    assert [r[0] for r in db.ratings_of("a")] == ["sixty-six"]
    history = db.history_of("t1")
    assert {h[0] for h in history} == {"a", "b"}
    assert all(h[5] == 1 for h in history)


def test_rating_a_table_twice_changes_nothing(db: AccountDb) -> None:
    seats = [SeatOutcome("a", True), SeatOutcome("b", False)]
    first = rate_match(db, "t1", "sixty-six", 2, seats)
    again = rate_match(db, "t1", "sixty-six", 2, seats)
    assert again == first
    assert db.ratings_of("a")[0][3] == 1


def test_a_forfeit_counts_as_a_loss(db: AccountDb) -> None:
    """The forfeiting seat loses even when the match's score had it ahead."""
    out = rate_match(db, "t1", "sixty-six", 2,
                     [SeatOutcome("a", True, forfeit=True), SeatOutcome("b", False)])
    assert out[0] is not None and out[1] is not None
    assert out[0]["after"]["rating"] < MU < out[1]["after"]["rating"]


def test_three_players_are_rated_under_their_own_key(db: AccountDb) -> None:
    out = rate_match(db, "t3", "banchok", 3, [SeatOutcome("a", False), SeatOutcome("b", True),
                                               SeatOutcome("c", False)])
    assert [o["after"]["rating"] > MU if o else None for o in out] == [False, True, False]
    assert db.ratings_of("b")[0][0] == "banchok/3"
    assert db.leaderboard("banchok/3", 10)[0][0] == "B"
    assert db.leaderboard("banchok", 10) == []


def test_a_seat_without_an_account_makes_the_match_unrated(db: AccountDb) -> None:
    out = rate_match(db, "t1", "sixty-six", 2, [SeatOutcome("a", True), SeatOutcome(None, False)])
    assert out == [None, None]
    assert db.ratings_of("a") == []
    with pytest.raises(ValueError):
        rate_match(db, "t1", "sixty-six", 2, [SeatOutcome("a", True)])


def test_provisional_until_enough_games(db: AccountDb) -> None:
    for i in range(PROVISIONAL_GAMES):
        out = rate_match(db, f"t{i}", "sixty-six", 2,
                         [SeatOutcome("a", i % 2 == 0), SeatOutcome("b", i % 2 == 1)])
        assert out[0] is not None
        assert out[0]["after"]["provisional"] is (i + 1 < PROVISIONAL_GAMES)
    assert db.ratings_of("a")[0][3] == PROVISIONAL_GAMES
