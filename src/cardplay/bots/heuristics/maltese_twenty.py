"""HeuristicBot for Maltese Twenty: card counting plus a short look-ahead over sampled hands.

Suits play no part in this game, so the bot reasons about card values only. The cards it has not
seen are the 52 minus the two bonus cards, every played card (Tally and cleared) and its own hand;
the opponent's hand is a random handful of them. The bot draws a number of such hands (equal
hands are merged and weighted) and, in each, looks a few plays ahead with both hands open
(negamax on the score difference): its own card, the opponent's best reply, its own next card and
the opponent's answer. So it takes an exact 20 or a long Tally when that pays, does not leave a
Tally that the likely opponent hands can bring to exactly 20 or extend, keeps the low cards that
extend long Tallies safely, and avoids going over unless every card does.

Once the stock is empty the unseen cards are exactly the opponent's hand, so the rest of the round
is a game of perfect information: the bot then searches it to the end, with the End-of-Round
Bonus going to the last positive scorer.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from ...builtin.maltese_twenty import VALUES, MalteseTwentyDeal
from ...cards import cards_of_mask, parse_card
from ...engine import Deal, Game, Move, View

__all__ = ["HeuristicBot", "endgame", "exact_values", "value_classes"]

_SAMPLES = 16      # opponent hands drawn per decision (before merging equal ones)
_DEPTH = 4        # plies searched while the stock still has cards
_SWAP = (0, 2, 1)  # last positive scorer relative to the mover: 0 nobody, 1 mover, 2 the other
_INF = 1 << 30
_TABLE_LIMIT = 200_000  # endgame table entries kept between decisions


def _step(t: int, k: int, v: int) -> tuple[int, int, int, bool]:
    """Play a card of value ``v`` on a Tally of total ``t`` and ``k`` cards: (points, new total,
    new count, positive score?)."""
    t += v
    if t == 20:
        return 10, 0, 0, True
    if t > 20:
        return -20, 0, 0, False
    k += 1
    if k >= 5:
        return 15 << (k - 5), t, k, True
    return 0, t, k, False


_STEP = {(t, k, v): _step(t, k, v) for t in range(20) for k in range(12) for v in range(1, 11)}


def _best_now(t: int, k: int, me: tuple[int, ...]) -> int:
    """The best immediate gain of a hand (the last ply of a depth-limited search)."""
    step = _STEP
    best = -20
    for v in me:
        g = step[t, k, v][0]
        if g > best:
            best = g
    return best


def _lookahead(depth: int) -> Callable[[int, int, tuple[int, ...], tuple[int, ...], int], int]:
    """Depth-limited negamax over value hands (sorted tuples) with both hands open, memoised
    per decision, for positions where the stock still has cards (the round does not end inside
    the search; a player whose hand runs out would draw unknown cards, so the search stops).

    The returned ``play(t, k, me, them, i)`` is the best score difference (mover minus other)
    after the mover plays ``me[i]`` on a Tally of total ``t`` and ``k`` cards.
    """
    memo: dict[tuple[int, int, tuple[int, ...], tuple[int, ...], int], int] = {}
    step = _STEP

    def value(t: int, k: int, me: tuple[int, ...], them: tuple[int, ...], d: int) -> int:
        if not me:
            return 0
        if d == 1:
            return _best_now(t, k, me)
        key = (t, k, me, them, d)
        hit = memo.get(key)
        if hit is not None:
            return hit
        best = -1 << 30
        prev = 0
        for i, v in enumerate(me):
            if v != prev:
                prev = v
                val = play(t, k, me, them, i, d)
                if val > best:
                    best = val
        memo[key] = best
        return best

    def play(t: int, k: int, me: tuple[int, ...], them: tuple[int, ...], i: int,
             d: int = depth) -> int:
        gain, t1, k1, _ = step[t, k, me[i]]
        if d == 1 or not them:
            return gain
        if d == 2:
            return gain - _best_now(t1, k1, them)
        return gain - value(t1, k1, them, me[:i] + me[i + 1:], d - 1)

    return play


class _Endgame:
    """Exact search of the rest of a round once the stock is empty (both hands are then known):
    alpha-beta negamax on the score difference, the bonus going to the last positive scorer at
    the end. Its table holds bounds on exact values, so it is kept from one decision to the next
    (the values depend only on the position, the bonus and the ``round_end`` rule)."""

    __slots__ = ("bonus", "both_empty", "table")

    def __init__(self, both_empty: bool, bonus: int) -> None:
        self.both_empty = both_empty
        self.bonus = bonus
        self.table: dict[tuple[int, int, tuple[int, ...], tuple[int, ...], int],
                         tuple[int, int]] = {}

    def play(self, t: int, k: int, me: tuple[int, ...], them: tuple[int, ...], lps: int, i: int,
             alpha: int, beta: int) -> int:
        """The value for the mover of playing ``me[i]`` (``lps``: 0 nobody, 1 the mover, 2 the
        other has scored positively last), exact when it lies inside (alpha, beta)."""
        gain, t1, k1, positive = _STEP[t, k, me[i]]
        if positive:
            lps = 1
        if len(me) == 1 and (not self.both_empty or not them):
            # the round ends now: the bonus goes to the last positive scorer
            return gain + (self.bonus if lps == 1 else -self.bonus if lps == 2 else 0)
        return gain - self.value(t1, k1, them, me[:i] + me[i + 1:], _SWAP[lps],
                                 gain - beta, gain - alpha)

    def value(self, t: int, k: int, me: tuple[int, ...], them: tuple[int, ...], lps: int,
              alpha: int, beta: int) -> int:
        """The mover's value (exact inside (alpha, beta), a bound outside it); :meth:`play`
        inlined, as this is where a review's Maltese Twenty rollouts spend most of their time."""
        key = (t, k, me, them, lps)
        table = self.table
        hit = table.get(key)
        a0, b0 = alpha, beta
        if hit is None:
            lo, hi = -_INF, _INF
        else:
            lo, hi = hit
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        best = -_INF
        prev = 0
        # the mover's last card ends the round (both hands' last card with ``both_empty``)
        last = len(me) == 1 and (not self.both_empty or not them)
        bonus = self.bonus
        step = _STEP
        value = self.value
        for i, v in enumerate(me):
            if v == prev:
                continue
            prev = v
            gain, t1, k1, positive = step[t, k, v]
            scorer = 1 if positive else lps
            if last:
                val = gain + (bonus if scorer == 1 else -bonus if scorer == 2 else 0)
            else:
                val = gain - value(t1, k1, them, me[:i] + me[i + 1:], _SWAP[scorer],
                                   gain - beta, gain - alpha)
            if val > best:
                best = val
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        if best <= a0:
            table[key] = (lo, min(hi, best))
        elif best >= b0:
            table[key] = (max(lo, best), hi)
        else:
            table[key] = (best, best)
        return best


class HeuristicBot:
    """Counts the unseen cards and looks ahead over sampled opponent hands (see the module)."""

    def __init__(self, game: Game, seed: int | None = None, samples: int = _SAMPLES,
                 depth: int = _DEPTH) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.samples = samples
        self.depth = depth
        self.both_empty = getattr(game.options, "round_end", "first_empty") == "both_empty"

    def choose(self, view: View) -> Move:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        pub = view.public
        seat = view.seat
        codes = [parse_card(m.text) for m in legal]
        seen = [0] * 52
        for group in (pub["bonus_cards"], pub["tally"], pub["cleared"]):
            for text in group:
                seen[parse_card(text)] = 1
        for c in view.hand:
            seen[c] = 1
        unseen = [VALUES[c] for c in range(52) if not seen[c]]
        lps = pub["last_positive_scorer"]
        pick = self._pick(codes, [VALUES[c] for c in view.hand], lambda: unseen,
                          pub["hand_sizes"][1 - seat], pub["tally_total"], len(pub["tally"]),
                          pub["stock"], pub["bonus"], 0 if lps is None else
                          (1 if lps == seat else 2))
        return legal[codes.index(pick)]

    def choose_code(self, deal: Deal, codes: Sequence[int]) -> int:
        """The code :meth:`choose` gives on the view of the seat to move, read from the deal
        without building the view (rollouts ask at every move; ``deal.seen`` holds only what
        that view shows). ``codes``: the deal's legal codes, in their order."""
        assert isinstance(deal, MalteseTwentyDeal) and deal.to_move is not None
        seat = deal.to_move
        if len(codes) == 1:
            return codes[0]
        opp_size, t, k, stock, lps = deal.seen(seat)
        return self._pick(codes, [VALUES[c] for c in deal.hand_codes(seat)],
                          lambda: [VALUES[c] for c in cards_of_mask(deal.unseen(seat))],
                          opp_size, t, k, stock, deal.bonus,
                          0 if lps is None else (1 if lps == seat else 2))

    def finish(self, deal: Deal) -> list[int] | None:
        """For rollouts where every seat plays this heuristic: once the stock is empty they play
        the rest exactly (see :meth:`_pick`), so the deal ends at the endgame's exact value; a
        result with the margin that play reaches (the mover's score plus that value, the other
        seat's score), found by one search instead of a search at every move. None while the
        stock lasts."""
        assert isinstance(deal, MalteseTwentyDeal) and deal.to_move is not None
        seat = deal.to_move
        _, t, k, stock, lps = deal.seen(seat)
        if stock:
            return None
        mine = tuple(sorted([VALUES[c] for c in deal.hand_codes(seat)]))
        them = tuple(sorted([VALUES[c] for c in deal.hand_codes(1 - seat)]))
        value = self._endgame(deal.bonus).value(
            t, k, mine, them, 0 if lps is None else (1 if lps == seat else 2), -_INF, _INF)
        points = deal.points
        points[seat] += value
        return points

    def _pick(self, codes: Sequence[int], hand: list[int], unseen_of: Callable[[], list[int]],
              h: int, t: int, k: int, stock: int, bonus: int, rel: int) -> int:
        """The code to play: ``hand`` and ``unseen_of()`` are card values (the unseen ones in
        card order, only worked out where the search needs them), ``h`` the opponent's hand
        size, ``t`` and ``k`` the Tally's total and cards, ``rel`` the last positive scorer
        relative to the mover (0 nobody, 1 the mover, 2 the other)."""
        # the first card of each value among the legal moves (suits do not matter)
        by_value: dict[int, int] = {}
        for c in codes:
            by_value.setdefault(VALUES[c], c)
        if len(by_value) == 1:
            return codes[0]
        mine = tuple(sorted(hand))
        order = sorted(by_value, reverse=True)  # higher values first: ties keep the low cards
        best_move = by_value[order[0]]
        if stock == 0:
            # the unseen cards are the opponent's hand: solve the rest of the round exactly
            end = self._endgame(bonus)
            them = tuple(sorted(unseen_of()))
            best = -_INF
            for v in order:
                val = end.play(t, k, mine, them, rel, mine.index(v), best, _INF)
                if val > best:
                    best, best_move = val, by_value[v]
            return best_move
        if self.depth == 1:
            # A one-ply look-ahead scores a card by its own gain in every sampled hand alike, so
            # the hands cannot change the choice (the rollouts' setting): none are drawn.
            best_gain = -_INF
            for v in order:
                gain = _STEP[t, k, v][0]
                if gain > best_gain:
                    best_gain, best_move = gain, by_value[v]
            return best_move
        sample = self.rng.sample
        unseen = unseen_of()
        worlds = Counter(tuple(sorted(sample(unseen, h))) for _ in range(self.samples))
        play = _lookahead(self.depth)
        best_score = -_INF
        for v in order:
            i = mine.index(v)
            score = 0
            for them, weight in worlds.items():
                score += weight * play(t, k, mine, them, i)
            if score > best_score:
                best_score, best_move = score, by_value[v]
        return best_move

    def _endgame(self, bonus: int) -> _Endgame:
        return endgame(self.both_empty, bonus)


# The endgame table every bot of the process shares: its entries are bounds on exact values, so
# whoever filled them, every search gives the same answers (a root move is chosen when its value
# beats the best so far, which the bounds decide exactly). Both seats' rollouts of an evaluation
# and the decisions of a review meet the same endings; a table per bot solved each many times.
_SHARED: list[_Endgame] = []


def endgame(both_empty: bool, bonus: int) -> _Endgame:
    """The shared exact endgame search for a round with this ``round_end`` rule and bonus."""
    if _SHARED:
        end = _SHARED[0]
        if end.both_empty == both_empty and end.bonus == bonus and \
                len(end.table) <= _TABLE_LIMIT:
            return end
    end = _Endgame(both_empty, bonus)
    _SHARED[:] = [end]
    return end


def exact_values(game: Game, view: View,
                 rng: random.Random) -> tuple[dict[int, float], int] | None:
    """The game's exact evaluator (``cardplay.bots.evaluate``): once the stock is empty the cards
    the seat has not seen are the opponent's hand, so each move's value is the seat's final
    score minus the opponent's, bonus included, with perfect play by both (the search the
    heuristic itself plays these positions with); None while the stock lasts."""
    pub = view.public
    if pub["stock"] or view.to_move != view.seat:
        return None
    seat = view.seat
    seen = [0] * 52
    for group in (pub["bonus_cards"], pub["tally"], pub["cleared"]):
        for text in group:
            seen[parse_card(text)] = 1
    for c in view.hand:
        seen[c] = 1
    them = tuple(sorted(VALUES[c] for c in range(52) if not seen[c]))
    mine = tuple(sorted(VALUES[c] for c in view.hand))
    lps = pub["last_positive_scorer"]
    rel = 0 if lps is None else (1 if lps == seat else 2)
    end = endgame(getattr(game.options, "round_end", "first_empty") == "both_empty",
                  pub["bonus"])
    scores = pub["scores"]
    now = scores[seat] - scores[1 - seat]
    values: dict[int, float] = {}
    for m in view.legal_moves:
        code = game.code_of(m)
        values[code] = float(now + end.play(pub["tally_total"], len(pub["tally"]), mine, them,
                                            rel, mine.index(VALUES[code]), -_INF, _INF))
    return values, 1


def value_classes(game: Game, view: View) -> dict[int, int]:
    """Cards of one value are interchangeable (suits play no part in the game): an evaluation
    values one card of each value (``Bots.move_classes``)."""
    return {c: VALUES[c] for c in map(game.code_of, view.legal_moves)}
