"""Compact information-state keys for tabular methods (CFR, MCCFR, tabular Q-learning).

A seat's information state is its private cards and the public history. :class:`InfoKeys`
writes it as a short string, ``"<seat><hand>|<moves>|<digest>"``:

* ``<hand>``: the seat's cards, ascending card ids, one character each (``chr(48 + id)``; a card
  held twice, in the two-deck games, twice);
* ``<moves>``: every move of the deal so far, in order, as its action in the game's fixed action
  space (:mod:`cardplay.rl.actions`), one character each (``chr(48 + action)`` when the game has
  at most 200 actions, so the key stays one byte a character; ``chr(256 + action)`` otherwise);
  every seat's moves are public (a View shows them all);
* ``<digest>``: 12 characters (a 9-byte BLAKE2b digest, base64) of the seat's observation
  vector (:mod:`cardplay.rl.observations`), which covers the public state that is no move: the
  turned trump, cards dealt face up, the dealer.

Two states give a seat the same key exactly when they give it the same cards, the same moves and
the same observation (up to the digest's 72 bits). The key keeps the current cards, not the
order in which drawn cards arrived, so it is perfect recall of the public history and of the
seat's present cards (the issue's "private cards plus the public history"). The same content as
a fixed-size integer tensor (:meth:`InfoKeys.tensor`): 52 hand counts, the actions of the
history padded with -1 to the game's ``facts.max_moves`` (or cut there, in Banchok whose bound
is only a cap), and the digest as three 24-bit integers. OpenSpiel games made with
``{"infostate": "compact"}`` use these strings (:mod:`cardplay.rl.openspiel`).
"""

from __future__ import annotations

import base64
import hashlib

import numpy as np

from ..engine import Deal, Game
from .actions import action_space
from .observations import encoder

__all__ = ["InfoKeys", "info_keys"]

_CARD = [chr(48 + c) for c in range(52)]
DIGEST_BYTES = 9


class InfoKeys:
    """Compact information-state keys and tensors of one game (see the module docstring)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.space = action_space(game)
        self.encoder = encoder(game)
        self.base = 48 if self.space.size <= 200 else 256
        self.max_moves = game.facts.max_moves
        enc = self.encoder
        self.o_hand = enc.o_hand
        self.weight = enc.weight
        self.tensor_size = 52 + self.max_moves + 3
        # the action of each engine code, cached: a code's action never changes
        self._actions: dict[int, str] = {}

    def _moves(self, deal: Deal) -> str:
        actions = self._actions
        out = []
        for _, code in deal.history:
            ch = actions.get(code)
            if ch is None:
                ch = actions[code] = chr(self.base + self.space.action_of(code))
            out.append(ch)
        return "".join(out)

    def _hand_counts(self, vec: np.ndarray) -> np.ndarray:
        plane = vec[self.o_hand:self.o_hand + 52]
        return np.rint(plane / self.weight).astype(np.int32)

    def key_of(self, vec: np.ndarray, deal: Deal, seat: int, private: bool = True,
               history: bool = True) -> str:
        """The key from the seat's observation vector (already encoded) and the deal
        (``history=False``: without the moves, an observation key)."""
        if private:
            counts = self._hand_counts(vec)
            hand = "".join(_CARD[c] * int(counts[c]) for c in np.flatnonzero(counts))
        else:
            hand = ""
        digest = hashlib.blake2b(vec.tobytes(), digest_size=DIGEST_BYTES).digest()
        moves = self._moves(deal) if history else ""
        return f"{seat}{hand}|{moves}|{base64.b64encode(digest).decode()}"

    def key(self, deal: Deal, seat: int, private: bool = True) -> str:
        """The seat's key in the deal (``private=False``: without its cards, the public key)."""
        vec = self.encoder.encode_deal(deal, seat)
        if not private:
            vec = vec.copy()
            vec[self.o_hand:self.o_hand + 52] = 0.0
        return self.key_of(vec, deal, seat, private)

    def tensor(self, deal: Deal, seat: int) -> np.ndarray:
        """The same information as a fixed-size int32 vector of :attr:`tensor_size` entries."""
        vec = self.encoder.encode_deal(deal, seat)
        out = np.full(self.tensor_size, -1, np.int32)
        out[:52] = self._hand_counts(vec)
        acts = [self.space.action_of(code) for _, code in deal.history[:self.max_moves]]
        out[52:52 + len(acts)] = acts
        digest = hashlib.blake2b(vec.tobytes(), digest_size=DIGEST_BYTES).digest()
        out[-3:] = [int.from_bytes(digest[i:i + 3], "big") for i in (0, 3, 6)]
        return out


def info_keys(game: Game) -> InfoKeys:
    """The keys of a loaded game (shared per game and options)."""
    keys = _CACHE.get(game)
    if keys is None:
        keys = _CACHE[game] = InfoKeys(game)
    return keys


_CACHE: dict[Game, InfoKeys] = {}
