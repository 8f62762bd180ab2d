"""Sampling a deal of Sixty-Six consistent with a view (``SixtySix.sample_deal``), for the
searchers: the deck orders that fit what the seat has seen, drawn uniformly."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...cards import SUIT_MASKS, card_of, parse_card
from ...engine import View
from ..counting import LastPrepared, first_world, shuffle_fast
from .rules import CLOSE, EXCHANGE, HIGHER52, KING, MARRIAGE_BASE, QUEEN, STRENGTH52, SixtySixDeal

if TYPE_CHECKING:
    from .game import SixtySix

__all__ = ["SamplingPlan", "prepare_sampling", "sample_deal"]

_PREPARED: LastPrepared[SamplingPlan] = LastPrepared()


def sample_deal(game: SixtySix, view: View, rng: random.Random) -> SixtySixDeal:
    """Rebuild a deck order consistent with the view, uniformly among all that are, and replay
    the public history on it.

    Each seat's cards fill its deck slots (the dealt cards, then one draw after each trick with
    drawing). A card must arrive before the first move that needs it (played, shown as a marriage
    partner, exchanged); nothing else limits when, since nobody owes a follow while a card can
    still be drawn. Cards are placed by rising deadline, each in a slot drawn uniformly among the
    free ones early enough: that choice has the same number of options whatever came before, so
    every valid placement is equally likely. The opponent's unknown cards are equally constrained
    (needed only at the end), so his hand is uniform among the unseen cards his phase-2 follows
    allow, and the undrawn talon is shuffled. What depends only on the view is computed once per
    view and reused, since a search samples many worlds from one view.
    """
    prep = _PREPARED.get(game, view)
    if prep is None:
        prep = prepare_sampling(game, view)
        _PREPARED.put(game, view, prep)
    # One sample() call for the opponent's hand: the solver's _GivenHand answers it. The other
    # draws take one float each (counting.shuffle_fast): a search samples a world per iteration.
    opp_cards = rng.sample(prep.allowed, prep.opp_unknown)
    rnd = rng.random
    taken = set(opp_cards)
    rest = [c for c in prep.pool if c not in taken]
    shuffle_fast(rest, rnd)
    order = list(prep.order_head)
    for s in (0, 1):
        positions = prep.positions[s]
        free: list[int] = []
        opened = 0
        for reach, card in prep.timed[s]:
            if reach > opened:
                free += positions[opened:reach]
                opened = reach
            i = int(rnd() * len(free))
            order[free[i]] = card
            free[i] = free[-1]
            free.pop()
        free += positions[opened:]
        late = prep.untimed[s] + opp_cards if s == prep.opp else list(prep.untimed[s])
        if len(late) != len(free):
            raise ValueError("sixty-six: the view is inconsistent (card counts do not match)")
        shuffle_fast(late, rnd)
        for pos, card in zip(free, late, strict=True):
            order[pos] = card
    order[prep.rest_start:prep.rest_start + len(rest)] = rest
    template = prep.template
    if template is None:
        deal, prep.template = first_world(game, order, prep.dealer, prep.codes,
                                          dict(prep.context), SixtySixDeal)
        return deal
    # Every world of one view differs from the first only where the view is blind: the
    # opponent's hand and the talon's order (and the deck order of the record). Everything else
    # the history made is public.
    world = template.copy()
    assert isinstance(world, SixtySixDeal)
    world._order = tuple(order)
    hand = prep.opp_known
    for c in opp_cards:
        hand |= 1 << c
    world.hands[prep.opp] = hand
    talon = order[prep.talon_start:]
    # the bottom card: the turned trump, or the nine that was exchanged for it (public)
    talon.append(template.talon[-1])
    world.talon = talon
    return world


class SamplingPlan:
    """What sampling needs from one view, computed once."""

    __slots__ = ("allowed", "codes", "context", "dealer", "opp", "opp_known", "opp_unknown",
                 "order_head", "pool", "positions", "rest_start", "talon_start", "template",
                 "timed", "untimed")

    allowed: list[int]
    codes: list[int]
    context: dict[str, Any]
    dealer: int
    opp: int
    opp_unknown: int
    order_head: list[int]
    pool: list[int]
    # per seat: the deck positions of its slots, dealt ones first, then its draws in order
    positions: list[list[int]]
    rest_start: int  # deck position of the first card still in the talon
    # per seat: (how many of its first slots come early enough, card) by rising deadline
    timed: list[list[tuple[int, int]]]
    untimed: list[list[int]]  # per seat: known cards needed only now (still in hand)
    opp_known: int  # the opponent's cards in hand that the view shows (a bitmask)
    talon_start: int  # deck position of the talon's top card when the deal began
    # the first world sampled, replayed; later worlds of the same view are copies of it with
    # the hidden parts replaced (see sample_deal)
    template: SixtySixDeal | None


def prepare_sampling(game: SixtySix, view: View) -> SamplingPlan:
    me = view.seat
    opp = 1 - me
    pub = view.public
    n = game.hand_size
    dealer = view.dealer
    turned = parse_card(pub["turned_trump"])
    trump = turned // 13
    codes = [game.code_of(t) for _, t in view.history]

    # Walk the public history: who needs which card by when, draws and the phase-2 follows.
    need: list[dict[int, int]] = [{}, {}]      # card -> earliest move index it is needed
    # per seat, each draw: (move index after which it happens, deck position of the card)
    draw_slots: list[list[tuple[int, int]]] = [[], []]
    forbidden_opp = 0
    exchange_by = -1
    exchange_nine = -1
    tpos, closed = 0, False
    talon_len = len(game.cards) - 2 * n
    lead, leader = -1, -1
    bottom_taker = -1
    for i, ((seat, _), code) in enumerate(zip(view.history, codes, strict=True)):
        if code == EXCHANGE:
            exchange_by = seat
            exchange_nine = card_of(game.exchange_rank, trump)
            need[seat].setdefault(exchange_nine, i)
            continue
        if code == CLOSE:
            closed = True
            continue
        if code >= MARRIAGE_BASE:
            k = code - MARRIAGE_BASE
            queen = (k >> 1) & 1
            card = card_of(QUEEN if queen else KING, k // 4)
            partner = card_of(KING if queen else QUEEN, k // 4)
            need[seat].setdefault(partner, i)
        else:
            card = code
        need[seat][card] = min(need[seat].get(card, i), i)
        if lead < 0:
            lead, leader = card, seat
            continue
        # A follow: what it shows of the follower in phase 2, then the trick and the draws.
        if (closed or tpos >= talon_len) and seat == opp:
            ls = lead // 13
            if card // 13 != ls:
                forbidden_opp |= SUIT_MASKS[ls]
                if card // 13 != trump:
                    forbidden_opp |= SUIT_MASKS[trump]
            elif game.options.must_head and STRENGTH52[card] < STRENGTH52[lead]:
                forbidden_opp |= HIGHER52[lead]
        if card // 13 == lead // 13:
            winner = seat if STRENGTH52[card] > STRENGTH52[lead] else leader
        elif card // 13 == trump:
            winner = seat
        else:
            winner = leader
        if not closed and tpos < talon_len:
            # winner first, then loser; the loser of the last draw takes the bottom card
            pos = 2 * n + 1 + tpos
            draw_slots[winner].append((i, pos))
            if tpos + 2 < talon_len:
                draw_slots[1 - winner].append((i, pos + 1))
            else:
                bottom_taker = 1 - winner
            tpos += 2
        lead = -1

    # The bottom card (the turned trump, or the exchanged nine) reaches its taker by the last
    # draw, and the exchanger got the turned trump by the exchange: neither needs a deck slot.
    bottom_card = exchange_nine if exchange_by >= 0 else turned
    my_hand = {int(c) for c in view.hand}
    known_opp = {parse_card(c) for c in pub["known_cards"][opp]}
    seen: set[int] = my_hand | known_opp | {turned}
    if exchange_by >= 0:
        seen.add(exchange_nine)
    for s in (0, 1):
        seen |= set(need[s])
    pool = [c for c in game.cards if c not in seen]
    end = len(codes) + 1
    hands = {me: my_hand, opp: known_opp}
    prep = SamplingPlan()
    prep.opp_unknown = pub["hand_sizes"][opp] - len(known_opp)
    prep.allowed = [c for c in pool if not forbidden_opp >> c & 1]
    if prep.opp_unknown > len(prep.allowed) or prep.opp_unknown < 0:
        raise ValueError("sixty-six: the view is inconsistent (no world fits it)")
    prep.positions = [[], []]
    prep.timed = [[], []]
    prep.untimed = [[], []]
    for s in (0, 1):
        items = dict(need[s])
        for c in hands[s]:
            items.setdefault(c, end)
        if s == exchange_by:
            items.pop(turned, None)
        if s == bottom_taker and s != exchange_by:
            items.pop(bottom_card, None)
        first = 0 if s == 1 - dealer else 1
        times = [-1] * n + [t for t, _ in draw_slots[s]]
        prep.positions[s] = [first + 2 * k for k in range(n)] + [p for _, p in draw_slots[s]]
        timed = sorted((when, c) for c, when in items.items() if when < end)
        for k, (when, c) in enumerate(timed):
            reach = sum(1 for t in times if t < when)
            if reach <= k:
                raise ValueError("sixty-six: the view is inconsistent (a card came too late)")
            prep.timed[s].append((reach, c))
        prep.untimed[s] = sorted(c for c, when in items.items() if when >= end)
        unknown = prep.opp_unknown if s == opp else 0
        if len(items) + unknown != len(times):
            raise ValueError("sixty-six: the view is inconsistent (card counts do not match)")
    prep.opp = opp
    prep.opp_known = sum(1 << c for c in known_opp)
    prep.talon_start = 2 * n + 1
    prep.template = None
    prep.pool = pool
    prep.codes = codes
    prep.dealer = dealer
    prep.rest_start = 2 * n + 1 + tpos
    head = [0] * len(game.cards)
    head[2 * n] = turned
    prep.order_head = head
    prep.context = {"stand_bonus": pub["stand_bonus"]} if pub["stand_bonus"] else {}
    return prep
