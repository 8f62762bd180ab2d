"""Clocks over the protocol (issue 29, clause 5): a time control chosen at creation and checked,
each seat's time in every state, a timeout played by the seat's bot (``"timeout": true``), K
timeouts in a row or a long disconnection forfeiting the match, no clock for bots, the pause at
a deal's end, and the stored deadline surviving a restart. Clocks are shortened through the
server's own settings (:class:`ClockRules`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplay.fairness import public_keys, verify
from cardplay.server.accountseats import forfeited
from cardplay.server.clocks import DEFAULTS, ClockRules

from .conftest import create, hello, make_client, recv, until
from .test_accounts import latest, sign_up

PERSON_AND_BOT = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
FAST = ClockRules(min_move=1, deal_pause=3, away_forfeit=1.5)


def fast_client(data: Path, rules: ClockRules = FAST, **kwargs: Any) -> TestClient:
    return make_client(data, clock_rules=rules, **kwargs)


def table_count(client: TestClient) -> int:
    lists = client.get("/api/tables").json()
    return len(lists["open"]) + len(lists["playing"])


@pytest.mark.parametrize(("clock", "message"), [
    ({"move": "10", "reserve": 5}, "'clock.move' is a number of seconds"),
    ({"move": 10}, "'clock' is {\"move\": seconds, \"reserve\": seconds} or null"),
    ({"move": 10, "reserve": 5, "increment": 2},
     "'clock' is {\"move\": seconds, \"reserve\": seconds} or null"),
    ([10, 5], "'clock' is {\"move\": seconds, \"reserve\": seconds} or null"),
    ({"move": True, "reserve": 5}, "'clock.move' is a number of seconds"),
    ({"move": 0.5, "reserve": 5}, "'clock.move' is from 1 to 120 seconds"),
    ({"move": 121, "reserve": 5}, "'clock.move' is from 1 to 120 seconds"),
    ({"move": 10, "reserve": -1}, "'clock.reserve' is from 0 to 600 seconds"),
    ({"move": 10, "reserve": 601}, "'clock.reserve' is from 0 to 600 seconds"),
])
def test_a_bad_clock_is_refused_and_creates_nothing(tmp_path: Path, clock: Any,
                                                     message: str) -> None:
    with fast_client(tmp_path) as client:
        r = client.post("/api/tables", json={"game": "sixty-six", "seats": TWO_PEOPLE,
                                             "clock": clock})
        assert r.status_code == 400, r.text
        assert r.json() == {"error": "bad_clock", "message": message}
        # JSON's overflow to infinity
        r = client.post("/api/tables", headers={"Content-Type": "application/json"},
                        content='{"game": "sixty-six", "seats": [{"kind": "human"}, '
                                '{"kind": "human"}], "clock": {"move": 10, "reserve": 1e999}}')
        assert r.status_code == 400, r.text
        assert table_count(client) == 0


def test_no_clock_only_at_a_casual_table(tmp_path: Path) -> None:
    with fast_client(tmp_path) as client:
        assert sign_up(client, "Ana").status_code == 201  # a rated table needs a session
        r = client.post("/api/tables", json={"game": "sixty-six", "seats": TWO_PEOPLE,
                                             "clock": None, "rated": True})
        assert r.status_code == 400
        assert r.json() == {"error": "clock_required", "message": "a rated table needs a "
                            "clock; 'clock': null is for casual tables"}
        r = client.post("/api/tables", json={"game": "sixty-six", "clock": {"move": 5,
                                             "reserve": 0},
                                             "seats": [{"kind": "bot"}, {"kind": "bot"}]})
        assert r.status_code == 400
        assert r.json() == {"error": "bad_clock", "message": "a table of bots only has no "
                            "clock: clocks run only for people"}
        assert table_count(client) == 0
        casual = create(client, seats=TWO_PEOPLE, clock=None)
        with client.websocket_connect("/ws") as ws:
            assert "clock" not in hello(ws, casual["table"], casual["token"])


def test_defaults_per_game_and_each_seats_time(tmp_path: Path) -> None:
    with fast_client(tmp_path) as client:
        for game, (move, reserve) in (("sixty-six", (15, 60)), ("twenty", (8, 45))):
            t = create(client, game=game, seats=TWO_PEOPLE)
            with client.websocket_connect("/ws") as ws:
                waiting = hello(ws, t["table"], t["token"])
            # no clock runs while the table waits for its people: a seat free
            assert waiting["clock"]["to_move_deadline"] is None
            assert waiting["clock"]["seats"] == [move + reserve] * 2
            other = client.post(f"/api/tables/{t['table']}/join").json()
            with client.websocket_connect("/ws") as ws:
                # every seat taken, but the friend has not come to the table yet
                assert hello(ws, t["table"], t["token"])["clock"]["to_move_deadline"] is None
            with client.websocket_connect("/ws") as ws:
                state = hello(ws, t["table"], other["token"])  # both have come: it runs
            clock = state["clock"]
            assert (clock["move"], clock["reserve"]) == (move, reserve) == DEFAULTS[game]
            assert len(clock["seats"]) == 2
            for i, left in enumerate(clock["seats"]):
                if i == state["view"]["to_move"]:  # running since the hello: a moment gone
                    assert move + reserve - 1 < left <= move + reserve
                    assert clock["to_move_deadline"] == pytest.approx(
                        time.time() + left, abs=1.0)
                else:
                    assert left == move + reserve
        # one person against bots: no clock unless asked for
        solo = create(client, seats=PERSON_AND_BOT)
        with client.websocket_connect("/ws") as ws:
            assert "clock" not in hello(ws, solo["table"], solo["token"])


def my_turn(ws: Any, state: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    if state["view"]["to_move"] == seat and not state["is_over"]:
        return state
    return until(ws, lambda s: s["view"]["to_move"] == seat or s["is_over"])


def test_a_timeout_is_played_by_the_bot_and_k_of_them_forfeit(tmp_path: Path) -> None:
    with fast_client(tmp_path) as client:
        t = create(client, seats=PERSON_AND_BOT, clock={"move": 1, "reserve": 0.5})
        with client.websocket_connect("/ws") as ws:
            state = my_turn(ws, hello(ws, t["table"], t["token"]))
            assert state["clock"]["seats"][1] is None  # never a clock for a bot
            assert state["clock"]["to_move_deadline"] is not None
            assert state["clock"]["limit"] == 3
            timeouts = []
            began = time.monotonic()
            while len(timeouts) < 3:
                state = until(ws, lambda s: s["last"] is not None and s["last"]["seat"] == 0)
                assert state["last"].get("timeout") is True, state["last"]
                timeouts.append(state)
            took = time.monotonic() - began
            # the first timeout after the move and the reserve (1.5 s), the next two after a
            # move each (the reserve is spent): 3.5 s and the bots' moves
            assert 3.0 < took < 10
            first, _, third = timeouts
            assert first["clock"]["strikes"][0] == 1 and first["clock"]["forfeits"] == []
            assert third["clock"]["forfeits"] == [{"seat": 0, "reason": "timeouts",
                                                   "n": third["version"]}]
            # the seat's bot finishes the match; the person may no longer move
            table = client.app.state.hub.tables[t["table"]]  # type: ignore[attr-defined]
            assert forfeited(table) == {0}  # the one flag: Seat.forfeit
            ws.send_json({"type": "move", "move": "QH", "version": third["version"],
                          "id": "late"})
            errors = []
            for _ in range(3000):
                end = recv(ws)
                if end["type"] == "error":
                    errors.append((end["code"], end.get("reply_to")))
                elif end["is_over"]:
                    break
            assert errors == [("forfeited", "late")]
            assert end["clock"]["to_move_deadline"] is None
        record = client.get(f"/api/tables/{t['table']}/record").json()
        assert [x["n"] for x in record["clock"]["timeouts"]] == \
            [s["version"] - 1 for s in timeouts]
        assert all(x["timeout"] is True and x["seat"] == 0 for x in record["clock"]["timeouts"])
        assert [x["move"] for x in record["clock"]["timeouts"]] == \
            [s["last"]["move"] for s in timeouts]
        assert record["clock"]["forfeits"] == third["clock"]["forfeits"]
        # the clock is part of the signed record: it verifies, and a changed one does not
        keys = public_keys(client.get("/api/keys").text)
        assert verify(record, keys).ok
        forged = {**record, "clock": {**record["clock"], "timeouts": []}}
        assert verify(forged, keys).signature != "ok"


def test_a_move_in_time_resets_the_strikes_and_draws_on_the_reserve(tmp_path: Path) -> None:
    with fast_client(tmp_path) as client:
        t = create(client, seats=PERSON_AND_BOT, clock={"move": 1, "reserve": 5})
        with client.websocket_connect("/ws") as ws:
            state = my_turn(ws, hello(ws, t["table"], t["token"]))
            time.sleep(2.0)  # a second past the move's time: drawn from the reserve
            ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                          "version": state["version"]})
            after = until(ws, lambda s: s["version"] == state["version"] + 1)
            assert "timeout" not in after["last"]
            clock = client.app.state.hub.tables[t["table"]].clock  # type: ignore[attr-defined]
            assert 5 - 1.3 < clock.reserves[0] < 5 - 0.9
            assert clock.strikes == [0, 0]


def test_no_clock_runs_in_the_pause_after_a_deal(tmp_path: Path) -> None:
    rules = ClockRules(min_move=1, deal_pause=4)
    with fast_client(tmp_path, rules) as client:
        t = create(client, seats=PERSON_AND_BOT, clock={"move": 30, "reserve": 10})
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, t["table"], t["token"])
            while True:
                state = my_turn(ws, state)
                deal = state["view"]["match"]["deal_number"]
                ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                              "version": state["version"]})
                state = until(ws, lambda s, v=state["version"]: s["version"] > v)
                if state["view"]["match"]["deal_number"] != deal:
                    break
            ended = time.time()  # the deal's end, give or take the frame's trip
            state = my_turn(ws, state)
            clock = state["clock"]
            # the person's turn in the new deal: its clock starts once the pause is over
            assert clock["starts"] == pytest.approx(ended + 4, abs=0.5)
            assert clock["to_move_deadline"] == pytest.approx(clock["starts"] + 30 + 10, abs=0.01)
            assert clock["seats"][0] == 40  # nothing spent while it waits


def test_a_long_disconnection_forfeits(tmp_path: Path) -> None:
    with fast_client(tmp_path) as client:
        t = create(client, seats=TWO_PEOPLE, clock={"move": 60, "reserve": 0})
        other = client.post(f"/api/tables/{t['table']}/join").json()
        with client.websocket_connect("/ws") as ws:
            hello(ws, t["table"], t["token"])
            with client.websocket_connect("/ws") as ws1:
                hello(ws1, t["table"], other["token"])
            left = time.monotonic()
            state = until(ws, lambda s: s["clock"]["forfeits"] != [])
            assert 1.4 < time.monotonic() - left < 4
            assert state["clock"]["forfeits"] == [{"seat": 1, "reason": "away",
                                                   "n": state["version"]}]
            # the bot plays the forfeited seat from now on
            assert state["seats"][1]["bot_playing"] is True
            if state["view"]["to_move"] == 1:
                state = until(ws, lambda s: s["version"] > state["version"])
                assert state["last"]["seat"] == 1 and "timeout" not in state["last"]


def test_the_stored_deadline_survives_a_restart(tmp_path: Path) -> None:
    with fast_client(tmp_path) as client:
        t = create(client, seats=PERSON_AND_BOT, clock={"move": 4, "reserve": 0})
        with client.websocket_connect("/ws") as ws:
            state = my_turn(ws, hello(ws, t["table"], t["token"]))
        deadline = state["clock"]["to_move_deadline"]
        version = state["version"]
    assert deadline is not None
    # a new app on the same data directory
    with fast_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        again = hello(ws, t["table"], t["token"])
        assert again["version"] == version
        assert again["clock"]["to_move_deadline"] == deadline
        timed_out = until(ws, lambda s: s["version"] == version + 1)
        assert timed_out["last"] == {**timed_out["last"], "seat": 0, "timeout": True}
        # at the stored deadline, not a whole move after the restart
        assert time.time() == pytest.approx(deadline, abs=1.0)


def test_a_forfeit_is_a_rated_loss(tmp_path: Path) -> None:
    """Ana never moves: three timeouts forfeit her match, a bot finishes her seat, and her
    rating falls (and Bo's rises) whoever the bots made the winner."""
    with fast_client(tmp_path) as client:
        a, b = TestClient(client.app), TestClient(client.app)
        assert sign_up(a, "Ana").status_code == 201 and sign_up(b, "Bo").status_code == 201
        r = a.post("/api/tables", json={"game": "sixty-six", "seats": TWO_PEOPLE,
                                        "rated": True, "options": {"match_target": 1},
                                        "clock": {"move": 1, "reserve": 0}})
        assert r.status_code == 201, r.text
        t = r.json()
        j = b.post(f"/api/tables/{t['table']}/join", json={}).json()
        with a.websocket_connect("/ws") as wa, b.websocket_connect("/ws") as wb:
            hello(wa, t["table"], t["token"])
            state = hello(wb, t["table"], j["token"])
            for _ in range(3000):
                state = latest(wb, state)
                if state["is_over"]:
                    break
                if state["view"]["to_move"] == 1 and state["view"]["legal_moves"]:
                    wb.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                                  "version": state["version"]})
                else:
                    time.sleep(0.05)
            assert state["is_over"]
            assert state["clock"]["forfeits"] == [{"seat": 0, "reason": "timeouts",
                                                   "n": state["clock"]["forfeits"][0]["n"]}]
            ratings = state["ratings"]
        assert ratings[0]["after"]["rating"] < ratings[0]["before"]["rating"] == 1500
        assert ratings[1]["after"]["rating"] > ratings[1]["before"]["rating"] == 1500
        assert client.get("/api/players/Ana").json()["games"][0]["result"] == "loss"
        assert client.get("/api/players/Bo").json()["games"][0]["result"] == "win"
