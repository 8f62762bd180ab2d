"""Hints and reviews over the WebSocket: the values of the seat's own view, the review of a
finished deal as ``cardplay.review`` gives it, and refusals that change nothing (a table with
another person, a spectator, out of turn, an unfinished deal, a second request in flight)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cardplay.bots import evaluate
from cardplay.engine import derive_seed
from cardplay.review import review
from cardplay.server.botpool import HINT_LEVEL, REVIEW_LEVEL, view_from_dict
from cardplay.server.limits import Limits

from .conftest import create, hello, make_client, recv, until


def _error(ws: Any, code: str, reply_to: Any) -> dict[str, Any]:
    msg = recv(ws, "error")
    assert msg["code"] == code and msg["reply_to"] == reply_to, msg
    return msg


def test_a_hint_is_the_evaluation_of_the_seats_own_view(client: TestClient) -> None:
    t = create(client, "two-ten-jack", seed=5)
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, t["table"], t["token"])
        state = state if state["view"]["to_move"] == 0 else until(
            ws, lambda s: s["view"]["to_move"] == 0)
        ws.send_json({"type": "hint", "id": "h1"})
        hint = recv(ws, "hint")
        assert hint["reply_to"] == "h1" and hint["version"] == state["version"]
        assert set(hint["values"]) == set(state["view"]["legal_moves"])
        table = client.app.state.hub.get(t["table"])  # type: ignore[attr-defined]
        seed = derive_seed(table.stored.seed, "hint", state["version"])
        expected = evaluate(view_from_dict(state["view"]), HINT_LEVEL, seed=seed)
        assert hint["values"] == expected.values and hint["best"] == expected.best
        assert hint["exact"] is False and hint["worlds"] > 1
        # asking changed nothing
        ws.send_json({"type": "resync"})
        assert recv(ws, "state")["version"] == state["version"]


def test_a_review_of_a_finished_deal_is_the_records_review(client: TestClient) -> None:
    t = create(client, "sixty-six", seed=9)
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, t["table"], t["token"])
        ws.send_json({"type": "review", "deal": 1, "id": "r0"})
        _error(ws, "no_deal", "r0")
        while state["view"]["match"]["deal_number"] == 1:
            if state["view"]["to_move"] == 0:
                ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                              "version": state["version"]})
            state = until(ws, lambda s, v=state["version"]: s["version"] > v)
        ws.send_json({"type": "review", "deal": 1, "id": "r1"})
        got = recv(ws, "review")
        assert got["deal"] == 1 and got["reply_to"] == "r1"
        table = client.app.state.hub.get(t["table"])  # type: ignore[attr-defined]
        record = table.match.record()
        want = review(record, seats=[0], level=REVIEW_LEVEL, deals=[1])
        assert [d["index"] for d in got["decisions"]] == [d.index for d in want.decisions]
        assert [d["loss"] for d in got["decisions"]] == [d.to_dict()["loss"]
                                                         for d in want.decisions]
        assert [d["costly"] for d in got["decisions"]] == [d.costly for d in want.decisions]
        assert all(d["seat"] == 0 and d["deal"] == 1 for d in got["decisions"])
        first = table.match.deals[0]
        assert got["moves"] == [[s, first.game.move(c).text] for s, c in first.history]
        # asked again: the same answer, from the table's memory
        ws.send_json({"type": "review", "deal": 1, "id": "r2"})
        again = recv(ws, "review")
        assert again["decisions"] == got["decisions"] and again["reply_to"] == "r2"
        ws.send_json({"type": "review", "deal": 2, "id": "r3"})
        _error(ws, "no_deal", "r3")
        ws.send_json({"type": "review", "deal": "1", "id": "r4"})
        _error(ws, "malformed", "r4")


def test_no_help_with_another_person_for_a_spectator_or_out_of_turn(client: TestClient) -> None:
    two = create(client, "sixty-six", seats=[{"kind": "human"}, {"kind": "human"}])
    other = client.post(f"/api/tables/{two['table']}/join").json()
    with client.websocket_connect("/ws") as ws:
        hello(ws, two["table"], two["token"])
        ws.send_json({"type": "hint", "id": 1})
        _error(ws, "no_help", 1)
        ws.send_json({"type": "review", "deal": 1, "id": 2})
        _error(ws, "no_help", 2)
    with client.websocket_connect("/ws") as ws:
        hello(ws, two["table"], other["token"])
        ws.send_json({"type": "hint", "id": 3})
        _error(ws, "no_help", 3)
    alone = create(client, "sixty-six", seed=4)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "watch", "table": alone["table"]})
        recv(ws, "welcome")
        recv(ws, "state")
        ws.send_json({"type": "hint", "id": 4})
        _error(ws, "not_seated", 4)


def test_no_hint_on_the_bots_turn(tmp_path: Path) -> None:
    # the bot waits 5 s before it moves, so its turn lasts while the hint is asked
    with make_client(tmp_path, bot_delay=5.0) as slow:
        for seed in range(20):
            t = create(slow, "sixty-six", seed=seed)
            with slow.websocket_connect("/ws") as ws:
                state = hello(ws, t["table"], t["token"])
                if state["view"]["to_move"] != 1:
                    continue
                ws.send_json({"type": "hint", "id": 5})
                _error(ws, "out_of_turn", 5)
                return
    raise AssertionError("no seed of 20 gave the bot the first lead")


def test_one_request_at_a_time_per_table_and_a_cap_in_all(tmp_path: Path) -> None:
    with make_client(tmp_path, limits=Limits(max_coaching=1)) as c:
        a = create(c, "maltese-twenty", seed=2)
        b = create(c, "maltese-twenty", seed=3)
        with c.websocket_connect("/ws") as one, c.websocket_connect("/ws") as two, \
                c.websocket_connect("/ws") as other:
            # two sockets of one seat, and another table
            states = [hello(one, a["table"], a["token"]), hello(two, a["table"], a["token"])]
            state_b = hello(other, b["table"], b["token"])
            assert states[0]["view"]["to_move"] == 0 and state_b["view"]["to_move"] == 0
            recv(one, "state")  # the second socket's arrival
            one.send_json({"type": "hint", "id": 1})
            two.send_json({"type": "hint", "id": 2})
            _error(two, "busy", 2)  # the same table is being helped already
            other.send_json({"type": "hint", "id": 3})
            _error(other, "busy", 3)  # and the one computation allowed in all is taken
            assert recv(one, "hint")["reply_to"] == 1
            other.send_json({"type": "hint", "id": 4})
            assert recv(other, "hint")["reply_to"] == 4
