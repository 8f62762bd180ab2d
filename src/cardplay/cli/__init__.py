"""The ``cardplay`` command: list the games, read their rules, play a match, replay a record.

Every subcommand is one entry of :data:`COMMANDS`: a help text, a function that adds its
arguments to an ``argparse`` subparser, and a function that runs it and returns the exit status.
Adding a subcommand (the arena, a benchmark) is one more entry::

    COMMANDS["arena"] = Command(help="cmd_arena", configure=_configure_arena, run=_run_arena)

The command drives a match the way every front-end does (DESIGN.md section 1): it asks
``match.to_move``, gets a move from the person or from that seat's bot (which sees only its
``View``), and calls ``match.play``. It works over the public API only, so every registered game
is playable as soon as it appears; :data:`LAYOUTS` gives some games a tidier display, and any
other game falls back to a generic rendering of its view's public state.

Exit status: 0 on success (and when a person quits a match or ends the input), 2 for bad
arguments, options or records, 130 when interrupted with Ctrl-C, 1 when a record cannot be saved.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Sequence

from ..i18n import ARGPARSE, LANGS, Translator, detect_lang, translate
from ..tui.command import configure_tui, run_tui
from .console import Command, Console, add_lang
from .daily import configure_daily, run_daily
from .info import configure_games, configure_rules, run_games, run_rules
from .play import configure_play, configure_replay, run_play, run_replay
from .render import pretty_move, render_view
from .review import configure_review, run_review
from .tools import (
    configure_arena,
    configure_db,
    configure_serve,
    configure_verify,
    run_arena,
    run_db,
    run_serve,
    run_verify,
)

__all__ = ["COMMANDS", "Command", "Console", "build_parser", "main", "pretty_move", "render_view"]

COMMANDS: dict[str, Command] = {
    "games": Command(help="cmd_games", configure=configure_games, run=run_games),
    "rules": Command(help="cmd_rules", configure=configure_rules, run=run_rules),
    "play": Command(help="cmd_play", configure=configure_play, run=run_play),
    "replay": Command(help="cmd_replay", configure=configure_replay, run=run_replay),
    "arena": Command(help="cmd_arena", configure=configure_arena, run=run_arena),
    "serve": Command(help="cmd_serve", configure=configure_serve, run=run_serve),
    "db": Command(help="cmd_db", configure=configure_db, run=run_db),
    "verify": Command(help="cmd_verify", configure=configure_verify, run=run_verify),
    "daily": Command(help="cmd_daily", configure=configure_daily, run=run_daily),
    "review": Command(help="cmd_review", configure=configure_review, run=run_review),
    "tui": Command(help="cmd_tui", configure=configure_tui, run=run_tui),
}


# --------------------------------------------------------------------------------------------
# Entry point


def _lang_in_argv(argv: Sequence[str]) -> str | None:
    for i, a in enumerate(argv):
        if a == "--lang" and i + 1 < len(argv) and argv[i + 1] in LANGS:
            return argv[i + 1]
        if a.startswith("--lang=") and a[7:] in LANGS:
            return a[7:]
    return None


def build_parser(tr: Translator) -> argparse.ArgumentParser:
    """The argument parser, with one subparser per entry of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(prog="cardplay", description=tr("description"))
    add_lang(parser, tr, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, cmd in COMMANDS.items():
        text = tr(cmd.help)
        p = sub.add_parser(name, help=text, description=text, aliases=list(cmd.aliases))
        add_lang(p, tr)
        cmd.configure(p, tr)
        p.set_defaults(_command=name)
    return parser


def _unicode_stdout() -> None:
    """Let a terminal that cannot show ♠ get a replacement character instead of a crash."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # a closed or odd stream
            reconfigure(errors="replace")


def _argparse_speaks(lang: str) -> None:
    """argparse's own words (``usage:``, ``options``, its errors) from the catalogue: argparse
    asks its module's ``_`` and ``ngettext``, which are the standard library's gettext, whose
    Python ships no German or Russian for them."""
    setattr(argparse, "_", lambda text: translate(text, lang, ARGPARSE))  # noqa: B010
    setattr(argparse, "ngettext",  # noqa: B010
            lambda one, many, n: translate(one if n == 1 else many, lang, ARGPARSE))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cardplay`` command; return its exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    _unicode_stdout()
    lang = _lang_in_argv(args_list) or detect_lang(os.environ)
    _argparse_speaks(lang)
    parser = build_parser(Translator(lang))
    try:
        args = parser.parse_args(args_list)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    name = getattr(args, "_command", None)
    if name is None:
        parser.print_help(sys.stdout)
        return 2
    ui = Console(Translator(args.lang or lang))
    try:
        return COMMANDS[name].run(args, ui)
    except BrokenPipeError:  # the output was closed early (`cardplay rules NAME | head`)
        _silence_stdout()
        return 1
    except KeyboardInterrupt:  # Ctrl-C outside a match (a match saves its record first)
        ui.say()
        ui.say(ui.tr("interrupted"))
        return 130


def _silence_stdout() -> None:
    """Point stdout at the null device so the interpreter's final flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
