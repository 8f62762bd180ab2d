"""Throwaway PostgreSQL and Redis servers for the tests, from the Debian packages that
``.ci/run`` installs: each on a free port of 127.0.0.1, in a temporary directory, stopped at
the end. PostgreSQL refuses to run as root, so as root (CI) its programs run as ``postgres``."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

from .conftest import free_port


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    assert found, "PostgreSQL is not installed (apt-get install postgresql; .ci/run does it)"
    return Path(found[-1]).parent


def _as_postgres(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def _backends_left(data: Path) -> bool:
    """Whether a process still runs from this cluster's directory (a backend of a killed
    postmaster): its command line names no directory, so look for open files under it."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if os.readlink(proc / "cwd").startswith(str(data)):
                return True
        except OSError:
            continue
    return False


class Postgres:
    """One PostgreSQL cluster; :meth:`new_database` gives each test a database of its own."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="cardplay-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        self.port = free_port()
        self._n = 0

    def start(self) -> Postgres:
        data = str(self.dir / "data")
        subprocess.run(_as_postgres([str(self.bin / "initdb"), "-D", data, "-U", "postgres",
                                     "--auth=trust", "--no-sync"]),
                       check=True, capture_output=True)
        return self.restart()

    def restart(self) -> Postgres:
        """Start the server on its directory and port (again, after :meth:`kill`: crash
        recovery runs and the data is as it was committed)."""
        subprocess.run(_as_postgres([
            str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-l", str(self.dir / "log"),
            "-w", "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c max_connections=200", "start"]), check=True, capture_output=True)
        return self

    def kill(self) -> None:
        """An outage: SIGKILL to the postmaster (its backends then end by themselves); waits
        until the port refuses connections."""
        pid = int((self.dir / "data" / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    pass
            except OSError:
                break
            assert time.monotonic() < deadline, "PostgreSQL still listens after SIGKILL"
            time.sleep(0.05)
        # the backends notice their postmaster's death within moments; a restart before they
        # are gone finds the shared memory still in use and refuses to start
        while _backends_left(self.dir):
            assert time.monotonic() < deadline, "PostgreSQL's backends outlived it"
            time.sleep(0.05)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        self._n += 1
        name = f"cardplay_{os.getpid()}_{self._n}"
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        subprocess.run(_as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"),
                                     "-m", "immediate", "stop"]), capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """One redis-server with no persistence; each test takes its own key prefix."""

    def __init__(self) -> None:
        exe = shutil.which("redis-server")
        assert exe, "redis-server is not installed (apt-get install redis-server; .ci/run)"
        self.exe = exe
        self.dir = Path(tempfile.mkdtemp(prefix="cardplay-redis-"))
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self._n = 0

    def start(self) -> Redis:
        self.proc = subprocess.Popen(
            [self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis(port=self.port, socket_timeout=1).ping()
                return self
            except redis.ConnectionError:
                assert self.proc.poll() is None, "redis-server exited"
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def url(self) -> str:
        # one logical database for all; tests are kept apart by the prefix
        return f"redis://127.0.0.1:{self.port}/0"

    def new_prefix(self) -> str:
        self._n += 1
        return f"t{os.getpid()}x{self._n}"

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)
