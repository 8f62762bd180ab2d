"""One banking turn of Macao: the shoe, the rounds of stakes, buys and showdowns (RULES.md 6.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...cards import format_card, format_cards
from ...engine import Deal, Reason

if TYPE_CHECKING:
    from .game import Macao

__all__ = ["BUY", "DECK", "STAKE_BASE", "STAND", "VALUE", "MacaoDeal", "hand_value"]

BUY = 52
STAND = 53
STAKE_BASE = 100

#: Macao value of each card id: A = 1, 2-9 pips, 10 J Q K = 0.
VALUE: tuple[int, ...] = tuple((1 if r == 12 else (r + 2 if r <= 7 else 0))
                               for _ in range(4) for r in range(13))
#: The 104-card shoe in id order: every card twice.
DECK: tuple[int, ...] = tuple(c for c in range(52) for _ in range(2))

# Phases of a banking turn.
_STAKE, _DECIDE, _OVER = 0, 1, 2
_PHASES = ("stake", "decide", "over")


def hand_value(cards: list[int], multi_buy: bool = False) -> int:
    """The Macao value of cards: the total modulo 10 (the plain total under ``multi_buy``)."""
    total = sum(VALUE[c] for c in cards)
    return total if multi_buy else total % 10


# By player count and banker: the punters, from the banker's left.
_PUNTERS = [[tuple((b + k) % n for k in range(1, n)) for b in range(n)] for n in range(9)]


class MacaoDeal(Deal):
    """One banking turn of Macao."""

    game: Macao

    def _start(self, order: list[int], chips: list[int] | None = None,
               **context: Any) -> None:
        g = self.game
        o = g.options
        n = self.players
        if context:
            raise ValueError(f"macao: unknown deal context {sorted(context)}; valid: chips")
        if chips is None:
            chips = [o.start_chips] * n
        else:
            if not isinstance(chips, (list, tuple)) or len(chips) != n or not all(
                    isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in chips):
                raise ValueError(f"macao: chips is a list of {n} whole numbers >= 0, "
                                 f"not {chips!r}")
            chips = [int(c) for c in chips]
            self._context = {"chips": list(chips)}
        b = self.dealer
        if chips[b] < o.bank_stake:
            raise ValueError(f"macao: the banker (seat {b}) holds {chips[b]} chips, fewer than "
                             f"bank_stake={o.bank_stake}")
        self.start = list(chips)
        self.chips = list(chips)
        self.chips[b] -= o.bank_stake
        self.bank = o.bank_stake
        self.pos = 0                # next shoe card: self._order[pos]
        self.rstart = 0             # first shoe position of the current round
        self.round = 0
        self.phase = _OVER
        self.queue: list[int] = []  # who acts in this phase, in order
        self.qi = 0
        self.accepted = 0           # total of this round's stakes (x3 with naturals)
        self.stakes = [0] * n
        self.status = ["out"] * n
        self.status[b] = "banker"
        self.cards: list[list[int]] = [[] for _ in range(n)]
        self.dealt: list[int] = []  # seats that received this round's cards, in shoe order
        self.bcard = -1
        self.bought = [0] * n
        self.busted = [False] * n
        # The last showdown as (round, banker card, banker value, hands, values, stakes, won):
        # lists never changed once kept, shared by copies; views write it out afresh.
        self.last: tuple[int, int, int, list[list[int]], list[int | None], list[int],
                         list[int]] | None = None
        self._turn = None
        self._new_round()

    # ---- helpers

    @property
    def punters(self) -> tuple[int, ...]:
        """The seats other than the banker's, from the banker's left: read off a table by the
        dealer, so that a deal keeps within the 27 fields of CPython's compact layout
        (docs/new-game.md)."""
        return _PUNTERS[self.players][self.dealer]

    def _coverage(self) -> int:
        """Chips available to pay winners: the bank (plus the banker's chips if unlimited).

        ``banker_unlimited`` (RULES 6.3/6.4) is read as: stakes are covered by the bank and then
        by the banker's own chips, and the turn ends once both together are below
        ``min_stake``; the banker's chips never go negative."""
        if self.game.options.banker_unlimited:
            return self.bank + self.chips[self.dealer]
        return self.bank

    def _room(self) -> int:
        """The largest further stake the coverage accepts this round."""
        return (self._coverage() - self.accepted) // self.game.mult

    def _draw(self, seat: int) -> None:
        c = self._order[self.pos]
        self.pos += 1
        self.dealt.append(seat)
        if seat == self.dealer:
            self.bcard = c
        else:
            self.cards[seat].append(c)

    def _new_round(self) -> None:
        g = self.game
        o = g.options
        able = [p for p in self.punters if g.can_punt(self.chips[p])]
        left = len(self._order) - self.pos
        # RULES 6.4: "while len(shoe) >= 2P+1 and bank >= min_stake"; with naturals the bank
        # must cover a minimum stake counted three times (coverage, 6.4).
        if not able or left < 2 * len(able) + 1 or \
                self._coverage() // g.mult < o.min_stake:
            # The banking turn ends: the banker takes the bank back (RULES 6.4).
            self.chips[self.dealer] += self.bank
            self.bank = 0
            self.phase = _OVER
            for p in self.punters:
                self.status[p] = "done" if g.can_punt(self.chips[p]) else "out"
            self._turn = None
            return
        self.round += 1
        self.rstart = self.pos
        self.accepted = 0
        for p in self.punters:
            self.status[p] = "out"
        for p in able:
            self.status[p] = "waiting"
        self.queue = able
        self.qi = 0
        self.phase = _STAKE
        if o.stake_timing == "after_first_card":
            # 6.3 "each punter sees his first card, then stakes": the first cards go to every
            # punter able to stake, then the banker's card (6.2a order), before any stake; a
            # punter who then finds no coverage sits out and his card is used.
            for p in able:
                self._draw(p)
            self._draw(self.dealer)
        self._turn = able[0]

    def _next_staker(self) -> None:
        """Move the turn to the next punter who can be covered, or on to the decisions."""
        q = self.queue
        while self.qi < len(q):
            p = q[self.qi]
            if self._room() >= self.game.options.min_stake:
                self._turn = p
                return
            self.status[p] = "sat_out"
            self.qi += 1
        stakers = [p for p in q if self.stakes[p]]
        if self.game.options.stake_timing == "before_deal":
            for p in stakers:
                self._draw(p)
            self._draw(self.dealer)
        self.queue = stakers
        self.qi = 0
        self.phase = _DECIDE
        self._turn = stakers[0]

    def _natural(self, p: int) -> bool:
        return self.game.options.naturals and not self.bought[p] and \
            VALUE[self.cards[p][0]] >= 7

    def _value(self, p: int) -> int:
        return hand_value(self.cards[p], self.game.options.multi_buy)

    def _pay(self, p: int, amount: int) -> None:
        """Settle ``amount`` chips to punter p (negative: p pays into the bank)."""
        if amount >= 0:
            from_bank = min(amount, self.bank)
            self.bank -= from_bank
            self.chips[self.dealer] -= amount - from_bank
        else:
            self.bank -= amount
        self.chips[p] += amount

    def _payoff(self, p: int, vb: int) -> int:
        """What punter p wins (negative: loses) at the showdown against a banker value ``vb``.

        ``naturals`` (RULES 6.4, after adpoker and the Russian article): a natural (a first card
        of 9/8/7, which must stand) is a tier above every other hand, as in canonical Macao where
        naturals are settled before any buying: the banker's natural collects its multiple from
        every punter without one, even from a bought 8 or 9, and a punter's natural is paid its
        multiple by a banker without one; natural against natural compares values."""
        s = self.stakes[p]
        vp = self._value(p)
        if self.game.options.naturals:
            pn, bn = self._natural(p), vb >= 7
            if pn and bn:
                if vp > vb:
                    return s * (vp - 6)
                return -s * (vb - 6) if vb > vp else 0
            if pn:
                return s * (vp - 6)
            if bn:
                return -s * (vb - 6)
        return s if vp > vb else (-s if vp < vb else 0)

    def _end_decision(self) -> None:
        self.qi += 1
        if self.qi < len(self.queue):
            self._turn = self.queue[self.qi]
            return
        self._showdown()

    def _showdown(self) -> None:
        n = self.players
        vb = VALUE[self.bcard]
        won = [0] * n
        values: list[int | None] = [None] * n
        for p in self.punters:
            if self.cards[p]:
                values[p] = self._value(p)
            if not self.stakes[p]:
                continue
            if self.busted[p]:
                won[p] = -self.stakes[p]
                continue
            amount = self._payoff(p, vb)
            self._pay(p, amount)
            won[p] = amount
        won[self.dealer] = -sum(won)
        # Every card of the round is now face up and used; the round state is cleared (into new
        # lists: the old ones are kept as the record of the showdown).
        self.last = (self.round, self.bcard, vb, self.cards, values, self.stakes, won)
        self.rstart = self.pos
        self.stakes = [0] * n
        self.cards = [[] for _ in range(n)]
        self.dealt = []
        self.bcard = -1
        self.bought = [0] * n
        self.busted = [False] * n
        self._new_round()

    # ---- hooks

    def _why_illegal(self, code: int) -> Reason | None:
        from .refusals import why_illegal  # imported here: it reads this module's constants

        return why_illegal(self, code)

    def _legal(self) -> list[int]:
        p = self._turn
        if p is None:
            return []
        o = self.game.options
        if self.phase == _STAKE:
            hi = min(self.game.capacity(self.chips[p]), self._room())
            return list(range(STAKE_BASE + o.min_stake, STAKE_BASE + hi + 1))
        if self._natural(p):
            return [STAND]
        can_buy = self.pos < len(self._order) and (o.multi_buy or not self.bought[p])
        if o.forced_draw:
            return [BUY] if can_buy and self._value(p) <= 6 else [STAND]
        return [BUY, STAND] if can_buy else [STAND]

    legal_codes = _legal

    def apply_code(self, code: int) -> None:
        p = self._turn
        self.history.append((p, code))  # type: ignore[arg-type]
        assert p is not None
        if code > STAKE_BASE:
            s = code - STAKE_BASE
            self.stakes[p] = s
            self.accepted += s * self.game.mult
            self.status[p] = "staked"
            self.qi += 1
            self._next_staker()
            return
        if code == BUY:
            self._draw(p)
            self.bought[p] += 1
            self.status[p] = "bought"
            if self.game.options.multi_buy:
                if self._value(p) > 9:
                    # A bust loses at once; the hand is turned face up (RULES 6.4).
                    self.busted[p] = True
                    self.status[p] = "busted"
                    self._pay(p, -self.stakes[p])
                    self._end_decision()
                return
            self._end_decision()
            return
        self.status[p] = "stood"
        self._end_decision()

    _apply = Deal._apply_by_fast_path

    def _points(self) -> list[int]:
        pts = [c - s for c, s in zip(self.chips, self.start)]
        pts[self.dealer] += self.bank
        return pts

    def _result(self) -> list[int] | None:
        return self._points()

    def _hand(self, seat: int) -> list[int]:
        # The banker's card is kept apart in ``bcard``, never in a hand: nobody sees it before
        # the showdown, the banker included (RULES 6.5), so the banker's view holds no card.
        return list(self.cards[seat])

    def _known_to(self, seat: int) -> set[int]:
        # Cards of other seats that this seat may know: a bust hand lies face up. Two decks also
        # hold two identical copies of every card, and a view can only name a card by its text:
        # a card that another punter holds face down prints the same as its twin lying face up
        # among the used cards, so the texts of such twins are listed too (the view shows the
        # public twin, never the hidden card; tests/games/test_macao.py checks that with copies
        # counted).
        public = set(self._order[:self.rstart])
        for p in self.punters:
            if self.busted[p]:
                public.update(self.cards[p])
        out: set[int] = set()
        for p in self.punters:
            if p == seat:
                continue
            if self.busted[p]:
                out.update(self.cards[p])
            else:
                out.update(c for c in self.cards[p] if c in public)
        return out

    def _public(self, seat: int) -> dict[str, Any]:
        n = self.players
        return {
            "banker": self.dealer,
            "bank": self.bank,
            "chips": list(self.chips),
            "chips_at_start": list(self.start),
            "round": self.round,
            "phase": _PHASES[self.phase],
            "stock": len(self._order) - self.pos,
            "used": format_cards(self._order[:self.rstart]),
            "dealt_to": list(self.dealt),
            "stakes": [self.stakes[p] or None for p in range(n)],
            "status": list(self.status),
            "bought": list(self.bought),
            "shown": [format_cards(self.cards[p]) if self.busted[p] else []
                      for p in range(n)],
            "last_round": self._last_round(),
        }

    def _last_round(self) -> dict[str, Any] | None:
        """The last showdown as a view shows it, in lists of the view's own."""
        if self.last is None:
            return None
        round_, bcard, vb, cards, values, stakes, won = self.last
        return {
            "round": round_,
            "banker_card": format_card(bcard),
            "banker_value": vb,
            "hands": [format_cards(cs) for cs in cards],
            "values": values[:],
            "stakes": [s or None for s in stakes],
            "won": won[:],
        }

    def _copy(self) -> MacaoDeal:
        # Field by field: reading either deal's __dict__ would give up its compact layout.
        d = MacaoDeal.__new__(MacaoDeal)
        d.start = self.start  # never changed after the deal's start
        d.chips = self.chips[:]
        d.bank = self.bank
        d.pos = self.pos
        d.rstart = self.rstart
        d.round = self.round
        d.phase = self.phase
        d.queue = self.queue[:]
        d.qi = self.qi
        d.accepted = self.accepted
        d.stakes = self.stakes[:]
        d.status = self.status[:]
        d.cards = [cs[:] for cs in self.cards]
        d.dealt = self.dealt[:]
        d.bcard = self.bcard
        d.bought = self.bought[:]
        d.busted = self.busted[:]
        d.last = self.last
        return d

