"""The rules of one hand of Sixty-Six (or Schnapsen): the move codes, the card tables and
:class:`SixtySixDeal`. The rules summary is in :mod:`.game`, with the game itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...cards import CARD_TEXTS, SUIT_CHARS, SUIT_MASKS, card_of, cards_of_mask
from ...engine import Deal

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
_MASK_CARDS: dict[int, tuple[int, ...]] = {}


def _cards(mask: int) -> tuple[int, ...]:
    """The cards of a hand mask, cached: hands recur constantly in playouts and searches."""
    r = _MASK_CARDS.get(mask)
    if r is None:
        r = _MASK_CARDS[mask] = tuple(cards_of_mask(mask))
    return r


_KQ_ALL = sum(_KQ)
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
        turned = self.turned = order[2 * n]
        self.talon = [*order[2 * n + 1:], turned]
        trump = self.trump = turned // 13
        self.nine = card_of(g.exchange_rank, trump)
        self.leader = nd
        self.pts = [0, 0]
        self.pending = [0, 0]
        self.tricks_won = [0, 0]
        self.won = [0, 0]
        # Tuples, rebuilt when they grow (12 tricks at most): a copy can share them.
        self.tricks: tuple[tuple[int, int, int, int, bool], ...] = ()
        self.marriages: tuple[tuple[int, int, int, int], ...] = ()
        self.revealed = [0, 0]
        self.stand_bonus = stand_bonus
        self.bonus_after = stand_bonus
        # What every deal starts with, and the game's constants the fast path reads per move.
        self.tpos = 0
        self.closed_by = -1
        self.lead = -1
        self.lead_marriage = False
        self.trump_taker = -1
        self.last_bonus = -1
        self.game_points = 0
        self.outcome = ""
        self._any_lead = g.any_lead
        self._must_head = g.must_head
        self._first66 = g.first66
        self._schnapsen = g.schnapsen
        self.exchanged: tuple[int, int, int] | None = None
        self.winner: int | None = None
        self._res: list[int] | None = None
        rules_bits = trump << 52 | g.king_only << 56
        self._lead_bits = rules_bits
        self._open_bits = rules_bits | g.allow_close << 55
        self._turn = nd

    # ---- state helpers

    @property
    def talon_size(self) -> int:
        return len(self.talon) - self.tpos

    @property
    def phase2(self) -> bool:
        return self.closed_by >= 0 or self.tpos >= len(self.talon)

    _copy_has_base = True  # _copy starts from the whole instance dict

    def _copy(self) -> SixtySixDeal:
        d = SixtySixDeal.__new__(SixtySixDeal)
        d.__dict__.update(self.__dict__)
        d.hands = self.hands[:]
        d.talon = self.talon[:]
        d.pts = self.pts[:]
        d.pending = self.pending[:]
        d.tricks_won = self.tricks_won[:]
        d.won = self.won[:]
        d.revealed = self.revealed[:]
        return d

    # ---- rules
    #
    # The bots' fast path (legal_codes, apply_code) is what every search and playout runs per
    # node, so each is one method with its game constants read once at the deal's start
    # (_start: self._lead_bits and friends), rather than hooks calling helpers; the lockstep
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
                if h >> self.nine & 1 and (self._any_lead or self.tricks_won[p]):
                    key |= 1 << 54
            else:
                key = h & _KQ_ALL | self._lead_bits
            tail = _LEAD_TAILS.get(key)
            if tail is None:
                tail = _lead_tail(key)
            cards = _MASK_CARDS.get(h) or _cards(h)
            return cards + tail if tail else cards  # type: ignore[return-value]
        if self.closed_by < 0 and self.tpos < len(self.talon):
            return _MASK_CARDS.get(h) or _cards(h)  # type: ignore[return-value]
        lead = self.lead
        same = h & SUIT_MASKS[lead // 13]
        if same:
            if self._must_head:
                higher = same & HIGHER52[lead]
                if higher:
                    same = higher
            return _MASK_CARDS.get(same) or _cards(same)  # type: ignore[return-value]
        trumps = h & SUIT_MASKS[self.trump]
        if trumps:
            h = trumps
        return _MASK_CARDS.get(h) or _cards(h)  # type: ignore[return-value]

    _legal = legal_codes

    def _can_exchange(self, p: int) -> bool:
        if self.closed_by >= 0 or self.talon_size < 2:
            return False
        if not self.hands[p] >> self.nine & 1:
            return False
        return self.game.any_lead or self.tricks_won[p] > 0

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
                self.exchanged = (p, took, nine)
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
                if g.credit_at_once or (self.tricks_won[p] and not g.credit_next_trick):
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
            if self._first66 and self.pts[p] >= 66:
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
        self.tricks_won[winner] += 1
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
                self.trump_taker = loser
                self.revealed[loser] |= 1 << talon[-1]
            empty = False
        else:
            empty = not hands[0] and not hands[1]
            if empty and self.closed_by < 0 and not self._schnapsen:
                pts[winner] += 10
                self.last_bonus = winner
        if self._first66 and pts[winner] >= 66:
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
        elif self.tricks_won[loser] == 0:
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
        self.winner = winner
        self.outcome = outcome
        res = [0, 0]
        if winner is not None:
            self.game_points = points
            res[winner] = points + self.stand_bonus
            self.bonus_after = 0
        elif outcome == "drawn" and self.game.options.stand_bonus:
            self.bonus_after = self.stand_bonus + 1
        else:
            self.bonus_after = self.stand_bonus
        self._res = res
        self._turn = None

    # ---- reports

    def _points(self) -> list[int]:
        return list(self.pts)

    def _result(self) -> list[int] | None:
        return list(self._res) if self._res is not None else None

    def _hand(self, seat: int) -> list[int]:
        # a list, as hand_codes promises, from the cached tuple
        h = self.hands[seat]
        return list(_MASK_CARDS.get(h) or _cards(h))

    def _known_to(self, seat: int) -> set[int]:
        return set(cards_of_mask(self.revealed[1 - seat]))

    def _public(self, seat: int) -> dict[str, Any]:
        ct = CARD_TEXTS
        talon = self.talon
        phase2 = self.closed_by >= 0 or self.tpos >= len(talon)
        trick = []
        if self.lead >= 0:
            trick.append({"seat": self.leader, "card": ct[self.lead],
                          "marriage": self.lead_marriage})
        revealed = self.revealed
        pub: dict[str, Any] = {
            "trump_suit": SUIT_CHARS[self.trump],
            "turned_trump": ct[self.turned],
            "trump_card": ct[talon[-1]] if self.tpos < len(talon) else None,
            "trump_card_taker": self.trump_taker if self.trump_taker >= 0 else None,
            "stock": len(talon) - self.tpos,
            "closed_by": self.closed_by if self.closed_by >= 0 else None,
            "phase": 2 if phase2 else 1,
            "leader": self.leader,
            "trick": trick,
            "tricks": [{"leader": ld, "cards": [ct[a], ct[b]], "winner": w, "phase2": p2}
                       for ld, a, b, w, p2 in self.tricks],
            "tricks_won": self.tricks_won[:],
            "pending": self.pending[:],
            "marriages": [{"seat": s, "suit": SUIT_CHARS[su], "points": v, "shown": ct[c]}
                          for s, su, v, c in self.marriages],
            "exchange": ({"seat": self.exchanged[0], "took": ct[self.exchanged[1]],
                          "gave": ct[self.exchanged[2]]} if self.exchanged else None),
            "hand_sizes": [self.hands[0].bit_count(), self.hands[1].bit_count()],
            "known_cards": [[ct[c] for c in _MASK_CARDS.get(m) or _cards(m)]
                            for m in revealed],
            "last_trick_bonus": self.last_bonus if self.last_bonus >= 0 else None,
            "stand_bonus": self.stand_bonus,
        }
        if self._turn is None:
            pub["outcome"] = {"winner": self.winner, "game_points": self.game_points,
                              "reason": self.outcome, "stand_bonus_next": self.bonus_after}
        return pub
