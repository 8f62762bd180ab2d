"""Why a move is refused, in words: a declared :class:`~cardplay.declaration.Refusal` (a whole
sentence naming the rule) with the cards, suit and numbers that fill it.

``Deal.why_illegal`` answers one of these for any move the seat to act may not make; the
server's error frame and the browser's message on a click, the terminal table and the command
line all show its :meth:`Reason.message`, so every front-end says the same rule in the reader's
language. The reasons every game shares are here (``COMMON``); a game declares its own in its
declaration's ``refusals``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import SUIT_CHARS, SUIT_SYMBOLS
from ..declaration import Refusal
from ..i18n import CLI, LANGS, Text, translate

__all__ = ["COMMON", "NOT_HELD", "NOT_NOW", "NOT_YOUR_TURN", "OVER", "Reason"]

OVER = Refusal("over", Text("The deal is over: no move can be played."))
NOT_YOUR_TURN = Refusal("not_your_turn", Text("It is not your turn: wait for your turn."))
NOT_HELD = Refusal("not_held", Text("You do not hold {cards}: play a card from your hand."))
# The fallback of a game that names no rule for a move (none of the built-in games uses it
# for a move that fits their notation: tests/test_illegal_reasons.py checks they never do).
NOT_NOW = Refusal("not_now", Text("This move is not allowed now by the rules of the game."))
COMMON: tuple[Refusal, ...] = (OVER, NOT_YOUR_TURN, NOT_HELD, NOT_NOW)

_CARD = re.compile(r"([2-9TJQKA])([SHDC])")


def _card(card: str, lang: str) -> str:
    """A canonical card as the table writes it (``10♥``; the language's court letters)."""
    m = _CARD.fullmatch(card)
    if m is None:
        return card
    rank = m.group(1)
    shown = translate(f"rank_short_{rank}", lang, CLI) if rank in "TJQKA" else rank
    return shown + SUIT_SYMBOLS[SUIT_CHARS.index(m.group(2))]


def _param(name: str, value: Any, lang: str) -> str:
    if name in ("card", "cards", "lead"):
        items = value.split() if isinstance(value, str) else list(value)
        return " ".join(_card(c, lang) for c in items)
    if name == "suit" and isinstance(value, str) and value in SUIT_CHARS:
        return SUIT_SYMBOLS[SUIT_CHARS.index(value)]
    return str(value)


@dataclass(frozen=True)
class Reason:
    """A refusal with what fills its placeholders: ``card``, ``cards`` and ``lead`` are canonical
    cards (a list or a space-separated text), ``suit`` a suit letter, anything else a number."""

    refusal: Refusal
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.refusal.name

    def message(self, lang: str = "en") -> str:
        shown = {k: _param(k, v, lang) for k, v in self.params.items()}
        return self.refusal.text(lang).format(**shown)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the rule's name and its sentence in every language (what the server
        sends, so that a browser says it without a catalogue of its own)."""
        return {"name": self.name, "text": {lang: self.message(lang) for lang in LANGS}}
