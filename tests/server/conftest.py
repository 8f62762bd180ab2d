"""Fixtures for the server tests: an app over a temporary data directory, helpers to talk to it,
and the launch arguments that point pytest-playwright at Debian's Chromium."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplay.server.app import create_app
from cardplay.server.botpool import ThreadBotRunner
from cardplay.server.limits import Limits
from cardplay.server.passwords import PasswordConfig

# Argon2id at a test's cost, through the server's own configuration (TESTING.md); one test
# checks that the server's default is the production cost
CHEAP_PASSWORDS = PasswordConfig(time_cost=1, memory_cost=8, parallelism=1)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic", "--disable-default-apps",
                 "--disable-extensions"]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True,
            "args": CHROMIUM_ARGS}


def make_client(data: Path, grace: float = 30.0, limits: Limits | None = None,
                **kwargs: Any) -> TestClient:
    kwargs.setdefault("passwords", CHEAP_PASSWORDS)
    return TestClient(create_app(data, runner=ThreadBotRunner(), grace=grace, limits=limits,
                                 **kwargs))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def create(client: TestClient, game: str = "sixty-six", seats: list[dict[str, Any]] | None = None,
           **body: Any) -> dict[str, Any]:
    if seats is None:
        seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    r = client.post("/api/tables", json={"game": game, "seats": seats, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def recv(ws: Any, kind: str | None = None) -> dict[str, Any]:
    """The next message (of ``kind``, when given: anything else in between is a failure)."""
    msg: dict[str, Any] = ws.receive_json()
    if kind is not None:
        assert msg["type"] == kind, msg
    return msg


def hello(ws: Any, table: str, token: str) -> dict[str, Any]:
    """Take a seat; returns the full state that follows the welcome."""
    ws.send_json({"type": "hello", "table": table, "token": token})
    recv(ws, "welcome")
    state = recv(ws, "state")
    assert state["full"] is True
    return state


def until(ws: Any, pred: Any, limit: int = 500) -> dict[str, Any]:
    """Read states until ``pred(state)`` holds."""
    for _ in range(limit):
        msg = recv(ws)
        if msg["type"] == "state" and pred(msg):
            return msg
    raise AssertionError("the expected state never came")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """The app served by uvicorn in a daemon thread (for the browser)."""

    def __init__(self, data: Path, grace: float = 30.0, bot_delay: float = 0.0,
                 port: int | None = None, limits: Limits | None = None,
                 **app_kwargs: Any) -> None:
        import uvicorn

        from cardplay.server.serving import uvicorn_config

        self.data = data
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        limits = limits if limits is not None else Limits()
        self.app = create_app(data, runner=ThreadBotRunner(), grace=grace, bot_delay=bot_delay,
                              limits=limits, **{"passwords": CHEAP_PASSWORDS, **app_kwargs})
        # the same transport limits as `cardplay serve`
        self.server = uvicorn.Server(uvicorn_config(self.app, "127.0.0.1", self.port, limits))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path).start()
    yield server
    server.stop()


# ---- PostgreSQL and Redis (started only by the tests that ask for them)

@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    from .services import Postgres

    server = Postgres().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Any]:
    from .services import Redis

    server = Redis().start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(postgres: Any) -> str:
    """A fresh, empty database of the session's PostgreSQL."""
    url: str = postgres.new_database()
    return url
