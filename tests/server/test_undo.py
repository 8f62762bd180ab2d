"""Undo against bots over the WebSocket: the person's last move and the bots' answers taken back
(the version and the stored moves go back), the same answers when the same card is played
again, a record that still verifies, and refusals that change nothing (a table with another
person, a clock, a rated table, a stale version, a spectator, nothing of the deal to take back,
a finished match)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cardplay import cli
from cardplay.fairness import public_keys, verify

from .conftest import create, hello, make_client, recv, until

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
MINE = "0123456789abcdef0123456789abcdef"


def _moves(client: TestClient, table: str) -> list[tuple[int, str]]:
    """The moves as stored (not as held in memory)."""
    return client.app.state.storage.moves_after(table, 0)  # type: ignore[attr-defined,no-any-return]


def _my_turn(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    return state if state["view"]["to_move"] == 0 else until(
        ws, lambda s: s["view"]["to_move"] == 0)


def _error(ws: Any, code: str, reply_to: Any) -> dict[str, Any]:
    msg = recv(ws, "error")
    assert (msg["code"], msg.get("reply_to")) == (code, reply_to), msg
    return msg


def test_undo_takes_back_the_move_and_the_bots_answers_and_they_answer_the_same_again(
        client: TestClient) -> None:
    # three seats: two bots answer each card
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"},
             {"kind": "bot", "level": "heuristic"}]
    t = create(client, "banchok", seats=seats, seed=11)
    with client.websocket_connect("/ws") as ws:
        before = _my_turn(ws, hello(ws, t["table"], t["token"]))
        v0 = before["version"]
        stored0 = _moves(client, t["table"])
        card = before["view"]["legal_moves"][-1]
        ws.send_json({"type": "move", "move": card, "version": v0})
        after = until(ws, lambda s: s["version"] > v0 and s["view"]["to_move"] == 0)
        answered = _moves(client, t["table"])
        assert answered[:v0 + 1] == [*stored0, (0, card)] and len(answered) > v0 + 1
        assert after["undo"] is True and after["view"]["match"]["deal_number"] == 1
        ws.send_json({"type": "undo", "version": after["version"], "id": "u1"})
        back = recv(ws, "state")
        assert back["reply_to"] == "u1" and back["version"] == v0
        assert back["view"]["hand"] == before["view"]["hand"]
        assert back["view"]["legal_moves"] == before["view"]["legal_moves"]
        assert back["view"]["history"] == before["view"]["history"]
        assert _moves(client, t["table"]) == stored0  # deleted from the store
        table = client.app.state.hub.get(t["table"])  # type: ignore[attr-defined]
        assert table.version == v0 and table.stored.moves == stored0
        # the same card again: the same answers, decided anew from the same states
        ws.send_json({"type": "move", "move": card, "version": v0})
        until(ws, lambda s: s["version"] == len(answered) and s["view"]["to_move"] == 0)
        assert _moves(client, t["table"]) == answered


def test_an_undone_table_restarts_at_the_undone_version(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        t = create(client, "sixty-six", seed=4)
        with client.websocket_connect("/ws") as ws:
            state = _my_turn(ws, hello(ws, t["table"], t["token"]))
            v0 = state["version"]
            ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                          "version": v0})
            state = until(ws, lambda s: s["version"] > v0 and s["view"]["to_move"] == 0)
            ws.send_json({"type": "undo", "version": state["version"]})
            assert recv(ws, "state")["version"] == v0
            kept = _moves(client, t["table"])
    with make_client(tmp_path) as again, again.websocket_connect("/ws") as ws:
        state = hello(ws, t["table"], t["token"])
        assert state["version"] == v0 == len(kept)
        assert state.get("undo", False) is any(s == 0 for s, _ in kept)


def test_a_record_with_an_undo_replays_and_verifies(client: TestClient, tmp_path: Path) -> None:
    t = create(client, "sixty-six", options={"match_target": 1}, contribution=MINE)
    with client.websocket_connect("/ws") as ws:
        state = _my_turn(ws, hello(ws, t["table"], t["token"]))
        # the deal is drawn anew each run (the seed is committed with our contribution): when
        # the bot has closed the talon at once, our first answer can be forced; play on to a
        # turn with a choice, or there is no other card to play after the undo
        while len(state["view"]["legal_moves"]) < 2:
            forced = state["version"]
            ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                          "version": forced})
            state = until(ws, lambda s, v=forced: s["version"] > v and s["view"]["to_move"] == 0)
        v0 = state["version"]
        first = state["view"]["legal_moves"][0]
        ws.send_json({"type": "move", "move": first, "version": v0})
        state = until(ws, lambda s: s["version"] > v0 and s["view"]["to_move"] == 0)
        ws.send_json({"type": "undo", "version": state["version"]})
        state = recv(ws, "state")
        assert state["version"] == v0
        # another card this time, then the match to its end
        other = state["view"]["legal_moves"][-1]
        assert other != first
        ws.send_json({"type": "move", "move": other, "version": v0})
        last = v0
        while True:
            state = until(ws, lambda s, v=last: s["version"] > v and (
                s["is_over"] or s["view"]["to_move"] == 0))
            if state["is_over"]:
                break
            last = state["version"]
            ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                          "version": last})
        ws.send_json({"type": "undo", "version": state["version"], "id": 3})
        _error(ws, "over", 3)
    record = client.get(f"/api/tables/{t['table']}/record").json()
    assert record["moves"][v0] == other and first not in record["moves"][v0:v0 + 1]
    keys_text = client.get("/api/keys").text
    v = verify(record, public_keys(keys_text))
    assert (v.ok, v.signature, v.finished) == (True, "ok", True)
    (tmp_path / "r.json").write_text(json.dumps(record))
    (tmp_path / "keys.json").write_text(keys_text)
    assert cli.main(["verify", str(tmp_path / "r.json"), "--key",
                     str(tmp_path / "keys.json")]) == 0


def _refused_everywhere(client: TestClient, t: dict[str, Any], code: str) -> None:
    """An undo at this table after the person's move is refused with ``code``; nothing
    changed (the version and the stored moves)."""
    with client.websocket_connect("/ws") as ws:
        state = _my_turn(ws, hello(ws, t["table"], t["token"]))
        ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                      "version": state["version"]})
        # until a person is to move (no bot's move can come in between)
        state = until(ws, lambda s, v=state["version"]: s["version"] > v and s["seats"][
            s["view"]["to_move"]]["kind"] == "human")
        assert "undo" not in state
        stored = _moves(client, t["table"])
        ws.send_json({"type": "undo", "version": state["version"], "id": "x"})
        _error(ws, code, "x")
        ws.send_json({"type": "resync"})
        assert recv(ws, "state")["version"] == state["version"]
        assert _moves(client, t["table"]) == stored


def test_no_undo_at_a_table_with_another_person(client: TestClient) -> None:
    t = create(client, "sixty-six", seats=TWO_PEOPLE)
    other = client.post(f"/api/tables/{t['table']}/join", json={"name": "Bea"}).json()
    with client.websocket_connect("/ws") as second:
        hello(second, t["table"], other["token"])
        _refused_everywhere(client, t, "no_undo")


def test_no_undo_at_a_table_with_a_clock(client: TestClient) -> None:
    t = create(client, "sixty-six", clock={"move": 60, "reserve": 300})
    _refused_everywhere(client, t, "no_undo")


def test_no_undo_at_a_rated_table(client: TestClient) -> None:
    t = create(client, "sixty-six")
    # a rated table seats people only; marked rated here to show the check alone
    client.app.state.hub.get(t["table"]).stored.rated = True  # type: ignore[attr-defined]
    _refused_everywhere(client, t, "no_undo")


def test_undo_refusals_change_nothing(client: TestClient) -> None:
    t = create(client, "sixty-six", seed=8)
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, t["table"], t["token"])
        start = _moves(client, t["table"])
        if not any(s == 0 for s, _ in start):  # no move of the person's yet
            assert "undo" not in state
            ws.send_json({"type": "undo", "version": state["version"], "id": 1})
            _error(ws, "nothing_to_undo", 1)
        state = _my_turn(ws, state)
        v0 = state["version"]
        ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0], "version": v0})
        state = until(ws, lambda s: s["version"] > v0 and s["view"]["to_move"] == 0)
        kept = _moves(client, t["table"])
        for bad, code in (({"version": state["version"] - 1}, "stale"),
                          ({"version": "1"}, "malformed"), ({}, "malformed")):
            ws.send_json({"type": "undo", "id": code, **bad})
            _error(ws, code, code)
            if code == "stale":  # a state follows a stale refusal
                assert recv(ws, "state")["version"] == state["version"]
        assert _moves(client, t["table"]) == kept
        # a spectator may not
        with client.websocket_connect("/ws") as spectator:
            spectator.send_json({"type": "watch", "table": t["table"]})
            recv(spectator, "welcome")
            assert "undo" not in recv(spectator, "state")
            spectator.send_json({"type": "undo", "version": state["version"], "id": 2})
            _error(spectator, "not_seated", 2)
        # undo back to the deal's first move of the person's, then nothing is left
        while True:
            ws.send_json({"type": "undo", "version": state["version"], "id": "again"})
            msg = recv(ws)
            if msg["type"] == "error":
                assert msg["code"] == "nothing_to_undo"
                break
            assert msg["version"] < state["version"]
            state = msg
        assert all(s != 0 for s, _ in _moves(client, t["table"]))
        assert "undo" not in state


def test_no_undo_past_the_end_of_a_deal(client: TestClient) -> None:
    t = create(client, "sixty-six", seed=3)
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, t["table"], t["token"])
        while state["view"]["match"]["deal_number"] == 1:
            if state["view"]["to_move"] == 0:
                ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                              "version": state["version"]})
            state = until(ws, lambda s, v=state["version"]: s["version"] > v)
        # the first state of deal 2: the person has made no move in it yet
        assert "undo" not in state
        kept = _moves(client, t["table"])
        assert any(s == 0 for s, _ in kept)  # their moves of deal 1 are there, out of reach
        ws.send_json({"type": "undo", "version": state["version"], "id": "d"})
        _error(ws, "nothing_to_undo", "d")
        assert _moves(client, t["table"]) == kept
