"""A heuristic bot for Two-Ten-Jack.

While the stock lasts it scores each move as "what this trick gives me" plus "what the cards
spent are worth": every card has a holding value (the A♠ and high hearts are worth keeping for
valuable tricks, the +5 hearts are worth banking, the -5 clubs are liabilities best dumped on the
opponent's tricks). As follower the trick's outcome is known; as leader it averages over opponent
hands drawn from the unseen cards, assuming the opponent answers by the same rule.

Once the stock is empty every card is known (unseen = 52 - played - own), so it plays the rest of
the hand perfectly with a memoised minimax over the two hands.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from ...builtin.two_ten_jack import (
    AS,
    AS_SPADES,
    CARD_POINTS,
    FOLLOWER_WINS,
    KIND_MASKS,
    KIND_NAMES,
    TRUMPS,
    TwoTenJackDeal,
)
from ...cards import cards_of_mask
from ...engine import Deal, Game, Move, View

__all__ = ["KEEP", "HeuristicBot", "exact_values", "heuristic_reply", "sample_mask",
           "touching_classes"]

FULL = (1 << 52) - 1


def _keep_value(card: int) -> float:
    """What holding ``card`` is worth to its holder while the stock lasts (a rough guess)."""
    suit, rank = divmod(card, 13)
    if card == AS:
        return 10.0
    if suit == 1:  # hearts: trumps
        return {0: 3.0, 8: 5.0, 9: 6.0, 10: 5.0, 11: 6.0, 12: 7.0}.get(rank, 2.0 + 0.2 * rank)
    if suit == 3:  # clubs: the -5s are liabilities, high clubs risk winning them
        return {0: -0.75, 8: -1.25, 9: -1.25, 10: -0.15, 11: -0.2, 12: -0.25}.get(rank, 0.1)
    if suit == 0:  # spades
        return {0: 0.3, 8: 0.6, 9: 0.7, 10: 0.3, 11: 0.4}.get(rank, 0.1)
    return {4: 0.5, 11: 0.2, 12: 0.3}.get(rank, 0.05)  # diamonds


KEEP: tuple[float, ...] = tuple(_keep_value(c) for c in range(52))
_KIND_OF = {name: i for i, name in enumerate(KIND_NAMES)}


def _position(game: Game, view: View) -> tuple[int, int, int, int]:
    """My hand, the cards I have not seen (bitmasks), and the card led and its kind (-1, -1
    when I lead)."""
    code_of = game.code_of
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    played = 0
    for _, text in view.history:
        code = code_of(text)
        played |= 1 << (AS if code >= AS_SPADES else code)
    pub = view.public
    trick = pub["trick"]
    lead = kind = -1
    if trick:
        lead = code_of(trick[0]["card"])
        kind = _KIND_OF[pub["led"]]
    return hand, FULL & ~played & ~hand, lead, kind


def exact_values(game: Game, view: View,
                 rng: random.Random) -> tuple[dict[int, float], int] | None:
    """The game's exact evaluator (``cardplay.bots.evaluate``): once the stock is empty every
    card is known (the opponent holds what I have not seen), and each move's value is my final
    card points minus the opponent's with perfect play; None while the stock lasts."""
    pub = view.public
    if pub["stock"] or view.to_move != view.seat:
        return None
    codes = [game.code_of(m) for m in view.legal_moves]
    hand, unseen, lead, kind = _position(game, view)
    points = pub["hand_points"]
    now = points[view.seat] - points[1 - view.seat]
    future = HeuristicBot(game).endgame_values(codes, hand, unseen, lead, kind)
    return {c: float(now + v) for c, v in future.items()}, 1


def touching_classes(game: Game, view: View) -> dict[int, int]:
    """Each legal move with the lowest card of its run (``Bots.move_classes``): cards of one
    suit in the mover's hand, of equal card points and holding value, with no card between them
    still in play (the card led to this trick counts as in play). Swapping two such cards
    changes no comparison with any card still in play, no score and no holding value, so the
    rules, this heuristic and the worlds a view samples treat the moves alike: the same rollout
    follows either, and their values are one. The A♠ (declared as a spade or a trump) and every
    other move stand alone."""
    hand, unseen, lead, _ = _position(game, view)
    live = hand | unseen | (1 << lead if lead >= 0 else 0)
    out: dict[int, int] = {}
    for code in map(game.code_of, view.legal_moves):
        rep = code
        if code < AS_SPADES and code != AS:
            low = code - code % 13
            d = code - 1
            while d >= low:
                if live >> d & 1:
                    if hand >> d & 1 and d != AS and CARD_POINTS[d] == CARD_POINTS[code] \
                            and KEEP[d] == KEEP[code]:
                        rep = d
                    else:
                        break
                d -= 1
        out[code] = rep
    return out


def _follow_set(hand: int, kind: int) -> int:
    return hand & KIND_MASKS[kind] or hand & TRUMPS or hand


def heuristic_reply(hand: int, lead: int, kind: int, keep: tuple[float, ...] = KEEP) -> int:
    """The follower's card by the holding-value rule (the bot's model of a sensible reply)."""
    best, best_score = -1, -1e9
    for c in cards_of_mask(_follow_set(hand, kind)):
        p = CARD_POINTS[lead] + CARD_POINTS[c]
        score = (p if FOLLOWER_WINS[lead * 52 + c] else -p) - keep[c]
        if score > best_score:
            best, best_score = c, score
    return best


# random.sample's choice of algorithm for k draws (a list below this many, else a set), and
# the bits a draw below n takes, for the small numbers a hand of cards needs
_SETSIZE = tuple(21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0) for k in range(64))
_BITS = tuple(n.bit_length() for n in range(64))


def sample_mask(getrandbits: Callable[[int], int], pool: list[int], k: int) -> int:
    """The cards ``random.Random.sample(pool, k)`` draws, as a bitmask, drawn with the same
    calls of the generator's ``getrandbits`` (CPython's algorithm, both of its paths, inlined:
    a rollout leads dozens of times and the library call was half of each lead's time; a test
    holds it to ``sample`` on the running Python)."""
    n = len(pool)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    mask = 0
    if n <= (_SETSIZE[k] if k < 64 else 21 + 4 ** math.ceil(math.log(k * 3, 4))):
        rest = list(pool)
        for i in range(k):
            size = n - i
            bits = _BITS[size] if size < 64 else size.bit_length()
            j = getrandbits(bits)
            while j >= size:
                j = getrandbits(bits)
            mask |= 1 << rest[j]
            rest[j] = rest[size - 1]
        return mask
    selected: set[int] = set()
    bits = n.bit_length()
    for _ in range(k):
        j = getrandbits(bits)
        while j >= n or j in selected:
            j = getrandbits(bits)
        selected.add(j)
        mask |= 1 << pool[j]
    return mask


class _Tables:
    """The stock phase's rules of thumb as lookup tables for one holding-value table ``keep``:
    ``reply_score[lead * 52 + c]`` is what the follower's ``c`` scores in :func:`heuristic_reply`,
    ``lead_gain[lead * 52 + r]`` what the leader counts for a reply ``r``, and ``memo`` keeps
    :meth:`gain_of` by (follow set << 8 | lead card * 4 + led kind)."""

    def __init__(self, keep: tuple[float, ...]) -> None:
        self.reply_score = tuple(
            (CARD_POINTS[a] + CARD_POINTS[c] if FOLLOWER_WINS[a * 52 + c]
             else -(CARD_POINTS[a] + CARD_POINTS[c])) - keep[c]
            for a in range(52) for c in range(52))
        self.lead_gain = tuple(
            (-(CARD_POINTS[a] + CARD_POINTS[r]) if FOLLOWER_WINS[a * 52 + r]
             else CARD_POINTS[a] + CARD_POINTS[r]) + keep[r]
            for a in range(52) for r in range(52))
        self.memo: dict[int, float] = {}

    def gain_of(self, follow: int, lead: int) -> float:
        """What the leader of ``lead`` counts when the follower's reply is chosen from the
        cards ``follow`` by :func:`heuristic_reply`."""
        score = self.reply_score
        base = lead * 52
        best, best_score = -1, -1e9
        for c in cards_of_mask(follow):
            if score[base + c] > best_score:
                best, best_score = c, score[base + c]
        return self.lead_gain[base + best]


# Entries of a lookup table's memo of lead gains before it is emptied (some 20 MB).
_MEMO_LIMIT = 200_000


@lru_cache(maxsize=4)
def _tables(keep: tuple[float, ...]) -> _Tables:
    return _Tables(keep)


class HeuristicBot:
    """Card-value heuristics during the stock phase, exact play once the stock is empty."""

    keep: tuple[float, ...] = KEEP

    def __init__(self, game: Game, seed: int | None = None, samples: int = 24,
                 solve_endgame: bool = True) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.samples = samples
        # Without the endgame search it plays the stockless tricks by the same rules of thumb
        # (what evaluations finish their sampled deals with: the search is most of their cost).
        self.solve_endgame = solve_endgame
        self._memo: dict[tuple[int, int], int] = {}
        # The lookup tables of ``keep``, held here: the shared cache hashes the 52-entry tuple
        # on every call, and rollouts lead or follow at every move.
        self._kept: tuple[float, ...] | None = None
        self._tab: _Tables | None = None

    def _tables(self) -> _Tables:
        keep = self.keep
        if self._kept is not keep or self._tab is None:
            self._tab, self._kept = _tables(keep), keep
        return self._tab

    def choose(self, view: View) -> Move:
        legal = view.legal_moves
        if not legal:
            raise ValueError("HeuristicBot was asked to move when its seat has no legal move")
        if len(legal) == 1:
            return legal[0]
        codes = [self.game.code_of(m) for m in legal]
        hand, unseen, lead, kind = _position(self.game, view)
        pub = view.public
        pick = self._pick(codes, hand, unseen, lead, kind, pub["stock"],
                          pub["hand_sizes"][1 - view.seat])
        return legal[codes.index(pick)]

    def choose_code(self, deal: Deal, codes: Sequence[int]) -> int:
        """The code :meth:`choose` gives on the view of the seat to move, read from the deal
        without building the view (rollouts ask at every move; ``deal.seen`` holds only what
        that view shows). ``codes``: the deal's legal codes, in their order."""
        assert isinstance(deal, TwoTenJackDeal) and deal.to_move is not None
        hand, unseen, lead, kind, stock, opp_size = deal.seen(deal.to_move)
        # _pick, inlined: rollouts call this at every move
        if stock == 0 and self.solve_endgame:
            return self._solve_move(list(codes), hand, unseen, lead, kind)
        if lead >= 0:
            return self._follow(codes, lead)
        return self._lead(codes, unseen, opp_size)

    def play_out(self, deal: Deal, policies: Sequence[object],
                 limit: int) -> tuple[list[int], int] | None:
        """Finish ``deal`` with ``policies`` on the seats (this bot among them), as
        ``PolicyRolloutBot.rollout`` would move by move with :meth:`choose_code`: the same
        moves and the same draws, in one loop without its per-move dispatch. At most ``limit``
        moves; the result (points if cut off) and how many choices the policies made. None
        where a policy is not this heuristic or the deal not Two-Ten-Jack's."""
        if not isinstance(deal, TwoTenJackDeal) or not all(
                isinstance(p, HeuristicBot) and type(p).choose_code is HeuristicBot.choose_code
                for p in policies):
            return None
        bots: Sequence[HeuristicBot] = policies  # type: ignore[assignment]
        seen, legal, apply = deal.seen, deal.legal_codes, deal.apply_code
        steps = spent = 0
        while steps < limit:
            seat = deal.to_move
            if seat is None:
                break
            codes = legal()
            if len(codes) == 1:
                apply(codes[0])
            else:
                # choose_code, inlined
                bot = bots[seat]
                hand, unseen, lead, kind, stock, opp_size = seen(seat)
                if stock == 0 and bot.solve_endgame:
                    apply(bot._solve_move(list(codes), hand, unseen, lead, kind))
                elif lead >= 0:
                    apply(bot._follow(codes, lead))
                else:
                    apply(bot._lead(codes, unseen, opp_size))
                spent += 1
            steps += 1
        result = deal.result if deal.to_move is None else deal.points
        return list(result or [0] * deal.players), spent

    def _pick(self, codes: Sequence[int], hand: int, unseen: int, lead: int, kind: int,
              stock: int, opp_size: int) -> int:
        if stock == 0 and self.solve_endgame:
            return self._solve_move(list(codes), hand, unseen, lead, kind)
        if lead >= 0:
            return self._follow(codes, lead)
        return self._lead(codes, unseen, opp_size)

    # ---- stock phase

    def _follow(self, codes: Sequence[int], lead: int) -> int:
        scores = self._tables().reply_score
        base = lead * 52
        best, best_score = codes[0], -1e9
        for c in codes:
            score = scores[base + c]
            if score > best_score:
                best, best_score = c, score
        return best

    def _lead(self, codes: Sequence[int], unseen: int, opp_size: int) -> int:
        pool = cards_of_mask(unseen)
        n = len(pool)
        samples = self.samples
        if opp_size == n:
            # The stock is empty and the opponent holds every unseen card: each draw could only
            # be all of them, so none is made. Without the endgame search (the rollouts'
            # setting) the bot's generator then runs differently for the rest of the deal, where
            # it draws nothing else; the rollouts reseed it before every deal they finish.
            worlds = [unseen] * samples
        elif 0 <= opp_size < 64 and n <= _SETSIZE[opp_size]:
            # sample_mask's list path, inlined (the path every hand of a deal takes): the same
            # calls of the generator in the same order, so the same hands
            getrandbits = self.rng.getrandbits
            sizes = range(n, n - opp_size, -1)
            worlds = []
            for _ in range(samples):
                rest = pool.copy()
                mask = 0
                for size in sizes:
                    bits = _BITS[size]
                    j = getrandbits(bits)
                    while j >= size:
                        j = getrandbits(bits)
                    mask |= 1 << rest[j]
                    rest[j] = rest[size - 1]
                worlds.append(mask)
        else:
            getrandbits = self.rng.getrandbits
            worlds = [sample_mask(getrandbits, pool, opp_size) for _ in range(samples)]
        tables = self._tables()
        gain_of = tables.gain_of
        memo = tables.memo
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        keep = self.keep
        count = len(worlds)
        # each world's follow set for a led kind (shifted to the memo's key), computed once per
        # kind: a hand's cards share a few kinds
        follows: dict[int, list[int]] = {}
        best, best_score = codes[0], -1e9
        for code in codes:
            if code >= AS_SPADES:
                card, kind = AS, code - AS_SPADES
            else:
                card, kind = code, code // 13
            keys = follows.get(kind)
            if keys is None:
                kind_mask = KIND_MASKS[kind]
                keys = follows[kind] = [(opp & kind_mask or opp & TRUMPS or opp) << 8
                                        for opp in worlds]
            lead = card * 4 + kind
            total = 0.0
            for f in keys:
                # what the leader counts for heuristic_reply(opp, card, kind, keep): it depends
                # on the follow set alone, and the same small sets come back constantly; added
                # in the worlds' order, so the sum is the same to the last bit
                key = f | lead
                try:
                    total += memo[key]
                except KeyError:
                    g = memo[key] = gain_of(f >> 8, card)
                    total += g
            score = total / count - keep[card]
            if score > best_score:
                best, best_score = code, score
        return best

    # ---- exact endgame (stock empty: the opponent's hand is the unseen cards)

    def _solve_move(self, codes: list[int], hand: int, opp: int, lead: int, kind: int) -> int:
        if len(self._memo) > 500_000:
            self._memo.clear()
        value = self._value
        best, best_score = codes[0], -10**9
        if lead >= 0:  # I follow: the opponent's lead is known
            for r in codes:
                p = CARD_POINTS[lead] + CARD_POINTS[r]
                mine = hand & ~(1 << r)
                if FOLLOWER_WINS[lead * 52 + r]:
                    v = p + value(mine, opp)
                else:
                    v = -p - value(opp, mine)
                if v > best_score:
                    best, best_score = r, v
            return best
        for code in codes:
            if code >= AS_SPADES:
                card, k = AS, code - AS_SPADES
            else:
                card, k = code, code // 13
            v = self._lead_value(hand & ~(1 << card), opp, card, k, best_score)
            if v > best_score:
                best, best_score = code, v
        return best

    def endgame_values(self, codes: list[int], hand: int, opp: int, lead: int,
                       kind: int) -> dict[int, int]:
        """Every move's exact value in the stockless endgame: the mover's points from here on
        minus the opponent's, with perfect play by both (no pruning, so no value is a bound)."""
        value = self._value
        out: dict[int, int] = {}
        for code in codes:
            if lead >= 0:
                p = CARD_POINTS[lead] + CARD_POINTS[code]
                mine = hand & ~(1 << code)
                out[code] = p + value(mine, opp) if FOLLOWER_WINS[lead * 52 + code] else \
                    -p - value(opp, mine)
            else:
                card, k = (AS, code - AS_SPADES) if code >= AS_SPADES else (code, code // 13)
                out[code] = self._lead_value(hand & ~(1 << card), opp, card, k, -10**9)
        return out

    def _lead_value(self, a: int, b: int, card: int, kind: int, alpha: int) -> int:
        """The leader's value of leading ``card`` (as ``kind``) from the rest ``a`` against ``b``;
        stops early (returning a value <= alpha) once the reply shows it is no better."""
        worst = 10**9
        value = self._value
        for r in cards_of_mask(_follow_set(b, kind)):
            b2 = b & ~(1 << r)
            p = CARD_POINTS[card] + CARD_POINTS[r]
            if FOLLOWER_WINS[card * 52 + r]:
                v = -p - value(b2, a)
            else:
                v = p + value(a, b2)
            if v < worst:
                worst = v
                if worst <= alpha:
                    break
        return worst

    def _value(self, a: int, b: int) -> int:
        """Leader's points minus follower's points over the rest of the hand, with perfect play;
        ``a`` is the leader's hand and ``b`` the follower's."""
        if not a:
            return 0
        key = (a, b)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        best = -10**9
        for card in cards_of_mask(a):
            rest = a & ~(1 << card)
            if card == AS:
                for k in (0, 1):
                    v = self._lead_value(rest, b, card, k, best)
                    if v > best:
                        best = v
            else:
                v = self._lead_value(rest, b, card, card // 13, best)
                if v > best:
                    best = v
        self._memo[key] = best
        return best
