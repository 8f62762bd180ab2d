"""One game of Chukhny: the stock, the pile, the hands and the moves (``8S``, ``draw``, ``take``).

The rules are those of :mod:`.game`'s docstring (RULES.md section 7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...cards import RANK_CHARS, SUIT_CHARS, cards_of_mask, format_card, format_cards, format_mask
from ...engine import Deal, Reason

if TYPE_CHECKING:
    from .game import Chukhny

__all__ = ["ACE_RANK", "DRAW", "TAKE", "ChukhnyDeal"]

DRAW = 52
TAKE = 53
ACE_RANK = 12  # the rank id of an Ace, above which nothing climbs

class ChukhnyDeal(Deal):
    """One game of Chukhny."""

    game: Chukhny

    def _start(self, order: list[int], **context: Any) -> None:
        if context:
            raise ValueError(f"chukhny: unknown deal context {sorted(context)}; "
                             f"a Chukhny game takes none")
        g = self.game
        n = self.players
        out = 0
        pos = 0
        # RULES 7.3 / CH-8: under "clear" an Ace turned up goes out and the next card is turned.
        while g.clear and order[pos] % 13 == ACE_RANK:
            out |= 1 << order[pos]
            pos += 1
        self._start_cards = tuple(order[:pos + 1])
        self._pile = [order[pos]]
        self._pos = pos + 1
        self._end = len(order)
        self._out = out
        self._hands = [0] * n
        self._known = [0] * n
        self._drawn = [0] * n
        self._log: list[tuple[int, int, int]] = []   # (seat, need card or -1, shown card or -1)
        self._loser: int | None = None
        self._turn = (self.dealer + 1) % n

    # ---- helpers

    @property
    def stock_size(self) -> int:
        return self._end - self._pos

    @property
    def need(self) -> int | None:
        """The required card (its rank; also its suit under require_same_suit), or None when
        a run is to be started or the game is over."""
        if self._turn is None or not self._pile:
            return None
        return self.game.need_of[self._pile[-1]]

    @property
    def loser(self) -> int | None:
        return self._loser

    def _next_active(self, p: int) -> int:
        """The next active seat clockwise after ``p`` (RULES 7.4: holding cards, or any seat
        while the stock is not empty)."""
        n = self.players
        if self._pos < self._end:
            return (p + 1) % n
        hands = self._hands
        for i in range(1, n + 1):
            q = (p + i) % n
            if hands[q]:
                return q
        raise AssertionError("no active player")  # pragma: no cover - guarded by _over()

    def _over(self) -> bool:
        """End check (RULES 7.4 End): stock empty and at most one seat holding cards."""
        if self._pos < self._end:
            return False
        holder = -1
        for q, h in enumerate(self._hands):
            if h:
                if holder >= 0:
                    return False
                holder = q
        self._loser = holder if holder >= 0 else None
        self._turn = None
        return True

    def _place(self, p: int, card: int) -> None:
        """after_play / the starting card of a run: put ``card`` on the pile."""
        if card % 13 == ACE_RANK and self.game.clear:
            out = self._out | 1 << card
            for c in self._pile:
                out |= 1 << c
            self._out = out
            self._pile = []
            if self._over():
                return
            # p leads again (start_run(p)); finished with an empty hand and stock: the next.
            self._turn = p if (self._hands[p] or self._pos < self._end) else self._next_active(p)
            return
        self._pile.append(card)
        if not self._over():
            self._turn = self._next_active(p)

    # ---- hooks

    def _why_illegal(self, code: int) -> Reason | None:
        from .refusals import why_illegal  # imported here: it reads this module's constants

        return why_illegal(self, code)

    def _legal(self) -> list[int]:
        p = self._turn
        if p is None:
            return []
        hand = self._hands[p]
        pile = self._pile
        if not pile:
            return cards_of_mask(hand) if hand else [DRAW]
        g = self.game
        m = hand & g.match_mask[g.need_of[pile[-1]]]
        if m:
            return cards_of_mask(m)
        return [DRAW] if self._pos < self._end else [TAKE]

    legal_codes = _legal

    def apply_code(self, code: int) -> None:
        p = self._turn
        self.history.append((p, code))  # type: ignore[arg-type]
        assert p is not None
        if code < 52:
            bit = 1 << code
            self._hands[p] ^= bit
            self._known[p] &= ~bit
            self._place(p, code)
        elif code == DRAW:
            card = self._order[self._pos]
            self._pos += 1
            self._drawn[p] += 1
            pile = self._pile
            if not pile:
                self._log.append((p, -1, card))
                self._place(p, card)
                return
            g = self.game
            need = g.need_of[pile[-1]]
            if g.match_mask[need] >> card & 1:
                self._log.append((p, need, card))
                self._place(p, card)
            else:
                self._log.append((p, need, -1))
                self._hands[p] |= 1 << card
                # p acts again: another draw, or a take once the stock is empty
                self._over()
        else:  # TAKE
            pile = self._pile
            out = self._out
            if len(pile) >= 2:
                top = pile.pop()
                self._hands[p] |= 1 << top
                self._known[p] |= 1 << top
            for c in pile:
                out |= 1 << c
            self._out = out
            self._pile = []
            if not self._over():
                self._turn = self._next_active(p)

    _apply = Deal._apply_by_fast_path

    def _points(self) -> list[int]:
        if self._turn is not None:
            return [0] * self.players
        return self._result()

    def _result(self) -> list[int]:
        r = [0] * self.players
        if self._loser is not None:
            r[self._loser] = -1
        return r

    def _hand(self, seat: int) -> list[int]:
        return cards_of_mask(self._hands[seat])

    def _public(self, seat: int) -> dict[str, Any]:
        g = self.game
        over = self._turn is None
        need = self.need
        same = g.same_suit
        draws = []
        for s, nd, c in self._log:
            draws.append({
                "seat": s,
                "need": RANK_CHARS[nd % 13] if nd >= 0 else None,
                "need_suit": SUIT_CHARS[nd // 13] if nd >= 0 and same else None,
                "card": format_card(c) if c >= 0 else None,
            })
        pub: dict[str, Any] = {
            "pile": format_cards(self._pile),
            "leading": not over and not self._pile,
            "need": RANK_CHARS[need % 13] if need is not None else None,
            "need_suit": SUIT_CHARS[need // 13] if need is not None and same else None,
            "out": format_mask(self._out),
            "stock": self._end - self._pos,
            "hand_sizes": [h.bit_count() for h in self._hands],
            "drawn": list(self._drawn),
            "known": [format_mask(k) for k in self._known],
            "start_cards": format_cards(self._start_cards),
            "draws": draws,
            "loser": self._loser,
        }
        if over:
            pub["hands"] = [format_mask(h) for h in self._hands]
        return pub

    def _known_to(self, seat: int) -> set[int]:
        m = 0
        for q, k in enumerate(self._known):
            if q != seat:
                m |= k
        return set(cards_of_mask(m))

    def _copy(self) -> ChukhnyDeal:
        d = ChukhnyDeal.__new__(ChukhnyDeal)
        d._start_cards = self._start_cards
        d._pile = self._pile[:]
        d._pos = self._pos
        d._end = self._end
        d._out = self._out
        d._hands = self._hands[:]
        d._known = self._known[:]
        d._drawn = self._drawn[:]
        d._log = self._log[:]
        d._loser = self._loser
        return d
