"""Records that prove themselves, on the server (issue 30, clause 2): every person's seat adds
its part of the shuffle before any card is dealt, the server signs every finished record with
its Ed25519 key (kept in the data directory, shown at GET /api/keys), and the record verifies."""

from __future__ import annotations

import base64
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardplay
from cardplay import cli
from cardplay.fairness import commit_v2, deck_seed, key_id, public_keys, verify
from cardplay.server.signing import KEY_FILE, Signer

from .conftest import LiveServer, create, hello, make_client, recv, until

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
MINE, THEIRS = "0123456789abcdef" * 2, "fedcba9876543210" * 2


def stored(client: TestClient, table: str) -> Any:
    return client.app.state.storage.load(table)  # type: ignore[attr-defined]


def play_out(client: TestClient, t: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """Seat 0 (a person against a bot) plays its first legal move to the end of the match;
    returns the first full state (the one its hello got)."""
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": t["table"], "token": t["token"], **extra})
        recv(ws, "welcome")
        first = state = recv(ws, "state")
        for _ in range(2000):
            if state["is_over"]:
                return first
            if state["view"]["to_move"] == 0:
                ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                              "version": state["version"]})
            state = recv(ws, "state")
    raise AssertionError("the match did not end")


def test_the_key_is_made_once_with_mode_0600_and_served(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        keys = client.get("/api/keys").json()
    path = tmp_path / KEY_FILE
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    [key] = keys["keys"]
    public = base64.b64decode(key["public"])
    assert key["alg"] == "Ed25519" and len(public) == 32 and key["id"] == key_id(public)
    assert Signer.open(path).public == public
    # a second process on the same data directory signs with the same key
    with make_client(tmp_path) as again:
        assert again.get("/api/keys").json() == keys
    # another site's process given that key file (--signing-key) signs with it too
    with make_client(tmp_path / "elsewhere", signing_key=path) as other:
        assert other.get("/api/keys").json() == keys
    assert not (tmp_path / "elsewhere" / KEY_FILE).exists()
    # a file that is not a key is refused when the server starts, not used
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key")
    with pytest.raises(ValueError, match="not an unencrypted PEM private key"):
        make_client(tmp_path / "x", signing_key=bad)


def test_no_card_before_every_person_has_contributed(client: TestClient) -> None:
    t = create(client, seats=TWO_PEOPLE, contribution=MINE)
    assert t["waiting"] is True
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": t["table"], "token": t["token"]})
        recv(ws, "welcome")
        state = recv(ws, "state")
        assert (state["waiting"], state["view"], state["version"]) == (True, None, 0)
        ws.send_json({"type": "move", "move": "QH", "version": 0, "id": 1})
        err = recv(ws, "error")
        assert (err["code"], err["reply_to"]) == ("waiting", 1)
        assert stored(client, t["table"]).seed == 0  # nothing dealt, nothing fixed
        joined = client.post(f"/api/tables/{t['table']}/join", json={"contribution": THEIRS})
        assert joined.status_code == 200 and joined.json()["waiting"] is False
        dealt = until(ws, lambda s: s["view"] is not None)
    st = stored(client, t["table"])
    assert st.contributions == [{"value": MINE, "drawn": False},
                                {"value": THEIRS, "drawn": False}]
    assert st.seed == deck_seed(st.server_seed, [MINE, THEIRS])
    assert t["commitment"] == commit_v2("sixty-six", st.options, None, ["human", "human"],
                                        "server", st.server_seed, st.salt)
    assert dealt["view"]["hand"] == \
        cardplay.load("sixty-six").match(st.seed).view(0).to_dict()["hand"]


def test_a_contribution_at_hello_and_one_the_server_draws(client: TestClient) -> None:
    t = create(client)  # a person and a bot; no contribution yet: no card yet
    assert client.get(f"/api/tables/{t['table']}").json()["waiting"] is True
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": t["table"], "token": t["token"],
                      "contribution": MINE.upper()})
        recv(ws, "welcome")
        assert recv(ws, "state")["view"] is not None
    st = stored(client, t["table"])
    assert st.contributions == [{"value": MINE, "drawn": False}, None]
    assert st.seed == deck_seed(st.server_seed, [MINE, None])
    # a second hello with another part changes nothing: the first one counts
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": t["table"], "token": t["token"],
                      "contribution": THEIRS})
        recv(ws, "welcome")
        recv(ws, "state")
    assert stored(client, t["table"]).seed == st.seed
    assert stored(client, t["table"]).contributions[0]["value"] == MINE
    # a seat that sends none gets one the server drew, marked as such
    other = create(client)
    with client.websocket_connect("/ws") as ws:
        hello(ws, other["table"], other["token"])
    drawn = stored(client, other["table"]).contributions[0]
    assert drawn["drawn"] is True and len(drawn["value"]) == 32


def test_a_malformed_contribution_is_refused_and_changes_nothing(client: TestClient) -> None:
    before = client.get("/api/tables").json()["open"]
    for bad in ("xyz", "g" * 32, 12345, "a" * 31, ["a" * 32]):
        r = client.post("/api/tables", json={"game": "sixty-six", "seats": TWO_PEOPLE,
                                             "contribution": bad})
        assert r.status_code == 400 and "32 hexadecimal" in r.json()["message"]
    assert client.get("/api/tables").json()["open"] == before
    t = create(client, seats=TWO_PEOPLE, contribution=MINE)
    r = client.post(f"/api/tables/{t['table']}/join", json={"contribution": "no"})
    assert r.status_code == 400
    assert client.get(f"/api/tables/{t['table']}").json()["open_seats"] == [1]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": t["table"], "token": t["token"],
                      "contribution": "z" * 32, "id": 7})
        err = recv(ws, "error")
        assert (err["code"], err["reply_to"]) == ("bad_contribution", 7)
        ws.send_json({"type": "hello", "table": t["table"], "token": t["token"],
                      "contribution": 5, "id": 8})
        assert recv(ws, "error")["code"] == "malformed"
        hello(ws, t["table"], t["token"])  # the connection was not seated by the refusals
    assert stored(client, t["table"]).contributions == [{"value": MINE, "drawn": False}, None]


def test_a_finished_record_is_signed_and_verifies_over_http_and_websocket(
        client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    t = create(client, options={"match_target": 1}, contribution=MINE)
    play_out(client, t)
    record = client.get(f"/api/tables/{t['table']}/record").json()
    keys_text = client.get("/api/keys").text
    v = verify(record, public_keys(keys_text))
    assert (v.ok, v.signature, v.finished) == (True, "ok", True)
    assert record["fairness"]["contributions"] == [{"value": MINE, "drawn": False}, None]
    with client.websocket_connect("/ws") as ws:
        hello(ws, t["table"], t["token"])
        ws.send_json({"type": "record"})
        assert recv(ws, "record")["record"] == record
    # the command, given the key as GET /api/keys wrote it
    monkeypatch.delenv("LANG", raising=False)
    (tmp_path / "r.json").write_text(json.dumps(record))
    (tmp_path / "keys.json").write_text(keys_text)
    assert cli.main(["verify", str(tmp_path / "r.json"), "--key",
                     str(tmp_path / "keys.json")]) == 0
    assert "signature: valid" in capsys.readouterr().out
    record["dealer"] = 1
    (tmp_path / "r.json").write_text(json.dumps(record))
    assert cli.main(["verify", str(tmp_path / "r.json"), "--key",
                     str(tmp_path / "keys.json")]) == 1
    out = capsys.readouterr().out
    assert "failed (commitment)" in out and "failed (signature)" in out


def test_bots_only_and_creator_tables_deal_at_once(client: TestClient) -> None:
    bots = [{"kind": "bot", "level": "random"}] * 2
    r = client.post("/api/tables", json={"game": "sixty-six", "seats": bots,
                                         "options": {"match_target": 1}})
    assert r.status_code == 201 and r.json()["waiting"] is False
    st = stored(client, r.json()["table"])
    assert st.seed == deck_seed(st.server_seed, [None, None]) and st.contributions == [None] * 2
    practice = create(client, seed=424242, contribution=MINE)
    st = stored(client, practice["table"])
    assert (practice["seed_source"], practice["waiting"], st.seed) == ("creator", False, 424242)
    assert st.contributions == [None, None]  # a chosen seed takes no part from anyone


def test_a_waiting_table_survives_a_restart(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        t = create(client, seats=TWO_PEOPLE, contribution=MINE)
    with make_client(tmp_path) as client:
        assert client.get(f"/api/tables/{t['table']}").json()["waiting"] is True
        client.post(f"/api/tables/{t['table']}/join", json={"contribution": THEIRS})
        st = stored(client, t["table"])
        assert st.seed == deck_seed(st.server_seed, [MINE, THEIRS])
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, t["table"], t["token"])
        assert state["view"]["hand"] == \
            cardplay.load("sixty-six").match(st.seed).view(0).to_dict()["hand"]


def test_verify_fetches_the_key_from_the_sites_address(
        live: LiveServer, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANG", raising=False)
    # a second process of the site (its own data, the site's key) makes the record
    with make_client(tmp_path / "p2", signing_key=live.data / KEY_FILE) as client:
        t = create(client, options={"match_target": 1}, contribution=MINE)
        play_out(client, t)
        record = client.get(f"/api/tables/{t['table']}/record").json()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    for where in (live.url, live.url + "/api/keys"):  # the site, or its keys' address
        assert cli.main(["verify", str(path), "--key", where]) == 0
        out = capsys.readouterr().out
        assert out.startswith("verified:") and "signature: valid" in out
    # a site that does not answer: the key cannot be read, and nothing passes
    assert cli.main(["verify", str(path), "--key", "http://127.0.0.1:9/api/keys"]) == 2
    assert "cannot read the key" in capsys.readouterr().out
