"""The rules of one hand of Two-Ten-Jack: the card tables, the move codes and
:class:`TwoTenJackDeal`. The rules summary is in :mod:`.game`, with the game itself."""

from __future__ import annotations

from typing import Any

from ...cards import cards_of_mask, format_card, format_mask
from ...engine import Deal, Reason

__all__ = [
    "AS",
    "AS_SPADES",
    "AS_TRUMPS",
    "CARD_KINDS",
    "CARD_POINTS",
    "FOLLOWER_WINS",
    "KIND_BITS",
    "KIND_MASKS",
    "KIND_NAMES",
    "TRUMPS",
    "TwoTenJackDeal",
    "follower_wins",
]

AS = 12  # card id of the ace of spades, the Speculation
AS_SPADES = 52  # lead the A♠ declared a spade
AS_TRUMPS = 53  # lead the A♠ declared a trump

_SUIT = 0x1FFF
SPADES = _SUIT
HEARTS = _SUIT << 13
DIAMONDS = _SUIT << 26
CLUBS = _SUIT << 39
TRUMPS = HEARTS | (1 << AS)
# A trick's led kind: 0 spades (A♠ included), 1 trumps (hearts and the A♠), 2 diamonds, 3 clubs.
# A card's suit number is its led kind, except the A♠, whose kind is declared.
KIND_MASKS: tuple[int, ...] = (SPADES, TRUMPS, DIAMONDS, CLUBS)
KIND_NAMES = ("S", "H", "D", "C")


def _card_points(card: int) -> int:
    suit, rank = divmod(card, 13)
    if suit == 1 and rank in (0, 8, 9):
        return 5
    if suit == 3 and rank in (0, 8, 9):
        return -5
    if suit == 0 and rank in (0, 8, 9, 12):
        return 1
    if card == 30:  # 6♦
        return 1
    return 0


CARD_POINTS: tuple[int, ...] = tuple(_card_points(c) for c in range(52))
# the cards that score at all: a hand's points are what each seat took of these
_SCORING = sum(1 << c for c in range(52) if CARD_POINTS[c])


def follower_wins(lead: int, card: int) -> bool:
    """Whether the follower's ``card`` beats the led card ``lead`` (RULES.md 3.6)."""
    if lead == AS:
        return False
    if card == AS:
        return True
    ls, cs = lead // 13, card // 13
    if cs == ls:
        return card > lead
    return cs == 1  # a heart on a non-heart lead wins; any other off-suit card loses


# FOLLOWER_WINS[lead * 52 + card]: 1 when the follower's card takes the trick.
FOLLOWER_WINS: bytes = bytes(int(follower_wins(a, b)) for a in range(52) for b in range(52))

# Kinds a card belongs to, as bits: 1 spade, 2 trump, 4 diamond, 8 club.
KIND_BITS: tuple[int, ...] = (1, 2, 4, 8)
CARD_KINDS: tuple[int, ...] = tuple(3 if c == AS else KIND_BITS[c // 13] for c in range(52))


class TwoTenJackDeal(Deal):
    """One hand of Two-Ten-Jack: 26 tricks, the first 20 followed by drawing from the stock."""

    _hands: list[int]  # bitmask per seat
    _won: list[int]  # won-trick pile per seat (bitmask)
    _pts: list[int]  # card points won per seat
    _stock: tuple[int, ...]  # the 40 stock cards, top first
    _pos: int  # cards drawn from the stock so far
    _leader: int  # seat leading the current trick
    _lead: int  # the card led in the current trick, -1 before the lead
    _lead_code: int  # the move code of that lead (52/53 for a declared A♠)
    _kind: int  # the led kind (see KIND_MASKS)
    _tricks: int  # tricks completed
    _last: tuple[int, int, int, int, int] | None  # leader, lead code, reply, winner, points

    def _start(self, order: list[int], **context: Any) -> None:
        if context:
            raise ValueError(f"two-ten-jack: a deal takes no context, got {sorted(context)}")
        nd = 1 - self.dealer
        hands = [0, 0]
        for i in range(12):
            hands[nd if i % 2 == 0 else self.dealer] |= 1 << order[i]
        self._hands = hands
        self._won = [0, 0]
        self._pts = [0, 0]
        self._stock = tuple(order[12:])
        self._pos = 0
        self._leader = nd
        self._lead = -1
        self._lead_code = -1
        self._kind = 0
        self._tricks = 0
        self._last = None
        self._turn = nd

    def _why_illegal(self, code: int) -> Reason | None:
        from .refusals import why_illegal  # imported here: it reads this module's tables

        return why_illegal(self, code)

    # ---- the hot path

    def _legal(self) -> list[int]:
        turn = self._turn
        if turn is None:
            return []
        h = self._hands[turn]
        if self._lead < 0:
            if h >> AS & 1:
                return [*cards_of_mask(h ^ (1 << AS)), AS_SPADES, AS_TRUMPS]
            return cards_of_mask(h)
        f = h & KIND_MASKS[self._kind]
        if not f:
            f = h & TRUMPS or h
        return cards_of_mask(f)

    legal_codes = _legal

    def apply_code(self, code: int) -> None:
        turn: int = self._turn  # type: ignore[assignment]
        self.history.append((turn, code))
        if self._lead < 0:
            if code >= AS_SPADES:
                card, kind = AS, code - AS_SPADES
            else:
                card, kind = code, code // 13
            self._hands[turn] &= ~(1 << card)
            self._lead = card
            self._lead_code = code
            self._kind = kind
            self._leader = turn
            self._turn = 1 - turn
            return
        lead = self._lead
        leader = self._leader
        self._hands[turn] &= ~(1 << code)
        winner = turn if FOLLOWER_WINS[lead * 52 + code] else leader
        pts = CARD_POINTS[lead] + CARD_POINTS[code]
        self._pts[winner] += pts
        self._won[winner] |= (1 << lead) | (1 << code)
        self._last = (leader, self._lead_code, code, winner, pts)
        self._lead = -1
        self._lead_code = -1
        pos = self._pos
        if pos < 40:
            self._hands[winner] |= 1 << self._stock[pos]
            self._hands[1 - winner] |= 1 << self._stock[pos + 1]
            self._pos = pos + 2
        self._tricks += 1
        if self._tricks == 26:
            self._turn = None
        else:
            self._turn = winner
            self._leader = winner

    _apply = Deal._apply_by_fast_path

    def _points(self) -> list[int]:
        return list(self._pts)

    def _result(self) -> list[int] | None:
        return list(self._pts) if self._turn is None else None

    def _hand(self, seat: int) -> list[int]:
        return cards_of_mask(self._hands[seat])

    def seen(self, seat: int) -> tuple[int, int, int, int, int, int]:
        """Fast path for the heuristic's rollouts: what ``view(seat)`` shows of the cards, read
        without building a view: (hand, unseen cards as bitmasks, the card led and its kind or
        -1, -1, the stock left, the other seat's hand size). The unseen cards are the 52 less
        the seat's hand and every card played, as the view's history gives them."""
        hand = self._hands[seat]
        played = self._won[0] | self._won[1]
        lead = self._lead
        if lead >= 0:
            played |= 1 << lead
        return (hand, ((1 << 52) - 1) & ~played & ~hand, lead, self._kind if lead >= 0 else -1,
                40 - self._pos, self._hands[1 - seat].bit_count())

    def _public(self, seat: int) -> dict[str, Any]:
        trick: list[dict[str, Any]] = []
        declared = None
        if self._lead >= 0:
            trick.append({"seat": self._leader, "card": format_card(self._lead)})
            if self._lead_code >= AS_SPADES:
                declared = KIND_NAMES[self._lead_code - AS_SPADES]
        last: dict[str, Any] | None = None
        if self._last is not None:
            leader, code, reply, winner, pts = self._last
            lead = AS if code >= AS_SPADES else code
            last = {
                "cards": [{"seat": leader, "card": format_card(lead)},
                          {"seat": 1 - leader, "card": format_card(reply)}],
                "declared": KIND_NAMES[code - AS_SPADES] if code >= AS_SPADES else None,
                "winner": winner,
                "points": pts,
            }
        return {
            "leader": self._leader,
            "trick": trick,
            "led": KIND_NAMES[self._kind] if self._lead >= 0 else None,
            "declared": declared,
            "last_trick": last,
            "won": [format_mask(m) for m in self._won],
            "tricks_won": [m.bit_count() // 2 for m in self._won],
            "tricks_played": self._tricks,
            "hand_points": list(self._pts),
            "scoring": [{"seat": p, "card": format_card(c), "points": CARD_POINTS[c]}
                        for p in (0, 1) for c in cards_of_mask(self._won[p] & _SCORING)],
            "stock": 40 - self._pos,
            "hand_sizes": [h.bit_count() for h in self._hands],
        }

    def _copy(self) -> Deal:
        d = TwoTenJackDeal.__new__(TwoTenJackDeal)
        d._hands = list(self._hands)
        d._won = list(self._won)
        d._pts = list(self._pts)
        d._stock = self._stock
        d._pos = self._pos
        d._leader = self._leader
        d._lead = self._lead
        d._lead_code = self._lead_code
        d._kind = self._kind
        d._tricks = self._tricks
        d._last = self._last
        return d
