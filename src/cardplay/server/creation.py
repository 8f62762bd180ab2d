"""Checking a request for a new table: its game, options, seats, seed, name and contribution."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import bots as bots_mod
from ..engine import Game, game_class
from . import dealing
from .bounds import check_match_length
from .security import InputError, check_seed, clean_text
from .tables import Seat, TableError

__all__ = ["MAX_NAME", "NewTable", "away_level_for", "check_game", "check_new_table"]

MAX_NAME = 40  # characters of a seat name


@dataclass
class NewTable:
    """A request for a table, checked: nothing is stored or created yet."""

    game: Game
    seats: list[Seat]
    humans: int  # seats for people
    seed: int | None  # the seed chosen by the creator or the operator (None: drawn)
    name: str  # the creator's seat name
    contribution: str | None  # the creator's part of the shuffle


def away_level_for(away_level: str, game: Game) -> str:
    """The bot that holds an away person's seat: ``away_level`` where it plays ``game``."""
    try:
        bots_mod.load(away_level, game, seed=0)
    except ValueError:
        return "random"
    return away_level


def check_game(name: Any, options: Any) -> Game:
    """The game a new table (or a seek, :mod:`.pairing`) asks for, with its options;
    :class:`TableError` says what is wrong."""
    if not isinstance(name, str):
        raise TableError("'game' is a game's name")
    try:
        cls = game_class(name)
    except ValueError as e:
        raise TableError(str(e)) from None
    if not isinstance(options or {}, Mapping):
        raise TableError("'options' is an object of option names and values")
    try:
        return cls(**dict(options or {}))
    except (ValueError, TypeError) as e:
        raise TableError(str(e)) from None


def check_new_table(game_name: Any, options: Mapping[str, Any] | None,
                    seats: Iterable[Mapping[str, Any]], *, seed: Any, claim: bool, name: Any,
                    operator_seed: bool, listed: Any, contribution: Any,
                    away_level: str) -> NewTable:
    """The request of :meth:`.hub.Hub.create_table`, checked; :class:`TableError` says what
    is wrong with it (a seed is accepted only where nobody but the creator sits: a creator who
    chose the shuffle of a table with other people would know their cards)."""
    if not isinstance(listed, bool):
        raise TableError("'listed' is true or false")
    game = check_game(game_name, options)
    if not isinstance(seats, (list, tuple)):
        raise TableError("'seats' is a list of seats")
    check_match_length(game, seats)
    seat_list = list(seats)
    if len(seat_list) != game.players:
        raise TableError(f"{game.name} with these options has {game.players} seats; "
                         f"{len(seat_list)} were given")
    try:
        chosen = check_seed(seed)
        seat_name = clean_text(name, "name", MAX_NAME)
        given = dealing.check_contribution(contribution)
    except (InputError, ValueError) as e:
        raise TableError(str(e)) from None
    humans = sum(1 for spec in seat_list
                 if isinstance(spec, Mapping) and spec.get("kind") == "human")
    if chosen is not None and not operator_seed and humans > (1 if claim else 0):
        raise TableError("a seed may be chosen only at a table where nobody but you sits "
                         "(you and bots); at a table with other people the server draws "
                         "it and shows everyone a commitment to it")
    return NewTable(game, [_seat(i, spec, game, away_level) for i, spec in enumerate(seat_list)],
                    humans, chosen, seat_name, given)


def _seat(index: int, spec: Any, game: Game, away_level: str) -> Seat:
    if not isinstance(spec, Mapping):
        raise TableError("each seat is an object such as {\"kind\": \"bot\", "
                         "\"level\": \"random\"}")
    kind = spec.get("kind")
    if kind == "human":
        return Seat(index, "human", away_level_for(away_level, game))
    if kind == "bot":
        level = spec.get("level") or "random"
        if not isinstance(level, str):
            raise TableError("a bot's level is a name")
        try:
            bots_mod.load(level, game, seed=0)
        except ValueError as e:
            raise TableError(str(e)) from None
        return Seat(index, "bot", level, name=f"{level} bot")
    raise TableError("a seat's kind is 'human' or 'bot'")
