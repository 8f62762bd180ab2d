"""The hub's seams later work builds on: the end-of-match hook, the old imports, small rooms."""

from __future__ import annotations

import ast
import hashlib
import random
from pathlib import Path

import pytest

from cardplay.server.botpool import ThreadBotRunner
from cardplay.server.hub import MAX_NAME, Connection, Hub, Seat, Table, TableError, _hash
from cardplay.server.protocol import ProtocolError
from cardplay.server.storage import Storage

SERVER = Path(__file__).resolve().parents[2] / "src" / "cardplay" / "server"


def test_match_finished_is_called_once_when_the_final_move_is_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = Hub(Storage(tmp_path), ThreadBotRunner())
    table, _, _ = hub.create_table("sixty-six", {}, [{"kind": "human"}] * 2, seed=11,
                                   operator_seed=True)
    seen: list[tuple[Table, int, bool, str, int]] = []

    def finished(t: Table) -> None:
        seen.append((t, t.version, t.is_over, t.stored.status,
                     hub.storage.move_count(t.id)))

    monkeypatch.setattr(hub, "_match_finished", finished)
    rng = random.Random(12)
    moves = 0
    while not table.is_over:
        assert seen == []  # not before the end
        to_move = table.match.to_move
        assert to_move is not None
        hub._apply(table, to_move, rng.choice(table.match.legal_moves()).text)
        moves += 1
    assert moves > 20  # a whole match of Sixty-Six, not one deal
    # once, with the final move already stored and the table marked over
    assert seen == [(table, moves, True, "over", moves)]
    with pytest.raises(ProtocolError):  # nothing can be played after the end
        hub._apply(table, 0, "QH")
    assert len(seen) == 1


def test_the_hub_module_still_exports_its_old_names() -> None:
    assert MAX_NAME == 40
    assert {Hub.__module__, Table.__module__, Seat.__module__, TableError.__module__} == {
        "cardplay.server.hub", "cardplay.server.tables"}
    assert Connection.__module__ == "cardplay.server.connection"
    # what a seat stores of its token: its SHA-256, as databases already hold it
    assert _hash("tok") == hashlib.sha256(b"tok").hexdigest()


def test_every_server_module_is_small_and_says_what_it_owns() -> None:
    for path in sorted(SERVER.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert text.count("\n") <= 500, path.name
        doc = ast.get_docstring(ast.parse(text))
        assert doc, path.name
        assert len(doc.split("\n")[0]) <= 100, path.name
