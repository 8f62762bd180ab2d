"""What a seat knows of Polish Banchok's deck, and ``sample_deal``."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...cards import parse_card
from ...engine import View
from ..counting import LastPrepared, shuffle_fast
from .deal import BanchokDeal, Entry

if TYPE_CHECKING:
    from .game import Banchok

__all__ = ["DeckKnowledge", "deck_knowledge", "sample"]


def _entries(items: Any) -> list[Entry]:
    out: list[Entry] = []
    for e in items:
        turned = parse_card(e["turned"]) if e["turned"] is not None else -1
        won = -1 if e["won"] is None else int(bool(e["won"]))
        out.append((int(e["seat"]), int(e["stake"] or 0), turned,
                    tuple(parse_card(str(c)) for c in e["cards"]), won))
    return out


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


@dataclass
class _Prepared:
    """What sampling reads off one view, once: a search samples many worlds of one view."""

    know: DeckKnowledge
    pools: list[list[int]]            # per deck part, its possible cards (one per copy)
    settled: list[Entry]
    used: list[int]
    snap: tuple[tuple[int, tuple[int, ...] | None], ...]
    chips: list[int]
    bank: int
    start: list[int]
    own: list[int]
    unsettled: list[int]              # punters not yet settled, in order
    out: list[bool]
    opening: bool
    previous: list[Entry]
    punters: list[int]
    codes: list[tuple[int, int]]


_PREPARED: LastPrepared[_Prepared] = LastPrepared()


def _prepare(game: Banchok, view: View) -> _Prepared:
    pub = view.public
    n = view.players
    know = deck_knowledge(view)
    pools = []
    for part in know.parts:
        pool = [c for c in range(52) for _ in range(part.counts[c])]
        if len(pool) != part.left + len(part.unknown):
            raise ValueError("banchok: the view's cards do not fit its deck parts")
        pools.append(pool)
    settled_seats = {int(e["seat"]) for e in pub["settled"]}
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
    first = know.parts[0] if know.parts else None
    return _Prepared(
        know=know, pools=pools, settled=settled, used=used, snap=snap, chips=chips, bank=bank,
        start=start, own=[int(c) for c in view.hand],
        unsettled=[s for s in pub["punters"] if s not in settled_seats],
        out=[s in pub["out"] for s in range(n)],
        opening=bool(first is not None and first.left and pub["deck_parts"][0]["cards"] is None),
        previous=_entries(pub["previous"]), punters=[int(s) for s in pub["punters"]],
        codes=[(s, game.code_of(t)) for s, t in view.history])


def sample(game: Banchok, view: View, rng: random.Random) -> BanchokDeal:
    """A position consistent with ``view`` (what :meth:`Banchok.sample_deal` returns)."""
    if view.game != game.name or view.players != game.players:
        raise ValueError("banchok: the view is not of this game")
    prep = _PREPARED.get(game, view)
    if prep is None:
        prep = _prepare(game, view)
        _PREPARED.put(game, view, prep)
    n = view.players
    hands: list[list[int]] = [[] for _ in range(n)]
    slots: dict[tuple[int, int], int] = {}
    deck: list[int] = []
    sizes: list[int] = []
    rnd = rng.random
    for part, kept in zip(prep.know.parts, prep.pools, strict=True):
        pool = kept[:]
        shuffle_fast(pool, rnd)
        for slot in part.unknown:
            slots[slot] = pool.pop()
        deck.extend(pool)
        if pool:
            sizes.append(len(pool))
    own = prep.own
    for s in prep.unsettled:
        if s == view.seat and own:
            hands[s] = own[:]
        elif (s, 0) in slots:
            hands[s] = [slots[(s, j)] for j in range(3)]
    order = [c for h in hands for c in h] + prep.used + deck
    d = BanchokDeal.__new__(BanchokDeal)
    d._init_base(game, view.dealer, rng.getrandbits(63), order, True)
    d._start_chips = prep.start[:]
    d._chips = prep.chips[:]
    d._bank = prep.bank
    d._out = prep.out[:]
    d._deck = deck
    d._parts = sizes
    d._opening = prep.opening
    d._snap = prep.snap
    d._hands = hands
    d._round = int(view.public["round"])
    d._punters = prep.punters[:]
    d._idx = len(prep.settled)
    d._settled = prep.settled[:]
    d._prev = prep.previous[:]
    d._used = prep.used[:]
    d._end = view.public["outcome"] or ""
    d.history = prep.codes[:]
    d._turn = view.to_move
    if d._turn is not None and d._turn != d._punters[d._idx]:
        raise ValueError("banchok: the view's turn does not fit its settlements")
    return d
