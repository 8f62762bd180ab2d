"""Maltese Twenty's round: card values, the Tally's scores and one round's play (RULES.md
1.2-1.5)."""

from __future__ import annotations

from typing import Any

from ...cards import cards_of_mask, format_cards
from ...engine import Deal

__all__ = ["REFILL", "STOCK_START", "VALUES", "MalteseTwentyDeal", "bonus_of", "tally_score"]

# value of each card id: ace 1, two..nine pips, ten and courts 10 (rank 0 = two .. 12 = ace)
_RANK_VALUES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)
VALUES: tuple[int, ...] = tuple(_RANK_VALUES[c % 13] for c in range(52))

STOCK_START = 12  # two bonus cards and ten dealt cards come first
REFILL = 5


def bonus_of(first: int, second: int) -> int:
    """The End-of-Round Bonus of two turned-up cards: the difference of values, or 10 if none."""
    diff = abs(VALUES[first] - VALUES[second])
    return diff if diff else 10


def tally_score(n: int) -> int:
    """What the card that brings the Tally to ``n >= 5`` cards (under 20) scores."""
    return 15 << (n - 5)



def _scored(history: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Every score of the round so far, by seat and kind: how often and how many points, in
    the order each first happened (a deal's end explains its result by them). Replayed from the
    cards played, since the Tally's scores depend on nothing else."""
    seen: dict[tuple[int, str], list[int]] = {}
    total = count = 0
    for p, code in history:
        total += VALUES[code]
        count += 1
        if total == 20:
            kind, pts = "exact", 10
        elif total > 20:
            kind, pts = "over", -20
        elif count >= 5:
            kind, pts = "tally", 15 << (count - 5)
        else:
            continue
        entry = seen.setdefault((p, kind), [0, 0])
        entry[0] += 1
        entry[1] += pts
        if total >= 20:
            total = count = 0
    return [{"seat": p, "kind": kind, "times": n, "points": pts}
            for (p, kind), (n, pts) in seen.items()]


class MalteseTwentyDeal(Deal):
    """One round of Maltese Twenty."""

    round: int
    starter: int
    bonus_cards: tuple[int, int]
    bonus: int
    _both_empty: bool          # option round_end == "both_empty"
    _hands: list[int]          # bitmask per seat
    _next: int                 # index in the deck order of the next stock card
    _tally: list[int]
    _total: int
    _cleared: list[int]
    _scores: list[int]
    _lps: int | None           # last positive scorer
    _event: tuple[int, str, int] | None   # (seat, kind, points) of the last play, if it scored

    def _start(self, order: list[int], **context: Any) -> None:
        rnd = context.pop("round", 1)
        if context:
            raise ValueError(f"{self.game.name}: unknown deal context {sorted(context)}; "
                             f"the only one is 'round'")
        if type(rnd) is not int or rnd not in (1, 2):
            raise ValueError(f"{self.game.name}: round must be 1 or 2, not {rnd!r}")
        self._context = {"round": rnd}
        self._both_empty = self.game.options.round_end == "both_empty"
        self.round = rnd
        self.starter = (self.dealer + 1) % 2
        self.bonus_cards = (order[0], order[1])
        self.bonus = bonus_of(order[0], order[1])
        first = second = 0
        for i in range(REFILL):
            first |= 1 << order[2 + 2 * i]
            second |= 1 << order[3 + 2 * i]
        self._hands = [first, second] if self.starter == 0 else [second, first]
        self._next = STOCK_START
        self._tally = []
        self._total = 0
        self._cleared = []
        self._scores = [0, 0]
        self._lps = None
        self._event = None
        self._turn = self.starter

    # ---- the hot path

    def _legal(self) -> list[int]:
        p = self._turn
        return cards_of_mask(self._hands[p]) if p is not None else []

    legal_codes = _legal

    def apply_code(self, code: int) -> None:
        p: int = self._turn  # type: ignore[assignment]
        self.history.append((p, code))
        hands = self._hands
        hands[p] &= ~(1 << code)
        tally = self._tally
        tally.append(code)
        total = self._total + VALUES[code]
        if total == 20:
            self._scores[p] += 10
            self._lps = p
            self._event = (p, "exact", 10)
        elif total > 20:
            self._scores[p] -= 20
            self._event = (p, "over", -20)
        elif len(tally) >= 5:
            pts = 15 << (len(tally) - 5)
            self._scores[p] += pts
            self._lps = p
            self._event = (p, "tally", pts)
        else:
            self._event = None
        if total >= 20:
            self._cleared.extend(tally)
            self._tally = []
            total = 0
        self._total = total
        if not hands[p]:
            nxt = self._next
            if nxt < 52:
                order = self._order
                m = 0
                for c in order[nxt:nxt + REFILL]:
                    m |= 1 << c
                hands[p] = m
                self._next = nxt + REFILL
            elif not (self._both_empty and hands[1 - p]):
                self._turn = None
                return
        self._turn = 1 - p

    _apply = Deal._apply_by_fast_path

    # ---- results and views

    def _points(self) -> list[int]:
        if self._turn is None and self._lps is not None:
            pts = list(self._scores)
            pts[self._lps] += self.bonus
            return pts
        return list(self._scores)

    def _result(self) -> list[int] | None:
        return self._points() if self._turn is None else None

    def _hand(self, seat: int) -> list[int]:
        return cards_of_mask(self._hands[seat])

    def seen(self, seat: int) -> tuple[int, int, int, int, int | None]:
        """Fast path for the heuristic's rollouts: what ``view(seat)`` shows, read without
        building a view: (the other seat's hand size, the Tally's total, its cards, the stock
        left, the last positive scorer); :meth:`unseen` gives the cards the seat has not seen."""
        return (self._hands[1 - seat].bit_count(), self._total, len(self._tally),
                52 - self._next, self._lps)

    def unseen(self, seat: int) -> int:
        """The cards ``seat`` has not seen, as a bitmask: the 52 less the bonus cards, the
        Tally, the cleared cards and the seat's hand (what its view shows)."""
        known = self._hands[seat] | 1 << self.bonus_cards[0] | 1 << self.bonus_cards[1]
        for c in self._tally:
            known |= 1 << c
        for c in self._cleared:
            known |= 1 << c
        return ((1 << 52) - 1) & ~known

    def _public(self, seat: int) -> dict[str, Any]:
        ev = self._event
        over = self._turn is None
        return {
            "round": self.round,
            "starter": self.starter,
            "bonus_cards": format_cards(self.bonus_cards),
            "bonus": self.bonus,
            "tally": format_cards(self._tally),
            "tally_total": self._total,
            "cleared": format_cards(self._cleared),
            "scores": list(self._scores),
            "hand_sizes": [self._hands[0].bit_count(), self._hands[1].bit_count()],
            "stock": 52 - self._next,
            "last_positive_scorer": self._lps,
            "last_event": None if ev is None else
            {"seat": ev[0], "kind": ev[1], "points": ev[2]},
            "bonus_to": self._lps if over else None,
            "scored": _scored(self.history),
        }

    def _copy(self) -> Deal:
        d = MalteseTwentyDeal.__new__(MalteseTwentyDeal)
        d.round = self.round
        d.starter = self.starter
        d.bonus_cards = self.bonus_cards
        d.bonus = self.bonus
        d._both_empty = self._both_empty
        d._hands = list(self._hands)
        d._next = self._next
        d._tally = list(self._tally)
        d._total = self._total
        d._cleared = list(self._cleared)
        d._scores = list(self._scores)
        d._lps = self._lps
        d._event = self._event
        return d
