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
        for level in cardplay.bots.LEVELS:
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


# ---- bots given as text, objects and factories (issue 34, clause 1)

HIGH_CARD = '''
class HighCard:
    """Plays the legal move whose text sorts last (a deterministic, weak bot)."""

    def __init__(self, game, seed=None):
        self.game = game

    def choose(self, view):
        return max(view.legal_moves, key=lambda m: m.text)
'''


class FirstMove:
    """A picklable bot object: always the first legal move."""

    def choose(self, view: cardplay.View) -> cardplay.Move:
        return view.legal_moves[0]


def test_arena_command_takes_a_bot_from_a_file_with_labels(tmp_path: Path) -> None:
    path = tmp_path / "mybot.py"
    path.write_text(HIGH_CARD)
    out = tmp_path / "res"
    assert main(["arena", "sixty-six", f"{path}:HighCard", "heuristic", "--deals", "4",
                 "--label", "high", "--label", "heur", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text())
    assert (report["bot_a"], report["bot_b"], report["games_played"]) == ("high", "heur", 8)


def test_arena_command_takes_module_class_and_names_it_by_its_class(tmp_path: Path) -> None:
    out = tmp_path / "res"
    assert main(["arena", "two-ten-jack", "cardplay.bots.random:RandomBot", "random",
                 "--deals", "3", "--seed", "4", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text())
    assert (report["bot_a"], report["bot_b"]) == ("RandomBot", "random")
    # the same class by its spec plays exactly as the level (same seeds, same moves)
    same, _ = run("two-ten-jack", "random", "random", deals=3, seed=4)
    assert report["share"] == same.share and report["mean_result_a"] == same.mean_result_a


@pytest.mark.parametrize(("spec", "needle"), [
    ("nope", "not a known level"),
    ("no_such_module_xyz:Bot", "cannot import"),
    ("cardplay.bots.random:NoSuchBot", "has no class or function"),
    ("missing/file.py:Bot", "cannot import"),
    ("missing.npz", "no such policy file"),
])
def test_a_bad_bot_spec_is_refused_before_any_game(spec: str, needle: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "sixty-six", spec, "random", "--deals", "2"]) == 2
    out = capsys.readouterr().out  # the console says errors on stdout
    assert needle in out and "module:Class" in out and "deal share" not in out
    from cardplay.arena import BotSpecError

    with pytest.raises(BotSpecError, match=needle):
        run("sixty-six", spec, "random", deals=2)


def test_more_than_two_labels_are_refused() -> None:
    assert main(["arena", "sixty-six", "random", "random", "--deals", "1", "--label", "a",
                 "--label", "b", "--label", "c"]) == 2


def test_run_takes_a_bot_object_and_names_it_by_its_class() -> None:
    report, rows = run("sixty-six", FirstMove(), "random", deals=3, seed=1)
    assert report.bot_a == "FirstMove" and report.games_played == 6
    # in two worker processes the (picklable) object plays the same moves
    _two, rows2 = run("sixty-six", FirstMove(), "random", deals=3, seed=1, workers=2)
    assert [r["result"] for r in rows2] == [r["result"] for r in rows]


def test_a_lambda_with_workers_says_what_to_do_instead_of_a_pickling_error() -> None:
    from cardplay.arena import NotSendable

    with pytest.raises(NotSendable, match=r"bot A \(lambda\) cannot be sent to worker "
                                          r"processes.*workers=1"):
        run("sixty-six", lambda seed: FirstMove(), "random", deals=2, workers=2)
    # in one process the same lambda plays, and the report calls it by its label
    report, _ = run("sixty-six", lambda seed: FirstMove(), "random", deals=2,
                    labels=("first", None))
    assert (report.bot_a, report.bot_b) == ("first", "random")


def test_something_that_is_no_bot_is_refused() -> None:
    with pytest.raises(TypeError, match="bot B is int"):
        run("sixty-six", "random", 3, deals=1)  # type: ignore[arg-type]


def test_the_worked_example_of_docs_bots_plays(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    import re

    doc = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(class HighTrump:.*?)```", doc, re.S)
    assert code is not None
    (tmp_path / "hightrump.py").write_text(code.group(1))
    assert main(["arena", "sixty-six", f"{tmp_path / 'hightrump.py'}:HighTrump", "random",
                 "--deals", "30", "--label", "high-trump", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "high-trump vs random" in out
    share = float(re.search(r"deal share (\S+)", out).group(1))  # type: ignore[union-attr]
    assert share > 0.5  # highest trumps beat random play (0.775 over 20 deals, seed 0)


# ---- the report's output (issue 34, clause 6)

def test_fast_bots_are_timed_in_microseconds() -> None:
    from cardplay.arena import format_times

    fast = {"median": 0.004, "p95": 0.012, "max": 1.5, "moves": 10.0}
    assert format_times(fast) == "us/move median 4.0, p95 12.0, max 1500.0 (10 moves)"
    slow = {"median": 2.5, "p95": 9.25, "max": 30.0, "moves": 4.0}
    assert format_times(slow) == "ms/move median 2.50, p95 9.25, max 30.00 (4 moves)"


def test_the_report_gives_both_bots_results_per_deal() -> None:
    report, rows = run("two-ten-jack", "heuristic", "random", deals=12, seed=2)
    # Two-Ten-Jack shares out 5 hand points a deal: the two means add up to 5
    assert report.mean_result_a + report.mean_result_b == pytest.approx(5.0)
    assert report.mean_result_b == pytest.approx(sum(r["b_result"] for r in rows) / len(rows))
    assert report.mean_result_b_half_width > 0
    assert (f"result per deal: heuristic {report.mean_result_a:+.3f} +- "
            f"{report.mean_result_a_half_width:.3f}, random {report.mean_result_b:+.3f}"
            ) in report.summary()
    # three seats: B's result is the mean of its two seats
    _, rows3 = run("chukhny", "heuristic", "random", deals=3, seed=1,
                       options={"players": 3})
    row = rows3[0]
    assert row["b_result"] == pytest.approx(
        sum(r for s, r in enumerate(row["result"]) if s != row["a_seat"]) / 2)


def test_the_command_says_when_the_plot_is_skipped(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import cardplay.arena as arena_mod

    monkeypatch.setattr(arena_mod, "_plot", lambda report, rows, path: None)
    assert main(["arena", "sixty-six", "random", "random", "--deals", "2",
                 "--out", str(tmp_path)]) == 0
    assert "shares.png not drawn: matplotlib is not installed" in capsys.readouterr().out

    def fake_plot(report: object, rows: object, path: Path) -> Path:
        path.write_bytes(b"png")
        return path

    monkeypatch.setattr(arena_mod, "_plot", fake_plot)
    assert main(["arena", "sixty-six", "random", "random", "--deals", "2",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "shares.png" in out and "not drawn" not in out


def test_progress_lines_when_stderr_is_no_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    run("sixty-six", "random", "random", deals=20, progress=True)
    lines = capsys.readouterr().err.splitlines()
    # one line per tenth of the games (under capsys stderr is no terminal: no bar, no \r)
    assert len(lines) == 10 and all(line.startswith("arena: ") for line in lines)
    assert lines[0].startswith("arena: 2/20 ")
    assert lines[-1].startswith("arena: 20/20 deals and matches (100%)")
    run("sixty-six", "random", "random", deals=5)
    assert capsys.readouterr().err == ""
