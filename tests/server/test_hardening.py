"""The server against strangers (issue 15): one test per defect found by trying it as an
attacker would, then the fairness commitment, the limits and the origin checks. Every test
asserts exact outcomes; counts, not timings, tell a spinning table from a sleeping one."""

from __future__ import annotations

import base64
import json
import os
import socket
import sqlite3
import struct
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import cardplay
from cardplay import cli
from cardplay.engine import OptionError
from cardplay.fairness import commit_v2, public_keys, verify
from cardplay.server.limits import Limits, RateLimiter

from .conftest import LiveServer, create, hello, make_client, recv, until

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
JSON = {"Content-Type": "application/json"}


def post_raw(client: TestClient, url: str, text: str | bytes,
             headers: dict[str, str] | None = None) -> Any:
    return client.post(url, content=text if isinstance(text, bytes) else text.encode(),
                       headers=JSON if headers is None else headers)


def states_until_pong(ws: Any) -> int:
    """Send a ping; count the states that arrive before its pong."""
    ws.send_json({"type": "ping", "id": "count"})
    states = 0
    while True:
        msg = recv(ws)
        if msg["type"] == "pong":
            assert msg["reply_to"] == "count"
            return states
        assert msg["type"] == "state", msg
        states += 1


def play_to_the_end(client: TestClient, t: dict[str, Any]) -> dict[str, Any]:
    """Play seat 0 (a person, against a bot) with its first legal move until the match ends;
    returns the final state."""
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, t["table"], t["token"])
        for _ in range(2000):
            if state["is_over"]:
                return state
            if state["view"]["to_move"] == 0:
                ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                              "version": state["version"]})
            state = recv(ws, "state")
    raise AssertionError("the match did not end")


# ---- 1. the creator picks the shuffle


def test_defect1_creator_cannot_pick_the_seed_of_a_table_with_other_people(
        client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "sixty-six", "seats": TWO_PEOPLE,
                                         "seed": 424242})
    assert r.status_code == 400
    assert "seed may be chosen only" in r.json()["message"]
    assert client.get("/api/tables").json()["open"] == []  # nothing was created
    # without a seed the server draws one and shows the joiner a commitment to it
    t = create(client, seats=TWO_PEOPLE)
    joined = client.post(f"/api/tables/{t['table']}/join", json={}).json()
    assert t["seed_source"] == "server" and len(t["commitment"]) == 64
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": t["table"], "token": joined["token"]})
        welcome = recv(ws, "welcome")
        assert welcome["commitment"] == t["commitment"] and welcome["seed_source"] == "server"
        # no card before the creator's part of the shuffle (drawn at its first hello) is in
        assert recv(ws, "state")["view"] is None
        with client.websocket_connect("/ws") as ws0:
            hello(ws0, t["table"], t["token"])
        state = until(ws, lambda s: s["view"] is not None)
    stored = client.app.state.storage.load(t["table"])  # type: ignore[attr-defined]
    assert stored.seed not in (424242, stored.server_seed)
    assert commit_v2("sixty-six", stored.options, None, ["human", "human"], "server",
                     stored.server_seed, stored.salt) == t["commitment"]
    assert state["view"]["hand"] == cardplay.load("sixty-six").match(stored.seed).view(1).to_dict()[
        "hand"]
    # a creator alone with bots may still fix the seed (practice, replays)
    practice = create(client, seed=424242)
    assert practice["seed_source"] == "creator"


def test_fairness_commitment_is_revealed_by_the_record_and_verified(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    t = create(client, options={"match_target": 1})
    assert client.get(f"/api/tables/{t['table']}").json()["commitment"] == t["commitment"]
    play_to_the_end(client, t)
    record = client.get(f"/api/tables/{t['table']}/record").json()
    fair = record["fairness"]
    assert fair["commitment"] == t["commitment"] and fair["seed_source"] == "server"
    assert commit_v2(record["game"], record["options"], None, ["human", "bot"], "server",
                     fair["server_seed"], fair["salt"]) == t["commitment"]
    keys = public_keys(client.get("/api/keys").text)
    verdict = verify(record, keys)
    assert verdict.ok and verdict.finished and verdict.code == "ok" and verdict.signature == "ok"
    assert cardplay.replay(record).is_over  # the engine takes the new header in its stride
    # tampering: another seed, another salt, another commitment, a changed move
    bad_seed = {**record, "seed": record["seed"] ^ 1}
    assert verify(bad_seed).code == "seed"
    assert verify({**record, "fairness": {**fair, "salt": "00" + fair["salt"][2:]}}).code == \
        "commitment"
    assert verify({**record, "fairness": {**fair, "commitment": "0" * 64}}).code == \
        "commitment"
    moves = list(record["moves"])
    moves[0] = "XX"
    assert verify({**record, "moves": moves}).code == "no_replay"
    assert verify({k: v for k, v in record.items() if k != "fairness"}).code == \
        "no_commitment"
    # the command: 0 when verified, 1 (with the reason) when not
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    bad.write_text(json.dumps(bad_seed))
    monkeypatch.delenv("LANG", raising=False)
    assert cli.main(["verify", str(good)]) == 0
    assert "verified" in capsys.readouterr().out
    assert cli.main(["verify", str(bad)]) == 1
    assert "NOT verified" in capsys.readouterr().out
    assert cli.main(["verify", str(tmp_path / "none.json")]) == 2


# ---- 2. one name breaks the lobby


def test_defect2_a_lone_surrogate_name_is_refused_and_the_lobby_stays_up(
        client: TestClient) -> None:
    body = '{"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}], ' \
           '"name": "\\ud800"}'
    r = post_raw(client, "/api/tables", body)
    assert r.status_code == 400 and "surrogate" in r.json()["message"]
    t = create(client, seats=TWO_PEOPLE, name="Ann")
    r = post_raw(client, f"/api/tables/{t['table']}/join", '{"name": "x\\udfffy"}')
    assert r.status_code == 400
    # cross-origin text/plain (what a page of another site can send without asking)
    r = post_raw(client, f"/api/tables/{t['table']}/join", '{"name": "\\ud800"}',
                 {"Content-Type": "text/plain", "Origin": "http://evil.example"})
    assert r.status_code in (403, 415)
    lobby = client.get("/api/tables")
    assert lobby.status_code == 200
    assert [s["name"] for s in lobby.json()["open"][0]["seats"]] == ["Ann", ""]
    assert client.post(f"/api/tables/{t['table']}/join", json={"name": "Bob"}).status_code == 200


def test_defect2_a_database_holding_such_a_name_still_serves_the_lobby(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        t = create(client, seats=TWO_PEOPLE)
    db = sqlite3.connect(tmp_path / "cardplay.db")
    seats = json.loads(db.execute("SELECT seats FROM tables").fetchone()[0])
    seats[0]["name"] = "\ud800"  # as an older server stored it
    db.execute("UPDATE tables SET seats = ?", (json.dumps(seats),))
    db.commit()
    db.close()
    with make_client(tmp_path) as client:
        lobby = client.get("/api/tables")
        assert lobby.status_code == 200 and lobby.json()["open"][0]["seats"][0]["name"] == "\ufffd"
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, t["table"], t["token"])
            assert state["seats"][0]["name"] == "\ufffd"


@pytest.mark.parametrize("name, fragment", [
    ("a\x00b", "U+0000"), ("\u202eevil", "U+202E"), ("x" * 41, "at most 40"), (7, "text"),
])
def test_names_are_checked(client: TestClient, name: Any, fragment: str) -> None:
    r = client.post("/api/tables", json={"game": "sixty-six", "seats": TWO_PEOPLE, "name": name})
    assert r.status_code == 400 and fragment in r.json()["message"]


# ---- 3. abandoned tables spin


def test_defect3_a_table_whose_mover_left_sleeps_instead_of_spinning(tmp_path: Path) -> None:
    with make_client(tmp_path, grace=0.2) as client:
        t = create(client, seats=TWO_PEOPLE)
        other = client.post(f"/api/tables/{t['table']}/join", json={}).json()
        hub = client.app.state.hub  # type: ignore[attr-defined]
        mover = t["token"] if hub.get(t["table"]).match.to_move == 0 else other["token"]
        with client.websocket_connect("/ws") as ws:
            hello(ws, t["table"], mover)
        with client.websocket_connect("/ws") as spy:
            spy.send_json({"type": "watch", "table": t["table"]})
            recv(spy, "welcome")
            recv(spy, "state")
            time.sleep(1.5)  # the grace period (0.2 s) is long over
            # the buggy timer fired every 10 ms and sent the spectator a state each time
            assert states_until_pong(spy) <= 2
            time.sleep(0.5)
            assert states_until_pong(spy) == 0
        table = hub.get(t["table"])
        assert table.grace_timer is None and table.version == 0


def test_abandoned_tables_are_evicted_and_their_records_kept(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(evict_after=60)) as client:
        t = create(client, seats=TWO_PEOPLE)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        with client.websocket_connect("/ws") as ws:
            hello(ws, t["table"], t["token"])
        assert hub.evict_idle(time.monotonic() + 30) == 0  # not yet
        assert hub.evict_idle(time.monotonic() + 61) == 1
        assert t["table"] not in hub.tables
        assert hub.storage.load(t["table"]).status == "idle"
        assert client.get("/api/tables").json()["open"] == []  # out of the lobby
        # the record is kept: the creator comes back and the table resumes
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, t["table"], t["token"])
            assert state["version"] == 0
        assert [x["id"] for x in client.get("/api/tables").json()["open"]] == [t["table"]]


# ---- 4. huge numeric options


@pytest.mark.parametrize("game, options", [
    ("banchok", {"start_chips": 10 ** 6, "bank_stake": 10 ** 6}),
    ("banchok", {"bank_stake": 10 ** 6}),
    ("macao", {"start_chips": 10 ** 6, "bank_stake": 10 ** 6, "max_stake": 10 ** 6}),
    ("macao", {"max_stake": 10 ** 6}),
    ("sixty-six", {"match_target": 10 ** 6}),
    ("two-ten-jack", {"target": 10 ** 6}),
    ("twenty", {"max_hands": 10 ** 6}),
    ("chukhny", {"games": 10 ** 6}),
])
def test_defect4_huge_numeric_options_are_refused(client: TestClient, game: str,
                                                  options: dict[str, int]) -> None:
    with pytest.raises(OptionError, match="a whole number from 1 to"):
        cardplay.load(game, **options)
    players = cardplay.load(game).players
    r = client.post("/api/tables", json={"game": game, "options": options,
                                         "seats": [{"kind": "human"}] * players})
    assert r.status_code == 400 and "a whole number from 1 to" in r.json()["message"]


def test_every_numeric_option_declares_its_bounds(client: TestClient) -> None:
    for g in client.get("/api/games").json():
        for o in g["options"]:
            if o["choices"] is None and isinstance(o["default"], int):
                assert o["min"] <= o["default"] <= o["max"], (g["name"], o)


# ---- 5. no limits anywhere


def test_defect5_creating_tables_is_rate_limited(client: TestClient) -> None:
    codes = [client.post("/api/tables", json={"game": "sixty-six", "seats": TWO_PEOPLE})
             for _ in range(11)]
    assert [r.status_code for r in codes] == [201] * 10 + [429]
    assert "at most 10 a minute" in codes[-1].json()["message"]
    assert int(codes[-1].headers["Retry-After"]) >= 1


def test_defect5_joining_is_rate_limited(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(join_rate=2)) as client:
        t = create(client, "twenty", [{"kind": "human"}] * 4, options={"players": 4})
        codes = [client.post(f"/api/tables/{t['table']}/join").status_code for _ in range(3)]
        assert codes == [200, 200, 429]


def test_defect5_open_tables_are_capped(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(tables_per_client=3, max_tables=5)) as client:
        codes = [client.post("/api/tables", json={"game": "sixty-six", "seats": TWO_PEOPLE})
                 for _ in range(4)]
        assert [r.status_code for r in codes] == [201, 201, 201, 429]
        assert "3 open tables" in codes[-1].json()["message"]
    with make_client(tmp_path, limits=Limits(tables_per_client=30, max_tables=5)) as client:
        codes = [client.post("/api/tables", json={"game": "sixty-six", "seats": TWO_PEOPLE})
                 for _ in range(3)]
        assert [r.status_code for r in codes] == [201, 201, 429]
        assert "limit of 5 open tables" in codes[-1].json()["message"]


def test_defect5_bot_only_tables_are_capped_and_stop(tmp_path: Path) -> None:
    bots = [{"kind": "bot", "level": "random"}] * 2
    # the cap, with a move limit no table of random bots reaches before the second request
    with make_client(tmp_path / "cap", limits=Limits(bot_tables_per_client=1)) as client:
        t = create(client, seats=bots, options={"match_target": 100})
        assert t["seat"] is None and t["token"] is None
        r = client.post("/api/tables", json={"game": "sixty-six", "seats": bots})
        assert r.status_code == 429 and "bots only" in r.json()["message"]
    # the move limit: random bots reach 12 moves at once, and the table stops there
    with make_client(tmp_path / "stop", limits=Limits(bot_tables_per_client=1,
                                                      bot_table_moves=12)) as client:
        t = create(client, seats=bots, options={"match_target": 100})
        with client.websocket_connect("/ws") as spy:
            spy.send_json({"type": "watch", "table": t["table"]})
            recv(spy, "welcome")
            stopped = until(spy, lambda s: bool(s.get("stopped")))
            assert stopped["version"] == 12 and not stopped["is_over"]
            assert states_until_pong(spy) == 0
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.storage.load(t["table"]).status == "stopped"
        assert hub.storage.move_count(t["table"]) == 12
        # a stopped table no longer counts: another may start
        assert client.post("/api/tables", json={"game": "sixty-six",
                                                "seats": bots}).status_code == 201


def test_defect5_half_open_connections_are_closed(tmp_path: Path) -> None:
    server = LiveServer(tmp_path, limits=Limits(header_timeout=1)).start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and nothing more
            assert s.recv(4096) == b""  # the server closed it (a timeout here is a failure)
    finally:
        server.stop()


def test_lobby_is_paginated(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(create_rate=100)) as client:
        made = [create(client, seats=TWO_PEOPLE)["table"] for _ in range(7)]
        seen: list[str] = []
        cursor = None
        for expect in (3, 3, 1):
            url = "/api/tables?list=open&limit=3" + (f"&cursor={cursor}" if cursor else "")
            page = client.get(url).json()
            assert len(page["tables"]) == expect
            seen += [x["id"] for x in page["tables"]]
            cursor = page["next"]
        assert cursor is None and seen == made[::-1]
        first = client.get("/api/tables?limit=2").json()
        assert [x["id"] for x in first["open"]] == made[:-3:-1] and first["next_open"]
        for bad in ("limit=0", "limit=101", "limit=x", "cursor=%%%", "list=over"):
            assert client.get(f"/api/tables?{bad}").status_code == 400, bad


# ---- 6. any web page can act for a local user


def test_defect6_pages_of_other_origins_cannot_act(tmp_path: Path) -> None:
    evil = {"Origin": "http://evil.example"}
    body = json.dumps({"game": "sixty-six", "seats": TWO_PEOPLE})
    with make_client(tmp_path, allowed_origins=["https://cards.example.org"]) as client:
        assert post_raw(client, "/api/tables", body, {**JSON, **evil}).status_code == 403
        assert post_raw(client, "/api/tables", body,
                        {"Content-Type": "text/plain"}).status_code == 415
        assert post_raw(client, "/api/tables", body,
                        {"Content-Type": "application/x-www-form-urlencoded"}).status_code == 415
        assert client.get("/api/tables").json()["open"] == []
        # the server's own pages, a listed origin, and clients that send no Origin
        own = post_raw(client, "/api/tables", body, {**JSON, "Origin": "http://testserver"})
        listed = post_raw(client, "/api/tables", body,
                          {**JSON, "Origin": "https://cards.example.org"})
        plain = post_raw(client, "/api/tables", body)
        assert [own.status_code, listed.status_code, plain.status_code] == [201, 201, 201]
        t = plain.json()
        assert post_raw(client, f"/api/tables/{t['table']}/join", "{}",
                        {**JSON, **evil}).status_code == 403
        with pytest.raises(WebSocketDisconnect), \
                client.websocket_connect("/ws", headers=evil) as ws:
            ws.receive_json()
        with client.websocket_connect("/ws", headers={"Origin": "http://testserver"}) as ws:
            hello(ws, t["table"], t["token"])


# ---- 7. 500s


HEAD = '{"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "bot"}]'


@pytest.mark.parametrize("body, fragment", [
    ("[" * 3000 + "]" * 3000, "deeper"),
    (HEAD + ', "seed": 9223372036854775808}', "seed"),
    (HEAD + ', "seed": 1' + "0" * 100 + "}", "too long"),
    (HEAD + ', "seed": ' + "4" * 4400 + "}", "too long"),
    ('{"game": "sixty-six", "options": {"match_target": ' + "9" * 4400 + "}}", "too long"),
    ('{"game": "sixty-six", "seed": -1, "seats": [{"kind": "human"}, {"kind": "bot"}]}', "seed"),
    ('{"game": "sixty-six", "seed": NaN}', "NaN"),
    (b'{"game": "\xff"}', "UTF-8"),
])
def test_defect7_bad_bodies_are_400_not_500(client: TestClient, body: str | bytes,
                                            fragment: str) -> None:
    r = post_raw(client, "/api/tables", body)
    assert r.status_code == 400 and fragment in r.json()["message"], r.text


def test_bodies_are_bounded(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(max_body=1000)) as client:
        r = post_raw(client, "/api/tables", json.dumps({"game": "sixty-six", "x": "y" * 2000}))
        assert r.status_code == 413 and "1000 bytes" in r.json()["message"]


# ---- 8. huge frames are read whole


def _raw_websocket(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
              f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
              f"Sec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        assert chunk, "the server closed the handshake"
        head += chunk
    assert head.split(b"\r\n")[0].split()[1] == b"101", head
    return s


def test_defect8_an_oversized_frame_is_refused_before_it_is_buffered(tmp_path: Path) -> None:
    server = LiveServer(tmp_path).start()
    try:
        with _raw_websocket(server.port) as s:
            size = 15 * 1024 * 1024
            mask = os.urandom(4)
            # a text frame that announces 15 MB, then only its first kilobyte
            s.sendall(bytes([0x81, 0x80 | 127]) + struct.pack(">Q", size) + mask + b"x" * 1024)
            got = b""
            while True:
                # a timeout here (the server waiting for the 15 MB) fails the test
                while len(got) < 2 or len(got) < 2 + (got[1] & 0x7F):
                    chunk = s.recv(4096)
                    assert chunk, f"closed without a close frame after {got!r}"
                    got += chunk
                if got[0] != 0x89:  # skip the server's keep-alive pings
                    break
                got = got[2 + (got[1] & 0x7F):]
            assert got[0] == 0x88, got  # a close frame ...
            assert struct.unpack(">H", got[2:4])[0] == 1009  # ... "message too big"
    finally:
        server.stop()


# ---- 9 and 10. lone surrogates in frames; reply_to on parse errors


def test_defect9_lone_surrogates_in_frames_get_an_error_and_the_socket_lives(
        client: TestClient) -> None:
    t = create(client)
    with client.websocket_connect("/ws") as ws:
        for text, reply_to in [
            ('{"type": "hello", "table": "\\ud800", "token": "x", "id": 1}', 1),
            ('{"type": "hello", "table": "' + t["table"] + '", "token": "\\udc00", "id": "a"}',
             "a"),
            ('{"type": "watch", "table": "\\ud800\\udfff\\ud800", "id": 2}', 2),
            ('{"type": "ping", "id": "\\ud800"}', None),
        ]:
            ws.send_text(text)
            err = recv(ws, "error")
            assert err["code"] == "malformed" and err.get("reply_to") == reply_to, (text, err)
            ws.send_json({"type": "ping", "id": "alive"})
            assert recv(ws, "pong")["reply_to"] == "alive"
        hello(ws, t["table"], t["token"])


@pytest.mark.parametrize("message, code", [
    ({"type": "shout", "id": 7}, "unknown_type"),
    ({"type": "move", "id": 7}, "malformed"),
    ({"type": "move", "move": "QH", "version": "1", "id": 7}, "malformed"),
    ({"type": 5, "id": 7}, "malformed"),
    ({"id": 7}, "malformed"),
    ({"type": "hello", "table": ["x"], "token": "y", "id": 7}, "malformed"),
])
def test_defect10_parse_errors_carry_reply_to(client: TestClient, message: dict[str, Any],
                                              code: str) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_json(message)
        err = recv(ws, "error")
        assert err["code"] == code and err["reply_to"] == 7


def test_a_socket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(join_timeout=0.3)) as client, \
            client.websocket_connect("/ws") as ws:
        err = recv(ws, "error")
        assert err["code"] == "not_joined" and "0.3 s" in err["message"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_rate_limiter_refills() -> None:
    rate = RateLimiter(60.0)
    assert all(rate.allow("a", now=0.0) == 0.0 for _ in range(60))
    assert rate.allow("a", now=0.0) == pytest.approx(1.0)
    assert rate.allow("b", now=0.0) == 0.0  # clients are counted apart
    assert rate.allow("a", now=1.0) == 0.0
    with pytest.raises(ValueError, match="positive"):
        Limits(create_rate=0)


def test_every_limit_is_a_serve_option_with_its_default_in_both_languages(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from cardplay.i18n import CLI, LANGS, translate

    for lang in LANGS:
        for name in Limits.names():
            assert "{default}" in translate("help_limit_" + name, lang, CLI)
    monkeypatch.delenv("LANG", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    assert cli.main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    for name, value in Limits().as_dict().items():
        assert f"--{name.replace('_', '-')} N" in out
        assert f"(default: {value:g})" in out


def test_an_older_database_is_migrated_and_its_tables_resume(tmp_path: Path) -> None:
    """A database written before this release (no status, salt or creator columns) opens: its
    rows get a status from their seats, and a table resumes without a commitment."""
    db = sqlite3.connect(tmp_path / "cardplay.db")
    db.executescript("""
        CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
            seed INTEGER NOT NULL, dealer INTEGER, seats TEXT NOT NULL, created REAL NOT NULL,
            finished REAL);
        CREATE TABLE moves (table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL,
            seat INTEGER NOT NULL, move TEXT NOT NULL, at REAL NOT NULL,
            PRIMARY KEY (table_id, n)) WITHOUT ROWID;""")
    from cardplay.server.hub import _hash

    seats = [{"kind": "human", "level": "random", "name": "Old", "token_hash": _hash("tok")},
             {"kind": "human", "level": "random", "name": "", "token_hash": None}]
    db.execute("INSERT INTO tables VALUES ('old1', 'sixty-six', '{}', 77, NULL, ?, ?, NULL)",
               (json.dumps(seats), time.time()))
    db.commit()
    db.close()
    with make_client(tmp_path) as client:
        lobby = client.get("/api/tables").json()
        assert [x["id"] for x in lobby["open"]] == ["old1"]
        assert lobby["open"][0]["commitment"] is None
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": "old1", "token": "tok"})
            welcome = recv(ws, "welcome")
            assert welcome["commitment"] is None and welcome["seat"] == 0
            recv(ws, "state")
