"""A view's public state in words, from the game's declaration: what a text front-end shows.

The command line and the terminal UI render any game through these functions: each declared
field becomes a labelled line in the reader's language, its value written by its kind (cards with
suit symbols and the language's rank letters; seats by name; a named value by its label; records
field by field). Nothing here knows a game by name, and every word comes from the catalogues.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cards import SUIT_CHARS, SUIT_SYMBOLS, format_card, parse_card
from .declaration import Declaration, Field, Text
from .engine import Game, InvalidMoveError, Reason, View
from .engine import declaration_of as _declaration_of
from .i18n import CLI, Translator, translate

__all__ = ["SeatNamer", "card_text", "deal_over_text", "deal_title", "field_lines", "field_text",
           "level_name", "move_text", "move_words", "outcome_reasons", "refusal", "rules_text",
           "typed_move", "words"]

SeatNamer = Callable[[int], str]

_CARD_TOKEN = re.compile(r"\b([2-9TJQKA])([SHDC])\b")
_CARD_IN_MOVE = re.compile(r"[2-9TJQKA][SHDC]")
_SUIT_AFTER_EQ = re.compile(r"=([SHDC])\b")



def _none(lang: str) -> str:
    return translate("none", lang, CLI)


def _rank(char: str, lang: str) -> str:
    """A rank as the language's players write it on a card (B for a jack in German; a number
    is itself, and T is 10)."""
    return translate(f"rank_short_{char}", lang, CLI) if char in "TJQKA" else char


def card_text(card: str, lang: str = "en") -> str:
    """``"QH"`` as ``Q♥`` (``D♥`` in German); ``"TH"`` as ``10♥``."""
    m = _CARD_TOKEN.fullmatch(card)
    if m is None:
        return card
    return _rank(m.group(1), lang) + SUIT_SYMBOLS[SUIT_CHARS.index(m.group(2))]


_LETTER_BEFORE_SUIT = re.compile(r"(?<![^\W\d_])([^\W\d_])(?=[♠♥♦♣])")


def typed_move(text: str, lang: str) -> str:
    """A move typed with the table's own rank letters (``B♠`` in German, as the menu writes
    it) in the letters the engine reads (``J♠``): a letter the catalogue gives a court rank,
    just before a suit symbol."""
    ranks = {translate(f"rank_short_{c}", lang, CLI).upper(): c for c in "JQKA"}
    return _LETTER_BEFORE_SUIT.sub(lambda m: ranks.get(m.group(1).upper(), m.group(1)), text)


def move_text(text: str, lang: str = "en") -> str:
    """A move's canonical text with its cards and suits as the table shows them
    (``KH=20`` -> ``K♥=20``; ``AS=H`` -> ``A♠=♥``)."""
    out = _CARD_TOKEN.sub(lambda m: card_text(m.group(0), lang), text)
    return _SUIT_AFTER_EQ.sub(lambda m: "=" + SUIT_SYMBOLS[SUIT_CHARS.index(m.group(1))], out)


def move_words(declaration: Declaration, text: str, lang: str = "en") -> str:
    """A move as a player reads it, the way the browser labels it: cards as the table shows
    them, a word move by its kind's label (``close`` -> "Close the talon"), a number move by its
    label and number (``stake 25`` -> "Stake 25")."""
    kind = declaration.move_kind(text)
    if kind is None or kind.name == "card" or _CARD_TOKEN.search(text):
        return move_text(text, lang)
    if re.fullmatch(r"[a-z]+", kind.pattern):
        return kind.label(lang)
    number = re.fullmatch(r"[a-z]+ (\d+)", text)
    if number:
        return f"{kind.label(lang)} {number.group(1)}"
    return f"{kind.label(lang)}: {move_text(text, lang)}"


def words(text: Text | None, lang: str) -> str:
    return text(lang) if text is not None else ""


def deal_title(game: str, n: int, tr: Translator) -> str:
    """What deal ``n`` (1-based) of the game named ``game`` is called: the game's own word
    where it has one ("Round 2")."""
    named = _declaration_of(game).deal_name
    return named(tr.lang).replace("{n}", str(n)) if named is not None else tr("deal_number", n=n)


def deal_over_text(game: str, n: int, tr: Translator) -> str:
    """The sentence that deal ``n`` (1-based) is over, in the game's own word for a deal (the
    declared words are a heading, as the browser shows them; a terminal line ends with a stop)."""
    named = _declaration_of(game).deal_over
    if named is None:
        return tr("deal_over", n=n)
    return named(tr.lang).replace("{n}", str(n)) + "."


def field_text(field: Field, value: Any, lang: str, seat: SeatNamer) -> str:
    """One field's value in words, as its kind says."""
    k = field.kind
    if value is None:
        return _none(lang)
    if k == "card":
        return card_text(value, lang)
    if k == "cards":
        return " ".join(card_text(c, lang) for c in value) or _none(lang)
    if k == "suit":
        return SUIT_SYMBOLS[SUIT_CHARS.index(value)] if value in SUIT_CHARS else str(value)
    if k == "seat":
        return seat(value)
    if k == "seats":
        return ", ".join(seat(s) for s in value) or _none(lang)
    if k == "number":
        return str(value)
    if k == "numbers":
        return "–".join(str(x) for x in value) if len(value) == 2 else \
            ", ".join(str(x) for x in value)
    if k == "per_seat":
        return " · ".join(f"{seat(s)} {_none(lang) if v is None else v}"
                          for s, v in enumerate(value))
    if k == "per_seat_cards":
        return " · ".join(f"{seat(s)} " + (" ".join(card_text(c, lang) for c in cards)
                                           or _none(lang))
                          for s, cards in enumerate(value))
    if k == "move":
        return move_text(value, lang)
    if k == "choice":
        return _value_label(field, value, lang)
    if k == "per_seat_choice":
        return " · ".join(f"{seat(s)} {_value_label(field, v, lang)}"
                          for s, v in enumerate(value))
    if k == "flag":
        return translate("yes" if value else "no", lang, CLI)
    if k == "record":
        return _record_text(field.fields, value, lang, seat)
    if k == "records":
        return " | ".join(_record_text(field.fields, r, lang, seat) for r in value) or \
            _none(lang)
    return str(value)


def _value_label(field: Field, value: Any, lang: str) -> str:
    v = field.value(value)
    return v.label(lang) if v is not None else str(value)


def _record_text(fields: Sequence[Field], record: Mapping[str, Any], lang: str,
                 seat: SeatNamer) -> str:
    """A record in words, leaving out empty parts and false flags; a play of a card by a seat
    reads ``Ann: Q♥`` (a true flag of it follows in brackets: ``Ann: K♥ (led with a marriage)``).
    """
    def shown(f: Field) -> bool:
        v = record.get(f.name)
        return v is not None and v != [] and v is not False

    parts = [f for f in fields if shown(f)]
    names = {f.name for f in parts}
    if {"seat", "card"} <= names:
        head = f"{seat(record['seat'])}: {card_text(record['card'], lang)}"
        rest = [f for f in parts if f.name not in ("seat", "card")]
        # a flag reads as a note after the card: its label's first letter lowered ("led with a
        # marriage", "mit Ansage ausgespielt"), the rest as written (German nouns keep capitals)
        notes = [_lower_first(f.label(lang)) if f.kind == "flag" else
                 f"{f.label(lang)}: {field_text(f, record[f.name], lang, seat)}" for f in rest]
        return head + (f" ({', '.join(notes)})" if notes else "")
    return "; ".join(f"{f.label(lang)}: {field_text(f, record[f.name], lang, seat)}"
                     for f in parts) or _none(lang)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _empty(f: Field, value: Any) -> bool:
    """Nothing to show: null, an empty list, or a list of empty card lists."""
    if value is None or value == []:
        return True
    return f.kind == "per_seat_cards" and all(not cards for cards in value)


def field_block(field: Field, value: Any, lang: str, seat: SeatNamer,
                rows: int = 12) -> list[str]:
    """A field as lines: ``Label: value``, or a record as its label and then one indented line
    per part, and a list of records as a small table (a line of headings, then a line per
    record, the latest ``rows``): never a record joined into one line of ``Key: value; ...``."""
    label = field.label(lang)
    if field.kind == "record" and isinstance(value, Mapping):
        parts = [f for f in field.fields if not _empty(f, value.get(f.name))
                 and value.get(f.name) is not False]
        return [f"{label}:"] + [f"  {f.label(lang)}: {field_text(f, value[f.name], lang, seat)}"
                                for f in parts]
    if field.kind == "records" and isinstance(value, list) and value:
        names = {f.name for f in field.fields}
        if names == {"seat", "card"}:  # a trick's plays: "Ann: Q♥ | Bob: K♥"
            return [f"{label}: {field_text(field, value, lang, seat)}"]
        shown = value[-rows:]
        cols = [f for f in field.fields if any(not _empty(f, r.get(f.name)) for r in shown)]
        table = [[f.label(lang) for f in cols]] + [
            [_none(lang) if _empty(f, r.get(f.name)) else field_text(f, r[f.name], lang, seat)
             for f in cols] for r in shown]
        widths = [max(len(r[i]) for r in table) for i in range(len(cols))]
        return [f"{label}:"] + ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
                                for r in table]
    return [f"{label}: {field_text(field, value, lang, seat)}"]


def field_lines(declaration: Declaration, public: Mapping[str, Any], lang: str,
                seat: SeatNamer, skip: Callable[[Field, Any], bool] | None = None
                ) -> list[str]:
    """``Label: value`` for every declared field the public state holds, in the declaration's
    order, leaving out empty ones (null, an empty list) and those ``skip`` says."""
    lines = []
    for f in declaration.public:
        if f.name not in public:
            continue
        value = public[f.name]
        if _empty(f, value) or (skip is not None and skip(f, value)):
            continue
        lines += field_block(f, value, lang, seat)
    return lines


def _sentence(text: str) -> str:
    """A description as a finished sentence: its full stop, where the declaration left it off
    (two descriptions side by side ran into one another without it)."""
    text = text.strip()
    return text if not text or text[-1] in ".!?:…»“\"" else text + "."


def rules_text(declaration: Declaration, options: Mapping[str, Any], lang: str = "en") -> str:
    """A game's rules for players, from its declaration: what the game is, how it is played
    (every rule that can refuse a move and every way points are scored: the paragraphs of the
    declaration's ``rules`` that apply to ``options``), what each kind of move does, and each
    option in effect with what its value means."""
    moves_h, options_h = translate("rules_moves_h", lang, CLI), \
        translate("rules_options_h", lang, CLI)
    lines = [words(declaration.summary, lang)]
    paragraphs = [r for r in declaration.rules if r.applies(options)]
    if paragraphs:
        lines += ["", translate("rules_play_h", lang, CLI) + ":"]
        lines += [f"- {words(r.text, lang)}" for r in paragraphs]
    lines += ["", moves_h + ":"]
    lines += [f"- {words(k.label, lang)}: {_sentence(words(k.description, lang))}"
              for k in declaration.moves]
    lines += ["", options_h + ":"]
    for o in declaration.options:
        raw = options.get(o.name)
        value = o.value(raw)
        shown = words(value.label, lang) if value is not None else str(raw)
        extra = f" {_sentence(words(value.description, lang))}" if value is not None else ""
        lines.append(f"- {words(o.label, lang)}: {shown}. "
                     f"{_sentence(words(o.description, lang))}{extra}")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# What a text front-end (the prompt loop, the terminal table) says to the person at it


_LEVEL_WORDS = {"random": "level_random", "heuristic": "level_heuristic", "fast": "level_fast",
                "strong": "level_strong", "expert": "level_expert"}


def level_name(level: str, tr: Translator) -> str:
    """A bot level as the reader's language names it (the option ``--vs`` takes the code)."""
    key = _LEVEL_WORDS.get(level)
    return tr(key) if key is not None else level


def refusal(game: Game, view: View, text: str, tr: Translator,
            reason: Reason | None = None) -> str:
    """Why ``text`` cannot be played now, in one message in the reader's language, with cards
    as the table writes them: the rule that forbids it where the deal named one (``reason``,
    from ``IllegalMoveError.reason``). The engine's own message is for programmers (English,
    seat numbers, canonical card codes), so it is not shown."""
    lang = tr.lang
    legal = list(view.legal_moves)
    try:
        canonical = game.parse_move(text).text
    except InvalidMoveError:
        try:
            card = format_card(parse_card(text))
        except ValueError:
            return tr("not_a_move", text=text, last=len(legal),
                      example=move_text(legal[0].text, lang))
        return tr("not_in_deck", card=card_text(card, lang))
    held = {str(c) for c in view.hand}
    missing = [c for c in _CARD_IN_MOVE.findall(canonical) if c not in held]
    if missing:
        return tr("not_held", cards=" ".join(card_text(c, lang) for c in missing))
    if reason is not None and reason.name not in ("not_held", "not_now"):
        return reason.message(lang)
    cards = [m for m in legal if _CARD_IN_MOVE.fullmatch(m.text)]
    shown = " ".join(move_text(m.text, lang) for m in (cards or legal))
    return tr("cannot_play_now", move=move_text(canonical, lang), moves=shown)


def outcome_reasons(view: View, lang: str) -> list[str]:
    """What the declared values of the deal's outcome mean (``outcome`` is the field that says
    how a deal ended, DESIGN.md 16): "Replay" alone does not tell a newcomer why nobody scored."""
    try:
        f = _declaration_of(view.game).field("outcome")
    except KeyError:
        return []
    value = view.public.get("outcome")
    if value is None:
        return []
    pairs = [(f, value)] if f.kind == "choice" else \
        [(sub, value.get(sub.name)) for sub in f.fields if sub.kind == "choice"] \
        if f.kind == "record" and isinstance(value, Mapping) else []
    out = []
    for sub, raw in pairs:
        named = sub.value(raw)
        if named is not None and named.description(lang):
            out.append(f"{named.label(lang)}: {named.description(lang)}")
    return out
