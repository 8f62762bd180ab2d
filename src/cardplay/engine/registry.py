"""The registry of games by name, and records replayed."""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Mapping
from typing import Any, TypeVar

from ..declaration import Declaration
from .deal import Deal
from .errors import RecordError
from .game import Game
from .match import Match

_REGISTRY: dict[str, str] = {
    "banchok": "cardplay.builtin.banchok",
    "chukhny": "cardplay.builtin.chukhny",
    "macao": "cardplay.builtin.macao",
    "maltese-twenty": "cardplay.builtin.maltese_twenty",
    "sixty-six": "cardplay.builtin.sixty_six",
    "twenty": "cardplay.builtin.twenty",
    "two-ten-jack": "cardplay.builtin.two_ten_jack",
}
_CLASSES: dict[str, type[Game]] = {}
_DECLARATIONS: dict[str, Declaration] = {}
G = TypeVar("G", bound=Game)


def register(cls: type[G]) -> type[G]:
    """Class decorator: make a Game subclass loadable by its ``name``."""
    _CLASSES[cls.name] = cls
    _DECLARATIONS.pop(cls.name, None)
    return cls


def unregister(name: str) -> None:
    """Forget a game registered with :func:`register` outside the built-in seven (for tests)."""
    if name in _REGISTRY:
        raise ValueError(f"{name!r} is a built-in game; it cannot be unregistered")
    _CLASSES.pop(name, None)
    _DECLARATIONS.pop(name, None)


def _available(name: str) -> bool:
    return name in _CLASSES or importlib.util.find_spec(_REGISTRY[name]) is not None


def games() -> list[str]:
    """The names of every registered game, sorted: the built-in ones and any registered with
    :func:`register`."""
    return sorted({n for n in _REGISTRY if _available(n)} | set(_CLASSES))


def game_class(name: str) -> type[Game]:
    """The Game subclass of a registered game's name (ValueError naming the valid ones)."""
    if isinstance(name, str) and name in _CLASSES:
        return _CLASSES[name]
    if not isinstance(name, str) or name not in _REGISTRY or not _available(name):
        raise ValueError(f"unknown game {name!r}; valid games: {', '.join(games())}")
    importlib.import_module(_REGISTRY[name])
    return _CLASSES[name]


def load(name: str, **options: Any) -> Game:
    """A game by name with options (RULES.md names and values); ValueError/OptionError otherwise."""
    return game_class(name)(**options)


def replay(record: Mapping[str, Any] | str) -> Deal | Match:
    """Rebuild the deal or match of a record, move by move; RecordError when it is corrupt."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise RecordError(f"a record is JSON; this is not: {e}") from None
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object with game, options, seed or deck, and moves")
    fmt = record.get("format", "cardplay-match/1" if "deck" not in record else "cardplay-deal/1")
    if fmt not in ("cardplay-deal/1", "cardplay-match/1"):
        raise RecordError(f"unknown record format {fmt!r}")
    for key in ("game", "moves"):
        if key not in record:
            raise RecordError(f"the record has no {key!r}")
    moves = record["moves"]
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("the record's 'moves' must be a list of move texts")
    options = record.get("options", {}) or {}
    if not isinstance(options, Mapping):
        raise RecordError("the record's 'options' must be an object")
    try:
        game = load(record["game"], **options)
    except ValueError as e:
        raise RecordError(f"the record's game or options are not valid: {e}") from None
    target: Deal | Match
    try:
        if fmt == "cardplay-deal/1":
            ctx = record.get("context") or {}
            if not isinstance(ctx, Mapping):
                raise RecordError("the record's 'context' must be an object")
            target = game.deal(record.get("seed"), deck=record.get("deck"),
                               dealer=record.get("dealer"), **ctx)
        else:
            series = record.get("series")
            if series is not None:  # daily deals: short matches dealt the same for everyone
                from .series import Series

                target = Series(game, record.get("seed"), record.get("dealer"), series)
            else:
                target = game.match(record.get("seed"), dealer=record.get("dealer"))
    except RecordError:
        raise
    except (ValueError, TypeError) as e:
        raise RecordError(f"the record's seed, deck or dealer is not valid: {e}") from None
    for i, m in enumerate(moves):
        try:
            target.play(m)
        except ValueError as e:
            raise RecordError(f"move {i + 1} ({m!r}) does not replay: {e}") from None
    return target


def declaration_of(name: str) -> Declaration:
    """The declaration of a registered game by name (looked up once)."""
    found = _DECLARATIONS.get(name)
    if found is None:
        found = _DECLARATIONS[name] = game_class(name).declaration
    return found
