"""Cards and their notation (RULES.md 0.1): parsing every accepted spelling, errors, CardSet."""

from __future__ import annotations

import pytest

from cardplay import Card, CardSet
from cardplay.cards import (
    CardParseError,
    Rank,
    Suit,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SYMBOLS = dict(zip(SUITS, "♠♥♦♣"))
RUSSIAN = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}  # валет, дама, король, туз
ALL = [r + s for s in SUITS for r in RANKS]


def spellings(text: str) -> set[str]:
    """Every spelling RULES.md 0.1 accepts for a canonical card text."""
    r, s = text[0], text[1]
    ranks = {r, r.lower()}
    if r == "T":
        ranks |= {"10"}
    out = {rk + su for rk in ranks for su in (s, s.lower())}
    latin_or_10 = set(ranks)
    symbol_ranks = latin_or_10 | ({RUSSIAN[r], RUSSIAN[r].lower()} if r in RUSSIAN else set())
    for rk in symbol_ranks:
        out |= {rk + SYMBOLS[s], SYMBOLS[s] + rk}
    return out


@pytest.mark.parametrize("text", ALL)
def test_every_accepted_spelling_parses(text: str) -> None:
    want = parse_card(text)
    assert format_card(want) == text
    for spelling in spellings(text):
        assert parse_card(spelling) == want, spelling
        assert str(Card(spelling)) == text


@pytest.mark.parametrize(("text", "canonical"), [
    ("AS", "AS"), ("as", "AS"), ("TH", "TH"), ("th", "TH"), ("10H", "TH"), ("10h", "TH"),
    ("10♥", "TH"), ("♥10", "TH"), ("T♥", "TH"), ("♥T", "TH"), ("9d", "9D"), ("2c", "2C"),
    ("Т♠", "AS"),  # Cyrillic Т is туз, the ace
    ("T♠", "TS"),  # Latin T is the ten
    ("т♠", "AS"), ("♠Т", "AS"), ("Д♥", "QH"), ("д♥", "QH"), ("♥Д", "QH"), ("В♦", "JD"),
    ("в♦", "JD"), ("К♣", "KC"), ("к♣", "KC"), ("K♣", "KC"), ("Q♦", "QD"), ("a♠", "AS"),
])
def test_named_spellings(text: str, canonical: str) -> None:
    assert str(Card(text)) == canonical
    assert format_card(parse_card(text)) == canonical


@pytest.mark.parametrize("text", [
    "", " ", "A", "S", "♠", "10", "1H", "11H", "0S", "1♥", "AX", "ZS", "XX", "ASS", "AS♠", "♠A♠",
    "TT", "A♠♠", "♠♥", "B♦",  # Latin B is not В
    "ДH", "ТS", "ВD", "КC",  # Russian letters come with suit symbols only
    "Х♠", "Ж♥", "1O♥", "10♥♥", "AS,", "Ace of spades",
])
def test_anything_else_is_rejected_saying_what_was_expected(text: str) -> None:
    with pytest.raises(CardParseError) as e:
        parse_card(text)
    assert "expected" in str(e.value)
    with pytest.raises(ValueError):
        Card(text)


@pytest.mark.parametrize("text", ["♤A", "♡10", "A♢", "K♧", "A S", "1 0♥"])
def test_other_suit_symbols_and_inner_spaces_are_rejected(text: str) -> None:
    # RULES.md 0.1 names the symbols ♠ ♥ ♦ ♣ only: "Anything else is rejected with an error
    # that says what was expected."  (A card with a space inside is two words in a list.)
    with pytest.raises(CardParseError) as e:
        parse_card(text)
    assert "expected" in str(e.value)


@pytest.mark.parametrize("value", [None, 1.5, b"AS", ["AS"]])
def test_non_text_is_rejected(value: object) -> None:
    with pytest.raises(CardParseError) as e:
        parse_card(value)  # type: ignore[arg-type]
    assert "AS" in str(e.value)  # says what a card looks like


def test_card_ids_and_errors() -> None:
    assert [str(Card(i)) for i in range(52)] == [format_card(i) for i in range(52)]
    assert sorted(str(Card(i)) for i in range(52)) == sorted(ALL)
    for bad in (-1, 52, 100):
        with pytest.raises(ValueError):
            Card(bad)
    with pytest.raises(ValueError):
        Card(1.0)  # type: ignore[arg-type]


def test_str_and_repr_round_trip() -> None:
    for text in ALL:
        c = Card(text)
        assert str(c) == text and f"{c}" == text
        assert repr(c) == f"Card({text!r})"
        assert eval(repr(c), {"Card": Card}) == c
        assert Card(str(c)) == c and Card(int(c)) == c
        assert isinstance(c, int)
    assert format(Card("AS"), ">4") == "  AS"
    assert str(Card("10♥")) == "TH"


def test_card_suit_rank_and_display() -> None:
    c = Card("Д♥")
    assert c.suit == Suit.H and c.rank == Rank.QUEEN
    assert Card("AS").suit == Suit.S and Card("AS").rank == Rank.ACE
    assert Card("AS").pretty() == "A♠" and Card("TH").pretty() == "10♥"
    assert Card("AS").name().lower() == "ace of spades"
    assert Card("AS").name("ru").lower() == "туз пик"


def test_parse_cards_lists() -> None:
    assert format_cards(parse_cards("AS th, 10♦  К♣")) == ["AS", "TH", "TD", "KC"]
    assert format_cards(parse_cards(["AS", "♥10", 0])) == ["AS", "TH", "2S"]
    assert parse_cards("") == []
    with pytest.raises(CardParseError):
        parse_cards("AS XX")
    with pytest.raises(CardParseError):
        parse_cards([52])
    with pytest.raises(CardParseError):
        parse_cards([True])


def test_cardset_behaves_like_a_set() -> None:
    s = CardSet("AS TH 9D")
    assert len(s) == 3 and bool(s)
    assert "AS" in s and "as" in s and "10♥" in s and Card("9D") in s and parse_card("AS") in s
    assert "KC" not in s and "XX" not in s and 99 not in s and None not in s
    assert [str(c) for c in s] == ["AS", "TH", "9D"]  # id order: suits S H D C
    assert all(isinstance(c, Card) for c in s)
    assert s == {"AS", "TH", "9D"} and s == frozenset({"AS", "TH", "9D"})
    assert s == CardSet(["9D", "TH", "AS"]) and s != CardSet("AS")
    assert s != {"AS", "XX"}
    assert CardSet("AS AS") == CardSet("AS") and len(CardSet("AS AS")) == 1
    assert not CardSet() and len(CardSet()) == 0 and CardSet() == set()
    t = CardSet("AS KC")
    assert s | t == {"AS", "TH", "9D", "KC"}
    assert s & t == {"AS"}
    assert s - t == {"TH", "9D"}
    assert s ^ t == {"TH", "9D", "KC"}
    assert s | ["QH"] == {"AS", "TH", "9D", "QH"}
    assert s.union(t, "2C") == {"AS", "TH", "9D", "KC", "2C"}
    assert CardSet("AS") <= s and s >= CardSet("AS TH") and not s <= t
    assert s.of_suit(Suit.H) == {"TH"}
    assert s.to_list() == ["AS", "TH", "9D"]
    assert str(s) == "AS TH 9D"
    assert eval(repr(s), {"CardSet": CardSet}) == s
    assert {s: 1}[CardSet("9D TH AS")] == 1  # hashable, equal sets hash alike
    assert CardSet(s) == s and CardSet(s.mask) == s and CardSet.from_mask(s.mask) == s
    with pytest.raises(CardParseError):
        CardSet("AS XX")
    with pytest.raises(ValueError):
        CardSet(1 << 52)
    with pytest.raises(TypeError):
        CardSet(True)  # type: ignore[arg-type]
    # Operations return new sets: the originals are unchanged.
    assert s == {"AS", "TH", "9D"} and t == {"AS", "KC"}


def test_cards_of_mask_of_every_size_and_beyond_52_bits() -> None:
    import random

    from cardplay.cards import cards_of_mask

    rng = random.Random(3)
    for _ in range(3000):
        ids = sorted(rng.sample(range(90), rng.randrange(60)))
        assert cards_of_mask(sum(1 << c for c in ids)) == ids
    assert cards_of_mask(0) == []
    assert cards_of_mask((1 << 52) - 1) == list(range(52))


def test_format_mask_gives_the_texts_in_id_order_as_a_list_of_its_own() -> None:
    from cardplay.cards import format_mask

    mask = (1 << 0) | (1 << 12) | (1 << 13) | (1 << 51)  # 2S AS 2H AC
    first = format_mask(mask)
    assert first == ["2S", "AS", "2H", "AC"]
    first.append("KD")  # the caller owns the list: the cached texts stay as they were
    assert format_mask(mask) == ["2S", "AS", "2H", "AC"]
    assert format_mask(0) == []
    assert format_cards((51, 0, 51)) == ["AC", "2S", "AC"]
