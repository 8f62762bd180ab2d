"""Matches between bots over many seeded deals, with honest statistics.

Every deal is played once per seat rotation (two players: each deal twice with the seats swapped;
more players: bot A in each seat in turn, bot B in all the others), so the luck of the deal
cancels. A bot's *share* of a deal is 1 when it alone has the best result, ``1/k`` when ``k``
seats tie for the best, else 0; the fair share of an ``n``-seat game is ``1/n``.

The report gives the share with a 95% interval, the mean result (match points per deal) with a
95% interval, the Elo difference implied by the share (two-player games) with its interval,
whole-match win rates when matches are asked for, and time per move (median, p95, max). The
intervals count each duplicate deal (its seatings together) as one observation
(:func:`paired_interval`): the seatings of one deal share its cards, and treating them as
independent games overstates the noise. With fewer than 30 deals, or deals whose means never
vary, the Wilson interval over games stands instead.
Work is split over processes, or over a Ray cluster with the optional extra ``dist``; every game
draws its seeds from the arena seed and its own index, so results do not depend on where or in
which order the games are played.
"""

from __future__ import annotations

import csv
import json
import logging
import math
import multiprocessing
import os
import pickle
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .bots import Bot
from .bots.spec import BotSpecError, build_spec, label_of
from .engine import Game, derive_seed, load

__all__ = ["BotSpecError", "ClusterUnavailable", "NotSendable", "RayNotInstalled", "Report",
           "compare", "elo_difference", "paired_interval", "play_deal", "run", "wilson_interval"]

# A bot as the arena takes it: a spec (a level, "module:Class", "path/file.py:Class" or a policy
# file, :mod:`cardplay.bots.spec`), a bot object (anything with choose(view)), or a factory
# ``seed -> Bot``.
BotSpec = str | Bot | Callable[[int], Bot]
# game name, options, bot A, bot B, arena seed, "deal" or "match", index
JobArgs = tuple[str, dict[str, Any], BotSpec, BotSpec, int, str, int]
Rows = list[dict[str, Any]]

# How long to wait for a cluster's address to answer before saying it is unreachable: Ray itself
# keeps retrying a dead address for minutes.
CONNECT_TIMEOUT_S = 5.0


class RayNotInstalled(ImportError):
    """``ray=`` was given but Ray is not installed (the optional extra ``dist``)."""

    def __init__(self) -> None:
        super().__init__("the arena on Ray needs the optional extra dist: "
                         "pip install 'cardplay[dist]'")


class NotSendable(ValueError):
    """A bot (or factory) that cannot be pickled, so cannot go to worker processes (Ray's
    tasks use cloudpickle, which takes lambdas and local functions)."""

    def __init__(self, side: str, label: str, reason: str) -> None:
        super().__init__(
            f"bot {side} ({label}) cannot be sent to worker processes: {reason}. Use workers=1, "
            f"or define it at the top level of a module and pass the class, a factory function "
            f"or the text 'module:Class' (lambdas and functions defined inside others cannot "
            f"be pickled)")
        self.side = side
        self.label = label


class ClusterUnavailable(RuntimeError):
    """The Ray cluster at ``address`` cannot be used; ``reason`` says why."""

    def __init__(self, address: str, reason: str) -> None:
        super().__init__(f"cannot use the Ray cluster at {address!r}: {reason}")
        self.address = address
        self.reason = reason


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (successes may be fractional, e.g. shared wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# Below this many duplicate deals the spread of the deals' means is too rough an estimate, and the
# paired interval gives way to the Wilson interval over games (wider, never overconfident).
MIN_PAIRED_DEALS = 30


def paired_interval(rows: list[dict[str, Any]], key: str,
                    z: float = 1.96) -> tuple[float, float, float] | None:
    """The mean of ``key`` over the games and its interval, with each duplicate deal (all the
    seatings of one deal index) as one observation: the seatings of a deal share its cards, so
    they are not independent, and their mean is what varies from deal to deal. None when there
    are fewer than :data:`MIN_PAIRED_DEALS` deals or their means do not vary at all (the spread
    then says nothing about the next deals)."""
    by_deal: dict[int, list[float]] = {}
    for r in rows:
        by_deal.setdefault(r["index"], []).append(float(r[key]))
    d = len(by_deal)
    if d < MIN_PAIRED_DEALS:
        return None
    means = [sum(v) / len(v) for v in by_deal.values()]
    mean = sum(means) / d
    var = sum((x - mean) ** 2 for x in means) / (d - 1)
    if var <= 0.0:
        return None
    half = z * math.sqrt(var / d)
    return mean, mean - half, mean + half


def elo_difference(share: float) -> float:
    """The Elo difference that predicts this expected score (clamped to +-800)."""
    p = min(max(share, 1e-4), 1 - 1e-4)
    return max(-800.0, min(800.0, -400.0 * math.log10(1 / p - 1)))


@dataclass
class Report:
    """What the arena measured for bot A against bot B."""

    game: str
    options: dict[str, Any]
    bot_a: str
    bot_b: str
    players: int
    deals: int
    games_played: int
    share: float
    share_low: float
    share_high: float
    fair_share: float
    mean_result_a: float
    mean_result_a_half_width: float
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    matches: int = 0
    match_share: float | None = None
    match_share_low: float | None = None
    match_share_high: float | None = None
    move_ms_a: dict[str, float] = field(default_factory=dict)
    move_ms_b: dict[str, float] = field(default_factory=dict)
    seed: int = 0
    seconds: float = 0.0
    # bot B's mean result per deal (two players: the other seat; more: the mean of B's seats)
    mean_result_b: float = 0.0
    mean_result_b_half_width: float = 0.0

    @property
    def seconds_per_move_a(self) -> float:
        return self.move_ms_a.get("median", 0.0) / 1000

    @property
    def seconds_per_move_b(self) -> float:
        return self.move_ms_b.get("median", 0.0) / 1000

    def clear_of_fair(self) -> bool:
        """True when the 95% interval lies wholly above the fair share."""
        return self.share_low > self.fair_share

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        lines = [
            f"{self.game} {self.options or ''}: {self.bot_a} vs {self.bot_b}, "
            f"{self.players} seats, "
            f"{self.games_played} games ({self.deals} deals x {self.players} rotations), "
            f"seed {self.seed}, {self.seconds:.1f} s",
        ]
        if self.deals:  # a matches-only run has no deal figures to show
            lines += [
                f"  deal share {self.share:.3f}  95% [{self.share_low:.3f}, "
                f"{self.share_high:.3f}]  (fair {self.fair_share:.3f})",
                f"  result per deal: {self.bot_a} {self.mean_result_a:+.3f} +- "
                f"{self.mean_result_a_half_width:.3f}, {self.bot_b} {self.mean_result_b:+.3f} "
                f"+- {self.mean_result_b_half_width:.3f}",
            ]
        if self.elo is not None:
            lines.append(f"  Elo {self.elo:+.0f}  95% [{self.elo_low:+.0f}, {self.elo_high:+.0f}]")
        if self.matches and self.match_share is not None:
            lines.append(f"  match share {self.match_share:.3f}  95% [{self.match_share_low:.3f}, "
                         f"{self.match_share_high:.3f}] over {self.matches} matches")
        for name, t in ((self.bot_a, self.move_ms_a), (self.bot_b, self.move_ms_b)):
            if t:
                lines.append(f"  {name}: {format_times(t)}")
        return "\n".join(lines)


def format_times(t: dict[str, float]) -> str:
    """Time per move in milliseconds, or in microseconds when the median is under 0.1 ms (fast
    bots would show 0.00 ms)."""
    if t["median"] < 0.1:
        return (f"us/move median {1000 * t['median']:.1f}, p95 {1000 * t['p95']:.1f}, "
                f"max {1000 * t['max']:.1f} ({int(t['moves'])} moves)")
    return (f"ms/move median {t['median']:.2f}, p95 {t['p95']:.2f}, max {t['max']:.2f} "
            f"({int(t['moves'])} moves)")


def play_deal(game: Game, seed: int, bots: list[Bot],
              timing: list[list[float]] | None = None,
              clock: Callable[[], float] = time.perf_counter) -> list[int]:
    """Play one deal with one bot per seat; return its result. Bots see only their views.
    With ``timing``, each seat's seconds per decision (by ``clock``) are appended to its list."""
    deal = game.deal(seed=seed)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        t0 = clock()
        move = bots[seat].choose(view)
        if timing is not None:
            timing[seat].append(clock() - t0)
        deal.play(move, seat=seat)
    result = deal.result
    assert result is not None
    return result


def play_match(game: Game, seed: int, bots: list[Bot]) -> list[int]:
    """Play one whole match; return its winners."""
    match = game.match(seed=seed)
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.play(bots[seat].choose(match.view(seat)), seat=seat)
    return match.winners


def _share(result: list[int], seat: int) -> float:
    best = max(result)
    if result[seat] != best:
        return 0.0
    return 1.0 / sum(1 for r in result if r == best)


def _is_bot(spec: object) -> bool:
    return callable(getattr(spec, "choose", None))


def _make(spec: BotSpec, game: Game, seed: int) -> Bot:
    if isinstance(spec, str):
        bot: Bot = build_spec(spec, game, seed)
        return bot
    if _is_bot(spec):  # a bot object plays as it is (a fresh copy in each worker process)
        return spec  # type: ignore[return-value]
    return spec(seed)  # type: ignore[operator]


def _job(args: JobArgs) -> Rows:
    """Play one deal (or match) index in every rotation; runs in a worker process."""
    name, options, spec_a, spec_b, seed, kind, index = args
    game = load(name, **options)
    n = game.players
    base = derive_seed(seed, kind, index)
    out = []
    for a_seat in range(n):
        bots = [_make(spec_a if s == a_seat else spec_b, game, derive_seed(base, a_seat, s))
                for s in range(n)]
        if kind == "deal":
            timing: list[list[float]] = [[] for _ in range(n)]
            result = play_deal(game, base, bots, timing)
            out.append({"index": index, "a_seat": a_seat, "result": result,
                        "share": _share(result, a_seat), "a_result": result[a_seat],
                        "b_result": sum(result[s] for s in range(n) if s != a_seat) / (n - 1),
                        "a_times": timing[a_seat],
                        "b_times": [t for s in range(n) if s != a_seat for t in timing[s]]})
        else:
            winners = play_match(game, base, bots)
            share = (1.0 / len(winners)) if a_seat in winners else 0.0
            out.append({"index": index, "a_seat": a_seat, "winners": winners, "share": share})
    return out


def _times(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {}
    s = sorted(xs)
    return {"median": 1000 * s[len(s) // 2], "p95": 1000 * s[min(len(s) - 1, int(0.95 * len(s)))],
            "max": 1000 * s[-1], "moves": float(len(s))}


# Without a terminal (a log file, CI), a progress line at every tenth of the games and at least
# every PROGRESS_EVERY_S seconds, instead of a bar redrawn in place.
PROGRESS_EVERY_S = 30.0
_last_line = 0.0  # when the last progress line was written (time.perf_counter)


def _progress(done: int, total: int, started: float) -> None:
    """Progress on stderr after ``done`` of ``total`` games: a bar on a terminal, else a plain
    line when a tenth of the games is passed (or PROGRESS_EVERY_S seconds went by)."""
    global _last_line
    if total <= 0:
        return
    now = time.perf_counter()
    elapsed = max(1e-9, now - started)
    rate = done / elapsed
    eta = (total - done) / rate if rate > 0 else 0.0
    if not sys.stderr.isatty():
        if done == 1:
            _last_line = started
        if (10 * done // total == 10 * (done - 1) // total and done != total
                and now - _last_line < PROGRESS_EVERY_S):
            return
        _last_line = now
        sys.stderr.write(f"arena: {done}/{total} deals and matches ({100 * done // total}%), "
                         f"{rate:.1f}/s, {elapsed:.0f} s, eta {eta:.0f} s\n")
        sys.stderr.flush()
        return
    width = 30
    filled = int(width * done / total)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                     f"{rate:.1f}/s eta {eta:.0f}s ")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _job_batch(batch: list[JobArgs]) -> list[Rows]:
    """Several jobs in one remote task, so that Ray's per-task cost is paid once per batch."""
    return [_job(j) for j in batch]


def _map(jobs: list[JobArgs], workers: int) -> Iterable[Rows]:
    if workers <= 1:
        for j in jobs:
            yield _job(j)
        return
    ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with ctx.Pool(workers) as pool:
        yield from pool.imap(_job, jobs, chunksize=max(1, len(jobs) // (workers * 8)))


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as e:
        raise RayNotInstalled() from e
    return ray


def _check_reachable(address: str) -> None:
    """Fail fast on an address that is malformed or where nothing listens."""
    if address == "auto":  # Ray looks for a cluster on this machine and says so when there is none
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    host = host.strip("[]")  # an IPv6 address in brackets
    if not sep or not host or not port.isdigit():
        raise ClusterUnavailable(address, "not HOST:PORT, ray://HOST:PORT, auto or local")
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S):
            pass
    except OSError as e:
        raise ClusterUnavailable(address, str(e) or type(e).__name__) from e


@contextmanager
def _ray_session(address: str, workers: int | None) -> Iterator[Any]:
    """The ``ray`` module, connected. A connection this process already has is used and left
    open; one opened here (a new local instance, or a cluster at ``address``) is closed after."""
    ray = _import_ray()
    if ray.is_initialized():
        yield ray
        return
    if address == "local":
        # A local instance without CPUs would accept the tasks and never run them.
        cpus = None if workers is None else max(1, workers)
        ray.init(num_cpus=cpus, include_dashboard=False, logging_level=logging.WARNING)
    else:
        _check_reachable(address)
        # The cluster's workers import this very copy of cardplay (shipped with the job), so a
        # node with another version installed, or none, still plays the same games.
        package = os.path.dirname(os.path.abspath(__file__))
        try:
            ray.init(address=address, runtime_env={"py_modules": [package]},
                     logging_level=logging.WARNING)
        except Exception as e:
            # Ray says "cannot connect" in many types (ConnectionError, its AuthenticationError,
            # RuntimeError, ValueError); for the caller each means this cluster cannot be used.
            if ray.is_initialized():  # half-connected
                ray.shutdown()
            raise ClusterUnavailable(address, str(e) or type(e).__name__) from e
    try:
        yield ray
    finally:
        ray.shutdown()


def _map_ray(ray: Any, jobs: list[JobArgs], on_done: Callable[[], None]) -> list[Rows]:
    """Run the jobs as Ray tasks; return their rows in job order, whatever order they finish in."""
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = max(1, len(jobs) // (cpus * 8))
    batches = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    task = ray.remote(num_cpus=1)(_job_batch)
    refs = [task.remote(batch) for batch in batches]
    slot = {ref: i for i, ref in enumerate(refs)}
    results: list[list[Rows]] = [[] for _ in refs]
    pending = list(refs)
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                results[slot[ref]] = ray.get(ref)
                for _ in results[slot[ref]]:
                    on_done()
    except BaseException:
        # A failed game or Ctrl-C: the cluster need not play the rest.
        for ref in pending:
            ray.cancel(ref)
        raise
    return [chunk for batch in results for chunk in batch]


def _check_specs(game: Game, specs: tuple[BotSpec, BotSpec], labels: tuple[str, str],
                 sendable: bool) -> None:
    """Fail before any game is played: a text that names no bot, something that is neither a
    bot nor a factory, or (``sendable``) one that cannot be pickled for worker processes."""
    for side, spec, label in zip("AB", specs, labels):
        if isinstance(spec, str):
            build_spec(spec, game, 0)
        elif not (_is_bot(spec) or callable(spec)):
            raise TypeError(f"bot {side} is {type(spec).__name__}: give a level or spec text, "
                            f"a bot (with choose(view)) or a factory seed -> bot")
        if sendable and not isinstance(spec, str):
            try:
                pickle.dumps(spec)
            except Exception as e:  # PicklingError, AttributeError, TypeError: all mean no
                raise NotSendable(side, label, f"{type(e).__name__}: {e}") from e


def run(game: str | Game, bot_a: BotSpec, bot_b: BotSpec, deals: int = 1000, seed: int = 0,
        workers: int | None = None, matches: int = 0, options: dict[str, Any] | None = None,
        progress: bool = False, ray: str | None = None,
        labels: tuple[str | None, str | None] | None = None
        ) -> tuple[Report, list[dict[str, Any]]]:
    """Play ``deals`` duplicate deals (and ``matches`` duplicate matches); return the report and
    one row per game played.

    A bot is a text (a level, ``module:Class``, ``path/file.py:Class`` or a policy file, as
    :mod:`cardplay.bots.spec` says), a bot object (``choose(view)``; it plays every game of its
    side as it is, so it should keep no state between deals), or a factory ``seed -> Bot``.
    Texts travel to worker processes as they are; objects and factories are pickled, and one that
    cannot be (with ``workers`` > 1; Ray's cloudpickle takes lambdas) raises
    :class:`NotSendable` (naming the fix) before any game is played, as a text
    that names no bot raises :class:`BotSpecError`. ``labels`` name the bots in the report
    (default: the level, class, function or file name).

    ``workers`` processes share the games (default 1). With ``ray`` the games run as Ray tasks
    instead (the optional extra ``dist``): ``"local"`` starts a local Ray instance with
    ``workers`` CPUs (default: all), any other value is the address of a running cluster
    (``HOST:PORT``, ``ray://HOST:PORT`` or ``auto``). A Ray connection that this process already
    has is used as it is. The report and rows are those of a run in one process with the same
    seed, but for the timings. Raises :class:`RayNotInstalled` or :class:`ClusterUnavailable`
    before any game is played when Ray cannot be used."""
    if isinstance(game, Game):
        name, opts = game.name, {**game.options_dict(), **(options or {})}
    else:
        name, opts = game, dict(options or {})
    g = load(name, **opts)
    n = g.players
    given = labels or (None, None)
    label_a, label_b = given[0] or _label(bot_a), given[1] or _label(bot_b)
    _check_specs(g, (bot_a, bot_b), (label_a, label_b),
                 # Ray pickles tasks with cloudpickle, which takes lambdas and local functions
                 sendable=ray is None and (workers or 1) > 1)
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    total = deals + matches
    jobs: list[JobArgs] = [(name, opts, bot_a, bot_b, seed, "deal", i) for i in range(deals)]
    jobs += [(name, opts, bot_a, bot_b, seed, "match", i) for i in range(matches)]
    done = 0

    def one_done() -> None:
        nonlocal done
        done += 1
        if progress:
            _progress(done, total, started)

    if ray is None:
        for chunk in _map(jobs, 1 if workers is None else workers):
            rows.extend(chunk)
            one_done()
    else:
        with _ray_session(ray, workers) as ray_module:
            for chunk in _map_ray(ray_module, jobs, one_done):
                rows.extend(chunk)
    deal_rows = [r for r in rows if "result" in r]
    match_rows = [r for r in rows if "winners" in r]
    m = len(deal_rows)
    shares = [r["share"] for r in deal_rows]
    results = [r["a_result"] for r in deal_rows]
    share = sum(shares) / m if m else 0.0
    paired = paired_interval(deal_rows, "share")
    if paired is not None:
        lo, hi = max(0.0, paired[1]), min(1.0, paired[2])
    else:
        lo, hi = wilson_interval(sum(shares), m)
    mean = sum(results) / m if m else 0.0
    result_half = _half_width(deal_rows, "a_result")
    mean_b = sum(r["b_result"] for r in deal_rows) / m if m else 0.0
    elo = elo_lo = elo_hi = None
    if n == 2 and m:
        elo, elo_lo, elo_hi = elo_difference(share), elo_difference(lo), elo_difference(hi)
    report = Report(
        game=name, options={k: v for k, v in opts.items()}, bot_a=label_a,
        bot_b=label_b, players=n, deals=deals, games_played=m, share=share, share_low=lo,
        share_high=hi, fair_share=1 / n, mean_result_a=mean,
        mean_result_a_half_width=result_half,
        elo=elo, elo_low=elo_lo, elo_high=elo_hi, seed=seed,
        move_ms_a=_times([t for r in deal_rows for t in r["a_times"]]),
        move_ms_b=_times([t for r in deal_rows for t in r["b_times"]]),
        mean_result_b=mean_b, mean_result_b_half_width=_half_width(deal_rows, "b_result"),
    )
    if match_rows:
        ms = sum(r["share"] for r in match_rows)
        report.matches = matches
        report.match_share = ms / len(match_rows)
        paired_match = paired_interval(match_rows, "share")
        if paired_match is not None:
            report.match_share_low = max(0.0, paired_match[1])
            report.match_share_high = min(1.0, paired_match[2])
        else:
            report.match_share_low, report.match_share_high = wilson_interval(ms,
                                                                              len(match_rows))
    report.seconds = time.perf_counter() - started
    return report, rows


def _half_width(rows: Rows, key: str) -> float:
    """The half-width of the 95% interval of a mean result (paired over duplicate deals, else
    over games)."""
    paired = paired_interval(rows, key)
    if paired is not None:
        return paired[2] - paired[0]
    m = len(rows)
    if not m:
        return 0.0
    xs = [float(r[key]) for r in rows]
    mean = sum(xs) / m
    var = sum((x - mean) ** 2 for x in xs) / max(1, m - 1)
    return 1.96 * math.sqrt(var / m)


def _label(spec: BotSpec) -> str:
    if isinstance(spec, str):
        return label_of(spec)
    name = getattr(spec, "__name__", None)
    if not isinstance(name, str):
        name = type(spec).__name__
    return "lambda" if name == "<lambda>" else name


def compare(game: Game, bot_a: BotSpec, bot_b: BotSpec, deals: int = 1000,
            seed: int = 0, workers: int | None = None, ray: str | None = None) -> Report:
    """The report of :func:`run` alone (deals only)."""
    return run(game, bot_a, bot_b, deals=deals, seed=seed, workers=workers, ray=ray)[0]


def write_outputs(report: Report, rows: list[dict[str, Any]], out: str | Path) -> list[Path]:
    """Write ``report.json`` and ``games.csv`` (and ``shares.png`` when matplotlib is there:
    without it the returned paths have no ``shares.png``, and ``cardplay arena`` says so)."""
    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    paths = [d / "report.json", d / "games.csv"]
    paths[0].write_text(json.dumps(report.to_dict(), indent=2, sort_keys=True) + "\n")
    with paths[1].open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kind", "index", "a_seat", "share", "a_result", "result_or_winners",
                    "b_result"])
        for r in rows:
            kind = "deal" if "result" in r else "match"
            w.writerow([kind, r["index"], r["a_seat"], r["share"], r.get("a_result", ""),
                        " ".join(str(x) for x in r.get("result", r.get("winners", []))),
                        r.get("b_result", "")])
    png = _plot(report, rows, d / "shares.png")
    if png is not None:
        paths.append(png)
    return paths


def _plot(report: Report, rows: list[dict[str, Any]], path: Path) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    deal_rows = [r for r in rows if "result" in r]
    xs, ys, lows, highs = [], [], [], []
    total = 0.0
    for i, r in enumerate(deal_rows, 1):
        total += r["share"]
        if i % max(1, len(deal_rows) // 200) == 0 or i == len(deal_rows):
            lo, hi = wilson_interval(total, i)
            xs.append(i)
            ys.append(total / i)
            lows.append(lo)
            highs.append(hi)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(xs, ys, label=f"{report.bot_a} share")
    ax.fill_between(xs, lows, highs, alpha=0.25, label="95% interval")
    ax.axhline(report.fair_share, color="grey", linestyle="--", label="fair share")
    ax.set_xlabel("games played")
    ax.set_ylabel("share of deals won")
    ax.set_title(f"{report.game}: {report.bot_a} vs {report.bot_b}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
