"""A series of short matches (the daily deals): each segment is dealt from the series seed and
its own number alone, its first dealer is fixed, and the record replays it exactly."""

from __future__ import annotations

import random

import pytest

from cardplay import replay
from cardplay.dailyplan import PLANS, daily_series
from cardplay.engine import derive_seed
from cardplay.engine.series import Series


def play_out(series: Series, rng: random.Random) -> Series:
    while not series.is_over:
        legal = series.legal_moves()
        series.play(legal[rng.randrange(len(legal))])
    return series


@pytest.mark.parametrize("game", sorted(PLANS))
def test_every_segment_is_dealt_the_same_whatever_was_played(game: str) -> None:
    one = play_out(daily_series(game, 4242), random.Random(1))
    two = play_out(daily_series(game, 4242), random.Random(2))
    assert one.moves != two.moves
    assert len(one.segment_results) == len(two.segment_results) == PLANS[game].segments
    players = one.game.players
    for k in range(PLANS[game].segments):
        a = one.deals[one.segment_of_deal.index(k)]
        b = two.deals[two.segment_of_deal.index(k)]
        assert a.seed == b.seed == derive_seed(4242, "series", k, 0)
        assert a.dealer == b.dealer == (players - 1 + k) % players
    again = replay(one.record())
    assert isinstance(again, Series)
    assert again.segment_results == one.segment_results and again.scores == one.scores
    assert one.record()["series"] == PLANS[game].segments
    assert one.scores == [sum(r[i] for r in one.segment_results) for i in range(players)]


def test_a_bad_number_of_segments_is_refused() -> None:
    game = daily_series("twenty", 1).game
    for bad in (0, 51, True, "3"):
        with pytest.raises(ValueError):
            Series(game, 1, 0, bad)  # type: ignore[arg-type]
