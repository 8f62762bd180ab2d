"""Terminal input and output, and what a subcommand is."""

from __future__ import annotations

import argparse
import contextlib
import pydoc
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..i18n import LANGS, Translator

__all__ = ["Command", "Console", "add_lang"]

# --------------------------------------------------------------------------------------------
# Console: every line in and out goes through sys.stdin / sys.stdout as they are at call time,
# so tests can swap them.


class Console:
    """Terminal input and output in one language."""

    def __init__(self, tr: Translator) -> None:
        self.tr = tr

    def say(self, text: str = "") -> None:
        print(text, file=sys.stdout, flush=True)

    def lines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.say(line)

    def page(self, text: str) -> None:
        """A long text: through the pager on a terminal, so it can be scrolled and searched;
        printed as it is to a file or a pipe."""
        if _isatty(sys.stdout):
            pydoc.pager(text)
        else:
            self.say(text)

    def error(self, text: str) -> None:
        self.say(self.tr("error_prefix", error=text))

    def ask(self, prompt: str) -> str:
        """One line of input (without its newline); EOFError at the end of the input.

        Input that does not come from a terminal is echoed, so a transcript reads as a dialogue.
        """
        if _isatty(sys.stdin):
            _line_editing()
        line = input(prompt)
        if not _isatty(sys.stdin):
            print(line, file=sys.stdout, flush=True)
        return line


def _line_editing() -> None:
    """Give ``input()`` line editing and history (arrow keys move the cursor instead of
    printing ``^[[D``): importing ``readline`` is what switches it on. Windows has no readline,
    and input then stays as the console gives it."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


@dataclass(frozen=True)
class Command:
    """One subcommand: its help (an i18n key or literal text), its arguments and its runner."""

    help: str
    configure: Callable[[argparse.ArgumentParser, Translator], None]
    run: Callable[[argparse.Namespace, Console], int]
    aliases: tuple[str, ...] = field(default=())


def add_lang(p: argparse.ArgumentParser, tr: Translator, top: bool = False) -> None:
    p.add_argument("--lang", choices=LANGS, default=None if top else argparse.SUPPRESS,
                   help=tr("help_lang", langs=", ".join(LANGS)))
