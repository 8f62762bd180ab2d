"""The engine: Game, Deal, Match, Move, View, the errors, the registry and records.

One module each: ``game``, ``deal``, ``match``, ``moves``, ``views``, ``options``, ``seeds``,
``errors`` and ``registry`` (which also replays records); this package re-exports their public
names, which are the whole engine API.

The public methods here check everything (turn, notation, legality) and keep history; a game
module subclasses :class:`Game` and :class:`Deal` and writes small hooks:

* ``Game._parse(text) -> int`` and ``Game._format(code) -> str``: the game's move notation,
  where a move is an int code (cards first by card id, then the game's other actions);
* ``Deal._legal(self) -> list[int]``, ``Deal._apply(self, code)``, ``Deal._turn`` (the seat to
  act, or ``None`` once over), ``Deal._points()``, ``Deal._result()``, ``Deal._hand(seat)``,
  ``Deal._public(seat)`` and ``Deal._copy()``.

Moves are public in every game here (a draw says "draw", never which card), so each view carries the
whole move history as ``(seat, text)`` pairs; what a seat may not know lives only in the deck order,
which views never expose.

Bots call :meth:`Deal.legal_codes` and :meth:`Deal.apply_code`, a trusted fast path with no
parsing, no objects per move and no checks. A game whose playouts matter may override those two
with single methods of its own (``apply_code`` then records the move in ``history`` itself, and
``play`` goes through it); the hooks stay for everything else.
"""

from __future__ import annotations

from .deal import Deal
from .errors import (
    GameError,
    IllegalMoveError,
    InvalidMoveError,
    OptionError,
    RecordError,
)
from .game import Game
from .match import Match
from .moves import Move
from .options import option
from .reasons import Reason
from .registry import declaration_of, game_class, games, load, register, replay, unregister
from .seeds import derive_seed, fresh_seed, shuffled
from .views import View

__all__ = [
    "Deal",
    "Game",
    "GameError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Match",
    "Move",
    "OptionError",
    "Reason",
    "RecordError",
    "View",
    "declaration_of",
    "derive_seed",
    "fresh_seed",
    "game_class",
    "games",
    "load",
    "option",
    "register",
    "replay",
    "shuffled",
    "unregister",
]
