"""How everyone played one daily deal: each listed player's moves on the same cards beside the
asker's, best results first, and the value of the decisions where they parted.

Up to the first move where two players' sequences differ they stood in the same position (the
same cards, and the day's bots answer the same moves the same way), so that move is a decision
both faced: the players who reached the position are counted by the move they chose ("3 of 5
players announced the marriage here"), and the position, seen from the person's seat, is valued
by the hints' evaluator (``botpool.hint_values``: each legal move's expected deal result) in the
coaching workers. A deal is shown only to someone who finished it, and only finished deals of
others: nothing here reveals a deal before the asker played it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine import RecordError, derive_seed, replay
from ..engine.series import Series
from . import botpool
from .dailystore import Attempt, DailyStore

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["MAX_DECISIONS", "Comparer", "segment_moves"]

MAX_DECISIONS = 4  # decision points valued per deal (each costs an evaluation)


def segment_moves(series: Series, segment: int) -> tuple[int, list[list[Any]]]:
    """(index of the segment's first move in the series, its moves as [seat, text])."""
    start, out, n = -1, [], 0
    for deal, seg in zip(series.deals, series.segment_of_deal):
        if seg == segment:
            if start < 0:
                start = n
            out += [[s, deal.game.move(c).text] for s, c in deal.history]
        n += len(deal.history)
    return max(start, 0), out


class Comparer:
    """The comparisons of one server (values of positions are kept: a position's never
    changes)."""

    def __init__(self, hub: Hub, store: DailyStore) -> None:
        self.hub = hub
        self.store = store
        self._series: dict[tuple[str, int], Series] = {}
        self._values: dict[tuple[str, int, str], dict[str, Any]] = {}

    def series(self, table_id: str) -> Series | None:
        stored = self.hub.storage.load(table_id)
        if stored is None:
            return None
        key = (table_id, len(stored.moves))
        found = self._series.get(key)
        if found is None:
            try:
                match = replay(stored.record())
            except RecordError:
                return None
            if not isinstance(match, Series):
                return None
            if len(self._series) > 512:
                self._series.clear()
            found = self._series[key] = match
        return found

    async def deal(self, game: str, day: str, deal: int, own: Attempt,
                   names: dict[str, str | None]) -> dict[str, Any]:
        """The comparison of deal ``deal`` (from 1) for the attempt ``own``."""
        mine = self.series(own[2])
        assert mine is not None
        start, my_moves = segment_moves(mine, deal - 1)
        players: list[dict[str, Any]] = []
        for attempt in self.store.attempts(game, day):
            is_me = attempt[0] == own[0]
            if not is_me and (attempt[1] is None or len(attempt[3]) < deal):
                continue  # only listed players who finished this deal
            series = mine if is_me else self.series(attempt[2])
            if series is None:
                continue
            moves = my_moves if is_me else segment_moves(series, deal - 1)[1]
            players.append({"name": names.get(attempt[1] or ""),
                            "value": attempt[3][deal - 1], "moves": moves,
                            **({"you": True} if is_me else {})})
        players.sort(key=lambda p: (-p["value"], not p.get("you", False)))
        decisions = await self.decisions(mine, start, my_moves,
                                         [p["moves"] for p in players if not p.get("you")])
        return {"day": day, "game": game, "deal": deal, "players": players,
                "decisions": decisions}

    async def decisions(self, mine: Series, start: int, my_moves: list[list[Any]],
                        others: Sequence[list[list[Any]]]) -> list[dict[str, Any]]:
        """Each position where the asker and someone else parted: who chose what, and what
        each choice was worth."""
        points: set[int] = set()
        for moves in others:
            d = next((i for i, (a, b) in enumerate(zip(my_moves, moves)) if a != b), None)
            if d is not None and my_moves[d][0] == 0:
                points.add(d)
        out = []
        everyone = [my_moves, *others]
        for d in sorted(points)[:MAX_DECISIONS]:
            reached = [m for m in everyone if len(m) > d and m[:d] == my_moves[:d]]
            counts: dict[str, int] = {}
            for m in reached:
                counts[m[d][1]] = counts.get(m[d][1], 0) + 1
            values = await self.value(mine, start + d)
            out.append({"index": d, "players": len(reached), "yours": my_moves[d][1],
                        "choices": [{"move": mv, "players": n,
                                     "value": (values or {}).get("values", {}).get(mv)}
                                    for mv, n in sorted(counts.items(), key=lambda x: -x[1])],
                        "exact": bool((values or {}).get("exact", False))})
        return out

    async def value(self, series: Series, n: int) -> dict[str, Any] | None:
        """The hint evaluator's values at move ``n`` of a series, from seat 0's view."""
        record = series.record()
        key = (record["game"], int(record["seed"]), " ".join(record["moves"][:n]))
        found = self._values.get(key)
        if found is not None:
            return found
        part = dict(record, moves=record["moves"][:n])
        try:
            at = replay(part)
        except RecordError:
            return None
        if at.to_move != 0:
            return None
        view = at.view(0).to_dict()
        try:
            found = await self.hub.coach.runner.call(
                botpool.hint_values, view, derive_seed(int(record["seed"]), "daily-value", n))
        except Exception:  # a value that cannot be worked out is left out, the rest shows
            return None
        if len(self._values) > 4096:
            self._values.clear()
        self._values[key] = found
        return found
