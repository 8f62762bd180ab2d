"""``GET /api/health``: each dependency's state for load balancers. One process alone (SQLite,
no broker), and a process on a PostgreSQL of the test's own, stopped and started again (the
Redis side is tested with real outages in test_redis_outage.py)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from fastapi.testclient import TestClient

from cardplay.server.app import create_app
from cardplay.server.botpool import ThreadBotRunner

from .services import Postgres, _as_postgres


def test_one_process_alone_is_healthy(client: TestClient) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "database": "ok", "broker": "none"}
    assert r.headers["cache-control"] == "no-store"
    head = client.head("/api/health")
    assert head.status_code == 200 and head.content == b""


def test_health_says_when_postgresql_is_down(tmp_path: Path) -> None:
    pg = Postgres().start()
    data = str(pg.dir / "data")
    start = _as_postgres([
        str(pg.bin / "pg_ctl"), "-D", data, "-l", str(pg.dir / "log"), "-w", "-o",
        f"-p {pg.port} -k {pg.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start"])
    try:
        app = create_app(tmp_path, runner=ThreadBotRunner(), database=pg.new_database())
        with TestClient(app) as c:
            r = c.get("/api/health")
            assert (r.status_code, r.json()) == (
                200, {"status": "ok", "database": "ok", "broker": "none"})
            subprocess.run(_as_postgres([str(pg.bin / "pg_ctl"), "-D", data, "-m",
                                         "immediate", "stop"]), check=True, capture_output=True)
            time.sleep(1.1)  # an answer is kept for a second at most
            asked = time.monotonic()
            r = c.get("/api/health")
            assert time.monotonic() - asked < 1.0
            assert (r.status_code, r.json()) == (
                503, {"status": "down", "database": "down", "broker": "none"})
            subprocess.run(start, check=True, capture_output=True)
            time.sleep(1.1)
            r = c.get("/api/health")
            assert (r.status_code, r.json()) == (
                200, {"status": "ok", "database": "ok", "broker": "none"})
    finally:
        pg.stop()
