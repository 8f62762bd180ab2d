"""The arena: seat rotation, statistics, outputs and its command."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import cardplay
from cardplay.arena import elo_difference, run, wilson_interval
from cardplay.cli import main


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-4) and math.isclose(hi, 0.5962, abs_tol=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(100, 100)
    assert hi == pytest.approx(1.0) and 0.96 < lo < 0.97


def test_elo_difference_is_antisymmetric_and_zero_at_half() -> None:
    assert elo_difference(0.5) == 0.0
    assert math.isclose(elo_difference(0.75), -elo_difference(0.25))
    assert math.isclose(elo_difference(0.75), 400 * math.log10(3))


def test_every_deal_is_played_in_every_rotation_and_results_cancel() -> None:
    # random against random on the same seeds: each deal is played once per seat of bot A
    report, rows = run("chukhny", "random", "random", deals=6, seed=3, options={"players": 3})
    assert report.games_played == 18 and report.fair_share == pytest.approx(1 / 3)
    assert sorted({(r["index"], r["a_seat"]) for r in rows}) == [
        (i, s) for i in range(6) for s in range(3)]
    assert 0.0 <= report.share_low <= report.share <= report.share_high <= 1.0


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    one, rows1 = run("two-ten-jack", "heuristic", "random", deals=4, seed=5, workers=1)
    two, rows2 = run("two-ten-jack", "heuristic", "random", deals=4, seed=5, workers=2)
    strip = [{k: v for k, v in r.items() if not k.endswith("times")} for r in rows1]
    assert strip == [{k: v for k, v in r.items() if not k.endswith("times")} for r in rows2]
    assert one.share == two.share


def test_arena_command_writes_report_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                             ) -> None:
    out = tmp_path / "res"
    assert main(["arena", "sixty-six", "heuristic", "random", "--deals", "5", "--matches", "1",
                 "--seed", "2", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["games_played"] == 10 and report["matches"] == 1
    assert report["bot_a"] == "heuristic" and report["elo"] is not None
    lines = (out / "games.csv").read_text().splitlines()
    assert lines[0].startswith("kind,index,a_seat") and len(lines) == 1 + 10 + 2
    assert "deal share" in capsys.readouterr().out


def test_a_matches_only_run_shows_no_deal_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "sixty-six", "heuristic", "random", "--deals", "0", "--matches", "1",
                 "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "match share" in out and "over 1 matches" in out
    assert "deal share" not in out and "result per deal" not in out


@pytest.mark.parametrize("argv", [
    ["arena", "sixty-six", "nope", "random"],
    ["arena", "sixty-six", "random", "random", "--deals", "0"],
    ["arena", "sixty-six", "random", "random", "-o", "match_target=0"],
    ["arena", "sixty-six", "random", "random", "-o", "novalue"],
    ["arena", "no-such-game", "random", "random"],
])
def test_arena_command_rejects_bad_input(argv: list[str]) -> None:
    assert main(argv) == 2


def test_levels_load_for_every_game() -> None:
    for name in cardplay.games():
        game = cardplay.load(name)
        declared = game.declaration.bots
        assert declared is not None
        for level in ("random", "heuristic", *declared.levels):
            bot = cardplay.bots.load(level, game, seed=1)
            deal = game.deal(seed=1)
            seat = deal.to_move
            assert seat is not None
            move = bot.choose(deal.view(seat))
            assert move in deal.legal_moves()


def test_the_paired_interval_counts_each_duplicate_deal_once() -> None:
    from cardplay.arena import MIN_PAIRED_DEALS, paired_interval

    # 30 deals of two seatings: even deals split (1, 0), odd deals won in both seatings
    rows = [{"index": i, "share": s} for i in range(30) for s in ((1, 0) if i % 2 == 0 else
                                                                   (1, 1))]
    got = paired_interval(rows, "share")
    assert got is not None
    mean, lo, hi = got
    # the deals' means are 0.5 and 1.0 in turn: variance 30 * 0.25**2 / 29 over 30 deals
    half = 1.96 * math.sqrt(30 * 0.0625 / 29 / 30)
    assert mean == pytest.approx(0.75) and lo == pytest.approx(0.75 - half) and \
        hi == pytest.approx(0.75 + half)
    # the games as independent trials would give a wider interval (the split deals' noise
    # cancels within the pair)
    w_lo, w_hi = wilson_interval(45, 60)
    assert hi - lo < w_hi - w_lo
    assert paired_interval(rows[:2 * (MIN_PAIRED_DEALS - 1)], "share") is None
    assert paired_interval([{"index": i, "share": 0.5} for i in range(40)], "share") is None


def test_an_arena_report_uses_the_paired_interval() -> None:
    from cardplay.arena import paired_interval

    report, rows = run("two-ten-jack", "heuristic", "random", deals=40, seed=3)
    got = paired_interval(rows, "share")
    assert got is not None
    assert (report.share_low, report.share_high) == (max(0.0, got[1]), min(1.0, got[2]))
    assert report.share == pytest.approx(got[0])
