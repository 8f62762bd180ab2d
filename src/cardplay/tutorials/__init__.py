"""Guided first deals ("Learn to play"): one scripted deal per game, with a reason for each of
the learner's decisions.

A tutorial is a game with its options and a seed (so the cards are known), the learner's seat,
and the whole deal as a script: every move of every seat, in order. The learner's moves carry
the keyed text (context ``browser``, docs/i18n.md) that explains them; the other seats' moves
are played by the server as scripted (:func:`scripted_move`), not by a bot, so a lesson never
changes when the bots do. ``tests/test_tutorials.py`` replays every script through the engine:
each move legal at its point, the deal over after the last one, with the result the summary
names.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import Deal, Game, Match, load

__all__ = ["GAMES", "Note", "Turn", "Tutorial", "find", "lesson", "play_script", "scripted_move",
           "tutorial"]

# the games that have a tutorial, each in a module of this package named like the game
GAMES = ("sixty-six", "two-ten-jack", "twenty", "maltese-twenty", "chukhny", "banchok",
         "macao")

Param = str | int


@dataclass(frozen=True)
class Note:
    """A keyed text with its values: a card (``"TH"``), a suit (``"H"``) or a number."""

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params)}


@dataclass(frozen=True)
class Turn:
    """One move of the script; the learner's carry the note that explains them."""

    seat: int
    move: str
    note: Note | None = None


@dataclass(frozen=True)
class Tutorial:
    game: str
    seed: int
    learner: int
    intro: Note
    script: tuple[Turn, ...]
    summary: Note  # how the deal was scored; its numbers are checked against the replay
    result: tuple[int, ...]  # the deal's result per seat, as the engine reports it
    options: Mapping[str, Any] = field(default_factory=dict)

    def new_game(self) -> Game:
        return load(self.game, **dict(self.options))

    def steps(self) -> list[Turn]:
        return [t for t in self.script if t.seat == self.learner]


def learner_turn(seat: int, move: str, key: str, **params: Param) -> Turn:
    return Turn(seat, move, Note(key, params))


def _module(game: str) -> str:
    return f"{__name__}.{game.replace('-', '_')}"


def find(game: str) -> Tutorial | None:
    """The tutorial of a game, or None when it has none."""
    if game not in GAMES:
        return None
    found: Tutorial = importlib.import_module(_module(game)).TUTORIAL
    return found


def tutorial(game: str) -> Tutorial:
    """The tutorial of a game; ValueError naming the games that have one."""
    found = find(game)
    if found is None:
        raise ValueError(f"no tutorial for {game!r}; tutorials: {', '.join(GAMES)}")
    return found


def play_script(tut: Tutorial) -> tuple[Match, Deal]:
    """The tutorial's match after its whole script, and its first deal, each move checked:
    ValueError at the first one that is out of turn or illegal (the deal has moved on from
    the script)."""
    match = tut.new_game().match(seed=tut.seed)
    deal = match.deal
    for i, turn in enumerate(tut.script):
        if deal.is_over:
            raise ValueError(f"move {i + 1} ({turn.move}): the deal is already over")
        if deal.to_move != turn.seat:
            raise ValueError(f"move {i + 1} ({turn.move}): seat {deal.to_move} is to move, "
                             f"not {turn.seat}")
        legal = [str(m) for m in deal.legal_moves()]
        if turn.move not in legal:
            raise ValueError(f"move {i + 1} ({turn.move}) is not legal; legal: {legal}")
        match.play(turn.move)
    return match, deal


def scripted_move(game: Game, seed: int, seat: int, deal_number: int,
                  history: Sequence[Sequence[Any]]) -> str | None:
    """The script's move for ``seat`` (not the learner's) at a tutorial's table whose first
    deal has reached ``history`` (its ``[seat, move]`` pairs), or None: no tutorial deals
    this seed and options, the deal is not the first, or the moves so far left the script."""
    tut = find(game.name)
    if tut is None or tut.seed != seed or deal_number != 1 or seat == tut.learner or \
            game.options_dict() != tut.new_game().options_dict():
        return None
    n = len(history)
    if n >= len(tut.script) or tut.script[n].seat != seat:
        return None
    if any(list(h) != [t.seat, t.move] for h, t in zip(history, tut.script, strict=False)):
        return None
    return tut.script[n].move


def lesson(tut: Tutorial) -> dict[str, Any]:
    """What the learner's browser is sent: the learner's own moves and notes only (the other
    seats' moves would show their cards before they are played)."""
    return {"game": tut.game, "learner": tut.learner, "intro": tut.intro.to_dict(),
            "steps": [{"move": t.move, **(t.note or Note("")).to_dict()} for t in tut.steps()],
            "summary": tut.summary.to_dict()}
