"""Polish Banchok («Польский банчок»): a rotating bank, two decks, 2 to 10 players.

Rules (RULES.md section 5). Two full decks (104 cards) are shuffled together; a card of the same
suit and rank exists twice. The banker puts ``bank_stake`` chips into the bank. Each round he deals
3 cards, one at a time, to every punter clockwise from his left (he gets none). Then each punter in
turn looks at his cards and stakes between ``min(5, bank)`` and ``min(bank, his chips)`` chips; he
cannot pass. The banker turns the top card of the deck (nobody, not even the banker, knows it
beforehand). The punter wins when he holds a card **of the turned card's suit and at least as high**
(his highest card of that suit decides; an equal card wins): the bank pays him his stake. Otherwise
he pays his stake into the bank. His cards are then shown. The bank ends at once when it has
tripled (bank >= 3 x bank_stake) or is broken (0), or when no punter can stake; the banker takes
the bank back. After a full round the round's used cards (turned cards and punters' cards) are
shuffled and put under the deck, and the next round deals from the top without a reshuffle.
Ace is high (``ace_low=True``: ace is the lowest rank). Suits are never compared.

A punter who cannot cover the minimum stake is out for the rest of the match and is dealt no more
cards (if that is discovered only at his turn, because the bank grew from below 5, he throws his
cards in face up). One deal is one bank; its ``points`` and ``result`` are each seat's net chip
change (the banker's counts the bank). A standalone deal starts everyone at ``start_chips``.

Match: the first banker is the player who draws the lowest card (ties draw again); the bank then
passes left, skipping players who cannot bank (out, or fewer chips than ``bank_stake``); nobody
banks twice in a row. The match ends after ``banks_per_player`` full rotations (a skipped banking
turn counts) or when fewer than two players hold the minimum stake; the highest net score wins.

Options: players (2..10, default 3), start_chips (1000), bank_stake (100), banks_per_player (1),
ace_low (False).

Notation and move codes (the fixed action space): the only move is ``stake N`` (N a positive whole
number without sign or leading zeros, keyword case-insensitive), code ``52 + N``. Codes 0..52 are
unused: no move names a card.

The view's ``public`` part holds the banker, the bank, everyone's chips, who is out, this round's
punters and settlements (stake, turned card, the punter's shown cards, won) and those of the
previous round, the legal stake range,
the deck size and ``deck_parts``: the deck as it stood when the round began, top first, as parts
whose order is unknown to everyone: what is left of the bank's opening shuffle (``cards`` null: the
cards of the 104 not in the other parts) and then each earlier round's used cards, put under the
deck. With it a seat can compute the exact chance of the next card.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from typing import Any

from ..cards import format_card, parse_card
from ..engine import (
    Deal,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    OptionError,
    View,
    derive_seed,
    option,
    register,
)

__all__ = [
    "MIN_STAKE",
    "RULES_RU",
    "STAKE_BASE",
    "Banchok",
    "BanchokDeal",
    "DeckKnowledge",
    "deck_knowledge",
]

RULES_RU = """«Польский банчок»: банкомёт держит банк, две колоды (104 карты), 2–10 игроков.
Банкомёт кладёт в банк bank_stake фишек и сдаёт каждому понтёру по три карты, по одной,
начиная слева (себе не сдаёт). Понтёр смотрит карты и ставит от min(5, банк) до
min(банк, свои фишки); пасовать нельзя. Банкомёт открывает верхнюю карту колоды (её не знает
никто, даже он). Понтёр выигрывает, если у него есть карта той же масти не ниже открытой
(равная карта — в пользу понтёра): банк платит ему ставку; иначе ставка идёт в банк. Банк
кончается, как только утроится (≥ 3 × bank_stake) или сорвётся (0), либо когда ставить некому;
банкомёт забирает банк, и колода переходит к соседу слева. После круга использованные карты
тасуют и кладут под колоду, и сдача продолжается без перетасовки. Туз старший (ace_low:
младший). Кто не может поставить минимум, выбывает. Матч: первым банк держит вытянувший
младшую карту; банк идёт налево, пропуская тех, у кого меньше bank_stake; никто не держит банк
два раза подряд; banks_per_player кругов. Ход: stake N (например, stake 25)."""

STAKE_BASE = 52
MIN_STAKE = 5
_STAKE_RE = re.compile(r"stake\s+([1-9][0-9]*)", re.IGNORECASE | re.ASCII)

# One settlement of a punter: (seat, stake, turned card, his cards in dealt order, won).
# A punter found out at his turn has stake 0, turned -1 and won -1 (he threw his cards in).
Entry = tuple[int, int, int, tuple[int, ...], int]


@dataclass(frozen=True)
class BanchokOptions:
    players: int = option(3, int_range=(2, 10), doc="players, the banker included")
    start_chips: int = option(1000, int_range=(1, 100_000), doc="chips each player starts with")
    bank_stake: int = option(100, int_range=(1, 1000), doc="what the banker puts in to open a bank")
    banks_per_player: int = option(1, int_range=(1, 20), doc="rotations of the bank in a match")
    ace_low: bool = option(False, (False, True), doc="ace ranks lowest (Hoyle's Polish Bank)")


def _rank_values(ace_low: bool) -> tuple[int, ...]:
    """Strength of each card within its suit (0 lowest)."""
    if ace_low:
        return tuple((c % 13 + 1) % 13 for c in range(52))
    return tuple(c % 13 for c in range(52))


def punter_wins(hand: tuple[int, ...] | list[int], turned: int,
                rank_values: tuple[int, ...]) -> bool:
    """True when ``hand`` holds a card of the turned card's suit at least as high (RULES 5.4)."""
    suit = turned // 13
    r = rank_values[turned]
    return any(x // 13 == suit and rank_values[x] >= r for x in hand)


@register
class Banchok(Game):
    """Polish Banchok: one deal is one bank; a match passes the bank round the table."""

    name = "banchok"
    title = {"en": "Polish Banchok", "ru": "Польский банчок"}
    Options = BanchokOptions
    deck_size = 104
    min_players = 2
    max_players = 10
    # Used cards go back under the deck in an order nobody saw, so sampled positions are built
    # directly rather than from a deck order that would replay.
    sampled_deals_replay = False
    options: BanchokOptions
    rank_values: tuple[int, ...]

    def _setup(self) -> None:
        object.__setattr__(self, "rank_values", _rank_values(self.options.ace_low))

    def _validate_options(self, opts: Any, given: Any) -> None:
        if opts.bank_stake > opts.start_chips:
            raise OptionError(
                f"banchok: bank_stake={opts.bank_stake} is more than start_chips="
                f"{opts.start_chips}, so nobody could open a bank; valid: bank_stake from 1 to "
                f"start_chips")

    def _deck_cards(self) -> list[int]:
        return [c for c in range(52) for _ in range(2)]

    # ---- notation

    def _parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise InvalidMoveError(f"banchok: a move is text, not {type(text).__name__}")
        m = _STAKE_RE.fullmatch(text.strip())
        if m is None:
            raise InvalidMoveError(
                f"banchok: {text!r} is not a move: the only move is 'stake N', N a positive "
                f"whole number written without sign or leading zeros (such as 'stake 25')")
        digits = m.group(1)
        if len(digits) > 30:  # no bank can hold it (and int() refuses thousands of digits)
            raise IllegalMoveError(f"banchok: a stake of {digits[:12]}... chips is more than any "
                                   f"bank holds")
        return STAKE_BASE + int(digits)

    def _format(self, code: int) -> str:
        if code <= STAKE_BASE:
            raise InvalidMoveError(f"banchok: {code} is not a move code (stakes are 53 and up)")
        return f"stake {code - STAKE_BASE}"

    def _example_move(self) -> str:
        return "stake 25"

    # ---- match rules

    def _first_dealer(self, rng: random.Random) -> int:
        # Everyone draws a card from the shuffled double deck; the lowest rank banks; the tied
        # players draw again (RULES 5.4). Suits are never compared.
        rv = self.rank_values
        cand = list(range(self.players))
        while True:
            deck = self._deck_cards()
            rng.shuffle(deck)
            draws = [rv[deck[i]] for i in range(len(cand))]
            low = min(draws)
            cand = [s for s, r in zip(cand, draws) if r == low]
            if len(cand) == 1:
                return cand[0]

    def _can_play(self, chips: int, out: bool) -> bool:
        # "Can still play" = holds the minimum stake of a fresh bank (RULES 5.6).
        return not out and chips >= min(MIN_STAKE, self.options.bank_stake)

    def _next_banker(self, match: Match) -> int | None:
        """The next banker after the last finished bank, or None when the match is over."""
        last = match.deals[-1]
        assert isinstance(last, BanchokDeal)
        n = self.players
        chips, out = last._chips, last._out
        if sum(1 for s in range(n) if self._can_play(chips[s], out[s])) < 2:
            return None
        # Banking turns used so far: the first bank, then every seat the bank passed to
        # (a skipped turn counts toward the rotations, RULES 5.6).
        turns = 1
        for a, b in itertools.pairwise(match.deals):
            turns += (b.dealer - a.dealer) % n
        limit = self.options.banks_per_player * n
        for i in range(1, n):  # never the same banker twice in a row
            if turns + i > limit:
                return None
            s = (last.dealer + i) % n
            if not out[s] and chips[s] >= self.options.bank_stake:
                return s
        return None  # nobody else can open a bank: the session ends (not in the rules)

    def _next_dealer(self, match: Match, finished: Deal) -> int:
        nxt = self._next_banker(match)
        assert nxt is not None
        return nxt

    def _match_over(self, match: Match) -> bool:
        return self._next_banker(match) is None

    def _deal_context(self, match: Match) -> dict[str, Any]:
        if not match.deals:
            return {}
        last = match.deals[-1]
        assert isinstance(last, BanchokDeal)
        return {"chips": list(last._chips),
                "out": [s for s in range(self.players) if last._out[s]]}

    # ---- determinization

    def sample_deal(self, view: View, rng: random.Random) -> BanchokDeal:
        """A position consistent with ``view``: the other unsettled punters' cards and the deck
        are dealt at random from what each part of the deck can still hold (``deck_parts``).

        The sample is a position for search, not a replay: its ``record()`` and ``deck`` do not
        describe how it arose (the earlier reshuffles under the deck are unknown to the seat)."""
        return _sample(self, view, rng)


class BanchokDeal(Deal):
    """One bank of Polish Banchok."""

    game: Banchok

    def _start(self, order: list[int], chips: Any = None, out: Any = None,
               **context: Any) -> None:
        g = self.game
        n = self.players
        o = g.options
        if context:
            raise ValueError(f"banchok: unknown deal context {sorted(context)}; valid: chips, out")
        ctx: dict[str, Any] = {}
        if chips is None:
            chip_list = [o.start_chips] * n
        else:
            if not isinstance(chips, (list, tuple)) or len(chips) != n or any(
                    isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in chips):
                raise ValueError(f"banchok: chips must be a list of {n} whole numbers >= 0, "
                                 f"not {chips!r}")
            chip_list = list(chips)
            ctx["chips"] = list(chip_list)
        out_flags = [False] * n
        if out is not None:
            if not isinstance(out, (list, tuple)) or any(
                    isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n for s in out):
                raise ValueError(f"banchok: out must be a list of seats 0..{n - 1}, not {out!r}")
            for s in out:
                out_flags[s] = True
            if any(out_flags):
                ctx["out"] = [s for s in range(n) if out_flags[s]]
        banker = self.dealer
        if out_flags[banker] or chip_list[banker] < o.bank_stake:
            raise ValueError(f"banchok: the banker (seat {banker}) cannot open a bank of "
                             f"{o.bank_stake} with {chip_list[banker]} chips"
                             f"{' (he is out)' if out_flags[banker] else ''}")
        self._context = ctx
        self._start_chips = list(chip_list)
        self._chips = chip_list
        self._chips[banker] -= o.bank_stake
        self._bank = o.bank_stake
        self._out = out_flags
        self._deck = list(order)
        # Sizes of the deck's parts, top first; the first is the opening shuffle's rest while
        # ``_opening`` is true, every other part is a round's used cards.
        self._parts = [len(order)]
        self._opening = True
        self._snap: tuple[tuple[int, tuple[int, ...] | None], ...] = ()
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._round = 0
        self._punters: list[int] = []
        self._idx = 0
        self._settled: list[Entry] = []
        self._prev: list[Entry] = []
        self._used: list[int] = []
        self._end = ""
        self._turn = None
        self._new_round()

    # ---- the procedure (RULES 5.4)

    def _take(self, k: int) -> list[int]:
        """Take ``k`` cards from the top of the deck."""
        got = self._deck[:k]
        del self._deck[:k]
        parts = self._parts
        while k:
            if parts[0] > k:
                parts[0] -= k
                break
            k -= parts[0]
            parts.pop(0)
            self._opening = False
        return got

    def _new_round(self) -> None:
        n = self.players
        banker = self.dealer
        lo = min(MIN_STAKE, self._bank)
        punters = []
        for i in range(1, n):
            s = (banker + i) % n
            if self._out[s]:
                continue
            if self._chips[s] < lo:
                self._out[s] = True  # cannot cover the minimum: out for the rest of the match
                continue
            punters.append(s)
        # Snapshot of the deck's parts as the round begins (public: 5.7 allows counting).
        snap: list[tuple[int, tuple[int, ...] | None]] = []
        pos = 0
        for i, size in enumerate(self._parts):
            part = None if (i == 0 and self._opening) else \
                tuple(sorted(self._deck[pos:pos + size]))
            snap.append((size, part))
            pos += size
        self._snap = tuple(snap)
        self._idx = 0
        self._settled = []
        self._used = []
        self._punters = punters
        if not punters:
            self._finish("no_punters")
            return
        self._round += 1
        cards = self._take(3 * len(punters))
        p = len(punters)
        hands = self._hands
        for j in range(3):
            for i, s in enumerate(punters):
                hands[s].append(cards[j * p + i])
        self._next_punter()

    def _next_punter(self) -> None:
        punters = self._punters
        lo = min(MIN_STAKE, self._bank)
        while self._idx < len(punters):
            s = punters[self._idx]
            if self._chips[s] >= lo:
                self._turn = s
                return
            # The bank grew past his chips since the deal: he throws his cards in face up.
            hand = self._hands[s]
            self._out[s] = True
            self._settled.append((s, 0, -1, tuple(hand), -1))
            self._used.extend(hand)
            self._hands[s] = []
            self._idx += 1
        # End of the round: the player on the banker's right shuffles the used cards and puts
        # them under the deck; the next round deals on from the top (continuous play).
        used = self._used
        random.Random(derive_seed(self.seed or 0, "banchok-used", self._round)).shuffle(used)
        self._deck.extend(used)
        self._parts.append(len(used))
        self._prev = self._settled
        self._new_round()

    def _finish(self, reason: str) -> None:
        self._chips[self.dealer] += self._bank
        self._bank = 0
        self._end = reason
        self._turn = None

    def _legal(self) -> list[int]:
        s = self._turn
        if s is None:
            return []
        bank = self._bank
        lo = MIN_STAKE if bank > MIN_STAKE else bank
        hi = min(bank, self._chips[s])
        return list(range(STAKE_BASE + lo, STAKE_BASE + hi + 1))

    def _apply(self, code: int) -> None:
        s = self._turn
        assert s is not None
        stake = code - STAKE_BASE
        hand = self._hands[s]
        turned = self._take(1)[0]
        if punter_wins(hand, turned, self.game.rank_values):
            self._bank -= stake
            self._chips[s] += stake
            won = 1
        else:
            self._bank += stake
            self._chips[s] -= stake
            won = 0
        self._settled.append((s, stake, turned, tuple(hand), won))
        self._used.append(turned)
        self._used.extend(hand)
        self._hands[s] = []
        self._idx += 1
        bank = self._bank
        if bank >= 3 * self.game.options.bank_stake:
            self._finish("tripled")
        elif bank == 0:
            self._finish("broken")
        else:
            self._next_punter()

    # ---- outcome and views

    def _points(self) -> list[int]:
        pts = [c - s for c, s in zip(self._chips, self._start_chips)]
        pts[self.dealer] += self._bank
        return pts

    def _result(self) -> list[int] | None:
        return self._points()

    def _hand(self, seat: int) -> list[int]:
        return list(self._hands[seat])

    def _public_cards(self) -> set[int]:
        """Card ids that appear in the public part of every view."""
        ids: set[int] = set()
        for _, cards in self._snap:
            if cards is not None:
                ids.update(cards)
        for _, _, turned, hand, _ in self._settled + self._prev:
            ids.update(hand)
            if turned >= 0:
                ids.add(turned)
        return ids

    def _known_to(self, seat: int) -> set[int]:
        # Two decks: a card id names two copies. An id in another seat's hidden hand that also
        # names a public copy (a turned or shown card, or a card of a used part of the deck) is
        # not a leak, but the conformance leak test compares ids, not copies, so it is told about
        # these ids here. tests/games/test_banchok.py checks that views do not depend on hidden
        # hands at all (a stronger, copy-aware test).
        pub = self._public_cards()
        return {c for s in range(self.players) if s != seat for c in self._hands[s] if c in pub}

    def _public(self, seat: int) -> dict[str, Any]:
        fc = format_card
        s = self._turn
        stake_range = None
        if s is not None:
            bank = self._bank
            stake_range = [min(MIN_STAKE, bank), min(bank, self._chips[s])]
        return {
            "banker": self.dealer,
            "bank": self._bank,
            "bank_stake": self.game.options.bank_stake,
            "target": 3 * self.game.options.bank_stake,
            "chips": list(self._chips),
            "out": [i for i in range(self.players) if self._out[i]],
            "round": self._round,
            "punters": list(self._punters),
            "settled": [_entry(e) for e in self._settled],
            "previous": [_entry(e) for e in self._prev],
            "stake_range": stake_range,
            "deck_size": len(self._deck),
            "deck_parts": [
                {"size": size, "cards": None if cards is None else [fc(c) for c in cards]}
                for size, cards in self._snap
            ],
            "end": self._end or None,
        }

    def _copy(self) -> BanchokDeal:
        d = BanchokDeal.__new__(BanchokDeal)
        d._start_chips = self._start_chips
        d._chips = self._chips[:]
        d._bank = self._bank
        d._out = self._out[:]
        d._deck = self._deck[:]
        d._parts = self._parts[:]
        d._opening = self._opening
        d._snap = self._snap
        d._hands = [h[:] for h in self._hands]
        d._round = self._round
        d._punters = self._punters
        d._idx = self._idx
        d._settled = self._settled[:]
        d._prev = self._prev
        d._used = self._used[:]
        d._end = self._end
        return d

    # ---- helpers for tests and tools (not part of the view)

    @property
    def bank(self) -> int:
        return self._bank

    @property
    def chips(self) -> list[int]:
        return list(self._chips)


Banchok.DealClass = BanchokDeal


def _entry(e: Entry) -> dict[str, Any]:
    fc = format_card
    return {"seat": e[0], "stake": e[1] or None, "turned": fc(e[2]) if e[2] >= 0 else None,
            "cards": [fc(c) for c in e[3]], "won": None if e[4] < 0 else bool(e[4])}


def _entries(items: Any) -> list[Entry]:
    out: list[Entry] = []
    for e in items:
        turned = parse_card(e["turned"]) if e["turned"] is not None else -1
        won = -1 if e["won"] is None else int(bool(e["won"]))
        out.append((int(e["seat"]), int(e["stake"] or 0), turned,
                    tuple(parse_card(str(c)) for c in e["cards"]), won))
    return out


# ------------------------------------------------------------------------------------------------
# What a seat knows of the deck, and determinization


@dataclass
class _Part:
    counts: list[int]                 # the part's cards not known to have left it (52 counts)
    left: int                         # cards of the part still in the deck
    unknown: list[tuple[int, int]]    # (seat, slot) of hidden hand cards dealt from this part


@dataclass
class DeckKnowledge:
    """What one seat knows about the deck now (exact, from its view).

    ``parts`` follow the view's ``deck_parts``, top first. For each part, ``counts[c]`` copies of
    card ``c`` are either still in the part (``left`` cards, in unknown order) or in the hidden
    hands dealt from it this round (``unknown`` slots); the two are exchangeable, so the next card
    is ``c`` with probability ``counts[c] / sum(counts)`` of the first part with cards left.
    """

    parts: list[_Part]

    def next_card_counts(self) -> list[int]:
        """Copies of each card that the next turned card may be (proportional weights)."""
        for p in self.parts:
            if p.left:
                return list(p.counts)
        return [0] * 52


def _parse_cards(items: Any) -> list[int]:
    return [parse_card(str(c)) for c in items]


def deck_knowledge(view: View) -> DeckKnowledge:
    """Rebuild the deck parts of ``view`` and take out every card the seat knows was drawn."""
    pub = view.public
    parts: list[_Part] = []
    in_parts = [0] * 52
    for part in pub["deck_parts"]:
        counts = [0] * 52
        if part["cards"] is not None:
            for c in _parse_cards(part["cards"]):
                counts[c] += 1
                in_parts[c] += 1
        parts.append(_Part(counts, int(part["size"]), []))
    for part, raw in zip(parts, pub["deck_parts"]):
        if raw["cards"] is None:  # the opening shuffle's rest: all other cards of the 104
            part.counts = [2 - k for k in in_parts]
    punters = list(pub["punters"])
    settled = list(pub["settled"])
    shown = {int(e["seat"]): _parse_cards(e["cards"]) for e in settled}
    own = [int(c) for c in view.hand]
    # This round's draws in deck order: 3 cards to each punter one at a time, then one turned
    # card per settlement. None marks a hidden card (another unsettled punter's).
    draws: list[tuple[int | None, tuple[int, int]]] = []
    for j in range(3):
        for s in punters:
            if s in shown:
                draws.append((shown[s][j], (s, j)))
            elif s == view.seat and own:
                draws.append((own[j], (s, j)))
            else:
                draws.append((None, (s, j)))
    for e in settled:
        if e["turned"] is not None:
            draws.append((parse_card(e["turned"]), (-1, -1)))
    i = 0
    for card, slot in draws:
        while i < len(parts) and parts[i].left == 0:
            i += 1
        if i >= len(parts):
            raise ValueError("banchok: the view's deck parts are too small for its draws")
        part = parts[i]
        part.left -= 1
        if card is None:
            part.unknown.append(slot)
        else:
            part.counts[card] -= 1
            if part.counts[card] < 0:
                raise ValueError("banchok: the view's cards do not fit its deck parts")
    return DeckKnowledge(parts)


def _sample(game: Banchok, view: View, rng: random.Random) -> BanchokDeal:
    if view.game != game.name or view.players != game.players:
        raise ValueError("banchok: the view is not of this game")
    pub = view.public
    n = view.players
    know = deck_knowledge(view)
    hands: list[list[int]] = [[] for _ in range(n)]
    slots: dict[tuple[int, int], int] = {}
    deck: list[int] = []
    sizes: list[int] = []
    for part in know.parts:
        pool = [c for c in range(52) for _ in range(part.counts[c])]
        if len(pool) != part.left + len(part.unknown):
            raise ValueError("banchok: the view's cards do not fit its deck parts")
        rng.shuffle(pool)
        for slot in part.unknown:
            slots[slot] = pool.pop()
        deck.extend(pool)
        if pool:
            sizes.append(len(pool))
    settled_seats = {int(e["seat"]) for e in pub["settled"]}
    own = [int(c) for c in view.hand]
    end = pub["end"]
    for s in pub["punters"]:
        if s in settled_seats:
            continue
        if s == view.seat and own:
            hands[s] = own
        elif (s, 0) in slots:
            hands[s] = [slots[(s, j)] for j in range(3)]
    settled = _entries(pub["settled"])
    used: list[int] = []
    for _, _, turned, cards, _ in settled:
        if turned >= 0:
            used.append(turned)
        used.extend(cards)
    snap = tuple((int(p["size"]), None if p["cards"] is None else tuple(_parse_cards(p["cards"])))
                 for p in pub["deck_parts"])
    chips = [int(c) for c in pub["chips"]]
    bank = int(pub["bank"])
    start = [c - p for c, p in zip(chips, view.points)]
    start[view.dealer] += bank
    order = [c for h in hands for c in h] + used + deck
    d = BanchokDeal.__new__(BanchokDeal)
    d._init_base(game, view.dealer, rng.getrandbits(63), order, True)
    d._start_chips = start
    d._chips = chips
    d._bank = bank
    d._out = [s in pub["out"] for s in range(n)]
    d._deck = deck
    d._parts = sizes
    first = know.parts[0] if know.parts else None
    d._opening = bool(first is not None and first.left and pub["deck_parts"][0]["cards"] is None)
    d._snap = snap
    d._hands = hands
    d._round = int(pub["round"])
    d._punters = [int(s) for s in pub["punters"]]
    d._idx = len(settled)
    d._settled = settled
    d._prev = _entries(pub["previous"])
    d._used = used
    d._end = end or ""
    d.history = [(s, game.code_of(t)) for s, t in view.history]
    d._turn = view.to_move
    if d._turn is not None and d._turn != d._punters[d._idx]:
        raise ValueError("banchok: the view's turn does not fit its settlements")
    return d
