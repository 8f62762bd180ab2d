"""Rated seeks between signed-in people: the session owns the seek (on any device), the table
made is rated with each seat its account's, the match changes both ratings, and the next seek
carries the new rating; one's own seeks never pair together."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplay.server.limits import Limits

from .conftest import hello, make_client
from .test_accounts import latest, sign_in, sign_up


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with make_client(tmp_path, limits=Limits(seeks_per_client=8, seek_rate=60)) as c:
        yield c


def person(client: TestClient, name: str) -> TestClient:
    c = TestClient(client.app)
    assert sign_up(c, name).status_code == 201
    return c


def rated_seek(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/seeks", json={"game": "sixty-six", "rated": True, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def play_to_the_end(c: list[TestClient], seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each person plays their first legal move until the match ends; the final states."""
    table = seats[0]["table"]
    with c[0].websocket_connect("/ws") as w0, c[1].websocket_connect("/ws") as w1:
        socks = {seats[0]["seat"]: w0, seats[1]["seat"]: w1}
        states = {seats[0]["seat"]: hello(w0, table, seats[0]["token"]),
                  seats[1]["seat"]: hello(w1, table, seats[1]["token"])}
        for _ in range(3000):
            states = {i: latest(socks[i], states[i]) for i in (0, 1)}
            if states[0]["is_over"] and states[1]["is_over"]:
                return [states[0], states[1]]
            mover = states[0]["view"]["to_move"]
            s = states[mover] if mover is not None else states[0]
            if mover is not None and s["view"]["legal_moves"] and \
                    s["version"] == states[1 - mover]["version"]:
                socks[mover].send_json({"type": "move", "move": s["view"]["legal_moves"][0],
                                        "version": s["version"]})
            else:  # the server plays a deal's end notice first
                time.sleep(0.01)
    raise AssertionError("the match did not end")


def test_two_signed_in_people_are_paired_rated_and_both_ratings_change(
        client: TestClient) -> None:
    ana, bo = person(client, "Ana"), person(client, "Bo")
    a = rated_seek(ana)
    assert a["rated"] is True and a["clock"] == {"move": 15, "reserve": 60}
    listed = client.get("/api/seeks").json()["seeks"]
    assert [(s["name"], s["rating"], s["rated"]) for s in listed] == [("Ana", 1500, True)]
    # the session owns the seek on another device too, without the seek's owner token
    phone = TestClient(client.app)
    assert sign_in(phone, "Ana").status_code == 200
    assert phone.get(f"/api/seeks/{a['seek']}").json()["status"] == "waiting"
    stranger = TestClient(client.app)
    assert stranger.get(f"/api/seeks/{a['seek']}").status_code == 403
    b = rated_seek(bo)
    assert b["status"] == "paired"
    pa = phone.get(f"/api/seeks/{a['seek']}").json()
    pb = bo.get(f"/api/seeks/{b['seek']}").json()
    assert pa["status"] == pb["status"] == "paired" and pa["table"] == pb["table"]
    summary = client.get(f"/api/tables/{pa['table']}").json()
    names = {s["seat"]: s["name"] for s in summary["seats"]}
    assert names == {pa["seat"]: "Ana", pb["seat"]: "Bo"}
    assert not any(s.get("guest") for s in summary["seats"])
    table = client.app.state.hub.get(pa["table"])  # type: ignore[attr-defined]
    assert table.stored.rated is True
    by_seat = {pa["seat"]: ana, pb["seat"]: bo}
    ends = play_to_the_end([by_seat[0], by_seat[1]],
                           sorted([pa, pb], key=lambda p: p["seat"]))
    ratings = ends[0]["ratings"]
    assert ratings == ends[1]["ratings"]
    winner = ends[0]["winners"][0]
    assert ratings[winner]["after"]["rating"] > 1500 > ratings[1 - winner]["after"]["rating"]
    seat_of = {"Ana": pa["seat"], "Bo": pb["seat"]}
    for name in ("Ana", "Bo"):
        page = client.get(f"/api/players/{name}").json()
        assert page["ratings"]["sixty-six"] == ratings[seat_of[name]]["after"]
        assert page["games"][0]["table"] == pa["table"] and page["games"][0]["rated"] is True
    # the next seek is made at the new rating
    winner_name = "Ana" if pa["seat"] == winner else "Bo"
    again = rated_seek(ana if winner_name == "Ana" else bo)
    listed = client.get("/api/seeks").json()["seeks"]
    assert [(s["id"], s["rating"]) for s in listed] == \
        [(again["seek"], ratings[winner]["after"]["rating"])]


def test_ones_own_seeks_never_pair_and_an_account_has_at_most_two(client: TestClient) -> None:
    ana = person(client, "Ana")
    first = rated_seek(ana)
    second = rated_seek(ana)
    for made in (first, second):
        assert ana.get(f"/api/seeks/{made['seek']}").json()["status"] == "waiting"
    r = ana.post("/api/seeks", json={"game": "sixty-six", "rated": True})
    assert r.status_code == 429 and r.json()["error"] == "too_many_seeks"
    r = ana.post("/api/seeks", json={"accept": first["seek"]})
    assert r.status_code == 409 and r.json()["error"] == "own_seek"
    # a guest may not accept a rated seek; a signed-in person may, at once
    guest = TestClient(client.app)
    r = guest.post("/api/seeks", json={"accept": first["seek"]})
    assert r.status_code == 401 and r.json()["error"] == "not_signed_in"
    bo = person(client, "Bo")
    took = bo.post("/api/seeks", json={"accept": first["seek"]})
    assert took.status_code == 201 and took.json()["status"] == "paired"
    assert ana.get(f"/api/seeks/{first['seek']}").json()["status"] == "paired"
    assert ana.get(f"/api/seeks/{second['seek']}").json()["status"] == "waiting"


def test_a_profile_link_that_fails_does_not_undo_the_pairing(client: TestClient) -> None:
    pairing = client.app.state.pairing  # type: ignore[attr-defined]

    def broken(account: str, table: str, seat: int) -> None:
        raise RuntimeError("the account is gone")

    pairing.link_seat = broken
    ana, bo = person(client, "Ana"), person(client, "Bo")
    a, b = rated_seek(ana), rated_seek(bo)
    assert b["status"] == "paired"
    pa = ana.get(f"/api/seeks/{a['seek']}").json()
    assert pa["status"] == "paired" and isinstance(pa["token"], str)
    assert pairing.tick() == 0  # nothing left to pair again
    assert len(client.get("/api/tables").json()["playing"]) == 1
