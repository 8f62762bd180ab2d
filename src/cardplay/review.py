"""Review a finished deal or match: what each decision cost, by the searchers' values.

:func:`review` replays a record move by move and, at every decision of the chosen seats (a turn
with more than one legal move, and moves the rules tell apart), values the legal moves with
:func:`cardplay.bots.evaluate` from the view that seat had then. A decision's ``loss`` is the best
move's value minus the played move's, never negative; ``costly`` says whether the loss is more
than the values' noise (twice the standard error of the difference; any loss at all where the
values are exact).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .advice import Advice, advise
from .bots.evaluation import NoWorld, distinct_moves, evaluate
from .engine import Deal, Match, RecordError, derive_seed
from .engine.registry import replay

__all__ = ["Decision", "Review", "review", "start_of"]


@dataclass(frozen=True)
class Decision:
    """One reviewed decision. ``index``: moves of the deal played before it; ``deal``: the deal's
    number in the match, from 1; moves are canonical texts; ``errors``: standard errors of the
    values (0 where exact); ``worlds``: worlds sampled, or enumerated where exact."""

    index: int
    deal: int
    seat: int
    played: str
    best: str
    values: Mapping[str, float]
    errors: Mapping[str, float]
    loss: float
    exact: bool
    worlds: int
    # the verdict and its reasons, for the words (cardplay.advice); not in the JSON form
    advice: Advice | None = None

    @property
    def noise(self) -> float:
        """The standard error of ``loss`` (0 where exact)."""
        return math.hypot(self.errors[self.best], self.errors[self.played])

    @property
    def costly(self) -> bool:
        """Whether the loss stands out of the noise of the values it is measured by."""
        if self.exact:
            return self.loss > 1e-9
        return self.loss > 2 * self.noise

    def to_dict(self) -> dict[str, Any]:
        """The review's JSON form of the decision (``cardplay review --json``)."""
        return {"index": self.index, "deal": self.deal, "seat": self.seat,
                "played": self.played, "best": self.best,
                "values": {m: round(v, 4) for m, v in self.values.items()},
                "loss": round(self.loss, 4), "exact": self.exact}


@dataclass(frozen=True)
class Review:
    """Every reviewed decision of a record, in the order they were played."""

    game: str
    level: str
    decisions: tuple[Decision, ...]

    def costly(self) -> list[Decision]:
        """The costly decisions, the dearest first."""
        return sorted((d for d in self.decisions if d.costly), key=lambda d: -d.loss)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "decisions": [d.to_dict() for d in self.decisions]}


def start_of(record: Mapping[str, Any]) -> Deal | Match:
    """The record's deal or match before its first move; RecordError when the record is corrupt
    (it is replayed whole first, so every move is known to be legal)."""
    replay(record)
    from .engine.registry import load

    game = load(record["game"], **(record.get("options") or {}))
    if record.get("format") == "cardplay-deal/1" or (
            "format" not in record and "deck" in record):
        return game.deal(record.get("seed"), deck=record.get("deck"), dealer=record.get("dealer"),
                         **(record.get("context") or {}))
    return game.match(record.get("seed"), dealer=record.get("dealer"))


def review(record: Mapping[str, Any], seats: Iterable[int] | None = None,
           level: str = "strong", seed: int = 0, deals: Iterable[int] | None = None,
           progress: Callable[[int, int], None] | None = None) -> Review:
    """Review the decisions of ``seats`` (default: all) in a deal or match record.

    ``deals`` limits the review to those deal numbers (from 1). Each decision is valued with a
    seed derived from ``seed`` and its place in the record, so a review is reproducible.
    ``progress(done, total)`` is called after each move of the record.
    """
    target = start_of(record)
    players = target.players
    chosen = set(range(players)) if seats is None else set(seats)
    for s in chosen:
        if not 0 <= s < players:
            raise ValueError(f"seat {s} is not at this table (seats 0 to {players - 1})")
    wanted_deals = None if deals is None else set(deals)
    moves = record["moves"]
    if not isinstance(moves, list):
        raise RecordError("a record's moves are a list")
    out: list[Decision] = []
    for i, text in enumerate(moves):
        if isinstance(target, Match):
            deal_no, deal = len(target.deals) + 1, target.deal
        else:
            deal_no, deal = 1, target
        seat = target.to_move
        if seat in chosen and (wanted_deals is None or deal_no in wanted_deals):
            view = target.view(seat) if len(deal.legal_codes()) > 1 else None
            # a turn whose moves the rules treat alike (Maltese Twenty's cards of one value,
            # Two-Ten-Jack's touching cards) is no decision: every move has the same value
            if view is not None and distinct_moves(deal.game, view) > 1:
                played = deal.game.move(deal.game.code_of(text)).text
                try:
                    ev = evaluate(view, level, seed=derive_seed(seed, "review", i),
                                  moves=[played])
                except NoWorld:
                    # a few very constrained Twenty views defeat its sampler (see its
                    # sample_deal): that decision is left out rather than the whole review
                    ev = None
                if ev is not None:
                    out.append(Decision(index=len(deal.history), deal=deal_no, seat=seat,
                                        played=played, best=ev.best, values=dict(ev.values),
                                        errors=dict(ev.errors), loss=ev.loss(played),
                                        exact=ev.exact, worlds=ev.worlds,
                                        advice=advise(view, ev.values, ev.errors, ev.exact,
                                                      played)))
        target.play(text)
        if progress is not None:
            progress(i + 1, len(moves))
    return Review(game=record["game"], level=level, decisions=tuple(out))
