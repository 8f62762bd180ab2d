"""A Sixty-Six expert candidate: ISMCTS whose playouts are played by imperfect-information players.

Wisser's Doktor Schnaps (IJCAI 2015) corrects PIMC's assumption that every player sees every
card: a world's value is not its perfect-information solution but what players who see only their
own hands would make of it (his Imperfect Information Monte Carlo). The ``strong`` level's ISMCTS
already keeps its own moves to its information set; what it finishes each iteration with is a
random playout, the weakest player there is. Here the playout after the tree is played by
:func:`playout_move`, a rule-of-thumb player that reads only the mover's own hand, the card led
and the score (never the opponent's hand or the talon of the sampled world), with a little
randomness so the playouts of one world differ. That is Wisser's correction at the price of a
random playout, so the iteration budget stays; the worlds are drawn with inference from the
opponent's recorded moves (:mod:`cardplay.bots.inference`), and once the talon is closed or
exhausted the exact solver plays as in ``strong``.

It measured no stronger than ``strong`` (docs/bots.md, issue 33), so no game declares it as its
``expert`` level; it stays as a searcher to build on (``build(Searcher("factory", settings,
factory="cardplay.bots.sixty_six_expert:expert_bot"), game, seed)``).
"""

from __future__ import annotations

import random
from typing import Any

from ..builtin.sixty_six import CLOSE, EXCHANGE, SixtySixDeal
from ..builtin.sixty_six.rules import MARRIAGE_BASE, POINTS52, STRENGTH52
from ..engine import Deal, Game
from .sixty_six_solver import PIMCBot

__all__ = ["PLAYOUT_NOISE", "expert_bot", "playout_move"]

# How often a playout move is uniformly random instead of the rule of thumb's (so that playouts
# explore, and a world is not judged by one line of play).
PLAYOUT_NOISE = 0.1


def _cost(card: int, hand: int, trump: int) -> int:
    """What throwing ``card`` gives up: its points, more for trumps and a marriage's half."""
    cost = POINTS52[card] * 2
    suit = card // 13
    if suit == trump:
        cost += 16 + STRENGTH52[card]
    rank = card % 13
    if rank in (10, 11) and hand >> (suit * 13 + (21 - rank)) & 1:  # queen 10 <-> king 11
        cost += 30
    return cost


def playout_move(deal: Deal, rng: random.Random) -> int:
    """A move for the seat to move that uses only what that seat sees (its hand, the lead,
    the scores): exchange and marriages when they come, win a trick worth taking with the
    cheapest card that does, else throw the cheapest card; never close."""
    assert isinstance(deal, SixtySixDeal)
    codes = deal.legal_codes()
    if len(codes) == 1:
        return codes[0]
    if rng.random() < PLAYOUT_NOISE:
        cards = [c for c in codes if c != CLOSE]
        return cards[int(rng.random() * len(cards))]
    seat = deal.to_move
    assert seat is not None
    hand = deal.hands[seat]
    trump = deal.trump
    lead = deal.lead
    if lead < 0:
        if EXCHANGE in codes:
            return EXCHANGE
        marriages = [c for c in codes if MARRIAGE_BASE <= c < EXCHANGE]
        if marriages:
            return max(marriages, key=lambda c: (c & 1, c))  # forty first
        cards = [c for c in codes if c < MARRIAGE_BASE]
        return min(cards, key=lambda c: (_cost(c, hand, trump) + (12 if c % 13 == 8 else 0), c))
    lead_suit = lead // 13
    cards = [c for c in codes if c < MARRIAGE_BASE]
    winners = [c for c in cards
               if (c // 13 == lead_suit and STRENGTH52[c] > STRENGTH52[lead])
               or (c // 13 == trump and lead_suit != trump)]
    if winners:
        best = min(winners, key=lambda c: (_cost(c, hand, trump), c))
        at_stake = POINTS52[lead] + POINTS52[best]
        mine = deal.pts[seat] + deal.pending[seat]
        if at_stake >= 10 or mine + at_stake >= 66 or deal.phase2 or best // 13 != trump:
            return best
    return min(cards, key=lambda c: (_cost(c, hand, trump), c))


def expert_bot(game: Game, seed: int | None = None, **settings: Any) -> PIMCBot:
    """The candidate: :class:`~cardplay.bots.sixty_six_solver.PIMCBot` with ISMCTS in phase
    1 playing out with :func:`playout_move` (``settings`` as PIMCBot's)."""
    bot = PIMCBot(game, seed=seed, **settings)
    if bot.phase1 is not None:
        bot.phase1.rollout = playout_move
    return bot
