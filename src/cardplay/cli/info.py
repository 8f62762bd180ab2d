"""``cardplay games`` and ``cardplay rules``: what there is to play, and how."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from ..engine import Game, game_class, games
from ..i18n import Translator
from ..wording import rules_text
from .console import Console

__all__ = ["configure_games", "configure_rules", "find_game", "option_rows", "players_text",
           "run_games", "run_rules", "table", "valid_values"]

# ---- games


def configure_games(p: argparse.ArgumentParser, tr: Translator) -> None:
    pass


def find_game(name: str, tr: Translator) -> type[Game]:
    """The game of that name; ValueError naming the games, in the reader's language."""
    if name not in games():
        raise ValueError(tr("unknown_game", name=name, games=", ".join(games())))
    return game_class(name)


def players_text(cls: type[Game]) -> str:
    lo, hi = cls.min_players, cls.max_players
    return str(lo) if lo == hi else f"{lo}–{hi}"


def run_games(args: argparse.Namespace, ui: Console) -> int:
    tr = ui.tr
    rows: list[tuple[str, str, str]] = []
    for name in games():
        try:
            cls = game_class(name)
        except Exception as e:  # a game module being written may fail to import
            rows.append((name, "?", tr("unavailable", error=type(e).__name__)))
            continue
        rows.append((name, players_text(cls), cls.declaration.title(tr.lang)))
    header = (tr("col_game"), tr("col_players"), tr("col_title"))
    ui.lines(table([header, *rows]))
    ui.say()
    ui.say(tr("games_hint"))
    return 0


def table(rows: Sequence[Sequence[str]], indent: str = "") -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [(indent + "  ".join(c.ljust(w) for c, w in zip(r, widths))).rstrip() for r in rows]


# ---- rules


def configure_rules(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("game", metavar="NAME", help=tr("help_game_name"))


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def valid_values(f: Any, tr: Translator) -> str:
    meta = f.metadata
    if meta.get("choices") is not None:
        return ", ".join(_option_text(c) for c in meta["choices"])
    if meta.get("int_range"):
        lo, hi = meta["int_range"]
        return tr("values_range", lo=lo, hi=hi)
    if meta.get("positive_int"):
        return tr("values_positive")
    return tr("values_any")


def option_rows(cls: type[Game], tr: Translator) -> list[tuple[str, str, str]]:
    """(name, default, valid values) for each option of a game."""
    return [(name, _option_text(f.default), valid_values(f, tr))
            for name, f in cls.option_fields().items()]


def run_rules(args: argparse.Namespace, ui: Console) -> int:
    tr = ui.tr
    try:
        game = find_game(args.game, tr)()
    except ValueError as e:
        ui.error(str(e))
        return 2
    cls = type(game)
    heading = game.declaration.title(tr.lang)  # the name to type is in the closing hint
    # The rules for players come from the declaration, in the reader's language; the module
    # docstrings are written for programmers (markup, move codes, pointers to the sources).
    lines = [heading, "=" * len(heading), "",
             rules_text(game.declaration, game.options_dict(), tr.lang), "",
             tr("players_line", players=players_text(cls))]
    rows = option_rows(cls, tr)
    if rows:
        lines.append(tr("options_heading"))
        header = (tr("col_option"), tr("col_default"), tr("col_values"))
        lines.extend(table([header, *rows], indent="  "))
    else:
        lines.append(tr("no_options"))
    lines += ["", tr("rules_hint", game=cls.name)]
    ui.page("\n".join(lines))
    return 0
