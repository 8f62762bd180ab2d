"""The arena on Ray (`--ray`): the same report as one process, connections, errors.

One real local Ray instance (2 CPUs) serves the whole module: starting one takes seconds. Each
pytest-xdist worker that runs these tests starts its own, with its own temporary folder, so two
workers never share or stop each other's instance. What happens around the connection (which
arguments start an instance, what gets shut down, what a failure cancels) is checked on a stand-in
for the ``ray`` module, so those tests need no cluster.
"""

from __future__ import annotations

import inspect
import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cardplay import arena
from cardplay.arena import ClusterUnavailable, RayNotInstalled, run
from cardplay.cli import main


def _without_times(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if not k.endswith("times")} for r in rows]


def _report_without_times(report: arena.Report) -> dict[str, Any]:
    return {k: v for k, v in report.to_dict().items()
            if k not in ("seconds", "move_ms_a", "move_ms_b")}


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---- a real local Ray instance


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    import ray

    # Short path: Ray's Unix sockets live under it and must fit in 107 characters.
    temp_dir = tempfile.mkdtemp(prefix="cpray")
    # A new instance may turn token authentication on by setting RAY_AUTH_MODE in this process's
    # environment, which the command started below inherits to connect; put it back afterwards.
    auth_mode = os.environ.get("RAY_AUTH_MODE")
    ray.init(num_cpus=2, include_dashboard=False, _temp_dir=temp_dir,
             logging_level=logging.WARNING)
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        # Waiting for Ray's processes to end (where this Ray can) lets their folder go too.
        waits = "wait_for_processes" in inspect.signature(ray.shutdown).parameters
        ray.shutdown(**({"wait_for_processes": True} if waits else {}))
        shutil.rmtree(temp_dir, ignore_errors=True)
        if auth_mode is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = auth_mode


def test_ray_run_gives_the_report_and_rows_of_one_process(
        ray_address: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import ray

    ticks: list[tuple[int, int]] = []
    monkeypatch.setattr(arena, "_progress",
                        lambda done, total, started: ticks.append((done, total)))
    # banchok has three seats: every deal is played three times, bot A in each seat
    on_ray, ray_rows = run("banchok", "heuristic", "random", deals=6, matches=1, seed=11,
                           ray="local", progress=True)
    alone, rows = run("banchok", "heuristic", "random", deals=6, matches=1, seed=11, workers=1)
    assert _without_times(ray_rows) == _without_times(rows)
    assert [(r["index"], r["a_seat"]) for r in ray_rows] == [
        *((i, s) for i in range(6) for s in range(3)), (0, 0), (0, 1), (0, 2)]
    assert _report_without_times(on_ray) == _report_without_times(alone)
    assert on_ray.games_played == 18 and on_ray.matches == 1
    assert len(on_ray.move_ms_a) == 4 and on_ray.move_ms_a["moves"] == alone.move_ms_a["moves"]
    assert ticks == [(done, 7) for done in range(1, 8)]
    # the connection was this process's already: the arena used it and left it open
    assert ray.is_initialized()


def test_arena_command_on_a_cluster_address_writes_what_a_local_run_writes(
        ray_address: str, tmp_path: Path) -> None:
    common = ["arena", "twenty", "heuristic", "random", "--deals", "5", "--matches", "1",
              "--seed", "7"]
    # A separate process is a driver of its own: it connects to the cluster by its address,
    # ships this cardplay to it, and disconnects at the end.
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from cardplay.cli import main; sys.exit(main())",
         *common, "--ray", ray_address, "--out", str(tmp_path / "ray")],
        capture_output=True, text=True, timeout=120, env=os.environ.copy())
    assert done.returncode == 0, done.stdout + done.stderr
    assert "deal share" in done.stdout
    assert main([*common, "--out", str(tmp_path / "local")]) == 0
    on_ray = (tmp_path / "ray" / "games.csv").read_text()
    assert on_ray == (tmp_path / "local" / "games.csv").read_text()
    assert len(on_ray.splitlines()) == 1 + 10 + 2


# ---- connections and errors, on a stand-in for the ray module


class FakeRef:
    def __init__(self, fn: Callable[[Any], Any], arg: Any) -> None:
        self.fn, self.arg = fn, arg


class FakeTask:
    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn

    def remote(self, arg: Any) -> FakeRef:
        return FakeRef(self.fn, arg)


class FakeRay:
    """Plays each task when its result is fetched; tasks finish last-submitted first."""

    def __init__(self, connected: bool = False, init_error: Exception | None = None,
                 half_connects: bool = False) -> None:
        self.connected = connected
        self.init_error = init_error
        self.half_connects = half_connects
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def is_initialized(self) -> bool:
        return self.connected

    def init(self, **kwargs: Any) -> None:
        self.calls.append(("init", kwargs))
        if self.init_error is not None:
            self.connected = self.half_connects
            raise self.init_error
        self.connected = True

    def shutdown(self) -> None:
        self.calls.append(("shutdown", {}))
        self.connected = False

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 2.0}

    def remote(self, **options: Any) -> Callable[[Callable[[Any], Any]], FakeTask]:
        return FakeTask

    def wait(self, refs: list[FakeRef], num_returns: int = 1
             ) -> tuple[list[FakeRef], list[FakeRef]]:
        return refs[-num_returns:], refs[:-num_returns]

    def get(self, ref: FakeRef) -> Any:
        return ref.fn(ref.arg)

    def cancel(self, ref: FakeRef) -> None:
        self.calls.append(("cancel", {}))


@pytest.fixture
def fake_ray(monkeypatch: pytest.MonkeyPatch) -> FakeRay:
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    return fake


def test_local_starts_an_instance_with_the_workers_as_cpus_and_shuts_it_down(
        fake_ray: FakeRay) -> None:
    on_ray, ray_rows = run("twenty", "heuristic", "random", deals=20, seed=4, workers=3,
                           ray="local")
    alone, rows = run("twenty", "heuristic", "random", deals=20, seed=4)
    assert fake_ray.calls == [
        ("init", {"num_cpus": 3, "include_dashboard": False, "logging_level": logging.WARNING}),
        ("shutdown", {})]
    # the batches finished in reverse; the rows are still in the order of the deals
    assert _without_times(ray_rows) == _without_times(rows)
    assert _report_without_times(on_ray) == _report_without_times(alone)


def test_an_open_connection_is_used_and_left_open(fake_ray: FakeRay) -> None:
    fake_ray.connected = True
    report, _ = run("twenty", "random", "random", deals=2, seed=1, ray="10.0.0.1:6379")
    assert report.games_played == 4
    assert fake_ray.calls == [] and fake_ray.connected


def test_a_cluster_address_ships_this_package_and_disconnects(fake_ray: FakeRay) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        run("twenty", "random", "random", deals=2, seed=1, ray=address)
    (name, kwargs), shutdown = fake_ray.calls
    assert name == "init" and kwargs["address"] == address and shutdown == ("shutdown", {})
    [package] = kwargs["runtime_env"]["py_modules"]
    assert Path(package) == Path(arena.__file__).parent


def test_a_failed_game_cancels_the_rest_and_closes_the_connection(fake_ray: FakeRay) -> None:
    def broken(seed: int) -> Any:
        raise RuntimeError("no bot today")

    with pytest.raises(RuntimeError, match="no bot today"):
        run("twenty", broken, "random", deals=3, seed=1, ray="local")
    assert [name for name, _ in fake_ray.calls] == ["init", "cancel", "cancel", "shutdown"]


@pytest.mark.parametrize("address, reason", [
    ("nonsense", "not HOST:PORT"),
    ("ray://", "not HOST:PORT"),
    ("127.0.0.1:http", "not HOST:PORT"),
])
def test_a_malformed_address_is_refused_before_connecting(
        fake_ray: FakeRay, address: str, reason: str) -> None:
    with pytest.raises(ClusterUnavailable, match=reason) as caught:
        run("twenty", "random", "random", deals=2, ray=address)
    assert caught.value.address == address and fake_ray.calls == []


def test_a_dead_address_is_a_clear_error_and_nothing_is_written(
        fake_ray: FakeRay, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    address = f"127.0.0.1:{_closed_port()}"
    out = tmp_path / "res"
    assert main(["arena", "twenty", "random", "random", "--deals", "2", "--ray", address,
                 "--out", str(out)]) == 2
    printed = capsys.readouterr().out
    assert f"cannot use the Ray cluster at '{address}'" in printed
    assert "deal share" not in printed
    assert not out.exists() and fake_ray.calls == []
    assert main(["arena", "twenty", "random", "random", "--deals", "2", "--ray", address,
                 "--lang", "ru"]) == 2
    assert f"кластер Ray по адресу '{address}' недоступен" in capsys.readouterr().out


@pytest.mark.parametrize("half_connects, calls", [(False, ["init"]),
                                                   (True, ["init", "shutdown"])])
def test_a_connection_refused_by_ray_is_a_clear_error(
        monkeypatch: pytest.MonkeyPatch, half_connects: bool, calls: list[str]) -> None:
    fake = FakeRay(init_error=ConnectionError("Could not find any running Ray instance."),
                   half_connects=half_connects)
    monkeypatch.setitem(sys.modules, "ray", fake)
    with pytest.raises(ClusterUnavailable, match="Could not find any running Ray instance"):
        run("twenty", "random", "random", deals=2, ray="auto")
    assert [name for name, _ in fake.calls] == calls and not fake.connected


def test_without_the_extra_the_error_names_the_install_command(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if not installed
    with pytest.raises(RayNotInstalled, match=r"pip install 'cardplay\[dist\]'"):
        run("twenty", "random", "random", deals=2, ray="local")
    out = tmp_path / "res"
    assert main(["arena", "twenty", "random", "random", "--deals", "2", "--ray", "local",
                 "--out", str(out)]) == 2
    assert "pip install 'cardplay[dist]'" in capsys.readouterr().out
    assert not out.exists()
    # without --ray the extra is not needed
    assert main(["arena", "twenty", "random", "random", "--deals", "2"]) == 0
