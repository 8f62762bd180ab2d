"""Small helpers shared by the game and bot tests: card lists and deck orders, what a deal shows
(legal moves, hands, the public view) and playing moves or whole deals.

Test files import it as ``from helpers import ...``: pytest puts ``tests/`` on ``sys.path`` (the
same way ``test_eighth_game.py`` imports ``eighth_game``). The adapter tests' configurations stay
in ``tests/rl/helpers.py``."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from cardplay.bots import Bot
from cardplay.engine import Deal, Match, Move

RANKS = "23456789TJQKA"
SUITS = "SHDC"
# The 52 card texts in card-id order (spades 2..A, then hearts, diamonds, clubs).
ALL = [r + s for s in SUITS for r in RANKS]
# The 36-card deck: sixes up, in the same order.
ALL36 = [c for c in ALL if RANKS.index(c[0]) >= 4]
T = TypeVar("T", Deal, Match)

# A card text standing alone (not part of a longer word or number).
CARD_RE = re.compile(r"(?<![0-9A-Z])([2-9TJQKA][SHDC])(?![A-Z0-9])")


# ------------------------------------------------------------------------------------------------
# Card sets and deck orders


def cs(text: str) -> set[str]:
    """The set of space-separated words (cards or moves) of ``text``."""
    return set(text.split())


def stakes(lo: int, hi: int) -> set[str]:
    """The moves ``stake lo`` .. ``stake hi``."""
    return {f"stake {n}" for n in range(lo, hi + 1)}


def deck_with(top: str | Sequence[str], deck_size: int = 52) -> list[str]:
    """``top`` (a text or a list, top first), then every other card of the 52-card deck (or,
    with ``deck_size`` 36, the 36-card deck) in card-id order."""
    used = top.split() if isinstance(top, str) else list(top)
    cards = ALL if deck_size == 52 else ALL36
    assert len(set(used)) == len(used) and set(used) <= set(cards)
    return used + [c for c in cards if c not in used]


def shoe(*top: str) -> list[str]:
    """A full 104-card shoe (two copies of every card): ``top`` first, then the rest in card-id
    order."""
    left = Counter({t: 2 for t in ALL})
    for t in top:
        left[t] -= 1
        assert left[t] >= 0, f"more than two {t}"
    return [*top, *(t for t in ALL for _ in range(left[t]))]


# ------------------------------------------------------------------------------------------------
# What a deal shows


def legal(target: Deal | Match) -> set[str]:
    """The legal moves of a deal or match, as texts."""
    return {str(m) for m in target.legal_moves()}


def hand(deal: Deal | Match, seat: int) -> set[str]:
    """The cards in ``seat``'s view of its hand."""
    return {str(c) for c in deal.view(seat).hand}


def hand_list(deal: Deal | Match, seat: int) -> list[str]:
    """``seat``'s hand as its view lists it, in order."""
    return [str(c) for c in deal.view(seat).hand]


def pub(deal: Deal | Match, seat: int = 0) -> dict[str, Any]:
    """The public part of ``seat``'s view, as JSON-ready data."""
    return deal.view(seat).to_dict()["public"]


def view_text(deal: Deal | Match, seat: int) -> str:
    """``seat``'s whole view as JSON text (cards and words unescaped)."""
    return json.dumps(deal.view(seat).to_dict(), ensure_ascii=False)


def cards_in(obj: Any) -> set[str]:
    """Every card text in the JSON of a JSON-ready object."""
    return set(CARD_RE.findall(json.dumps(obj, ensure_ascii=False)))


# ------------------------------------------------------------------------------------------------
# Playing


def run(target: Deal | Match, moves: str) -> None:
    """Play the space-separated ``moves``, each by the seat to move."""
    for m in moves.split():
        target.play(m)


def play_all(target: T, moves: Iterable[str]) -> T:
    """Play ``moves`` (whole move texts), each as the seat to move; the target is returned."""
    for m in moves:
        target.play(m, seat=target.to_move)
    return target


def play_out(deal: Deal, bots: Sequence[Bot],
             on_move: Callable[[int, Move], object] | None = None) -> list[Move]:
    """Play ``deal`` to its end, each seat's bot choosing from that seat's own view; every
    chosen move must be among the view's legal moves. ``on_move(seat, move)`` runs after each
    move is played. The moves are returned in order."""
    moves: list[Move] = []
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        move = bots[seat].choose(view)
        assert move in view.legal_moves
        deal.play(move, seat=seat)
        moves.append(move)
        if on_move is not None:
            on_move(seat, move)
    return moves


def plain_margin(deal: Deal, seat: int) -> int:
    """Minimax to the end of a two-player deal over the engine itself (no pruning, no tables):
    the seat's final result minus the other's, with best play by both."""
    if deal.to_move is None:
        r = deal.result
        assert r is not None
        return r[seat] - r[1 - seat]
    values = []
    for code in deal.legal_codes():
        child = deal.copy()
        child.apply_code(code)
        values.append(plain_margin(child, seat))
    return max(values) if deal.to_move == seat else min(values)


def add_test_catalogue(lang: str, texts: dict[str, str]) -> None:
    """Compile ``texts`` (English -> ``lang``) into a catalogue and add it to the package's, as a
    game outside the package adds its own (docs/i18n.md)."""
    import tempfile

    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    from cardplay.i18n import add_catalogue

    catalog = Catalog(locale=lang)
    for en, text in texts.items():
        catalog.add(en, text)
    with tempfile.NamedTemporaryFile(suffix=".mo", delete=False) as f:
        write_mo(f, catalog)
    add_catalogue(lang, f.name)


# German shares the Latin letters, so a German screen is checked for the English catalogue's
# words that German does not use as well ("Bank", "Stand", "Talon", "Chips" are German too)
_WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{2,}")


def _catalogue_words(lang: str) -> set[str]:
    """Every word of a language's catalogue, lower-cased, placeholders left out."""
    from cardplay.i18n import LOCALE_DIR, read_mo

    out: set[str] = set()
    for forms in read_mo(LOCALE_DIR / f"{lang}.mo").values():
        for text in forms:
            out.update(w.lower() for w in _WORD.findall(re.sub(r"\{[a-z_]+\}", " ", text)))
    return out


_ENGLISH_ONLY: set[str] = set()


def english_words(text: str) -> list[str]:
    """The words of ``text`` that are English words of the interface and not German ones."""
    if not _ENGLISH_ONLY:
        _ENGLISH_ONLY.update(_catalogue_words("en") - _catalogue_words("de"))
    return [w for w in _WORD.findall(text) if w.lower() in _ENGLISH_ONLY]
