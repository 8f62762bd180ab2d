"""The daily lists: matchpoints per deal, a day's score per player, and the month's list.

Per deal, a player's matchpoints are the share of the others who finished that deal whose result
they beat, a tie counting half (:func:`cardplay.dailyplan.matchpoints`); a deal nobody else
finished counts 50%. The day's score is the average over the deals the player finished, in
percent. Only attempts with an account are listed (a guest's joins when they sign up); they are
the others a deal is compared with, and a guest who asks sees where they would stand among them.
A name is shown only for an account that allows it (``daily_names``), and to its owner.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from ..dailyplan import day_scores, scores_of
from .dailystore import Attempt, DailyStore

__all__ = ["day_scores", "month_list", "player_key", "results", "scores_of"]


def player_key(account: str, day: str) -> str:
    """A listed player's name in a day's list and records that says nothing of the account
    (the same all day, another one the next day): it ties a row of the list to its record."""
    return hashlib.sha256(f"{day}\x00{account}".encode()).hexdigest()[:16]


def _listed(attempts: list[Attempt]) -> dict[str, Sequence[int]]:
    return {a[1]: a[3] for a in attempts if a[1] is not None}


def _rows(scores: dict[str, tuple[float, int]], store: DailyStore, viewer: str | None,
          extra: str = "deals", day: str | None = None) -> list[dict[str, Any]]:
    names = store.names(list(scores))
    rows = []
    for account, (score, n) in scores.items():
        name, shown = names.get(account, ("", False))
        row: dict[str, Any] = {"name": name if shown or account == viewer else None,
                               "score": score, extra: n}
        if day is not None:
            row["player"] = player_key(account, day)
        if account == viewer:
            row["you"] = True
        rows.append(row)
    rows.sort(key=lambda r: (-r["score"], -r[extra], r["name"] or "\uffff"))
    for i, row in enumerate(rows):
        row["rank"] = 1 + sum(1 for r in rows[:i] if r["score"] > row["score"])
    return rows


def results(store: DailyStore, game: str, day: str, viewer: str | None,
            own: Attempt | None) -> dict[str, Any]:
    """``GET /api/daily/{game}/results``: the day's list, best first; ``you``: the asker's own
    standing (a guest's too, among the listed players, though a guest is not listed)."""
    attempts = store.attempts(game, day)
    listed = _listed(attempts)
    players = _rows(day_scores(listed), store, viewer, day=day)
    out: dict[str, Any] = {"day": day, "game": game, "players": players}
    if own is not None and own[3]:
        pool = dict(listed)
        me = own[1] if own[1] is not None else "\x00you"
        pool[me] = own[3]
        mine = day_scores(pool)[me]
        better = sum(1 for k, (s, _) in day_scores(pool).items() if k != me and s > mine[0])
        out["you"] = {"score": mine[0], "deals": mine[1], "rank": better + 1,
                      "of": len([v for v in pool.values() if v]), "listed": own[1] is not None}
    return out


def month_list(store: DailyStore, game: str, month: str, viewer: str | None
               ) -> dict[str, Any]:
    """``GET /api/daily/{game}/month?month=YYYY-MM``: per listed player the average of their
    day scores over the days of the month they played, best first."""
    total: dict[str, list[float]] = {}
    for day in store.days_of_month(game, month):
        for account, (score, _) in day_scores(_listed(store.attempts(game, day))).items():
            total.setdefault(account, []).append(score)
    scores = {a: (round(sum(s) / len(s), 2), len(s)) for a, s in total.items()}
    return {"month": month, "game": game, "players": _rows(scores, store, viewer, "days")}
