"""Ratings: openskill's Plackett-Luce model, per game and player count, updated once a match ends.

Why Plackett-Luce (openskill, Weng-Lin Bayesian ratings): it rates a match of any number of
players from their finishing order (Glicko-2 is for two), keeps each rating's uncertainty
(shown as the deviation, and what makes a rating provisional), and is maintained and pure
Python. Of openskill's models it is the one its authors recommend for free-for-all play; two
players is simply its smallest case.

Scale: the model runs with ``mu`` 1500 and ``sigma`` 500 (openskill's 25 and 25/3 times 60,
with its beta and tau scaled alike), so a rating reads like the Elo numbers card players know.

Keys: a rating belongs to a game and its player count. A game's two-player table is rated under
the plain game name (``"sixty-six"``); other counts under ``"<game>/<players>"``
(``"banchok/3"``). A rating is provisional until its account has played
:data:`PROVISIONAL_GAMES` rated matches under that key.

Order: the winners of a match share the first place, the others the second; a seat that
forfeited is placed after every seat that did not (a forfeit counts as a loss, the worst one).

The seam the hub calls when a rated match ends is :func:`rate_match`: given the table's stored
data it updates every rated account in one transaction, stores every change in the rating
history, and returns each seat's rating before and after (for the end screen). Called twice for
one table it changes nothing the second time and returns the same answer.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from .accountdb import AccountDb

__all__ = ["MU", "PROVISIONAL_GAMES", "SIGMA", "SeatOutcome", "public_rating", "rate_match",
           "rating_key", "split_key", "stored_change"]

MU = 1500.0
SIGMA = 500.0
PROVISIONAL_GAMES = 10
_MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=SIGMA / 100)


@dataclass(frozen=True)
class SeatOutcome:
    """One seat at a match's end: its account (None: a guest or a bot), whether it is among
    the match's winners, and whether its person forfeited."""

    account: str | None
    won: bool
    forfeit: bool = False


def rating_key(game: str, players: int) -> str:
    """The key of a game's ratings at a player count: the plain name for two players."""
    return game if players == 2 else f"{game}/{players}"


def split_key(key: str) -> tuple[str, int]:
    """(game, players) of a rating key."""
    game, _, n = key.partition("/")
    return game, int(n) if n else 2


def public_rating(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as the API shows it: rounded, with its provisional mark."""
    return {"rating": round(mu), "deviation": round(sigma), "games": games,
            "provisional": games < PROVISIONAL_GAMES}


def _ranks(seats: Sequence[SeatOutcome]) -> list[float]:
    return [3.0 if s.forfeit else 1.0 if s.won else 2.0 for s in seats]


def rate_match(db: AccountDb, table_id: str, game: str, players: int,
               seats: Sequence[SeatOutcome], now: float | None = None
               ) -> list[dict[str, Any] | None]:
    """Update the ratings of a rated match's accounts (one transaction) and return, per seat,
    ``{"before": rating, "after": rating}`` (as :func:`public_rating`), None for a seat
    without an account. A match is rated only when every seat has an account (people only);
    otherwise nothing changes and every entry is None. A table rated before is not rated
    again: the stored change is returned."""
    if len(seats) != players or len(seats) < 2:
        raise ValueError(f"a match of {players} players has {players} seats, not {len(seats)}")
    accounts = [s.account for s in seats]
    if any(a is None for a in accounts) or len(set(accounts)) != len(accounts):
        return [None] * len(seats)
    key = rating_key(game, players)
    now = time.time() if now is None else now
    with db.transaction():
        if db.rated_before(table_id):
            return stored_change(db, table_id, seats)
        current = []
        for s in seats:
            assert s.account is not None
            row = db.rating_for_update(s.account, key)
            current.append(row if row is not None else (MU, SIGMA, 0))
        teams = [[_MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in current]
        rated = _MODEL.rate(teams, ranks=_ranks(seats))
        out: list[dict[str, Any] | None] = []
        for s, (mu, sigma, games), team in zip(seats, current, rated, strict=True):
            assert s.account is not None
            after = (float(team[0].mu), float(team[0].sigma))
            db.store_rating(s.account, key, table_id, (mu, sigma), after, games + 1, now)
            out.append({"before": public_rating(mu, sigma, games),
                        "after": public_rating(after[0], after[1], games + 1)})
    return out


def stored_change(db: AccountDb, table_id: str, seats: Sequence[SeatOutcome]
                  ) -> list[dict[str, Any] | None]:
    """A rated table's change as stored (per seat ``{"before", "after"}``, None for a seat
    not rated): what every process, and a restarted one, shows on the end screen."""
    by_account = {r[0]: r for r in db.history_of(table_id)}
    out: list[dict[str, Any] | None] = []
    for s in seats:
        row = by_account.get(s.account or "")
        if row is None:
            out.append(None)
            continue
        out.append({"before": public_rating(row[1], row[2], row[5] - 1),
                    "after": public_rating(row[3], row[4], row[5])})
    return out
