"""``cardplay games`` and ``cardplay rules``: what there is to play, and how."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from ..engine import Game, game_class, games
from ..i18n import Translator
from .console import Console

__all__ = ["configure_games", "configure_rules", "option_rows", "players_text", "run_games",
           "run_rules", "table"]

# ---- games


def configure_games(p: argparse.ArgumentParser, tr: Translator) -> None:
    pass


def players_text(cls: type[Game]) -> str:
    lo, hi = cls.min_players, cls.max_players
    return str(lo) if lo == hi else f"{lo}–{hi}"


def run_games(args: argparse.Namespace, ui: Console) -> int:
    tr = ui.tr
    rows: list[tuple[str, str, str, str]] = []
    for name in games():
        try:
            cls = game_class(name)
        except Exception as e:  # a game module being written may fail to import
            rows.append((name, "?", tr("unavailable", error=type(e).__name__), ""))
            continue
        title = dict(cls.title)
        rows.append((name, players_text(cls), title.get("en", name), title.get("ru", "")))
    header = (tr("col_game"), tr("col_players"), "English", "Русский")
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


def _valid_values(f: Any, tr: Translator) -> str:
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
    return [(name, _option_text(f.default), _valid_values(f, tr))
            for name, f in cls.option_fields().items()]


def run_rules(args: argparse.Namespace, ui: Console) -> int:
    tr = ui.tr
    try:
        cls = game_class(args.game)
    except ValueError as e:
        ui.error(str(e))
        return 2
    module = sys.modules[cls.__module__]
    title = dict(cls.title)
    heading = title.get(tr.lang) or title.get("en") or cls.name
    heading = f"{heading} ({cls.name})"
    ui.say(heading)
    ui.say("=" * len(heading))
    text = (module.__doc__ or "").strip()
    if tr.lang == "ru":
        ru = getattr(module, "RULES_RU", None)
        if isinstance(ru, str) and ru.strip():
            text = ru.strip()
        else:
            ui.say(tr("no_russian_rules"))
    ui.say(text)
    ui.say()
    ui.say(tr("players_line", players=players_text(cls)))
    rows = option_rows(cls, tr)
    if rows:
        ui.say(tr("options_heading"))
        header = (tr("col_option"), tr("col_default"), tr("col_values"))
        ui.lines(table([header, *rows], indent="  "))
        docs = [(name, f.metadata.get("doc", "")) for name, f in cls.option_fields().items()]
        docs = [(n, d) for n, d in docs if d]
        if docs:
            ui.say()
            for name, doc in docs:
                ui.say(f"  {name}: {doc}")
    else:
        ui.say(tr("no_options"))
    ui.say()
    ui.say(tr("rules_hint", game=cls.name))
    return 0
