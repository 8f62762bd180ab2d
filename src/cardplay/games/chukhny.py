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

import random
from dataclasses import dataclass
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
    games: int = option(1, positive_int=True, doc="games in a match")


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

        Worlds are built card by card, each choice uniform among the cards (or slots) that still
        fit, and accepted with a probability that cancels the unequal proposal weights, which
        makes every consistent world exactly equally likely. When that keeps failing (long games
        with many constraints), a valid world is built by bipartite matching and mixed by a
        Metropolis chain of card swaps whose stationary law is the uniform one (approximately
        uniform). Either way hand sizes, known cards and every public fact are kept exactly.
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


def _allowed_masks(tl: PublicTimeline, seat: int, slots: list[int],
                   must: list[tuple[int, int]], free: int) -> list[int]:
    """For each failed draw of ``seat`` (history index, ascending), the mask of cards it may
    have been: a card known to be the seat's (``must``: card, time it left the hand) drawn
    before that time, or a free card (still in the hand now), neither matching any need the
    seat showed it lacked from that draw on while holding it."""
    ev = tl.events[seat]
    # suffix[k] = OR of the need masks of the events from the k-th on
    suffix = [0] * (len(ev) + 1)
    for k in range(len(ev) - 1, -1, -1):
        suffix[k] = suffix[k + 1] | ev[k][1]
    out = []
    k = 0
    for h in slots:
        while k < len(ev) and ev[k][0] < h:
            k += 1
        out.append(free & ~suffix[k])
    for card, t in must:
        # it was drawn after the seat's last event before t that it would have matched
        last = -1
        for time, m in ev:
            if time >= t:
                break
            if m >> card & 1:
                last = time
        bit = 1 << card
        for j, h in enumerate(slots):
            if last < h < t:
                out[j] |= bit
    return out


def _sample(game: Chukhny, view: View, rng: random.Random) -> ChukhnyDeal:
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
    stock_pos = list(range(pos, size))

    # Cards whose owner is known: played from a hand without being known there, the seat's own
    # unknown-origin cards, and at the end every hand (revealed).
    must: list[list[tuple[int, int]]] = [list(p) for p in tl.played_private]
    held: list[int] = [0] * n
    held[view.seat] = mask_of(int(c) for c in view.hand)
    if view.is_over and "hands" in pub:
        for q in range(n):
            held[q] = mask_of(parse_card(c) for c in pub["hands"][q])
    for q in range(n):
        for c in cards_of_mask(held[q] & ~tl.known[q]):
            must[q].append((c, _INF))
    must_mask = 0
    for q in range(n):
        for c, _t in must[q]:
            must_mask |= 1 << c
    free = game.deck_mask & ~placed & ~must_mask

    slots: list[tuple[int, int]] = []   # (deck position, seat)
    allowed: list[int] = []
    per_seat: list[list[int]] = [[] for _ in range(n)]   # indices into slots
    for q in range(n):
        hs = tl.failed[q]
        masks = _allowed_masks(tl, q, hs, must[q], free)
        for h, m in zip(hs, masks):
            per_seat[q].append(len(slots))
            slots.append((draw_pos[h], q))
            allowed.append(m)

    assign = _by_rejection(rng, slots, allowed, per_seat, must, free)
    if assign is None:
        assign = _by_matching(rng, slots, allowed, per_seat, must, free)
    used = 0
    for (p, _q), c in zip(slots, assign):
        order[p] = c
        used |= 1 << c
    rest = cards_of_mask(free & ~used)
    rng.shuffle(rest)
    for p, c in zip(stock_pos, rest):
        order[p] = c
    deal = game.deal(deck=order, dealer=view.dealer)
    assert isinstance(deal, ChukhnyDeal)
    code_of = game.code_of
    for _seat, text in view.history:
        deal.apply_code(code_of(text))
    return deal


def _by_rejection(rng: random.Random, slots: list[tuple[int, int]], allowed: list[int],
                  per_seat: list[list[int]], must: list[list[tuple[int, int]]], free: int,
                  tries: int = 24) -> list[int] | None:
    """Exactly uniform sequential sampling with rejection.

    Each seat's known cards are put one by one in a uniformly chosen fitting slot of that seat,
    then the remaining slots (in a fixed order) get a uniformly chosen fitting free card. A
    world ``w`` is proposed with probability ``1 / prod(c_k(w))``, where ``c_k`` counts the
    choices at step ``k``; accepting it with probability ``prod(c_k(w)) / B``, for a bound ``B``
    that holds for every world, makes every valid world equally likely.
    """
    nslots = len(slots)
    card_slots: list[list[tuple[int, list[int]]]] = []   # per seat: (card, fitting slots)
    bound = 1.0
    for q, idx in enumerate(per_seat):
        lst = [(c, [i for i in idx if allowed[i] >> c & 1]) for c, _t in must[q]]
        lst.sort(key=lambda e: (len(e[1]), e[0]))
        for k, (_c, fit) in enumerate(lst):
            if not fit:
                return None
            bound *= min(len(fit), len(idx) - k)
        card_slots.append(lst)
    fa = [(allowed[i] & free).bit_count() for i in range(nslots)]
    top: list[int] = []
    for q, idx in enumerate(per_seat):
        top.extend(sorted((fa[i] for i in idx), reverse=True)[:len(idx) - len(must[q])])
    top.sort(reverse=True)
    nfree = free.bit_count()
    for j, a in enumerate(top):
        bound *= min(a, nfree - j)
    if bound <= 0:
        return None
    order = sorted(range(nslots), key=lambda i: (-fa[i], i))
    rand = rng.random
    for _ in range(tries):
        assign = [-1] * nslots
        weight = 1.0
        ok = True
        for lst in card_slots:
            for c, fit in lst:
                cand = [i for i in fit if assign[i] < 0]
                if not cand:
                    ok = False
                    break
                weight *= len(cand)
                assign[cand[int(rand() * len(cand))]] = c
            if not ok:
                break
        if not ok:
            continue
        left = free
        for i in order:
            if assign[i] >= 0:
                continue
            m = allowed[i] & left
            k = m.bit_count()
            if not k:
                ok = False
                break
            weight *= k
            r = int(rand() * k)
            while r:
                m &= m - 1
                r -= 1
            bit = m & -m
            assign[i] = bit.bit_length() - 1
            left ^= bit
        if ok and rng.random() * bound < weight:
            return assign
    return None


def _by_matching(rng: random.Random, slots: list[tuple[int, int]], allowed: list[int],
                 per_seat: list[list[int]], must: list[list[tuple[int, int]]],
                 free: int) -> list[int]:
    """A valid assignment by augmenting paths, then a Metropolis chain of swaps (uniform law)."""
    nslots = len(slots)
    slot_of: dict[int, int] = {}          # card -> slot
    assign = [-1] * nslots
    rand = rng.random
    fits: dict[int, list[int]] = {}

    def place_card(card: int, seen: set[int]) -> bool:
        # card-side augmenting path (for the cards that must be placed)
        cands = fits.get(card)
        if cands is None:
            cands = fits[card] = [i for i in range(nslots) if allowed[i] >> card & 1]
            rng.shuffle(cands)
        for i in cands:
            if i in seen:
                continue
            seen.add(i)
            other = assign[i]
            if other < 0 or place_card(other, seen):
                assign[i] = card
                slot_of[card] = i
                return True
        return False

    def fill_slot(i: int, seen: set[int]) -> bool:
        # slot-side augmenting path: the cards already placed stay placed
        cands = cards_of_mask(allowed[i])
        start = int(rand() * len(cands))
        for c in cands[start:] + cands[:start]:
            if c in seen:
                continue
            seen.add(c)
            j = slot_of.get(c)
            if j is None or fill_slot(j, seen):
                assign[i] = c
                slot_of[c] = i
                return True
        return False

    musts = [c for m in must for c, _t in m]
    rng.shuffle(musts)
    for c in musts:
        if not place_card(c, set()):
            raise ValueError("chukhny: the view is not consistent with any deal")
    empty = [i for i in range(nslots) if assign[i] < 0]
    rng.shuffle(empty)
    for i in empty:
        if not fill_slot(i, set()):
            raise ValueError("chukhny: the view is not consistent with any deal")
    # Metropolis: symmetric proposals (swap the cards of two slots, or a slot's free card with
    # a free card in no slot), accepted when every card still fits; the uniform law on valid
    # assignments is stationary.
    pool = cards_of_mask(free & ~mask_of(assign))
    npool = len(pool)
    for _ in range(24 * nslots):
        i = int(rand() * nslots)
        a = assign[i]
        if npool and rand() < 0.5:
            k = int(rand() * npool)
            b = pool[k]
            if free >> a & 1 and allowed[i] >> b & 1:
                assign[i] = b
                pool[k] = a
        else:
            j = int(rand() * nslots)
            b = assign[j]
            if allowed[i] >> b & 1 and allowed[j] >> a & 1:
                assign[i] = b
                assign[j] = a
    return assign
