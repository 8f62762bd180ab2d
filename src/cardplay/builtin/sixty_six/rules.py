"""The rules of one hand of Sixty-Six (or Schnapsen): the move codes, the card tables and
:class:`SixtySixDeal`. The rules summary is in :mod:`.game`, with the game itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...cards import CARD_TEXTS, SUIT_CHARS, SUIT_MASKS, card_of, cards_of_mask, format_mask
from ...engine import Deal, Reason

if TYPE_CHECKING:
    from .game import SixtySix

__all__ = [
    "ACE",
    "CARD_POINTS",
    "CLOSE",
    "EXCHANGE",
    "HIGHER52",
    "JACK",
    "KING",
    "MARRIAGE_BASE",
    "NEVER_LEGAL_BASE",
    "NINE",
    "POINTS52",
    "QUEEN",
    "STRENGTH",
    "STRENGTH52",
    "TEN",
    "SixtySixDeal",
    "marriage_code",
]

MARRIAGE_BASE = 52
EXCHANGE = 68
CLOSE = 69
# "9H=20": it fits the notation (a card announcing 20 or 40) but is never legal; such texts get
# codes outside the action space so that play() answers IllegalMoveError, not InvalidMoveError.
NEVER_LEGAL_BASE = 1000

# Rank ids (cards.py: 0 = two .. 12 = ace) of the cards used here.
NINE, TEN, JACK, QUEEN, KING, ACE = 7, 8, 9, 10, 11, 12
# Strength within a suit (A > 10 > K > Q > J > 9) and card points, indexed by rank id.
STRENGTH = {NINE: 0, JACK: 1, QUEEN: 2, KING: 3, TEN: 4, ACE: 5}
CARD_POINTS = {NINE: 0, JACK: 2, QUEEN: 3, KING: 4, TEN: 10, ACE: 11}

STRENGTH52 = [STRENGTH.get(c % 13, -1) for c in range(52)]
POINTS52 = [CARD_POINTS.get(c % 13, 0) for c in range(52)]
# Cards of a suit that beat a given card in suit, by card id (for must_head).
HIGHER52 = [
    sum(1 << card_of(r, c // 13) for r in STRENGTH if STRENGTH[r] > STRENGTH52[c])
    if c % 13 in STRENGTH else 0
    for c in range(52)
]


_KQ = [(1 << card_of(KING, s)) | (1 << card_of(QUEEN, s)) for s in range(4)]
_KQ_ALL = sum(_KQ)
_NO_CLOSE = ~(1 << 55)  # clears the close bit of SixtySixDeal._open_bits
# The lead codes beyond the cards (marriages, exchange, close) by the hand's kings and queens and
# the rules bits of SixtySixDeal.legal_codes: at most 8,192 keys, where keying on the whole hand
# kept missing (a fresh deal's hands are mostly new) and grew without bound.
_LEAD_TAILS: dict[int, tuple[int, ...]] = {}


def _lead_tail(key: int) -> tuple[int, ...]:
    trump, exchange, close, king_only = key >> 52 & 3, key >> 54 & 1, key >> 55 & 1, key >> 56
    codes = []
    for s in range(4):
        kq = _KQ[s]
        if key & kq == kq:
            forty = s == trump
            codes.append(marriage_code(s, False, forty))
            if not king_only:
                codes.append(marriage_code(s, True, forty))
    if exchange:
        codes.append(EXCHANGE)
    if close:
        codes.append(CLOSE)
    r = _LEAD_TAILS[key] = tuple(codes)
    return r


def marriage_code(suit: int, queen: bool, forty: bool) -> int:
    return MARRIAGE_BASE + 4 * suit + 2 * int(queen) + int(forty)



class SixtySixDeal(Deal):
    """One hand of Sixty-Six (or Schnapsen)."""

    game: SixtySix

    def _start(self, order: list[int], stand_bonus: int = 0, **context: Any) -> None:
        if context:
            raise ValueError(f"sixty-six: unknown deal context {sorted(context)}; "
                             f"valid: stand_bonus")
        if isinstance(stand_bonus, bool) or not isinstance(stand_bonus, int) or stand_bonus < 0:
            raise ValueError("sixty-six: stand_bonus is a whole number >= 0")
        if stand_bonus:
            self._context = {"stand_bonus": stand_bonus}
        g = self.game
        n = g.hand_size
        nd = 1 - self.dealer
        first = second = 0
        for c in order[0:2 * n:2]:
            first |= 1 << c
        for c in order[1:2 * n:2]:
            second |= 1 << c
        self.hands = [first, second] if nd == 0 else [second, first]
        # A deal keeps at most 27 fields of its own (what a view or legal_moves adds comes on
        # top): CPython 3.11 keeps up to 30 attributes of a class's instances in a compact
        # shared layout, and past that every field read and write in the fast path became a
        # dict lookup (about 20% more instructions). What the record shows once (the turned
        # card, the exchange, who took the trump card, the last trick's bonus) and the deal's
        # end are therefore read off the rest by the properties below.
        turned = order[2 * n]
        self.talon = [*order[2 * n + 1:], turned]
        trump = self.trump = turned // 13
        self.nine = card_of(g.exchange_rank, trump)
        self.leader = nd
        self.pts = [0, 0]
        self.pending = [0, 0]
        self.won = [0, 0]  # the cards of each seat's tricks (nonzero: it took a trick)
        # Tuples, rebuilt when they grow (12 tricks at most): a copy can share them.
        self.tricks: tuple[tuple[int, int, int, int, bool], ...] = ()
        self.marriages: tuple[tuple[int, int, int, int], ...] = ()
        self.revealed = [0, 0]
        self.tpos = 0
        self.closed_by = -1
        self.lead = -1
        self.lead_marriage = False
        # The game's rules bits of the lead key (legal_codes), close allowed included, and the
        # points that end the deal at once (never, unless first_to_66).
        self._open_bits = trump << 52 | g.king_only << 56 | g.allow_close << 55
        self._goal = 66 if g.first66 else 1 << 30
        # (winner, game points, outcome, stand bonus carried on, result) once the deal is over
        self._end: tuple[int | None, int, str, int, list[int]] | None = None
        self._turn = nd

    def _why_illegal(self, code: int) -> Reason | None:
        from .refusals import why_illegal  # imported here: it reads this module's tables

        return why_illegal(self, code)

    # ---- state helpers

    @property
    def talon_size(self) -> int:
        return len(self.talon) - self.tpos

    @property
    def phase2(self) -> bool:
        return self.closed_by >= 0 or self.tpos >= len(self.talon)

    @property
    def turned(self) -> int:
        """The card turned up for trump."""
        return self._order[2 * self.game.hand_size]

    @property
    def stand_bonus(self) -> int:
        """Game points carried into this deal by drawn deals before it (RULES 4.9)."""
        return int(self._context.get("stand_bonus", 0))

    @property
    def tricks_won(self) -> list[int]:
        return [self.won[0].bit_count() >> 1, self.won[1].bit_count() >> 1]

    @property
    def exchanged(self) -> tuple[int, int, int] | None:
        """(seat, card taken, card given) of the trump exchange, if one was made: the exchange
        takes the turned card, as the exchange card can only be given once."""
        for seat, code in self.history:
            if code == EXCHANGE:
                return seat, self.turned, self.nine
        return None

    @property
    def trump_taker(self) -> int:
        """The seat that drew the trump card with the talon's last draw (-1: not drawn): the
        loser of the last trick that drew."""
        if self.closed_by >= 0 or self.tpos < len(self.talon):
            return -1
        for _, _, _, winner, phase2 in reversed(self.tricks):
            if not phase2:
                return 1 - winner
        return -1

    @property
    def last_bonus(self) -> int:
        """The seat that scored the last trick's 10 (-1: none): the last trick of a hand played
        out without closing, outside Schnapsen."""
        h = self.hands
        if h[0] or h[1] or not self.tricks or self.closed_by >= 0 or self.game.schnapsen:
            return -1
        return self.tricks[-1][3]

    @property
    def winner(self) -> int | None:
        return self._end[0] if self._end is not None else None

    @property
    def game_points(self) -> int:
        return self._end[1] if self._end is not None else 0

    @property
    def outcome(self) -> str:
        return self._end[2] if self._end is not None else ""

    @property
    def bonus_after(self) -> int:
        """The stand bonus the next deal starts with."""
        return self._end[3] if self._end is not None else self.stand_bonus

    def _copy(self) -> SixtySixDeal:
        # Field by field: reading either deal's __dict__ would give up its compact layout.
        d = SixtySixDeal.__new__(SixtySixDeal)
        d.hands = self.hands[:]
        d.talon = self.talon[:]
        d.trump = self.trump
        d.nine = self.nine
        d.leader = self.leader
        d.pts = self.pts[:]
        d.pending = self.pending[:]
        d.won = self.won[:]
        d.tricks = self.tricks
        d.marriages = self.marriages
        d.revealed = self.revealed[:]
        d.tpos = self.tpos
        d.closed_by = self.closed_by
        d.lead = self.lead
        d.lead_marriage = self.lead_marriage
        d._open_bits = self._open_bits
        d._goal = self._goal
        d._end = self._end
        return d

    # ---- rules
    #
    # The bots' fast path (legal_codes, apply_code) is what every search and playout runs per
    # node, so each is one method with its game constants read once at the deal's start
    # (_start: self._open_bits and friends), rather than hooks calling helpers; the lockstep
    # digests (tests/test_lockstep.py) hold them to the rules move by move.

    def legal_codes(self) -> list[int]:
        p = self._turn
        if p is None:
            return []
        h = self.hands[p]
        if self.lead < 0:
            # The tails are shared by every game: whatever changes them is in the key.
            if self.closed_by < 0 and len(self.talon) - self.tpos >= 2:
                key = h & _KQ_ALL | self._open_bits
                if h >> self.nine & 1 and (self.game.any_lead or self.won[p]):
                    key |= 1 << 54
            else:
                key = h & _KQ_ALL | self._open_bits & _NO_CLOSE
            tail = _LEAD_TAILS.get(key)
            if tail is None:
                tail = _lead_tail(key)
            cards = cards_of_mask(h)
            if tail:
                cards += tail
            return cards
        if self.closed_by < 0 and self.tpos < len(self.talon):
            return cards_of_mask(h)
        lead = self.lead
        same = h & SUIT_MASKS[lead // 13]
        if same:
            if self.game.must_head:
                higher = same & HIGHER52[lead]
                if higher:
                    same = higher
            return cards_of_mask(same)
        trumps = h & SUIT_MASKS[self.trump]
        if trumps:
            h = trumps
        return cards_of_mask(h)

    _legal = legal_codes

    def apply_code(self, code: int) -> None:
        p = self._turn
        self.history.append((p, code))  # type: ignore[arg-type]
        assert p is not None
        if code >= 52:
            if code == EXCHANGE:
                nine = self.nine
                took = self.talon[-1]
                self.hands[p] ^= (1 << nine) | (1 << took)
                self.talon[-1] = nine
                self.revealed[p] |= 1 << took
                return
            if code == CLOSE:
                self.closed_by = p
                return
        lead = self.lead
        if lead < 0:
            if code >= MARRIAGE_BASE:
                k = code - MARRIAGE_BASE
                suit, queen = k // 4, (k >> 1) & 1
                card = card_of(QUEEN if queen else KING, suit)
                partner = card_of(KING if queen else QUEEN, suit)
                value = 40 if suit == self.trump else 20
                self.marriages += ((p, suit, value, partner),)
                self.revealed[p] |= 1 << partner
                self.lead_marriage = True
                g = self.game
                if g.credit_at_once or (self.won[p] and not g.credit_next_trick):
                    self.pts[p] += value
                else:
                    self.pending[p] += value
            else:
                card = code
                self.lead_marriage = False
            self.hands[p] &= ~(1 << card)
            self.revealed[p] &= ~(1 << card)
            self.lead = card
            self.leader = p
            if self.pts[p] >= self._goal:
                self._decide_at_66(p)
                return
            self._turn = 1 - p
            return
        # A follow: the trick is complete.
        leader = self.leader
        bit = 1 << code
        self.hands[p] &= ~bit
        self.revealed[p] &= ~bit
        suit = code // 13
        if suit == lead // 13:
            winner = p if STRENGTH52[code] > STRENGTH52[lead] else leader
        elif suit == self.trump:
            winner = p
        else:
            winner = leader
        talon, tpos = self.talon, self.tpos
        drawing = self.closed_by < 0 and tpos < len(talon)
        self.tricks += ((leader, lead, code, winner, not drawing),)
        pts = self.pts
        pts[winner] += POINTS52[lead] + POINTS52[code]
        self.won[winner] |= (1 << lead) | bit
        pending = self.pending[winner]
        if pending:
            pts[winner] += pending
            self.pending[winner] = 0
        self.lead = -1
        self.lead_marriage = False
        hands = self.hands
        if drawing:
            loser = 1 - winner
            hands[winner] |= 1 << talon[tpos]
            hands[loser] |= 1 << talon[tpos + 1]
            tpos = self.tpos = tpos + 2
            if tpos >= len(talon):
                self.revealed[loser] |= 1 << talon[-1]
            empty = False
        else:
            empty = not hands[0] and not hands[1]
            if empty and self.closed_by < 0 and not self.game.schnapsen:
                pts[winner] += 10
        if pts[winner] >= self._goal:
            self._decide_at_66(winner)
        elif empty:
            self._decide_at_end(winner)
        else:
            self._turn = winner

    _apply = Deal._apply_by_fast_path

    def _game_points(self, loser: int) -> int:
        lp = self.pts[loser]
        if self.game.options.schwarz_rule == "zero_points":
            if lp == 0:
                return 3
        elif not self.won[loser]:
            return 3
        return 2 if lp < 33 else 1

    def _decide_at_66(self, seat: int) -> None:
        closer = self.closed_by
        if closer >= 0 and seat != closer:
            self._finish(seat, 2, "failed_close")
        else:
            self._finish(seat, self._game_points(1 - seat), "reached_66")

    def _decide_at_end(self, last_winner: int) -> None:
        pts, closer = self.pts, self.closed_by
        if self.game.options.end_mode == "first_to_66":
            # Nobody reached 66 before the cards ran out.
            if closer >= 0:
                self._finish(1 - closer, 2, "failed_close")
            elif self.game.schnapsen:
                self._finish(last_winner, 1, "last_trick")
            else:
                self._finish(None, 0, "drawn")
            return
        if closer >= 0:
            c, o = pts[closer], pts[1 - closer]
            if c >= 66 and o >= 66:
                self._finish(None, 0, "replay")
            elif c >= 66:
                self._finish(closer, self._game_points(1 - closer), "closed_and_won")
            else:
                self._finish(1 - closer, 2, "failed_close")
            return
        if pts[0] >= 66 and pts[1] >= 66:
            self._finish(None, 0, "replay")
        elif pts[0] >= 66 or pts[1] >= 66:
            w = 0 if pts[0] >= 66 else 1
            self._finish(w, self._game_points(1 - w), "reached_66")
        else:
            self._finish(None, 0, "drawn")

    def _finish(self, winner: int | None, points: int, outcome: str) -> None:
        res = [0, 0]
        stand_bonus = self.stand_bonus
        if winner is not None:
            res[winner] = points + stand_bonus
            after = 0
        else:
            points = 0
            after = stand_bonus + 1 if outcome == "drawn" and self.game.options.stand_bonus \
                else stand_bonus
        self._end = (winner, points, outcome, after, res)
        self._turn = None

    # ---- reports

    def _points(self) -> list[int]:
        return list(self.pts)

    def _result(self) -> list[int] | None:
        return list(self._end[4]) if self._end is not None else None

    def _hand(self, seat: int) -> list[int]:
        return cards_of_mask(self.hands[seat])

    def _known_to(self, seat: int) -> set[int]:
        return set(cards_of_mask(self.revealed[1 - seat]))

    def _public(self, seat: int) -> dict[str, Any]:
        # A view per move is what every bot and every seat at a server table asks for, and each
        # property call cost more than the field it reads (valgrind: the exchange's history scan
        # alone was 2.6k of a view's 69k instructions). So the one-line properties (turned,
        # tricks_won, stand_bonus) are read inline here, and the others are called only where
        # their answer is not already known from the fields.
        ct = CARD_TEXTS
        talon, tpos, closed_by = self.talon, self.tpos, self.closed_by
        talon_open = tpos < len(talon)
        tricks, hands, won, revealed = self.tricks, self.hands, self.won, self.revealed
        turned = self._order[2 * self.game.hand_size]
        trick = [] if self.lead < 0 else \
            [{"seat": self.leader, "card": ct[self.lead], "marriage": self.lead_marriage}]
        # An exchange puts the exchange card where the turned card lay: only then is there one
        # to find in the history.
        exchanged = self.exchanged if talon[-1] != turned else None
        taker = self.trump_taker if closed_by < 0 and not talon_open else -1
        last_bonus = self.last_bonus if not (hands[0] or hands[1]) else -1
        pub: dict[str, Any] = {
            "trump_suit": SUIT_CHARS[self.trump],
            "turned_trump": ct[turned],
            "trump_card": ct[talon[-1]] if talon_open else None,
            "trump_card_taker": taker if taker >= 0 else None,
            "stock": len(talon) - tpos,
            "closed_by": closed_by if closed_by >= 0 else None,
            "phase": 1 if closed_by < 0 and talon_open else 2,
            # between tricks the seat to lead is the one to move (the last trick's winner):
            # self.leader still names the previous trick's leader until the next lead
            "leader": self.leader if self.lead >= 0 or self._turn is None else self._turn,
            "trick": trick,
            "tricks": [{"leader": ld, "cards": [ct[a], ct[b]], "winner": w, "phase2": p2}
                       for ld, a, b, w, p2 in tricks],
            "tricks_won": [won[0].bit_count() >> 1, won[1].bit_count() >> 1],
            "pending": self.pending[:],
            "marriages": [{"seat": s, "suit": SUIT_CHARS[su], "points": v, "shown": ct[c]}
                          for s, su, v, c in self.marriages],
            "exchange": ({"seat": exchanged[0], "took": ct[exchanged[1]],
                          "gave": ct[exchanged[2]]} if exchanged else None),
            "hand_sizes": [hands[0].bit_count(), hands[1].bit_count()],
            "known_cards": [format_mask(revealed[0]), format_mask(revealed[1])],
            "last_trick_bonus": last_bonus if last_bonus >= 0 else None,
            "stand_bonus": self._context.get("stand_bonus", 0),
        }
        end = self._end
        if end is not None:
            pub["outcome"] = {"winner": end[0], "game_points": end[1], "reason": end[2],
                              "stand_bonus_next": end[3]}
            # the points of the cards each seat took: with the marriages and the last trick's
            # ten they make its points, which a deal's end explains by them
            pub["card_points"] = [sum(POINTS52[c] for c in cards_of_mask(won[p])) for p in (0, 1)]
        return pub
