"""Tutorial tables over HTTP and the WebSocket: a lesson opens an unlisted, unrated, unclocked
table with bots, whose bots play the lesson's script while the learner follows it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from cardplay import tutorials

from .conftest import hello, recv


def _next_state(ws: Any) -> dict[str, Any]:
    while True:
        msg = recv(ws)
        if msg["type"] == "state":
            return msg
        assert msg["type"] != "error", msg


def test_the_lessons_are_listed_and_sent_without_the_bots_moves(client: TestClient) -> None:
    assert client.get("/api/tutorials").json() == {"tutorials": list(tutorials.GAMES)}
    lesson = client.get("/api/tutorials/sixty-six").json()
    assert lesson == tutorials.lesson(tutorials.tutorial("sixty-six"))
    assert lesson["steps"][2]["move"] == "QC=40"
    missing = client.get("/api/tutorials/poker")
    assert missing.status_code == 404
    assert missing.json()["error"] == "no_tutorial"


def test_bad_requests_for_a_lesson_change_nothing(client: TestClient) -> None:
    before = client.get("/api/tables").json()
    r = client.post("/api/tutorials/sixty-six", json={"seed": 3})
    assert (r.status_code, r.json()["error"]) == (400, "bad_request")
    assert "'seed'" in r.json()["message"]
    r = client.post("/api/tutorials/poker")
    assert (r.status_code, r.json()["error"]) == (404, "no_tutorial")
    r = client.post("/api/tutorials/sixty-six", json={"name": "x" * 41})
    assert (r.status_code, r.json()["error"]) == (400, "bad_request")
    r = client.post("/api/tutorials/sixty-six", content=b"name=x",
                    headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    assert client.get("/api/tables").json() == before


def test_a_lesson_table_follows_the_script_to_the_scripted_result(client: TestClient) -> None:
    tut = tutorials.tutorial("sixty-six")
    r = client.post("/api/tutorials/sixty-six", json={"name": "Ann"})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["seat"] == tut.learner and made["seed_source"] == "operator"
    assert made["lesson"]["game"] == "sixty-six"
    summary = client.get(f"/api/tables/{made['table']}").json()
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot"]
    # unlisted: no lobby list shows it
    lists = client.get("/api/tables").json()
    assert made["table"] not in {t["id"] for t in lists["open"] + lists["playing"]}
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, made["table"], made["token"])
        assert state["view"]["hand"] == ["QS", "9H", "TH", "QH", "9C", "QC"]
        steps = [s["move"] for s in made["lesson"]["steps"]]
        while steps:
            view = state["view"]
            if view["to_move"] == tut.learner and view["match"]["deal_number"] == 1:
                ws.send_json({"type": "move", "move": steps.pop(0), "version": state["version"]})
            state = _next_state(ws)
        while state["view"]["match"]["deal_number"] == 1:
            state = _next_state(ws)
        played = [[t.seat, t.move] for t in tut.script]
        assert state["previous"]["history"] == played
        assert state["view"]["match"]["results"] == [list(tut.result)]


def test_off_the_script_the_bots_play_as_themselves(client: TestClient) -> None:
    made = client.post("/api/tutorials/sixty-six").json()
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, made["table"], made["token"])
        ws.send_json({"type": "move", "move": "TH", "version": state["version"]})  # not 9H
        state = _next_state(ws)
        while state["view"]["to_move"] != 0:
            state = _next_state(ws)
        # the bot answered from its own hand (cardplay.tutorials.scripted_move gives nothing
        # off the script: tests/test_tutorials.py) and the deal goes on
        history = state["view"]["history"]
        assert history[0] == [0, "TH"] and history[1][0] == 1
        assert history[1][1] in {"9D", "QD", "KD", "AD", "TC", "AC"}
        assert state["view"]["legal_moves"]
