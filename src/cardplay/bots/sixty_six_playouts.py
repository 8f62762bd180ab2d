"""Sixty-Six's strong search: ISMCTS whose playouts are played by imperfect-information players
and end in an exact solve.

PIMC's fault is to value each sampled world by its perfect-information solution, as if both
players saw every card (strategy fusion). The ISMCTS of the ``fast`` level already keeps our own
moves to our information set, but it finishes each iteration with a uniformly random playout,
the weakest player there is, all the way to the end of the deal. Here a playout is two things:

* while the talon is open, :func:`playout_move` plays both sides: a rule-of-thumb player that
  reads only the mover's own hand, the card led and the score (never the opponent's hand or the
  talon of the sampled world), with a little randomness so the playouts of one world differ.
  This is Wisser's correction (Doktor Schnaps, IJCAI 2015) at the price of a random playout:
  the world is valued by what players who see only their own hands would make of it;
* once the world reaches phase 2 with at most ``LEAF_CARDS`` cards a hand, :func:`exact_leaf`
  stops the playout and asks a null-window alpha-beta search who wins with best play. Once the
  talon is exhausted every card is known to both players, so this value is exact, not a
  perfect-information guess: the random or rule-of-thumb play of the last five tricks was the
  noisiest part of every playout, and it is gone.

Once the real talon is closed or exhausted, the bot plays as :class:`PIMCBot` does (worlds
solved exactly). ``playout_searcher`` builds it; Sixty-Six's ``strong`` is declared with
``playouts`` and ``exact_leaves`` on (docs/bots.md, issue 33).
"""

from __future__ import annotations

import random
from typing import Any

from ..builtin.sixty_six import CLOSE, EXCHANGE, SixtySixDeal
from ..builtin.sixty_six.rules import MARRIAGE_BASE, POINTS52, STRENGTH52
from ..engine import Deal, Game
from .sixty_six_solver import _EXACT, PIMCBot, _Search

__all__ = ["LEAF_CARDS", "LEAF_NODES", "PLAYOUT_NOISE", "exact_leaf", "playout_move",
           "playout_searcher"]

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


# A phase-2 leaf's search is cut off past this many nodes (its value is then the evaluation's
# sign); a null-window search from the start of phase 2 takes a median 27 nodes in Schnapsen
# and 237 in Sixty-Six.
LEAF_NODES = 20_000
# Positions are valued once each hand is down to this many cards: Schnapsen's phase 2 starts
# there (a median 27 nodes), while Sixty-Six's six-card phase 2 costs ten times as many, so its
# playouts play one more trick first.
LEAF_CARDS = 5


def exact_leaf(deal: Deal) -> list[float] | None:
    """Both seats' rewards once a playout reaches phase 2 with at most ``LEAF_CARDS`` cards in
    the mover's hand: who wins with best play from there (1 to the winner, 0.5 each for a
    draw), by a null-window alpha-beta search of the world. Exact once the talon is exhausted,
    when every card is known to both players; after a close in the playout (Sixty-Six) it is
    the world's perfect-information value. None before that: the playout goes on."""
    assert isinstance(deal, SixtySixDeal)
    seat = deal.to_move
    if seat is None or not deal.phase2 or deal.hands[seat].bit_count() > LEAF_CARDS:
        return None
    v = _Search(0, LEAF_NODES).value(deal, -1, 1, _EXACT)
    return [1.0, 0.0] if v > 0 else [0.0, 1.0] if v < 0 else [0.5, 0.5]


def playout_searcher(game: Game, seed: int | None = None, playouts: int = 1,
                     exact_leaves: int = 0, schnapsen_iterations: int | None = None,
                     **settings: Any) -> PIMCBot:
    """:class:`~cardplay.bots.sixty_six_solver.PIMCBot` with ISMCTS in phase 1 (``settings`` as
    PIMCBot's, ``iterations`` among them); ``playouts``: its playouts played by
    :func:`playout_move` (else at random); ``exact_leaves``: each playout stopped at phase 2
    and valued by :func:`exact_leaf`; ``schnapsen_iterations``: phase 1's iterations in the
    20-card preset instead of ``iterations``."""
    # One level, two budgets: an iteration of the 20-card preset costs a fraction of a 24-card
    # one (five cards a hand, a phase 2 solved in a tenth of the nodes), so the same time per
    # move buys more iterations there.
    if schnapsen_iterations is not None and game.options.preset == "schnapsen":
        settings["iterations"] = schnapsen_iterations
    bot = PIMCBot(game, seed=seed, **settings)
    if bot.phase1 is not None:
        if playouts:
            bot.phase1.rollout = playout_move
        if exact_leaves:
            bot.phase1.leaf = exact_leaf
    return bot
