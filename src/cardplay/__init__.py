"""cardplay: seven classic card games with one small, fast, typed API.

>>> import cardplay
>>> game = cardplay.load("sixty-six")
>>> deal = game.deal(seed=7)
>>> deal.to_move
0
"""

from .cards import Card, CardSet
from .engine import (
    Deal,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    Move,
    OptionError,
    RecordError,
    View,
    games,
    load,
    replay,
)

__all__ = [
    "Card",
    "CardSet",
    "Deal",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Match",
    "Move",
    "OptionError",
    "RecordError",
    "View",
    "games",
    "load",
    "replay",
]

__version__ = "0.1.0"
