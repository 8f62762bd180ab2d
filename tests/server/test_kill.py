"""`cardplay serve` as a real process: killed with SIGKILL mid-game and started again, it resumes
the table at the same move (every move is stored before it is acknowledged)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from .conftest import free_port


def start(data: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardplay.cli", "serve", "--port", str(port), "--data", str(data),
         "--workers", "1", "--bot-delay", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "LANG": "C"})
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def until_my_turn(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    while state["view"]["to_move"] != state["seat"] and not state["is_over"]:
        msg = json.loads(ws.recv(timeout=20))
        if msg["type"] == "state":
            state = msg
    return state


def test_sigkill_and_restart_resume_the_table(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start(tmp_path, port)
    try:
        out = proc.stdout.readline().decode() if proc.stdout else ""
        assert f"http://127.0.0.1:{port}" in out
        t = httpx.post(f"{url}/api/tables", json={
            "game": "sixty-six", "seed": 12,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}).json()
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["token"]}))
            assert json.loads(ws.recv(timeout=20))["type"] == "welcome"
            state = json.loads(ws.recv(timeout=20))
            for _ in range(4):
                state = until_my_turn(ws, state)
                ws.send(json.dumps({"type": "move", "move": state["view"]["legal_moves"][0],
                                    "version": state["version"]}))
                state = json.loads(ws.recv(timeout=20))
                assert state["type"] == "state"
            state = until_my_turn(ws, state)
    finally:
        workers = children(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert workers  # the bot worker process
    proc = start(tmp_path, port)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["token"]}))
            assert json.loads(ws.recv(timeout=20))["type"] == "welcome"
            again = json.loads(ws.recv(timeout=20))
            assert again["version"] == state["version"] >= 4
            assert again["view"] == state["view"]
            ws.send(json.dumps({"type": "move", "move": again["view"]["legal_moves"][0],
                                "version": again["version"]}))
            after = json.loads(ws.recv(timeout=20))
            assert after["type"] == "state" and after["version"] == again["version"] + 1
    finally:
        workers = children(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    # the orphaned bot workers notice and leave
    deadline = time.monotonic() + 10
    while any(alive(p) for p in workers):
        assert time.monotonic() < deadline, "bot workers outlived the killed server"
        time.sleep(0.1)
