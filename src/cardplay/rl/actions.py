"""Fixed integer action spaces, one per game, for learning agents.

Every game gets a fixed, documented set of actions ``0 .. size - 1``: the 52 card slots first (an
action ``c < 52`` plays the card with id ``c = suit * 13 + rank``; suits S H D C, ranks 2..A),
then the game's other actions. An action maps both ways to the game's notation
(:meth:`ActionSpace.text`, :meth:`ActionSpace.action_of_text`) and to the engine's move codes in
the current position (:meth:`ActionSpace.legal`).

Each game defines its space with itself: ``game.action_space()`` (:mod:`cardplay.actions` is the
base, the identity over the engine's codes), its size and layout declared in ``game.facts``.
:func:`action_space` only shares one space per game and options. The spaces, per game:

* ``sixty-six`` (70 actions): the engine's codes; a marriage lead is ``KH=20``, then
  ``exchange`` and ``close`` (:mod:`cardplay.builtin.sixty_six.actions`).
* ``two-ten-jack`` (54): the engine's codes; 52 ``AS=S``, 53 ``AS=H``
  (:mod:`cardplay.builtin.two_ten_jack.actions`).
* ``maltese-twenty`` (52): the engine's codes; a card is the only move.
* ``chukhny`` (54): the engine's codes. 0..51 play or lead a card; 52 ``draw``; 53 ``take``.
* ``banchok`` (``52 + 3 * bank_stake``; 352 by default): the engine's codes. ``52 + N`` is
  ``stake N``; 0..52 are never legal (no move names a card, and a stake is at least 1). A stake is
  at most the bank, and a bank ends as soon as it reaches ``3 * bank_stake``, so every stake fits.
* ``macao`` (``54 + max_stake``; 104 by default): 52 ``buy``, 53 ``stand``, ``53 + N``
  ``stake N`` (:mod:`cardplay.builtin.macao.actions`).
* ``twenty`` (54 + the rank multisets; 6,177 with ``pair_counts_ten=False``, 7,185 with it):
  52 ``draw``, 53 ``pass``, then one action per multiset of ranks that can ever be played, a play
  mapped to its canonical legal card set (:mod:`cardplay.builtin.twenty.actions`).

Only the standard library is used here; the adapters add numpy masks on top.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..actions import ActionSpace
from ..engine import Game

__all__ = ["ActionSpace", "action_space", "describe"]


def action_space(game: Game) -> ActionSpace:
    """The fixed action space of a loaded game (shared per game and options)."""
    space = _CACHE.get(game)
    if space is None:
        space = _CACHE[game] = game.action_space()
    return space


# Games hash by name and options, so equal games share one space (Twenty's costs a table build).
_CACHE: dict[Game, ActionSpace] = {}


def describe(game: Game, actions: Iterable[int] | None = None) -> list[str]:
    """``"action: text"`` lines (all actions, or the given ones), for documentation."""
    space = action_space(game)
    return [f"{a}: {space.text(a)}" for a in (actions if actions is not None
                                              else range(space.size))]
