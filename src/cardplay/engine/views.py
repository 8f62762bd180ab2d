"""Views: what one seat may know of a deal or a match, frozen and JSON-ready."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..cards import Card
from .moves import Move

_SCALARS = (str, int, float, bool, type(None))


def freeze(value: Any) -> Any:
    """A read-only deep copy: dicts become mapping proxies, lists become tuples."""
    t = type(value)
    if t in _SCALARS:
        return value
    if t is dict or t is MappingProxyType:
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if t is list or t is tuple:
        return tuple([freeze(v) for v in value])
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    return value


def thaw(value: Any) -> Any:
    """The JSON-ready form of a frozen value (cards and moves become their texts)."""
    t = type(value)
    if t is Card:
        return str(value)
    if t in _SCALARS:
        return value
    if t is dict or t is MappingProxyType or isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if t is list or t is tuple:
        return [thaw(v) for v in value]
    if t is Move:
        return value.text
    return value


@dataclass(frozen=True)
class View:
    """What one seat may know of a deal (or of a match, when ``match`` is set).

    ``public`` holds the game's public state in JSON-ready form (cards as canonical strings);
    ``hand`` the seat's own cards; ``legal_moves`` is empty unless the seat is to move;
    ``history`` is every move so far as ``(seat, text)``. ``match`` (for a match view) holds the
    match scores, the results of finished deals and the deal number.
    """

    game: str
    seat: int
    players: int
    dealer: int
    to_move: int | None
    hand: tuple[Card, ...]
    legal_moves: tuple[Move, ...]
    public: Mapping[str, Any]
    points: tuple[int, ...]
    is_over: bool
    result: tuple[int, ...] | None
    history: tuple[tuple[int, str], ...]
    options: Mapping[str, Any]
    match: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; every card is written as its canonical string. The public state
        holds the fields of the game's declaration, in its order."""
        from .registry import declaration_of  # the registry imports the games, which need views

        declaration = declaration_of(self.game)
        pub = self.public
        public = {f.name: thaw(pub[f.name]) for f in declaration.public if f.name in pub}
        return {
            "game": self.game,
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "hand": [str(c) for c in self.hand],
            "legal_moves": [m.text for m in self.legal_moves],
            "public": public,
            "points": list(self.points),
            "is_over": self.is_over,
            "result": list(self.result) if self.result is not None else None,
            "history": [[s, t] for s, t in self.history],
            "options": thaw(self.options),
            "match": thaw(self.match) if self.match is not None else None,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def _of(cls, fields: dict[str, Any]) -> View:
        """A view from every field but ``match``, already checked by its maker: the engine's
        path, a view per move. The frozen dataclass's ``__init__`` sets each field through
        ``object.__setattr__``, which cost about a third of a Sixty-Six view."""
        view = _new_object(cls)
        view.__dict__.update(fields)
        return view


_new_object = object.__new__
