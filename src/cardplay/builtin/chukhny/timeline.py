"""What a view says about the past of a game of Chukhny: shared by the sampler and the heuristic
bot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...cards import parse_card
from ...engine import View
from .deal import ACE_RANK, DRAW

if TYPE_CHECKING:
    from .game import Chukhny

__all__ = ["PublicTimeline", "public_timeline"]


@dataclass
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
            if clear and shown % 13 == ACE_RANK:
                pile = []
            else:
                pile.append(shown)
    return PublicTimeline(start, draw_cards, events, failed, played, known, pile)
