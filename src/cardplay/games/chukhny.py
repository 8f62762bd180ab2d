"""Chukhny («Чухны»): a climbing and shedding game for 2 to 15 players; do not be the last holder.

Rules (RULES.md section 7). There is no deal: the shuffled deck lies face down as the stock and
all hands start empty. The dealer turns up the top card as the first pile card (under
``after_ace="clear"`` an Ace turned up goes out of play and the next card is turned up). Play
starts at the dealer's left and goes clockwise.

* On his turn a player must put on the pile the card **one rank above** its top card (2 < 3 < ...
  < K < A; the suit is ignored unless ``require_same_suit``). If he holds one he must play it (he
  chooses among several). Otherwise he draws from the stock, one card per ``draw``: a card that
  fits is played at once, a card that does not stays in his hand and he draws again.
* When the stock is empty and he cannot continue, he ``take``s: the top pile card goes into his
  hand and the rest of the pile goes out of play (a pile of one card just goes out of play).
  The next player then starts a new run: he leads any card from his hand (with an empty hand he
  turns up the top stock card with ``draw``).
* After an Ace nothing is higher: under ``after_ace="clear"`` (default) the pile goes out of play
  and the Ace's player leads again; under ``"wrap"`` the required card after an Ace is a 2 (a 6
  with 36 cards).
* A player with an empty hand is out only once the stock is empty. The game ends as soon as the
  stock is empty and at most one player holds cards: he is the loser, the «чухны» (result -1,
  everyone else 0); if nobody holds cards the game is drawn (all 0). ``points`` are all 0 until
  the game ends, then equal the result.

Options: ``players`` (2..15, default 3); ``deck_size`` (52 | 36, 36 = ranks 6..A);
``require_same_suit`` (False | True: the next card must also be of the same suit);
``after_ace`` ("clear" | "wrap"); ``games`` (games in a match, default 1; the deal passes left,
the first dealer is drawn at random, the winners are the seats with the fewest losses).

Hidden information: hands and drawn cards are private, the stock is hidden. Public: the pile,
the cards out of play, hand and stock sizes, the number of cards each seat drew, and a log of
every draw with the card required at the time (a drawn card that did not fit is not shown, but
everyone knows it is not the required card), the cards a seat took from the pile, and at the
end the loser's hand.

Notation and move codes (the fixed action space):

* ``0..51`` play or lead the card with that id (``8S``; also ``10♥``, ``♥10``, ``Т♠``);
* ``52`` ``draw``: draw one card from the stock (or turn it up to start a run);
* ``53`` ``take``: take the top pile card (no fitting card and the stock is empty).
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..cards import (
    RANK_CHARS,
    SUIT_CHARS,
    cards_of_mask,
    format_card,
    mask_of,
    parse_card,
)
from ..engine import Deal, Game, InvalidMoveError, Match, View, option, register
from ._sampling import (
    LastPrepared,
    SlotMove,
    SlotStep,
    choose_step,
    known_card_moves,
    open_slot,
    pop_random,
)

__all__ = ["DRAW", "RULES_RU", "TAKE", "Chukhny", "ChukhnyDeal", "PublicTimeline",
           "public_timeline"]

RULES_RU = """«Чухны»: от 2 до 15 игроков (по умолчанию 3), колода 52 карты (или 36, от шестёрки).
Карт не сдают: колода лежит в центре, сдающий открывает верхнюю карту. Каждый игрок по очереди
кладёт на кучу карту на одну ступень старше верхней (масть не важна, если не включено
require_same_suit). Есть нужная карта на руке — обязан её положить; нет — берёт из колоды по одной
карте (ход draw), пока не вытянет нужную: она сразу идёт в кучу, остальные остаются на руке.
Если колода пуста и положить нечего (ход take), игрок забирает верхнюю карту кучи, остальные
карты кучи выходят из игры (одна карта кучи просто выходит из игры), а следующий игрок начинает
новую кучу любой своей картой (с пустой рукой — открывает карту колоды ходом draw).
На туза положить нечего: по умолчанию куча выходит из игры и положивший туза ходит снова
(after_ace="clear"); при after_ace="wrap" после туза нужна двойка (шестёрка в 36 картах).
Игра кончается, когда колода пуста и карты остались не более чем у одного игрока: он проиграл,
он «чухны» (−1, остальным 0). Матч — games партий, сдача переходит влево.
Ходы: карта (8S, 10♥), draw, take."""

DRAW = 52
TAKE = 53
_ACE = 12
_INF = 1 << 30

# The four cards of each rank (suit ignored).
_RANK_MASKS: tuple[int, ...] = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
_MASK_CARDS: dict[int, list[int]] = {}


def _cards(mask: int) -> list[int]:
    """The cards of a mask, lowest id first (cached; small hands recur constantly)."""
    r = _MASK_CARDS.get(mask)
    if r is None:
        r = cards_of_mask(mask)
        if len(_MASK_CARDS) < 200_000:
            _MASK_CARDS[mask] = r
    return list(r)


@dataclass(frozen=True)
class ChukhnyOptions:
    players: int = option(3, int_range=(2, 15), doc="number of players")
    deck_size: int = option(52, (52, 36), doc="52 cards, or 36 (ranks 6 to A)")
    require_same_suit: bool = option(False, (False, True),
                                     doc="the next card must also be of the same suit")
    after_ace: str = option("clear", ("clear", "wrap"),
                            doc="clear: an Ace clears the pile and its player leads again; "
                                "wrap: a 2 (a 6 with 36 cards) follows an Ace")
    games: int = option(1, int_range=(1, 100), doc="games in a match")


@register
class Chukhny(Game):
    """Chukhny: climb one rank at a time, draw when you cannot, do not be the last holder."""

    name = "chukhny"
    title = {"en": "Chukhny", "ru": "Чухны"}
    Options = ChukhnyOptions
    min_players = 2
    max_players = 15
    options: ChukhnyOptions

    # per-options tables, set in _setup
    cards: list[int]
    deck_mask: int
    clear: bool
    same_suit: bool
    need_of: tuple[int, ...]
    match_mask: tuple[int, ...]

    def _setup(self) -> None:
        o = self.options
        low = 4 if o.deck_size == 36 else 0
        cards = [c for c in range(52) if c % 13 >= low]
        # need_of[top card] = the required card: next rank, same suit (the suit only matters
        # under require_same_suit); after an Ace the lowest rank (only reached under "wrap").
        need_of = tuple(c - c % 13 + (low if c % 13 == _ACE else c % 13 + 1) for c in range(52))
        if o.require_same_suit:
            match_mask = tuple(1 << c for c in range(52))
        else:
            match_mask = tuple(_RANK_MASKS[c % 13] for c in range(52))
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "deck_mask", mask_of(cards))
        object.__setattr__(self, "clear", o.after_ace == "clear")
        object.__setattr__(self, "same_suit", o.require_same_suit)
        object.__setattr__(self, "need_of", need_of)
        object.__setattr__(self, "match_mask", match_mask)

    @property
    def deck_size(self) -> int:  # type: ignore[override]
        return len(self.cards)

    def _deck_cards(self) -> list[int]:
        return list(self.cards)

    # ---- notation

    def _parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise InvalidMoveError(f"chukhny: a move is text, not {type(text).__name__}")
        low = text.strip().lower()
        if low == "draw":
            return DRAW
        if low == "take":
            return TAKE
        return self._deck_card(text, self.deck_mask, "a card (such as '8S', '10♥', '♥10' or "
                               "'Т♠'), 'draw' or 'take'")

    def _format(self, code: int) -> str:
        if code < 52:
            return format_card(code)
        if code == DRAW:
            return "draw"
        if code == TAKE:
            return "take"
        raise ValueError(f"chukhny: no move has code {code}")

    def _example_move(self) -> str:
        return "8S"

    # ---- match rules

    def _first_dealer(self, rng: random.Random) -> int:
        # RULES 7.3: the dealer is chosen at random (from the match seed).
        return rng.randrange(self.players)

    def _next_dealer(self, match: Match, finished: Deal) -> int:
        # RULES 7.4 Scoring: the deal passes left.
        return (finished.dealer + 1) % finished.players

    def _match_over(self, match: Match) -> bool:
        return len(match.deals) >= self.options.games

    def _match_winners(self, match: Match) -> list[int]:
        scores = match.finished_scores
        best = max(scores)
        return [s for s, v in enumerate(scores) if v == best]

    # ---- determinization

    def sample_deal(self, view: View, rng: random.Random) -> ChukhnyDeal:
        """A deal consistent with ``view``, the unknown cards placed uniformly among the worlds
        that fit everything public.

        The unknown deck positions are the other seats' failed draws and the stock. A card a
        seat drew without playing it matches neither the need of that draw nor the need of any
        later draw or take of that seat while he still held it (he would have had to play it);
        a card a seat played that was not known to be his came from one of his earlier failed
        draws. The seat's own cards go to its own failed draws under the same rules (a view does
        not say which own card came from which draw).

        A world is a deck order that replays the history to this very view. Every such order
        is returned with the same probability: the seats' unseen cards are dealt seat by seat
        and kept with a probability that cancels the unequal chances of the deal; then each
        seat's cards go to its failed draws uniformly among the fillings that fit (counted
        exactly), and the rest of the stock is shuffled. If the rejections keep failing, the
        same law is drawn by exact counting instead. What a view costs to prepare is kept for
        the next call with the same view (searching bots sample one view many times).
        """
        return _sample(self, view, rng)


class ChukhnyDeal(Deal):
    """One game of Chukhny."""

    game: Chukhny

    def _start(self, order: list[int], **context: Any) -> None:
        if context:
            raise ValueError(f"chukhny: unknown deal context {sorted(context)}; "
                             f"a Chukhny game takes none")
        g = self.game
        n = self.players
        out = 0
        pos = 0
        # RULES 7.3 / CH-8: under "clear" an Ace turned up goes out and the next card is turned.
        while g.clear and order[pos] % 13 == _ACE:
            out |= 1 << order[pos]
            pos += 1
        self._start_cards = tuple(order[:pos + 1])
        self._pile = [order[pos]]
        self._pos = pos + 1
        self._end = len(order)
        self._out = out
        self._hands = [0] * n
        self._known = [0] * n
        self._drawn = [0] * n
        self._log: list[tuple[int, int, int]] = []   # (seat, need card or -1, shown card or -1)
        self._loser: int | None = None
        self._turn = (self.dealer + 1) % n

    # ---- helpers

    @property
    def stock_size(self) -> int:
        return self._end - self._pos

    @property
    def need(self) -> int | None:
        """The required card (its rank; also its suit under require_same_suit), or None when
        a run is to be started or the game is over."""
        if self._turn is None or not self._pile:
            return None
        return self.game.need_of[self._pile[-1]]

    @property
    def loser(self) -> int | None:
        return self._loser

    def _next_active(self, p: int) -> int:
        """The next active seat clockwise after ``p`` (RULES 7.4: holding cards, or any seat
        while the stock is not empty)."""
        n = self.players
        if self._pos < self._end:
            return (p + 1) % n
        hands = self._hands
        for i in range(1, n + 1):
            q = (p + i) % n
            if hands[q]:
                return q
        raise AssertionError("no active player")  # pragma: no cover - guarded by _over()

    def _over(self) -> bool:
        """End check (RULES 7.4 End): stock empty and at most one seat holding cards."""
        if self._pos < self._end:
            return False
        holder = -1
        for q, h in enumerate(self._hands):
            if h:
                if holder >= 0:
                    return False
                holder = q
        self._loser = holder if holder >= 0 else None
        self._turn = None
        return True

    def _place(self, p: int, card: int) -> None:
        """after_play / the starting card of a run: put ``card`` on the pile."""
        if card % 13 == _ACE and self.game.clear:
            out = self._out | 1 << card
            for c in self._pile:
                out |= 1 << c
            self._out = out
            self._pile = []
            if self._over():
                return
            # p leads again (start_run(p)); finished with an empty hand and stock: the next.
            self._turn = p if (self._hands[p] or self._pos < self._end) else self._next_active(p)
            return
        self._pile.append(card)
        if not self._over():
            self._turn = self._next_active(p)

    # ---- hooks

    def _legal(self) -> list[int]:
        p = self._turn
        if p is None:
            return []
        hand = self._hands[p]
        pile = self._pile
        if not pile:
            return _cards(hand) if hand else [DRAW]
        g = self.game
        m = hand & g.match_mask[g.need_of[pile[-1]]]
        if m:
            return _cards(m)
        return [DRAW] if self._pos < self._end else [TAKE]

    def _apply(self, code: int) -> None:
        p = self._turn
        assert p is not None
        if code < 52:
            bit = 1 << code
            self._hands[p] ^= bit
            self._known[p] &= ~bit
            self._place(p, code)
        elif code == DRAW:
            card = self._order[self._pos]
            self._pos += 1
            self._drawn[p] += 1
            pile = self._pile
            if not pile:
                self._log.append((p, -1, card))
                self._place(p, card)
                return
            g = self.game
            need = g.need_of[pile[-1]]
            if g.match_mask[need] >> card & 1:
                self._log.append((p, need, card))
                self._place(p, card)
            else:
                self._log.append((p, need, -1))
                self._hands[p] |= 1 << card
                # p acts again: another draw, or a take once the stock is empty
                self._over()
        else:  # TAKE
            pile = self._pile
            out = self._out
            if len(pile) >= 2:
                top = pile.pop()
                self._hands[p] |= 1 << top
                self._known[p] |= 1 << top
            for c in pile:
                out |= 1 << c
            self._out = out
            self._pile = []
            if not self._over():
                self._turn = self._next_active(p)

    def _points(self) -> list[int]:
        if self._turn is not None:
            return [0] * self.players
        return self._result()

    def _result(self) -> list[int]:
        r = [0] * self.players
        if self._loser is not None:
            r[self._loser] = -1
        return r

    def _hand(self, seat: int) -> list[int]:
        return _cards(self._hands[seat])

    def _public(self, seat: int) -> dict[str, Any]:
        g = self.game
        over = self._turn is None
        need = self.need
        same = g.same_suit
        draws = []
        for s, nd, c in self._log:
            draws.append({
                "seat": s,
                "need": RANK_CHARS[nd % 13] if nd >= 0 else None,
                "need_suit": SUIT_CHARS[nd // 13] if nd >= 0 and same else None,
                "card": format_card(c) if c >= 0 else None,
            })
        pub: dict[str, Any] = {
            "pile": [format_card(c) for c in self._pile],
            "leading": not over and not self._pile,
            "need": RANK_CHARS[need % 13] if need is not None else None,
            "need_suit": SUIT_CHARS[need // 13] if need is not None and same else None,
            "out": [format_card(c) for c in _cards(self._out)],
            "stock": self._end - self._pos,
            "hand_sizes": [h.bit_count() for h in self._hands],
            "drawn": list(self._drawn),
            "known": [[format_card(c) for c in _cards(k)] for k in self._known],
            "start_cards": [format_card(c) for c in self._start_cards],
            "draws": draws,
            "loser": self._loser,
        }
        if over:
            pub["hands"] = [[format_card(c) for c in _cards(h)] for h in self._hands]
        return pub

    def _known_to(self, seat: int) -> set[int]:
        m = 0
        for q, k in enumerate(self._known):
            if q != seat:
                m |= k
        return set(cards_of_mask(m))

    def _copy(self) -> ChukhnyDeal:
        d = ChukhnyDeal.__new__(ChukhnyDeal)
        d._start_cards = self._start_cards
        d._pile = self._pile[:]
        d._pos = self._pos
        d._end = self._end
        d._out = self._out
        d._hands = self._hands[:]
        d._known = self._known[:]
        d._drawn = self._drawn[:]
        d._log = self._log[:]
        d._loser = self._loser
        return d


Chukhny.DealClass = ChukhnyDeal


# --------------------------------------------------------------------------------------------
# What a view says about the past: shared by sample_deal and the heuristic bot.


@dataclass
class PublicTimeline:
    """The public facts of a game, rebuilt from a view's history and public draw log.

    ``events[seat]``: (history index, match mask of the need) for every draw the seat made while
    a card was required and for every take: at that moment the seat held no card in the mask.
    ``failed[seat]``: history indices of the seat's draws that did not fit (private cards).
    ``played_private[seat]``: (card, history index) for every card the seat played that was not
    publicly known to be his, so it came from one of his earlier failed draws.
    ``known[seat]``: mask of the cards the seat took from the pile and still holds.
    ``draw_cards``: for every draw in order, (history index, seat, shown card or -1).
    """

    start: list[int]
    draw_cards: list[tuple[int, int, int]]
    events: list[list[tuple[int, int]]]
    failed: list[list[int]]
    played_private: list[list[tuple[int, int]]]
    known: list[int]
    pile: list[int]


def public_timeline(game: Chukhny, view: View) -> PublicTimeline:
    """Replay the public part of ``view`` (history plus the public draw log)."""
    n = view.players
    pub = view.public
    start = [parse_card(c) for c in pub["start_cards"]]
    log = pub["draws"]
    need_of, match_mask, clear = game.need_of, game.match_mask, game.clear
    pile = [start[-1]]
    k = 0
    draw_cards: list[tuple[int, int, int]] = []
    events: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    failed: list[list[int]] = [[] for _ in range(n)]
    played: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    known = [0] * n
    code_of = game.code_of
    for h, (seat, text) in enumerate(view.history):
        code = code_of(text)
        shown = -1
        if code < 52:
            bit = 1 << code
            if known[seat] & bit:
                known[seat] ^= bit
            else:
                played[seat].append((code, h))
            shown = code
        elif code == DRAW:
            entry = log[k]
            k += 1
            card = entry["card"]
            if card is not None:
                shown = parse_card(card)
            if pile:
                events[seat].append((h, match_mask[need_of[pile[-1]]]))
                if shown < 0:
                    failed[seat].append(h)
            draw_cards.append((h, seat, shown))
        else:  # take
            events[seat].append((h, match_mask[need_of[pile[-1]]]))
            if len(pile) >= 2:
                known[seat] |= 1 << pile[-1]
            pile = []
        if shown >= 0:
            if clear and shown % 13 == _ACE:
                pile = []
            else:
                pile.append(shown)
    return PublicTimeline(start, draw_cards, events, failed, played, known, pile)


# --------------------------------------------------------------------------------------------
# sample_deal: every consistent world equally likely
#
# A world is a deck order. Its first cards (the turned-up start and every shown draw) are
# public; the other drawn positions are the seats' failed draws ("slots", in time order per
# seat) and the rest is the undrawn stock. A slot holds either a card known to be that seat's
# (played from the hand without being known there, the viewer's own, any card of a hand shown
# at the end) or an unseen card that the seat still holds. A card can sit in a slot only if the
# seat, holding it from then on, never showed that it lacked its rank (a draw while that rank
# was needed, or a take): so a known card may come from an interval of slots, and an unseen
# card may sit in the slots from some first one on. Every filling of the slots leaves the same
# number of stock orders, so the worlds are equally likely exactly when the fillings are.


# One seat's counting tables for one histogram: the unseen cards available at each slot, the
# number of fillings from each state on, and each state's choices with their running weights.
_Table = tuple[list[int], dict[Any, int], dict[Any, SlotStep]]


class _SeatSlots:
    """One seat's slots, the known cards among them and the unseen cards it may hold.

    ``known``: (card, lo, hi), the slot indices the card may have come from; ``first[card]``:
    the first slot an unseen card may sit in (no entry: it cannot be this seat's); ``holds``:
    how many unseen cards fill the other slots. The number of fillings depends on the unseen
    cards only through their *histogram*: how many have each distinct first slot (``levels``).
    """

    def __init__(self, positions: list[int], known: list[tuple[int, int, int]],
                 first: dict[int, int], holds: int) -> None:
        self.positions = positions
        self.first = first
        self.holds = holds
        self.levels = sorted(set(first.values()))
        index = {s: i for i, s in enumerate(self.levels)}
        self.level_of = {c: index[s] for c, s in first.items()}
        size = len(positions)
        opening: list[list[tuple[int, int]]] = [[] for _ in range(size)]
        for card, lo, hi in known:
            opening[lo].append((card, hi))
        self.opening = opening
        self.opens = [tuple(sorted(hi for _, hi in o)) for o in opening]
        cum = [0]
        for o in opening:
            cum.append(cum[-1] + len(o))
        self.cum = cum  # cum[j]: known cards whose interval starts before slot j
        # Every filling fits when every card may sit anywhere: then any order is one.
        self.unconstrained = self.levels in ([], [0]) and \
            all(lo == 0 and hi == size - 1 for _, lo, hi in known)
        self._tables: dict[tuple[int, ...], _Table] = {}

    def histogram(self, cards: list[int]) -> tuple[int, ...]:
        hist = [0] * len(self.levels)
        for c in cards:
            hist[self.level_of[c]] += 1
        return tuple(hist)

    def _table(self, hist: tuple[int, ...]) -> _Table:
        t = self._tables.get(hist)
        if t is None:
            free_at = [sum(k for s, k in zip(self.levels, hist) if s <= j)
                       for j in range(len(self.positions))]
            t = self._tables[hist] = (free_at, {}, {})
        return t

    def _moves(self, j: int, pend: tuple[int, ...],
               free_at: list[int]) -> list[SlotMove]:
        """The ways to fill slot ``j`` when ``pend`` (sorted) are the last slots of the known
        cards not yet placed: (multiplicity, pending afterwards, last slot of the known card
        placed, or -1 for an unseen card)."""
        pend, due = open_slot(j, pend, self.opens[j])
        out: list[SlotMove] = []
        if not due:
            unseen = free_at[j] - (j - self.cum[j + 1] + len(pend))
            if unseen > 0:
                out.append((unseen, pend, -1))
        out.extend(known_card_moves(pend, due))
        return out

    def _ways(self, j: int, pend: tuple[int, ...], free_at: list[int],
              memo: dict[Any, int]) -> int:
        if j == len(self.positions):
            return 0 if pend else 1
        key = (j, pend)
        r = memo.get(key)
        if r is None:
            r = 0
            for mult, after, _ in self._moves(j, pend, free_at):
                r += mult * self._ways(j + 1, after, free_at, memo)
            memo[key] = r
        return r

    def count(self, hist: tuple[int, ...]) -> int:
        """The number of fillings of the slots with unseen cards of this histogram."""
        free_at, memo, _ = self._table(hist)
        return self._ways(0, (), free_at, memo)

    def fill(self, cards: list[int], rng: random.Random) -> list[int]:
        """A uniformly chosen filling of the slots with the known cards and ``cards``."""
        if self.unconstrained:
            out = [card for o in self.opening for card, _ in o] + cards
            rng.shuffle(out)
            return out
        free_at, memo, steps = self._table(self.histogram(cards))

        def moves(j: int, pend: tuple[int, ...]) -> list[SlotMove]:
            return self._moves(j, pend, free_at)

        def completions(j: int, pend: tuple[int, ...]) -> int:
            return self._ways(j, pend, free_at, memo)

        arriving: dict[int, list[int]] = {}
        for c in cards:
            arriving.setdefault(self.first[c], []).append(c)
        pool: list[int] = []
        waiting: dict[int, list[int]] = {}  # known cards by their last slot
        pend: tuple[int, ...] = ()
        out = []
        for j in range(len(self.positions)):
            pool.extend(arriving.get(j, ()))
            for card, hi in self.opening[j]:
                waiting.setdefault(hi, []).append(card)
            pend, hi = choose_step(steps, j, pend, moves, completions, rng)
            out.append(pop_random(pool if hi < 0 else waiting[hi], rng))
        return out


def _multinomial(total: int, parts: list[int]) -> int:
    r = math.factorial(total) // math.factorial(total - sum(parts))
    for k in parts:
        r //= math.factorial(k)
    return r


class _Families:
    """The ways to share the unseen cards out among boxes, and a uniform draw of one of them.

    A box belongs to a seat (``box_seat``); seat ``q`` takes exactly ``need[q]`` cards in all
    its boxes. ``regions`` group the cards that may go to the same boxes (at most one box per
    seat); a card in no box stays in the stock. A way to share counts
    ``weight(cards per box)`` times. The regions are taken smallest first and the largest
    last: once the others are shared out, the largest one's shares are forced, so only the
    small regions are enumerated.
    """

    def __init__(self, need: list[int], box_seat: list[int],
                 regions: list[tuple[list[int], tuple[int, ...]]],
                 weight: Callable[[tuple[int, ...]], int]) -> None:
        regs = sorted((r for r in regions if r[1]), key=lambda r: len(r[0]))
        self.regions = regs
        self.need = need
        self.box_seat = box_seat
        self.weight = weight
        room = [[0] * len(need)]  # room[i][q]: cards of regions i.. that seat q may take
        for cards, boxes in reversed(regs):
            row = room[0][:]
            for b in boxes:
                row[box_seat[b]] += len(cards)
            room.insert(0, row)
        self.room = room
        self.memo: dict[Any, int] = {}
        self.total = self._ways(0, (0,) * len(box_seat))

    def _taken(self, state: tuple[int, ...]) -> list[int]:
        taken = [0] * len(self.need)
        for b, k in enumerate(state):
            taken[self.box_seat[b]] += k
        return taken

    def _last(self, state: tuple[int, ...]) -> tuple[int, list[int]]:
        """The forced shares of the last region: (ways, cards per box of the region)."""
        taken = self._taken(state)
        if not self.regions:
            return (self.weight(state) if taken == self.need else 0), []
        cards, boxes = self.regions[-1]
        new = list(state)
        parts = []
        for b in boxes:
            q = self.box_seat[b]
            k = self.need[q] - taken[q]
            if k < 0:
                return 0, []
            parts.append(k)
            new[b] += k
            taken[q] += k
        if taken != self.need or sum(parts) > len(cards):
            return 0, []
        return _multinomial(len(cards), parts) * self.weight(tuple(new)), parts

    def _shares(self, i: int,
                state: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], list[int]]]:
        """The ways to share region ``i``: (multiplicity, state afterwards, cards per box)."""
        cards, boxes = self.regions[i]
        need, room, seat_of = self.need, self.room[i + 1], self.box_seat
        taken = self._taken(state)
        out: list[tuple[int, tuple[int, ...], list[int]]] = []

        def go(t: int, left: int, mult: int, new: list[int], parts: list[int]) -> None:
            if t == len(boxes):
                after = self._taken(tuple(new))
                if all(after[q] + room[q] >= need[q] for q in range(len(need))):
                    out.append((mult, tuple(new), list(parts)))
                return
            b = boxes[t]
            q = seat_of[b]
            for k in range(min(left, need[q] - taken[q]) + 1):
                new[b] += k
                taken[q] += k
                parts.append(k)
                go(t + 1, left - k, mult * math.comb(left, k), new, parts)
                parts.pop()
                taken[q] -= k
                new[b] -= k

        go(0, len(cards), 1, list(state), [])
        return out

    def _ways(self, i: int, state: tuple[int, ...]) -> int:
        if i >= len(self.regions) - 1:
            return self._last(state)[0]
        key = (i, state)
        r = self.memo.get(key)
        if r is None:
            r = sum(m * self._ways(i + 1, after) for m, after, _ in self._shares(i, state))
            self.memo[key] = r
        return r

    def draw(self, rng: random.Random) -> list[list[int]]:
        """One way to share, uniformly among all (each weighted): the cards of each box."""
        out: list[list[int]] = [[] for _ in self.box_seat]
        state = (0,) * len(self.box_seat)
        for i, (cards, boxes) in enumerate(self.regions):
            if i == len(self.regions) - 1:
                parts = self._last(state)[1]
            else:
                shares = self._shares(i, state)
                weights = [m * self._ways(i + 1, after) for m, after, _ in shares]
                r = rng.randrange(sum(weights))
                k = 0
                while r >= weights[k]:
                    r -= weights[k]
                    k += 1
                _, state, parts = shares[k]
            picked = rng.sample(cards, sum(parts))
            at = 0
            for b, k in zip(boxes, parts):
                out[b].extend(picked[at:at + k])
                at += k
        return out


@dataclass
class _World:
    """What every world of one view shares, prepared once per view."""

    order: list[int]           # the public cards in place, -1 elsewhere
    stock: list[int]           # the undrawn positions
    unseen: list[int]
    seats: list[_SeatSlots]
    active: list[int]          # the seats holding unseen cards, in the order they are dealt
    allowed: list[int]         # per active seat, the mask of unseen cards it may hold
    share_bound: int           # bounds the product of the choices of the seats' shares
    fill_bounds: list[int]     # per active seat, the most fillings any share allows
    codes: list[int]           # the history's moves
    exact: _Families | None = None  # by (seat, first slot); built when first needed
    exact_boxes: list[list[int]] = field(default_factory=list)


_LAST: LastPrepared[_World] = LastPrepared()


def _inconsistent() -> ValueError:
    return ValueError("chukhny: the view is not consistent with any deal")


def _prepare(game: Chukhny, view: View) -> _World:
    cached = _LAST.get(game, view)
    if cached is not None:
        return cached
    n = view.players
    pub = view.public
    tl = public_timeline(game, view)
    size = len(game.cards)
    order = [-1] * size
    placed = 0
    pos = 0
    for c in tl.start:
        order[pos] = c
        placed |= 1 << c
        pos += 1
    draw_pos: dict[int, int] = {}   # history index of a failed draw -> deck position
    for h, _seat, shown in tl.draw_cards:
        if shown >= 0:
            order[pos] = shown
            placed |= 1 << shown
        else:
            draw_pos[h] = pos
        pos += 1
    # Cards whose seat is known, with the time they left the hand (_INF: still held): played
    # from a hand without being known there, the seat's own, and every hand shown at the end.
    must: list[list[tuple[int, int]]] = [list(p) for p in tl.played_private]
    held: list[int] = [0] * n
    held[view.seat] = mask_of(int(c) for c in view.hand)
    if view.is_over and "hands" in pub:
        for q in range(n):
            held[q] = mask_of(parse_card(c) for c in pub["hands"][q])
    for q in range(n):
        for c in cards_of_mask(held[q] & ~tl.known[q]):
            must[q].append((c, _INF))
    unseen = game.deck_mask & ~placed
    for q in range(n):
        for c, _t in must[q]:
            unseen &= ~(1 << c)
    seats = []
    for q in range(n):
        times = tl.failed[q]
        ev = tl.events[q]
        # lacked[k]: the cards the seat showed it lacked from its k-th event on
        lacked = [0] * (len(ev) + 1)
        for k in range(len(ev) - 1, -1, -1):
            lacked[k] = lacked[k + 1] | ev[k][1]
        first: dict[int, int] = {}
        k = 0
        seen = 0
        for j, h in enumerate(times):
            while k < len(ev) and ev[k][0] < h:
                k += 1
            fits = unseen & ~lacked[k] & ~seen
            seen |= fits
            for c in cards_of_mask(fits):
                first[c] = j
        known = []
        for card, t in must[q]:
            last = -1  # the seat's last event before t that the card would have met
            for time, m in ev:
                if time >= t:
                    break
                if m >> card & 1:
                    last = time
            lo = bisect_right(times, last)
            hi = bisect_left(times, t) - 1
            if lo > hi:
                raise _inconsistent()
            known.append((card, lo, hi))
        holds = len(times) - len(known)
        if holds < 0:
            raise _inconsistent()
        seats.append(_SeatSlots([draw_pos[h] for h in times], known, first, holds))
    active = [q for q in range(n) if seats[q].holds]
    for q in range(n):
        if q not in active and seats[q].count(()) == 0:
            raise _inconsistent()
    unseen_cards = cards_of_mask(unseen)
    allowed = [mask_of(seats[q].first) for q in active]
    need = [seats[q].holds for q in active]
    # The seats' shares are dealt one seat after another, each uniformly among the unseen
    # cards left that it may hold; a share then has probability 1 / (the product of the
    # numbers of choices), and is kept with probability (that product) / share_bound. Its
    # bound: the unseen cards left that a seat may hold are at most all it may hold, less the
    # cards dealt before, plus those of them it may not hold. The order with the lowest bound
    # keeps the most shares.
    perm, share_bound = _dealing_order(unseen, allowed, need)
    if not share_bound and active:
        raise _inconsistent()
    fill_bounds = []
    for q in active:
        # The most fillings any share allows: the unseen cards with the earliest first slots
        # (a card allowed in more slots never lowers the count).
        seat = seats[q]
        left = seat.holds
        most = []
        for level in range(len(seat.levels)):
            k = min(left, sum(1 for lv in seat.level_of.values() if lv == level))
            most.append(k)
            left -= k
        most_fillings = seat.count(tuple(most))
        if not most_fillings:
            raise _inconsistent()
        fill_bounds.append(most_fillings)
    world = _World(order, list(range(pos, size)), unseen_cards, seats,
                   [active[i] for i in perm], [allowed[i] for i in perm], share_bound,
                   [fill_bounds[i] for i in perm], [game.code_of(t) for _, t in view.history])
    _LAST.put(game, view, world)
    return world


def _dealing_order(unseen: int, allowed: list[int], need: list[int]) -> tuple[list[int], int]:
    """The order of the seats whose shares have the lowest bound, and that bound (0: none can
    be dealt). The bound of a seat's choices depends only on the seats dealt before it, so the
    best order is found over subsets of seats (up to 12 seats; beyond, the largest shares
    first)."""
    m = len(need)
    full = 1 << min(m, 12)
    dealt = [0] * full   # per subset of seats dealt before: their cards, their allowed cards
    reach = [0] * full
    for before in range(1, full):
        low = (before & -before).bit_length() - 1
        dealt[before] = dealt[before & (before - 1)] + need[low]
        reach[before] = reach[before & (before - 1)] | allowed[low]

    def factor(i: int, before: int) -> int:
        spare = min((unseen & ~allowed[i] & reach[before]).bit_count(), dealt[before])
        return math.comb(allowed[i].bit_count() - dealt[before] + spare, need[i])

    if m > 12:
        order = sorted(range(m), key=lambda i: -need[i])
        bound = 1
        total = spread = 0
        for i in order:
            spare = min((unseen & ~allowed[i] & spread).bit_count(), total)
            bound *= math.comb(allowed[i].bit_count() - total + spare, need[i])
            total += need[i]
            spread |= allowed[i]
        return order, bound
    best: dict[int, tuple[int, int]] = {(1 << m) - 1: (1, -1)}  # dealt -> (bound, next seat)
    for before in range((1 << m) - 2, -1, -1):
        choice = (0, -1)
        for i in range(m):
            if not before >> i & 1:
                rest = best[before | 1 << i][0]
                b = factor(i, before) * rest if rest else 0
                if b and (not choice[0] or b < choice[0]):
                    choice = (b, i)
        best[before] = choice
    order = []
    before = 0
    while len(order) < m and best[before][1] >= 0:
        i = best[before][1]
        order.append(i)
        before |= 1 << i
    return order, best[0][0]


def _by_rejection(rng: random.Random, world: _World,
                  tries: int = 1000) -> list[list[int]] | None:
    """The unseen cards of each active seat, uniformly among the consistent worlds.

    A try deals each seat's share as :func:`_prepare` describes and keeps it with probability
    ``choices / share_bound``, then with probability ``fillings / fill_bound`` for each seat
    whose slots do not all allow the same unseen cards: so every world is kept with the same
    probability. None after ``tries`` failed tries (none of the views of random games needed
    more than a few dozen).
    """
    seats, need = world.seats, [world.seats[q].holds for q in world.active]
    everything = mask_of(world.unseen)
    for _ in range(tries):
        left = everything
        choices = 1
        shares = []
        for i, mask in enumerate(world.allowed):
            fits = cards_of_mask(mask & left)
            if len(fits) < need[i]:
                break
            choices *= math.comb(len(fits), need[i])
            share = rng.sample(fits, need[i])
            left &= ~mask_of(share)
            shares.append(share)
        else:
            assert choices <= world.share_bound  # else the kept shares would not be uniform
            if rng.randrange(world.share_bound) >= choices:
                continue
            for i, q in enumerate(world.active):
                seat = seats[q]
                if len(seat.levels) > 1 and rng.randrange(world.fill_bounds[i]) >= \
                        seat.count(seat.histogram(shares[i])):
                    break
            else:
                return shares
    return None


def _by_counting(rng: random.Random, world: _World) -> list[list[int]]:
    """The same law as :func:`_by_rejection` without rejection: the unseen cards are shared
    out among (seat, first slot) boxes, each way weighted by the number of fillings it leaves.
    Exact counting is slow when several seats hold many cards (seconds in the worst views of
    six or more players), so it serves only when the rejections keep failing."""
    seats, active = world.seats, world.active
    if world.exact is None:
        box_seat: list[int] = []
        box_of: list[list[int]] = []
        for i, q in enumerate(active):
            box_of.append(list(range(len(box_seat), len(box_seat) + len(seats[q].levels))))
            box_seat.extend([i] * len(seats[q].levels))
        groups: dict[tuple[int, ...], list[int]] = {}
        for c in world.unseen:
            boxes = tuple(box_of[i][seats[q].level_of[c]]
                          for i, q in enumerate(active) if c in seats[q].first)
            groups.setdefault(boxes, []).append(c)

        def weight(state: tuple[int, ...]) -> int:
            w = 1
            for i, q in enumerate(active):
                w *= seats[q].count(tuple(state[b] for b in box_of[i]))
            return w

        world.exact = _Families([seats[q].holds for q in active], box_seat,
                                [(cards, boxes) for boxes, cards in groups.items()], weight)
        world.exact_boxes = box_of
    if not world.exact.total:
        raise _inconsistent()
    boxes_cards = world.exact.draw(rng)
    box_of = world.exact_boxes
    return [[c for b in box_of[i] for c in boxes_cards[b]] for i in range(len(active))]


def _sample(game: Chukhny, view: View, rng: random.Random) -> ChukhnyDeal:
    world = _prepare(game, view)
    shares = _by_rejection(rng, world)
    if shares is None:
        shares = _by_counting(rng, world)
    order = list(world.order)
    share_of = dict(zip(world.active, shares))
    used = 0
    for q, seat in enumerate(world.seats):
        if not seat.positions:
            continue
        mine = share_of.get(q, [])
        for c in mine:
            used |= 1 << c
        for p, c in zip(seat.positions, seat.fill(mine, rng)):
            order[p] = c
    rest = [c for c in world.unseen if not used >> c & 1]
    rng.shuffle(rest)
    for p, c in zip(world.stock, rest):
        order[p] = c
    deal = game._deal_from_order(order, view.dealer, 0, True, {})
    assert isinstance(deal, ChukhnyDeal)
    for code in world.codes:
        deal.apply_code(code)
    return deal
