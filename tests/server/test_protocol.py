"""The whole WebSocket protocol through FastAPI's TestClient: every message type, every error,
reconnection, spectators, away seats held by a bot, two clients racing for one move, restarts."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardplay
from cardplay.server.protocol import ERROR_CODES

from .conftest import create, hello, make_client, recv, until

CARD = __import__("re").compile(r"\b[2-9TJQKA][SHDC]\b")


def two_people(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table of two people, both seats taken with their parts of the shuffle (as the
    browser sends them), so it is dealt at once."""
    t = create(client, seats=[{"kind": "human"}, {"kind": "human"}], contribution="a" * 32)
    other = client.post(f"/api/tables/{t['table']}/join", json={"contribution": "b" * 32})
    assert other.status_code == 200, other.text
    return t, other.json()


def cards_in(obj: Any) -> set[str]:
    return set(CARD.findall(json.dumps(obj)))


def expect_error(ws: Any, message: dict[str, Any] | str | bytes, code: str) -> dict[str, Any]:
    """Send a bad message; the answer is an error with ``code``, and nothing else follows it
    (a ping after it is answered next, so no state was sent in between)."""
    if isinstance(message, dict):
        ws.send_json({"id": "e", **message})
    elif isinstance(message, bytes):
        ws.send_bytes(message)
    else:
        ws.send_text(message)
    err = recv(ws, "error")
    assert err["code"] == code, err
    assert err["code"] in ERROR_CODES and err["message"]
    if code == "stale":
        recv(ws, "state")  # a stale move is answered with a fresh state
    ws.send_json({"type": "ping", "id": "p"})
    assert recv(ws, "pong")["reply_to"] == "p"
    return err


# ---- HTTP: the lobby


def test_games_catalog(client: TestClient) -> None:
    games = client.get("/api/games").json()
    names = [g["name"] for g in games]
    assert names == cardplay.games()
    six = next(g for g in games if g["name"] == "sixty-six")
    assert six["title"]["ru"] and six["min_players"] == 2
    assert "random" in six["levels"]
    target = next(o for o in six["options"] if o["name"] == "match_target")
    assert target["default"] == 7 and target["min"] == 1
    preset = next(o for o in six["options"] if o["name"] == "preset")
    assert preset["choices"] == ["sixty-six", "schnapsen"]


def test_each_level_says_how_often_it_beats_the_one_below(client: TestClient) -> None:
    """Issue 33's strength table for players: every adjacent pair of the levels a game offers
    was measured in the arena (bots/strength.py), lowest first, with its interval."""
    for g in client.get("/api/games").json():
        levels = g["levels"]
        assert [(s["level"], s["below"]) for s in g["strength"]] == \
            list(zip(levels[1:], levels[:-1])), g["name"]
        for s in g["strength"]:
            assert s["low"] <= s["share"] <= s["high"], s
            seats = round(1 / s["fair"])  # the fair share of an n-seat game is 1/n
            assert s["fair"] == pytest.approx(1 / seats, abs=1e-3)
            assert g["min_players"] <= seats <= g["max_players"]
            assert s["deals"] >= 100


@pytest.mark.parametrize("body, fragment", [
    ({"game": "poker", "seats": []}, "unknown game"),
    ({"game": "sixty-six", "options": {"match_target": 0}, "seats": [{"kind": "human"}] * 2},
     "match_target"),
    ({"game": "sixty-six", "options": {"colour": 1}, "seats": [{"kind": "human"}] * 2},
     "unknown option"),
    ({"game": "sixty-six", "seats": [{"kind": "human"}]}, "2 seats"),
    ({"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "bot", "level": "genius"}]},
     "level"),
    ({"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "alien"}]}, "kind"),
    ({"game": "sixty-six", "seats": "two"}, "list"),
    ({"game": "sixty-six", "seats": [{"kind": "human"}] * 2, "seed": "x"}, "seed"),
    ({"game": 7, "seats": []}, "game"),
    ([1, 2], "JSON object"),
])
def test_create_table_rejects(client: TestClient, body: Any, fragment: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert fragment in r.json()["message"]


def test_create_join_and_lobby(client: TestClient) -> None:
    t = create(client, "twenty", [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}],
               options={"players": 3}, name="Ann")
    assert t["seat"] == 0 and t["token"] and t["invite"] == f"/join/{t['table']}"
    lobby = client.get("/api/tables").json()
    assert [x["id"] for x in lobby["open"]] == [t["table"]]
    assert lobby["open"][0]["open_seats"] == [1]
    joined = client.post(f"/api/tables/{t['table']}/join", json={"name": "Bob"}).json()
    assert joined["seat"] == 1 and joined["token"] != t["token"]
    lobby = client.get("/api/tables").json()
    assert lobby["open"] == [] and [x["id"] for x in lobby["playing"]] == [t["table"]]
    assert [s["name"] for s in lobby["playing"][0]["seats"][:2]] == ["Ann", "Bob"]
    full = client.post(f"/api/tables/{t['table']}/join")
    assert full.status_code == 409 and "watch" in full.json()["message"]
    assert client.post("/api/tables/nope/join").status_code == 404
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get(f"/api/tables/{t['table']}").json()["players"] == 3
    assert client.get(f"/api/tables/{t['table']}/record").status_code == 409


def test_pages_and_static(client: TestClient) -> None:
    for path in ("/", "/t/abc", "/join/abc", "/watch/abc", "/signin", "/signup", "/account",
                 "/players/Ana", "/leaderboard/sixty-six"):
        r = client.get(path)
        assert r.status_code == 200 and "<html" in r.text.lower()
    # the browser's scripts are ES modules: a browser runs them only with a JavaScript type
    for name in ("app.js", "common.js", "texts.js", "table.js", "coach.js", "accounts.js"):
        r = client.get("/static/" + name)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert '<script type="module" src="/static/app.js">' in client.get("/").text
    assert client.get("/static/cards/2c/QH.svg").headers["content-type"].startswith("image/svg")
    assert client.get("/static/cards/4c/QD.svg").status_code == 200
    assert "CC0" in client.get("/static/cards/CREDITS.md").text


# ---- the WebSocket protocol


def test_play_now_against_a_bot(client: TestClient) -> None:
    t = create(client, seed=11)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": t["table"], "token": t["token"], "id": 1})
        welcome = recv(ws, "welcome")
        assert welcome["reply_to"] == 1 and welcome["seat"] == 0 and welcome["players"] == 2
        state = recv(ws, "state")
        assert state["version"] == 0 and state["seat"] == 0 and state["full"]
        view = state["view"]
        assert len(view["hand"]) == 6 and view["seat"] == 0
        assert state["seats"][1]["kind"] == "bot" and state["seats"][0]["connected"]
        moves = 0
        while moves < 8:
            if state["view"]["to_move"] == 0:
                move = state["view"]["legal_moves"][0]
                ws.send_json({"type": "move", "move": move, "version": state["version"],
                              "id": moves})
                want = state["version"] + 1
                ack = until(ws, lambda s, want=want: s["version"] == want)
                assert ack["reply_to"] == moves and ack["last"] == {"seat": 0, "move": move}
                state = ack
                moves += 1
            else:
                state = recv(ws, "state")  # the bot's move
                assert state["last"]["seat"] == 1
    # every acknowledged move is stored
    db = sqlite3.connect(Path(client.app.state.storage.path))  # type: ignore[attr-defined]
    assert db.execute("SELECT COUNT(*) FROM moves").fetchone()[0] >= state["version"]
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_every_error_changes_nothing(client: TestClient) -> None:
    t, other = two_people(client)
    with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as ws1:
        expect_error(ws, {"type": "move", "move": "QH", "version": 0}, "not_joined")
        expect_error(ws, {"type": "resync"}, "not_joined")
        expect_error(ws, {"type": "record"}, "not_joined")
        expect_error(ws, "not json", "malformed")
        expect_error(ws, "[1, 2]", "malformed")
        expect_error(ws, {"move": "QH"}, "malformed")
        expect_error(ws, {"type": "shout"}, "unknown_type")
        expect_error(ws, {"type": "hello", "table": t["table"]}, "malformed")
        expect_error(ws, {"type": "move", "move": "QH", "version": "0"}, "malformed")
        expect_error(ws, {"type": "move", "move": "QH", "version": True}, "malformed")
        expect_error(ws, {"type": "move", "move": ["QH"], "version": 0}, "malformed")
        expect_error(ws, {"type": "ping", "id": [1]}, "malformed")
        expect_error(ws, b"\x00\x01", "malformed")
        expect_error(ws, json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large")
        expect_error(ws, {"type": "hello", "table": "nope", "token": "x"}, "no_table")
        expect_error(ws, {"type": "watch", "table": "nope"}, "no_table")
        expect_error(ws, {"type": "hello", "table": t["table"], "token": "x"}, "bad_token")
        expect_error(ws, {"type": "hello", "table": t["table"], "token": other["token"] + "x"},
                     "bad_token")
        s0 = hello(ws, t["table"], t["token"])
        s1 = hello(ws1, t["table"], other["token"])
        recv(ws, "state")  # seat 1 arrived
        expect_error(ws, {"type": "hello", "table": t["table"], "token": t["token"]},
                     "already_joined")
        expect_error(ws, {"type": "watch", "table": t["table"]}, "already_joined")
        v = s0["version"]
        assert v == 0
        (mover, mine), waiter = ((ws, s0), ws1) if s0["view"]["to_move"] == 0 else \
            ((ws1, s1), ws)
        legal = mine["view"]["legal_moves"]
        expect_error(waiter, {"type": "move", "move": legal[0], "version": v}, "out_of_turn")
        expect_error(mover, {"type": "move", "move": "KH=30", "version": v}, "invalid")
        expect_error(mover, {"type": "move", "move": "buy", "version": v}, "invalid")
        expect_error(mover, {"type": "move", "move": "exchange", "version": v}, "illegal")
        absent = next(c for c in cardplay.load("sixty-six").deal(seed=1).deck
                      if c not in mine["view"]["hand"])
        expect_error(mover, {"type": "move", "move": absent, "version": v}, "illegal")
        expect_error(mover, {"type": "move", "move": legal[0], "version": v + 1}, "stale")
        expect_error(mover, {"type": "move", "move": legal[0], "version": v - 1}, "stale")
        expect_error(mover, {"type": "record"}, "not_over")
        mover.send_json({"type": "resync", "id": "r"})
        again = recv(mover, "state")
        assert again["version"] == v and again["full"] and again["reply_to"] == "r"
        assert again["view"] == mine["view"]
        with client.websocket_connect("/ws") as spy:
            spy.send_json({"type": "watch", "table": t["table"]})
            recv(spy, "welcome")
            recv(spy, "state")
            expect_error(spy, {"type": "move", "move": legal[0], "version": v}, "not_seated")
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.get(t["table"]).version == 0 and hub.storage.move_count(t["table"]) == 0


def test_over_and_record(client: TestClient) -> None:
    t = create(client, seed=8, options={"match_target": 1})
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, t["table"], t["token"])
        while not state["is_over"]:
            if state["view"]["to_move"] == 0:
                ws.send_json({"type": "move", "move": state["view"]["legal_moves"][-1],
                              "version": state["version"]})
            state = recv(ws, "state")
            if state.get("previous") is not None:
                assert state["previous"]["is_over"] and state["previous"]["result"] is not None
        assert state["winners"] and state["view"]["match"]["is_over"]
        expect_error(ws, {"type": "move", "move": "QH", "version": state["version"]}, "over")
        ws.send_json({"type": "record", "id": 9})
        rec = recv(ws, "record")
        assert rec["reply_to"] == 9 and rec["record"]["game"] == "sixty-six"
    again = cardplay.replay(rec["record"])
    assert isinstance(again, cardplay.Match) and again.is_over
    assert again.scores == state["view"]["match"]["scores"]
    r = client.get(f"/api/tables/{t['table']}/record")
    assert r.status_code == 200 and r.json() == rec["record"]
    assert "attachment" in r.headers["content-disposition"]


def test_spectator_sees_no_private_card(client: TestClient) -> None:
    t = create(client, "two-ten-jack", seed=5)
    with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as spy:
        state = hello(ws, t["table"], t["token"])
        spy.send_json({"type": "watch", "table": t["table"], "id": "w"})
        assert recv(spy, "welcome")["seat"] is None
        seen = recv(spy, "state")
        assert seen["seat"] is None and seen["view"]["hand"] == []
        assert seen["view"]["legal_moves"] == []
        hub = client.app.state.hub  # type: ignore[attr-defined]
        match = hub.get(t["table"]).match
        hidden = {str(c) for s in range(2) for c in match.view(s).hand}
        assert not (cards_in(seen) & hidden)
        # the spectator follows the play
        if state["view"]["to_move"] == 0:
            ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                          "version": state["version"]})
        seen = until(spy, lambda s: s["version"] >= 1)
        assert seen["view"]["hand"] == []
        hidden = {str(c) for s in range(2) for c in match.view(s).hand}
        assert not (cards_in({k: v for k, v in seen.items() if k != "previous"}) & hidden)


def test_reconnect_gets_a_full_resync(client: TestClient) -> None:
    t, other = two_people(client)
    with client.websocket_connect("/ws") as ws1:
        hello(ws1, t["table"], other["token"])
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, t["table"], t["token"])
            assert recv(ws1, "state")["seats"][0]["connected"]
        gone = recv(ws1, "state")
        assert gone["seats"][0]["connected"] is False
        # seat 1 plays on if it is its turn; seat 0 comes back on a new connection
        if state["view"]["to_move"] == 1:
            ws1.send_json({"type": "move", "move": gone["view"]["legal_moves"][0],
                           "version": gone["version"]})
            recv(ws1, "state")
        with client.websocket_connect("/ws") as ws:
            back = hello(ws, t["table"], t["token"])
            assert back["full"] and back["seats"][0]["connected"]
            assert back["version"] == client.app.state.hub.get(t["table"]).version  # type: ignore
            assert len(back["view"]["hand"]) in (5, 6)
            assert recv(ws1, "state")["seats"][0]["connected"]


def test_two_clients_race_for_one_move(client: TestClient) -> None:
    t, other = two_people(client)
    with client.websocket_connect("/ws") as a:
        state = hello(a, t["table"], t["token"])
        token = t["token"] if state["view"]["to_move"] == 0 else other["token"]
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        sa = hello(a, t["table"], token)
        sb = hello(b, t["table"], token)
        recv(a, "state")  # b arrived
        v = sa["version"]
        legal = sa["view"]["legal_moves"]
        assert sb["view"]["legal_moves"] == legal
        a.send_json({"type": "move", "move": legal[0], "version": v, "id": "a"})
        b.send_json({"type": "move", "move": legal[-1], "version": v, "id": "b"})
        got_a = [recv(a)]
        got_b = [recv(b)]
        kinds = {m.get("reply_to"): m for m in got_a + got_b}
        # a won the race: its state carries its reply; b got its view of a's move (no reply)...
        assert kinds["a"]["type"] == "state" and kinds["a"]["version"] == v + 1
        assert got_b[0]["type"] == "state" and got_b[0]["version"] == v + 1
        # ...and then the refusal of its own move, stale, followed by a resync
        err = recv(b, "error")
        assert err["code"] == "stale" and err["reply_to"] == "b"
        assert recv(b, "state")["version"] == v + 1
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.get(t["table"]).match.moves[-1][1] == legal[0]
    assert hub.storage.move_count(t["table"]) == v + 1


def test_away_seat_is_held_by_a_bot_and_given_back(tmp_path: Path) -> None:
    with make_client(tmp_path, grace=0.2) as client:
        t, other = two_people(client)
        with client.websocket_connect("/ws") as ws0:
            state = hello(ws0, t["table"], t["token"])
            # seat 1 never connects: after the grace period a bot plays for it
            moved = 0
            deadline = time.monotonic() + 20
            while moved < 3:
                assert time.monotonic() < deadline
                if state["view"]["to_move"] == 0:
                    ws0.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                                   "version": state["version"]})
                state = recv(ws0, "state")
                if state["last"] is not None and state["last"]["seat"] == 1:
                    moved += 1
                    assert state["seats"][1]["bot_playing"]
            with client.websocket_connect("/ws") as ws1:
                mine = hello(ws1, t["table"], other["token"])
                assert mine["seats"][1]["bot_playing"] is False
                assert mine["seats"][1]["connected"]
                # the person holds the seat again: the bot does not move for it
                if mine["view"]["to_move"] == 1:
                    time.sleep(0.4)
                    ws1.send_json({"type": "ping"})
                    msg = recv(ws1)
                    while msg["type"] == "state":
                        assert msg["version"] == mine["version"]
                        msg = recv(ws1)
                    assert msg["type"] == "pong"


def test_restart_resumes_every_table(tmp_path: Path) -> None:
    tables = []
    with make_client(tmp_path) as client:
        for game, seats in [("sixty-six", 2), ("macao", 3), ("chukhny", 3)]:
            t = create(client, game, [{"kind": "human"}] + [{"kind": "bot"}] * (seats - 1),
                       seed=4)
            rng = random.Random(1)
            with client.websocket_connect("/ws") as ws:
                state = hello(ws, t["table"], t["token"])
                for _ in range(5):
                    if state["view"]["to_move"] == 0:
                        ws.send_json({"type": "move", "version": state["version"],
                                      "move": rng.choice(state["view"]["legal_moves"])})
                    state = recv(ws, "state")
                    if state["is_over"]:
                        break
                ws.send_json({"type": "resync"})
                state = recv(ws, "state")
                while state["view"]["to_move"] != 0 and not state["is_over"]:
                    state = recv(ws, "state")
            hub = client.app.state.hub  # type: ignore[attr-defined]
            tables.append((t, hub.get(t["table"]).version, state["view"]))
    with make_client(tmp_path) as client:
        for t, version, view in tables:
            with client.websocket_connect("/ws") as ws:
                state = hello(ws, t["table"], t["token"])
                assert state["version"] == version
                assert state["view"] == view


def test_bot_worker_rebuilds_the_view() -> None:
    from cardplay.server.botpool import choose_move, view_from_dict

    game = cardplay.load("sixty-six")
    match = game.match(seed=1)
    view = match.view(match.to_move)
    again = view_from_dict(view.to_dict())
    assert again.to_dict() == view.to_dict()
    move = choose_move("sixty-six", game.options_dict(), "heuristic", 3, view.to_dict())
    assert move in [m.text for m in view.legal_moves]


def test_storage_round_trip(tmp_path: Path) -> None:
    from cardplay.server.storage import MoveConflict, Storage, StoredTable, default_data_dir

    s = Storage(tmp_path)
    assert s.journal_mode == "wal"
    s.create_table(StoredTable("t1", "sixty-six", {}, 5, None, [{"kind": "bot"}], 1.0))
    s.add_move("t1", 0, 0, "QH")
    s.add_move("t1", 1, 1, "KH", finished=True)
    s.close()
    again = Storage(tmp_path, durability="full")
    t = again.load("t1")
    assert t is not None and t.moves == [(0, "QH"), (1, "KH")] and t.finished is not None
    assert t.record()["moves"] == ["QH", "KH"] and again.load("t2") is None
    with pytest.raises(MoveConflict):  # (table, n) is the key: move 1 is stored once
        again.add_move("t1", 1, 0, "AS")
    with pytest.raises(MoveConflict):
        again.add_move("t1", 1, 0, "AS", finished=True)
    with pytest.raises(sqlite3.IntegrityError):  # no such table: not a lost race
        again.add_move("t9", 0, 0, "AS")
    assert again.moves_after("t1", 1) == [(1, "KH")]
    with pytest.raises(ValueError):
        Storage(tmp_path, durability="maybe")
    assert default_data_dir().name == "cardplay"


@pytest.mark.parametrize("game", cardplay.games())
def test_fast_seat_view_equals_the_engine_view(tmp_path: Path, game: str) -> None:
    """The hub builds views without the engine's freeze/thaw; they must say the same."""
    from cardplay.server.botpool import ThreadBotRunner
    from cardplay.server.hub import Hub
    from cardplay.server.storage import Storage

    hub = Hub(Storage(tmp_path), ThreadBotRunner())
    players = cardplay.load(game).players
    table, _, _ = hub.create_table(game, {}, [{"kind": "human"}] * players, seed=3,
                                     operator_seed=True)
    rng = random.Random(4)
    for step in range(400):
        if step % 7 == 0 or table.is_over:
            for seat in range(players):
                fast = json.loads(json.dumps(table.seat_view(seat)))
                slow = json.loads(json.dumps(table.match.view(seat).to_dict()))
                assert fast == slow
        if table.is_over:
            break
        table.match.play(rng.choice(table.match.legal_moves()))


def test_a_move_that_cannot_be_stored_changes_nothing(client: TestClient,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    t, other = two_people(client)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, t["table"], t["token"] if hub.get(t["table"]).match.to_move == 0
                      else other["token"])
        before = state["view"]

        def refuse(*args: Any, **kwargs: Any) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(hub.storage, "add_move", refuse)
        expect_error(ws, {"type": "move", "move": before["legal_moves"][0], "version": 0},
                     "storage")
        monkeypatch.undo()
        ws.send_json({"type": "resync"})
        again = recv(ws, "state")
        assert again["version"] == 0 and again["view"] == before
        ws.send_json({"type": "move", "move": before["legal_moves"][0], "version": 0})
        assert recv(ws, "state")["version"] == 1
    assert hub.storage.move_count(t["table"]) == 1


@pytest.mark.parametrize("game", cardplay.games())
def test_spectators_learn_no_private_card_in_any_game(tmp_path: Path, game: str) -> None:
    """A card that some seat does not know (it is in another seat's hand and nowhere in that
    seat's view) never appears in what a spectator is sent."""
    from cardplay.server.botpool import ThreadBotRunner
    from cardplay.server.hub import Hub
    from cardplay.server.storage import Storage

    hub = Hub(Storage(tmp_path), ThreadBotRunner())
    players = cardplay.load(game).players
    table, _, _ = hub.create_table(game, {}, [{"kind": "human"}] * players, seed=5,
                                     operator_seed=True)
    rng = random.Random(6)
    for step in range(300):
        if table.is_over:
            break
        if step % 5 == 0:
            match = table.match
            views = [match.view(s).to_dict() for s in range(players)]
            secret = set()
            for s in range(players):
                for t in range(players):
                    if t != s:
                        secret |= set(views[s]["hand"]) - cards_in(views[t])
            # ("previous" is a finished deal, which may show every card; "last" is the move
            # just played, perhaps the last card of the previous deal)
            seen = table.state(None, True)["view"]
            assert not (cards_in(seen) & secret), (step, cards_in(seen) & secret)
        table.match.play(rng.choice(table.match.legal_moves()))


def test_checkpoints_run_off_the_event_loop(tmp_path: Path) -> None:
    from cardplay.server.storage import Storage, StoredTable

    s = Storage(tmp_path)
    s.start_checkpointer(interval=0.05)
    assert s._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    s.create_table(StoredTable("t", "sixty-six", {}, 1, None, [], 1.0))
    for n in range(200):
        s.add_move("t", n, 0, "QH")
    time.sleep(0.3)
    s.close()
    wal = tmp_path / "cardplay.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    assert Storage(tmp_path).move_count("t") == 200


def test_an_invite_only_table_is_never_listed(client: TestClient) -> None:
    people = [{"kind": "human"}, {"kind": "human"}]
    listed = create(client, seats=people)
    hidden = create(client, seats=people, listed=False)
    open_ids = [t["id"] for t in client.get("/api/tables").json()["open"]]
    assert listed["table"] in open_ids and hidden["table"] not in open_ids
    summary = client.get(f"/api/tables/{hidden['table']}").json()
    assert summary["listed"] is False and summary["open_seats"] == [1]
    # the invite link still seats a friend, and the table stays out of every list
    joined = client.post(f"/api/tables/{hidden['table']}/join").json()
    assert joined["seat"] == 1
    lists = client.get("/api/tables").json()
    assert hidden["table"] not in [t["id"] for t in lists["open"] + lists["playing"]]
    r = client.post("/api/tables", json={"game": "sixty-six", "seats": people, "listed": "no"})
    assert r.status_code == 400 and r.json()["message"] == "'listed' is true or false"
