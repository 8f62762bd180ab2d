"""``cardplay tui [GAME]``: a match at the terminal table, and ``cardplay replay --tui``.

Textual is imported only here, when the table opens, so ``cardplay`` runs without the extra and
``cardplay tui`` without it says how to install it.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from .. import bots as bots_mod
from ..engine import Game, Match, RecordError, derive_seed, game_class, games, replay
from ..i18n import Translator
from ..wording import level_name
from .table import Session, fresh_match

__all__ = ["configure_tui", "game_entries", "new_session", "open_replay", "run_tui"]


def configure_tui(p: argparse.ArgumentParser, tr: Translator) -> None:
    from ..cli.play import add_table_arguments  # the cli imports this module

    p.add_argument("game", metavar="NAME", nargs="?", default=None, help=tr("help_tui_game"))
    add_table_arguments(p, tr)
    p.add_argument("--bot-delay", type=float, default=0.6, help=argparse.SUPPRESS)


def _textual_app() -> Any:
    """The Textual app class, or None when the extra is not installed."""
    try:
        from .app import TableApp
    except ImportError:
        return None
    return TableApp


def game_entries(tr: Translator) -> list[tuple[str, str]]:
    """Each game's name and how the picker lists it: its title and its number of players."""
    out = []
    for name in games():
        cls = game_class(name)
        lo, hi = cls.min_players, cls.max_players
        players = tr("players_line", players=str(lo) if lo == hi else f"{lo}–{hi}")
        out.append((name, f"{cls.declaration.title(tr.lang)} · {players}"))
    return out


def new_session(game: Game, seed: int, seat: int, level: str, tr: Translator,
                path: Path | None) -> Session:
    """A match of ``game`` from ``seed`` with the person at ``seat`` and bots of ``level``
    elsewhere, seeded as ``cardplay play`` seeds them, so a seed gives the same match in both."""
    bots = {s: bots_mod.load(level, game, seed=derive_seed(seed, "cli-bot", s))
            for s in range(game.players) if s != seat}
    title = f"{game.declaration.title(tr.lang)} · {tr('tui_vs', level=level_name(level, tr))}"
    return Session(game.match(seed), seat, tr, bots=bots, path=path, title=title)


def run_tui(args: argparse.Namespace, ui: Any) -> int:
    tr = ui.tr
    app_class = _textual_app()
    if app_class is None:
        ui.error(tr("tui_needs_extra"))
        return 2
    if args.game is None:
        from .app import PickerApp  # importable: the table's module just was

        args.game = PickerApp(tr, game_entries(tr)).run()
        if args.game is None:
            return 0
    from ..cli.play import make_game  # the game and its options are named as for `cardplay play`

    game = make_game(args, ui)
    if game is None:
        return 2
    if not 0 <= args.seat < game.players:
        ui.error(tr("bad_seat", seat=args.seat, last=game.players - 1))
        return 2
    from ..cli.play import default_level

    level = args.vs or default_level(game)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    path = Path(args.save) if args.save else Path(f"cardplay-{game.name}-{seed}.json")
    try:
        session = new_session(game, seed, args.seat, level, tr, path)
    except ValueError as e:
        ui.error(str(e))
        return 2
    app = app_class(session, bot_delay=args.bot_delay)
    app.run()
    if not app.saved:
        app.saved = session.save()
    ui.say(app.saved)
    return 0


def open_replay(path: str, seat: int | None, ui: Any) -> int:
    """``cardplay replay FILE --tui``: the record on the table, one move per key."""
    tr = ui.tr
    app_class = _textual_app()
    if app_class is None:
        ui.error(tr("tui_needs_extra"))
        return 2
    try:
        text = Path(path).read_text(encoding="utf-8")
        replay(text)
        record = json.loads(text)
    except (OSError, UnicodeDecodeError) as e:
        ui.error(tr("cannot_read", path=path, error=getattr(e, "strerror", None) or str(e)))
        return 2
    except RecordError as e:
        ui.error(tr("corrupt_record", error=str(e)))
        return 2
    target = fresh_match(record)
    if not isinstance(target, Match):
        ui.error(tr("tui_replay_match_only"))
        return 2
    if seat is not None and not 0 <= seat < target.players:
        ui.error(tr("bad_seat", seat=seat, last=target.players - 1))
        return 2
    session = Session(target, seat or 0, tr, script=record["moves"])
    app_class(session, bot_delay=0).run()
    return 0
