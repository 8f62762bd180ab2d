"""What a day's daily deals are, per game: how many, with which options, against which bots,
and how a person's result of one deal is counted (docs/daily.md).

A daily "deal" is one segment of a :class:`cardplay.engine.series.Series`: a single deal where
the game scores each deal on its own, a whole short match where the score only means something
over several deals (chips changing hands, a two-round match). Standard library only: ``cardplay
daily verify`` reads it as the server does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import Game, load
from .engine.series import Series
from .fairness import SCHEME_DAILY, commit_daily, new_salt

__all__ = ["DAILY_LEVEL", "PLANS", "Plan", "daily_commitment", "daily_game", "daily_header",
           "daily_salt", "daily_series", "day_of_salt", "day_scores", "deal_value", "matchpoints",
           "scores_of"]

# The day's bots play the game's heuristic: it answers in milliseconds and depends only on its
# seed and the position. The searchers (fast, strong) cap their search by seconds as well as by
# iterations, so on a busy server the same position could get another answer, and two people
# who made the same moves would not meet the same bots: the daily deals would not be duplicate.
DAILY_LEVEL = "heuristic"


@dataclass(frozen=True)
class Plan:
    """One game's daily deals: ``segments`` of them, played with ``options``."""

    segments: int
    options: dict[str, Any] = field(default_factory=dict)
    whole_match: bool = False  # each daily deal is a whole short match


PLANS: dict[str, Plan] = {
    # each deal scores 1 to 3 game points on its own: a match to 1 point is one deal (a deal
    # where both reach 66 scores nothing and the same dealer deals again, inside the segment)
    "sixty-six": Plan(6, {"match_target": 1}),
    # a hand scores on its own; a match to 1 point ends after the first hand anyone scores in
    "two-ten-jack": Plan(6, {"target": 1}),
    # one hand each (max_hands 1): the penalty points of a hand are its result
    "twenty": Plan(6, {"max_hands": 1}),
    # the game is two rounds and the winner is decided over both: a deal is the whole match
    "maltese-twenty": Plan(4, {}, whole_match=True),
    # one game of Chukhny is a deal
    "chukhny": Plan(4, {"games": 1}),
    # chips pass between players over the bank's rotation: a deal is the whole short match,
    # one bank per player
    "macao": Plan(2, {}, whole_match=True),
    "banchok": Plan(2, {"banks_per_player": 1}, whole_match=True),
}


def daily_game(name: str) -> Game:
    """The game with its daily options (ValueError for a game without daily deals)."""
    plan = PLANS.get(name)
    if plan is None:
        raise ValueError(f"{name!r} has no daily deals; games: {', '.join(sorted(PLANS))}")
    return load(name, **plan.options)


def daily_series(name: str, seed: int) -> Series:
    """The day's series of ``name`` from the day's seed: the person sits at seat 0 and the
    first segment is dealt by the last seat, so the person leads first in two-player games."""
    game = daily_game(name)
    return Series(game, seed, game.players - 1, PLANS[name].segments)


def deal_value(result: Sequence[int], seat: int = 0) -> int:
    """A person's result of one daily deal, the number compared with the others': with two
    seats, their score minus the bot's; with three or more, their own score alone (the person
    is the only person at the table: the bots' scores among themselves say nothing of how the
    person played)."""
    if len(result) == 2:
        return int(result[seat]) - int(result[1 - seat])
    return int(result[seat])


def matchpoints(mine: float, others: Sequence[float]) -> float | None:
    """The share of the others on the same cards that ``mine`` beats, a tie counting half;
    None when nobody else played the deal."""
    if not others:
        return None
    won = sum(1.0 if mine > o else 0.5 if mine == o else 0.0 for o in others)
    return won / len(others)


def scores_of(mine: Sequence[int], others: Sequence[Sequence[int]]) -> list[float]:
    """Matchpoints (0 to 1) of each deal ``mine`` finished against the others who finished it."""
    out = []
    for k, value in enumerate(mine):
        pool = [o[k] for o in others if len(o) > k]
        found = matchpoints(value, pool)
        out.append(0.5 if found is None else found)
    return out


def day_scores(values: Mapping[str, Sequence[int]]) -> dict[str, tuple[float, int]]:
    """Per key (a player): (score in percent, deals finished) of those who finished one."""
    out = {}
    for key, mine in values.items():
        if not mine:
            continue
        others = [v for k, v in values.items() if k != key]
        mp = scores_of(mine, others)
        out[key] = (round(100.0 * sum(mp) / len(mp), 2), len(mine))
    return out


def daily_salt(day: str) -> str:
    """A day's salt: the day, a slash and 128 random bits as hex (the day travels in it, so a
    stored attempt says which day it belongs to)."""
    return f"{day}/{new_salt()}"


def day_of_salt(salt: str) -> str:
    return salt.split("/", 1)[0]


def daily_commitment(name: str, day: str, seed: int, salt: str) -> str:
    """The commitment shown from the day's start: to its seed, salt and parameters."""
    plan = PLANS[name]
    return commit_daily(name, day, plan.options, plan.segments, DAILY_LEVEL,
                        daily_game(name).players, seed, salt)


def daily_header(record: dict[str, Any], salt: str, commitment: str) -> dict[str, Any]:
    """A daily attempt's record with its ``series`` and its ``fairness`` header: the day's
    commitment, and (the record is given only once the day is over) its seed and salt."""
    plan = PLANS.get(str(record.get("game")))
    rec = dict(record)
    rec["series"] = plan.segments if plan is not None else 1
    rec["fairness"] = {"scheme": SCHEME_DAILY, "commitment": commitment, "salt": salt,
                       "seed_source": "daily", "server_seed": rec.get("seed"),
                       "day": day_of_salt(salt), "level": DAILY_LEVEL}
    return rec
