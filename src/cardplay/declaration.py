"""What a game declares about itself, typed and in one place.

Every front-end, bot level and adapter reads a game's :class:`Declaration` instead of guessing
from key names: the browser and the terminal render a table from it, ``GET /api/games`` serves it,
``View.to_dict()`` writes the public state field by field as it says, and the bot levels build
their searchers from it. A game sets ``declaration`` on its :class:`~cardplay.engine.Game`
subclass; ``tests/test_declarations.py`` checks every view of random deals against it.

Field names mean the same in every game; where a game has the thing, it uses the name:

========================  ==========================================================
``stock``                 the number of cards left to draw (talon, shoe, deck)
``trump_suit``            the trump suit
``trump_card``            the face-up trump card under the stock, while it lies there
``trick``                 the cards of the current trick, as ``{"seat", "card"}`` records
``last_trick``            the last completed trick
``hand_sizes``            the number of cards each seat holds
``leader``                the seat that leads (or led) the current trick
``chips``                 each seat's chips
``outcome``               how the deal ended, once it is over
========================  ==========================================================

Everything here is plain data and the standard library, so ``import cardplay`` stays light.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .i18n import LANGS, Text

if TYPE_CHECKING:
    from .engine import Game

__all__ = [
    "KINDS",
    "UNUSED",
    "Bots",
    "Declaration",
    "Facts",
    "Field",
    "MoveKind",
    "OptionText",
    "Refusal",
    "Rule",
    "Searcher",
    "Text",
    "Value",
    "check_public",
]


Scalar = str | int | bool | None


@dataclass(frozen=True)
class Value:
    """One value of a named set: its label and a one-line description, in both languages."""

    value: Scalar
    label: Text
    description: Text

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "label": self.label.to_dict(),
                "description": self.description.to_dict()}


# The kinds of a public field, and what a value of each kind is in ``View.to_dict()``:
KINDS: dict[str, str] = {
    "card": "a card as its canonical text ('QH'), or null",
    "cards": "a list of cards, or null",
    "suit": "a suit letter (S, H, D, C), or null",
    "seat": "a seat number, or null",
    "seats": "a list of seats",
    "number": "a whole number (a counter, points, chips), or null",
    "numbers": "a list of whole numbers that is not one per seat (a range, a list of stakes), "
               "or null",
    "per_seat": "a list of one whole number (or null) per seat",
    "per_seat_cards": "a list of one list of cards per seat",
    "move": "a move as its canonical text ('AC+KH=1'), or null",
    "choice": "one value of the field's named set",
    "per_seat_choice": "a list of one value of the named set per seat",
    "flag": "true or false",
    "record": "one record of the listed fields, or null",
    "records": "a list of records of the listed fields",
}


def _named_value(values: tuple[Value, ...], raw: Scalar) -> Value | None:
    # the type check keeps True from matching a value 1 (bool is an int)
    for v in values:
        if v.value == raw and type(v.value) is type(raw):
            return v
    return None


@dataclass(frozen=True)
class Field:
    """One field of a game's public state (or of one of its records).

    ``values`` is the named set of a ``choice`` field; ``fields`` are the fields of a ``record``
    or of each entry of ``records``. ``optional``: the field may be missing from the dict (a
    record's field, or a deal's outcome before it is over). ``detail``: a record of the deal so
    far (every trick, every card used), which a table shows on request rather than at all times.
    """

    name: str
    kind: str
    label: Text
    values: tuple[Value, ...] = ()
    fields: tuple[Field, ...] = ()
    optional: bool = False
    description: Text | None = None
    detail: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"field {self.name!r}: unknown kind {self.kind!r}; kinds: "
                             f"{', '.join(KINDS)}")
        if self.kind in ("choice", "per_seat_choice") and not self.values:
            raise ValueError(f"field {self.name!r}: a {self.kind} field lists its values")
        if self.kind in ("record", "records") and not self.fields:
            raise ValueError(f"field {self.name!r}: a {self.kind} field lists its fields")

    def value(self, raw: Scalar) -> Value | None:
        """The declared value of a named set (None when it is not one)."""
        return _named_value(self.values, raw)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind,
                               "label": self.label.to_dict()}
        if self.description is not None:
            out["description"] = self.description.to_dict()
        if self.values:
            out["values"] = [v.to_dict() for v in self.values]
        if self.fields:
            out["fields"] = [f.to_dict() for f in self.fields]
        if self.optional:
            out["optional"] = True
        if self.detail:
            out["detail"] = True
        return out


@dataclass(frozen=True)
class OptionText:
    """The words of one option (its name, default and values stay those of ``Game.Options``)."""

    name: str
    label: Text
    description: Text
    values: tuple[Value, ...] = ()

    def value(self, raw: Scalar) -> Value | None:
        """The words of one of the option's values (None for a number, or an unnamed value)."""
        return _named_value(self.values, raw)


@dataclass(frozen=True)
class MoveKind:
    """One kind of move: which canonical texts it covers (``pattern``, a regular expression that
    reads the same in Python and JavaScript) and how to name it. ``confirm``: the move cannot be
    taken back and changes the deal's course (closing the talon), so a front-end asks first.
    ``repeat``: a move often forced many times in a row (drawing until a card fits), which a
    front-end may play again by itself while it stays the only legal move, once the person
    chose it."""

    name: str
    label: Text
    pattern: str
    description: Text
    confirm: bool = False
    repeat: bool = False

    def matches(self, text: str) -> bool:
        return re.fullmatch(self.pattern, text) is not None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label.to_dict(), "pattern": self.pattern,
                "description": self.description.to_dict(), "confirm": self.confirm,
                "repeat": self.repeat}


@dataclass(frozen=True)
class Refusal:
    """One reason the game gives for refusing a move, as a whole sentence that names the rule
    (``"You must follow suit ({suit}): play {cards}."``). Its placeholders are filled by
    :class:`cardplay.engine.Reason`: ``card``/``cards`` take canonical cards (written as the
    table shows them), ``suit`` a suit letter (written as its symbol), the rest numbers."""

    name: str
    text: Text


@dataclass(frozen=True)
class Rule:
    """One paragraph of a game's rules for players. ``covers`` names what it explains, so that
    a test can hold the rules to the declaration: ``move:NAME`` (a move kind), ``option:NAME``,
    ``refusal:NAME`` (a reason for refusing a move), ``score:NAME`` (a way points are scored).
    ``when``: the paragraph applies only where these options have these values (Schnapsen's
    own rules); the rules of a table show the paragraphs of its options."""

    text: Text
    covers: tuple[str, ...] = ()
    when: tuple[tuple[str, Scalar], ...] = ()

    def applies(self, options: Mapping[str, Any]) -> bool:
        return all(options.get(k, v) == v for k, v in self.when)

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text.to_dict(), "covers": list(self.covers),
                "when": {k: v for k, v in self.when}}


# The move kind of action slots that no position ever offers.
UNUSED = "unused"


@dataclass(frozen=True)
class Facts:
    """What a loaded game (its options and player count) is, in numbers.

    ``action_layout`` splits the fixed action space ``range(action_space)`` into runs of one move
    kind: ``(kind, first action, count)``, where the kind ``UNUSED`` marks slots that are never
    legal (the card slots of a game whose moves name no single card). ``result_bounds`` bound
    one seat's ``deal.result``; ``max_moves`` bounds the moves of one deal, or only caps them
    where ``max_moves_is_cap`` (a deal may in principle go on longer, as Banchok's reshuffles
    allow).
    ``points_pay``: a deal's running points are what it pays so far (net chips), so a deal cut
    short can be scored by them.
    """

    players: tuple[int, int]
    action_space: int
    action_layout: tuple[tuple[str, int, int], ...]
    result_bounds: tuple[float, float]
    max_moves: int
    zero_sum: bool
    max_moves_is_cap: bool = False
    points_pay: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"players": list(self.players), "action_space": self.action_space,
                "action_layout": [list(x) for x in self.action_layout],
                "result_bounds": list(self.result_bounds), "max_moves": self.max_moves,
                "zero_sum": self.zero_sum, "max_moves_is_cap": self.max_moves_is_cap,
                "points_pay": self.points_pay}


@dataclass(frozen=True)
class Searcher:
    """How one search level plays a game: a searcher of ``cardplay.bots`` by name
    (``rollout``, ``ismcts``, ``lookahead``) or a game's own (``factory``, ``"module:callable"``
    called as ``factory(game, seed=seed, **settings)``), with its budget ``settings``."""

    kind: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    factory: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "settings": dict(self.settings)}
        if self.factory is not None:
            out["factory"] = self.factory
        return out


@dataclass(frozen=True)
class Bots:
    """A game's bots: its heuristic (``"module:Class"``, built as ``Class(game, seed=seed)``), the
    searcher of each search level, and whether the heuristic reads the move history (searchers
    then keep the history in the views of their rollouts)."""

    heuristic: str
    levels: Mapping[str, Searcher]
    reads_history: bool = False
    # ``"module:function"`` giving exact move values where the game allows them (see
    # ``cardplay.bots.evaluation``): ``function(game, view, rng)`` returns ``(values by move code,
    # worlds counted)`` or None where it has no exact answer, and the values are then sampled.
    exact: str | None = None
    # The heuristic's settings for finishing an evaluation's sampled deals, where its own are
    # too slow to finish hundreds of deals per decision (an exact endgame search at every move).
    rollout_settings: Mapping[str, Any] = field(default_factory=dict)
    # ``"module:function"``: ``function(game, view)`` maps each legal move of the view to a key,
    # one key for moves that the rules and the heuristic treat alike from there on (Maltese
    # Twenty's cards of one value, Two-Ten-Jack's touching cards): they have one value, so an
    # evaluation samples one move of each key and gives the others its value.
    move_classes: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"heuristic": self.heuristic,
                "levels": {k: v.to_dict() for k, v in self.levels.items()},
                "reads_history": self.reads_history, "exact": self.exact is not None,
                "rollout_settings": dict(self.rollout_settings)}


@dataclass(frozen=True)
class Declaration:
    """Everything a consumer needs to know about a game."""

    title: Text
    summary: Text
    public: tuple[Field, ...]
    options: tuple[OptionText, ...]
    moves: tuple[MoveKind, ...]
    bots: Bots | None
    facts: Callable[[Game], Facts]
    # what a deal's result counts, written after a decimal number ("cost 1.5 game points";
    # Russian takes the genitive singular after a fraction)
    result_units: Text = Text("points")  # noqa: RUF009 (a frozen value, safely shared)
    # what one deal is called where the game has its own word ("Round {n}" in Maltese Twenty,
    # whose table shows the round): a front-end's header then says it, not "Deal {n}"
    deal_name: Text | None = None
    # and how its end is announced ("Round {n} is over", a heading): its own sentence, since Russian
    # agrees the verb with the noun (a round's end and a deal's end take different endings)
    deal_over: Text | None = None
    # Why a move is refused (Deal.why_illegal names one of these), the rules for players, and
    # the names of the ways the game scores points (each one some rule covers: score:NAME).
    refusals: tuple[Refusal, ...] = ()
    rules: tuple[Rule, ...] = ()
    scoring: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = [f.name for f in self.public]
        if len(set(names)) != len(names):
            raise ValueError(f"public fields declared twice: {names}")

    def field(self, name: str) -> Field:
        for f in self.public:
            if f.name == name:
                return f
        raise KeyError(name)

    def option(self, name: str) -> OptionText:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def refusal(self, name: str) -> Refusal:
        for r in self.refusals:
            if r.name == name:
                return r
        raise KeyError(name)

    def move_kind(self, text: str) -> MoveKind | None:
        """The kind of a move's canonical text (the first that matches)."""
        for k in self.moves:
            if k.matches(text):
                return k
        return None

    def to_dict(self, game: Game) -> dict[str, Any]:
        """The whole declaration of a loaded game, JSON-ready (what ``GET /api/games`` serves):
        options carry their default, values and range from the game's ``Options``."""
        options = []
        for name, f in type(game).option_fields().items():
            meta = f.metadata
            words = self.option(name)
            entry: dict[str, Any] = {"name": name, "default": f.default,
                                     "label": words.label.to_dict(),
                                     "description": words.description.to_dict()}
            choices = meta.get("choices")
            if choices is not None:
                labelled = {v.value: v for v in words.values}
                entry["values"] = [labelled[c].to_dict() if c in labelled else
                                   {"value": c, "label": {lang: str(c) for lang in LANGS},
                                    "description": {lang: "" for lang in LANGS}}
                                   for c in choices]
            lo_hi = meta.get("int_range")
            if lo_hi:
                entry["min"], entry["max"] = lo_hi
            elif meta.get("positive_int"):
                entry["min"] = 1
            options.append(entry)
        return {
            "name": game.name,
            "title": self.title.to_dict(),
            "summary": self.summary.to_dict(),
            "public": [f.to_dict() for f in self.public],
            "options": options,
            "moves": [m.to_dict() for m in self.moves],
            "facts": self.facts(game).to_dict(),
            "bots": self.bots.to_dict() if self.bots is not None else None,
            "result_units": self.result_units.to_dict(),
            "deal_name": self.deal_name.to_dict() if self.deal_name is not None else None,
            "deal_over": self.deal_over.to_dict() if self.deal_over is not None else None,
            "rules": [r.to_dict() for r in self.rules],
        }


# --------------------------------------------------------------------------------------------
# Checking a public state against its declaration

_CARD = re.compile(r"(?:[2-9TJQKA])[SHDC]")
_SUITS = ("S", "H", "D", "C")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_value(f: Field, value: Any, players: int, where: str) -> None:
    def bad(want: str) -> ValueError:
        return ValueError(f"{where}: {value!r} is not {want}")

    def seat(x: object) -> bool:
        return _is_int(x) and 0 <= x < players  # type: ignore[operator]

    def card(x: object) -> bool:
        return isinstance(x, str) and _CARD.fullmatch(x) is not None

    def cards(x: object) -> bool:
        return isinstance(x, list) and all(card(c) for c in x)

    k = f.kind
    if k == "card":
        if value is not None and not card(value):
            raise bad("a card or null")
    elif k == "cards":
        if value is not None and not cards(value):
            raise bad("a list of cards or null")
    elif k == "suit":
        if value is not None and value not in _SUITS:
            raise bad("a suit or null")
    elif k == "seat":
        if value is not None and not seat(value):
            raise bad(f"a seat of {players} or null")
    elif k == "seats":
        if not isinstance(value, list) or not all(seat(s) for s in value):
            raise bad("a list of seats")
    elif k == "number":
        if value is not None and not _is_int(value):
            raise bad("a whole number or null")
    elif k == "numbers":
        if value is not None and (not isinstance(value, list) or
                                  not all(_is_int(x) for x in value)):
            raise bad("a list of whole numbers or null")
    elif k == "per_seat":
        if not isinstance(value, list) or len(value) != players or \
                not all(x is None or _is_int(x) for x in value):
            raise bad(f"a list of {players} whole numbers")
    elif k == "per_seat_cards":
        if not isinstance(value, list) or len(value) != players or \
                not all(cards(x) for x in value):
            raise bad(f"a list of {players} lists of cards")
    elif k == "move":
        if value is not None and (not isinstance(value, str) or not value):
            raise bad("a move's text or null")
    elif k == "choice":
        if f.value(value) is None:
            raise bad(f"one of {[v.value for v in f.values]}")
    elif k == "per_seat_choice":
        if not isinstance(value, list) or len(value) != players or \
                any(f.value(x) is None for x in value):
            raise bad(f"a list of {players} values of {[v.value for v in f.values]}")
    elif k == "flag":
        if not isinstance(value, bool):
            raise bad("true or false")
    elif k == "record":
        if value is not None:
            _check_record(f.fields, value, players, where)
    elif k == "records":
        if not isinstance(value, list):
            raise bad("a list of records")
        for i, rec in enumerate(value):
            _check_record(f.fields, rec, players, f"{where}[{i}]")


def _check_record(fields: Sequence[Field], rec: Any, players: int, where: str) -> None:
    if not isinstance(rec, Mapping):
        raise ValueError(f"{where}: {rec!r} is not a record")
    check_public(fields, rec, players, where)


def check_public(fields: Sequence[Field], public: Mapping[str, Any], players: int,
                 where: str = "public") -> None:
    """Raise ValueError unless ``public`` (a view's public state in JSON-ready form) holds exactly
    the declared fields, each a value of its kind."""
    declared = {f.name for f in fields}
    extra = [k for k in public if k not in declared]
    if extra:
        raise ValueError(f"{where}: undeclared fields {extra}")
    for f in fields:
        if f.name not in public:
            if not f.optional:
                raise ValueError(f"{where}: the field {f.name!r} is missing")
            continue
        _check_value(f, public[f.name], players, f"{where}.{f.name}")
