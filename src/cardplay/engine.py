"""The engine: Game, Deal, Match, Move, View, the errors, the registry and records.

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
parsing, no objects per move and no checks.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.util
import json
import os
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .cards import CARD_OBJECTS, Card, CardParseError, format_card, parse_card, parse_cards
from .declaration import Declaration, Facts

if TYPE_CHECKING:
    from .actions import ActionSpace

__all__ = [
    "Deal",
    "Game",
    "GameError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Match",
    "Move",
    "OptionError",
    "RecordError",
    "View",
    "derive_seed",
    "games",
    "load",
    "option",
    "register",
    "replay",
    "shuffled",
    "unregister",
]


# --------------------------------------------------------------------------------------------
# Errors


class GameError(ValueError):
    """Base of the engine's errors; every one is a ``ValueError`` with an actionable message."""


class InvalidMoveError(GameError):
    """The text does not fit the game's move notation."""


class IllegalMoveError(GameError):
    """The move fits the notation but cannot be made now (or not by this seat)."""


class OptionError(GameError):
    """An unknown option, or a value that the option does not take."""


class RecordError(GameError):
    """A record that is not a valid record of this engine, or whose moves do not replay."""


# --------------------------------------------------------------------------------------------
# Moves


class Move:
    """One action in a game's notation (RULES.md 0.4).

    A Move compares equal to its canonical text, so ``"KH=20" in deal.legal_moves()`` works, and
    ``repr`` round-trips: ``Move('KH=20')``.
    """

    __slots__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is text, not {type(text).__name__}")
        object.__setattr__(self, "text", text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.text == other.text
        if isinstance(other, str):
            return self.text == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __lt__(self, other: Move) -> bool:
        return self.text < str(other)


# --------------------------------------------------------------------------------------------
# Options


def option(default: Any, choices: Sequence[Any] | None = None, *, positive_int: bool = False,
           int_range: tuple[int, int] | None = None, doc: str = "") -> Any:
    """Declare one option of a game's frozen options dataclass.

    ``choices`` lists the valid values; ``positive_int`` accepts any whole number >= 1;
    ``int_range`` accepts whole numbers in an inclusive range.
    """
    meta = {"choices": tuple(choices) if choices is not None else None,
            "positive_int": positive_int, "int_range": int_range, "doc": doc}
    return dataclasses.field(default=default, metadata=meta)


def _check_option_value(game: str, f: dataclasses.Field[Any], value: Any) -> Any:
    meta = f.metadata
    choices = meta.get("choices")
    if choices is not None:
        for c in choices:
            if value == c and type(value) is type(c):
                return value
        # Accept "true"/"false"/"7" spellings from the command line and records.
        if isinstance(value, str):
            for c in choices:
                if isinstance(c, bool) and value.lower() in ("true", "false") and \
                        (value.lower() == "true") == c:
                    return c
                if isinstance(c, int) and not isinstance(c, bool) and value.isdigit() and \
                        int(value) == c:
                    return c
        shown = ", ".join(repr(c) for c in choices)
        raise OptionError(f"{game}: option {f.name}={value!r} is not valid; valid values: {shown}")
    if meta.get("positive_int") or meta.get("int_range"):
        v = value
        if isinstance(v, str) and v.isdigit():
            v = int(v)
        lo, hi = meta.get("int_range") or (1, None)
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            want = f"a whole number from {lo} to {hi}" if hi is not None else \
                f"a whole number of at least {lo}"
            raise OptionError(f"{game}: option {f.name}={value!r} is not valid; it takes {want}")
        return v
    return value


# --------------------------------------------------------------------------------------------
# Seeds


def derive_seed(seed: int, *keys: object) -> int:
    """A 63-bit seed derived deterministically from a seed and keys (the same everywhere)."""
    h = hashlib.blake2b(repr((seed, *keys)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") >> 1


def shuffled(cards: list[int], seed: int) -> list[int]:
    """``cards`` in an order fixed by ``seed``: a Fisher-Yates shuffle driven by one big number.

    The number is the SHAKE-256 hash of the seed, with 256 bits more than log2(n!), so every
    order is equally likely to within 2**-256; one hash is several times cheaper than seeding a
    Mersenne Twister, and the order is the same on every platform and Python version.
    """
    n = len(cards)
    bits = sum(i.bit_length() for i in range(2, n + 1)) + 256
    k = int.from_bytes(hashlib.shake_256(b"cardplay-shuffle:%d" % seed).digest((bits + 7) // 8),
                       "little")
    out = list(cards)
    for i in range(n - 1, 0, -1):
        k, j = divmod(k, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def fresh_seed() -> int:
    """A new random seed for a deal or match created without one (it is recorded)."""
    return int.from_bytes(os.urandom(8), "big") >> 1


# --------------------------------------------------------------------------------------------
# Views


_SCALARS = (str, int, float, bool, type(None))


def _freeze(value: Any) -> Any:
    """A read-only deep copy: dicts become mapping proxies, lists become tuples."""
    t = type(value)
    if t in _SCALARS:
        return value
    if t is dict or t is MappingProxyType:
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if t is list or t is tuple:
        return tuple([_freeze(v) for v in value])
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    return value


def _thaw(value: Any) -> Any:
    """The JSON-ready form of a frozen value (cards and moves become their texts)."""
    t = type(value)
    if t is Card:
        return str(value)
    if t in _SCALARS:
        return value
    if t is dict or t is MappingProxyType or isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if t is list or t is tuple:
        return [_thaw(v) for v in value]
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
        declaration = _DECLARATIONS.get(self.game)
        if declaration is None:
            declaration = _DECLARATIONS[self.game] = game_class(self.game).declaration
        pub = self.public
        if declaration is None:  # TRANSITION: removed once every game declares itself
            public = _thaw(pub)
        else:
            public = {f.name: _thaw(pub[f.name]) for f in declaration.public if f.name in pub}
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
            "options": _thaw(self.options),
            "match": _thaw(self.match) if self.match is not None else None,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)


# --------------------------------------------------------------------------------------------
# Game

G = TypeVar("G", bound="Game")


class Game(ABC):
    """A game's immutable rules and options, and the factory of its deals and matches."""

    name: ClassVar[str]
    title: ClassVar[Mapping[str, str]]
    # Everything a front-end, a bot level or an adapter needs to know (cardplay.declaration).
    declaration: ClassVar[Declaration] = None  # type: ignore[assignment]  # TRANSITION
    Options: ClassVar[type]
    deck_size: ClassVar[int] = 52
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    DealClass: ClassVar[type[Deal]]
    # Whether sample_deal's worlds are dealt from a full deck order that replays the history
    # (False where earlier hidden reshuffles cannot be rebuilt, as in Polish Banchok).
    sampled_deals_replay: ClassVar[bool] = True
    # move code -> Move, shared by every deal of this game (filled lazily)
    _move_cache: dict[int, Move]

    def __init__(self, **options: Any) -> None:
        opts = self._resolve_options(dict(options))
        object.__setattr__(self, "options", opts)
        object.__setattr__(self, "_move_cache", {})
        object.__setattr__(self, "_text_cache", {})
        self._setup()

    options: Any

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Game is immutable; load a new one with other options")

    def _setup(self) -> None:
        """Precompute per-options tables (override; use object.__setattr__)."""

    # ---- options

    @classmethod
    def option_fields(cls) -> dict[str, dataclasses.Field[Any]]:
        return {f.name: f for f in dataclasses.fields(cls.Options)}

    @classmethod
    def _presets(cls) -> Mapping[str, Mapping[str, Any]]:
        """Named presets: preset name -> option values it sets (explicit options win)."""
        return {}

    def _resolve_options(self, given: dict[str, Any]) -> Any:
        fields = self.option_fields()
        if "players" in given and "players" not in fields:
            # RULES 0.6: the number of players is the option `players` in every game; a game
            # for a fixed number takes exactly that number.
            n = given.pop("players")
            if isinstance(n, str) and n.isdigit():
                n = int(n)
            if isinstance(n, bool) or n != self.min_players:
                raise OptionError(f"{self.name}: option players={n!r} is not valid; valid "
                                  f"values: {self.min_players}")
        for k in given:
            if k not in fields:
                raise OptionError(f"{self.name}: unknown option {k!r}; valid options: "
                                  f"{', '.join(sorted(fields))}")
        values: dict[str, Any] = {}
        presets = self._presets()
        if "preset" in fields:
            preset = _check_option_value(self.name, fields["preset"],
                                         given.get("preset", fields["preset"].default))
            values.update(presets.get(preset, {}))
            values["preset"] = preset
        for k, v in given.items():
            values[k] = _check_option_value(self.name, fields[k], v)
        opts = self.Options(**values)
        self._validate_options(opts, given)
        return opts

    def _validate_options(self, opts: Any, given: Mapping[str, Any]) -> None:
        """Reject combinations of options that the rules forbid (raise OptionError)."""

    @property
    def players(self) -> int:
        return int(getattr(self.options, "players", self.min_players))

    def action_space(self) -> ActionSpace:
        """The game's fixed action space (:mod:`cardplay.actions`): by default the identity over
        move codes below ``facts.action_space``; a game whose codes do not fit overrides this."""
        from .actions import ActionSpace

        return ActionSpace(self, self.facts.action_space)

    @property
    def facts(self) -> Facts:
        """The declared facts of this game with these options (built once per game)."""
        cached: Facts | None = self.__dict__.get("_facts")
        if cached is None:
            cached = self.declaration.facts(self)
            object.__setattr__(self, "_facts", cached)
        return cached

    def options_dict(self) -> dict[str, Any]:
        """The options as a plain dict (every option, defaults included)."""
        return {f.name: getattr(self.options, f.name) for f in dataclasses.fields(self.options)}

    @property
    def frozen_options(self) -> Mapping[str, Any]:
        """The options as a read-only mapping, built once per game."""
        cached: Mapping[str, Any] | None = self.__dict__.get("_frozen_options")
        if cached is None:
            cached = MappingProxyType(self.options_dict())
            object.__setattr__(self, "_frozen_options", cached)
        return cached

    def __repr__(self) -> str:
        return f"cardplay.load({self.name!r}, **{self.options_dict()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.name == self.name and \
            other.options == self.options

    def __hash__(self) -> int:
        return hash((self.name, self.options))

    # ---- notation

    @abstractmethod
    def _parse(self, text: str) -> int:
        """Parse canonical or accepted text to a move code; raise InvalidMoveError."""

    @abstractmethod
    def _format(self, code: int) -> str:
        """The canonical text of a move code."""

    def move(self, code: int) -> Move:
        """The shared Move object of a code."""
        m = self._move_cache.get(code)
        if m is None:
            m = self._move_cache[code] = Move(self._format(code))
        return m

    def _deck_card(self, text: str, deck_mask: int, expected: str) -> int:
        """A card of this game's deck from move text; InvalidMoveError saying what was expected
        (``expected`` lists the game's other move forms) or that the card is not in the deck."""
        try:
            card = parse_card(text)
        except ValueError:
            raise InvalidMoveError(f"{self.name}: {text!r} is not a move: expected {expected}"
                                   ) from None
        if not deck_mask >> card & 1:
            cards = [format_card(c) for c in range(52) if deck_mask >> c & 1]
            raise InvalidMoveError(f"{self.name}: {format_card(card)} is not a card of this "
                                   f"game's {len(cards)}-card deck ({' '.join(cards)})")
        return card

    def code_of(self, move: Move | str) -> int:
        """Parse a Move or text to its code; InvalidMoveError when it fits no notation."""
        text = move.text if isinstance(move, Move) else move
        if not isinstance(text, str):
            raise InvalidMoveError(f"{self.name}: a move is text such as {self._example_move()!r}, "
                                   f"not {type(move).__name__}")
        cache: dict[str, int] = self._text_cache  # type: ignore[attr-defined]
        code = cache.get(text)
        if code is None:
            code = self._parse(text)
            if len(cache) < 4096:
                cache[text] = code
        return code

    def parse_move(self, text: str) -> Move:
        """The canonical Move for text in any accepted spelling (InvalidMoveError otherwise)."""
        return self.move(self.code_of(text))

    def _example_move(self) -> str:
        return "AS"

    # ---- factories

    def deal(self, seed: int | None = None, *, deck: str | Sequence[Any] | None = None,
             dealer: int | None = None, **context: Any) -> Deal:
        """One deal, shuffled from ``seed`` or dealt from ``deck`` (top card first)."""
        n = self.players
        if dealer is None:
            dealer = n - 1
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"{self.name}: dealer must be a seat from 0 to {n - 1}, "
                             f"not {dealer!r}")
        if deck is not None:
            order = self._check_deck(deck)
            if seed is None:
                seed = 0
        else:
            if seed is None:
                seed = fresh_seed()
            elif isinstance(seed, bool) or not isinstance(seed, int):
                raise ValueError(f"{self.name}: a seed is a whole number, not {seed!r}")
            order = self._shuffled(seed)
            deck = None
        return self._deal_from_order(order, dealer, seed, deck is not None, context)

    def _deal_from_order(self, order: list[int], dealer: int, seed: int | None, from_deck: bool,
                         context: dict[str, Any]) -> Deal:
        """Deal from a deck order already known to be valid (sample_deal's trusted path)."""
        d = self.DealClass.__new__(self.DealClass)
        d._init_base(self, dealer, seed, order, from_deck)
        # Records carry the context (chips, bonuses) so that the deal replays; a game may
        # normalise it in _start.
        d._context = {k: v for k, v in context.items()}
        d._start(order, **context)
        return d

    def _deck_cards(self) -> list[int]:
        """The game's cards (with repeats for two-deck games), in id order."""
        return list(range(52))

    def _shuffled(self, seed: int) -> list[int]:
        return shuffled(self._deck_cards(), seed)

    def _check_deck(self, deck: str | Sequence[Any]) -> list[int]:
        try:
            cards = parse_cards(deck)
        except CardParseError as e:
            raise ValueError(f"{self.name}: bad deck: {e}") from None
        want = sorted(self._deck_cards())
        got = sorted(cards)
        if got != want:
            from collections import Counter
            cw, cg = Counter(want), Counter(got)
            missing = sorted((cw - cg).elements())
            extra = sorted((cg - cw).elements())
            valid = set(cw)
            unknown = sorted({c for c in extra if c not in valid})
            extra = [c for c in extra if c in valid]
            parts = []
            if missing:
                parts.append("missing " + " ".join(format_card(c) for c in missing))
            if extra:
                parts.append("extra " + " ".join(format_card(c) for c in extra))
            if unknown:
                parts.append("not in this game " + " ".join(format_card(c) for c in unknown))
            raise ValueError(f"{self.name}: a deck must hold exactly the game's {len(want)} cards "
                             f"(got {len(got)}): " + "; ".join(parts))
        return cards

    def match(self, seed: int | None = None, dealer: int | None = None) -> Match:
        """A whole match: deals follow each other with seeds derived from ``seed``."""
        return Match(self, seed, dealer)

    def sample_deal(self, view: View, rng: random.Random) -> Deal:
        """A full Deal consistent with ``view``: unknown cards dealt at random among the worlds
        that fit everything public. Games override this with their own constraints."""
        raise NotImplementedError(f"{self.name} does not implement sample_deal yet")

    # ---- match rules (hooks with common defaults)

    def _first_dealer(self, rng: random.Random) -> int:
        """The first dealer of a match, chosen as the rules say (default: at random)."""
        return rng.randrange(self.players)

    def _next_dealer(self, match: Match, finished: Deal) -> int:
        """Who deals after ``finished`` (default: the deal passes left)."""
        return (finished.dealer + 1) % finished.players

    def _deal_context(self, match: Match) -> dict[str, Any]:
        """State a match carries into its next deal (chips, bonuses, round numbers)."""
        return {}

    def _match_over(self, match: Match) -> bool:
        raise NotImplementedError

    def _match_winners(self, match: Match) -> list[int]:
        best = max(match.scores)
        return [i for i, s in enumerate(match.scores) if s == best]

    def _live_scores(self, match: Match) -> list[int] | None:
        """Scores counting the deal in progress, when the rules say so (else None)."""
        return None

    # ---- docs

    def rules_summary(self, lang: str = "en") -> str:
        doc = type(self).__module__
        mod = importlib.import_module(doc)
        return (mod.__doc__ or "").strip()


# --------------------------------------------------------------------------------------------
# Deal


class Deal(ABC):
    """One deal in progress. Public methods check; subclasses implement the hooks."""

    game: Game
    players: int
    dealer: int
    seed: int | None
    history: list[tuple[int, int]]
    _turn: int | None

    def _init_base(self, game: Game, dealer: int, seed: int | None, order: list[int],
                   from_deck: bool) -> None:
        self.game = game
        self.players = game.players
        self.dealer = dealer
        self.seed = seed
        self._order = tuple(order)
        self._from_deck = from_deck
        self._context: dict[str, Any] = {}
        self.history = []
        self._turn = None

    # ---- hooks

    @abstractmethod
    def _start(self, order: list[int], **context: Any) -> None:
        """Deal from the deck order (top first) and set ``_turn``."""

    @abstractmethod
    def _legal(self) -> list[int]:
        """Legal move codes for ``_turn`` (empty when over)."""

    @abstractmethod
    def _apply(self, code: int) -> None:
        """Apply a legal move code and update ``_turn``."""

    @abstractmethod
    def _points(self) -> list[int]: ...

    @abstractmethod
    def _result(self) -> list[int] | None: ...

    @abstractmethod
    def _hand(self, seat: int) -> list[int]: ...

    @abstractmethod
    def _public(self, seat: int) -> dict[str, Any]:
        """The public state as seen by ``seat`` (JSON-ready; cards as strings)."""

    @abstractmethod
    def _copy(self) -> Deal:
        """An independent copy (history and base fields are copied by :meth:`copy`)."""

    def _known_to(self, seat: int) -> set[int]:
        """Cards held by other seats that ``seat`` knows by the rules (a shown marriage partner,
        an exchanged trump card); the leak test allows exactly these in its view."""
        return set()

    def _resolve(self, move: Move | str) -> int:
        """Move text to code in the current position (Twenty accepts several spellings)."""
        return self.game.code_of(move)

    # ---- the public protocol

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None when the deal is over."""
        return self._turn

    @property
    def is_over(self) -> bool:
        return self._turn is None

    @property
    def points(self) -> list[int]:
        return list(self._points())

    @property
    def result(self) -> list[int] | None:
        if self._turn is not None:
            return None
        r = self._result()
        return list(r) if r is not None else None

    def legal_moves(self) -> list[Move]:
        """Legal moves of the seat to act (empty once the deal is over)."""
        if self._turn is None:
            return []
        codes = self._legal()
        self._legal_memo = (len(self.history), codes)
        cache, mv = self.game._move_cache, self.game.move
        return [cache.get(c) or mv(c) for c in codes]

    def legal_codes(self) -> list[int]:
        """Fast path for bots: the legal move codes (a sequence; do not modify it)."""
        return self._legal() if self._turn is not None else []

    def apply_code(self, code: int) -> None:
        """Fast path for bots: apply a code known to be legal (no checks)."""
        self.history.append((self._turn, code))  # type: ignore[arg-type]
        self._apply(code)

    def play(self, move: Move | str, seat: int | None = None) -> None:
        """Play a move (a Move or its text); an invalid or illegal move changes nothing."""
        code = self._resolve(move)
        if self._turn is None:
            raise IllegalMoveError(f"{self.game.name}: the deal is over; no move can be played")
        if seat is not None and seat != self._turn:
            raise IllegalMoveError(f"{self.game.name}: it is seat {self._turn}'s turn, "
                                   f"not seat {seat}'s")
        # legal_moves() usually ran just before in this same position: reuse its answer.
        memo = self.__dict__.get("_legal_memo")
        legal = memo[1] if memo is not None and memo[0] == len(self.history) else self._legal()
        if code not in legal:
            shown = " ".join(self.game.move(c).text for c in legal)
            raise IllegalMoveError(f"{self.game.name}: {self.game.move(code).text} is not legal "
                                   f"now for seat {self._turn}; legal moves: {shown}")
        self.history.append((self._turn, code))
        self._apply(code)

    def view(self, seat: int) -> View:
        """What ``seat`` may know: its own cards, the public state and (on its turn) its moves."""
        self._check_seat(seat)
        over = self._turn is None
        res = self.result
        legal = tuple(self.legal_moves()) if self._turn == seat else ()
        mv = self.game.move
        return View(
            game=self.game.name,
            seat=seat,
            players=self.players,
            dealer=self.dealer,
            to_move=self._turn,
            hand=tuple([CARD_OBJECTS[c] for c in self._hand(seat)]),
            legal_moves=legal,
            # The public dict is built afresh for every view, so nothing in it aliases the
            # deal's state; a read-only top level is enough to keep views from being edited
            # by accident without paying for a deep freeze on every turn.
            public=MappingProxyType(self._public(seat)),
            points=tuple(self._points()),
            is_over=over,
            result=tuple(res) if res is not None else None,
            history=tuple((s, mv(c).text) for s, c in self.history),
            options=self.game.frozen_options,
        )

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"{self.game.name}: seats are 0 to {self.players - 1}, not {seat!r}")

    def copy(self) -> Deal:
        """A cheap independent copy."""
        d = self._copy()
        d.game = self.game
        d.players = self.players
        d.dealer = self.dealer
        d.seed = self.seed
        d._order = self._order
        d._from_deck = self._from_deck
        d._context = self._context
        d.history = list(self.history)
        d._turn = self._turn
        return d

    def record(self) -> dict[str, Any]:
        """JSON-ready record: game, options, seed or deck, dealer, context and every move."""
        rec: dict[str, Any] = {
            "format": "cardplay-deal/1",
            "game": self.game.name,
            "options": self.game.options_dict(),
            "dealer": self.dealer,
        }
        if self._from_deck:
            rec["deck"] = [format_card(c) for c in self._order]
            rec["seed"] = self.seed
        else:
            rec["seed"] = self.seed
        if self._context:
            rec["context"] = _thaw(self._context)
        rec["moves"] = [self.game.move(c).text for _, c in self.history]
        return rec

    @property
    def deck(self) -> list[str]:
        """The deck order this deal was dealt from, top first."""
        return [format_card(c) for c in self._order]

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.game.name} dealer={self.dealer} "
                f"moves={len(self.history)} to_move={self._turn}>")


# --------------------------------------------------------------------------------------------
# Match


class Match:
    """A whole match: deals follow each other; the same protocol as a deal."""

    def __init__(self, game: Game, seed: int | None = None, dealer: int | None = None) -> None:
        if seed is None:
            seed = fresh_seed()
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"{game.name}: a seed is a whole number, not {seed!r}")
        n = game.players
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < n):
            raise ValueError(f"{game.name}: dealer must be a seat from 0 to {n - 1}, "
                             f"not {dealer!r}")
        self.game = game
        self.seed = seed
        self.given_dealer = dealer
        self.first_dealer = dealer if dealer is not None else \
            game._first_dealer(random.Random(derive_seed(seed, "first-dealer")))
        self.deals: list[Deal] = []
        self.moves: list[tuple[int, str]] = []
        self._scores = [0] * n
        self._over = False
        self._winners: list[int] = []
        self.deal = self._new_deal(self.first_dealer)
        self._advance()

    def _new_deal(self, dealer: int) -> Deal:
        ctx = self.game._deal_context(self)
        return self.game.deal(derive_seed(self.seed, "deal", len(self.deals)), dealer=dealer, **ctx)

    def _advance(self) -> None:
        while True:
            if not self.deal.is_over:
                live = self.game._live_scores(self)
                if live is not None and self.game._match_over(self):
                    self._finish()
                return
            res = self.deal.result or [0] * self.game.players
            self._scores = [a + b for a, b in zip(self._scores, res)]
            self.deals.append(self.deal)
            if self.game._match_over(self):
                self._finish()
                return
            self.deal = self._new_deal(self.game._next_dealer(self, self.deal))

    def _finish(self) -> None:
        self._over = True
        self._winners = list(self.game._match_winners(self))

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def scores(self) -> list[int]:
        live = self.game._live_scores(self) if not self.deal.is_over else None
        return list(live) if live is not None else list(self._scores)

    @property
    def finished_scores(self) -> list[int]:
        """The sum of finished deals' results only."""
        return list(self._scores)

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def to_move(self) -> int | None:
        return None if self._over else self.deal.to_move

    def legal_moves(self) -> list[Move]:
        return [] if self._over else self.deal.legal_moves()

    def play(self, move: Move | str, seat: int | None = None) -> None:
        """Play a move in the current deal; the next deal starts when this one ends."""
        if self._over:
            self.deal._resolve(move)  # unparseable text is still an InvalidMoveError
            raise IllegalMoveError(f"{self.game.name}: the match is over; no move can be played")
        turn = self.deal.to_move
        self.deal.play(move, seat)
        self.moves.append((turn, self.deal.game.move(self.deal.history[-1][1]).text))  # type: ignore[arg-type]
        self._advance()

    def view(self, seat: int) -> View:
        """The current deal's view for ``seat`` plus the match scores and finished deals."""
        v = self.deal.view(seat)
        info = {
            "scores": self.scores,
            "deal_number": len(self.deals) + (0 if self._over else 1),
            "results": [d.result for d in self.deals],
            "dealers": [d.dealer for d in self.deals],
            "is_over": self._over,
            "winners": self.winners,
        }
        if self._over:
            v = dataclasses.replace(v, legal_moves=(), to_move=None)
        return dataclasses.replace(v, match=_freeze(info))

    def record(self) -> dict[str, Any]:
        """JSON-ready: game, options, seed, first dealer (when given) and every move."""
        return {
            "format": "cardplay-match/1",
            "game": self.game.name,
            "options": self.game.options_dict(),
            "seed": self.seed,
            "dealer": self.given_dealer,
            "moves": [t for _, t in self.moves],
        }

    def __repr__(self) -> str:
        return f"<Match {self.game.name} deals={len(self.deals)} scores={self.scores}>"


# --------------------------------------------------------------------------------------------
# Registry

_REGISTRY: dict[str, str] = {
    "banchok": "cardplay.games.banchok",
    "chukhny": "cardplay.games.chukhny",
    "macao": "cardplay.games.macao",
    "maltese-twenty": "cardplay.games.maltese_twenty",
    "sixty-six": "cardplay.games.sixty_six",
    "twenty": "cardplay.games.twenty",
    "two-ten-jack": "cardplay.games.two_ten_jack",
}
_CLASSES: dict[str, type[Game]] = {}
_DECLARATIONS: dict[str, Declaration] = {}


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

