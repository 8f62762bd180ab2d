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
the cards left in the deck (``stock``) and ``deck_parts``: the deck as it stood when the round
began, top first, as parts whose order is unknown to everyone: what is left of the bank's opening
shuffle (``cards`` null: the cards of the 104 not in the other parts) and then each earlier round's
used cards, put under the deck. With it a seat can compute the exact chance of the next card.
Once the bank is over, ``outcome`` says why: ``tripled``, ``broken`` or ``no_punters``.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine import (
    Deal,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    OptionError,
    View,
    option,
    register,
)
from .deal import MIN_STAKE, STAKE_BASE, BanchokDeal
from .declaration import DECLARATION
from .sampling import sample

if TYPE_CHECKING:
    from ...observation import Blocks, Layout

__all__ = ["RULES_RU", "Banchok", "BanchokOptions"]

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

_STAKE_RE = re.compile(r"stake\s+([1-9][0-9]*)", re.IGNORECASE | re.ASCII)


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



@register
class Banchok(Game):
    """Polish Banchok: one deal is one bank; a match passes the bank round the table."""

    name = "banchok"
    title = DECLARATION.title.to_dict()
    declaration = DECLARATION
    Options = BanchokOptions
    deck_size = 104
    min_players = 2
    max_players = 10
    # Used cards go back under the deck in an order nobody saw, so sampled positions are built
    # directly rather than from a deck order that would replay.
    sampled_deals_replay = False
    options: BanchokOptions
    rank_values: tuple[int, ...]

    def observation_blocks(self, layout: Layout) -> Blocks:
        """The game's observation blocks (:mod:`.observation`; imported when first asked for,
        so that loading the game does not build the fast path's tables)."""
        from .observation import observation_blocks

        return observation_blocks(self, layout)

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
        return sample(self, view, rng)



Banchok.DealClass = BanchokDeal
