"""A bot's answer time with coaching idle and with coaching at full load (issue 30, defect 4).

    python benchmarks/coaching_load.py [--answers 40] [--workers N]

starts ``cardplay serve`` on 127.0.0.1 (a fresh temporary data folder; its default bot workers,
``--max-coaching 2``), and times a heuristic bot's answers at a Sixty-Six table (from the
person's move to the state in which the bot has answered): first with nothing else running,
then while two people alone with bots ask for hints of Maltese Twenty without pause (each asks
again as soon as its hint comes: ``--max-coaching`` computations always running). Prints
p50/p99/max of each, and the hints answered. Figures only: nothing passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
# a sibling script, found through sys.path
from server_load import HOST, free_port, percentile, post, start_server


def recv(ws: Any, timeout: float = 120) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return msg


def seat(port: int, ws: Any, game: str, seed: int) -> dict[str, Any]:
    t = post(port, "/api/tables", {"game": game, "seed": seed, "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "heuristic"}]})
    ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["token"]}))
    assert recv(ws)["type"] == "welcome"
    return recv(ws)


def bot_answers(port: int, count: int, seed: int) -> list[float]:
    """Seconds from the person's move to the bot's answer, ``count`` times (new matches as
    needed)."""
    from websockets.sync.client import connect

    took: list[float] = []
    while len(took) < count:
        with connect(f"ws://{HOST}:{port}/ws") as ws:
            state = seat(port, ws, "sixty-six", seed + len(took))
            while len(took) < count and not state["is_over"]:
                if state["view"]["to_move"] != state["seat"]:
                    msg = recv(ws)
                    if msg["type"] == "state":
                        state = msg
                    continue
                ws.send(json.dumps({"type": "move", "move": state["view"]["legal_moves"][0],
                                    "version": state["version"], "id": state["version"]}))
                sent = time.monotonic()
                while True:
                    msg = recv(ws)
                    if msg["type"] == "state":
                        state = msg
                        if state["view"]["to_move"] == state["seat"] or state["is_over"]:
                            break
                if state["last"] is not None and state["last"]["seat"] != state["seat"]:
                    took.append(time.monotonic() - sent)
    return took


def hints_forever(port: int, seed: int, stop: threading.Event, done: list[int]) -> None:
    """A person alone with a bot asking for a hint again as soon as one comes."""
    from websockets.sync.client import connect

    with connect(f"ws://{HOST}:{port}/ws") as ws:
        state = seat(port, ws, "maltese-twenty", seed)
        while state["view"]["to_move"] != state["seat"]:
            msg = recv(ws)
            if msg["type"] == "state":
                state = msg
        while not stop.is_set():
            ws.send(json.dumps({"type": "hint", "id": "h"}))
            while True:
                msg = recv(ws)
                if msg.get("reply_to") == "h":
                    break
            if msg["type"] == "hint":
                done.append(1)
            else:
                time.sleep(0.05)  # busy: the other person's hint holds the last place


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--answers", type=int, default=40, help="bot answers timed per phase")
    ap.add_argument("--workers", type=int, default=0, help="bot workers (0: the default)")
    args = ap.parse_args(argv)
    if not 1 <= args.answers <= 500:
        raise SystemExit("--answers is 1 to 500")
    tmp = tempfile.mkdtemp(prefix="cardplay-coaching-")
    port = free_port()
    extra = ["--max-coaching", "2"] + (["--workers", str(args.workers)] if args.workers else [])
    server = start_server(port, os.path.join(tmp, "data"), extra)
    try:
        bot_answers(port, 3, 900)  # warm the workers
        idle = bot_answers(port, args.answers, 1000)
        stop = threading.Event()
        done: list[int] = []
        threads = [threading.Thread(target=hints_forever, args=(port, s, stop, done))
                   for s in (21, 22)]
        for th in threads:
            th.start()
        # the coaching workers start (when first needed) and answer their first hints
        deadline = time.monotonic() + 120
        while len(done) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        before = len(done)
        loaded = bot_answers(port, args.answers, 2000)
        hints = len(done) - before
        stop.set()
        for th in threads:
            th.join(timeout=120)
    finally:
        server.kill()
        server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"a heuristic bot's answer at Sixty-Six, {args.answers} answers per phase, seconds:")
    for name, lat in (("coaching idle", idle), ("coaching full", loaded)):
        print(f"{name:14} p50 {percentile(lat, 50):.3f}  p99 {percentile(lat, 99):.3f}  "
              f"max {max(lat):.3f}")
    print(f"hints of Maltese Twenty answered meanwhile: {hints}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
