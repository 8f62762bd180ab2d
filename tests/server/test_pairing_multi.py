"""Pairing with two `cardplay serve` processes on one PostgreSQL database and one Redis broker:
a person on each process is paired and both play at the new table; many seeks at once through
both processes are each paired exactly once; a seek made on one process is cancelled on the
other; two signed-in people, one on each process, are paired at a rated table."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from typing import Any

import httpx
import psycopg
from websockets.sync.client import connect

from .test_multi import Serve, bot_delay, grace, hello, my_turn, site, until

__all__ = ["bot_delay", "grace", "site"]  # fixtures of test_multi, used here

OWNER = "X-Seek-Owner"


def seek(proc: Serve, **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{proc.url}/api/seeks", json={"game": "sixty-six", **body}, timeout=10)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def poll(proc: Serve, made: dict[str, Any]) -> dict[str, Any]:
    r = httpx.get(f"{proc.url}/api/seeks/{made['seek']}", headers={OWNER: made["owner"]},
                  timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def poll_until_paired(proc: Serve, made: dict[str, Any], tries: int = 100) -> dict[str, Any]:
    for _ in range(tries):
        answer = poll(proc, made)
        if answer["status"] == "paired":
            return answer
        assert answer["status"] == "waiting", answer
        time.sleep(0.1)
    raise AssertionError("the seek was never paired")


def test_a_person_on_each_process_is_paired_and_both_play(
        site: tuple[Serve, Serve, Any]) -> None:
    a, b, env = site
    ann = seek(a, name="Ann")
    assert ann["status"] == "waiting"
    assert poll(b, ann)["status"] == "waiting"  # the other process reads the same seek
    bob = seek(b, name="Bob")
    assert bob["status"] == "paired"  # with Ann, at once
    with psycopg.connect(env["pg"]) as db:  # before the owners' polls no row holds a token
        rows = db.execute("SELECT status, seat_token FROM seeks ORDER BY created").fetchall()
        assert rows == [("paired", "due")] * 2
    pa, pb = poll_until_paired(a, ann), poll_until_paired(b, bob)
    assert pa["table"] == pb["table"] and {pa["seat"], pb["seat"]} == {0, 1}
    assert isinstance(pa["token"], str) and isinstance(pb["token"], str)
    with psycopg.connect(env["pg"]) as db:
        rows = db.execute("SELECT status, table_id, seat_token FROM seeks ORDER BY created")
        assert [(s, t, tok) for s, t, tok in rows] == [("paired", pa["table"], None)] * 2
        seats = db.execute("SELECT seats FROM tables WHERE id = %s", (pa["table"],)).fetchone()
        assert pa["token"] not in str(seats) and pb["token"] not in str(seats)
    with connect(a.ws_url) as wa, connect(b.ws_url) as wb:
        state = {"a": hello(wa, pa["table"], pa["token"]),
                 "b": hello(wb, pb["table"], pb["token"])}
        assert state["a"]["seat"] == pa["seat"] and state["b"]["seat"] == pb["seat"]
        # the cards are dealt once both have said hello (each adds to the shuffle)
        for name, ws in (("a", wa), ("b", wb)):
            if state[name]["view"] is None:
                state[name] = until(ws, lambda s: s["view"] is not None)
        # two moves, each by the person to move, each seen on the other process
        for _ in range(2):
            mover = "a" if state["a"]["view"]["to_move"] == state["a"]["seat"] else "b"
            other = "b" if mover == "a" else "a"
            ws, ows = (wa, wb) if mover == "a" else (wb, wa)
            st = my_turn(ws, state[mover])
            version = st["version"]
            ws.send(f'{{"type": "move", "move": "{st["view"]["legal_moves"][0]}", '
                    f'"version": {version}}}')
            state[mover] = until(ws, lambda s, v=version: s["version"] == v + 1)
            state[other] = until(ows, lambda s, v=version: s["version"] == v + 1)


def test_many_seeks_at_once_through_both_processes_pair_each_exactly_once(
        site: tuple[Serve, Serve, Any]) -> None:
    a, b, env = site
    made: list[dict[str, Any]] = []
    lock = threading.Lock()

    def one(proc: Serve) -> None:
        m = seek(proc)
        with lock:
            made.append({**m, "proc": proc})

    threads = [threading.Thread(target=one, args=(a if i % 2 else b,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert len(made) == 12
    answers = [poll_until_paired(m["proc"], m) for m in made]
    per_table = Counter(x["table"] for x in answers)
    assert len(per_table) == 6 and set(per_table.values()) == {2}
    for table in per_table:
        seats = sorted(x["seat"] for x in answers if x["table"] == table)
        assert seats == [0, 1]
    with psycopg.connect(env["pg"]) as db:
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone() == (6,)


def test_a_seek_made_on_one_process_is_cancelled_on_the_other(
        site: tuple[Serve, Serve, Any]) -> None:
    a, b, _ = site
    ann = seek(a)
    stranger = httpx.delete(f"{b.url}/api/seeks/{ann['seek']}", headers={OWNER: "no"})
    assert stranger.status_code == 403 and stranger.json()["error"] == "not_owner"
    r = httpx.delete(f"{b.url}/api/seeks/{ann['seek']}", headers={OWNER: ann["owner"]})
    assert r.status_code == 204
    assert poll(a, ann) == {"status": "cancelled"}
    bob = seek(a)
    assert poll(b, bob)["status"] == "waiting"


def test_signed_in_people_on_two_processes_are_paired_rated(
        site: tuple[Serve, Serve, Any]) -> None:
    a, b, env = site
    ana, bo = httpx.Client(base_url=a.url, timeout=10), httpx.Client(base_url=b.url, timeout=10)
    try:
        for c, name in ((ana, "Ana"), (bo, "Bo")):
            r = c.post("/api/accounts", json={"name": name, "password": "correct horse"})
            assert r.status_code == 201, r.text
        sa = ana.post("/api/seeks", json={"game": "sixty-six", "rated": True})
        assert sa.status_code == 201 and sa.json()["status"] == "waiting"
        sb = bo.post("/api/seeks", json={"game": "sixty-six", "rated": True})
        assert sb.status_code == 201, sb.text
        # the session proves ownership, on either process
        answers = []
        for c, made in ((ana, sa.json()), (bo, sb.json())):
            for _ in range(100):
                got = c.get(f"/api/seeks/{made['seek']}").json()
                if got["status"] == "paired":
                    break
                time.sleep(0.1)
            answers.append(got)
        assert answers[0]["table"] == answers[1]["table"]
        assert all(isinstance(x["token"], str) for x in answers)
        with psycopg.connect(env["pg"]) as db:
            rated, seats = db.execute("SELECT rated, seats FROM tables WHERE id = %s",
                                      (answers[0]["table"],)).fetchone()
            accounts = dict(db.execute("SELECT name, id FROM accounts").fetchall())
        assert rated is True
        stored = json.loads(seats) if isinstance(seats, str) else seats
        by_seat = {x["seat"]: n for x, n in zip(answers, ("Ana", "Bo"))}
        assert [(s["name"], s.get("account")) for s in stored] == \
            [(by_seat[i], accounts[by_seat[i]]) for i in (0, 1)]
    finally:
        ana.close()
        bo.close()
