"""A heuristic Chukhny bot: it chooses the card that starts a new run.

Almost every Chukhny move is forced (the required card must be played, otherwise one draws or
takes); the real decision is the card that starts a new run. Using only its view, the bot:

* under ``after_ace="clear"`` leads its **lowest** card and keeps its Aces. Runs climb towards
  the Ace, so high cards answer a need far more often than low ones (a 2 never does), and an Ace
  played on a King clears the pile and gives its player another lead;
* under ``"wrap"`` every rank is needed alike, so it leads a rank it holds several of (only one
  of them can answer a need at a time);
* weighs in the chance that the next active player can continue the run. That chance comes from
  the view: the cards he took from the pile (public), the needs he has shown he cannot meet
  since his last private draw (a draw or a take proves he held no fitting card), and a
  hypergeometric count of the unseen fitting cards. Measured against random play, runs the next
  player can continue do better than runs that stop him, so such leads are preferred.

When several cards answer the need (they differ only by suit), it plays one the others already
know it holds (a card it took), keeping its hidden cards hidden.

Measured with ``cardplay.arena.compare(game, "heuristic", "random", deals=2000, seed=1)``.
"""

from __future__ import annotations

import random
from math import comb

from ...builtin.chukhny import DRAW, TAKE, Chukhny, public_timeline
from ...cards import cards_of_mask, mask_of, parse_card
from ...engine import Game, Move, View

__all__ = ["HeuristicBot"]

FOLLOW_WEIGHT = 3.0


class HeuristicBot:
    """Chukhny heuristics over the view only (no search)."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        if not isinstance(game, Chukhny):
            raise ValueError(f"the Chukhny heuristic bot cannot play {game.name}")
        self.game: Chukhny = game
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        moves = view.legal_moves
        if not moves:
            raise ValueError("HeuristicBot was asked to move when its seat has no legal move")
        if len(moves) == 1:
            return moves[0]
        g = self.game
        codes = [g.code_of(m) for m in moves]
        if DRAW in codes or TAKE in codes:  # pragma: no cover - never with other moves
            return moves[0]
        pub = view.public
        seat = view.seat
        known_mine = mask_of(parse_card(c) for c in pub["known"][seat])
        if not pub["leading"]:
            # the cards differ only by suit: show a card the others already know about
            for c in codes:
                if known_mine >> c & 1:
                    return g.move(c)
            return g.move(codes[0])
        return g.move(self._lead(view, codes))

    def _lead(self, view: View, codes: list[int]) -> int:
        g = self.game
        pub = view.public
        n = view.players
        seat = view.seat
        sizes = pub["hand_sizes"]
        hand = mask_of(int(c) for c in view.hand)
        rank_count = [0] * 13
        for c in cards_of_mask(hand):
            rank_count[c % 13] += 1
        # the next active player after this seat (RULES 7.4)
        q = (seat + 1) % n
        if pub["stock"] == 0:
            while not sizes[q] and q != seat:
                q = (q + 1) % n
        follow = self._follow_chances(view, q, hand, codes) if q != seat else [0.0] * len(codes)
        best = codes[0]
        best_key: tuple[float, int, int] | None = None
        for c, p in zip(codes, follow):
            r = c % 13
            # Under "clear" runs climb towards the Ace, so high cards answer needs more often
            # than low ones (a 2 never does): lead low, keep Aces. Under "wrap" every rank is
            # needed alike: lead a rank held twice. Measured against random play, leads the
            # next player can continue do better than leads that stop him.
            base = r if g.clear else -rank_count[r]
            key = (base - FOLLOW_WEIGHT * p, -rank_count[r], r)
            if best_key is None or key < best_key:
                best_key, best = key, c
        return best

    def _follow_chances(self, view: View, q: int, hand: int, codes: list[int]) -> list[float]:
        """For each lead, the chance that seat ``q`` holds a card that continues it."""
        g = self.game
        pub = view.public
        tl = public_timeline(g, view)
        known_q = tl.known[q]
        seen = hand | mask_of(parse_card(c) for c in pub["pile"]) | \
            mask_of(parse_card(c) for c in pub["out"])
        for k in tl.known:
            seen |= k
        unseen = g.deck_mask & ~seen
        u_q = pub["hand_sizes"][q] - known_q.bit_count()
        # the needs q has shown he cannot meet since his last private draw
        lacks = 0
        last_fail = tl.failed[q][-1] if tl.failed[q] else -1
        for h, m in tl.events[q]:
            if h >= last_fail:
                lacks |= m
        pool = unseen & ~lacks     # the cards q's unknown cards can be
        n_pool = pool.bit_count()
        out = []
        for c in codes:
            m = g.match_mask[g.need_of[c]]
            if known_q & m:
                p = 1.0
            else:
                k = (pool & m).bit_count()
                if u_q <= 0 or k == 0:
                    p = 0.0
                elif n_pool - k < u_q:
                    p = 1.0
                else:
                    p = 1.0 - comb(n_pool - k, u_q) / comb(n_pool, u_q)
            out.append(p)
        return out
