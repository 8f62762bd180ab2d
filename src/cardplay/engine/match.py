"""Match: a whole match, deals following each other; the same protocol as a deal."""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING, Any

from .errors import IllegalMoveError
from .moves import Move
from .seeds import derive_seed, fresh_seed
from .views import View, freeze

if TYPE_CHECKING:
    from .deal import Deal
    from .game import Game

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

    def takeback_point(self, seat: int) -> int | None:
        """Where a take-back by ``seat`` goes back to: the index in ``moves`` of its latest move
        in the deal in play (every move from there on is taken back), or None when the match is
        over or the seat has not moved in this deal. Never past a deal's end: a finished deal's
        result already counts in the match."""
        if self._over:
            return None
        start = len(self.moves) - len(self.deal.history)  # the deal in play's first move
        for n in range(len(self.moves) - 1, start - 1, -1):
            if self.moves[n][0] == seat:
                return n
        return None

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
        return dataclasses.replace(v, match=freeze(info))

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
