"""Cards as small ints, sets of cards as int bitmasks, and the card notation of RULES.md 0.1.

A card is ``suit * 13 + rank`` where ``rank`` is 0 for a two up to 12 for an ace and the suits are
numbered in the notation's order ``S H D C``.  With that layout the cards of one suit form one
contiguous 13-bit block of a bitmask, so "the cards of the led suit in this hand" is a single AND
with :data:`SUIT_MASKS`.

``Card`` is an ``int`` subclass whose ``str`` is the canonical text (``"QH"``); the engine and the
bots mostly use plain ints, and ``Card(i)`` returns one of 52 shared instances.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

__all__ = [
    "CARD_OBJECTS",
    "CARD_TEXTS",
    "RANK_CHARS",
    "SUIT_CHARS",
    "SUIT_MASKS",
    "Card",
    "CardParseError",
    "CardSet",
    "Rank",
    "Suit",
    "card_of",
    "cards_of_mask",
    "format_card",
    "format_cards",
    "full_deck",
    "mask_of",
    "parse_card",
    "parse_cards",
    "rank_of",
    "suit_of",
]


class Suit(IntEnum):
    """The four suits, numbered in the notation's order."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


class Rank(IntEnum):
    """Ranks from two (0) to ace (12); each game gives them its own order and values."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return RANK_CHARS[self]


RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_MASK = (1 << 52) - 1

_SYMBOL_TO_SUIT = {"♠": 0, "♥": 1, "♦": 2, "♣": 3}
_LATIN_RANKS = {c: i for i, c in enumerate(RANK_CHARS)}
# Russian court letters: валет, дама, король, туз (RULES.md 0.1).
_RUSSIAN_RANKS = {"В": 9, "Д": 10, "К": 11, "Т": 12}



class CardParseError(ValueError):
    """Raised for text that is not a card; the message says what was expected."""


def card_of(rank: int, suit: int) -> int:
    """The card id of a rank (0 = two .. 12 = ace) and a suit (0..3)."""
    return suit * 13 + rank


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask holding the given cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of_mask(mask: int) -> list[int]:
    """The card ids in a bitmask, lowest id first."""
    if mask >> 52:  # beyond the 52 cards' bits (a mask of anything else): a bit at a time
        out: list[int] = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    # A suit at a time from a table, with no loop: legal moves and views read hands constantly.
    return [*_SPADES[mask & 8191], *_HEARTS[mask >> 13 & 8191], *_DIAMONDS[mask >> 26 & 8191],
            *_CLUBS[mask >> 39]]


def _suit_table(suit: int) -> tuple[tuple[int, ...], ...]:
    """The card ids of each 13-bit suit mask (8,192 tuples), built by doubling: the masks with
    one more rank are those without it, plus it. A tuple, not a list: a tuple of tuples of ints
    drops out of the garbage collector's sight, where a list would be walked by every full
    collection."""
    table: list[tuple[int, ...]] = [()]
    for rank in range(13):
        card = (13 * suit + rank,)
        table += [cards + card for cards in table]
    return tuple(table)


# 3 MB and about 3 ms at import, for a cards_of_mask two to three times as fast from five cards up.
_SPADES, _HEARTS, _DIAMONDS, _CLUBS = map(_suit_table, range(4))


class Card(int):
    """A playing card: an int from 0 to 51 that prints in the canonical notation (``"AS"``)."""

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return CARD_OBJECTS[parse_card(value)]
        if isinstance(value, int) and 0 <= value < 52:
            if len(CARD_OBJECTS) == 52:
                return CARD_OBJECTS[value]
            return super().__new__(cls, value)
        raise CardParseError(f"a card id is an int from 0 to 51, not {value!r}")

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> Rank:
        return Rank(self % 13)

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_TEXT[self], spec)

    def pretty(self) -> str:
        """Display form with a suit symbol and ``10`` for ten: ``A♠``, ``10♥``."""
        r = int(self) % 13
        return ("10" if r == 8 else RANK_CHARS[r]) + SUIT_SYMBOLS[int(self) // 13]

    def name(self, lang: str = "en") -> str:
        """A localised name: "ace of spades", "туз пик", "Pik-Ass" (the catalogue's
        ``card_name`` orders the rank and the suit as the language does)."""
        from .i18n import CLI, translate  # the catalogues load only when a name is asked for

        r, s = int(self) % 13, int(self) // 13
        return translate("card_name", lang, CLI).format(
            rank=translate(f"rank_name_{RANK_CHARS[r]}", lang, CLI),
            suit=translate(f"suit_name_{SUIT_CHARS[s]}", lang, CLI))


_TEXT: tuple[str, ...] = tuple(RANK_CHARS[i % 13] + SUIT_CHARS[i // 13] for i in range(52))
# Every card's canonical text by card id: an index instead of format_card's call, where views
# write a deal's cards per move.
CARD_TEXTS = _TEXT
# The 52 shared Card objects, by card id (a view hands these out instead of new ones).
CARD_OBJECTS: list[Card] = []
CARD_OBJECTS.extend(Card(i) for i in range(52))
_PARSE_CACHE: dict[str, int] = {t: i for i, t in enumerate(_TEXT)}


def parse_card(text: str) -> int:
    """Parse one card in any spelling of RULES.md 0.1 and return its id.

    Accepted: rank then suit letter (``AS``, ``th``), ``10`` for ``T``, suit symbols in either
    position (``10♥``, ``♥10``), and the Russian court letters ``В Д К Т`` with suit symbols.
    """
    if not isinstance(text, str):
        raise CardParseError(f"a card is written as text such as 'AS' or '10♥', not {text!r}")
    hit = _PARSE_CACHE.get(text)
    if hit is not None:
        return hit
    raw = text.strip()
    if not raw:
        raise CardParseError("expected a card such as 'AS', 'TH', '10♥' or 'Т♠', got nothing")
    suit: int | None = None
    body = raw
    if raw[0] in _SYMBOL_TO_SUIT:
        suit, body = _SYMBOL_TO_SUIT[raw[0]], raw[1:]
    elif raw[-1] in _SYMBOL_TO_SUIT:
        suit, body = _SYMBOL_TO_SUIT[raw[-1]], raw[:-1]
    else:
        letter = raw[-1].upper()
        if letter in SUIT_CHARS:
            suit, body = SUIT_CHARS.index(letter), raw[:-1]
    rank = _parse_rank(body, with_symbol=raw[0] in _SYMBOL_TO_SUIT or raw[-1] in _SYMBOL_TO_SUIT)
    if suit is None or rank is None:
        raise CardParseError(
            f"{text!r} is not a card: expected a rank (2-9, T or 10, J, Q, K, A; or В Д К Т with a "
            f"suit symbol) and a suit (S H D C or ♠ ♥ ♦ ♣), such as 'AS', 'TH', '10♥' or 'Т♠'"
        )
    return suit * 13 + rank


def _parse_rank(body: str, with_symbol: bool) -> int | None:
    b = body.upper()
    if b == "10":
        return 8
    if len(b) != 1:
        return None
    if with_symbol and b in _RUSSIAN_RANKS:
        return _RUSSIAN_RANKS[b]
    return _LATIN_RANKS.get(b)


def parse_cards(text: str | Iterable[str | int]) -> list[int]:
    """Parse a list of cards: a whitespace- or comma-separated string, or an iterable of cards."""
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
    else:
        parts = list(text)  # type: ignore[arg-type]
    out: list[int] = []
    for p in parts:
        if isinstance(p, bool):
            raise CardParseError(f"{p!r} is not a card")
        if isinstance(p, int):
            if not 0 <= p < 52:
                raise CardParseError(f"a card id is an int from 0 to 51, not {p}")
            out.append(int(p))
        else:
            out.append(parse_card(p))
    return out


def format_card(card: int) -> str:
    return _TEXT[card]


def format_cards(cards: Iterable[int]) -> list[str]:
    return list(map(_TEXT.__getitem__, cards))  # in C: views write many card lists per move


_MASK_TEXTS: dict[int, tuple[str, ...]] = {}


def format_mask(mask: int) -> list[str]:
    """The texts of the cards in a bitmask, lowest id first (a new list; the tuples behind it
    are cached, up to 65,536 masks: a view writes the same piles and hands again and again)."""
    texts = _MASK_TEXTS.get(mask)
    if texts is None:
        if len(_MASK_TEXTS) >= 65536:
            _MASK_TEXTS.clear()
        texts = _MASK_TEXTS[mask] = tuple(map(_TEXT.__getitem__, cards_of_mask(mask)))
    return list(texts)


def full_deck() -> list[int]:
    """All 52 card ids in suit order S H D C, two to ace within a suit."""
    return list(range(52))


class CardSet:
    """An immutable set of distinct cards stored as one int bitmask; behaves like a frozenset.

    Iteration yields :class:`Card` objects lowest id first; ``mask`` is the raw bitmask.
    """

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[int | str] | int | str | None = None) -> None:
        if cards is None:
            self.mask = 0
        elif isinstance(cards, bool):
            raise TypeError("a CardSet is built from cards or a bitmask")
        elif isinstance(cards, int) and not isinstance(cards, Card):
            if cards < 0 or cards > FULL_MASK:
                raise ValueError("a card bitmask has bits 0..51 only")
            self.mask = cards
        elif isinstance(cards, str):
            self.mask = mask_of(parse_cards(cards))
        elif isinstance(cards, CardSet):
            self.mask = cards.mask
        else:
            self.mask = mask_of(parse_cards(cards))  # type: ignore[arg-type]

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        s = cls.__new__(cls)
        s.mask = mask
        return s

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            try:
                card = parse_card(card)
            except CardParseError:
                return False
        if isinstance(card, int) and 0 <= card < 52:
            return bool(self.mask >> card & 1)
        return False

    def __iter__(self) -> Iterator[Card]:
        return iter([CARD_OBJECTS[c] for c in cards_of_mask(self.mask)])

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        if isinstance(other, (set, frozenset)):
            try:
                return self.mask == mask_of(parse_cards(other))
            except (CardParseError, TypeError):
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    @staticmethod
    def _m(other: object) -> int:
        if isinstance(other, CardSet):
            return other.mask
        return mask_of(parse_cards(other))  # type: ignore[arg-type]

    def __or__(self, other: object) -> CardSet:
        return CardSet.from_mask(self.mask | self._m(other))

    def __and__(self, other: object) -> CardSet:
        return CardSet.from_mask(self.mask & self._m(other))

    def __sub__(self, other: object) -> CardSet:
        return CardSet.from_mask(self.mask & ~self._m(other))

    def __xor__(self, other: object) -> CardSet:
        return CardSet.from_mask(self.mask ^ self._m(other))

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~self._m(other) == 0

    def __ge__(self, other: CardSet) -> bool:
        return self._m(other) & ~self.mask == 0

    def union(self, *others: object) -> CardSet:
        m = self.mask
        for o in others:
            m |= self._m(o)
        return CardSet.from_mask(m)

    def of_suit(self, suit: int) -> CardSet:
        return CardSet.from_mask(self.mask & SUIT_MASKS[suit])

    def __repr__(self) -> str:
        return "CardSet(" + repr(" ".join(_TEXT[c] for c in cards_of_mask(self.mask))) + ")"

    def __str__(self) -> str:
        return " ".join(_TEXT[c] for c in cards_of_mask(self.mask))

    def to_list(self) -> list[str]:
        """The cards as canonical strings (JSON-ready)."""
        return [_TEXT[c] for c in cards_of_mask(self.mask)]
