"""What a player's page and a game's leaderboard show (read-only views of the account rows).

``GET /api/players/{name}``: the name as the account spells it, ``ratings`` per rating key
(:func:`.ratings.rating_key`: the plain game name for two players) with ``rating``,
``deviation``, ``games`` and ``provisional``; ``games``: the finished matches, newest first,
each with ``table``, ``game``, ``rated``, ``result`` (win, loss, draw), ``ended`` (unix
seconds), the ``opponents``' names and links to the ``record`` and the ``review``; and, only
to the player themself (``mine=True``), ``tables``: their unfinished tables to resume.

``GET /api/leaderboard/{game}``: ``players`` best first (highest rating; more games, then the
name, break ties), provisional players included and marked.
"""

from __future__ import annotations

from typing import Any

from .accountdb import AccountDb
from .accounts import name_key
from .ratings import public_rating, rating_key

__all__ = ["MAX_BOARD", "MAX_GAMES", "leaderboard", "player_page"]

MAX_GAMES = 50  # recent games on a player's page
MAX_BOARD = 100  # players on a leaderboard


def _opponents(seats: list[Any], mine: int) -> list[str]:
    return [str(s.get("name") or "") for i, s in enumerate(seats) if i != mine]


def player_page(db: AccountDb, name: str, mine: bool) -> dict[str, Any] | None:
    """A player's page, or None when no account has this name (in any case)."""
    found = db.account_by_key(name_key(name.strip()))
    if found is None:
        return None
    account_id, real_name, _ = found
    ratings = {key: public_rating(mu, sigma, games)
               for key, mu, sigma, games in db.ratings_of(account_id)}
    seats = db.seats_of(account_id, MAX_GAMES * 2)
    info = db.tables_info(sorted({t for t, *_ in seats}))
    games: list[dict[str, Any]] = []
    tables: list[dict[str, Any]] = []
    for table_id, seat, result, ended, _linked in seats:
        got = info.get(table_id)
        if got is None:
            continue
        game, seat_list, status, rated = got
        if status in ("over", "stopped"):
            if len(games) < MAX_GAMES:
                games.append({"table": table_id, "game": game, "rated": rated,
                              "result": result, "ended": ended, "seat": seat,
                              "opponents": _opponents(seat_list, seat),
                              "record": f"/api/tables/{table_id}/record",
                              # a person reviews their own deals at their seat
                              "review": f"/t/{table_id}" if mine else f"/watch/{table_id}"})
        elif mine:
            tables.append({"table": table_id, "game": game, "rated": rated, "seat": seat,
                           "status": status, "opponents": _opponents(seat_list, seat),
                           "resume": f"/api/tables/{table_id}/resume"})
    games.sort(key=lambda g: -(g["ended"] or 0))
    page: dict[str, Any] = {"name": real_name, "ratings": ratings, "games": games}
    if mine:
        page["tables"] = tables
    return page


def leaderboard(db: AccountDb, game: str, players: int) -> dict[str, Any]:
    """A game's leaderboard at a player count (two: the game's plain rating key)."""
    rows = db.leaderboard(rating_key(game, players), MAX_BOARD)
    return {"game": game, "players": [{"name": name, **public_rating(mu, sigma, games)}
                                      for name, mu, sigma, games in rows]}
