"""Twenty's deal: one hand, from the deal of seven cards each to the win (RULES.md 2.4-2.5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...cards import cards_of_mask, format_cards
from ...engine import Deal, Move, Reason
from .codes import ALL_CARDS, DRAW, KINGS, LAST_COUNT, PASS, PLAY_BASE, play_code

if TYPE_CHECKING:
    from .game import Twenty

__all__ = ["TwentyDeal"]


class TwentyDeal(Deal):
    """One hand of Twenty."""

    game: Twenty

    def _start(self, order: list[int], **context: Any) -> None:
        if context:
            raise ValueError(f"twenty: unknown deal context {sorted(context)}; it takes none")
        n = self.players
        first = (self.dealer + 1) % n
        hands = [0] * n
        for i in range(7 * n):
            hands[(first + i) % n] |= 1 << order[i]
        self.hands = hands
        self.stock = order[7 * n:]
        self.top = 0
        self.m = 1
        self.passes = 0
        self.turns = 0
        self.plays: list[tuple[int, int, int]] = []  # (seat, code, number it was made at)
        self.winners: list[int] = []
        self.ended_by = ""
        self._res: list[int] | None = None
        self._turn = first

    def _copy(self) -> TwentyDeal:
        d = TwentyDeal.__new__(TwentyDeal)
        d.hands = list(self.hands)
        d.stock = self.stock
        d.top = self.top
        d.m = self.m
        d.passes = self.passes
        d.turns = self.turns
        d.plays = list(self.plays)
        d.winners = list(self.winners)
        d.ended_by = self.ended_by
        d._res = list(self._res) if self._res is not None else None
        return d

    def _why_illegal(self, code: int) -> Reason | None:
        from .refusals import why_illegal  # imported here: it reads the game's tables

        return why_illegal(self, code)

    @property
    def stock_size(self) -> int:
        return len(self.stock) - self.top

    def _legal(self) -> list[int]:
        t = self._turn
        if t is None:
            return []
        g = self.game
        codes = g.plays(self.hands[t], self.m)
        if self.top < len(self.stock):
            if not codes or g.options.may_draw_voluntarily:
                codes.insert(0, DRAW)
        elif not codes:
            codes.append(PASS)
        return codes

    legal_codes = _legal

    def apply_code(self, code: int) -> None:
        t = self._turn
        self.history.append((t, code))  # type: ignore[arg-type]
        assert t is not None
        g = self.game
        n = self.players
        self.turns += 1
        if code >= PLAY_BASE:
            mask = (code - PLAY_BASE) & ALL_CARDS
            self.hands[t] &= ~mask
            self.plays.append((t, code, self.m))
            self.passes = 0
            if not self.hands[t]:
                self._finish([t], "out")
                return
            if self.m >= LAST_COUNT:
                self._finish(None, "twenty")
                return
            self.m += 1
        else:
            if code == DRAW:
                self.hands[t] |= 1 << self.stock[self.top]
                self.top += 1
                self.passes = 0
            else:
                self.passes += 1
            if g.options.count_advances_on_draw:
                if self.m >= LAST_COUNT:
                    self._finish(None, "twenty")
                    return
                self.m += 1
            elif self.passes >= n:
                # deadlock guard (RULES.md 2.4, T20-7): a full cycle of passes
                self._finish(None, "passes")
                return
        self._turn = (t + 1) % n

    _apply = Deal._apply_by_fast_path

    def _finish(self, out: list[int] | None, how: str) -> None:
        g = self.game
        pens = [g.penalty(h) for h in self.hands]
        if out is not None:
            winners = out
        else:
            sizes = [h.bit_count() for h in self.hands]
            fewest = min(sizes)
            cand = [i for i, s in enumerate(sizes) if s == fewest]
            if len(cand) > 1:
                low = min(pens[i] for i in cand)
                cand = [i for i in cand if pens[i] == low]
            winners = [] if len(cand) > 1 and g.options.tie_policy == "nobody" else cand
        self.winners = winners
        self.ended_by = how
        self._res = [20 if i in winners else -pens[i] for i in range(self.players)]
        self._turn = None

    def _points(self) -> list[int]:
        return list(self._res) if self._res is not None else [0] * self.players

    def _result(self) -> list[int] | None:
        return list(self._res) if self._res is not None else None

    def _hand(self, seat: int) -> list[int]:
        return cards_of_mask(self.hands[seat])

    def _public(self, seat: int) -> dict[str, Any]:
        g = self.game
        pile = []
        for s, code, at in self.plays:
            text = g.move(code).text
            parts = text.split("+")
            pile.append({"seat": s, "at": at, "move": text,
                         "cards": [p.partition("=")[0] for p in parts],
                         "kings": [int(p.partition("=")[2]) for p in parts if "=" in p]})
        pub: dict[str, Any] = {
            "count": self.m,
            "turns": self.turns,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "stock": self.stock_size,
            "passes": self.passes,
            "pile": pile,
        }
        if self._turn is None:
            pub["hands"] = [format_cards(self._hand(s)) for s in range(self.players)]
            pub["penalties"] = [g.penalty(h) for h in self.hands]
            pub["winners"] = list(self.winners)
            pub["outcome"] = self.ended_by
        return pub

    def _resolve(self, move: Move | str) -> int:
        """Text to code; in ``exact`` mode a set named without King values gets the values that
        make the current count (when the set can make it at all)."""
        code = self.game.code_of(move)
        g = self.game
        if g.exact and code >= PLAY_BASE and self._turn is not None:
            x = code - PLAY_BASE
            mask = x & ALL_CARDS
            if mask & KINGS and not x >> 52:
                total = g.kings_total(mask, self.m)
                if total is not None:
                    code = play_code(mask, total)
        return code
