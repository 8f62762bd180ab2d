"""Macao («Макао»): a baccarat-like banking game, a banker and 1-7 punters, two 52-card decks.

Rules (RULES.md section 6). Card values: A = 1, 2-9 their pips, 10/J/Q/K = 0; a hand is worth
its total modulo 10 (9 is best; 3+7 = 0, "жир", is worst). One deal is one banking turn: the banker
puts ``bank_stake`` chips in the bank and deals rounds from a 104-card shoe that is never
reshuffled. In each round every punter in seat order from the banker's left names a stake, then
each staking punter gets one card face down and the banker one card that nobody, not even the
banker, may see. Each punter in turn may ``buy`` exactly one more card or ``stand``. At the
showdown the higher value wins the stake from the bank (or pays it into the bank); equal values
push. Stakes run from ``min_stake`` to ``max_stake``, capped by the punter's chips and by coverage:
stakes are accepted in seat order only while their total fits in the bank, and a punter facing less
than ``min_stake`` of coverage sits out the round. A round starts only while the shoe holds at
least 2P+1 cards (P = punters able to stake) and the bank covers ``min_stake``; then the banker
takes the bank back and the turn ends. ``points`` and ``result`` are each seat's net chip change
over the turn (the banker's counts the bank he took back, minus his stake). A match gives every
player one banking turn, from the lowest card drawn, passing left; a player with fewer chips than
``bank_stake`` (or with nobody able to punt against him) skips his turn. A punter with fewer chips
than ``min_stake`` (three times that with ``naturals``) sits out. The winners have the highest net
chip change.

Options: players (2-8, default 3), start_chips (1000), min_stake (5), max_stake (50),
bank_stake (200), stake_timing (before_deal, or after_first_card: each punter sees his first card,
then stakes). Off by default: banker_unlimited (the banker also covers stakes from his own chips),
forced_draw (buying on 0-6 and standing on 7-9 are compulsory), naturals (a first card of 9/8/7 is a
natural that stands and is paid 3/2/1 times the stake; the banker's natural collects the same way
from every punter without one; coverage counts every stake three times), multi_buy (buy any number
of cards; plain sums; a total over 9 busts and loses at once).

Deal from a fixed order: the 104-card shoe, top first; each round deals one card to each staking
punter clockwise from the banker's left (with ``after_first_card``: to each punter able to stake,
before the stakes), then one to the banker, then the bought cards from the top in punter order.

Hidden information: the banker's card is hidden from everybody until the showdown; a punter's
cards only from the others; stakes, buy/stand, the cards used in earlier rounds (all turned at
each showdown) and a bust are public.

Notation and move codes (the fixed action space; no move names a card):

* ``52`` ``buy``; ``53`` ``stand``;
* ``100 + N`` ``stake N`` (N a positive whole number written without sign or leading zeros,
  e.g. ``stake 25``).
"""

from __future__ import annotations

import itertools
import random
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from ..cards import format_card, parse_card
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
from ._sampling import (
    JointCounts,
    LastPrepared,
    TooMuch,
    draw_disjoint,
    falling,
    keep_and_apart,
    pop_random,
)

__all__ = [
    "BUY",
    "DECK",
    "RULES_RU",
    "STAKE_BASE",
    "STAND",
    "VALUE",
    "Macao",
    "MacaoDeal",
    "MacaoOptions",
    "hand_value",
]

RULES_RU = """«Макао»: банкомёт и 1–7 понтёров, две колоды по 52 карты (104), шуз не тасуется.
Очки: туз 1, 2–9 по номиналу, 10 и фигуры 0; значение руки — сумма по модулю 10 (9 лучше всего,
«жир» — 0). Одна сдача — один банк: банкомёт ставит в банк bank_stake (200) фишек. В каждом круге
понтёры по порядку слева от банкомёта делают ставки (от min_stake до max_stake, не больше своих
фишек и не больше непокрытого остатка банка; кому не хватает покрытия, пропускает круг), затем
каждый получает карту, банкомёт — одну карту, которую не видит никто, даже он сам. Каждый понтёр
может прикупить ровно одну карту (buy) или остаться (stand). Кто ближе к 9, тот выигрывает ставку;
при равенстве — ничья. Банк кончается, когда в шузе меньше 2P+1 карт или банк меньше минимальной
ставки. Матч: каждый игрок по разу держит банк (первый — вытянувший младшую карту, далее налево).
Опции: stake_timing, banker_unlimited, forced_draw, naturals (натуральные 9/8/7 платят 3/2/1),
multi_buy (прикуп нескольких карт, перебор больше 9). Ходы: stake N, buy, stand."""

BUY = 52
STAND = 53
STAKE_BASE = 100

#: Macao value of each card id: A = 1, 2-9 pips, 10 J Q K = 0.
VALUE: tuple[int, ...] = tuple((1 if r == 12 else (r + 2 if r <= 7 else 0))
                               for _ in range(4) for r in range(13))
#: The 104-card shoe in id order: every card twice.
DECK: tuple[int, ...] = tuple(c for c in range(52) for _ in range(2))

_STAKE_RE = re.compile(r"stake[ \t]+([1-9][0-9]*)")

# Phases of a banking turn.
_STAKE, _DECIDE, _OVER = 0, 1, 2
_PHASES = ("stake", "decide", "over")


def hand_value(cards: list[int], multi_buy: bool = False) -> int:
    """The Macao value of cards: the total modulo 10 (the plain total under ``multi_buy``)."""
    total = sum(VALUE[c] for c in cards)
    return total if multi_buy else total % 10


@dataclass(frozen=True)
class MacaoOptions:
    players: int = option(3, int_range=(2, 8), doc="the banker and 1-7 punters")
    start_chips: int = option(1000, int_range=(1, 100_000), doc="chips each player starts with")
    min_stake: int = option(5, int_range=(1, 1000), doc="the smallest stake")
    max_stake: int = option(50, int_range=(1, 1000), doc="the largest stake")
    bank_stake: int = option(200, int_range=(1, 100_000), doc="what the banker puts in the bank")
    stake_timing: str = option("before_deal", ("before_deal", "after_first_card"),
                               doc="stake before the cards, or after seeing the first card")
    banker_unlimited: bool = option(False, (False, True),
                                    doc="the banker also covers stakes from his own chips")
    forced_draw: bool = option(False, (False, True),
                               doc="buying on 0-6 and standing on 7-9 is compulsory")
    naturals: bool = option(False, (False, True), doc="first-card 9/8/7 pays 3/2/1")
    multi_buy: bool = option(False, (False, True), doc="buy several cards; over 9 busts")


@register
class Macao(Game):
    """Macao: one deal is one banking turn; chips carry over a match in the deal context."""

    name = "macao"
    title = {"en": "Macao", "ru": "Макао"}
    Options = MacaoOptions
    deck_size = 104
    min_players = 2
    max_players = 8
    options: MacaoOptions

    # ---- options

    def _setup(self) -> None:
        o = self.options
        object.__setattr__(self, "mult", 3 if o.naturals else 1)

    mult: int

    def _validate_options(self, opts: Any, given: Any) -> None:
        if opts.min_stake > opts.max_stake:
            raise OptionError(f"macao: min_stake={opts.min_stake} is above "
                              f"max_stake={opts.max_stake}; valid: min_stake <= max_stake")
        need = opts.min_stake * (3 if opts.naturals else 1)
        if opts.bank_stake < need:
            raise OptionError(f"macao: bank_stake={opts.bank_stake} could not cover a single "
                              f"minimum stake; valid: bank_stake >= {need}"
                              + (" (naturals count stakes three times)" if opts.naturals else ""))
        if opts.start_chips < opts.bank_stake:
            raise OptionError(f"macao: start_chips={opts.start_chips} is below "
                              f"bank_stake={opts.bank_stake}, so nobody could bank; valid: "
                              f"start_chips >= bank_stake")

    def _deck_cards(self) -> list[int]:
        return list(DECK)

    # ---- notation

    def _parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise InvalidMoveError(f"macao: a move is text, not {type(text).__name__}")
        t = text.strip().lower()
        if t == "buy":
            return BUY
        if t == "stand":
            return STAND
        m = _STAKE_RE.fullmatch(t)
        if m is not None:
            return STAKE_BASE + int(m.group(1))
        raise InvalidMoveError(
            f"macao: {text!r} is not a move: expected 'stake N' (N a positive whole number "
            f"without sign or leading zeros, such as 'stake 25'), 'buy' or 'stand'")

    def _format(self, code: int) -> str:
        if code == BUY:
            return "buy"
        if code == STAND:
            return "stand"
        if code > STAKE_BASE:
            return f"stake {code - STAKE_BASE}"
        raise InvalidMoveError(f"macao: {code} is not a move code")

    def _example_move(self) -> str:
        return "stake 25"

    # ---- money helpers shared by the deal and the match

    # RULES 6.3 caps a stake by the punter's chips. With ``naturals`` a loss can be three times
    # the stake, so (our reading, mirroring "coverage counts every stake three times") the cap is
    # a third of his chips: no player's chips ever go negative.

    def capacity(self, chips: int) -> int:
        """The largest stake a punter with ``chips`` may name (his chips cover any loss)."""
        return min(self.options.max_stake, chips // self.mult)

    def can_punt(self, chips: int) -> bool:
        return chips // self.mult >= self.options.min_stake

    def can_bank(self, seat: int, chips: list[int]) -> bool:
        """A player banks when he can pay ``bank_stake`` and somebody can punt against him.

        RULES 6.3 only skips a banker short of ``bank_stake``; a turn with no possible punter
        would be an empty deal, so it is skipped as well (a software choice)."""
        return chips[seat] >= self.options.bank_stake and \
            any(self.can_punt(c) for o, c in enumerate(chips) if o != seat)

    # ---- match rules

    def _first_dealer(self, rng: random.Random) -> int:
        # Everyone draws a card from the shuffled shoe; the lowest rank (2 low, ace high; suits
        # are not compared) banks first; a tie draws again among the tied (RULES 6.4, the seed:
        # "снявшему младшую карту").
        shoe = list(DECK)
        rng.shuffle(shoe)
        i = 0
        contenders = list(range(self.players))
        while True:
            if i + len(contenders) > len(shoe):
                rng.shuffle(shoe)
                i = 0
            draws = {s: shoe[i + k] % 13 for k, s in enumerate(contenders)}
            i += len(contenders)
            low = min(draws.values())
            contenders = [s for s in contenders if draws[s] == low]
            if len(contenders) == 1:
                return contenders[0]

    def _chips(self, match: Match) -> list[int]:
        return [self.options.start_chips + s for s in match.finished_scores]

    def _pending_bankers(self, match: Match) -> list[int]:
        """Players still to bank in the match's one rotation, in order, who are able to."""
        n = self.players
        first = match.first_dealer
        done = (match.deals[-1].dealer - first) % n if match.deals else -1
        chips = self._chips(match)
        seats = [(first + k) % n for k in range(done + 1, n)]
        return [s for s in seats if self.can_bank(s, chips)]

    def _next_dealer(self, match: Match, finished: Deal) -> int:
        pending = self._pending_bankers(match)
        return pending[0] if pending else (finished.dealer + 1) % self.players

    def _deal_context(self, match: Match) -> dict[str, Any]:
        return {"chips": self._chips(match)}

    def _match_over(self, match: Match) -> bool:
        return not self._pending_bankers(match)

    # ---- determinization

    def sample_deal(self, view: View, rng: random.Random) -> MacaoDeal:
        """A deal consistent with ``view``: earlier rounds' cards go back where they were dealt,
        the seat's own cards and any bust hand shown this round too; the banker's card, the other
        punters' hidden cards and the shoe are drawn from the unseen cards, every shoe order that
        replays the history to this very view equally likely. Under ``forced_draw``,
        ``naturals`` and ``multi_buy`` the other punters' buy/stand decisions constrain their
        cards: each such punter's values are drawn from the sequences that fit his decisions,
        and the draw is kept with a probability that makes the punters' hands share no card
        and leaves every world equally likely (see :func:`_sample`). What a view costs to
        prepare is kept for the next call with the same view."""
        return _sample(self, view, rng)


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
        self.punters = [(b + k) % n for k in range(1, n)]
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
        self.last: dict[str, Any] | None = None
        self._turn = None
        self._new_round()

    # ---- helpers

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
        self.last = {
            "round": self.round,
            "banker_card": format_card(self.bcard),
            "banker_value": vb,
            "hands": [[format_card(c) for c in cs] for cs in self.cards],
            "values": values,
            "stakes": [s or None for s in self.stakes],
            "won": won,
        }
        # Every card of the round is now face up and used; the round state is cleared.
        self.rstart = self.pos
        self.stakes = [0] * n
        self.cards = [[] for _ in range(n)]
        self.dealt = []
        self.bcard = -1
        self.bought = [0] * n
        self.busted = [False] * n
        self._new_round()

    # ---- hooks

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

    def _apply(self, code: int) -> None:
        p = self._turn
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
            "shoe": len(self._order) - self.pos,
            "used": [format_card(c) for c in self._order[:self.rstart]],
            "dealt_to": list(self.dealt),
            "stakes": [self.stakes[p] or None for p in range(n)],
            "status": list(self.status),
            "bought": list(self.bought),
            "shown": [[format_card(c) for c in self.cards[p]] if self.busted[p] else []
                      for p in range(n)],
            "last_round": self.last,
        }

    def _copy(self) -> MacaoDeal:
        d = MacaoDeal.__new__(MacaoDeal)
        d.__dict__.update(self.__dict__)
        d.start = self.start[:]
        d.chips = self.chips[:]
        d.queue = self.queue[:]
        d.stakes = self.stakes[:]
        d.status = self.status[:]
        d.cards = [cs[:] for cs in self.cards]
        d.dealt = self.dealt[:]
        d.bought = self.bought[:]
        d.busted = self.busted[:]
        return d


Macao.DealClass = MacaoDeal


# --------------------------------------------------------------------------------------------
# sample_deal


def _fits(game: Macao, values: tuple[int, ...], bought: int, stood: bool,
          shoe_at_stand: bool) -> bool:
    """Whether a punter's hidden cards, by value in the order dealt, fit his public buy/stand
    decisions this round (``shoe_at_stand``: the shoe still held a card when he stood)."""
    o = game.options
    if o.naturals and values[0] >= 7 and bought:
        return False
    if o.multi_buy:
        total = values[0]
        for v in values[1:]:
            if o.forced_draw and total > 6:
                return False
            total += v
            if total > 9:
                return False
        return not (o.forced_draw and stood and total <= 6 and shoe_at_stand)
    if o.forced_draw and (bought or stood):
        if bought and values[0] > 6:
            return False
        if stood and not bought and values[0] <= 6:
            return False
    return True


def _value_hands(game: Macao, size: int, bought: int, stood: bool,
                 shoe_at_stand: bool) -> list[tuple[int, ...]]:
    """Every sequence of ``size`` card values that fits the punter's decisions."""
    out: list[tuple[int, ...]] = []

    o = game.options

    def go(values: tuple[int, ...], total: int) -> None:
        if len(values) == size:
            if _fits(game, values, bought, stood, shoe_at_stand):
                out.append(values)
            return
        if o.multi_buy and o.forced_draw and values and total > 6:
            return  # he could not have bought another card
        for v in range(10):
            # under multi_buy a hidden hand never went over 9 (that busts, face up)
            if not o.multi_buy or total + v <= 9:
                go((*values, v), total + v)

    go((), 0)
    return out


@dataclass
class _World:
    """What every world of one view shares, prepared once per view."""

    order: list[int]                   # the used cards and the known cards, -1 elsewhere
    slots: list[list[int]]             # per constrained punter, his hidden positions in order
    free: list[int]                    # the other hidden positions: other cards, the shoe
    by_value: list[list[int]]          # the unseen cards (copies) of each value
    hands: list[list[tuple[int, ...]]]  # per constrained punter, the value sequences that fit
    upto: list[list[int]]              # their running weights (the cards they name)
    codes: list[int]
    # per constrained punter, his sequences by their counts of each value
    orders: list[dict[tuple[int, ...], list[tuple[int, ...]]]]
    joint: JointCounts | None          # exact counts over the punters, when they come cheap


_LAST: LastPrepared[_World] = LastPrepared()


def _keep_rate(hands: list[list[tuple[int, ...]]], upto: list[list[int]],
               sizes: list[int]) -> float:
    """About how often :func:`_sample` keeps a draw of the constrained punters' values (a
    fixed-seed estimate: it only chooses between two exact methods)."""
    rng = random.Random(0)
    kept = 0.0
    for _ in range(64):
        picks = [held[bisect_right(running, rng.randrange(running[-1]))]
                 for held, running in zip(hands, upto)]
        keep, apart = keep_and_apart(picks, sizes, _count_of_value)
        kept += keep / apart
    return kept / 64


def _count_of_value(values: tuple[int, ...], value: int) -> int:
    return values.count(value)


def _prepare(game: Macao, view: View) -> _World:
    cached = _LAST.get(game, view)
    if cached is not None:
        return cached
    if view.game != game.name or view.players != game.players:
        raise ValueError("macao: this view belongs to another game or table size")
    pub = view.public
    n = view.players
    banker = view.dealer
    me = view.seat
    used = [_card_id(t) for t in pub["used"]]
    dealt = list(pub["dealt_to"])
    own = [int(c) for c in view.hand]
    shown = [[_card_id(t) for t in pub["shown"][p]] for p in range(n)]
    unseen = [0] * 52
    for c in DECK:
        unseen[c] += 1
    for c in used:
        unseen[c] -= 1
    if not shown[me]:               # a bust hand of one's own is counted once, as shown
        for c in own:
            unseen[c] -= 1
    for cs in shown:
        for c in cs:
            unseen[c] -= 1
    # This round's shoe positions: known cards where they are, hidden ones per seat.
    rstart = len(used)
    order = used + [-1] * (len(DECK) - rstart)
    slots: dict[int, list[int]] = {}
    taken = [0] * n
    for i, s in enumerate(dealt):
        if s == me and s != banker:
            order[rstart + i] = own[taken[s]]
        elif shown[s]:
            order[rstart + i] = shown[s][taken[s]]
        else:
            slots.setdefault(s, []).append(rstart + i)
        taken[s] += 1
    # Other punters' decisions constrain their cards (only under forced_draw, naturals or
    # multi_buy): each such punter's hidden cards are one of the value sequences that fit.
    o = game.options
    status = pub["status"]
    first: dict[int, int] = {}  # each seat's first card this round, in dealing order
    for i, s in enumerate(dealt):
        first.setdefault(s, i)
    constrained: list[int] = []
    hands: list[list[tuple[int, ...]]] = []
    if o.forced_draw or o.naturals or o.multi_buy:
        for s in slots:
            bought = int(pub["bought"][s])
            stood = status[s] == "stood"
            if s == banker or not (bought or stood):
                continue
            # the shoe held a card when he stood if it holds one now, or if a punter deciding
            # after him bought one
            later = sum(int(pub["bought"][p]) for p in first if first[p] > first[s] and p != banker)
            held = _value_hands(game, len(slots[s]), bought, stood, pub["shoe"] + later > 0)
            if not held:
                raise ValueError("macao: the view is not consistent with any deal")
            constrained.append(s)
            hands.append(held)
    # the shortest lists first: exact counting then keeps fewer states
    ranked = sorted(range(len(hands)), key=lambda i: len(hands[i]))
    constrained = [constrained[i] for i in ranked]
    hands = [hands[i] for i in ranked]
    by_value: list[list[int]] = [[] for _ in range(10)]
    for c in range(52):
        by_value[VALUE[c]].extend([c] * unseen[c])
    sizes = [len(cs) for cs in by_value]
    upto = []
    for held in hands:
        weights = []
        for values in held:
            w = 1
            for v in range(10):
                w *= falling(sizes[v], values.count(v))
            weights.append(w)
        upto.append(list(itertools.accumulate(weights)))
        if not upto[-1][-1]:
            raise ValueError("macao: the view is not consistent with any deal")
    free = [p for s in slots if s not in constrained for p in slots[s]] + \
        list(range(rstart + len(dealt), len(DECK)))
    orders: list[dict[tuple[int, ...], list[tuple[int, ...]]]] = []
    for held in hands:
        by_counts: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for values in held:
            by_counts.setdefault(tuple(values.count(v) for v in range(10)), []).append(values)
        orders.append(by_counts)
    joint: JointCounts | None = None
    if len(hands) > 1 and _keep_rate(hands, upto, sizes) < 0.02:
        joint = JointCounts([[(c, len(vs)) for c, vs in by.items()] for by in orders], sizes,
                            ordered=True, budget=100_000)
        try:
            if not joint.ways():
                raise ValueError("macao: the view is not consistent with any deal")
            joint.budget = 1 << 62  # counted: drawing costs no more than that did
        except TooMuch:
            joint = None
    world = _World(order, [slots[s] for s in constrained], free, by_value, hands, upto,
                   [game.code_of(t) for _, t in view.history], orders, joint)
    _LAST.put(game, view, world)
    return world


def _sample(game: Macao, view: View, rng: random.Random) -> MacaoDeal:
    world = _prepare(game, view)
    order = list(world.order)
    left = [list(cs) for cs in world.by_value]
    if world.joint is not None:
        picks = [rng.choice(by[counts]) for by, counts in zip(world.orders, world.joint.draw(rng))]
    elif world.hands:
        # Each constrained punter's values drawn from the sequences that fit him, weighted by
        # the cards they name, as if the others' cards were still unseen; kept with probability
        # prod (a)_K / prod (a)_k over the values (a cards of the value, K taken in all, k by
        # one punter): the ratio of that law to the law of hands that share no card, so every
        # world is equally likely.
        drawn = draw_disjoint(world.hands, world.upto, [len(cs) for cs in left],
                              _count_of_value, rng)
        if drawn is None:
            raise ValueError("macao: the view is not consistent with any deal")
        picks = drawn
    if world.hands:
        for positions, values in zip(world.slots, picks):
            for p, v in zip(positions, values):
                order[p] = pop_random(left[v], rng)
    rest = [c for cs in left for c in cs]
    rng.shuffle(rest)
    for p, c in zip(world.free, rest):
        order[p] = c
    deal = MacaoDeal.__new__(MacaoDeal)
    deal._init_base(game, view.dealer, 0, order, True)
    deal._start(order, chips=list(view.public["chips_at_start"]))
    for code in world.codes:
        deal.apply_code(code)
    return deal


def _card_id(text: str) -> int:
    return parse_card(text)
