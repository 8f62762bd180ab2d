"""Seeks and pairing over HTTP (DESIGN.md 6): every contract line and every error, on SQLite."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplay.server.clocks import UNSET, ClockError, parse_clock
from cardplay.server.limits import Limits
from cardplay.server.pairing import choose_group, seek_key, window
from cardplay.server.seekstore import Seek
from cardplay.server.tables import hash_token

from .conftest import hello, make_client, until

OWNER = "X-Seek-Owner"
BROWSER_COOKIE = "cardplay_browser"  # browserid.py; the daily deals know a guest by it too


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path, limits=Limits(seeks_per_client=8, seek_rate=60)) as c:
        yield c


def seek(client: TestClient, **body: Any) -> dict[str, Any]:
    """A seek by another person each time: from a browser of their own (the client forgets the
    browser id it was given; two seeks of one browser are never paired)."""
    r = client.post("/api/seeks", json={"game": "sixty-six", **body})
    assert r.status_code == 201, r.text
    client.cookies.delete(BROWSER_COOKIE)
    data: dict[str, Any] = r.json()
    return data


def poll(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    r = client.get(f"/api/seeks/{made['seek']}", headers={OWNER: made["owner"]})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == code and isinstance(body["message"], str) and body["message"]


def test_two_guests_are_paired_and_each_finds_their_own_seat(client: TestClient) -> None:
    a = seek(client, name="Ann")
    assert a["status"] == "waiting" and a["players"] == 2
    assert a["clock"] == {"move": 15, "reserve": 60}  # Sixty-Six's default
    waiting = poll(client, a)
    assert waiting == {"status": "waiting", "waited": waiting["waited"], "bots_after": 20.0}
    assert 0 <= waiting["waited"] < 5
    b = seek(client, name="Bob")
    assert b["status"] == "paired"
    pa, pb = poll(client, a), poll(client, b)
    assert pa["status"] == pb["status"] == "paired"
    assert pa["table"] == pb["table"]
    assert {pa["seat"], pb["seat"]} == {0, 1}
    assert isinstance(pa["token"], str) and pa["token"] != pb["token"]
    # the token is given once: a later poll says where, not the token again
    again = poll(client, a)
    assert again["table"] == pa["table"] and again["seat"] == pa["seat"]
    assert again["token"] is None
    summary = client.get(f"/api/tables/{pa['table']}").json()
    assert [s["kind"] for s in summary["seats"]] == ["human", "human"]
    assert summary["open_seats"] == []
    names = {s["seat"]: s["name"] for s in summary["seats"]}
    assert names[pa["seat"]] == "Ann" and names[pb["seat"]] == "Bob"
    table = client.app.state.hub.get(pa["table"])  # type: ignore[attr-defined]
    assert table.clock.spec() == {"move": 15, "reserve": 60}  # the seeks' clock
    with client.websocket_connect("/ws") as wa, client.websocket_connect("/ws") as wb:
        sa = hello(wa, pa["table"], pa["token"])
        sb = hello(wb, pb["table"], pb["token"])
        assert sa["seat"] == pa["seat"] and sb["seat"] == pb["seat"]
        # the cards are dealt once both have said hello (each adds to the shuffle)
        sa = until(wa, lambda st: st["view"] is not None)
        if sb["view"] is None:
            sb = until(wb, lambda st: st["view"] is not None)
        assert sa["view"]["hand"] != sb["view"]["hand"]


def test_the_owner_cookie_proves_ownership_and_nobody_else_sees_the_seat(
        client: TestClient) -> None:
    a = seek(client)
    # the cookie set by the 201 is scoped to this seek's URL: no header needed
    assert client.get(f"/api/seeks/{a['seek']}").json()["status"] == "waiting"
    b = seek(client)
    client.cookies.clear()
    refused(client.get(f"/api/seeks/{b['seek']}", headers={OWNER: a["owner"]}), 403, "not_owner")
    refused(client.get(f"/api/seeks/{a['seek']}"), 403, "not_owner")
    refused(client.get(f"/api/seeks/{a['seek']}", headers={OWNER: "x" * 30}), 403, "not_owner")
    assert poll(client, a)["status"] == "paired"  # the stranger's tries took nothing
    assert isinstance(poll(client, b)["token"], str)


def test_seeks_pair_only_when_their_choices_agree(client: TestClient) -> None:
    a = seek(client, options={"match_target": 7})
    b = seek(client, options={"match_target": 5})
    c = seek(client, clock={"move": 30, "reserve": 0})
    d = seek(client, clock=None)
    e = seek(client, game="two-ten-jack")
    for made in (a, b, c, d, e):
        assert poll(client, made)["status"] == "waiting"
    # the default clock named or left out, as whole seconds or not, is one clock
    named = seek(client, clock={"move": 15.0, "reserve": 60})
    assert poll(client, named)["table"] == poll(client, a)["table"]  # a: the default options
    f = seek(client, options={"match_target": 5})
    assert poll(client, b)["status"] == poll(client, f)["status"] == "paired"
    g = seek(client, clock=None)
    table = client.app.state.hub.get(poll(client, g)["table"])  # type: ignore[attr-defined]
    assert table.clock is None and poll(client, d)["table"] == table.id
    assert poll(client, c)["status"] == poll(client, e)["status"] == "waiting"


def test_a_three_player_seek_waits_for_two_others(client: TestClient) -> None:
    seeks = [seek(client, game="banchok") for _ in range(2)]
    assert seeks[0]["players"] == 3
    assert [poll(client, s)["status"] for s in seeks] == ["waiting", "waiting"]
    seeks.append(seek(client, game="banchok"))
    polls = [poll(client, s) for s in seeks]
    assert {p["status"] for p in polls} == {"paired"}
    assert len({p["table"] for p in polls}) == 1
    assert sorted(p["seat"] for p in polls) == [0, 1, 2]


def test_cancel(client: TestClient) -> None:
    a = seek(client)
    client.cookies.clear()
    refused(client.delete(f"/api/seeks/{a['seek']}", headers={OWNER: "wrong"}), 403, "not_owner")
    refused(client.delete("/api/seeks/nosuchseek"), 404, "no_seek")
    r = client.delete(f"/api/seeks/{a['seek']}", headers={OWNER: a["owner"]})
    assert r.status_code == 204 and r.content == b""
    assert poll(client, a) == {"status": "cancelled"}
    assert client.get("/api/seeks").json() == {"seeks": []}
    # a cancelled seek pairs with nobody
    b = seek(client)
    assert poll(client, b)["status"] == "waiting"
    c = seek(client)
    refused(client.delete(f"/api/seeks/{c['seek']}", headers={OWNER: c["owner"]}),
            409, "already_paired")
    assert poll(client, c)["status"] == "paired"


def test_a_cancel_from_another_origin_is_refused(client: TestClient) -> None:
    a = seek(client)
    r = client.delete(f"/api/seeks/{a['seek']}",
                      headers={OWNER: a["owner"], "Origin": "https://evil.example"})
    assert r.status_code == 403
    assert poll(client, a)["status"] == "waiting"


def test_a_seek_expires_when_its_owner_stops_polling(client: TestClient) -> None:
    a = seek(client)
    pairing = client.app.state.pairing  # type: ignore[attr-defined]
    pairing.tick(now=time.time() + Limits().seek_expiry + 1)
    assert poll(client, a) == {"status": "expired"}
    assert client.get("/api/seeks").json() == {"seeks": []}
    b = seek(client)
    assert poll(client, b)["status"] == "waiting"  # not paired with the expired one


def test_the_lobby_lists_open_seeks_and_accepting_one_pairs_at_once(client: TestClient) -> None:
    a = seek(client, name="Ann", options={"match_target": 5}, clock={"move": 20, "reserve": 30})
    listed = client.get("/api/seeks").json()["seeks"]
    assert len(listed) == 1
    entry = listed[0]
    assert entry["id"] == a["seek"] and entry["name"] == "Ann" and entry["rated"] is False
    assert entry["clock"] == {"move": 20, "reserve": 30}
    assert entry["options"]["match_target"] == 5 and entry["players"] == 2
    assert "owner" not in entry and "owner_hash" not in entry and "token" not in entry
    refused(client.post("/api/seeks", json={"accept": a["seek"], "clock": None}),
            400, "bad_request")
    refused(client.post("/api/seeks", json={"accept": a["seek"],
                                            "options": {"match_target": 7}}),
            400, "bad_request")
    b = client.post("/api/seeks", json={"accept": a["seek"], "name": "Bob"})
    assert b.status_code == 201, b.text
    assert b.json()["status"] == "paired" and b.json()["game"] == "sixty-six"
    pa, pb = poll(client, a), poll(client, b.json())
    assert pa["table"] == pb["table"]
    refused(client.post("/api/seeks", json={"accept": a["seek"]}), 409, "seek_gone")
    refused(client.post("/api/seeks", json={"accept": "nosuch"}), 409, "seek_gone")
    refused(client.post("/api/seeks", json={"accept": 5}), 400, "bad_request")


def test_a_rated_seek_needs_a_session(client: TestClient) -> None:
    refused(client.post("/api/seeks", json={"game": "sixty-six", "rated": True}),
            401, "not_signed_in")
    assert client.get("/api/seeks").json() == {"seeks": []}


@pytest.mark.parametrize(("body", "code", "words"), [
    ({"game": "no-such-game"}, "bad_request", "game"),
    ({"game": 7}, "bad_request", "game"),
    ({}, "bad_request", "game"),
    ({"game": "sixty-six", "options": {"match_target": -3}}, "bad_request", "match_target"),
    ({"game": "sixty-six", "options": {"nonsense": 1}}, "bad_request", "nonsense"),
    ({"game": "sixty-six", "options": [1]}, "bad_request", "options"),
    # longer than this server plays with people (bounds.py): refused now, not left waiting
    ({"game": "sixty-six", "options": {"match_target": 22}}, "bad_request",
     "option match_target=22 makes a longer match than this server plays with people"),
    ({"game": "sixty-six", "rated": "yes"}, "bad_request", "rated"),
    ({"game": "sixty-six", "clock": {"move": 15}}, "bad_clock", "clock"),
    ({"game": "sixty-six", "clock": {"move": 0, "reserve": 10}}, "bad_clock", "clock.move"),
    ({"game": "sixty-six", "clock": {"move": 15, "reserve": 99999}}, "bad_clock",
     "clock.reserve"),
    ({"game": "sixty-six", "clock": {"move": True, "reserve": 10}}, "bad_clock", "clock.move"),
    ({"game": "sixty-six", "clock": "fast"}, "bad_clock", "clock"),
    ({"game": "sixty-six", "rated": True, "clock": None}, "clock_required",
     "rated table needs a clock"),
    ({"game": "sixty-six", "name": "a\u0000b"}, "bad_request", "name"),
    ({"game": "sixty-six", "name": "x" * 41}, "bad_request", "name"),
    ({"game": "sixty-six", "seats": []}, "bad_request", "seats"),
])
def test_bad_seeks_are_refused_and_change_nothing(client: TestClient, body: dict[str, Any],
                                                  code: str, words: str) -> None:
    r = client.post("/api/seeks", json=body)
    refused(r, 400, code)
    assert words in r.json()["message"]
    assert client.get("/api/seeks").json() == {"seeks": []}


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    r = client.post("/api/seeks", content=b"game=sixty-six",
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    r = client.post("/api/seeks", content=b"[1, 2]", headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert client.get("/api/seeks").json() == {"seeks": []}


def test_seeks_per_client_and_rate_are_limited(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(seeks_per_client=2, seek_rate=3)) as c:
        seek(c, game="banchok")
        seek(c, game="banchok")
        r = c.post("/api/seeks", json={"game": "banchok"})
        refused(r, 429, "too_many_seeks")
        assert "2 open seeks" in r.json()["message"]
        assert len(c.get("/api/seeks").json()["seeks"]) == 2
        pairing = c.app.state.pairing  # type: ignore[attr-defined]
        pairing.tick(now=time.time() + 100)  # both expired: room for more, but not the rate
        seek(c, game="banchok")
        r = c.post("/api/seeks", json={"game": "banchok"})
        refused(r, 429, "rate_limited")
        assert int(r.headers["Retry-After"]) >= 1


def test_seeks_wait_while_the_server_holds_its_most_tables(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(max_tables=1, seeks_per_client=8)) as c:
        r = c.post("/api/tables", json={"game": "sixty-six", "seats": [
            {"kind": "human"}, {"kind": "human"}]})
        assert r.status_code == 201
        a, b = seek(c), seek(c)
        assert b["status"] == "waiting"  # no table could be made: nothing failed, both wait
        assert poll(c, a)["status"] == poll(c, b)["status"] == "waiting"
        pairing = c.app.state.pairing  # type: ignore[attr-defined]
        assert pairing.tick() == 0
        hub = c.app.state.hub  # type: ignore[attr-defined]
        hub.storage.set_status(r.json()["table"], "over")  # room again: the tick pairs them
        assert pairing.tick() == 1
        assert poll(c, a)["table"] == poll(c, b)["table"]


def test_unknown_seeks_are_404(client: TestClient) -> None:
    refused(client.get("/api/seeks/nosuch"), 404, "no_seek")
    refused(client.get("/api/seeks/" + "x" * 41), 404, "no_seek")


# ---- the pairing rule itself


def _seek(i: int, rating: float | None, created: float, account: str | None = None,
          accepts: str | None = None, players: int = 2) -> Seek:
    return Seek(id=f"s{i}", key="k", game="sixty-six", options={}, players=players, rated=True,
                clock=None, owner_hash="", account=account, name="", client="c",
                rating=rating, accepts=accepts, created=created, polled=created)


def test_rated_seeks_pair_within_a_window_that_widens() -> None:
    a, b = _seek(1, 1500, 0.0), _seek(2, 1800, 0.0)
    assert window(a, 0.0) == 100.0 and window(a, 4.0) == 200.0
    assert choose_group([a, b], 0.0) is None
    assert choose_group([a, b], 7.0) is None  # 275 points: not yet
    assert choose_group([a, b], 8.0) == [a, b]  # 300 points


def test_rated_seeks_pair_nearest_first_and_never_with_themselves() -> None:
    a, b, c = _seek(1, 1500, 0.0), _seek(2, 1590, 0.0), _seek(3, 1520, 0.0)
    assert choose_group([a, b, c], 0.0) == [a, c]
    same = _seek(4, 1500, 0.0, account="x")
    again = _seek(5, 1500, 0.0, account="x")
    assert choose_group([same, again], 100.0) is None
    assert choose_group([same, again, b], 0.0) == [same, b]
    # a new seek waits inside the window of an old one, not only its own
    old, new = _seek(6, 1500, 0.0), _seek(7, 1750, 9.0)
    assert choose_group([old, new], 9.0) is None  # old's window 325, new's only 100
    assert choose_group([old, new], 15.0) == [old, new]  # new's window 250 now


def test_in_a_pool_of_rated_seeks_the_nearest_fitting_one_is_chosen() -> None:
    pool = [_seek(i, 300.0 * i, 0.0) for i in range(200)]
    assert choose_group(pool, 0.0) is None
    new = _seek(999, 300.0 * 150 + 40, 0.0)
    assert choose_group([*pool, new], 0.0) == [pool[150], new]
    assert choose_group([*pool, _seek(998, 300.0 * 150 + 160, 0.0)], 0.0) is None


def test_an_acceptance_pairs_whatever_the_ratings() -> None:
    far, near = _seek(1, 2400, 0.0), _seek(2, 1510, 0.0)
    taker = _seek(3, 1500, 0.0, accepts="s1")
    assert choose_group([far, near, taker], 0.0) == [far, taker]


def test_a_key_is_the_same_for_the_same_choices_only() -> None:
    assert seek_key("g", {"a": 1, "b": 2}, False, None) == seek_key("g", {"b": 2, "a": 1},
                                                                      False, None)
    assert seek_key("g", {}, False, None) != seek_key("g", {}, True, None)
    assert seek_key("g", {}, False, None) != seek_key("g", {}, False, {"move": 1, "reserve": 0})


def test_a_seek_gets_the_clock_a_table_of_people_would(client: TestClient) -> None:
    # the clocks' own check and defaults: a seek and a table take the same clocks
    for game in ("sixty-six", "macao"):
        made = seek(client, game=game)
        assert made["clock"] == parse_clock(UNSET, game, rated=False, people=made["players"])
    assert seek(client, game="macao", clock=None)["clock"] is None
    with pytest.raises(ClockError):
        parse_clock({"move": 1, "reserve": 0}, "macao", rated=False, people=3)
    refused(client.post("/api/seeks", json={"game": "macao",
                                            "clock": {"move": 1, "reserve": 0}}),
            400, "bad_clock")


def stored_texts(path: Path) -> list[str]:
    """Every text value of every row of every table of the SQLite database."""
    db = sqlite3.connect(path)
    try:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [v for n in names for row in db.execute(f'SELECT * FROM "{n}"')
                for v in row if isinstance(v, str)]
    finally:
        db.close()


def test_the_database_never_holds_a_usable_seat_token(client: TestClient) -> None:
    a, b = seek(client, name="Ann"), seek(client, name="Bob")
    assert b["status"] == "paired"
    path = client.app.state.storage.path  # type: ignore[attr-defined]
    hub = client.app.state.hub  # type: ignore[attr-defined]

    def usable(texts: list[str], table: str) -> list[str]:
        hashes = {s.token_hash for s in hub.get(table).seats}
        return [v for v in texts if hash_token(v) in hashes]

    # paired, not yet delivered: nothing stored takes a seat (on main the seek kept the token)
    table_id = client.app.state.pairing.store.get(a["seek"]).table  # type: ignore[attr-defined]
    assert table_id is not None
    assert usable(stored_texts(path), table_id) == []
    pa, pb = poll(client, a), poll(client, b)
    assert pa["table"] == pb["table"] == table_id
    after = stored_texts(path)
    assert usable(after, table_id) == []
    assert not any(pa["token"] in v or pb["token"] in v for v in after)
    # the tokens given are the seats' own: each takes its seat, and only once is one given
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, table_id, pa["token"])["seat"] == pa["seat"]
    assert poll(client, a)["token"] is None


def test_one_browsers_two_tabs_are_never_paired_together(client: TestClient) -> None:
    """A guest seeking from two tabs of one browser (one cookie jar) waits for someone else."""
    first = client.post("/api/seeks", json={"game": "sixty-six", "name": "Tab one"})
    assert first.status_code == 201
    set_cookie = [h for h in first.headers.get_list("set-cookie")
                  if h.startswith(BROWSER_COOKIE + "=")]
    assert len(set_cookie) == 1 and "HttpOnly" in set_cookie[0] and "Path=/;" in set_cookie[0]
    browser_id = client.cookies[BROWSER_COOKIE]
    second = client.post("/api/seeks", json={"game": "sixty-six", "name": "Tab two"})
    assert second.status_code == 201
    assert first.json()["status"] == second.json()["status"] == "waiting"
    assert BROWSER_COOKIE + "=" not in second.headers.get("set-cookie", "")  # it had one
    client.app.state.pairing.tick()  # type: ignore[attr-defined]
    assert poll(client, first.json())["status"] == "waiting"
    assert poll(client, second.json())["status"] == "waiting"
    # accepting one's own seek from the lobby's list (the other tab's) is refused
    own = client.post("/api/seeks", json={"accept": first.json()["seek"]})
    refused(own, 409, "own_seek")
    # the database keeps only the id's hash
    path = client.app.state.storage.path  # type: ignore[attr-defined]
    assert not any(browser_id in v for v in stored_texts(path))
    # someone else, in a browser of their own, is paired with the first tab's seek
    client.cookies.delete(BROWSER_COOKIE)
    other = seek(client, name="Someone else")
    assert other["status"] == "paired"
    paired = poll(client, first.json())
    assert paired["status"] == "paired" and poll(client, other)["table"] == paired["table"]
    assert poll(client, second.json())["status"] == "waiting"


def test_an_older_sqlite_file_gets_the_browser_column(tmp_path: Path) -> None:
    from cardplay.server.seekstore import SCHEMA, SqliteSeeks

    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript(SCHEMA)  # the seeks' table as the version before browsers made it
    old.close()
    store = SqliteSeeks(path)
    try:
        made = Seek(id="s1", key="k", game="sixty-six", options={}, players=2, rated=False,
                    clock=None, owner_hash="h", account=None, name="", client="c", rating=None,
                    accepts=None, created=1.0, polled=1.0, browser="b" * 64)
        store.insert(made)
        got = store.get("s1")
        assert got is not None and got.browser == "b" * 64
    finally:
        store.close()


def test_the_site_secret_is_one_per_key_file_and_purpose(tmp_path: Path) -> None:
    """Seat tokens are derived under Signer.secret: the processes of a site (one key file)
    derive the same, another key or another purpose something else."""
    from cardplay.server.signing import Signer

    one, again = Signer.open(tmp_path / "k.pem"), Signer.open(tmp_path / "k.pem")
    other = Signer.open(tmp_path / "other.pem")
    assert one.secret("seat-tokens") == again.secret("seat-tokens")
    assert len(one.secret("seat-tokens")) == 32
    assert one.secret("seat-tokens") != one.secret("something else")
    assert one.secret("seat-tokens") != other.secret("seat-tokens")
