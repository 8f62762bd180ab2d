"""Deal: one deal in progress. Public methods check; a game's subclass implements the hooks."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..cards import CARD_OBJECTS, format_card
from .errors import IllegalMoveError
from .moves import Move
from .reasons import NOT_HELD, NOT_NOW, NOT_YOUR_TURN, OVER, Reason
from .views import View, thaw

if TYPE_CHECKING:
    from .game import Game

_CARD_OBJECT = CARD_OBJECTS.__getitem__
_CARD_IN_TEXT = re.compile(r"[2-9TJQKA][SHDC]")


class Deal(ABC):
    """One deal in progress. Public methods check; subclasses implement the hooks."""

    game: Game
    players: int
    dealer: int
    seed: int | None
    history: list[tuple[int, int]]
    _turn: int | None
    # Kept by legal_moves for play, and by view for the next view (class defaults, so reading
    # them never needs the instance dict).
    _legal_memo: tuple[int, list[int]] | None = None
    _view_history: tuple[list[tuple[int, int]], tuple[tuple[int, str], ...]] | None = None

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

    def _apply_by_fast_path(self, code: int) -> None:
        """The ``_apply`` hook of a game that writes its own ``apply_code`` (which records the
        move): ``_apply = Deal._apply_by_fast_path``."""
        self.apply_code(code)
        self.history.pop()

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

    def _why_illegal(self, code: int) -> Reason | None:
        """Why the seat to act may not play ``code``, a move not among its legal ones and
        naming only cards it holds: a reason of the game's declared ``refusals`` (override;
        None falls back to the common "not allowed now")."""
        return None

    def _resolve(self, move: Move | str) -> int:
        """Move text to code in the current position (Twenty accepts several spellings)."""
        # the text cache of Game.code_of, read here first: a move per turn comes this way
        try:
            return self.game._text_cache[move.text if isinstance(move, Move) else move]
        except (KeyError, TypeError):
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
        # map over the shared cache's lookup runs in C; a code not seen yet fills it in first
        try:
            return list(map(self.game._move_cache.__getitem__, codes))
        except KeyError:
            mv = self.game.move
            return [mv(c) for c in codes]

    def hand_codes(self, seat: int) -> list[int]:
        """Fast path for bots and encoders: ``seat``'s cards as codes, what ``view(seat).hand``
        shows, without building a View (do not modify the list)."""
        return self._hand(seat)

    def public_state(self, seat: int) -> dict[str, Any]:
        """Fast path for bots and encoders: the public state as ``seat`` sees it, the dict that
        ``view(seat).public`` holds, without building a View."""
        return self._public(seat)

    def legal_codes(self) -> list[int]:
        """Fast path for bots: the legal move codes (a sequence; do not modify it)."""
        return self._legal() if self._turn is not None else []

    def apply_code(self, code: int) -> None:
        """Fast path for bots: apply a code known to be legal (no checks)."""
        self.history.append((self._turn, code))  # type: ignore[arg-type]
        self._apply(code)

    def why_illegal(self, move: Move | str, seat: int | None = None) -> Reason | None:
        """Why ``seat`` (by default the seat to act) may not play ``move`` now, as the rule that
        forbids it (None: the move is legal). Reads only what that seat may know: its own
        hand and the public state. InvalidMoveError when the text fits no notation."""
        return self._reason(self._resolve(move), seat)

    def _reason(self, code: int, seat: int | None) -> Reason | None:
        if self._turn is None:
            return Reason(OVER)
        if seat is not None and seat != self._turn:
            return Reason(NOT_YOUR_TURN)
        memo = self._legal_memo
        legal = memo[1] if memo is not None and memo[0] == len(self.history) else self._legal()
        if code in legal:
            return None
        held = {format_card(c) for c in self._hand(self._turn)}
        missing = [c for c in _CARD_IN_TEXT.findall(self.game.move(code).text) if c not in held]
        if missing:
            return Reason(NOT_HELD, {"cards": " ".join(dict.fromkeys(missing))})
        return self._why_illegal(code) or Reason(NOT_NOW)

    def play(self, move: Move | str, seat: int | None = None) -> None:
        """Play a move (a Move or its text); an invalid or illegal move changes nothing."""
        code = self._resolve(move)
        if self._turn is None:
            raise IllegalMoveError(f"{self.game.name}: the deal is over; no move can be played",
                                   Reason(OVER))
        if seat is not None and seat != self._turn:
            raise IllegalMoveError(f"{self.game.name}: it is seat {self._turn}'s turn, "
                                   f"not seat {seat}'s", Reason(NOT_YOUR_TURN))
        # legal_moves() usually ran just before in this same position: reuse its answer.
        memo = self._legal_memo
        legal = memo[1] if memo is not None and memo[0] == len(self.history) else self._legal()
        if code not in legal:
            shown = " ".join(self.game.move(c).text for c in legal)
            raise IllegalMoveError(f"{self.game.name}: {self.game.move(code).text} is not legal "
                                   f"now for seat {self._turn}; legal moves: {shown}",
                                   self._reason(code, None))
        # A game may override the fast path with one method of its own: play goes through it.
        self.apply_code(code)

    def view(self, seat: int) -> View:
        """What ``seat`` may know: its own cards, the public state and (on its turn) its moves."""
        if type(seat) is not int or not 0 <= seat < self.players:
            self._check_seat(seat)  # says what is wrong
        turn = self._turn
        res = self._result() if turn is None else None
        legal = tuple(self.legal_moves()) if turn == seat else ()
        return View._of({
            "game": self.game.name,
            "seat": seat,
            "players": self.players,
            "dealer": self.dealer,
            "to_move": turn,
            "hand": tuple(map(_CARD_OBJECT, self._hand(seat))),
            "legal_moves": legal,
            # The public dict is built afresh for every view, so nothing in it aliases the
            # deal's state; a read-only top level is enough to keep views from being edited
            # by accident without paying for a deep freeze on every turn.
            "public": MappingProxyType(self._public(seat)),
            "points": tuple(self._points()),
            "is_over": turn is None,
            "result": tuple(res) if res is not None else None,
            "history": self._history_texts(),
            "options": self.game._frozen_options,
        })

    def _history_texts(self) -> tuple[tuple[int, str], ...]:
        """The history as (seat, text) pairs, extended from the last view's instead of rebuilt:
        a bot asks for a view per move, and rebuilding made every view cost the whole deal.
        The tuple is kept with the list it was read from; a copy has a list of its own."""
        history = self.history
        kept = self._view_history
        if kept is not None and kept[0] is history and len(kept[1]) <= len(history):
            texts = kept[1]
            if len(texts) == len(history):
                return texts
        else:
            texts = ()
        mv = self.game.move
        texts += tuple([(s, mv(c).text) for s, c in history[len(texts):]])
        self._view_history = (history, texts)
        return texts

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"{self.game.name}: seats are 0 to {self.players - 1}, not {seat!r}")

    def copy(self) -> Deal:
        """A cheap independent copy."""
        # A game's _copy copies its own fields one by one and leaves the base ones to this: reading
        # an object's __dict__ in CPython 3.11 would give up its compact attribute layout.
        d = self._copy()
        d.game = self.game
        d.players = self.players
        d.dealer = self.dealer
        d.seed = self.seed
        d._order = self._order
        d._from_deck = self._from_deck
        d._context = self._context
        d.history = self.history[:]
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
            rec["context"] = thaw(self._context)
        rec["moves"] = [self.game.move(c).text for _, c in self.history]
        return rec

    @property
    def deck(self) -> list[str]:
        """The deck order this deal was dealt from, top first."""
        return [format_card(c) for c in self._order]

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.game.name} dealer={self.dealer} "
                f"moves={len(self.history)} to_move={self._turn}>")
