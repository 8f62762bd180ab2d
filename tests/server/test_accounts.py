"""Accounts, sessions, profiles and leaderboards over HTTP (DESIGN.md section 6), with the
security checks: no password stored, logged or answered; brute force stopped; a signed-out
session refused; the cookie's flags; no name enumeration."""

from __future__ import annotations

import logging
import sqlite3
import statistics
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplay.server.accounts import COOKIE
from cardplay.server.limits import Limits
from cardplay.server.passwords import PRODUCTION, Passwords

from .conftest import create, hello, make_client, recv

PASSWORD = "correct horse battery"
TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]


def sign_up(client: TestClient, name: str, password: str = PASSWORD,
            **body: Any) -> Any:
    return client.post("/api/accounts", json={"name": name, "password": password, **body})


def sign_in(client: TestClient, name: str, password: str = PASSWORD, **body: Any) -> Any:
    return client.post("/api/session", json={"name": name, "password": password, **body})


def test_sign_up_sign_out_sign_in(client: TestClient) -> None:
    r = sign_up(client, "Ana")
    assert r.status_code == 201
    assert r.json()["name"] == "Ana"
    assert client.get("/api/me").json()["name"] == "Ana"
    assert client.delete("/api/session").status_code == 204
    me = client.get("/api/me")
    assert me.status_code == 401 and me.json()["error"] == "not_signed_in"
    r = sign_in(client, "ana")  # any case signs in; the answer spells it as the account does
    assert r.status_code == 200 and r.json()["name"] == "Ana"
    assert client.get("/api/me").json()["name"] == "Ana"


@pytest.mark.parametrize("name", ["ana", "ANA", "Ana "])
def test_names_are_unique_ignoring_case(client: TestClient, name: str) -> None:
    assert sign_up(client, "Ana").status_code == 201
    r = TestClient(client.app).post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 409 and r.json()["error"] == "name_taken"


def test_names_unique_ignoring_case_in_any_script(client: TestClient) -> None:
    assert sign_up(client, "Ёжик").status_code == 201
    assert sign_up(client, "ёЖИК").status_code == 409


@pytest.mark.parametrize("name,code", [("", "bad_name"), ("   ", "bad_name"),
                                       ("a" * 41, "bad_name"), ("a\u202eb", "bad_name"),
                                       ("a/b", "bad_name"), (7, "bad_name"),
                                       (None, "bad_name")])
def test_bad_names_are_400_and_change_nothing(client: TestClient, name: Any, code: str) -> None:
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 400 and r.json()["error"] == code
    assert r.json()["message"]
    assert client.get("/api/me").status_code == 401


@pytest.mark.parametrize("password", ["", "1234567", 12345678, None, "x" * 257])
def test_bad_passwords_are_400(client: TestClient, password: Any) -> None:
    r = client.post("/api/accounts", json={"name": "Bo", "password": password})
    assert r.status_code == 400 and r.json()["error"] == "bad_password"
    assert sign_in(client, "Bo").json()["error"] == "bad_credentials"  # nothing was made


def test_eight_characters_are_enough(client: TestClient) -> None:
    assert sign_up(client, "Bo", "12345678").status_code == 201


def test_wrong_password_and_unknown_name_get_the_same_answer(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        sign_up(client, "Ana")
        client.delete("/api/session")
        wrong = sign_in(client, "Ana", "not the password")
        unknown = sign_in(client, "Nobody", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "bad_credentials",
                                             "message": "the name or the password is wrong"}
    assert COOKIE not in wrong.headers.get("set-cookie", "")


def test_no_name_enumeration_by_time(tmp_path: Path) -> None:
    """At the production cost, a wrong password and an unknown name take the same time (each
    is one Argon2id check; medians of a few tries differ by far less than one check)."""
    limits = Limits(signin_rate=1000, signin_account_rate=1000, create_rate=1000)
    with make_client(tmp_path, limits=limits, passwords=PRODUCTION) as client:
        sign_up(client, "Ana")
        client.delete("/api/session")

        def took(name: str) -> float:
            start = time.perf_counter()
            assert sign_in(client, name, "not the password").status_code == 401
            return time.perf_counter() - start

        took("Nobody")  # the dummy hash is made on first use
        # alternated, so that other work on the machine slows both alike
        pairs = [(took("Ana"), took("Nobody")) for _ in range(7)]
        known = statistics.median(k for k, _ in pairs)
        unknown = statistics.median(u for _, u in pairs)
    assert known > 0.005  # a real Argon2id check happened on both paths
    assert abs(known - unknown) < 0.5 * known, (known, unknown)


def test_the_production_cost_is_the_default() -> None:
    p = Passwords()
    params = p.hasher
    assert (params.time_cost, params.memory_cost, params.parallelism) == (3, 65536, 4)
    assert p.hash("whatever1").startswith("$argon2id$v=19$m=65536,t=3,p=4$")


def test_sign_in_brute_force_is_stopped_per_client(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(signin_rate=5, signin_account_rate=100)) as client:
        sign_up(client, "Ana")
        client.delete("/api/session")
        codes = [sign_in(client, "Ana", f"guess{i:04d}").status_code for i in range(5)]
        assert codes == [401] * 5
        r = sign_in(client, "Ana")  # even the right password waits now
        assert r.status_code == 429 and r.json()["error"] == "too_many_tries"
        assert "try again" in r.json()["message"] and int(r.headers["Retry-After"]) >= 1
        assert client.get("/api/me").status_code == 401


def test_sign_in_brute_force_is_stopped_per_account(tmp_path: Path) -> None:
    """A guesser spread over many addresses still meets the account's own limit."""
    limits = Limits(signin_rate=100, signin_account_rate=3)
    with make_client(tmp_path, limits=limits) as client:
        sign_up(client, "Ana")
        client.delete("/api/session")
        hosts = [TestClient(client.app, client=(f"10.0.0.{i}", 5000)) for i in range(4)]
        codes = [sign_in(c, "ana", "wrong password").status_code for c in hosts]
        assert codes == [401, 401, 401, 429]
        # another name is not held back by Ana's limit
        assert sign_in(hosts[3], "Nobody", "wrong password").status_code == 401


def test_cookie_flags(client: TestClient) -> None:
    r = sign_up(client, "Ana")
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    flags = {p.strip().split("=")[0].lower() for p in cookie.split(";")[1:]}
    assert {"httponly", "samesite", "path", "max-age"} <= flags
    assert "samesite=lax" in cookie.lower()
    assert "secure" not in flags  # plain http here
    r = TestClient(client.app, base_url="https://testserver").post(
        "/api/accounts", json={"name": "Bo", "password": PASSWORD})
    assert "secure" in {p.strip().lower() for p in r.headers["set-cookie"].split(";")}


def test_a_signed_out_session_is_refused(client: TestClient) -> None:
    sign_up(client, "Ana")
    token = client.cookies[COOKIE]
    assert client.delete("/api/session").status_code == 204
    other = TestClient(client.app)
    other.cookies[COOKIE] = token  # the old cookie, kept by someone
    assert other.get("/api/me").status_code == 401
    assert other.delete("/api/session").status_code == 401


def test_sign_out_everywhere_ends_every_session(client: TestClient) -> None:
    sign_up(client, "Ana")
    phone = TestClient(client.app)
    assert sign_in(phone, "Ana").status_code == 200
    me = client.get("/api/me").json()
    assert len(me["sessions"]) == 2 and sum(s["current"] for s in me["sessions"]) == 1
    assert client.delete("/api/session?everywhere=1").status_code == 204
    assert phone.get("/api/me").status_code == 401
    assert client.get("/api/me").status_code == 401


def test_one_session_can_be_ended_from_the_account_page(client: TestClient) -> None:
    sign_up(client, "Ana")
    phone = TestClient(client.app)
    sign_in(phone, "Ana")
    sessions = client.get("/api/me").json()["sessions"]
    other = next(s["id"] for s in sessions if not s["current"])
    assert client.delete(f"/api/me/sessions/{other}").status_code == 204
    assert phone.get("/api/me").status_code == 401
    assert client.get("/api/me").status_code == 200
    r = client.delete(f"/api/me/sessions/{other}")
    assert r.status_code == 404 and r.json()["error"] == "no_session"


def test_tokens_are_stored_only_as_hashes_and_passwords_nowhere(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    answers = []
    with make_client(tmp_path) as client:
        answers.append(sign_up(client, "Ana"))
        token = client.cookies[COOKIE]
        client.delete("/api/session")
        answers.append(sign_in(client, "Ana", "wrong password 1"))
        answers.append(sign_in(client, "Ana"))
        answers.append(client.get("/api/me"))
        answers.append(client.get("/api/players/Ana"))
        answers.append(client.post("/api/accounts", json={"name": "Ana", "password": PASSWORD}))
    raw = (tmp_path / "cardplay.db").read_bytes()
    for path in tmp_path.glob("cardplay.db*"):
        raw += path.read_bytes()
    for secret in (PASSWORD, "wrong password 1"):
        assert secret.encode() not in raw
        assert secret not in caplog.text
        for r in answers:
            assert secret not in r.text and secret not in str(r.headers)
    assert token.encode() not in raw
    db = sqlite3.connect(tmp_path / "cardplay.db")
    stored = db.execute("SELECT password FROM accounts").fetchone()[0]
    assert stored.startswith("$argon2id$")


def test_the_origin_and_content_type_checks_apply(client: TestClient) -> None:
    sign_up(client, "Ana")
    r = client.delete("/api/session", headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    r = client.post("/api/session", content=b'{"name": "Ana", "password": "x"}',
                    headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = client.request("DELETE", "/api/me", content=b'{"password": "correct horse battery"}',
                       headers={"Content-Type": "application/json",
                                "Origin": "https://evil.example"})
    assert r.status_code == 403
    assert client.get("/api/me").status_code == 200  # nothing changed


def test_bad_bodies_are_400(client: TestClient) -> None:
    for body in (b"[1]", b"{", b'"text"'):
        r = client.post("/api/session", content=body,
                        headers={"Content-Type": "application/json"})
        assert r.status_code == 400, body
    r = client.post("/api/session", json={"name": ["Ana"], "password": PASSWORD})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    r = sign_up(client, "Ana", seats="all of them")
    assert r.status_code == 400 and r.json()["error"] == "bad_seats"
    assert sign_in(client, "Ana").status_code == 401  # the bad sign-up made no account
    assert client.delete("/api/session?everywhere=yes").status_code == 401


def test_deleting_an_account_keeps_its_games_anonymised(client: TestClient) -> None:
    sign_up(client, "Ana")
    t = create(client, name="whatever")
    summary = client.get(f"/api/tables/{t['table']}").json()
    assert summary["seats"][0]["name"] == "Ana" and "guest" not in summary["seats"][0]
    r = client.request("DELETE", "/api/me", json={"password": "wrong password"})
    assert r.status_code == 401 and r.json()["error"] == "bad_credentials"
    assert client.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/players/Ana").status_code == 404
    summary = client.get(f"/api/tables/{t['table']}").json()
    assert summary["seats"][0]["name"] == ""
    # the seat's token still plays; the name is free again
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, t["table"], t["token"])["seats"][0]["name"] == ""
    assert sign_up(client, "ana").status_code == 201
    assert client.get("/api/players/ana").json()["games"] == []


def test_a_seat_records_its_account_and_a_guest_is_marked(client: TestClient) -> None:
    guest = TestClient(client.app)
    t = create(guest, seats=TWO_PEOPLE, name="Visitor")
    sign_up(client, "Ana")
    joined = client.post(f"/api/tables/{t['table']}/join", json={"name": "ignored"})
    assert joined.status_code == 200
    with client.websocket_connect("/ws") as ws:
        seats = hello(ws, t["table"], joined.json()["token"])["seats"]
    assert seats[0]["name"] == "Visitor" and seats[0]["guest"] is True
    assert seats[1]["name"] == "Ana" and "guest" not in seats[1]


def test_a_guests_tables_come_with_them_at_sign_up(client: TestClient) -> None:
    mine = create(client, name="guest")
    other_browser = create(TestClient(client.app))
    r = sign_up(client, "Ana", seats=[{"table": mine["table"], "token": mine["token"]},
                                      {"table": other_browser["table"], "token": "forged"},
                                      {"table": "nope", "token": "nope"}])
    assert r.status_code == 201
    assert r.json()["seats"] == [{"table": mine["table"], "seat": 0}]
    page = client.get("/api/players/Ana").json()
    assert [t["table"] for t in page["tables"]] == [mine["table"]]
    assert client.get(f"/api/tables/{mine['table']}").json()["seats"][0]["name"] == "Ana"
    # another account cannot take the same seat with the same token later
    thief = TestClient(client.app)
    r = sign_up(thief, "Eve", seats=[{"table": mine["table"], "token": mine["token"]}])
    assert r.json()["seats"] == []


def test_unfinished_tables_show_only_to_their_player_and_resume(client: TestClient) -> None:
    sign_up(client, "Ana")
    t = create(client)
    page = client.get("/api/players/Ana").json()
    assert page["tables"][0]["table"] == t["table"] and page["games"] == []
    stranger = TestClient(client.app)
    assert "tables" not in stranger.get("/api/players/ana").json()
    assert stranger.post(f"/api/tables/{t['table']}/resume").status_code == 401
    phone = TestClient(client.app)
    sign_in(phone, "Ana")
    r = phone.post(f"/api/tables/{t['table']}/resume")
    assert r.status_code == 200 and r.json()["seat"] == 0
    with phone.websocket_connect("/ws") as ws:
        assert hello(ws, t["table"], r.json()["token"])["seat"] == 0
    sign_up(stranger, "Bo")
    r = stranger.post(f"/api/tables/{t['table']}/resume")
    assert r.status_code == 404 and r.json()["error"] == "no_seat"


def test_players_and_leaderboards_404(client: TestClient) -> None:
    r = client.get("/api/players/Nobody")
    assert r.status_code == 404 and r.json()["error"] == "no_player"
    r = client.get("/api/leaderboard/chess")
    assert r.status_code == 404 and r.json()["error"] == "no_game"
    assert client.get("/api/leaderboard/sixty-six?players=99").status_code == 400
    assert client.get("/api/leaderboard/sixty-six?players=" + "9" * 5000).status_code == 400
    assert client.get("/api/players/" + "x" * 1000).status_code == 404
    assert client.get("/api/leaderboard/sixty-six").json() == {"game": "sixty-six",
                                                               "players": []}


def test_rated_tables_are_checked(client: TestClient) -> None:
    body = {"game": "sixty-six", "seats": TWO_PEOPLE, "rated": True}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 401 and r.json()["error"] == "not_signed_in"
    sign_up(client, "Ana")
    r = client.post("/api/tables", json={**body, "seats": [{"kind": "human"},
                                                           {"kind": "bot"}]})
    assert r.status_code == 400 and r.json()["error"] == "bot_seat"
    r = client.post("/api/tables", json={**body, "rated": "yes"})
    assert r.status_code == 400
    t = client.post("/api/tables", json=body)
    assert t.status_code == 201
    guest = TestClient(client.app)
    r = guest.post(f"/api/tables/{t.json()['table']}/join", json={})
    assert r.status_code == 401  # a rated table seats signed-in people only
    assert client.get(f"/api/tables/{t.json()['table']}").json()["open_seats"] == [1]
    r = client.post(f"/api/tables/{t.json()['table']}/join", json={})
    assert r.status_code == 409 and r.json()["error"] == "already_seated"  # no rating oneself


def test_the_seam_reads_a_websocket_scope_too(client: TestClient) -> None:
    sign_up(client, "Ana")
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    token = client.cookies[COOKIE]
    scope = {"type": "websocket", "headers": [(b"cookie", f"a=b; {COOKIE}={token}".encode())]}
    account = accounts.account_of_scope(scope)
    assert account is not None and account.name == "Ana"
    assert accounts.account_of_scope({"type": "websocket", "headers": []}) is None
    assert accounts.account_of_token("x" * 500) is None
    client.delete("/api/session")
    assert accounts.account_of_scope(scope) is None


def play_match(a: TestClient, b: TestClient, rated: bool = True
               ) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A Sixty-Six match between the people signed in on a (seat 0) and b (seat 1), each
    playing its first legal move: the table and the final states of both seats."""
    r = a.post("/api/tables", json={"game": "sixty-six", "seats": TWO_PEOPLE, "rated": rated})
    assert r.status_code == 201, r.text
    t = r.json()
    j = b.post(f"/api/tables/{t['table']}/join", json={}).json()
    with a.websocket_connect("/ws") as wa, b.websocket_connect("/ws") as wb:
        socks = [wa, wb]
        states = [hello(wa, t["table"], t["token"]), hello(wb, t["table"], j["token"])]
        states[0] = recv(wa, "state")  # the second seat came
        for _ in range(3000):
            if states[0]["is_over"]:
                return t["table"], states[0], states[1]
            mover = states[0]["view"]["to_move"]
            s = states[mover] if mover is not None else states[0]
            if s["view"]["legal_moves"] and s["version"] == states[0]["version"]:
                socks[mover].send_json({"type": "move", "move": s["view"]["legal_moves"][0],
                                        "version": s["version"]})
            else:  # the server plays a deal's end notice first
                time.sleep(0.01)
            states = [latest(wa, states[0]), latest(wb, states[1])]
    raise AssertionError("the match did not end")


def latest(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    """The newest state a socket has been sent (a ping's pong comes after all of them): a
    move may bring more than one (a deal's end notice played by the server)."""
    ws.send_json({"type": "ping", "id": "sync"})
    while True:
        msg = recv(ws)
        if msg["type"] == "pong":
            return state
        assert msg["type"] == "state", msg
        state = msg


def two_players(client: TestClient) -> tuple[TestClient, TestClient]:
    a, b = TestClient(client.app), TestClient(client.app)
    assert sign_up(a, "Ana").status_code == 201
    assert sign_up(b, "Bo").status_code == 201
    return a, b


def test_a_rated_match_changes_both_ratings_and_shows_them(client: TestClient) -> None:
    a, b = two_players(client)
    table, end_a, end_b = play_match(a, b)
    assert end_a["ratings"] == end_b["ratings"]
    winner = end_a["winners"][0]
    loser = 1 - winner
    before = {"rating": 1500, "deviation": 500, "games": 0, "provisional": True}
    for seat in (0, 1):
        assert end_a["ratings"][seat]["before"] == before
        assert end_a["ratings"][seat]["after"]["games"] == 1
    assert end_a["ratings"][winner]["after"]["rating"] > 1500
    assert end_a["ratings"][loser]["after"]["rating"] < 1500
    names = ["Ana", "Bo"]
    for seat in (0, 1):
        page = client.get(f"/api/players/{names[seat]}").json()
        after = end_a["ratings"][seat]["after"]
        assert page["ratings"] == {"sixty-six": after}
        assert page["games"][0]["table"] == table
        assert page["games"][0]["rated"] is True
        assert page["games"][0]["result"] == ("win" if seat == winner else "loss")
        assert page["games"][0]["opponents"] == [names[1 - seat]]
        assert page["games"][0]["ended"] > 0
    board = client.get("/api/leaderboard/sixty-six").json()
    assert [p["name"] for p in board["players"]] == [names[winner], names[loser]]
    assert board["players"][0]["provisional"] is True


def test_a_casual_match_is_remembered_but_not_rated(client: TestClient) -> None:
    a, b = two_players(client)
    table, end_a, _ = play_match(a, b, rated=False)
    assert "ratings" not in end_a
    page = client.get("/api/players/Ana").json()
    assert page["ratings"] == {}
    assert page["games"][0]["table"] == table and page["games"][0]["rated"] is False
    assert page["games"][0]["result"] in ("win", "loss")


def test_games_are_listed_newest_first(client: TestClient) -> None:
    a, b = two_players(client)
    first, _, _ = play_match(a, b)
    second, end, _ = play_match(b, a)
    page = client.get("/api/players/Ana").json()
    assert [g["table"] for g in page["games"]] == [second, first]
    assert page["ratings"]["sixty-six"]["games"] == 2
    assert page["ratings"]["sixty-six"] == end["ratings"][1]["after"]


def test_an_unused_session_ends(tmp_path: Path) -> None:
    from cardplay.server.accounts import SESSION_IDLE

    with make_client(tmp_path) as client:
        sign_up(client, "Ana")
        db = sqlite3.connect(tmp_path / "cardplay.db")
        db.execute("UPDATE sessions SET seen = ?", (time.time() - SESSION_IDLE - 60,))
        db.commit()
        assert client.get("/api/me").status_code == 401
        assert db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 0


def test_a_hash_of_another_cost_is_replaced_at_sign_in(tmp_path: Path) -> None:
    from cardplay.server.passwords import PasswordConfig

    with make_client(tmp_path) as client:
        sign_up(client, "Ana")
    db = sqlite3.connect(tmp_path / "cardplay.db")
    old = db.execute("SELECT password FROM accounts").fetchone()[0]
    dearer = PasswordConfig(time_cost=2, memory_cost=16, parallelism=1)
    with make_client(tmp_path, passwords=dearer) as client:
        assert sign_in(client, "Ana").status_code == 200
    new = db.execute("SELECT password FROM accounts").fetchone()[0]
    assert old.startswith("$argon2id$v=19$m=8,t=1,p=1$")
    assert new.startswith("$argon2id$v=19$m=16,t=2,p=1$")


def test_a_forfeit_is_a_rated_loss_whatever_the_score(client: TestClient) -> None:
    """The clocks' seam: a seat marked forfeit (and stored so) loses the rated match."""
    a, b = two_players(client)
    hooks = client.app.state.hub.match_hooks  # type: ignore[attr-defined]
    real = hooks.finished

    def forfeit_the_winner(table: Any) -> None:
        table.seats[table.match.winners[0]].forfeit = True
        table.save_seats()
        real(table)

    hooks.finished = forfeit_the_winner
    table, end, _ = play_match(a, b)
    winner = end["winners"][0]
    assert end["ratings"][winner]["after"]["rating"] < 1500
    assert end["ratings"][1 - winner]["after"]["rating"] > 1500
    names = ["Ana", "Bo"]
    page = client.get(f"/api/players/{names[winner]}").json()
    assert page["games"][0]["result"] == "loss"
    assert client.get(f"/api/tables/{table}").json()["seats"][winner]["name"] == names[winner]


def test_the_end_ratings_outlive_a_restart(tmp_path: Path) -> None:
    """A process that did not rate the table (here: the same data after a restart) shows the
    stored change in the final state."""
    with make_client(tmp_path) as client:
        a, b = two_players(client)
        table, end, _ = play_match(a, b)
        token = a.post(f"/api/tables/{table}/resume")  # over: no new token
        assert token.status_code == 409
    with make_client(tmp_path) as client:
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "watch", "table": table})
            recv(ws, "welcome")
            state = recv(ws, "state")
        assert state["is_over"] is True
        assert state["ratings"] == end["ratings"]


def test_secure_follows_a_trusted_proxys_forwarded_proto(live: Any) -> None:
    """uvicorn trusts 127.0.0.1 as a proxy by default: its X-Forwarded-Proto makes the request
    https, and the cookie Secure; without the header it is plain http."""
    import httpx

    body = {"name": "Ana", "password": PASSWORD}
    r = httpx.post(live.url + "/api/accounts", json=body,
                   headers={"X-Forwarded-Proto": "https"})
    assert r.status_code == 201
    assert "secure" in [p.strip().lower() for p in r.headers["set-cookie"].split(";")]
    r = httpx.post(live.url + "/api/session", json=body)
    assert r.status_code == 200
    assert "secure" not in [p.strip().lower() for p in r.headers["set-cookie"].split(";")]
