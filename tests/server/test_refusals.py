"""The server says why a move is refused, in the game's own rule (issue 32, clause 3): the state
sent to the seat on its turn carries, for each card of its hand that no legal move plays, the
rule's sentence in every language, and an illegal move's error frame names the rule."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .conftest import create, hello, recv, until


def my_turn(state: dict[str, Any]) -> bool:
    return state["view"] is not None and state["view"]["to_move"] == state["seat"]


def test_refusals_come_with_the_seat_s_turn_and_the_error_names_the_rule(
        client: TestClient) -> None:
    t = create(client, game="twenty", seed=5)
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, t["table"], t["token"])
        if not my_turn(state):
            state = until(ws, my_turn)
        view = state["view"]
        playable = {c for mv in view["legal_moves"] for c in mv.split("+")}
        refused = state["refusals"]
        assert set(refused) == {c for c in view["hand"] if c not in playable}
        card = sorted(refused)[0]
        reason = refused[card]
        assert reason["name"] == "too_much"
        assert reason["text"]["en"].startswith("Laying ")
        assert "more than the move number" in reason["text"]["en"]
        assert "номера хода" in reason["text"]["ru"]
        assert "Zugnummer" in reason["text"]["de"]
        ws.send_json({"type": "move", "move": card, "version": state["version"]})
        err = recv(ws, "error")
        assert err["code"] == "illegal"
        assert err["reason"] == reason  # the same rule, the same words


def test_no_refusals_while_another_seat_is_to_move(client: TestClient) -> None:
    t = create(client, game="two-ten-jack", seed=3)
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, t["table"], t["token"])
        # the random bot led 2♣ (its decisions are seeded by the move number): follow suit
        assert my_turn(state) and set(state["refusals"]) == {"2S", "5S", "JH"}
        assert {r["name"] for r in state["refusals"].values()} == {"follow_suit"}
        for n in range(40):
            if not my_turn(state):
                break
            ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                          "version": state["version"], "id": n})
            state = until(ws, lambda s, n=n: s.get("reply_to") == n)
        assert not my_turn(state)
        assert "refusals" not in state
