"""Sixty-Six («66») and its Schnapsen preset: two players, 24 (20) cards, first to 66 card points.

Rules (RULES.md section 4). Cards A 10 K Q J 9 rank in that order and count 11 10 4 3 2 0. Each
player gets 6 cards (non-dealer first), the 13th card is turned up as the trump card and lies at
the bottom of the 12-card talon. The non-dealer leads. While the talon is open there is no
obligation to follow suit; the trick winner draws first, then the loser (the loser of the sixth
trick gets the trump card). On lead a player may first exchange the trump 9 for the trump card,
close the talon, and/or announce a marriage (K+Q of a suit: 20, in trumps 40) by leading its K or
Q. Once the talon is exhausted or closed, the follower must follow suit and head the trick
(``must_head``), else trump, else play any card. The last (12th) trick scores 10 when the talon
was exhausted and never closed. A hand is worth 1 game point (loser 33 or more), 2 (loser under
33) or 3 (loser with no points, ``schwarz_rule``); a failed close gives the opponent 2. Both at 66
or more: the hand is replayed; 65-65: a drawn hand whose stand bonus goes to the next winner.
The winner deals next; the match goes to ``match_target`` (7) game points.

Schnapsen (``preset="schnapsen"``): 20 cards (no nines), 5 cards each, the trump jack is
exchanged (on any lead), the hand ends as soon as someone reaches 66, when the cards run out the
winner of the last trick wins the hand (no 10-point bonus), and 3 game points need a loser who
took no trick (``schwarz_rule="no_tricks"``).

Options: preset (sixty-six | schnapsen), end_mode (play_out | first_to_66),
marriage_requires_trick (True), exchange (won_trick | any_lead), allow_close (True),
must_head (True), schwarz_rule (zero_points | no_tricks), stand_bonus (True), match_target (7),
marriage_lead (either | king), marriage_credit (first_trick | next_trick).

``marriage_lead="king"``: a marriage is always announced by leading its king (``KH=20``; ``QH=20``
is illegal). ``marriage_credit="next_trick"``: a marriage's points always wait for the next trick
its declarer wins, even when he has won one before (they lapse if he wins no further trick), so a
hand is never decided on a lead; the default ``"first_trick"`` holds them only until his first
trick (``marriage_requires_trick``; it cannot be combined with ``marriage_requires_trick=False``).

``VU_SCHNAPSEN_OPTIONS`` names the rules of the VU Amsterdam bot platform (the PyPI package
``schnapsen``): the Schnapsen preset without closing, marriages leading the king and credited on the
declarer's next trick; ``cardplay.load("sixty-six", **VU_SCHNAPSEN_OPTIONS)``. Its other rules are
the preset's: the jack exchange on any lead while the talon holds 2 or more cards, 66 checked
after every trick, the last trick deciding an undecided hand, 3 game points to a winner whose
opponent took no trick (there, equally, a loser with 0 points: a trick is worth 4 or more).

Notation and move codes (the fixed action space):

* ``0..51`` play the card with that id (``QH``);
* ``52 + 4*suit + 2*(0 for K, 1 for Q) + (0 for 20, 1 for 40)``: lead that K or Q announcing the
  marriage (``KH=20``, ``QS=40``; suits S H D C = 0..3);
* ``68`` ``exchange``; ``69`` ``close``.

Text such as ``9H=20`` fits the notation but is never legal (it parses to a code of 1000 or more,
outside the action space), so it is an IllegalMoveError, while ``KH=30`` is an InvalidMoveError.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..cards import SUIT_CHARS, SUIT_MASKS, card_of, cards_of_mask, format_card, parse_card
from ..engine import (
    Deal,
    Game,
    InvalidMoveError,
    Match,
    OptionError,
    View,
    option,
    register,
)
from ._sampling import LastPrepared

__all__ = ["CLOSE", "EXCHANGE", "RULES_RU", "VU_SCHNAPSEN_OPTIONS", "SixtySix", "SixtySixDeal"]

RULES_RU = """«66» (и пресет «Шнапсен»): двое игроков, 24 карты (Т 10 К Д В 9; очки 11 10 4 3 2 0).
По 6 карт, 13-я открывается козырем и лежит под прикупом из 12 карт. Пока прикуп открыт, масть
поддерживать не нужно; взявший взятку добирает первым. На ходу можно обменять козырную девятку на
открытый козырь, закрыть прикуп и объявить марьяж (К+Д одной масти: 20, козырный 40), выходя его
королём или дамой. После исчерпания или закрытия прикупа нужно отвечать в масть и старше, иначе
козырем. Последняя взятка даёт 10 очков. Партия стоит 1, 2 или 3 очка; проигравший закрытие отдаёт
2. Оба набрали 66 — пересдача; 65–65 — ничья, бонус следующему победителю. Матч до 7 очков.
Шнапсен: 20 карт без девяток, по 5 карт, обмен козырного валета, партия кончается на 66.
Ходы: карта (QH), марьяж (KH=20, QS=40), exchange, close.
Опции: marriage_lead="king" — марьяж объявляется только выходом с короля; marriage_credit=
"next_trick" — очки марьяжа всегда ждут следующей взятки объявившего. VU_SCHNAPSEN_OPTIONS —
правила платформы VU Amsterdam (пакет schnapsen): Шнапсен без закрытия, марьяж с короля и с
зачётом на следующей взятке."""

# The rules of the VU Amsterdam bot platform (PyPI ``schnapsen`` 0.0.5), as options (RULES 4.12).
VU_SCHNAPSEN_OPTIONS: dict[str, Any] = {
    "preset": "schnapsen",
    "allow_close": False,
    "marriage_lead": "king",
    "marriage_credit": "next_trick",
}

MARRIAGE_BASE = 52
EXCHANGE = 68
CLOSE = 69
# "9H=20": it fits the notation (a card announcing 20 or 40) but is never legal; such texts get
# codes outside the action space so that play() answers IllegalMoveError, not InvalidMoveError.
NEVER_LEGAL_BASE = 1000

# Rank ids (cards.py: 0 = two .. 12 = ace) of the cards used here.
_NINE, _TEN, _JACK, _QUEEN, _KING, _ACE = 7, 8, 9, 10, 11, 12
# Strength within a suit (A > 10 > K > Q > J > 9) and card points, indexed by rank id.
STRENGTH = {_NINE: 0, _JACK: 1, _QUEEN: 2, _KING: 3, _TEN: 4, _ACE: 5}
CARD_POINTS = {_NINE: 0, _JACK: 2, _QUEEN: 3, _KING: 4, _TEN: 10, _ACE: 11}

_STRENGTH52 = [STRENGTH.get(c % 13, -1) for c in range(52)]
_POINTS52 = [CARD_POINTS.get(c % 13, 0) for c in range(52)]
# Cards of a suit that beat a given card in suit, by card id (for must_head).
_HIGHER52 = [
    sum(1 << card_of(r, c // 13) for r in STRENGTH if STRENGTH[r] > _STRENGTH52[c])
    if c % 13 in STRENGTH else 0
    for c in range(52)
]


_KQ = [(1 << card_of(_KING, s)) | (1 << card_of(_QUEEN, s)) for s in range(4)]
_MASK_CARDS: dict[int, tuple[int, ...]] = {}


def _cards(mask: int) -> tuple[int, ...]:
    """The cards of a hand mask, cached: hands recur constantly in playouts and searches."""
    r = _MASK_CARDS.get(mask)
    if r is None:
        r = _MASK_CARDS[mask] = tuple(cards_of_mask(mask))
    return r


_LEADS: dict[int, tuple[int, ...]] = {}


def _lead_codes(h: int, trump: int, exchange: bool, close: bool,
                king_only: bool = False) -> tuple[int, ...]:
    codes = list(_cards(h))
    for s in range(4):
        kq = _KQ[s]
        if h & kq == kq:
            forty = s == trump
            codes.append(marriage_code(s, False, forty))
            if not king_only:
                codes.append(marriage_code(s, True, forty))
    if exchange:
        codes.append(EXCHANGE)
    if close:
        codes.append(CLOSE)
    return tuple(codes)


def marriage_code(suit: int, queen: bool, forty: bool) -> int:
    return MARRIAGE_BASE + 4 * suit + 2 * int(queen) + int(forty)


@dataclass(frozen=True)
class SixtySixOptions:
    preset: str = option("sixty-six", ("sixty-six", "schnapsen"))
    end_mode: str = option("play_out", ("play_out", "first_to_66"))
    marriage_requires_trick: bool = option(True, (True, False))
    exchange: str = option("won_trick", ("won_trick", "any_lead"))
    allow_close: bool = option(True, (True, False))
    must_head: bool = option(True, (True, False))
    schwarz_rule: str = option("zero_points", ("zero_points", "no_tricks"))
    stand_bonus: bool = option(True, (True, False))
    match_target: int = option(7, int_range=(1, 100))
    marriage_lead: str = option("either", ("either", "king"))
    marriage_credit: str = option("first_trick", ("first_trick", "next_trick"))


@register
class SixtySix(Game):
    """Sixty-Six with its options and the Schnapsen preset."""

    name = "sixty-six"
    title = {"en": "Sixty-Six", "ru": "Шестьдесят шесть (66)"}
    Options = SixtySixOptions
    min_players = 2
    max_players = 2
    options: SixtySixOptions

    def _setup(self) -> None:
        o = self.options
        schnapsen = o.preset == "schnapsen"
        ranks = (_JACK, _QUEEN, _KING, _TEN, _ACE) if schnapsen else \
            (_NINE, _JACK, _QUEEN, _KING, _TEN, _ACE)
        cards = sorted(card_of(r, s) for s in range(4) for r in ranks)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "hand_size", 5 if schnapsen else 6)
        object.__setattr__(self, "exchange_rank", _JACK if schnapsen else _NINE)
        object.__setattr__(self, "schnapsen", schnapsen)
        object.__setattr__(self, "deck_mask", sum(1 << c for c in cards))
        object.__setattr__(self, "any_lead", o.exchange == "any_lead")
        object.__setattr__(self, "allow_close", o.allow_close)
        object.__setattr__(self, "must_head", o.must_head)
        object.__setattr__(self, "first66", o.end_mode == "first_to_66")
        object.__setattr__(self, "credit_at_once", not o.marriage_requires_trick)
        object.__setattr__(self, "credit_next_trick", o.marriage_credit == "next_trick")
        object.__setattr__(self, "king_only", o.marriage_lead == "king")

    cards: list[int]
    hand_size: int
    exchange_rank: int
    schnapsen: bool
    deck_mask: int
    any_lead: bool
    allow_close: bool
    must_head: bool
    first66: bool
    credit_at_once: bool
    credit_next_trick: bool
    king_only: bool

    @classmethod
    def _presets(cls) -> dict[str, dict[str, Any]]:
        # Schnapsen's 3 game points go to a winner whose opponent took no trick (RULES 4.12).
        return {"sixty-six": {}, "schnapsen": {"end_mode": "first_to_66", "exchange": "any_lead",
                                               "schwarz_rule": "no_tricks"}}

    def _validate_options(self, opts: Any, given: Any) -> None:
        if opts.preset == "schnapsen" and opts.end_mode != "first_to_66":
            raise OptionError("sixty-six: the schnapsen preset always ends a hand at 66; "
                              "end_mode='play_out' cannot be combined with preset='schnapsen' "
                              "(valid: end_mode='first_to_66')")
        if opts.marriage_credit == "next_trick" and not opts.marriage_requires_trick:
            raise OptionError("sixty-six: marriage_credit='next_trick' holds every marriage's "
                              "points until the declarer's next trick, while "
                              "marriage_requires_trick=False credits them at once; combine it "
                              "with marriage_requires_trick=True (the default)")

    @property
    def deck_size(self) -> int:  # type: ignore[override]
        return len(self.cards)

    def _deck_cards(self) -> list[int]:
        return list(self.cards)

    # ---- notation

    def _parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise InvalidMoveError(f"sixty-six: a move is text, not {type(text).__name__}")
        t = text.strip()
        low = t.lower()
        if low == "exchange":
            return EXCHANGE
        if low == "close":
            return CLOSE
        if "=" in t:
            card_text, _, amount = t.partition("=")
            card = self._card(card_text.strip(), text)
            if amount.strip() not in ("20", "40"):
                raise InvalidMoveError(
                    f"sixty-six: {text!r} is not a move: a marriage is the K or Q of a suit with "
                    f"=20 or =40, such as 'KH=20' or 'QS=40'")
            forty = amount.strip() == "40"
            if card % 13 not in (_KING, _QUEEN):
                return NEVER_LEGAL_BASE + 2 * card + forty
            return marriage_code(card // 13, card % 13 == _QUEEN, forty)
        return self._card(t, text)

    def _card(self, t: str, text: str) -> int:
        return self._deck_card(t, self.deck_mask, "a card (such as 'QH' or '10♥'), a marriage "
                               "lead ('KH=20', 'QS=40'), 'exchange' or 'close'")

    def _format(self, code: int) -> str:
        if code < 52:
            return format_card(code)
        if code == EXCHANGE:
            return "exchange"
        if code == CLOSE:
            return "close"
        if code >= NEVER_LEGAL_BASE:
            c = (code - NEVER_LEGAL_BASE) // 2
            return f"{format_card(c)}={'40' if code & 1 else '20'}"
        k = code - MARRIAGE_BASE
        suit, queen, forty = k // 4, (k >> 1) & 1, k & 1
        return f"{'Q' if queen else 'K'}{SUIT_CHARS[suit]}={'40' if forty else '20'}"

    def _example_move(self) -> str:
        return "QH"

    # ---- match rules

    def _first_dealer(self, rng: random.Random) -> int:
        # Each player draws a card; the lower card deals; equal ranks draw again (RULES 4.3).
        while True:
            a, b = rng.sample(self.cards, 2)
            if _STRENGTH52[a] != _STRENGTH52[b]:
                return 0 if _STRENGTH52[a] < _STRENGTH52[b] else 1

    def _next_dealer(self, match: Match, finished: Deal) -> int:
        assert isinstance(finished, SixtySixDeal)
        winner = finished.winner
        return finished.dealer if winner is None else winner

    def _deal_context(self, match: Match) -> dict[str, Any]:
        pending = 0
        for d in match.deals:
            assert isinstance(d, SixtySixDeal)
            pending = d.bonus_after
        return {"stand_bonus": pending} if pending else {}

    def _match_over(self, match: Match) -> bool:
        return max(match.finished_scores) >= self.options.match_target

    def _match_winners(self, match: Match) -> list[int]:
        t = self.options.match_target
        return [s for s, v in enumerate(match.finished_scores) if v >= t]

    # ---- determinization

    def sample_deal(self, view: View, rng: random.Random) -> SixtySixDeal:
        """A deal consistent with ``view``, drawn uniformly among the deck orders that are: the
        opponent's unknown cards are drawn uniformly from the unseen cards he can hold (voids and
        must-head failures shown in phase 2 exclude cards), the rest of the unseen cards form the
        talon in random order, and each seat's known cards are spread uniformly over the deal
        and the draws that came before the first move needing them (shown partners, the
        exchanged nine, the trump card's taker all count)."""
        return _sample(self, view, rng)


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
        hands = [0, 0]
        for i in range(2 * n):
            seat = nd if i % 2 == 0 else self.dealer
            hands[seat] |= 1 << order[i]
        self.hands = hands
        self.turned = order[2 * n]
        self.talon = [*order[2 * n + 1:], order[2 * n]]
        self.tpos = 0
        self.trump = self.turned // 13
        self.nine = card_of(g.exchange_rank, self.trump)
        self.closed_by = -1
        self.lead = -1
        self.leader = nd
        self.lead_marriage = False
        self.pts = [0, 0]
        self.pending = [0, 0]
        self.tricks_won = [0, 0]
        self.won = [0, 0]
        self.tricks: list[tuple[int, int, int, int, bool]] = []
        self.marriages: list[tuple[int, int, int, int]] = []
        self.exchanged: tuple[int, int, int] | None = None
        self.revealed = [0, 0]
        self.trump_taker = -1
        self.last_bonus = -1
        self.stand_bonus = stand_bonus
        self.winner: int | None = None
        self.game_points = 0
        self.outcome = ""
        self.bonus_after = stand_bonus
        self._res: list[int] | None = None
        self._turn = nd

    # ---- state helpers

    @property
    def talon_size(self) -> int:
        return len(self.talon) - self.tpos

    @property
    def phase2(self) -> bool:
        return self.closed_by >= 0 or self.tpos >= len(self.talon)

    def _copy(self) -> SixtySixDeal:
        d = SixtySixDeal.__new__(SixtySixDeal)
        d.__dict__.update(self.__dict__)
        d.hands = self.hands[:]
        d.talon = self.talon[:]
        d.pts = self.pts[:]
        d.pending = self.pending[:]
        d.tricks_won = self.tricks_won[:]
        d.won = self.won[:]
        d.tricks = self.tricks[:]
        d.marriages = self.marriages[:]
        d.revealed = self.revealed[:]
        return d

    # ---- rules

    def _legal(self) -> list[int]:
        p = self._turn
        if p is None:
            return []
        h = self.hands[p]
        if self.lead < 0:
            g = self.game
            open_talon = self.closed_by < 0 and len(self.talon) - self.tpos >= 2
            exch = open_talon and h >> self.nine & 1 and (g.any_lead or self.tricks_won[p] > 0)
            # The cache is shared by every game: whatever changes the codes is in the key.
            key = h | self.trump << 52 | bool(exch) << 54 | \
                (open_talon and g.allow_close) << 55 | g.king_only << 56
            r = _LEADS.get(key)
            if r is None:
                r = _LEADS[key] = _lead_codes(h, self.trump, bool(exch),
                                              bool(open_talon and g.allow_close), g.king_only)
            return r  # type: ignore[return-value]
        if self.closed_by < 0 and self.tpos < len(self.talon):
            return _cards(h)  # type: ignore[return-value]
        lead = self.lead
        same = h & SUIT_MASKS[lead // 13]
        if same:
            if self.game.must_head:
                higher = same & _HIGHER52[lead]
                if higher:
                    return _cards(higher)  # type: ignore[return-value]
            return _cards(same)  # type: ignore[return-value]
        trumps = h & SUIT_MASKS[self.trump]
        return _cards(trumps if trumps else h)  # type: ignore[return-value]

    def _can_exchange(self, p: int) -> bool:
        if self.closed_by >= 0 or self.talon_size < 2:
            return False
        if not self.hands[p] >> self.nine & 1:
            return False
        return self.game.any_lead or self.tricks_won[p] > 0

    def _apply(self, code: int) -> None:
        p = self._turn
        assert p is not None
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
        if self.lead < 0:
            if code >= MARRIAGE_BASE:
                k = code - MARRIAGE_BASE
                suit, queen = k // 4, (k >> 1) & 1
                card = card_of(_QUEEN if queen else _KING, suit)
                partner = card_of(_KING if queen else _QUEEN, suit)
                value = 40 if suit == self.trump else 20
                self.marriages.append((p, suit, value, partner))
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
            if self.game.first66 and self.pts[p] >= 66:
                self._decide_at_66(p)
                return
            self._turn = 1 - p
            return
        self._follow(p, code)

    def _follow(self, p: int, card: int) -> None:
        lead, leader = self.lead, self.leader
        self.hands[p] &= ~(1 << card)
        self.revealed[p] &= ~(1 << card)
        if card // 13 == lead // 13:
            winner = p if _STRENGTH52[card] > _STRENGTH52[lead] else leader
        elif card // 13 == self.trump:
            winner = p
        else:
            winner = leader
        phase2 = self.phase2
        self.tricks.append((leader, lead, card, winner, phase2))
        self.pts[winner] += _POINTS52[lead] + _POINTS52[card]
        self.won[winner] |= (1 << lead) | (1 << card)
        self.tricks_won[winner] += 1
        if self.pending[winner]:
            self.pts[winner] += self.pending[winner]
            self.pending[winner] = 0
        self.lead = -1
        self.lead_marriage = False
        loser = 1 - winner
        if self.closed_by < 0 and self.tpos < len(self.talon):
            t = self.talon
            self.hands[winner] |= 1 << t[self.tpos]
            self.hands[loser] |= 1 << t[self.tpos + 1]
            self.tpos += 2
            if self.tpos >= len(t):
                self.trump_taker = loser
                self.revealed[loser] |= 1 << t[-1]
        empty = not self.hands[0] and not self.hands[1]
        if empty and self.closed_by < 0 and not self.game.schnapsen:
            self.pts[winner] += 10
            self.last_bonus = winner
        if self.game.first66 and self.pts[winner] >= 66:
            self._decide_at_66(winner)
        elif empty:
            self._decide_at_end(winner)
        else:
            self._turn = winner

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
        return cards_of_mask(self.hands[seat])

    def _known_to(self, seat: int) -> set[int]:
        return set(cards_of_mask(self.revealed[1 - seat]))

    def _public(self, seat: int) -> dict[str, Any]:
        fc = format_card
        face_up = self.talon[-1] if self.tpos < len(self.talon) else None
        trick = []
        if self.lead >= 0:
            trick.append({"seat": self.leader, "card": fc(self.lead),
                          "marriage": self.lead_marriage})
        pub: dict[str, Any] = {
            "trump_suit": SUIT_CHARS[self.trump],
            "turned_trump": fc(self.turned),
            "trump_card": fc(face_up) if face_up is not None else None,
            "trump_card_taker": self.trump_taker if self.trump_taker >= 0 else None,
            "talon": self.talon_size,
            "closed_by": self.closed_by if self.closed_by >= 0 else None,
            "phase": 2 if self.phase2 else 1,
            "leader": self.leader,
            "trick": trick,
            "tricks": [{"leader": ld, "cards": [fc(a), fc(b)], "winner": w, "phase2": p2}
                       for ld, a, b, w, p2 in self.tricks],
            "tricks_won": list(self.tricks_won),
            "pending": list(self.pending),
            "marriages": [{"seat": s, "suit": SUIT_CHARS[su], "points": v, "shown": fc(c)}
                          for s, su, v, c in self.marriages],
            "exchange": ({"seat": self.exchanged[0], "took": fc(self.exchanged[1]),
                          "gave": fc(self.exchanged[2])} if self.exchanged else None),
            "hand_sizes": [self.hands[0].bit_count(), self.hands[1].bit_count()],
            "known_cards": [[fc(c) for c in cards_of_mask(self.revealed[s])] for s in (0, 1)],
            "last_trick_bonus": self.last_bonus if self.last_bonus >= 0 else None,
            "stand_bonus": self.stand_bonus,
        }
        if self._turn is None:
            pub["outcome"] = {"winner": self.winner, "game_points": self.game_points,
                              "reason": self.outcome, "stand_bonus_next": self.bonus_after}
        return pub


SixtySix.DealClass = SixtySixDeal


# ------------------------------------------------------------------------------------------------
# Determinization


_PREPARED: LastPrepared[_Prepared] = LastPrepared()


def _sample(game: SixtySix, view: View, rng: random.Random) -> SixtySixDeal:
    """Rebuild a deck order consistent with the view, uniformly among all that are, and replay
    the public history on it.

    Each seat's cards fill its deck slots (the dealt cards, then one draw after each trick with
    drawing). A card must arrive before the first move that needs it (played, shown as a marriage
    partner, exchanged); nothing else limits when, since nobody owes a follow while a card can
    still be drawn. Cards are placed by rising deadline, each in a slot drawn uniformly among the
    free ones early enough: that choice has the same number of options whatever came before, so
    every valid placement is equally likely. The opponent's unknown cards are equally constrained
    (needed only at the end), so his hand is uniform among the unseen cards his phase-2 follows
    allow, and the undrawn talon is shuffled. What depends only on the view is computed once per
    view and reused, since a search samples many worlds from one view.
    """
    prep = _PREPARED.get(game, view)
    if prep is None:
        prep = _prepare(game, view)
        _PREPARED.put(game, view, prep)
    # One sample() call for the opponent's hand: the solver's _GivenHand answers it.
    opp_cards = rng.sample(prep.allowed, prep.opp_unknown)
    taken = set(opp_cards)
    rest = [c for c in prep.pool if c not in taken]
    rng.shuffle(rest)
    order = list(prep.order_head)
    randrange = rng.randrange
    for s in (0, 1):
        positions = prep.positions[s]
        free: list[int] = []
        opened = 0
        for reach, card in prep.timed[s]:
            free += positions[opened:reach]
            opened = reach
            i = randrange(len(free))
            order[free[i]] = card
            free[i] = free[-1]
            free.pop()
        free += positions[opened:]
        late = prep.untimed[s] + opp_cards if s == prep.opp else list(prep.untimed[s])
        if len(late) != len(free):
            raise ValueError("sixty-six: the view is inconsistent (card counts do not match)")
        rng.shuffle(late)
        for pos, card in zip(free, late, strict=True):
            order[pos] = card
    order[prep.rest_start:prep.rest_start + len(rest)] = rest
    template = prep.template
    if template is None:
        deal = game._deal_from_order(order, prep.dealer, 0, True, dict(prep.context))
        assert isinstance(deal, SixtySixDeal)
        for code in prep.codes:
            deal.apply_code(code)
        first = deal.copy()
        assert isinstance(first, SixtySixDeal)
        prep.template = first
        return deal
    # Replaying the history is most of a sample's cost, and every world of one view differs
    # from the first only where the view is blind: the opponent's hand and the talon's order
    # (and the deck order of the record). Everything else the history made is public.
    deal = template.copy()
    assert isinstance(deal, SixtySixDeal)
    deal._order = tuple(order)
    hand = prep.opp_known
    for c in opp_cards:
        hand |= 1 << c
    deal.hands[prep.opp] = hand
    talon = order[prep.talon_start:]
    # the bottom card: the turned trump, or the nine that was exchanged for it (public)
    talon.append(template.talon[-1])
    deal.talon = talon
    return deal


class _Prepared:
    """What sampling needs from one view, computed once."""

    __slots__ = ("allowed", "codes", "context", "dealer", "opp", "opp_known", "opp_unknown",
                 "order_head", "pool", "positions", "rest_start", "talon_start", "template",
                 "timed", "untimed")

    allowed: list[int]
    codes: list[int]
    context: dict[str, Any]
    dealer: int
    opp: int
    opp_unknown: int
    order_head: list[int]
    pool: list[int]
    # per seat: the deck positions of its slots, dealt ones first, then its draws in order
    positions: list[list[int]]
    rest_start: int  # deck position of the first card still in the talon
    # per seat: (how many of its first slots come early enough, card) by rising deadline
    timed: list[list[tuple[int, int]]]
    untimed: list[list[int]]  # per seat: known cards needed only now (still in hand)
    opp_known: int  # the opponent's cards in hand that the view shows (a bitmask)
    talon_start: int  # deck position of the talon's top card when the deal began
    # the first world sampled, replayed; later worlds of the same view are copies of it with
    # the hidden parts replaced (see _sample)
    template: SixtySixDeal | None


def _prepare(game: SixtySix, view: View) -> _Prepared:
    me = view.seat
    opp = 1 - me
    pub = view.public
    n = game.hand_size
    dealer = view.dealer
    turned = parse_card(pub["turned_trump"])
    trump = turned // 13
    codes = [game.code_of(t) for _, t in view.history]

    # Walk the public history: who needs which card by when, draws and the phase-2 follows.
    need: list[dict[int, int]] = [{}, {}]      # card -> earliest move index it is needed
    # per seat, each draw: (move index after which it happens, deck position of the card)
    draw_slots: list[list[tuple[int, int]]] = [[], []]
    forbidden_opp = 0
    exchange_by = -1
    exchange_nine = -1
    tpos, closed = 0, False
    talon_len = len(game.cards) - 2 * n
    lead, leader = -1, -1
    bottom_taker = -1
    for i, ((seat, _), code) in enumerate(zip(view.history, codes, strict=True)):
        if code == EXCHANGE:
            exchange_by = seat
            exchange_nine = card_of(game.exchange_rank, trump)
            need[seat].setdefault(exchange_nine, i)
            continue
        if code == CLOSE:
            closed = True
            continue
        if code >= MARRIAGE_BASE:
            k = code - MARRIAGE_BASE
            queen = (k >> 1) & 1
            card = card_of(_QUEEN if queen else _KING, k // 4)
            partner = card_of(_KING if queen else _QUEEN, k // 4)
            need[seat].setdefault(partner, i)
        else:
            card = code
        need[seat][card] = min(need[seat].get(card, i), i)
        if lead < 0:
            lead, leader = card, seat
            continue
        # A follow: what it shows of the follower in phase 2, then the trick and the draws.
        if (closed or tpos >= talon_len) and seat == opp:
            ls = lead // 13
            if card // 13 != ls:
                forbidden_opp |= SUIT_MASKS[ls]
                if card // 13 != trump:
                    forbidden_opp |= SUIT_MASKS[trump]
            elif game.options.must_head and _STRENGTH52[card] < _STRENGTH52[lead]:
                forbidden_opp |= _HIGHER52[lead]
        if card // 13 == lead // 13:
            winner = seat if _STRENGTH52[card] > _STRENGTH52[lead] else leader
        elif card // 13 == trump:
            winner = seat
        else:
            winner = leader
        if not closed and tpos < talon_len:
            # winner first, then loser; the loser of the last draw takes the bottom card
            pos = 2 * n + 1 + tpos
            draw_slots[winner].append((i, pos))
            if tpos + 2 < talon_len:
                draw_slots[1 - winner].append((i, pos + 1))
            else:
                bottom_taker = 1 - winner
            tpos += 2
        lead = -1

    # The bottom card (the turned trump, or the exchanged nine) reaches its taker by the last
    # draw, and the exchanger got the turned trump by the exchange: neither needs a deck slot.
    bottom_card = exchange_nine if exchange_by >= 0 else turned
    my_hand = {int(c) for c in view.hand}
    known_opp = {parse_card(c) for c in pub["known_cards"][opp]}
    seen: set[int] = my_hand | known_opp | {turned}
    if exchange_by >= 0:
        seen.add(exchange_nine)
    for s in (0, 1):
        seen |= set(need[s])
    pool = [c for c in game.cards if c not in seen]
    end = len(codes) + 1
    hands = {me: my_hand, opp: known_opp}
    prep = _Prepared()
    prep.opp_unknown = pub["hand_sizes"][opp] - len(known_opp)
    prep.allowed = [c for c in pool if not forbidden_opp >> c & 1]
    if prep.opp_unknown > len(prep.allowed) or prep.opp_unknown < 0:
        raise ValueError("sixty-six: the view is inconsistent (no world fits it)")
    prep.positions = [[], []]
    prep.timed = [[], []]
    prep.untimed = [[], []]
    for s in (0, 1):
        items = dict(need[s])
        for c in hands[s]:
            items.setdefault(c, end)
        if s == exchange_by:
            items.pop(turned, None)
        if s == bottom_taker and s != exchange_by:
            items.pop(bottom_card, None)
        first = 0 if s == 1 - dealer else 1
        times = [-1] * n + [t for t, _ in draw_slots[s]]
        prep.positions[s] = [first + 2 * k for k in range(n)] + [p for _, p in draw_slots[s]]
        timed = sorted((when, c) for c, when in items.items() if when < end)
        for k, (when, c) in enumerate(timed):
            reach = sum(1 for t in times if t < when)
            if reach <= k:
                raise ValueError("sixty-six: the view is inconsistent (a card came too late)")
            prep.timed[s].append((reach, c))
        prep.untimed[s] = sorted(c for c, when in items.items() if when >= end)
        unknown = prep.opp_unknown if s == opp else 0
        if len(items) + unknown != len(times):
            raise ValueError("sixty-six: the view is inconsistent (card counts do not match)")
    prep.opp = opp
    prep.opp_known = sum(1 << c for c in known_opp)
    prep.talon_start = 2 * n + 1
    prep.template = None
    prep.pool = pool
    prep.codes = codes
    prep.dealer = dealer
    prep.rest_start = 2 * n + 1 + tpos
    head = [0] * len(game.cards)
    head[2 * n] = turned
    prep.order_head = head
    prep.context = {"stand_bonus": pub["stand_bonus"]} if pub["stand_bonus"] else {}
    return prep

