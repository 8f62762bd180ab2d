"""Move values (cardplay.bots.evaluate): exact ones against plain minimax, sampled ones against
long runs, and the review built on them."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardplay
from cardplay.bots import evaluate, load
from cardplay.bots.evaluation import MAX_MOVES
from cardplay.bots.rollout import pick_candidates
from cardplay.bots.sixty_six_solver import (
    _GivenHand,
    _unknown_opponent_cards,
    margin_of,
    minimax,
)
from cardplay.builtin.sixty_six import SixtySixDeal
from cardplay.cli import main
from cardplay.engine import Deal
from cardplay.review import review
from helpers import plain_margin


def endgames(game: cardplay.Game, count: int, max_cards: int,
             ready: str) -> Iterator[tuple[Deal, int]]:
    """``count`` positions (deal, seat to move) from random play, each once the public field
    ``ready`` is 0 and the mover holds at most ``max_cards`` cards, with more than one move."""
    rng = random.Random(20261203)
    found = 0
    seed = 0
    while found < count:
        deal = game.deal(seed=seed)
        seed += 1
        stop = rng.randint(1, max_cards)
        while deal.to_move is not None:
            seat = deal.to_move
            view = deal.view(seat)
            if view.public[ready] == 0 and len(view.hand) <= stop and len(view.legal_moves) > 1:
                found += 1
                yield deal, seat
                break
            deal.play(rng.choice(deal.legal_moves()))


def test_sixty_six_exhausted_talon_values_are_minimax_on_a_thousand_positions() -> None:
    game = cardplay.load("sixty-six")
    checked = moves = 0
    for deal, seat in endgames(game, 1000, 4, "stock"):
        ev = evaluate(deal.view(seat), seed=checked)
        assert ev.exact and ev.worlds == 1
        assert set(ev.values) == {m.text for m in deal.legal_moves()}
        for code in deal.legal_codes():
            child = deal.copy()
            child.apply_code(code)
            assert isinstance(child, SixtySixDeal)
            # two references: the solver's unpruned minimax, and minimax on the margin itself
            assert ev.values[game.move(code).text] == margin_of(minimax(child, seat)) == \
                plain_margin(child, seat)
            moves += 1
        assert ev.errors[ev.best] == 0.0
        checked += 1
    assert checked == 1000 and moves > 2000


def test_two_ten_jack_stockless_values_are_minimax_on_a_thousand_positions() -> None:
    game = cardplay.load("two-ten-jack")
    checked = 0
    for deal, seat in endgames(game, 1000, 3, "stock"):
        ev = evaluate(deal.view(seat), seed=checked)
        assert ev.exact
        for code in deal.legal_codes():
            child = deal.copy()
            child.apply_code(code)
            assert ev.values[game.move(code).text] == plain_margin(child, seat)
        checked += 1
    assert checked == 1000


def test_a_closed_talon_averages_every_opponent_hand_solved_exactly() -> None:
    game = cardplay.load("sixty-six")
    rng = random.Random(5)
    seen = 0
    for seed in range(400):
        deal = game.deal(seed=seed)
        closed = False
        while deal.to_move is not None:
            seat = deal.to_move
            legal = [m.text for m in deal.legal_moves()]
            if not closed and "close" in legal and deal.view(seat).public["stock"] <= 6:
                deal.play("close")
                closed = True
                continue
            view = deal.view(seat)
            if closed and len(view.hand) <= 3 and len(legal) > 1:
                allowed, k = _unknown_opponent_cards(game, view)
                ev = evaluate(view, seed=seed)
                assert ev.exact and ev.worlds == math.comb(len(allowed), k)
                totals = dict.fromkeys(ev.values, 0)
                for hand in itertools.combinations(allowed, k):
                    world = game.sample_deal(view, _GivenHand(hand, 1))
                    for code in world.legal_codes():
                        child = world.copy()
                        child.apply_code(code)
                        totals[game.move(code).text] += plain_margin(child, seat)
                for move, total in totals.items():
                    assert ev.values[move] == pytest.approx(total / ev.worlds)
                seen += 1
                break
            deal.play(rng.choice(legal))
        if seen == 25:
            break
    assert seen == 25


@pytest.mark.parametrize("name, options", [
    ("sixty-six", {}), ("two-ten-jack", {}), ("chukhny", {"players": 3}),
    ("maltese-twenty", {}),
])
def test_sampled_values_agree_with_a_long_run_within_their_error(name: str,
                                                                 options: dict[str, int]) -> None:
    game = cardplay.load(name, **options)
    deal = game.deal(seed=3)
    rng = random.Random(4)
    while len(deal.legal_moves()) < 2 or rng.random() < 0.5:
        deal.play(rng.choice(deal.legal_moves()))
    view = deal.view(deal.to_move or 0)
    short = evaluate(view, "heuristic", seed=1, worlds=40)
    long = evaluate(view, "heuristic", seed=2, worlds=400)
    assert not short.exact and short.worlds == 40 and long.worlds == 400
    assert set(short.values) == set(long.values)
    for move in short.values:
        assert short.errors[move] >= long.errors[move] * 0.5
        spread = 3 * math.hypot(short.errors[move], long.errors[move])
        assert abs(short.values[move] - long.values[move]) <= max(spread, 1e-9), move


def test_the_same_seed_gives_the_same_values_and_bad_calls_are_refused() -> None:
    game = cardplay.load("twenty")
    deal = game.deal(seed=8)
    while len(deal.legal_moves()) < 2:
        deal.play(deal.legal_moves()[0])
    seat = deal.to_move
    assert seat is not None
    view = deal.view(seat)
    assert evaluate(view, "fast", seed=3) == evaluate(view, "fast", seed=3)
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        evaluate(view, "expert")
    with pytest.raises(ValueError, match="not to move"):
        evaluate(deal.view(1 - seat))
    with pytest.raises(ValueError, match="not a legal move"):
        evaluate(view, moves=["AS" if "AS" not in {m.text for m in view.legal_moves} else "2C"])


def test_many_moves_are_sampled_as_a_spread_plus_the_move_asked_for() -> None:
    game = cardplay.load("chukhny", players=3)
    rng = random.Random(1)
    deal = game.deal(seed=0)
    while len(deal.legal_moves()) <= MAX_MOVES:
        deal.play(rng.choice(deal.legal_moves()))
    view = deal.view(deal.to_move or 0)
    legal = sorted(view.legal_moves, key=game.code_of)
    asked = legal[len(legal) // 2 + 1].text
    ev = evaluate(view, "random", seed=1, moves=[asked], worlds=8)
    assert not ev.exact and asked in ev.values
    # the extremes of the legal codes and an even spread between them, at most MAX_MOVES
    spread = pick_candidates([game.code_of(m) for m in legal], game.code_of(asked), MAX_MOVES)
    assert set(ev.values) == {game.move(c).text for c in spread}
    assert len(ev.values) <= MAX_MOVES < len(legal)
    assert {legal[0].text, legal[-1].text} <= set(ev.values)


def test_every_stake_is_valued_where_the_values_are_exact() -> None:
    game = cardplay.load("banchok")
    deal = game.deal(seed=2)
    view = deal.view(deal.to_move or 0)
    assert len(view.legal_moves) > 50
    ev = evaluate(view, "random", seed=1)
    assert ev.exact and set(ev.values) == {m.text for m in view.legal_moves}


def _bot_match(name: str, seed: int, level: str = "heuristic",
               **options: object) -> dict[str, object]:
    game = cardplay.load(name, **options)
    match = game.match(seed=seed)
    bots = [load(level, game, seed=s) for s in range(game.players)]
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.play(bots[seat].choose(match.view(seat)))
    return match.record()


def test_a_review_names_every_decision_of_the_chosen_seat_with_its_loss() -> None:
    record = _bot_match("sixty-six", 5, match_target=2)
    result = review(record, seats=[1], level="random")
    replayed = cardplay.replay(record)
    assert isinstance(replayed, cardplay.Match)
    assert result.decisions and {d.seat for d in result.decisions} == {1}
    assert {d.deal for d in result.decisions} == set(range(1, len(replayed.deals) + 1))
    for d in result.decisions:
        deal = replayed.deals[d.deal - 1]
        seat, code = deal.history[d.index]
        assert seat == 1 and deal.game.move(code).text == d.played
        assert d.loss == pytest.approx(max(d.values.values()) - d.values[d.played])
        assert d.loss >= 0 and d.values[d.best] == max(d.values.values())
        assert set(d.to_dict()) == {"index", "deal", "seat", "played", "best", "values", "loss",
                                    "exact"}
    # the exhausted talon's decisions are exact
    assert any(d.exact for d in result.decisions)


def test_cardplay_review_prints_json_and_the_costly_decisions_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(_bot_match("two-ten-jack", 3, "random", target=1)))
    assert main(["review", str(path), "--seat", "0", "--level", "random", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "two-ten-jack" and out["decisions"]
    assert {d["seat"] for d in out["decisions"]} == {0}
    assert main(["review", str(path), "--seat", "0", "--level", "random"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == (f"Two-Ten-Jack: {len(out['decisions'])} decisions reviewed by the random "
                       "level.")
    assert any(d["loss"] > 0 for d in out["decisions"])
    assert text[1] == "Costly decisions, the dearest first:"
    # each costly decision's line is followed by its verdict in words (cardplay.advice)
    losses = [float(line.split(": cost ")[1].split(" ")[0]) for line in text[2:-1:2]]
    assert all(line.startswith("    Best: ") for line in text[3:-1:2])
    assert losses == sorted(losses, reverse=True) and losses[0] == round(
        max(d["loss"] for d in out["decisions"]), 2)
    assert text[-1].startswith("Seat 0: ")
    assert main(["review", str(path), "--seat", "0", "--level", "random", "--lang", "ru"]) == 0
    ru = capsys.readouterr().out.splitlines()
    assert ru[0].startswith("Два-десять-валет: разобрано решений — ")
    assert ru[1] == "Дорогие решения, самые дорогие первыми:"
    assert ": потеря " in ru[2] and "; лучше было " in ru[2]
    assert main(["review", str(path), "--seat", "5"]) == 2
    assert "there is no seat 5" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text('{"game": "two-ten-jack", "moves": ["XX"]}')
    assert main(["review", str(tmp_path / "bad.json")]) == 2
    assert "cannot be replayed" in capsys.readouterr().out


def _round_payoff(deal: Deal, seat: int, move: str, rng: random.Random) -> int:
    """The seat's chips won or lost when its stake of this round is settled, playing ``move``,
    then its own later choice by the exact rule (the heuristic) and random moves for the other
    seats, until the seat's points change or the round ends."""
    before = deal.points[seat]
    deal.play(move)
    mine = load("heuristic", deal.game, seed=1)
    while deal.to_move is not None and deal.points[seat] == before and \
            deal.view(seat).public["phase"] != "stake":
        turn = deal.to_move
        deal.play(mine.choose(deal.view(seat)) if turn == seat else
                  rng.choice(deal.legal_moves()))
    return deal.points[seat] - before


def _decision(name: str, phase: str, seed: int) -> tuple[cardplay.Game, Deal, int]:
    game = cardplay.load(name)
    rng = random.Random(seed)
    for s in range(seed, seed + 200):
        deal = game.deal(seed=s)
        for _ in range(rng.randint(0, 12)):
            if deal.to_move is None:
                break
            deal.play(rng.choice(deal.legal_moves()))
        while deal.to_move is not None:
            seat = deal.to_move
            view = deal.view(seat)
            if view.public.get("phase", "stake") == phase and len(view.legal_moves) > 1:
                return game, deal, seat
            deal.play(rng.choice(deal.legal_moves()))
    raise AssertionError(f"no {phase} decision found")


@pytest.mark.parametrize("name, phase", [("macao", "decide"), ("macao", "stake"),
                                         ("banchok", "stake")])
def test_banking_values_are_exact_expectations_of_the_settlement(name: str, phase: str) -> None:
    game, deal, seat = _decision(name, phase, 7)
    view = deal.view(seat)
    ev = evaluate(view, seed=1)
    assert ev.exact and set(ev.values) == {m.text for m in view.legal_moves}
    # two moves checked against the worlds themselves: the mean payoff of 3,000 sampled worlds
    texts = sorted(ev.values, key=lambda m: ev.values[m])
    rng = random.Random(2)
    for move in (texts[0], texts[-1]):
        payoffs = [_round_payoff(game.sample_deal(view, rng), seat, move, rng)
                   for _ in range(3000)]
        mean = sum(payoffs) / len(payoffs)
        sd = math.sqrt(sum((p - mean) ** 2 for p in payoffs) / (len(payoffs) - 1))
        assert abs(mean - ev.values[move]) <= 4 * sd / math.sqrt(len(payoffs)) + 1e-9, move
    if phase == "stake":  # a stake's value is linear in the stake
        per_chip = {int(m.split()[1]): v / int(m.split()[1]) for m, v in ev.values.items()}
        assert max(per_chip.values()) - min(per_chip.values()) < 1e-9


def test_a_view_no_world_fits_is_left_out_of_a_review(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardplay.bots.evaluation import NoWorld, game_of

    record = _bot_match("twenty", 4, "random", target=30)
    start = cardplay.replay({**record, "moves": []})
    assert isinstance(start, cardplay.Match)
    game_type = type(game_of(start.view(0)))

    def refuse(self: object, view: object, rng: object) -> Deal:
        raise ValueError("no deck order fits")

    monkeypatch.setattr(game_type, "sample_deal", refuse)
    with pytest.raises(NoWorld, match="no world consistent with this view"):
        deal = start.deal
        while len(deal.legal_moves()) < 2:
            start.play(start.legal_moves()[0])
        evaluate(start.view(start.to_move or 0), "random", seed=1)
    assert review(record, level="random").decisions == ()
