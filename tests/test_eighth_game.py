"""An eighth game, written as one module under tests/ and registered from here, plays through every
part of cardplay with no edit to any other file: its rules (a fixed deck, exact outcomes), the
conformance suite, the declaration checks, the arena with every level, ``cardplay play`` driven
by a script, a whole deal over the server's WebSocket protocol, and the research adapters'
own API checks (PettingZoo, OpenSpiel, Gymnasium)."""

from __future__ import annotations

import io
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardplay
import test_conformance as conformance
import test_declarations as declarations
from cardplay import arena
from cardplay.engine import IllegalMoveError, register, unregister
from eighth_game import NAME, TrumpWhist

# 2 players, dealer 1: seat 0 gets cards 1, 3, 5, 7, 9; seat 1 cards 2, 4, ...; then the
# turned-up trump (9D here: diamonds), then the rest
DECK = ("AS KH QS QH JS 9H TS TH 9S AH 9D "
        "KS AD KD QD JD TD AC KC QC JC TC 9C JH")


@pytest.fixture(autouse=True, scope="module")
def registered() -> Iterator[None]:
    register(TrumpWhist)
    yield
    unregister(NAME)


def test_registering_lists_the_game() -> None:
    assert NAME in cardplay.games()
    assert cardplay.load(NAME).declaration.title.en == "Trump Whist"


def test_a_fixed_deal_scores_exactly() -> None:
    deal = cardplay.load(NAME).deal(deck=DECK, dealer=1)
    assert deal.to_move == 0
    assert sorted(str(c) for c in deal.view(0).hand) == ["9S", "AS", "JS", "QS", "TS"]
    assert deal.view(0).public["trump_suit"] == "D"
    deal.play("AS")
    # seat 1 holds no spade: any card, and a heart loses to the ace
    assert sorted(m.text for m in deal.legal_moves()) == ["9H", "AH", "KH", "QH", "TH"]
    deal.play("9H")
    assert deal.view(0).public["tricks_won"] == [1, 0]
    assert deal.view(0).public["last_trick"] == {"cards": ["AS", "9H"], "winner": 0}
    with pytest.raises(IllegalMoveError):
        deal.play("AH")  # seat 0 leads again
    for move in ("QS", "TH", "JS", "QH", "TS", "KH", "9S", "AH"):
        deal.play(move)
    assert deal.is_over and deal.result == [5, 0]


def test_must_trump_forces_a_trump() -> None:
    # seat 0: AH KH QH JH TH; seat 1: 9S AC KC QC JC; AS turned: spades are trump
    deck = "AH 9S KH AC QH KC JH QC TH JC AS KS QS JS TS 9H AD KD QD JD TD 9D TC 9C"
    for must_trump, legal in ((False, ["9S", "AC", "JC", "KC", "QC"]), (True, ["9S"])):
        deal = cardplay.load(NAME, must_trump=must_trump).deal(deck=deck, dealer=1)
        deal.play("AH")
        assert sorted(m.text for m in deal.legal_moves()) == legal
        deal.play("9S")
        assert deal.view(0).public["tricks_won"] == [0, 1]
        assert deal.to_move == 1


CONFIGS = [(NAME, 2), (NAME, 3), (NAME, 4)]
CONFORMANCE = [conformance.test_random_deals_end_with_results,
               conformance.test_same_seed_same_deal_and_replay,
               conformance.test_bad_moves_change_nothing,
               conformance.test_views_are_json_and_hide_other_hands,
               conformance.test_sampled_worlds_agree_with_the_view,
               conformance.test_copy_is_independent,
               conformance.test_fast_path_agrees_with_public_api,
               conformance.test_whole_matches_end_and_replay,
               conformance.test_corrupt_records_are_record_errors,
               conformance.test_wrong_decks_are_rejected]


@pytest.mark.parametrize("check", CONFORMANCE, ids=[c.__name__ for c in CONFORMANCE])
@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_conformance_suite(check: Any, name: str, players: int) -> None:
    check(name, players)


@pytest.mark.parametrize("players", [2, 4])
def test_declaration_checks(players: int) -> None:
    options = {"players": players}
    declarations.test_every_text_is_written_in_both_languages(NAME)
    declarations.test_every_option_and_value_has_words(NAME)
    declarations.test_every_view_holds_exactly_the_declared_public_state(NAME, options)
    declarations.test_action_layout_covers_the_action_space(NAME, options)
    declarations.test_declared_bots_load(NAME)


@pytest.mark.parametrize("level", ["random", "heuristic", "fast", "strong"])
def test_arena_with_every_level(level: str) -> None:
    _, rows = arena.run(NAME, level, "random", deals=4, seed=3)
    assert len(rows) == 8  # every deal in both seatings
    assert all(sum(r["result"]) == 5 for r in rows)


def test_heuristic_beats_random() -> None:
    report, _ = arena.run(NAME, "heuristic", "random", deals=100, seed=1)
    assert report.share_low > 0.5  # clear of an even share at 95%


def test_cardplay_play_driven_by_a_script(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    from cardplay.cli import main

    path = tmp_path / "whist.json"
    out = io.StringIO()
    monkeypatch.delenv("LANG", raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    monkeypatch.setattr(sys, "stdout", out)
    code = main(["play", NAME, "--seed", "4", "--vs", "heuristic", "--save", str(path)])
    assert code == 0, out.getvalue()
    assert "The match is over" in out.getvalue()
    assert "Trump" in out.getvalue()
    match = cardplay.replay(json.loads(path.read_text(encoding="utf-8")))
    assert match.is_over and max(match.scores) >= 10


def test_one_whole_deal_over_the_websocket(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from cardplay.server import create_app
    from cardplay.server.botpool import ThreadBotRunner

    with TestClient(create_app(tmp_path, runner=ThreadBotRunner())) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        assert games[NAME]["title"]["ru"] == "Вист с козырем"
        r = client.post("/api/tables", json={"game": NAME, "seats": [
            {"kind": "human"}, {"kind": "bot", "level": "heuristic"}]})
        assert r.status_code == 201, r.text
        table = r.json()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": table["table"], "token": table["token"]})
            assert ws.receive_json()["type"] == "welcome"
            state = ws.receive_json()
            while not state["view"]["match"]["results"]:
                if state["view"]["to_move"] == 0:
                    ws.send_json({"type": "move", "move": state["view"]["legal_moves"][0],
                                  "version": state["version"]})
                state = ws.receive_json()
                assert state["type"] == "state", state
            assert sum(state["view"]["match"]["results"][0]) == 5


def test_pettingzoo_api_test() -> None:
    from pettingzoo.test import api_test

    from cardplay.rl.pettingzoo import env

    api_test(env(NAME), num_cycles=200)


def test_openspiel_random_sim_test() -> None:
    import pyspiel

    from cardplay.rl import openspiel

    openspiel.register([NAME])
    game = pyspiel.load_game(openspiel.game_name(NAME))
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_gymnasium_check_env() -> None:
    from gymnasium.utils.env_checker import check_env

    from cardplay.rl.gym import CardplayEnv

    check_env(CardplayEnv(NAME, opponents="heuristic"), skip_render_check=True)


def test_random_deals_of_every_player_count_sample_consistently() -> None:
    game = cardplay.load(NAME, players=3, must_trump=True)
    for seed in range(20):
        deal = game.deal(seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            view = deal.view(deal.to_move)  # type: ignore[arg-type]
            world = game.sample_deal(view, rng)
            assert world.view(view.seat).to_dict() == view.to_dict()
            deal.play(rng.choice(deal.legal_moves()))


def test_a_deal_at_the_terminal_table(tmp_path: Path) -> None:
    """The terminal table draws the new game from its declaration and plays a whole deal."""
    import test_tui

    # on a thread of its own: a browser test earlier in this worker leaves Playwright's event
    # loop running on the main thread, where asyncio.run refuses to start
    test_tui.run_async(test_tui.play_first_deal(NAME, tmp_path))
