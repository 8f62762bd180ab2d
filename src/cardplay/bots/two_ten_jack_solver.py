"""Two-Ten-Jack search: alpha-beta with a transposition table, and a PIMC bot built on it.

The arena scores a Two-Ten-Jack deal by its result, each seat's card points; a seat wins the deal
when it has more. Every hand distributes +5, so the margin is odd and a deal is never drawn. The
exact value of a finished hand is therefore "win first, then margin": ``margin + WIN`` when the
margin is positive, ``margin - WIN`` otherwise, seen from the searching seat.

:func:`solve` searches positions with every card known (a sampled world knows the stock order
too). Once the stock is empty that is the real position, and the search is exact. While the stock
lasts the search stops after ``depth`` tricks and scores the leaf with :class:`Evaluation`: the
margin so far plus what the cards in hand are worth to their holders (the A♠ and high hearts take
the point cards, the -5 clubs are liabilities) and a bonus for holding the lead.

The search runs on bitmasks (two hands, a stock position, the leader and the margin), not on deal
copies, because it visits many thousands of nodes per move; :func:`minimax` is the plain
reference over the engine's own deals that the tests hold it to.

:class:`PIMCBot` samples worlds consistent with its view: one once the stock is empty (the
opponent's hand is then the unseen cards), several before, each solved to the same depth; it plays
the move with the best total. Before the stock runs out it searches without drawing when
``draws`` is false: a sampled world's stock order is a guess, and a search that sees its next
cards plans on draws nobody can foresee (measured against the heuristic bot, searching with the
world's draws got weaker the deeper it looked).

:func:`heuristic_rollout` is the heuristic bot's rule as a rollout policy for ISMCTS.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..cards import cards_of_mask
from ..engine import Deal, Game, Move, View
from ..games.two_ten_jack import (
    AS,
    AS_SPADES,
    AS_TRUMPS,
    CARD_POINTS,
    FOLLOWER_WINS,
    KIND_MASKS,
    TRUMPS,
    TwoTenJackDeal,
)
from .heuristics.two_ten_jack import KEEP, heuristic_reply

__all__ = ["WIN", "Evaluation", "PIMCBot", "final_value", "heuristic_rollout", "minimax", "solve"]

WIN = 1000  # a won deal outweighs any margin (the margin of a hand is at most 35 in size)
_INF = float(10**9)
_STOCK_SIZE = 40


def final_value(margin: int) -> int:
    """The value of a finished hand to a seat whose points exceed the other's by ``margin``."""
    return margin + WIN if margin > 0 else margin - WIN


def _suit_tables(values: tuple[float, ...]) -> tuple[tuple[float, ...], ...]:
    """Sum of ``values`` over the cards of a 13-bit suit mask, per suit (a hand's sum is then four
    lookups instead of a loop over its cards)."""
    tables = []
    for suit in range(4):
        table = [0.0] * 8192
        for mask in range(1, 8192):
            low = mask & -mask
            table[mask] = table[mask ^ low] + values[suit * 13 + low.bit_length() - 1]
        tables.append(tuple(table))
    return tuple(tables)


@dataclass(frozen=True)
class Evaluation:
    """The leaf score of a depth-limited search while the stock lasts, in margin points.

    ``keep`` is what holding each card is worth (by default the heuristic bot's table), scaled by
    ``keep_scale``; ``lead`` is the worth of leading the next trick.
    """

    keep: tuple[float, ...] = KEEP
    keep_scale: float = 1.0
    lead: float = 0.0

    def tables(self) -> tuple[tuple[float, ...], ...]:
        return _suit_tables(tuple(self.keep_scale * k for k in self.keep))


_TABLE_CACHE: dict[Evaluation, tuple[tuple[float, ...], ...]] = {}


def _tables_of(evaluation: Evaluation) -> tuple[tuple[float, ...], ...]:
    tables = _TABLE_CACHE.get(evaluation)
    if tables is None:
        if len(_TABLE_CACHE) > 64:
            _TABLE_CACHE.clear()
        tables = _TABLE_CACHE[evaluation] = evaluation.tables()
    return tables


def evaluate(evaluation: Evaluation, mine: int, theirs: int, my_lead: bool, margin: int) -> float:
    """The leaf value of a position between tricks (see :class:`Evaluation`)."""
    t0, t1, t2, t3 = _tables_of(evaluation)
    held = (t0[mine & 0x1FFF] + t1[mine >> 13 & 0x1FFF] + t2[mine >> 26 & 0x1FFF]
            + t3[mine >> 39 & 0x1FFF])
    held -= (t0[theirs & 0x1FFF] + t1[theirs >> 13 & 0x1FFF] + t2[theirs >> 26 & 0x1FFF]
             + t3[theirs >> 39 & 0x1FFF])
    return margin + held + (evaluation.lead if my_lead else -evaluation.lead)


# Lead order for alpha-beta: the cards most likely to decide a trick first (the A♠, high hearts,
# then by rank), which makes the first line searched a strong one.
_LEAD_RANK: tuple[int, ...] = tuple(
    100 if c == AS else (50 + c % 13 if c // 13 == 1 else c % 13) for c in range(52))


class _Search:
    """Alpha-beta over tricks from one seat's point of view ("me")."""

    def __init__(self, stock: tuple[int, ...], evaluation: Evaluation, max_nodes: int,
                 draws: bool, pos: int) -> None:
        self.stock = stock
        self.draws = draws
        # Without draws the hands run out before the hand does: that is a leaf, not the end.
        self.real_end = draws or pos >= _STOCK_SIZE
        self.evaluation = evaluation
        self.tables = _tables_of(evaluation)
        self.max_nodes = max_nodes
        self.nodes = 0
        self.exact = True
        # key -> (lower bound, upper bound, best lead code)
        self.table: dict[tuple[int, int, int, int, int, int], tuple[float, float, int]] = {}

    def leaf(self, mine: int, theirs: int, my_lead: bool, margin: int) -> float:
        t0, t1, t2, t3 = self.tables
        held = (t0[mine & 0x1FFF] + t1[mine >> 13 & 0x1FFF] + t2[mine >> 26 & 0x1FFF]
                + t3[mine >> 39 & 0x1FFF])
        held -= (t0[theirs & 0x1FFF] + t1[theirs >> 13 & 0x1FFF] + t2[theirs >> 26 & 0x1FFF]
                 + t3[theirs >> 39 & 0x1FFF])
        lead = self.evaluation.lead
        return margin + held + (lead if my_lead else -lead)

    def after_trick(self, mine: int, theirs: int, i_won: bool, pos: int, margin: int,
                    depth: int, alpha: float, beta: float) -> float:
        """Draw (winner first) and search on from the next trick."""
        if pos < _STOCK_SIZE and self.draws:
            stock = self.stock
            if i_won:
                mine |= 1 << stock[pos]
                theirs |= 1 << stock[pos + 1]
            else:
                theirs |= 1 << stock[pos]
                mine |= 1 << stock[pos + 1]
            pos += 2
        return self.trick(mine, theirs, i_won, pos, margin, depth - 1, alpha, beta)

    def trick(self, mine: int, theirs: int, my_lead: bool, pos: int, margin: int, depth: int,
              alpha: float, beta: float) -> float:
        """The value, to me, of the position before a lead (``depth`` tricks still to search)."""
        if not mine:
            if self.real_end:
                return final_value(margin)
            return self.leaf(mine, theirs, my_lead, margin)
        if depth <= 0:
            return self.leaf(mine, theirs, my_lead, margin)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self.exact = False
            return self.leaf(mine, theirs, my_lead, margin)
        key = (mine, theirs, my_lead, pos, margin, depth)
        hit = self.table.get(key)
        first = -1
        if hit is not None:
            lo, hi, first = hit
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        leads = _lead_codes(mine if my_lead else theirs)
        if first >= 0:
            leads.remove(first)
            leads.insert(0, first)
        best_code = leads[0]
        if my_lead:
            best = -_INF
            for code in leads:
                v = self.lead_value(mine, theirs, True, code, pos, margin, depth, alpha, beta)
                if v > best:
                    best, best_code = v, code
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = _INF
            for code in leads:
                v = self.lead_value(mine, theirs, False, code, pos, margin, depth, alpha, beta)
                if v < best:
                    best, best_code = v, code
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        lo, hi = (hit[0], hit[1]) if hit is not None else (-_INF, _INF)
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[key] = (lo, hi, best_code)
        return best

    def lead_value(self, mine: int, theirs: int, my_lead: bool, code: int, pos: int, margin: int,
                   depth: int, alpha: float, beta: float) -> float:
        """The value of the trick after the lead ``code``, over every reply."""
        card, kind = (AS, code - AS_SPADES) if code >= AS_SPADES else (code, code // 13)
        bit = 1 << card
        if my_lead:
            mine ^= bit
            follower = theirs
        else:
            theirs ^= bit
            follower = mine
        return self.replies(mine, theirs, my_lead, card, _follow_set(follower, kind), pos,
                            margin, depth, alpha, beta)

    def replies(self, mine: int, theirs: int, my_lead: bool, lead: int, options: int, pos: int,
                margin: int, depth: int, alpha: float, beta: float) -> float:
        """The follower's best reply among ``options`` (he minimises when I led)."""
        base = CARD_POINTS[lead]
        row = lead * 52
        # Replies that win the trick first, then the rest: a good reply early prunes the others.
        cards = sorted(cards_of_mask(options), key=lambda r: -FOLLOWER_WINS[row + r])
        if my_lead:
            best = _INF
            for r in cards:
                pts = base + CARD_POINTS[r]
                if FOLLOWER_WINS[row + r]:
                    v = self.after_trick(mine, theirs ^ (1 << r), False, pos, margin - pts,
                                         depth, alpha, beta)
                else:
                    v = self.after_trick(mine, theirs ^ (1 << r), True, pos, margin + pts,
                                         depth, alpha, beta)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
            return best
        best = -_INF
        for r in cards:
            pts = base + CARD_POINTS[r]
            if FOLLOWER_WINS[row + r]:
                v = self.after_trick(mine ^ (1 << r), theirs, True, pos, margin + pts, depth,
                                     alpha, beta)
            else:
                v = self.after_trick(mine ^ (1 << r), theirs, False, pos, margin - pts, depth,
                                     alpha, beta)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best


def _follow_set(hand: int, kind: int) -> int:
    return hand & KIND_MASKS[kind] or hand & TRUMPS or hand


def _lead_codes(hand: int) -> list[int]:
    cards = sorted(cards_of_mask(hand), key=lambda c: -_LEAD_RANK[c])
    if cards and cards[0] == AS:
        return [AS_TRUMPS, AS_SPADES, *cards[1:]]
    return cards


def solve(deal: TwoTenJackDeal, seat: int, depth: int | None = None, max_nodes: int = 1_000_000,
          evaluation: Evaluation | None = None,
          draws: bool = True) -> tuple[float, int | None, dict[int, float]]:
    """The value of every legal move of ``seat`` (which must be to move) with every card known.

    ``depth`` counts the tricks searched, the current one included (None: to the end of the
    hand). With ``draws`` false the stock is left alone: the players go on with the cards they
    hold, and a leaf is reached when those run out (a sampled world's stock order is a guess, and
    a search that sees its next cards plans on draws no player can foresee).
    Returns ``(best value, best code, {code: value})``. Values are :func:`final_value`
    when the search reaches the end, else margins plus the evaluation at the leaves; once
    ``max_nodes`` is spent the rest is evaluated too.
    """
    if deal._turn is None:
        r = deal._pts
        return final_value(r[seat] - r[1 - seat]), None, {}
    if deal._turn != seat:
        raise ValueError(f"two-ten-jack solver: seat {seat} is not to move")
    search = _Search(deal._stock, evaluation or Evaluation(), max_nodes, draws, deal._pos)
    mine, theirs = deal._hands[seat], deal._hands[1 - seat]
    margin = deal._pts[seat] - deal._pts[1 - seat]
    pos = deal._pos
    tricks = 26 if depth is None else depth
    values: dict[int, float] = {}
    if deal._lead < 0:
        for code in _lead_codes(mine):
            values[code] = search.lead_value(mine, theirs, True, code, pos, margin, tricks,
                                             -_INF, _INF)
    else:
        lead = deal._lead
        for reply in deal.legal_codes():
            values[reply] = search.replies(mine, theirs, False, lead, 1 << reply, pos, margin,
                                           tricks, -_INF, _INF)
    best_code = max(values, key=lambda c: (values[c], -c))
    return values[best_code], best_code, values


def minimax(deal: TwoTenJackDeal, seat: int, depth: int | None = None,
            evaluation: Evaluation | None = None, draws: bool = True) -> float:
    """Plain minimax over the engine's deal copies, without pruning or tables: the reference
    :func:`solve` is tested against, with the same ``depth``, ``evaluation`` and ``draws``."""
    if not draws and deal._pos < _STOCK_SIZE:
        deal = deal.copy()  # type: ignore[assignment]
        deal._pos = _STOCK_SIZE  # the engine then draws nothing
        return _minimax(deal, seat, depth, evaluation or Evaluation())
    return _minimax(deal, seat, depth, evaluation or Evaluation())


def _minimax(deal: TwoTenJackDeal, seat: int, depth: int | None, evaluation: Evaluation) -> float:
    if deal._turn is None:
        return final_value(deal._pts[seat] - deal._pts[1 - seat])
    if (depth is not None and depth <= 0 and deal._lead < 0) or not deal._hands[deal._turn]:
        mine, theirs = deal._hands[seat], deal._hands[1 - seat]
        return evaluate(evaluation, mine, theirs, deal._turn == seat,
                        deal._pts[seat] - deal._pts[1 - seat])
    values = []
    for code in deal.legal_codes():
        child = deal.copy()
        assert isinstance(child, TwoTenJackDeal)
        child.apply_code(code)
        next_depth = depth
        if depth is not None and child._tricks > deal._tricks:
            next_depth = depth - 1
        values.append(_minimax(child, seat, next_depth, evaluation))
    return max(values) if deal._turn == seat else min(values)


class PIMCBot:
    """Perfect-information Monte Carlo over sampled worlds, each solved by :func:`solve`.

    Once the stock is empty one world is the real position and the search is exact (win first,
    then margin). Before, ``worlds`` worlds are searched ``depth`` tricks deep, without drawing
    unless ``draws``; from ``endgame`` cards left in the stock on, they are searched to the end of
    the hand, draws included. Budgets are counts (worlds, nodes), so a seed gives the same moves
    on any machine; ``max_nodes`` bounds each world's search (past it, leaves are evaluated).
    """

    def __init__(self, game: Game, seed: int | None = None, worlds: int = 8, depth: int = 2,
                 endgame: int = 0, max_nodes: int = 200_000,
                 evaluation: Evaluation | None = None, draws: bool = False) -> None:
        if worlds < 1 or depth < 1:
            raise ValueError("PIMCBot needs at least one world and one trick of depth")
        self.game = game
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.depth = depth
        self.endgame = endgame
        self.max_nodes = max_nodes
        self.evaluation = evaluation or Evaluation()
        self.draws = draws

    def choose(self, view: View) -> Move:
        legal = view.legal_moves
        if not legal:
            raise ValueError("PIMCBot was asked to move when its seat has no legal move")
        if len(legal) == 1:
            return legal[0]
        return self.game.move(self.best_code(view))

    def best_code(self, view: View) -> int:
        """The code with the best total value over the sampled worlds."""
        stock = view.public["stock"]
        n, depth = 1, None
        if stock > 0:
            n = self.worlds
            if stock > self.endgame:
                depth = self.depth
        evaluation = self.evaluation
        totals: dict[int, float] = {}
        for _ in range(n):
            world: Deal = self.game.sample_deal(view, self.rng)
            assert isinstance(world, TwoTenJackDeal)
            _, _, values = solve(world, view.seat, depth, self.max_nodes, evaluation,
                                 self.draws or depth is None)
            for code, v in values.items():
                totals[code] = totals.get(code, 0.0) + v
        return max(totals, key=lambda c: (totals[c], -c))


def heuristic_rollout(deal: Deal, rng: random.Random) -> int:
    """A rollout policy for :class:`~cardplay.bots.ismcts.ISMCTSBot` that plays like the heuristic
    bot: the follower by its holding-value rule, the leader by the lead that rule answers worst
    (in a rollout the world is known, so no sampling is needed). One move in ten is random, so
    rollouts from the same position differ."""
    assert isinstance(deal, TwoTenJackDeal)
    codes = deal.legal_codes()
    if len(codes) == 1:
        return codes[0]
    if rng.random() < 0.1:
        return codes[int(rng.random() * len(codes))]
    turn: int = deal._turn  # type: ignore[assignment]
    keep = KEEP
    if deal._lead >= 0:
        return heuristic_reply(deal._hands[turn], deal._lead, deal._kind, keep)
    opp = deal._hands[1 - turn]
    best, best_score = codes[0], -_INF
    for code in codes:
        card, kind = (AS, code - AS_SPADES) if code >= AS_SPADES else (code, code // 13)
        r = heuristic_reply(opp, card, kind, keep)
        p = CARD_POINTS[card] + CARD_POINTS[r]
        score = (-p if FOLLOWER_WINS[card * 52 + r] else p) + keep[r] - keep[card]
        if score > best_score:
            best, best_score = code, score
    return best
