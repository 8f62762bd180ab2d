"""What the command line prints of a view, read off the game's declaration.

Every game is shown the same way: the deal's header and the match scores, one labelled line per
public field the declaration lists (its words in the chosen language, values by kind: cards with
suit symbols and Russian ranks in Russian, seats by name, named values by label), the points, the
hand and whose turn it is; the move menu names each special move by its declared kind.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import Match, Move, View, declaration_of
from ..i18n import Translator
from ..wording import (
    SeatNamer,
    card_text,
    deal_over_text,
    field_lines,
    move_text,
    outcome_reasons,
)

__all__ = ["deal_end_lines", "menu_lines", "per_seat_text", "pretty_move", "public_lines",
           "render_view"]


def pretty_move(text: str, lang: str = "en") -> str:
    """Canonical text with cards shown as ``A♠``/``10♥`` (``KH=20`` -> ``K♥=20``; Russian ranks
    with ``lang="ru"``)."""
    return move_text(text, lang)


def per_seat_text(values: Sequence[Any], names: SeatNamer, signed: bool = False) -> str:
    """``You 12 · Bot 1 30``: one value per seat."""
    parts = []
    for seat, v in enumerate(values):
        shown = "—" if v is None else (f"{v:+d}" if signed and isinstance(v, int) else str(v))
        parts.append(f"{names(seat)} {shown}")
    return " · ".join(parts)


def public_lines(view: View, tr: Translator, names: SeatNamer,
                 skip: Mapping[str, Any] | None = None) -> list[str]:
    """A line per declared public field of the view (none for an empty one, for a record of the
    whole deal so far, or for one equal in ``skip``)."""
    def leave_out(f: Any, value: Any) -> bool:
        return f.detail or (skip is not None and skip.get(f.name) == value)

    return field_lines(declaration_of(view.game), view.public, tr.lang, names, leave_out)


def render_view(view: View, tr: Translator, names: SeatNamer, *, show_points: bool = True,
                show_hand: bool = True, you: int | None = None,
                unchanged: Mapping[str, Any] | None = None) -> list[str]:
    """The lines that show a view: deal header, match scores, public state, points, hand.
    ``you`` is the seat of the person at the terminal, if any. With ``unchanged`` (the public
    state shown last time in this deal), only the fields that changed since are shown, so a
    transcript does not repeat the whole table at every move."""
    lines: list[str] = []
    head = tr("dealer_is", who=names(view.dealer))
    if view.match is not None:
        head = tr("deal_number", n=view.match.get("deal_number", 1)) + " · " + head
    lines.append(f"── {head} ──")
    if view.match is not None and "scores" in view.match and unchanged is None:
        lines.append(tr("match_scores", scores=per_seat_text(view.match["scores"], names)))
    lines.extend("  " + line for line in public_lines(view, tr, names, skip=unchanged))
    if show_points and any(view.points):
        lines.append(tr("deal_points", points=per_seat_text(view.points, names)))
    if show_hand and view.hand:
        hand = " ".join(card_text(str(c), tr.lang) for c in view.hand)
        lines.append(tr("your_hand", cards=hand) if view.seat == you else
                     tr("hand_of", who=names(view.seat), cards=hand))
    if view.is_over and view.result is not None:
        lines.append(tr("deal_result", result=per_seat_text(view.result, names, signed=True)))
    elif view.to_move is not None and view.to_move != view.seat:
        lines.append(tr("to_move", who=names(view.to_move)))
    return lines


_WORD_NUMBER = re.compile(r"([a-z]+) ([1-9][0-9]*)")


def _numbered_run(moves: Sequence[Move], start: int) -> int:
    """The end of the run of moves ``word N``, ``word N+1``, ... that begins at ``start``."""
    m = _WORD_NUMBER.fullmatch(moves[start].text)
    if m is None:
        return start + 1
    word, n = m.group(1), int(m.group(2))
    end = start + 1
    while end < len(moves) and moves[end].text == f"{word} {n + end - start}":
        end += 1
    return end


def menu_lines(moves: Sequence[Move], tr: Translator, game: str, width: int = 78) -> list[str]:
    """The numbered move menu; a move other than a plain card is glossed with its kind's
    label, and a long run of ``stake N`` is one item."""
    declaration = declaration_of(game)
    items = []
    i = 0
    while i < len(moves):
        j = _numbered_run(moves, i)
        if j - i >= 4:  # "stake 5" .. "stake 100": one item for the run
            word, first = moves[i].text.split()
            last = moves[j - 1].text.split()[1]
            items.append(f"{i + 1}–{j}) {word} {first} … {word} {last} "
                         f"({tr('menu_run', word=word, lo=first, hi=last)})")
            i = j
            continue
        text = moves[i].text
        kind = declaration.move_kind(text)
        note = kind.label(tr.lang) if kind is not None and kind.name != "card" else None
        items.append(f"{i + 1}) {pretty_move(text, tr.lang)}" + (f" ({note})" if note else ""))
        i += 1
    lines: list[str] = []
    line = " "
    for item in items:
        if len(line) + 3 + len(item) > width and line.strip():
            lines.append(line)
            line = " "
        line += "  " + item
    if line.strip():
        lines.append(line)
    return [tr("your_moves"), *lines]


def deal_end_lines(match: Match, number: int, seat: int, tr: Translator, names: SeatNamer,
                   show_points: bool = True) -> list[str]:
    """How deal ``number`` (0-based) of a match ended, as ``seat`` sees it, and the scores."""
    deal = match.deals[number]
    view = deal.view(seat)
    lines = ["", deal_over_text(match.game.name, number + 1, tr)]
    lines.extend("  " + line for line in public_lines(view, tr, names))
    if show_points:
        lines.append(tr("deal_points", points=per_seat_text(view.points, names)))
    result = deal.result or [0] * deal.players
    lines.append(tr("deal_result", result=per_seat_text(result, names, signed=True)))
    reasons = outcome_reasons(view, tr.lang)
    lines.extend("  " + r for r in reasons)
    if not reasons and not any(result):
        lines.append("  " + tr("deal_nobody_scores"))
    scores = [sum((d.result or [0] * d.players)[s] for d in match.deals[:number + 1])
              for s in range(deal.players)]
    lines.append(tr("match_scores", scores=per_seat_text(scores, names)))
    return lines
