"""A Sixty-Six (and Schnapsen) heuristic bot that uses only its view.

It exchanges the trump nine (jack), announces marriages (40 before 20), closes the talon when its
points plus the tricks it is sure to win reach 66, wins valuable tricks with the cheapest card that
does it, and otherwise throws its least useful card.
"""

from __future__ import annotations

import random

from ...builtin.sixty_six import CARD_POINTS, CLOSE, EXCHANGE, STRENGTH
from ...cards import SUIT_CHARS, parse_card
from ...engine import Game, Move, View

_KING, _QUEEN = 11, 10


def _suit(c: int) -> int:
    return c // 13


def _strength(c: int) -> int:
    return STRENGTH[c % 13]


def _points(c: int) -> int:
    return CARD_POINTS[c % 13]


class HeuristicBot:
    """Plays Sixty-Six by simple, well-known rules of thumb."""

    def __init__(self, game: Game | None = None, seed: int | None = None,
                 solve_endgame: bool = True) -> None:
        self.rng = random.Random(seed)
        self.game = game
        # Without the solver it plays an exhausted talon by the same rules of thumb, twenty
        # times cheaper (what evaluations finish their sampled deals with).
        self.solve_endgame = solve_endgame
        # One transposition table per seat, kept from move to move of an exhausted talon: after
        # the first solve the rest of the deal is mostly looked up (rollouts play many of them).
        self._tables: dict[int, dict[tuple[int, ...], tuple[int, int, int]]] = {}

    def _exact(self, view: View) -> Move:
        from ..sixty_six_solver import solve_kept

        assert self.game is not None
        world = self.game.sample_deal(view, self.rng)
        code = solve_kept(world, view.seat, self._tables)  # type: ignore[arg-type]
        assert code is not None
        return self.game.move(code)

    def choose(self, view: View) -> Move:
        legal = list(view.legal_moves)
        if len(legal) == 1:
            return legal[0]
        pub = view.public
        if pub["stock"] == 0 and self.game is not None and self.solve_endgame:
            # Talon exhausted: the opponent's hand is every unseen card, so play exactly.
            return self._exact(view)
        trump = SUIT_CHARS.index(pub["trump_suit"])
        hand = [int(c) for c in view.hand]
        seen = {parse_card(c) for t in pub["tricks"] for c in t["cards"]}
        seen |= {parse_card(t["card"]) for t in pub["trick"]}
        by_text = {m.text: m for m in legal}
        if not pub["trick"]:
            if "exchange" in by_text:
                return by_text["exchange"]
            marriages = [m for m in legal if "=" in m.text]
            if marriages:
                return max(marriages, key=lambda m: (m.text.endswith("40"), m.text[0] == "Q"))
            if "close" in by_text and self._should_close(view, hand, seen, trump):
                return by_text["close"]
            return self._lead(view, hand, seen, trump, legal)
        return self._follow(view, hand, trump, legal)

    # ---- helpers

    def _is_top(self, card: int, hand: list[int], seen: set[int]) -> bool:
        """No unseen card of the suit beats it."""
        s = _suit(card)
        for r, st in STRENGTH.items():
            other = s * 13 + r
            if st > _strength(card) and other not in hand and other not in seen:
                return False
        return True

    def _sure_points(self, hand: list[int], seen: set[int], trump: int) -> int:
        sure = 0
        for c in sorted(hand, key=_strength, reverse=True):
            if _suit(c) == trump and self._is_top(c, hand, seen | set(hand) - {c}):
                sure += _points(c) + 4
        return sure

    def _should_close(self, view: View, hand: list[int], seen: set[int], trump: int) -> bool:
        pts = view.points[view.seat]
        if view.public["tricks_won"][view.seat] == 0:
            return False
        if pts >= 66:
            return True
        return pts + self._sure_points(hand, seen, trump) >= 66

    def _marriage_part(self, card: int, hand: list[int]) -> bool:
        r = card % 13
        if r not in (_KING, _QUEEN):
            return False
        partner = _suit(card) * 13 + (_QUEEN if r == _KING else _KING)
        return partner in hand

    def _cost(self, card: int, hand: list[int], trump: int) -> float:
        cost = float(_points(card))
        if _suit(card) == trump:
            cost += 8 + _strength(card)
        if self._marriage_part(card, hand):
            cost += 15
        return cost

    def _lead(self, view: View, hand: list[int], seen: set[int], trump: int,
              legal: list[Move]) -> Move:
        cards = [m for m in legal if len(m.text) == 2]
        phase2 = view.public["phase"] == 2
        if phase2 or self._race(view):
            # Cash sure winners, highest trumps first.
            tops = [m for m in cards
                    if self._is_top(parse_card(m.text), hand, seen)
                    and (_suit(parse_card(m.text)) == trump or self._opp_may_follow(view, m))]
            if tops:
                return max(tops, key=lambda m: (_suit(parse_card(m.text)) == trump,
                                                _points(parse_card(m.text))))
        # Lead a cheap card, avoiding tens that the ace could catch.
        return min(cards, key=lambda m: (self._cost(parse_card(m.text), hand, trump)
                                         + (6 if parse_card(m.text) % 13 == 8 else 0),
                                         m.text))

    @staticmethod
    def _race(view: View) -> bool:
        """Late in a played-out hand every trick counts: once either side has 66, taking tricks
        keeps the opponent below 66 (a win, not a replay) or reaches 66 too (a replay, not a
        loss)."""
        me = view.seat
        return max(view.points[me] + view.public["pending"][me],
                   view.points[1 - me] + view.public["pending"][1 - me]) >= 56

    def _opp_may_follow(self, view: View, move: Move) -> bool:
        return view.public["stock"] > 0 or view.public["closed_by"] is not None

    def _follow(self, view: View, hand: list[int], trump: int, legal: list[Move]) -> Move:
        lead = parse_card(view.public["trick"][0]["card"])
        cards = [(parse_card(m.text), m) for m in legal]
        winners = [(c, m) for c, m in cards if self._beats(c, lead, trump)]
        at_stake = _points(lead)
        me = view.seat
        pts = view.points[me] + view.public["pending"][me]
        if winners:
            cheapest = min(winners, key=lambda cm: self._cost(cm[0], hand, trump))
            c = cheapest[0]
            gain = at_stake + _points(c)
            if pts + gain >= 66 or at_stake >= 10 or view.public["phase"] == 2 \
                    or self._race(view):
                return cheapest[1]
            if _suit(c) != trump and not self._marriage_part(c, hand):
                return cheapest[1]
        return min(cards, key=lambda cm: (self._cost(cm[0], hand, trump), cm[1].text))[1]

    @staticmethod
    def _beats(card: int, lead: int, trump: int) -> bool:
        if _suit(card) == _suit(lead):
            return _strength(card) > _strength(lead)
        return _suit(card) == trump


__all__ = ["CLOSE", "EXCHANGE", "HeuristicBot"]
