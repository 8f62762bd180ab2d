"""Bounded tables (issue 30, defect 5): how long a match with people may be, the moves a table
with people stores, the moves one client may send, and a start that replays no table with
people until someone opens it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardplay.server.limits import Limits

from .conftest import create, hello, make_client, recv, until

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]


def reply(ws: Any, mid: str) -> dict[str, Any]:
    for _ in range(50):
        msg = recv(ws)
        if msg.get("reply_to") == mid:
            return msg
    raise AssertionError(f"no answer to {mid}")


def test_a_match_with_people_longer_than_the_server_plays_is_refused(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"game": "twenty", "options": {"target": 10000},
                                             "seats": TWO_PEOPLE})
        assert r.status_code == 400
        assert r.json()["message"] == ("twenty: option target=10000 makes a longer match than "
                                     "this server plays with people; it takes at most 500 here")
        assert client.post("/api/tables", json={"game": "twenty", "options": {"target": 500},
                                                "seats": TWO_PEOPLE}).status_code == 201
        r = client.post("/api/tables", json={"game": "sixty-six",
                                             "options": {"match_target": 22},
                                             "seats": [{"kind": "human"},
                                                       {"kind": "bot", "level": "random"}]})
        assert r.status_code == 400 and "at most 21" in r.json()["message"]
        # the caps are declared with the options
        games = {g["name"]: g for g in client.get("/api/games").json()}
        twenty = {o["name"]: o for o in games["twenty"]["options"]}
        assert twenty["target"]["server_max"] == 500 and twenty["target"]["max"] == 10000
        assert twenty["max_hands"]["server_max"] == 200
        assert twenty["tie_policy"]["server_max"] is None
        # nothing was created by the refusals: one table in all, the one accepted
        assert client.app.state.storage.count(("open", "playing")) == 1  # type: ignore


def test_a_table_with_people_stops_at_its_move_cap(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(table_moves=4)) as client:
        t = create(client, "two-ten-jack", TWO_PEOPLE)
        other = client.post(f"/api/tables/{t['table']}/join").json()["token"]
        with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
            socks = {0: w0, 1: w1}
            states = {0: hello(w0, t["table"], t["token"]), 1: hello(w1, t["table"], other)}
            # seat 1's hello brought the last part of the shuffle: seat 0 is sent the deal
            assert states[0]["waiting"] is True and states[1]["view"] is not None
            states[0] = until(w0, lambda m: m["view"] is not None)
            for n in range(4):
                seat = states[0]["view"]["to_move"]
                socks[seat].send_json({"type": "move", "version": n, "id": f"m{n}",
                                       "move": states[seat]["view"]["legal_moves"][0]})
                ack = reply(socks[seat], f"m{n}")
                assert ack["version"] == n + 1
                states = {seat: ack, 1 - seat: until(socks[1 - seat],
                                                     lambda m, v=n + 1: m["version"] == v)}
            # the table stopped after the fourth move: every seat is told so
            states = {s: until(socks[s], lambda m: "stopped" in m) for s in (0, 1)}
            stopped = states[0]
            assert stopped["version"] == 4 and not stopped["is_over"]
            assert stopped["stopped"] == "a table with people stops after 4 moves (this " \
                                         "server's limit)"
            seat = stopped["view"]["to_move"]
            socks[seat].send_json({"type": "move", "version": 4, "id": "late",
                                   "move": states[seat]["view"]["legal_moves"][0]})
            late = reply(socks[seat], "late")
            assert late["type"] == "error" and late["code"] == "over"
            assert late["message"] == stopped["stopped"]
        storage = client.app.state.storage  # type: ignore[attr-defined]
        assert storage.move_count(t["table"]) == 4
        assert storage.load(t["table"]).status == "stopped"


def test_moves_are_rate_limited_per_client(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(move_rate=3)) as client:
        t = create(client, "sixty-six", [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                   seed=4)
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, t["table"], t["token"])
            sent = 0
            while sent < 3:
                if state["view"]["to_move"] != 0:
                    state = until(ws, lambda s: s["view"]["to_move"] == 0 or s["is_over"])
                    continue
                ws.send_json({"type": "move", "version": state["version"], "id": sent,
                              "move": state["view"]["legal_moves"][0]})
                state = reply(ws, sent)
                assert state["type"] == "state"
                sent += 1
            if state["view"]["to_move"] != 0:
                state = until(ws, lambda s: s["view"]["to_move"] == 0)
            ws.send_json({"type": "move", "version": state["version"], "id": "fast",
                          "move": state["view"]["legal_moves"][0]})
            refused = reply(ws, "fast")
            assert refused["type"] == "error" and refused["code"] == "rate"
            assert refused["message"].startswith("too many moves from this client: at most 3 "
                                                 "a minute; try again in ")
            hub = client.app.state.hub  # type: ignore[attr-defined]
            assert hub.tables[t["table"]].version == state["version"]  # nothing changed


def test_a_start_replays_only_the_tables_of_bots_and_the_rest_on_first_use(
        tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        people = create(client, "sixty-six", seed=3)  # a person and a bot
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, people["table"], people["token"])
            for _ in range(2):
                if state["view"]["to_move"] != 0:
                    state = until(ws, lambda s: s["view"]["to_move"] == 0)
                ws.send_json({"type": "move", "version": state["version"],
                              "move": state["view"]["legal_moves"][0]})
                state = until(ws, lambda s, v=state["version"]: s["version"] == v + 1)
        bots = create(client, "sixty-six", [{"kind": "bot", "level": "random"}] * 2,
                      options={"match_target": 100})
    with make_client(tmp_path, limits=Limits(bot_table_moves=3)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert set(hub.tables) == {bots["table"]}  # the table with people was not replayed
        played = hub.storage.move_count(people["table"])
        assert played >= 2
        lobby = client.get("/api/tables").json()
        listed = {t["id"]: t for t in lobby["playing"]}
        assert listed[people["table"]]["version"] == played  # listed from its row
        assert people["table"] not in hub.tables
        with client.websocket_connect("/ws") as ws:
            again = hello(ws, people["table"], people["token"])  # replayed now
            assert again["version"] == played
        assert people["table"] in hub.tables
