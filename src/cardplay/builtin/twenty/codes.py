"""Twenty's move codes and the card facts that the game, its deal and its sampler share.

A play is ``PLAY_BASE + (mask | T << 52)``: ``mask`` has bit ``c`` set for each card id ``c`` of
the set and ``T`` is the total declared for its Kings (``exact`` mode only); ``DRAW`` and
``PASS`` are the other two moves (see :mod:`cardplay.builtin.twenty.game`).
"""

from __future__ import annotations

__all__ = [
    "ALL_CARDS",
    "DRAW",
    "KINGS",
    "KING_RANK",
    "LAST_COUNT",
    "LEAST_COUNT",
    "PASS",
    "PLAY_BASE",
    "king_values",
    "play_code",
]

DRAW = 52
PASS = 53
PLAY_BASE = 64

ALL_CARDS = (1 << 52) - 1  # a play code's card mask is (code - PLAY_BASE) & ALL_CARDS
KING_RANK = 11
KINGS = sum(1 << (s * 13 + KING_RANK) for s in range(4))
LAST_COUNT = 20  # the last move number / count

# The least a card can count in a play (a King 1), by rank id 2..A: under at_most, a player who
# could not play at move m held only cards that count more than m.
_LEAST_BY_RANK = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 1, 1)
LEAST_COUNT = [_LEAST_BY_RANK[c % 13] for c in range(52)]  # by card id


def play_code(mask: int, kings_total: int = 0) -> int:
    """The move code of a play: a card mask plus, in ``exact`` mode, its Kings' total."""
    return PLAY_BASE + (mask | kings_total << 52)


def king_values(n_kings: int, total: int) -> list[int]:
    """The canonical split of a Kings' total: the first King as high as possible (at most 20),
    leaving at least 1 for each later King."""
    out = []
    left = total
    for i in range(n_kings):
        v = min(20, left - (n_kings - 1 - i))
        out.append(v)
        left -= v
    return out
