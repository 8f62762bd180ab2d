"""Checking a day's daily list from its records (``cardplay daily verify DAY GAME``).

Once the day is over the server gives its seed and salt (``/api/daily/GAME/results``) and every
listed attempt's signed record (``/api/daily/GAME/records``). :func:`verify_day` checks that the
commitment shown all day is the one of that seed, salt and the day's parameters, that every
record passes :func:`cardplay.fairness.verify` (dealt from that seed, moves replaying, signed by
the server's key), and recomputes every player's score from the records' deals alone: each must
equal the listed one, and nobody may be listed without a record or recorded without a listing.
Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .dailyplan import PLANS, daily_commitment, day_scores, deal_value
from .engine import RecordError, replay
from .fairness import verify

__all__ = ["DayVerdict", "verify_day"]


@dataclass
class DayVerdict:
    """What :func:`verify_day` found: ``ok``, each failure as (code, sentence), and the list
    recomputed from the records (player, score, deals), best first."""

    ok: bool
    failures: list[tuple[str, str]] = field(default_factory=list)
    recomputed: list[tuple[str, float, int]] = field(default_factory=list)
    records: int = 0


def verify_day(day: str, game: str, bundle: Mapping[str, Any], listed: Mapping[str, Any],
               keys: Mapping[str, bytes] | None = None) -> DayVerdict:
    """``bundle``: the answer of ``/records`` (``seed``, ``salt``, ``commitment``,
    ``records``); ``listed``: the answer of ``/results`` for the same day."""
    failures: list[tuple[str, str]] = []
    if game not in PLANS:
        return DayVerdict(False, [("game", f"{game!r} has no daily deals")])
    seed, salt, commitment = bundle.get("seed"), bundle.get("salt"), bundle.get("commitment")
    if not isinstance(seed, int) or not isinstance(salt, str) or not isinstance(commitment, str):
        return DayVerdict(False, [("malformed", "the records come without the day's seed, salt "
                                                "and commitment")])
    if daily_commitment(game, day, seed, salt) != commitment:
        failures.append(("commitment", "the day's commitment is not the one of its seed, salt "
                                       "and parameters"))
    if listed.get("commitment") not in (None, commitment):
        failures.append(("commitment", "the list names another commitment than the records"))
    values: dict[str, list[int]] = {}
    records = bundle.get("records")
    records = records if isinstance(records, list) else []
    for i, record in enumerate(records):
        who = _player(record, i)
        try:
            verdict = verify(record, keys)
        except RecordError as e:
            failures.append(("record", f"record {i + 1} is not a record: {e}"))
            continue
        for code, detail in verdict.failures:
            failures.append((code, f"record {i + 1} ({who}): {detail}"))
        fair = record.get("fairness") or {}
        if record.get("seed") != seed or fair.get("commitment") != commitment or \
                fair.get("day") != day or record.get("game") != game:
            failures.append(("seed", f"record {i + 1} ({who}) was not dealt from the day's "
                                     f"committed seed"))
            continue
        try:
            series = replay(record)
        except RecordError:
            continue  # verify named it
        values[who] = [deal_value(r) for r in getattr(series, "segment_results", [])]
    scores = day_scores(values)
    recomputed = sorted(((p, s, n) for p, (s, n) in scores.items()),
                        key=lambda x: (-x[1], -x[2], x[0]))
    rows = listed.get("players")
    rows = rows if isinstance(rows, list) else []
    seen = set()
    for row in rows:
        player = row.get("player") if isinstance(row, Mapping) else None
        seen.add(player)
        found = scores.get(str(player))
        if found is None:
            failures.append(("unrecorded", f"player {player} is listed but has no record"))
        elif (row.get("score"), row.get("deals")) != found:
            failures.append(("score", f"player {player} is listed with {row.get('score')}% "
                                      f"over {row.get('deals')} deals; the records give "
                                      f"{found[0]}% over {found[1]}"))
    for player in scores:
        if player not in seen:
            failures.append(("unlisted", f"player {player} has a record but is not listed"))
    return DayVerdict(not failures, failures, recomputed, len(records))


def _player(record: Any, i: int) -> str:
    daily = record.get("daily") if isinstance(record, Mapping) else None
    player = daily.get("player") if isinstance(daily, Mapping) else None
    return str(player) if isinstance(player, str) else f"#{i + 1}"

