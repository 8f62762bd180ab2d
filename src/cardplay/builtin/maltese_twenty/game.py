"""Maltese Twenty (A. Farrugia, 1997): two players, two rounds, one shared running total.

Players A (seat 0) and B (seat 1) lay one card at a time on a shared pile, the Tally. Card values:
ace 1, two to nine their pips, ten, jack, queen and king 10; suits play no part.

Round set-up (each of the two rounds): the top two cards of the shuffled deck are turned up and set
aside; the round's Bonus is the difference of their values, or 10 when they are equal. Each player
gets 5 cards; the other 40 form the stock. The round's starter leads: A in round 1, B in round 2.

A turn: play any card from your hand onto the Tally; T is the Tally's total and n its card count.
* T = 20 ("exact twenty"): +10, and the Tally is cleared.
* T > 20 ("over twenty"): -20, and the Tally is cleared.
* otherwise, with n >= 5: +15 for the 5th card, +30 for the 6th, +60 for the 7th ... (15 * 2^(n-5));
  the Tally stays.
Exact and over twenty take precedence over the n >= 5 scores. A player who has played his last card
draws 5 new cards from the stock at once; when the stock is empty instead, the round ends
(option ``round_end``). Refills never clear the Tally. At the end of the round the last player who
scored positively (+10 or a Tally score; -20 does not count) adds the Bonus; if nobody did, nobody
gets it. Cards left in hands or on the Tally score nothing. Scores carry over to round 2; after
round 2 the higher total wins (option ``winner_rule``).

Options:
* ``round_end``: ``first_empty`` (default; the round ends as soon as a player has played his last
  card with the stock empty, i.e. right after the starter's 25th card) or ``both_empty`` (the other
  player still plays his last card).
* ``winner_rule``: ``higher_total`` (default; equal totals are a draw, both seats listed as winners)
  or ``over_20_and_higher`` (the higher total wins only when it is above 20; otherwise nobody wins).

Here one deal is one round. A match is exactly two rounds; the first dealer is B (seat 1), so A
starts round 1, and the deal passes, so B starts round 2. A single deal with dealer d is started by
seat (d + 1) % 2; the deal's context ``round`` (1 or 2) only names the round.

Deal from a fixed order (top card first): cards 1-2 are the bonus cards; cards 3-12 are dealt one
at a time, the starter first (he gets cards 3, 5, 7, 9, 11); the remaining 40 are the stock, drawn
from the top.

Move notation: the card played, e.g. ``QH``, ``TH`` (also ``10H``, ``10♥``, ``♥10``, ``Д♥``).
Move codes (action space): the card id 0..51 (suit * 13 + rank; suits S H D C, ranks 2..A); there
are no other actions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...cards import CardParseError, format_card, parse_card
from ...engine import Deal, Game, InvalidMoveError, Match, View, option, register
from ..counting import shuffle_fast
from .declaration import DECLARATION
from .rules import REFILL, MalteseTwentyDeal

if TYPE_CHECKING:
    from ...observation import Blocks, Layout

__all__ = ["RULES_RU", "MalteseTwentyGame", "MalteseTwentyOptions"]

RULES_RU = """\
Двадцать (Мальтийская), А. Фарруджа, 1997: два игрока (А и Б), два раунда.

Значения карт: туз 1, от двойки до девятки по номиналу, десятка, валет, дама и король 10; масти
не важны. В начале каждого раунда две верхние карты открываются и откладываются: Бонус раунда —
разница их значений (при равенстве 10). Каждому сдаётся по 5 карт, остальные 40 — резерв.
Первый раунд начинает А, второй — Б.

Ход: положить любую карту на общий счёт (Tally). Ровно 20 — +10 («точная двадцатка»), больше
20 — −20; в обоих случаях карты Tally убираются. Иначе пятая карта Tally приносит +15, шестая +30,
седьмая +60 и т. д. (15·2^(n−5)); Tally остаётся. Сыгравший последнюю карту сразу добирает 5 из
резерва; если резерв пуст, раунд кончается (опция round_end: first_empty — сразу, both_empty —
когда оба сыграют все карты). Бонус получает последний набравший положительные очки; если таких
нет, бонус не получает никто. Очки переносятся во второй раунд; побеждает больший итог, равный
итог — ничья (опция winner_rule: over_20_and_higher — победитель должен иметь больше 20).

Ход записывается картой: QH, TH (или 10H, 10♥, Д♥). Коды ходов: номер карты 0..51.
"""


@dataclass(frozen=True)
class MalteseTwentyOptions:
    """Options of Maltese Twenty (RULES.md 1.6)."""

    round_end: str = option("first_empty", choices=("first_empty", "both_empty"),
                            doc="the round ends when a player runs out of cards with the stock "
                                "empty, or only when both hands are empty")
    winner_rule: str = option("higher_total", choices=("higher_total", "over_20_and_higher"),
                              doc="the higher total wins, or it must also be above 20")


@register
class MalteseTwentyGame(Game):
    """Maltese Twenty: RULES.md section 1."""

    name = "maltese-twenty"
    declaration = DECLARATION
    title = DECLARATION.title.to_dict()
    Options = MalteseTwentyOptions
    DealClass = MalteseTwentyDeal
    min_players = 2
    max_players = 2

    def observation_blocks(self, layout: Layout) -> Blocks:
        """The game's observation blocks (:mod:`.observation`; imported when first asked for,
        so that loading the game does not build the fast path's tables)."""
        from .observation import observation_blocks

        return observation_blocks(self, layout)

    # ---- notation

    def _parse(self, text: str) -> int:
        try:
            return parse_card(text)
        except CardParseError:
            raise InvalidMoveError(
                f"{self.name}: {text!r} is not a move; a move is the card to play, such as "
                f"'QH', 'TH', '10♥' or 'Д♥'") from None

    def _format(self, code: int) -> str:
        return format_card(code)

    # ---- sampling

    def sample_deal(self, view: View, rng: random.Random) -> Deal:
        """A round consistent with ``view``, drawn uniformly among the deck orders that are: the
        opponent's hand and the stock are redealt from the unseen cards, uniformly at random, and
        the public moves are replayed.

        Nothing public limits where an unseen card is (any card may be played at any time), and
        the five cards of a deal or refill arrive together, so their order within the deck is
        never seen: it is shuffled too, so that every consistent deck order is equally likely."""
        pub = view.public
        seat = view.seat
        starter = (view.dealer + 1) % 2
        b1, b2 = (parse_card(c) for c in pub["bonus_cards"])
        codes = [self.code_of(text) for _, text in view.history]
        plays: list[list[int]] = [[], []]
        for (s, _), code in zip(view.history, codes):
            plays[s].append(code)
        own = [int(c) for c in view.hand]
        known = (1 << b1) | (1 << b2)
        for c in (*plays[0], *plays[1], *own):
            known |= 1 << c
        unseen = [c for c in range(52) if not known >> c & 1]
        shuffle_fast(unseen, rng.random)
        # each seat's cards in the order they were dealt to it: what it played, then its hand;
        # the opponent's hand and all undrawn chunks are filled from the unseen cards
        seq: list[list[int]] = [[], []]
        seq[seat] = plays[seat] + own
        opp = 1 - seat
        seq[opp] = plays[opp] + unseen[:pub["hand_sizes"][opp]]
        rest = unseen[pub["hand_sizes"][opp]:]
        order = [b1, b2]
        responder = 1 - starter
        first = [seq[starter][:REFILL], seq[responder][:REFILL]]
        for hand in first:
            shuffle_fast(hand, rng.random)
        for i in range(REFILL):
            order.append(first[0][i])
            order.append(first[1][i])
        for k in range(1, 5):  # the stock: chunks alternate starter, responder
            for s in (starter, responder):
                chunk = seq[s][REFILL * k:REFILL * (k + 1)]
                need = REFILL - len(chunk)
                if need:
                    chunk = chunk + rest[:need]
                    rest = rest[need:]
                else:  # a drawn refill, listed in the order its cards were played
                    shuffle_fast(chunk, rng.random)
                order.extend(chunk)
        d = self._deal_from_order(order, view.dealer, 0, True, {"round": pub["round"]})
        for code in codes:
            d.apply_code(code)
        return d

    # ---- match rules

    def _first_dealer(self, rng: random.Random) -> int:
        """B (seat 1) is the first dealer, so that A (seat 0) starts round 1."""
        return 1

    def _next_dealer(self, match: Match, finished: Deal) -> int:
        """The deal passes, so the other player starts round 2."""
        return 1 - finished.dealer

    def _deal_context(self, match: Match) -> dict[str, Any]:
        return {"round": len(match.deals) + 1}

    def _match_over(self, match: Match) -> bool:
        return len(match.deals) >= 2

    def _match_winners(self, match: Match) -> list[int]:
        scores = match.scores
        best = max(scores)
        # over_20_and_higher: the best total must exceed 20; a tie above 20 stays a draw
        # (both listed), the seed's tie clause applying as under higher_total (RULES.md MT-1).
        if self.options.winner_rule == "over_20_and_higher" and best <= 20:
            return []
        return [i for i, s in enumerate(scores) if s == best]
