"""Game: a game's immutable rules and options, and the factory of its deals and matches."""

from __future__ import annotations

import dataclasses
import importlib
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from ..cards import CardParseError, format_card, parse_card, parse_cards
from ..declaration import Declaration, Facts
from .errors import InvalidMoveError, OptionError
from .match import Match
from .moves import Move
from .options import check_option_value
from .seeds import fresh_seed, shuffled

if TYPE_CHECKING:
    from ..actions import ActionSpace
    from ..observation import Blocks, Layout
    from .deal import Deal
    from .views import View

class Game(ABC):
    """A game's immutable rules and options, and the factory of its deals and matches."""

    name: ClassVar[str]
    title: ClassVar[Mapping[str, str]]
    # Everything a front-end, a bot level or an adapter needs to know (cardplay.declaration).
    declaration: ClassVar[Declaration]
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
    # move text (any accepted spelling) -> code, bounded (filled by code_of)
    _text_cache: dict[str, int]
    _frozen_options: Mapping[str, Any]

    def __init__(self, **options: Any) -> None:
        self._init_with(self._resolve_options(dict(options)))

    def _init_with(self, opts: Any) -> None:
        """Set up a game from options already resolved and checked."""
        object.__setattr__(self, "options", opts)
        object.__setattr__(self, "_move_cache", {})
        object.__setattr__(self, "_text_cache", {})
        # read by every view (a plain field there: the property costs a view more than the dict)
        object.__setattr__(self, "_frozen_options", MappingProxyType(self.options_dict()))
        self._setup()

    def __reduce__(self) -> tuple[Any, ...]:
        # By class and options: the caches and read-only mappings are built again on arrival
        # (a mapping proxy cannot be pickled, and a cache need not travel).
        return _game_of, (type(self), self.options)

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
            preset = check_option_value(self.name, fields["preset"],
                                         given.get("preset", fields["preset"].default))
            values.update(presets.get(preset, {}))
            values["preset"] = preset
        for k, v in given.items():
            values[k] = check_option_value(self.name, fields[k], v)
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
        from ..actions import ActionSpace

        return ActionSpace(self, self.facts.action_space)

    def observation_blocks(self, layout: Layout) -> Blocks:
        """The game's observation blocks (:mod:`cardplay.observation`), added to ``layout``: by
        default read off the declaration; a game with hand-made blocks (or a fast path from its
        deal's state) overrides this."""
        from ..observation import declared_blocks

        return declared_blocks(self, layout)

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
        return self._frozen_options

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
        cache = self._text_cache
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

    def deck_cards(self) -> list[int]:
        """The game's cards as codes, in id order, a code once per copy (two-deck games repeat
        codes): what every deck order of this game is a permutation of."""
        return self._deck_cards()

    def deal_from_order(self, order: Sequence[int], dealer: int, seed: int | None = None) -> Deal:
        """Fast path for samplers and adapters: a deal from a deck order of codes (top first)
        that is known to be a permutation of :meth:`deck_cards`; it is not checked. Replays
        like ``deal(deck=..., dealer=dealer)``."""
        return self._deal_from_order(list(order), dealer, seed if seed is not None else 0,
                                     True, {})

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


def _game_of(cls: type[Game], options: Any) -> Game:
    """A game of class ``cls`` from its resolved options (how a pickled game comes back)."""
    game = cls.__new__(cls)
    game._init_with(options)
    return game
