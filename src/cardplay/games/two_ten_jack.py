"""Two-Ten-Jack: a Japanese two-player trick-taking game, played in hands to 31 points.

Deck and deal
    52 cards, A high in every suit. The dealer deals 6 cards each, one at a time, the non-dealer
    first; the other 40 cards are a face-down stock. Nothing is turned up. The deal alternates
    between hands; the first dealer is chosen at random.

Trumps
    Hearts are always trumps. The A♠ ("Speculation") is a trump ranking above the A♥ and is also a
    spade: it always wins the trick it is in.

Play
    The non-dealer leads the first trick; the winner of a trick leads the next. While the stock
    lasts, after each trick the winner draws the top card and the loser the next one (20 tricks
    with drawing, 26 in all). The follower must follow the led kind if he can:
      * a heart led (or the A♠ declared a trump): play a trump (a heart or the A♠);
      * a spade led (or the A♠ declared a spade): play a spade (the A♠ is a spade);
      * a club or diamond led: play that suit (the A♠ is not a club or a diamond).
    Unable to follow, he must play a trump (the A♠ included) if he has one, otherwise any card.
    Whoever leads the A♠ declares it a spade or a trump; that only decides what the follower owes.
    A trick is won by the A♠, else by the highest heart, else by the highest card of the led suit.

Scoring
    Each player scores the cards in the tricks he won: 2♥ 10♥ J♥ +5 each; 2♣ 10♣ J♣ -5 each;
    2♠ 10♠ J♠ A♠ +1 each; 6♦ +1; every hand distributes exactly +5. Totals may go negative.
    The first player with 31 or more at the end of a hand wins the match; if both reach it in the
    same hand the higher total wins, and equal totals play another hand.

Options
    win_check    end_of_hand (default) | immediate: the match ends the moment a trick brings a
                 player to the target (match scores then include the hand in progress)
    target       31 (any whole number >= 1; RULES.md says "any", the engine's numeric targets
                 are positive whole numbers)
    next_dealer  alternate (default) | loser: the player with fewer hand points deals next |
                 winner: the player with more hand points deals next (a tied hand alternates)

Notation and move codes
    A card is played by naming it: QH, TH (also 10H, 10♥, ♥10, Д♥ ...), code = card id 0..51
    (suit*13 + rank; suits S H D C; ranks 2..A). Leading the A♠ needs its declaration:
    AS=S (spades, code 52) or AS=H (trumps, code 53); a plain AS is the A♠ played by the follower.
    Keywords are case-insensitive; the declaration may also be written with a suit symbol
    (A♠=♠, Т♠=♥). Codes in order: 0..51 the cards, 52 AS=S, 53 AS=H.

Hidden information
    Both hands and the stock are hidden; a drawn card is seen only by its drawer. Every played card,
    the won-trick piles, the running hand points, the A♠ declaration and the stock size are public.
    A view's public part holds: leader, trick (the led card with its seat), led (S, H for trumps,
    D, C), declared (S, H or none), last_trick, won (each seat's pile), tricks_won,
    tricks_played, hand_points, stock (cards left) and hand_sizes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..cards import CardParseError, cards_of_mask, format_card, parse_card
from ..engine import Deal, Game, InvalidMoveError, Match, View, option, register

__all__ = [
    "AS",
    "AS_SPADES",
    "AS_TRUMPS",
    "CARD_POINTS",
    "KIND_MASKS",
    "RULES_RU",
    "TRUMPS",
    "TwoTenJackDeal",
    "TwoTenJackGame",
    "TwoTenJackOptions",
    "follower_wins",
]

RULES_RU = """Два-десять-валет: японская игра во взятки для двоих, партия до 31 очка.

Колода из 52 карт, туз старший. Сдающий раздаёт по 6 карт по одной, начиная с соперника; остальные
40 карт лежат рубашкой вверх и образуют колоду для добора. Сдают по очереди.

Червы всегда козыри. Пиковый туз («спекуляция») старше туза червей и является одновременно пикой и
козырем: он всегда берёт взятку. Первым ходит не сдававший, затем ходит взявший взятку. Пока колода
не кончилась, после каждой взятки берёт карту сначала взявший, потом другой (всего 26 взяток).

Отвечающий обязан ходить в масть (на черву или туз пик, объявленный козырем, — козырем; на пику или
туз пик, объявленный пикой, — пикой, включая туз пик; на трефу или бубну — этой мастью). Если нечем,
он обязан бить козырем (туз пик тоже козырь), иначе кладёт любую карту. Ходящий с туза пик объявляет
его пикой (AS=S) или козырем (AS=H). Взятку берёт туз пик, иначе старшая черва, иначе старшая карта
масти хода.

Очки за карты во взятках: 2, 10, валет червей +5; 2, 10, валет треф -5; 2, 10, валет, туз пик +1;
шестёрка бубен +1 (всего +5 за сдачу). Побеждает первый, у кого после сдачи 31 очко или больше; при
обоих 31+ — больший счёт, при равенстве играется ещё одна сдача.

Опции: win_check (end_of_hand / immediate), target (31), next_dealer (alternate / loser / winner).
Запись ходов: карта (QH, 10♥, Д♥); ход тузом пик: AS=S (пика) или AS=H (козырь)."""

AS = 12  # card id of the ace of spades, the Speculation
AS_SPADES = 52  # lead the A♠ declared a spade
AS_TRUMPS = 53  # lead the A♠ declared a trump

_SUIT = 0x1FFF
SPADES = _SUIT
HEARTS = _SUIT << 13
DIAMONDS = _SUIT << 26
CLUBS = _SUIT << 39
TRUMPS = HEARTS | (1 << AS)
# A trick's led kind: 0 spades (A♠ included), 1 trumps (hearts and the A♠), 2 diamonds, 3 clubs.
# A card's suit number is its led kind, except the A♠, whose kind is declared.
KIND_MASKS: tuple[int, ...] = (SPADES, TRUMPS, DIAMONDS, CLUBS)
KIND_NAMES = ("S", "H", "D", "C")


def _card_points(card: int) -> int:
    suit, rank = divmod(card, 13)
    if suit == 1 and rank in (0, 8, 9):
        return 5
    if suit == 3 and rank in (0, 8, 9):
        return -5
    if suit == 0 and rank in (0, 8, 9, 12):
        return 1
    if card == 30:  # 6♦
        return 1
    return 0


CARD_POINTS: tuple[int, ...] = tuple(_card_points(c) for c in range(52))


def follower_wins(lead: int, card: int) -> bool:
    """Whether the follower's ``card`` beats the led card ``lead`` (RULES.md 3.6)."""
    if lead == AS:
        return False
    if card == AS:
        return True
    ls, cs = lead // 13, card // 13
    if cs == ls:
        return card > lead
    return cs == 1  # a heart on a non-heart lead wins; any other off-suit card loses


# FOLLOWER_WINS[lead * 52 + card]: 1 when the follower's card takes the trick.
FOLLOWER_WINS: bytes = bytes(int(follower_wins(a, b)) for a in range(52) for b in range(52))

# Kinds a card belongs to, as bits: 1 spade, 2 trump, 4 diamond, 8 club.
KIND_BITS: tuple[int, ...] = (1, 2, 4, 8)
CARD_KINDS: tuple[int, ...] = tuple(3 if c == AS else KIND_BITS[c // 13] for c in range(52))


@dataclass(frozen=True)
class TwoTenJackOptions:
    """Options of Two-Ten-Jack (RULES.md 3.8)."""

    win_check: str = option("end_of_hand", choices=("end_of_hand", "immediate"),
                             doc="when the target is checked: after each hand or after each trick")
    target: int = option(31, positive_int=True, doc="match points needed to win")
    next_dealer: str = option("alternate", choices=("alternate", "loser", "winner"),
                              doc="who deals the next hand")


class TwoTenJackDeal(Deal):
    """One hand of Two-Ten-Jack: 26 tricks, the first 20 followed by drawing from the stock."""

    _hands: list[int]  # bitmask per seat
    _won: list[int]  # won-trick pile per seat (bitmask)
    _pts: list[int]  # card points won per seat
    _stock: tuple[int, ...]  # the 40 stock cards, top first
    _pos: int  # cards drawn from the stock so far
    _leader: int  # seat leading the current trick
    _lead: int  # the card led in the current trick, -1 before the lead
    _lead_code: int  # the move code of that lead (52/53 for a declared A♠)
    _kind: int  # the led kind (see KIND_MASKS)
    _tricks: int  # tricks completed
    _last: tuple[int, int, int, int, int] | None  # leader, lead code, reply, winner, points

    def _start(self, order: list[int], **context: Any) -> None:
        if context:
            raise ValueError(f"two-ten-jack: a deal takes no context, got {sorted(context)}")
        nd = 1 - self.dealer
        hands = [0, 0]
        for i in range(12):
            hands[nd if i % 2 == 0 else self.dealer] |= 1 << order[i]
        self._hands = hands
        self._won = [0, 0]
        self._pts = [0, 0]
        self._stock = tuple(order[12:])
        self._pos = 0
        self._leader = nd
        self._lead = -1
        self._lead_code = -1
        self._kind = 0
        self._tricks = 0
        self._last = None
        self._turn = nd

    # ---- the hot path

    def _legal(self) -> list[int]:
        turn = self._turn
        if turn is None:
            return []
        h = self._hands[turn]
        if self._lead < 0:
            if h >> AS & 1:
                return [*cards_of_mask(h ^ (1 << AS)), AS_SPADES, AS_TRUMPS]
            return cards_of_mask(h)
        f = h & KIND_MASKS[self._kind]
        if not f:
            f = h & TRUMPS or h
        return cards_of_mask(f)

    def _apply(self, code: int) -> None:
        turn: int = self._turn  # type: ignore[assignment]
        if self._lead < 0:
            if code >= AS_SPADES:
                card, kind = AS, code - AS_SPADES
            else:
                card, kind = code, code // 13
            self._hands[turn] &= ~(1 << card)
            self._lead = card
            self._lead_code = code
            self._kind = kind
            self._leader = turn
            self._turn = 1 - turn
            return
        lead = self._lead
        leader = self._leader
        self._hands[turn] &= ~(1 << code)
        winner = turn if FOLLOWER_WINS[lead * 52 + code] else leader
        pts = CARD_POINTS[lead] + CARD_POINTS[code]
        self._pts[winner] += pts
        self._won[winner] |= (1 << lead) | (1 << code)
        self._last = (leader, self._lead_code, code, winner, pts)
        self._lead = -1
        self._lead_code = -1
        pos = self._pos
        if pos < 40:
            self._hands[winner] |= 1 << self._stock[pos]
            self._hands[1 - winner] |= 1 << self._stock[pos + 1]
            self._pos = pos + 2
        self._tricks += 1
        if self._tricks == 26:
            self._turn = None
        else:
            self._turn = winner
            self._leader = winner

    def _points(self) -> list[int]:
        return list(self._pts)

    def _result(self) -> list[int] | None:
        return list(self._pts) if self._turn is None else None

    def _hand(self, seat: int) -> list[int]:
        return cards_of_mask(self._hands[seat])

    def _public(self, seat: int) -> dict[str, Any]:
        trick: list[dict[str, Any]] = []
        declared = None
        if self._lead >= 0:
            trick.append({"seat": self._leader, "card": format_card(self._lead)})
            if self._lead_code >= AS_SPADES:
                declared = KIND_NAMES[self._lead_code - AS_SPADES]
        last: dict[str, Any] | None = None
        if self._last is not None:
            leader, code, reply, winner, pts = self._last
            lead = AS if code >= AS_SPADES else code
            last = {
                "cards": [{"seat": leader, "card": format_card(lead)},
                          {"seat": 1 - leader, "card": format_card(reply)}],
                "declared": KIND_NAMES[code - AS_SPADES] if code >= AS_SPADES else None,
                "winner": winner,
                "points": pts,
            }
        return {
            "leader": self._leader,
            "trick": trick,
            "led": KIND_NAMES[self._kind] if self._lead >= 0 else None,
            "declared": declared,
            "last_trick": last,
            "won": [[format_card(c) for c in cards_of_mask(m)] for m in self._won],
            "tricks_won": [m.bit_count() // 2 for m in self._won],
            "tricks_played": self._tricks,
            "hand_points": list(self._pts),
            "stock": 40 - self._pos,
            "hand_sizes": [h.bit_count() for h in self._hands],
        }

    def _copy(self) -> Deal:
        d = TwoTenJackDeal.__new__(TwoTenJackDeal)
        d._hands = list(self._hands)
        d._won = list(self._won)
        d._pts = list(self._pts)
        d._stock = self._stock
        d._pos = self._pos
        d._leader = self._leader
        d._lead = self._lead
        d._lead_code = self._lead_code
        d._kind = self._kind
        d._tricks = self._tricks
        d._last = self._last
        return d


def _assign(items: list[tuple[int, int, int]], draws: int) -> list[list[int]] | None:
    """Give each card (lo, hi, card) a slot time in [lo, hi]: time 0 holds the 6 dealt cards,
    time k (1..draws) the k-th drawn card. Returns the cards per time, or None when impossible.

    Sorting by the latest allowed time and taking the earliest free time is optimal for
    matching intervals to points."""
    cap = [6] + [1] * draws
    slots: list[list[int]] = [[] for _ in range(draws + 1)]
    for lo, hi, card in sorted(items, key=lambda x: (x[1], x[0])):
        t = lo
        while t <= hi and cap[t] == 0:
            t += 1
        if t > hi:
            return None
        cap[t] -= 1
        slots[t].append(card)
    return slots


@register
class TwoTenJackGame(Game):
    """Two-Ten-Jack (RULES.md section 3)."""

    name = "two-ten-jack"
    title = {"en": "Two-Ten-Jack", "ru": "Два-десять-валет"}
    Options = TwoTenJackOptions
    min_players = 2
    max_players = 2
    DealClass = TwoTenJackDeal

    # ---- notation

    def _parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise InvalidMoveError(f"two-ten-jack: a move is text, not {type(text).__name__}")
        if "=" in text:
            left, _, right = text.partition("=")
            try:
                card = parse_card(left)
            except CardParseError:
                card = -1
            decl = right.strip().upper()
            if card == AS and decl in ("S", "♠", "♤"):
                return AS_SPADES
            if card == AS and decl in ("H", "♥", "♡"):
                return AS_TRUMPS
            raise InvalidMoveError(
                f"two-ten-jack: {text!r} is not a move; only the A♠ takes a declaration: "
                "'AS=S' (spades) or 'AS=H' (trumps); any other move is a card such as 'QH'")
        try:
            return parse_card(text)
        except CardParseError as e:
            raise InvalidMoveError(
                f"two-ten-jack: {text!r} is not a move: expected a card such as 'QH', 'TH', "
                f"'10♥' or 'Д♥', or a lead of the A♠ with its declaration, 'AS=S' or 'AS=H' "
                f"({e})") from None

    def _format(self, code: int) -> str:
        if code == AS_SPADES:
            return "AS=S"
        if code == AS_TRUMPS:
            return "AS=H"
        return format_card(code)

    def _example_move(self) -> str:
        return "QH"

    # ---- sampling worlds for search

    def sample_deal(self, view: View, rng: random.Random) -> Deal:
        """A deal consistent with ``view``: the seat's own cards where it holds them, the public
        history replayed, and the unseen cards (the opponent's hand and the stock) dealt at random.

        The opponent's past failures to follow are respected: when he could not follow a kind at
        some trick, no card of that kind he held then may be in his hand, so a card of that kind
        now in his hand must have been drawn after that trick. His hand is drawn uniformly among the
        hands for which such a draw order exists (by rejection, or, when that is slow, by a random
        feasible hand followed by random feasible swaps); the stock is shuffled uniformly."""
        seat = view.seat
        opp = 1 - seat
        dealer = view.dealer
        code_of = self.code_of
        played_at: list[dict[int, int]] = [{}, {}]
        voids: list[list[tuple[int, int]]] = [[], []]
        winners: list[int] = []
        codes: list[int] = []
        lead, kind, leader = -1, 0, 1 - dealer
        for s, text in view.history:
            code = code_of(text)
            codes.append(code)
            j = len(winners)
            if lead < 0:
                if code >= AS_SPADES:
                    lead, kind = AS, code - AS_SPADES
                else:
                    lead, kind = code, code // 13
                leader = s
                played_at[s][lead] = j
            else:
                played_at[s][code] = j
                bit = 1 << code
                if not bit & KIND_MASKS[kind]:
                    kb = KIND_BITS[kind]
                    if not bit & TRUMPS:
                        kb |= 2
                    voids[s].append((j, kb))
                winners.append(s if FOLLOWER_WINS[lead * 52 + code] else leader)
                lead = -1
        draws = min(len(winners), 20)

        def interval(s: int, card: int, when: int | None) -> tuple[int, int, int]:
            kinds = CARD_KINDS[card]
            lo = 0
            for j, kb in voids[s]:
                if kb & kinds and (when is None or j < when) and j >= lo:
                    lo = j + 1
            hi = draws if when is None else min(when, draws)
            return (lo, hi, card)

        own_hand = [int(c) for c in view.hand]
        own_items = [interval(seat, c, p) for c, p in played_at[seat].items()]
        own_items += [interval(seat, c, None) for c in own_hand]
        own_slots = _assign(own_items, draws)
        if own_slots is None:  # pragma: no cover - the real deal is always a solution
            raise ValueError("two-ten-jack: the view's own cards do not fit its history")

        known = 0
        for c in own_hand:
            known |= 1 << c
        for s in (0, 1):
            for c in played_at[s]:
                known |= 1 << c
        pool = cards_of_mask(((1 << 52) - 1) & ~known)
        h = 6 + draws - len(played_at[opp])
        base = [interval(opp, c, p) for c, p in played_at[opp].items()]
        if not voids[opp]:
            hidden = rng.sample(pool, h)
            opp_slots = _assign(base + [(0, draws, c) for c in hidden], draws)
        else:
            hidden, opp_slots = self._sample_hidden(rng, pool, h, base,
                                                    {c: interval(opp, c, None) for c in pool},
                                                    draws)
        if opp_slots is None:  # pragma: no cover - the real deal is always a solution
            raise ValueError("two-ten-jack: the view's history has no consistent deal")
        hidden_mask = 0
        for c in hidden:
            hidden_mask |= 1 << c
        stock = [c for c in pool if not hidden_mask >> c & 1]
        rng.shuffle(stock)

        order = [0] * 52
        nd = 1 - dealer
        for s, slots in ((seat, own_slots), (opp, opp_slots)):
            first = slots[0]
            rng.shuffle(first)
            start = 0 if s == nd else 1
            for i, c in enumerate(first):
                order[start + 2 * i] = c
            for k in range(1, draws + 1):
                order[12 + 2 * (k - 1) + (0 if winners[k - 1] == s else 1)] = slots[k][0]
        order[12 + 2 * draws:] = stock

        d = self.DealClass.__new__(self.DealClass)
        d._init_base(self, dealer, 0, order, True)
        d._start(order)
        for c in codes:
            d.apply_code(c)
        return d

    @staticmethod
    def _sample_hidden(rng: random.Random, pool: list[int], h: int,
                       base: list[tuple[int, int, int]], iv: dict[int, tuple[int, int, int]],
                       draws: int) -> tuple[list[int], list[list[int]] | None]:
        for _ in range(12):
            hidden = rng.sample(pool, h)
            slots = _assign(base + [iv[c] for c in hidden], draws)
            if slots is not None:
                return hidden, slots
        # The feasible hands are the bases of a transversal matroid (restricted to the played
        # cards): adding cards in random order while feasible always completes a hand, and random
        # feasible swaps then walk towards the uniform distribution over feasible hands.
        order = list(pool)
        rng.shuffle(order)
        hidden = []
        for c in order:
            if len(hidden) == h:
                break
            if _assign(base + [iv[x] for x in hidden] + [iv[c]], draws) is not None:
                hidden.append(c)
        rest = [c for c in pool if c not in hidden]
        if hidden and rest:
            for _ in range(40):
                i, k = rng.randrange(len(hidden)), rng.randrange(len(rest))
                trial = list(hidden)
                trial[i] = rest[k]
                if _assign(base + [iv[x] for x in trial], draws) is not None:
                    rest[k] = hidden[i]
                    hidden = trial
        return hidden, _assign(base + [iv[c] for c in hidden], draws)

    # ---- match rules

    def _next_dealer(self, match: Match, finished: Deal) -> int:
        # RULES.md 3.8 gives the tie rule (alternate) for `loser` only; `winner` uses it too. A tie
        # cannot actually happen: every hand distributes +5, an odd total.
        rule = self.options.next_dealer
        res = finished.result or [0, 0]
        if rule != "alternate" and res[0] != res[1]:
            low = 0 if res[0] < res[1] else 1
            return low if rule == "loser" else 1 - low
        return 1 - finished.dealer

    def _match_over(self, match: Match) -> bool:
        # RULES.md 3.7 / TTJ-3: a single highest total at or above the target wins; equal highest
        # totals play on. With win_check=immediate this runs after every move on the live scores,
        # and only the trick's winner gains, so the first to the target ends the match at once.
        scores = match.scores
        best = max(scores)
        return best >= self.options.target and scores.count(best) == 1

    def _live_scores(self, match: Match) -> list[int] | None:
        if self.options.win_check != "immediate":
            return None
        return [a + b for a, b in zip(match.finished_scores, match.deal.points)]
