"""A series: several short matches played one after another at one table, each dealt from the
series seed and its own number alone (the daily deals, docs/daily.md).

In an ordinary match a deal's cards come from the match seed and the deal's index, and who
deals next may depend on who won (the winner deals in Sixty-Six); two people who play the same
first deal differently would then hold the same cards at different seats. A series pins both:
segment ``k`` (from 0) is a match of its own whose ``j``-th deal is dealt from
``derive_seed(seed, "series", k, j)``, and whose first dealer is ``(dealer + k) % players``.
Whatever happened in segment ``k``, segment ``k + 1`` deals the same cards to the same seats.
Chips, bonuses and round numbers are carried only inside a segment (``Game._deal_context``
sees the segment alone), and the series is over after ``segments`` segments.

The record is a match record with ``"series": segments`` (``cardplay.replay`` rebuilds it).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .deal import Deal
from .game import Game
from .match import Match
from .seeds import derive_seed
from .views import View, freeze

__all__ = ["MAX_SEGMENTS", "Series"]

MAX_SEGMENTS = 50


class _Segment:
    """What a game's match hooks read of the segment in play: its own deals and scores."""

    def __init__(self, game: Game, first_dealer: int) -> None:
        self.game = game
        self.first_dealer = first_dealer
        self.deals: list[Deal] = []
        self.finished_scores = [0] * game.players
        self.deal: Deal | None = None

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def scores(self) -> list[int]:
        live = self.game._live_scores(self) if (  # type: ignore[arg-type]
            self.deal is not None and not self.deal.is_over) else None
        return list(live) if live is not None else list(self.finished_scores)


class Series(Match):
    """``segments`` short matches of ``game`` in a row (see the module's docstring). The
    ``scores`` are the sums of the segments' final scores; ``segment_results`` lists each
    finished segment's; ``segment_of_deal`` says which segment each finished deal belongs to."""

    def __init__(self, game: Game, seed: int | None, dealer: int | None, segments: int) -> None:
        if isinstance(segments, bool) or not isinstance(segments, int) or \
                not 1 <= segments <= MAX_SEGMENTS:
            raise ValueError(f"a series has from 1 to {MAX_SEGMENTS} segments, not {segments!r}")
        if dealer is None:
            dealer = 0  # a series is dealt the same for everyone: its dealers are fixed
        self.segments = segments
        self.segment_results: list[list[int]] = []
        self.segment_of_deal: list[int] = []
        self._segment = _Segment(game, dealer)
        super().__init__(game, seed, dealer)

    @property
    def segment(self) -> int:
        """The segment in play (from 0); ``segments`` once the series is over."""
        return len(self.segment_results)

    def _new_deal(self, dealer: int) -> Deal:
        seg = self._segment
        ctx = self.game._deal_context(seg)  # type: ignore[arg-type]
        seed = derive_seed(self.seed, "series", self.segment, len(seg.deals))
        seg.deal = self.game.deal(seed, dealer=dealer, **ctx)
        return seg.deal

    def _advance(self) -> None:
        game = self.game
        while True:
            seg = self._segment
            if not self.deal.is_over:
                live = game._live_scores(seg)  # type: ignore[arg-type]
                if live is None or not game._match_over(seg):  # type: ignore[arg-type]
                    return
                # the segment's match ended inside the deal (a score reached mid-deal)
                self.deals.append(self.deal)
                self.segment_of_deal.append(self.segment)
                self._end_segment(list(live))
            else:
                res = list(self.deal.result or [0] * game.players)
                seg.finished_scores = [a + b for a, b in zip(seg.finished_scores, res)]
                seg.deals.append(self.deal)
                self.deals.append(self.deal)
                self.segment_of_deal.append(self.segment)
                if not game._match_over(seg):  # type: ignore[arg-type]
                    self.deal = self._new_deal(game._next_dealer(seg, self.deal))  # type: ignore[arg-type]
                    continue
                self._end_segment(list(seg.finished_scores))
            if self.segment >= self.segments:
                self._finish()
                return
            first = (self.first_dealer + self.segment) % game.players
            self._segment = _Segment(game, first)
            self.deal = self._new_deal(first)

    def _end_segment(self, scores: list[int]) -> None:
        self.segment_results.append(scores)
        self._scores = [a + b for a, b in zip(self._scores, scores)]

    @property
    def scores(self) -> list[int]:
        if self._over:
            return list(self._scores)
        return [a + b for a, b in zip(self._scores, self._segment.scores)]

    def _finish(self) -> None:
        self._over = True
        best = max(self._scores)
        self._winners = [i for i, s in enumerate(self._scores) if s == best]

    def series_info(self) -> dict[str, Any]:
        """What a view's ``match`` says of the series: the segment in play (from 1), how many
        there are, and each finished one's scores."""
        return {"segment": min(self.segment + 1, self.segments), "segments": self.segments,
                "segment_results": [list(r) for r in self.segment_results]}

    def view(self, seat: int) -> View:
        v = super().view(seat)
        info: dict[str, Any] = dict(v.match or {})
        info.update(self.series_info())
        return dataclasses.replace(v, match=freeze(info))

    def record(self) -> dict[str, Any]:
        rec = super().record()
        rec["dealer"] = self.first_dealer
        rec["series"] = self.segments
        return rec

    def __repr__(self) -> str:
        return f"<Series {self.game.name} segment={self.segment}/{self.segments}>"
