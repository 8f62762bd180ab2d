"""The daily deals over HTTP and the WebSocket: the contract's shapes (DESIGN.md section 6), one
attempt per account and per browser, the guest's cookie, the reveal at midnight, matchpoints on
concrete results, and `cardplay daily verify` passing and failing on a tampered record."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplay import replay
from cardplay.dailyplan import daily_commitment, deal_value, matchpoints
from cardplay.engine import derive_seed
from cardplay.engine.series import Series
from cardplay.fairness import verify
from cardplay.server.dailyrank import day_scores, scores_of

from .conftest import hello, make_client, recv

PASSWORD = "correct horse battery"
DAY0 = 1_796_601_600.0  # 2026-12-07 00:00:00 UTC
NOON = DAY0 + 12 * 3600


class Clock:
    def __init__(self, at: float) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with make_client(tmp_path, now=clock) as c:
        yield c


def new_person(client: TestClient) -> None:
    """Act as another person from now on: another browser, nobody signed in."""
    client.cookies.clear()


def sign_up(client: TestClient, name: str) -> None:
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


def play(client: TestClient, start: dict[str, Any],
         pick: Callable[[list[str], int], str] = lambda legal, n: legal[0],
         stop_after: int | None = None) -> dict[str, Any]:
    """Play an attempt through the WebSocket, ``pick`` choosing each move from the legal ones
    (and the count of the person's moves so far); the last state."""
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, start["table"], start["token"])
        mine = 0
        while True:
            view = state["view"]
            if state["is_over"]:
                return state
            deals = len(view["match"]["segment_results"])
            if stop_after is not None and deals >= stop_after:
                return state
            if view["to_move"] == 0 and view["legal_moves"]:
                ws.send_json({"type": "move", "move": pick(view["legal_moves"], mine),
                              "version": state["version"]})
                mine += 1
            while True:
                msg = recv(ws)
                if msg["type"] == "state":
                    state = msg
                    break
                assert msg["type"] != "error", msg


def test_contract_shapes_and_one_attempt(client: TestClient) -> None:
    r = client.get("/api/daily/sixty-six")
    assert r.status_code == 200
    info = r.json()
    assert {k: info[k] for k in ("game", "day", "deals", "level")} == {
        "game": "sixty-six", "day": "2026-12-07", "deals": 6, "level": "heuristic"}
    assert len(info["commitment"]) == 64
    assert "cardplay_browser" in r.headers["set-cookie"]
    start = client.post("/api/daily/sixty-six")
    assert start.status_code == 201, start.text
    body = start.json()
    assert set(body) >= {"table", "seat", "token"} and body["seat"] == 0
    again = client.post("/api/daily/sixty-six")
    assert again.status_code == 409 and again.json()["error"] == "already_played"
    # another game of the same day is another attempt
    assert client.post("/api/daily/twenty").status_code == 201
    assert client.get("/api/daily/no-such-game").status_code == 404


def test_same_moves_meet_the_same_bots_and_cards(client: TestClient) -> None:
    """Two people playing the same moves see the same game move for move; where they part, the
    cards of the next deal are still the same."""
    new_person(client)
    sa = client.post("/api/daily/sixty-six").json()
    first = play(client, sa)
    new_person(client)
    sb = client.post("/api/daily/sixty-six").json()
    second = play(client, sb)
    assert first["view"]["history"] == second["view"]["history"]
    assert first["view"]["match"]["segment_results"] == \
        second["view"]["match"]["segment_results"]
    # a third person plays the last legal move instead: other moves, the same deals dealt
    new_person(client)
    sc = client.post("/api/daily/sixty-six").json()
    third = play(client, sc, pick=lambda legal, n: legal[-1])
    assert third["is_over"]
    assert third["view"]["history"] != first["view"]["history"]
    day = client.app.state.daily.store.day("sixty-six", "2026-12-07")  # type: ignore[attr-defined]
    firsts = []
    for table in (sa["table"], sc["table"]):
        stored = client.app.state.hub.storage.load(table)  # type: ignore[attr-defined]
        played = replay(stored.record())
        assert isinstance(played, Series)
        firsts.append([played.deals[played.segment_of_deal.index(k)] for k in range(6)])
    for k, (one, other) in enumerate(zip(*firsts)):
        # each deal's first cards come from the day's seed and its number alone
        assert one.seed == other.seed == derive_seed(day[0], "series", k, 0)
        assert one.dealer == other.dealer == (1 + k) % 2
        dealt = [one.game.deal(one.seed, dealer=one.dealer).view(s).hand for s in (0, 1)]
        assert len(dealt[0]) == len(dealt[1]) == 6 and dealt[0] != dealt[1]


def test_hints_and_records_are_refused_until_the_day_is_over(client: TestClient,
                                                             clock: Clock) -> None:
    start = client.post("/api/daily/twenty").json()
    with client.websocket_connect("/ws") as ws:
        hello(ws, start["table"], start["token"])
        ws.send_json({"type": "hint"})
        assert recv(ws, "error")["code"] == "no_help"
    play(client, start)
    r = client.get(f"/api/tables/{start['table']}/record")
    assert r.status_code == 409 and r.json()["error"] == "day_not_over"
    r = client.get("/api/daily/twenty/records", params={"day": "2026-12-07"})
    assert r.status_code == 409
    results = client.get("/api/daily/twenty/results").json()
    assert "seed" not in results and "salt" not in results
    clock.at += 86400  # midnight passes
    r = client.get("/api/daily/twenty/results", params={"day": "2026-12-07"})
    body = r.json()
    assert r.status_code == 200 and body["day"] == "2026-12-07"
    assert daily_commitment("twenty", "2026-12-07", body["seed"], body["salt"]) == \
        body["commitment"]
    assert client.get(f"/api/tables/{start['table']}/record").status_code == 200
    # the new day has a new commitment
    assert client.get("/api/daily/twenty").json()["day"] == "2026-12-08"


def test_matchpoints_on_concrete_results() -> None:
    # beat two, tie one, lose to one: (1 + 1 + 0.5 + 0) / 4
    assert matchpoints(2, [1, 0, 2, 3]) == 0.625
    assert matchpoints(2, []) is None
    assert deal_value([3, 0]) == 3 and deal_value([0, 2]) == -2
    assert deal_value([-40, 100, -60]) == -40  # three seats: the person's own result
    values = {"ann": [3, -1, 2], "bob": [1, -1], "cid": [3, 2, -2]}
    assert scores_of(values["ann"], [values["bob"], values["cid"]]) == [0.75, 0.25, 1.0]
    # ann 2/3 = 66.67%; bob: deal 1 beats nobody (0), deal 2 ties ann and loses to cid
    # (0.25): 12.5%; cid: 0.75, 1, and deal 3 against ann alone 0: 58.33%
    assert day_scores(values) == {"ann": (66.67, 3), "bob": (12.5, 2), "cid": (58.33, 3)}


def finish(client: TestClient, game: str, name: str | None,
           pick: Callable[[list[str], int], str] = lambda legal, n: legal[0]) -> dict[str, Any]:
    new_person(client)
    if name is not None:
        sign_up(client, name)
    start = client.post(f"/api/daily/{game}")
    assert start.status_code == 201, start.text
    return play(client, start.json(), pick)


def test_the_list_ranks_by_matchpoints_and_shows_names_only_when_allowed(
        client: TestClient) -> None:
    finish(client, "twenty", "ann")
    assert client.post("/api/daily-names", json={"shown": True}).json() == {"shown": True}
    finish(client, "twenty", "bob", pick=lambda legal, n: legal[-1])
    mine = client.get("/api/daily/twenty/results").json()
    store = client.app.state.daily.store  # type: ignore[attr-defined]
    values = {a[1]: a[3] for a in store.attempts("twenty", "2026-12-07")}
    assert all(len(v) == 6 for v in values.values())
    expected = day_scores(values)
    rows = mine["players"]
    assert sorted((r["score"], r["deals"]) for r in rows) == sorted(expected.values())
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    names = {r["name"] for r in rows}
    assert names == {"ann", "bob"}  # ann allows it; bob is the asker
    assert mine["you"]["deals"] == 6 and mine["you"]["listed"] is True
    new_person(client)
    anyone = client.get("/api/daily/twenty/results").json()
    assert {r["name"] for r in anyone["players"]} == {"ann", None}
    assert "you" not in anyone


def test_a_guests_attempt_is_listed_once_they_sign_up(client: TestClient) -> None:
    finish(client, "twenty", None)
    assert client.get("/api/daily/twenty/results").json()["players"] == []
    me = client.get("/api/daily/twenty/results").json()["you"]
    assert me["listed"] is False and me["deals"] == 6
    # the same browser may not play again as a guest nor by signing up
    assert client.post("/api/daily/twenty").status_code == 409
    sign_up(client, "late")
    assert client.post("/api/daily/twenty").status_code == 409
    rows = client.get("/api/daily/twenty/results").json()["players"]
    assert [(r["name"], r["deals"]) for r in rows] == [("late", 6)]


def test_the_browser_cookie_is_set_and_kept(client: TestClient) -> None:
    r = client.post("/api/daily/twenty")
    assert r.status_code == 201
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("cardplay_browser=") and "HttpOnly" in cookie
    assert "Max-Age=34560000" in cookie
    # the next answer sets nothing: the browser has its id
    assert "set-cookie" not in client.get("/api/daily/twenty").headers
    # a guest without the cookie is another browser
    new_person(client)
    assert client.post("/api/daily/twenty").status_code == 201


def test_bad_input_is_a_clear_error(client: TestClient) -> None:
    for url, code in (("/api/daily/twenty/results?day=2026-13-01", "bad_day"),
                      ("/api/daily/twenty/results?day=yesterday", "bad_day"),
                      ("/api/daily/twenty/month?month=2026-1", "bad_month"),
                      ("/api/daily/twenty/deal/0", "bad_deal"),
                      ("/api/daily/twenty/deal/1", "not_played"),
                      ("/api/daily/nope/results", "no_game")):
        r = client.get(url)
        assert r.json()["error"] == code, url
    r = client.post("/api/daily/twenty", content=b"x", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    assert client.post("/api/daily-names", json={"shown": True}).status_code == 401
    sign_up(client, "zed")
    r = client.post("/api/daily-names", json={"shown": "yes"})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    assert client.get("/api/daily-names").json() == {"shown": False}


def test_a_deal_compared_with_the_others(client: TestClient) -> None:
    finish(client, "sixty-six", "ann")
    client.post("/api/daily-names", json={"shown": True})
    finish(client, "sixty-six", "bob", pick=lambda legal, n: legal[-1])
    r = client.get("/api/daily/sixty-six/deal/1")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["deal"] == 1 and len(body["players"]) == 2
    assert [p["value"] for p in body["players"]] == sorted(
        (p["value"] for p in body["players"]), reverse=True)
    mine = next(p for p in body["players"] if p.get("you"))
    other = next(p for p in body["players"] if not p.get("you"))
    assert mine["name"] == "bob" and other["name"] == "ann"
    assert mine["moves"] != other["moves"]
    first = next(i for i, (a, b) in enumerate(zip(mine["moves"], other["moves"])) if a != b)
    decision = body["decisions"][0]
    assert decision["index"] == first and decision["players"] == 2
    assert {c["move"] for c in decision["choices"]} == {mine["moves"][first][1],
                                                        other["moves"][first][1]}
    assert all(isinstance(c["value"], float) for c in decision["choices"])


def test_verify_passes_and_fails_on_a_tampered_record(client: TestClient, clock: Clock,
                                                      tmp_path: Path) -> None:
    from cardplay.dailyverify import verify_day
    from cardplay.fairness import public_keys

    finish(client, "twenty", "ann")
    finish(client, "twenty", "bob", pick=lambda legal, n: legal[-1])
    finish(client, "twenty", None)  # a guest: not listed, no record given
    clock.at += 86400
    records = client.get("/api/daily/twenty/records", params={"day": "2026-12-07"}).json()
    results = client.get("/api/daily/twenty/results", params={"day": "2026-12-07"}).json()
    keys = public_keys(json.dumps(client.get("/api/keys").json()))
    assert len(records["records"]) == 2
    for record in records["records"]:
        assert verify(record, keys).ok
    good = verify_day("2026-12-07", "twenty", records, results, keys)
    assert good.ok, good.failures
    assert sorted((s, n) for _, s, n in good.recomputed) == \
        sorted((r["score"], r["deals"]) for r in results["players"])
    # one record's moves replaced by the other's (they replay: the same cards): its
    # signature fails, and its player's listed score is no longer the one the records give
    bad = json.loads(json.dumps(records))
    bad["records"][0]["moves"] = bad["records"][1]["moves"]
    verdict = verify_day("2026-12-07", "twenty", bad, results, keys)
    codes = {c for c, _ in verdict.failures}
    assert not verdict.ok and "signature" in codes
    # (the two share 100%: only a 50-50 day leaves both scores as they were)
    assert "score" in codes or {r["score"] for r in results["players"]} == {50.0}
    # a listed score changed: the recomputed list disagrees
    tampered = json.loads(json.dumps(results))
    tampered["players"][0]["score"] += 1
    verdict = verify_day("2026-12-07", "twenty", records, tampered, keys)
    assert [c for c, _ in verdict.failures] == ["score"]
    # the command line, from a folder
    from cardplay.cli import main

    folder = tmp_path / "day"
    folder.mkdir()
    (folder / "records.json").write_text(json.dumps(records))
    (folder / "results.json").write_text(json.dumps(results))
    (folder / "keys.json").write_text(json.dumps(client.get("/api/keys").json()))
    assert main(["daily", "verify", "2026-12-07", "twenty", "--records", str(folder)]) == 0
    (folder / "records.json").write_text(json.dumps(bad))
    assert main(["daily", "verify", "2026-12-07", "twenty", "--records", str(folder)]) == 1


def test_the_month_list_averages_the_days(client: TestClient, clock: Clock) -> None:
    finish(client, "twenty", "ann")
    finish(client, "twenty", "bob", pick=lambda legal, n: legal[-1])
    first = {r["player"]: r["score"] for r in
             client.get("/api/daily/twenty/results").json()["players"]}
    assert len(first) == 2
    clock.at += 86400
    month = client.get("/api/daily/twenty/month", params={"month": "2026-12"}).json()
    assert month["month"] == "2026-12"
    assert sorted(r["score"] for r in month["players"]) == sorted(first.values())
    assert all(r["days"] == 1 for r in month["players"])


def test_postgresql_keeps_the_same_rows(tmp_path: Path, pg_url: str, clock: Clock) -> None:
    """The same flow over PostgreSQL (migration 0007): a day, attempts, 409, the list."""
    with make_client(tmp_path, database=pg_url, now=clock) as client:
        state = finish(client, "twenty", "ann")
        assert state["is_over"]
        assert client.post("/api/daily/twenty").status_code == 409
        rows = client.get("/api/daily/twenty/results").json()["players"]
        assert [(r["name"], r["deals"], r["score"]) for r in rows] == [("ann", 6, 50.0)]
        clock.at += 86400
        records = client.get("/api/daily/twenty/records", params={"day": "2026-12-07"}).json()
        assert len(records["records"]) == 1 and verify(records["records"][0]).ok


def test_an_attempt_resumes_after_a_restart_and_its_record_waits_for_midnight(
        tmp_path: Path, clock: Clock) -> None:
    with make_client(tmp_path, now=clock) as client:
        start = client.post("/api/daily/sixty-six").json()
        before = play(client, start, stop_after=2)
        assert len(before["view"]["match"]["segment_results"]) == 2
        with client.websocket_connect("/ws") as ws:
            hello(ws, start["table"], start["token"])
            ws.send_json({"type": "record"})
            assert recv(ws, "error")["code"] == "not_over"
        browser = client.cookies.get("cardplay_browser")
    with make_client(tmp_path, now=clock) as client:  # the server restarted
        client.cookies.set("cardplay_browser", browser or "")
        with client.websocket_connect("/ws") as ws:
            again = hello(ws, start["table"], start["token"])
        assert again["view"]["history"] == before["view"]["history"]
        assert again["view"]["match"]["segment_results"] == \
            before["view"]["match"]["segment_results"]
        end = play(client, start)
        assert end["is_over"] and len(end["view"]["match"]["segment_results"]) == 6
        with client.websocket_connect("/ws") as ws:
            hello(ws, start["table"], start["token"])
            ws.send_json({"type": "record"})
            assert recv(ws, "error")["code"] == "not_over"  # the day goes on
        assert client.post("/api/daily/sixty-six").status_code == 409
        clock.at += 86400
        with client.websocket_connect("/ws") as ws:
            hello(ws, start["table"], start["token"])
            ws.send_json({"type": "record"})
            record = recv(ws, "record")["record"]
        verdict = verify(record)
        assert verdict.ok and verdict.scheme == "sha256:cardplay-daily/1", verdict


def test_daily_verify_against_a_running_server(tmp_path: Path, clock: Clock,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from cardplay.cli import main

    from .conftest import LiveServer

    with make_client(tmp_path, now=clock) as client:
        finish(client, "twenty", "ann")
        finish(client, "twenty", "bob", pick=lambda legal, n: legal[-1])
        assert main(["daily", "verify", "2026-12-07", "twenty", "--server",
                     "http://127.0.0.1:1"]) == 2  # nobody answers there
    clock.at += 86400
    live = LiveServer(tmp_path, now=clock).start()  # the same data: the same key and rows
    try:
        saved = tmp_path / "saved"
        capsys.readouterr()
        assert main(["daily", "verify", "2026-12-07", "twenty", "--server", live.url,
                     "--save", str(saved)]) == 0
        out = capsys.readouterr().out
        assert "verified: all 2 records of twenty on 2026-12-07" in out
        assert out.count("% over 6 deals") == 2
        assert sorted(p.name for p in saved.iterdir()) == ["keys.json", "records.json",
                                                           "results.json"]
    finally:
        live.stop()
