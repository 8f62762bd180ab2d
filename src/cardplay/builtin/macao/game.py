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

import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine import (
    Deal,
    Game,
    InvalidMoveError,
    Match,
    OptionError,
    View,
    option,
    register,
)
from .actions import MacaoActions
from .deal import BUY, DECK, STAKE_BASE, STAND, MacaoDeal
from .declaration import DECLARATION
from .sampling import sample

if TYPE_CHECKING:
    from ...observation import Blocks, Layout

__all__ = ["RULES_RU", "Macao", "MacaoOptions"]

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

_STAKE_RE = re.compile(r"stake[ \t]+([1-9][0-9]*)")


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
    title = DECLARATION.title.to_dict()
    declaration = DECLARATION
    Options = MacaoOptions
    deck_size = 104
    min_players = 2
    max_players = 8
    options: MacaoOptions

    def observation_blocks(self, layout: Layout) -> Blocks:
        """The game's observation blocks (:mod:`.observation`; imported when first asked for,
        so that loading the game does not build the fast path's tables)."""
        from .observation import observation_blocks

        return observation_blocks(self, layout)

    def action_space(self) -> MacaoActions:
        """The game's fixed action space (:mod:`.actions`)."""
        return MacaoActions(self, self.facts.action_space)

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
        and leaves every world equally likely (see :func:`.sampling.sample`). What a view costs to
        prepare is kept for the next call with the same view."""
        return sample(self, view, rng)



Macao.DealClass = MacaoDeal
