"""``cardplay review``: what each decision of a saved deal or match cost, by the searchers' values.

The text form lists the costly decisions first, the dearest first, each with its verdict in words
(:mod:`cardplay.advice`), then a line per seat; ``--json``
prints :meth:`cardplay.review.Review.to_dict` (docs/review.md has the shape and an example).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..advice import advice_words
from ..bots.evaluation import BUDGETS
from ..engine import RecordError
from ..engine.registry import declaration_of
from ..i18n import Translator, format_decimal
from ..review import Decision, Review, review, start_of
from ..wording import move_words
from .console import Console

__all__ = ["configure_review", "review_lines", "run_review"]


def configure_review(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("file", metavar="FILE", help=tr("help_record_file"))
    p.add_argument("--seat", type=int, action="append", default=None, help=tr("help_review_seat"))
    p.add_argument("--deal", type=int, action="append", default=None, help=tr("help_review_deal"))
    p.add_argument("--level", choices=list(BUDGETS), default="strong",
                   help=tr("help_review_level"))
    p.add_argument("--seed", type=int, default=0, help=tr("help_review_seed"))
    p.add_argument("--json", action="store_true", help=tr("help_review_json"))


_LEVEL_WORDS = {"random": "level_random", "heuristic": "level_heuristic", "fast": "level_fast",
                "strong": "level_strong"}


def _value(x: float, lang: str) -> str:
    # always two decimals: Russian then reads the unit in the genitive singular, as after any
    # fraction
    return format_decimal(x, lang)


def review_lines(result: Review, tr: Translator) -> list[str]:
    """The text form: costly decisions the dearest first, then each seat's sum."""
    declaration = declaration_of(result.game)
    lang = tr.lang
    units = declaration.result_units(lang)

    def move(text: str) -> str:
        return move_words(declaration, text, lang)

    def decision_line(d: Decision) -> str:
        line = tr("review_costly", deal=d.deal, move=d.index + 1, seat=d.seat,
                  played=move(d.played), loss=_value(d.loss, lang), units=units, best=move(d.best))
        if d.exact:
            return line + " " + tr("review_exact")
        return line + " " + tr("review_noise", noise=_value(d.noise, lang), worlds=d.worlds)

    seats = sorted({d.seat for d in result.decisions})
    lines = [tr("review_banner", game=declaration.title(lang), decisions=len(result.decisions),
                level=tr(_LEVEL_WORDS[result.level]))]
    costly = result.costly()
    if costly:
        lines.append(tr("review_costly_h"))
        for d in costly:
            lines.append("  " + decision_line(d))
            if d.advice is not None:  # the verdict in words, under its numbers
                lines.append("    " + advice_words(d.advice, lang))
    else:
        lines.append(tr("review_none_costly"))
    for s in seats:
        mine = [d for d in result.decisions if d.seat == s]
        lost = sum(d.loss for d in mine if d.costly)
        lines.append(tr("review_seat", seat=s, decisions=len(mine),
                        costly=sum(d.costly for d in mine), loss=_value(lost, lang), units=units))
    return lines


def run_review(args: argparse.Namespace, ui: Console) -> int:
    tr = ui.tr
    try:
        record = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        ui.error(tr("cannot_read", path=args.file, error=getattr(e, "strerror", None) or str(e)))
        return 2
    except json.JSONDecodeError as e:
        ui.error(tr("corrupt_record", error=str(e)))
        return 2
    try:
        players = start_of(record).players
    except RecordError as e:
        ui.error(tr("corrupt_record", error=str(e)))
        return 2
    for seat in args.seat or ():
        if not 0 <= seat < players:
            ui.error(tr("bad_seat", seat=seat, last=players - 1))
            return 2
    result = review(record, seats=args.seat, level=args.level, seed=args.seed, deals=args.deal)
    if args.json:
        ui.say(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        ui.lines(review_lines(result, tr))
    return 0
