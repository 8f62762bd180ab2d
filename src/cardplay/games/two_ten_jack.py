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

import math
import random
from dataclasses import dataclass
from typing import Any

from ..cards import CardParseError, cards_of_mask, format_card, parse_card
from ..engine import Deal, Game, InvalidMoveError, Match, View, option, register
from ._sampling import LastPrepared

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
    target: int = option(31, int_range=(1, 1000), doc="match points needed to win")
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


class _DrawTimes:
    """When each card of one seat reached its hand, counted and sampled exactly.

    Time 0 is the deal (six cards), time k (1..draws) the card drawn after the k-th trick; tricks
    are numbered from 0, so the cards a seat holds at trick j arrived at times 0..j. A card may
    arrive at any time in its window [lo, hi]: one played at trick j has hi = min(j, draws), one
    still held hi = draws; a seat that failed to follow at trick j held no card of the kinds it
    owed, so a card of those kinds that it held later has lo = j + 1 (the last such trick before
    the card was played counts). Unknown cards (the opponent's hand) are chosen from a pool, each
    pool card with its own lo.

    Every assignment of times is a distinct deck order, and all are equally likely, so a hand is
    as likely as the number of assignments that complete it. Counting goes backwards from the
    last draw: at time t the cards whose window has opened (hi >= t) and that are not yet placed
    can take slot t if their lo <= t; cards with the same lo are interchangeable by then, so the
    state is one count per distinct lo, which keeps the table small.
    """

    __slots__ = ("compositions", "draws", "join_counts", "joins", "los", "memo", "pool_groups",
                 "steps", "total")

    def __init__(self, draws: int, known: list[tuple[int, int, int]],
                 pool: list[tuple[int, int]], hand: int) -> None:
        los = sorted({lo for lo, _, _ in known} | {lo for lo, _ in pool})
        group = {lo: g for g, lo in enumerate(los)}
        self.draws = draws
        self.los = los
        self.joins: list[list[tuple[int, int]]] = [[] for _ in range(draws + 1)]
        for lo, hi, card in known:
            self.joins[hi].append((group[lo], card))
        counts = [[0] * len(los) for _ in range(draws + 1)]
        for t, joined in enumerate(self.joins):
            for g, _ in joined:
                counts[t][g] += 1
        self.join_counts = [tuple(c) for c in counts]
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.steps: dict[tuple[int, tuple[int, ...]],
                         tuple[int, list[tuple[int, int, int, tuple[int, ...]]]]] = {}
        self.pool_groups: list[list[int]] = [[] for _ in los]
        for lo, card in pool:
            self.pool_groups[group[lo]].append(card)
        # Every way to split the unknown hand over the lo groups, weighted by the number of
        # (hand, times) worlds it stands for.
        self.compositions: list[tuple[int, tuple[int, ...]]] = []
        self.total = 0
        sizes = [len(p) for p in self.pool_groups]

        def split(g: int, left: int, parts: list[int], ways: int) -> None:
            if g == len(sizes):
                if left == 0:
                    n = ways * self.count(draws, tuple(parts))
                    if n:
                        self.compositions.append((n, tuple(parts)))
                        self.total += n
                return
            for k in range(min(left, sizes[g]) + 1):
                parts.append(k)
                split(g + 1, left - k, parts, ways * math.comb(sizes[g], k))
                parts.pop()

        split(0, hand, [], 1)

    def count(self, t: int, state: tuple[int, ...]) -> int:
        """Ways to fill times t..0 from the unplaced cards ``state`` (per lo group, before the
        cards played at trick t join)."""
        key = (t, state)
        n = self.memo.get(key)
        if n is not None:
            return n
        s = [a + b for a, b in zip(state, self.join_counts[t], strict=True)]
        los = self.los
        n = 0
        if all(c == 0 or lo <= t for c, lo in zip(s, los, strict=True)):
            if t == 0:
                n = 1
            else:
                for g, c in enumerate(s):
                    if c and los[g] <= t:
                        s[g] = c - 1
                        n += c * self.count(t - 1, tuple(s))
                        s[g] = c
        self.memo[key] = n
        return n

    def _step(self, t: int, state: tuple[int, ...]
              ) -> tuple[int, list[tuple[int, int, int, tuple[int, ...]]]]:
        """Who can take slot t from ``state``: the total number of ways, and per lo group that
        can, (ways, group, ways per card of the group, the state left for time t - 1)."""
        s = [a + b for a, b in zip(state, self.join_counts[t], strict=True)]
        options = []
        for g, c in enumerate(s):
            if c and self.los[g] <= t:
                s[g] = c - 1
                rest = tuple(s)
                per_card = self.count(t - 1, rest)
                if per_card:
                    options.append((c * per_card, g, per_card, rest))
                s[g] = c
        entry = self.steps[(t, state)] = (self.count(t, state), options)
        return entry

    def sample(self, rng: random.Random) -> tuple[list[int], list[list[int]]]:
        """A uniformly drawn world: the unknown hand, and the cards that arrived at each time."""
        r = rng.randrange(self.total)
        parts = self.compositions[-1][1]
        for n, candidate in self.compositions:
            if r < n:
                parts = candidate
                break
            r -= n
        avail: list[list[int]] = [[] for _ in self.los]
        hand: list[int] = []
        for g, k in enumerate(parts):
            if k:
                chosen = rng.sample(self.pool_groups[g], k)
                hand += chosen
                avail[g] += chosen
        times: list[list[int]] = [[] for _ in range(self.draws + 1)]
        state = parts
        steps = self.steps
        for t in range(self.draws, 0, -1):
            for g, card in self.joins[t]:
                avail[g].append(card)
            entry = steps.get((t, state)) or self._step(t, state)
            options = entry[1]
            if len(options) == 1:  # one group can take the slot: any of its cards, alike
                _, g, _, state = options[0]
                pick = avail[g]
                i = rng.randrange(len(pick))
            else:
                r = rng.randrange(entry[0])
                for w, g, per_card, rest in options:
                    if r < w:
                        pick = avail[g]
                        i = r // per_card
                        state = rest
                        break
                    r -= w
            pick[i], pick[-1] = pick[-1], pick[i]
            times[t].append(pick.pop())
        for g, card in self.joins[0]:
            avail[g].append(card)
        times[0] = [c for a in avail for c in a]
        return hand, times


class _SamplingPlan:
    """What sampling needs from one view, computed once."""

    __slots__ = ("codes", "draws", "opp", "own", "pool", "winners")

    codes: list[int]
    draws: int
    opp: _DrawTimes
    own: _DrawTimes
    pool: list[int]
    winners: list[int]


_PREPARED: LastPrepared[_SamplingPlan] = LastPrepared()


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
        """A deal consistent with ``view``, drawn uniformly among the deck orders that are.

        A deck order fits the view when it deals the seat's own cards, replays the public history
        legally and leaves the view unchanged. What limits it: a follower who did not follow the
        led kind held no card of that kind at that trick (nor a trump, if he did not trump), so
        any such card he holds or played later was drawn after that trick. Each seat's cards get
        arrival times (deal or k-th draw) drawn uniformly among those the voids allow; the
        opponent's hand is chosen with probability proportional to the number of such
        arrival-time assignments it admits (not uniformly among feasible hands: a hand that needs
        a card drawn at one exact moment stands for fewer deals); the six dealt cards of each
        seat and the undrawn stock are shuffled. The work that depends only on the view is done
        once per view and reused, since a search samples many worlds from one view."""
        prep = _PREPARED.get(self, view)
        if prep is None:
            prep = self._prepare_sampling(view)
            _PREPARED.put(self, view, prep)
        seat = view.seat
        _, own_times = prep.own.sample(rng)
        hidden, opp_times = prep.opp.sample(rng)
        hidden_mask = 0
        for c in hidden:
            hidden_mask |= 1 << c
        stock = [c for c in prep.pool if not hidden_mask >> c & 1]
        rng.shuffle(stock)
        order = [0] * 52
        nd = 1 - view.dealer
        for s, times in ((seat, own_times), (1 - seat, opp_times)):
            first = times[0]
            rng.shuffle(first)
            start = 0 if s == nd else 1
            for i, c in enumerate(first):
                order[start + 2 * i] = c
            for k in range(1, prep.draws + 1):
                order[12 + 2 * (k - 1) + (0 if prep.winners[k - 1] == s else 1)] = times[k][0]
        order[12 + 2 * prep.draws:] = stock
        d = self.DealClass.__new__(self.DealClass)
        d._init_base(self, view.dealer, 0, order, True)
        d._start(order)
        for c in prep.codes:
            d.apply_code(c)
        return d

    def _prepare_sampling(self, view: View) -> _SamplingPlan:
        """Read the public history once: who played what at which trick, the voids each seat
        showed, the trick winners (who draws first), and from them the arrival-time tables."""
        seat = view.seat
        opp = 1 - seat
        code_of = self.code_of
        played_at: list[dict[int, int]] = [{}, {}]
        voids: list[list[tuple[int, int]]] = [[], []]
        winners: list[int] = []
        codes: list[int] = []
        lead, kind, leader = -1, 0, 1 - view.dealer
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

        def earliest(s: int, card: int, when: int | None) -> int:
            # the draw after the last trick before ``when`` at which s was void in its kinds
            kinds = CARD_KINDS[card]
            lo = 0
            for j, kb in voids[s]:
                if kb & kinds and (when is None or j < when):
                    lo = max(lo, j + 1)
            return lo

        def window(s: int, card: int, when: int | None) -> tuple[int, int, int]:
            return (earliest(s, card, when), draws if when is None else min(when, draws), card)

        own_hand = [int(c) for c in view.hand]
        known = 0
        for c in own_hand:
            known |= 1 << c
        for s in (0, 1):
            for c in played_at[s]:
                known |= 1 << c
        pool = cards_of_mask(((1 << 52) - 1) & ~known)
        own_known = [window(seat, c, p) for c, p in played_at[seat].items()]
        own_known += [window(seat, c, None) for c in own_hand]
        opp_known = [window(opp, c, p) for c, p in played_at[opp].items()]
        opp_pool = [(earliest(opp, c, None), c) for c in pool]
        plan = _SamplingPlan()
        plan.own = _DrawTimes(draws, own_known, [], 0)
        plan.opp = _DrawTimes(draws, opp_known, opp_pool, 6 + draws - len(played_at[opp]))
        if not plan.own.total or not plan.opp.total:
            raise ValueError("two-ten-jack: no deal fits this view's cards and history")
        plan.pool = pool
        plan.codes = codes
        plan.draws = draws
        plan.winners = winners
        return plan

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
