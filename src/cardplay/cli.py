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
import json
import os
import random
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import bots as bots_mod
from .cards import SUIT_CHARS, SUIT_SYMBOLS, Card
from .engine import (
    Deal,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    Move,
    RecordError,
    View,
    derive_seed,
    game_class,
    games,
    load,
    replay,
)
from .i18n import LANGS, Translator, detect_lang

__all__ = ["COMMANDS", "LAYOUTS", "Command", "Layout", "build_parser", "main", "pretty_move",
           "render_view"]

SeatNamer = Callable[[int], str]

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

    def error(self, text: str) -> None:
        self.say(self.tr("error_prefix", error=text))

    def ask(self, prompt: str) -> str:
        """One line of input (without its newline); EOFError at the end of the input.

        Input that does not come from a terminal is echoed, so a transcript reads as a dialogue.
        """
        line = input(prompt)
        if not _isatty(sys.stdin):
            print(line, file=sys.stdout, flush=True)
        return line


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class _Quit(Exception):
    """The person asked to leave the match."""


# --------------------------------------------------------------------------------------------
# Display of cards, moves and views

_CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][SHDC])(?![0-9A-Za-z])")
_SUIT_AFTER_EQ = re.compile(r"=([SHDC])$")


def pretty_move(text: str) -> str:
    """Canonical text with cards shown as ``A♠``/``10♥`` (``KH=20`` -> ``K♥=20``)."""
    out = _CARD_TOKEN.sub(lambda m: Card(m.group(1)).pretty(), text)
    return _SUIT_AFTER_EQ.sub(lambda m: "=" + SUIT_SYMBOLS[SUIT_CHARS.index(m.group(1))], out)


def _suit_symbol(letter: str) -> str:
    return SUIT_SYMBOLS[SUIT_CHARS.index(letter)] if letter in SUIT_CHARS else letter


Gloss = Callable[[str, Translator], str | None]


def _gloss_keywords(text: str, tr: Translator) -> str | None:
    """A short explanation of a keyword move (``close``, ``stake 25``) in the UI language."""
    words = text.split()
    if not words:
        return None
    word = words[0].lower()
    if word == "stake" and len(words) == 2:
        return tr("move_stake", n=words[1])
    if word in ("exchange", "close", "draw", "pass", "take", "buy", "stand"):
        return tr(f"move_{word}")
    return None


def _gloss_sixty_six(text: str, tr: Translator) -> str | None:
    m = re.fullmatch(r"[KQ][SHDC]=(20|40)", text)
    if m:
        return tr("move_marriage", points=m.group(1))
    return _gloss_keywords(text, tr)


def _gloss_two_ten_jack(text: str, tr: Translator) -> str | None:
    m = re.fullmatch(r"AS=([SHDC])", text)
    if m:
        if m.group(1) == "S":
            return tr("move_as_spade")
        return tr("move_as_trump", suit=_suit_symbol(m.group(1)))
    return _gloss_keywords(text, tr)


@dataclass(frozen=True)
class Fmt:
    """What formatting a view's values needs: the language, seat names, seat count, layout."""

    tr: Translator
    names: SeatNamer
    players: int
    layout: Layout

    def seat(self, value: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool) and \
                0 <= value < self.players:
            return self.names(value)
        return "—" if value is None else str(value)

    def cards(self, cards: Iterable[str]) -> str:
        return " ".join(pretty_move(c) for c in cards) or "—"


PublicRenderer = Callable[[View, Fmt], list[str]]


@dataclass(frozen=True)
class Layout:
    """How one game's views are shown. ``render`` (when set) writes the public state's lines
    itself; otherwise every public key is shown: those in ``order`` first, none of ``hide``,
    ``per_seat`` lists seat by seat, ``seat_lists`` (lists of seats) by seat name, only the
    length of ``count_only`` lists and the last item of ``last_only`` lists. ``gloss`` explains
    moves in the menu."""

    order: tuple[str, ...] = ()
    hide: frozenset[str] = frozenset()
    per_seat: frozenset[str] = frozenset()
    seat_lists: frozenset[str] = frozenset()
    count_only: frozenset[str] = frozenset()
    last_only: frozenset[str] = frozenset()
    gloss: Gloss = _gloss_keywords
    render: PublicRenderer | None = None


GENERIC = Layout()

# Lists of whole numbers, one per seat, under keys named like these are shown seat by seat.
_PER_SEAT_SUFFIXES = ("sizes", "scores", "chips", "stakes", "counts", "per_seat", "by_seat",
                      "drawn", "tricks_won", "points", "pending")
# Lists of whole numbers under keys named like these are lists of seats.
_SEAT_LIST_KEYS = {"out", "punters", "dealt_to", "winners", "losers", "seats"}
# Whole numbers under keys named like these are seats.
_SEAT_KEYS = {"seat", "leader", "winner", "loser", "starter", "banker", "dealer", "taker",
              "closer", "player", "punter"}
_SEAT_SUFFIXES = ("_by", "_taker", "_scorer", "_to", "_seat", "_winner", "_leader", "_starter",
                  "_player")


def _layout(game: str) -> Layout:
    return LAYOUTS.get(game, GENERIC)


def _is_per_seat(key: str, value: Any, fmt: Fmt) -> bool:
    if not isinstance(value, (list, tuple)) or len(value) != fmt.players:
        return False
    if key in fmt.layout.per_seat:
        return True
    if not all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in value):
        return False
    return key.endswith(_PER_SEAT_SUFFIXES)


def _is_seat_key(key: str) -> bool:
    return key in _SEAT_KEYS or key.endswith(_SEAT_SUFFIXES)


def _per_seat(values: Sequence[Any], names: SeatNamer, tr: Translator, signed: bool = False) -> str:
    parts = []
    for seat, v in enumerate(values):
        shown = "—" if v is None else (f"{v:+d}" if signed and isinstance(v, int) else str(v))
        parts.append(f"{names(seat)} {shown}")
    return " · ".join(parts)


def format_value(value: Any, fmt: Fmt, key: str = "") -> str:
    """A public value as text: cards with suit symbols, seats by name, lists joined, booleans as
    yes/no; ``key`` (the value's name in the view) tells seats, suits and per-seat lists apart."""
    tr = fmt.tr
    if value is None:
        return "—"
    if isinstance(value, bool):
        return tr("yes") if value else tr("no")
    if isinstance(value, int) and _is_seat_key(key):
        return fmt.seat(value)
    if isinstance(value, str):
        if (key == "suit" or key.endswith("_suit")) and value in SUIT_CHARS and value:
            return _suit_symbol(value)
        return pretty_move(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, Mapping):
        if set(value) == {"seat", "card"}:  # a card played by a seat
            return f"{fmt.seat(value['seat'])} {format_value(value['card'], fmt, 'card')}"
        parts = [f"{tr.label(str(k))}: {format_value(v, fmt, str(k))}"
                 for k, v in value.items() if v is not None]
        return "; ".join(parts) or "—"
    if isinstance(value, (list, tuple)):
        if not value:
            return "—"
        if key in fmt.layout.count_only:
            return str(len(value))
        if key in fmt.layout.last_only:
            return format_value(value[-1], fmt, key)
        ints = all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        if ints and (key in _SEAT_LIST_KEYS or key in fmt.layout.seat_lists):
            return ", ".join(fmt.seat(v) for v in value)
        if ints and len(value) == 2 and key.endswith("_range"):
            return f"{value[0]}–{value[1]}"
        if _is_per_seat(key, value, fmt):
            return " · ".join(f"{fmt.names(s)} {format_value(v, fmt)}"
                              for s, v in enumerate(value))
        if all(isinstance(v, str) for v in value):
            return " ".join(pretty_move(v) for v in value)
        if all(isinstance(v, Mapping) for v in value):
            return " | ".join(format_value(v, fmt, key) for v in value)
        if all(isinstance(v, (list, tuple)) for v in value):
            return " | ".join(format_value(v, fmt) for v in value)
        return ", ".join(format_value(v, fmt) for v in value)
    return str(value)


def _generic_public(view: View, fmt: Fmt, skip: Mapping[str, Any] | None = None) -> list[str]:
    layout, tr = fmt.layout, fmt.tr
    public = dict(view.public)
    keys = [k for k in layout.order if k in public]
    keys += [k for k in public if k not in keys]
    lines = []
    for key in keys:
        if key in layout.hide:
            continue
        value = public[key]
        if value is None or (skip is not None and key in skip and skip[key] == value):
            continue
        lines.append(f"{tr.label(key)}: {format_value(value, fmt, key)}")
    return lines


def _public_lines(view: View, tr: Translator, names: SeatNamer,
                  skip: Mapping[str, Any] | None = None) -> list[str]:
    """The public state's lines; a game's own renderer falls back to the generic one if the
    view does not have the shape it expects (games may grow new keys)."""
    layout = _layout(view.game)
    fmt = Fmt(tr, names, view.players, layout)
    if layout.render is not None and skip is None:
        try:
            return layout.render(view, fmt)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass
    return _generic_public(view, fmt, skip)


def _render_sixty_six(view: View, fmt: Fmt) -> list[str]:
    """Sixty-Six: trump and talon, the trick on the table, marriages, known cards."""
    p, tr, seat = view.public, fmt.tr, fmt.seat
    lines = []
    trump = _suit_symbol(p["trump_suit"])
    if p.get("closed_by") is not None:
        talon = tr("ss_talon_closed", who=seat(p["closed_by"]), n=p["stock"])
    elif p.get("trump_card"):
        talon = tr("ss_talon_open", n=p["stock"], card=pretty_move(p["trump_card"]))
    else:
        talon = tr("ss_talon_gone")
    lines.append(tr("ss_trump", suit=trump) + " · " + talon)
    if p.get("trump_card_taker") is not None:
        lines.append(tr("ss_trump_taken", card=pretty_move(p["turned_trump"]),
                        who=seat(p["trump_card_taker"])))
    ex = p.get("exchange")
    if ex:
        lines.append(tr("ss_exchange", who=seat(ex["seat"]), took=pretty_move(ex["took"]),
                        gave=pretty_move(ex["gave"])))
    if p.get("phase") == 2 and not view.is_over:
        lines.append(tr("ss_phase2"))
    for m in p.get("marriages") or ():
        lines.append(tr("ss_marriage", who=seat(m["seat"]), points=m["points"],
                        suit=_suit_symbol(m["suit"]), card=pretty_move(m["shown"])))
    if any(p.get("pending") or ()):
        lines.append(tr("ss_pending", points=_per_seat(p["pending"], fmt.names, tr)))
    tricks = p.get("tricks") or ()
    if tricks:
        last = tricks[-1]
        lines.append(tr("ss_last_trick", cards=fmt.cards(last["cards"]),
                        who=seat(last["winner"])))
    lines.append(tr("ss_tricks_won", tricks=_per_seat(p["tricks_won"], fmt.names, tr)))
    known = p.get("known_cards") or ()
    for s, cards in enumerate(known):
        if cards and s != view.seat and not view.is_over:
            lines.append(tr("ss_known", who=seat(s), cards=fmt.cards(cards)))
    if p.get("stand_bonus"):
        lines.append(tr("ss_stand_bonus", n=p["stand_bonus"]))
    if p.get("last_trick_bonus") is not None:
        lines.append(tr("ss_last_bonus", who=seat(p["last_trick_bonus"])))
    for t in p.get("trick") or ():
        note = " (" + tr("ss_with_marriage") + ")" if t.get("marriage") else ""
        lines.append(tr("ss_on_table", who=seat(t["seat"]), card=pretty_move(t["card"])) + note)
    out = p.get("outcome")
    if out:
        reason = tr(f"ss_reason_{out['reason']}")
        if out.get("winner") is not None:
            lines.append(tr("ss_outcome_won", who=seat(out["winner"]), n=out["game_points"],
                            reason=reason))
        else:
            lines.append(reason)
        if out.get("stand_bonus_next"):
            lines.append(tr("ss_stand_next", n=out["stand_bonus_next"]))
    return lines


LAYOUTS: dict[str, Layout] = {
    "sixty-six": Layout(gloss=_gloss_sixty_six, render=_render_sixty_six),
    "two-ten-jack": Layout(gloss=_gloss_two_ten_jack, hide=frozenset({"won"}),
                           per_seat=frozenset({"tricks_won", "hand_points", "hand_sizes"})),
    "maltese-twenty": Layout(count_only=frozenset({"cleared"})),
    "banchok": Layout(hide=frozenset({"deck_parts"})),
    "macao": Layout(count_only=frozenset({"used"}),
                    per_seat=frozenset({"chips_at_start", "bought", "status", "shown", "stakes"})),
    "chukhny": Layout(per_seat=frozenset({"hand_sizes", "drawn", "known", "hands"}),
                      last_only=frozenset({"draws"})),
}


def render_view(view: View, tr: Translator, names: SeatNamer, *, show_points: bool = True,
                show_hand: bool = True, you: int | None = None) -> list[str]:
    """The lines that show a view: deal header, match scores, public state, points, hand.
    ``you`` is the seat of the person at the terminal, if any."""
    lines: list[str] = []
    head = tr("dealer_is", who=names(view.dealer))
    if view.match is not None:
        head = tr("deal_number", n=view.match.get("deal_number", 1)) + " · " + head
    lines.append(f"── {head} ──")
    if view.match is not None and "scores" in view.match:
        lines.append(tr("match_scores", scores=_per_seat(view.match["scores"], names, tr)))
    lines.extend("  " + line for line in _public_lines(view, tr, names))
    if show_points and any(view.points):
        lines.append(tr("deal_points", points=_per_seat(view.points, names, tr)))
    if show_hand and view.hand:
        hand = " ".join(c.pretty() for c in view.hand)
        lines.append(tr("your_hand", cards=hand) if view.seat == you else
                     tr("hand_of", who=names(view.seat), cards=hand))
    if view.is_over and view.result is not None:
        lines.append(tr("deal_result", result=_per_seat(view.result, names, tr, signed=True)))
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


def _menu_lines(moves: Sequence[Move], tr: Translator, game: str, width: int = 78) -> list[str]:
    gloss = _layout(game).gloss
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
        note = gloss(moves[i].text, tr)
        if note == moves[i].text:
            note = None
        items.append(f"{i + 1}) {pretty_move(moves[i].text)}" + (f" ({note})" if note else ""))
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


# --------------------------------------------------------------------------------------------
# Commands


@dataclass(frozen=True)
class Command:
    """One subcommand: its help (an i18n key or literal text), its arguments and its runner."""

    help: str
    configure: Callable[[argparse.ArgumentParser, Translator], None]
    run: Callable[[argparse.Namespace, Console], int]
    aliases: tuple[str, ...] = field(default=())


def _add_lang(p: argparse.ArgumentParser, tr: Translator, top: bool = False) -> None:
    p.add_argument("--lang", choices=LANGS, default=None if top else argparse.SUPPRESS,
                   help=tr("help_lang"))


# ---- games


def _configure_games(p: argparse.ArgumentParser, tr: Translator) -> None:
    pass


def _players_text(cls: type[Game]) -> str:
    lo, hi = cls.min_players, cls.max_players
    return str(lo) if lo == hi else f"{lo}–{hi}"


def _run_games(args: argparse.Namespace, ui: Console) -> int:
    tr = ui.tr
    rows: list[tuple[str, str, str, str]] = []
    for name in games():
        try:
            cls = game_class(name)
        except Exception as e:  # a game module being written may fail to import
            rows.append((name, "?", tr("unavailable", error=type(e).__name__), ""))
            continue
        title = dict(cls.title)
        rows.append((name, _players_text(cls), title.get("en", name), title.get("ru", "")))
    header = (tr("col_game"), tr("col_players"), "English", "Русский")
    ui.lines(_table([header, *rows]))
    ui.say()
    ui.say(tr("games_hint"))
    return 0


def _table(rows: Sequence[Sequence[str]], indent: str = "") -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [(indent + "  ".join(c.ljust(w) for c, w in zip(r, widths))).rstrip() for r in rows]


# ---- rules


def _configure_rules(p: argparse.ArgumentParser, tr: Translator) -> None:
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


def _run_rules(args: argparse.Namespace, ui: Console) -> int:
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
    ui.say(tr("players_line", players=_players_text(cls)))
    rows = option_rows(cls, tr)
    if rows:
        ui.say(tr("options_heading"))
        header = (tr("col_option"), tr("col_default"), tr("col_values"))
        ui.lines(_table([header, *rows], indent="  "))
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


# ---- play


def _configure_play(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("game", metavar="NAME", help=tr("help_game_name"))
    p.add_argument("--vs", metavar="LEVEL", choices=bots_mod.LEVELS, default=None,
                   help=tr("help_vs", levels=", ".join(bots_mod.LEVELS)))
    p.add_argument("--seed", type=int, default=None, help=tr("help_seed"))
    p.add_argument("--seat", type=int, default=0, help=tr("help_seat"))
    p.add_argument("--players", type=int, default=None, help=tr("help_players"))
    p.add_argument("--option", "-o", metavar="K=V", action="append", default=[],
                   help=tr("help_option"))
    p.add_argument("--save", metavar="FILE", default=None, help=tr("help_save"))
    p.add_argument("--auto", action="store_true", help=tr("help_auto"))
    p.add_argument("--hide-points", action="store_true", help=tr("help_hide_points"))


def _parse_options(pairs: Sequence[str], tr: Translator) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(tr("bad_option_syntax", text=pair))
        out[key.strip()] = value.strip()
    return out


def _make_game(args: argparse.Namespace, ui: Console) -> Game | None:
    tr = ui.tr
    try:
        cls = game_class(args.game)
        options: dict[str, Any] = dict(_parse_options(args.option, tr))
    except ValueError as e:
        ui.error(str(e))
        return None
    if args.players is not None:
        if "players" in cls.option_fields():
            options["players"] = args.players
        elif args.players != cls.min_players:
            ui.error(tr("players_fixed", game=cls.name, players=_players_text(cls)))
            return None
    try:
        return cls(**options)
    except ValueError as e:  # OptionError names the valid values
        ui.error(str(e))
        return None


def _default_level(game: Game) -> str:
    try:
        bots_mod.load("heuristic", game, seed=0)
    except ValueError:
        return "random"
    return "heuristic"


class _Player:
    """The person's seat, and how every seat is named to them ("You", "Bot 1")."""

    def __init__(self, tr: Translator, seat: int) -> None:
        self.tr = tr
        self.seat = seat

    def name(self, seat: int) -> str:
        return self.tr("you") if seat == self.seat else self.tr("bot_seat", seat=seat)


def _run_play(args: argparse.Namespace, ui: Console) -> int:
    tr = ui.tr
    game = _make_game(args, ui)
    if game is None:
        return 2
    n = game.players
    if not 0 <= args.seat < n:
        ui.error(tr("bad_seat", seat=args.seat, last=n - 1))
        return 2
    level = args.vs or _default_level(game)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    try:
        seat_bots = {s: bots_mod.load(level, game, seed=derive_seed(seed, "cli-bot", s))
                     for s in range(n) if s != args.seat}
        match = game.match(seed)
    except ValueError as e:
        ui.error(str(e))
        return 2
    player = _Player(tr, args.seat)
    path = Path(args.save) if args.save else Path(f"cardplay-{game.name}-{seed}.json")
    title = dict(type(game).title)
    ui.say(tr("play_banner", title=title.get(tr.lang) or title.get("en") or game.name,
              seed=seed, level=level, seat=args.seat))
    ui.say(tr("play_help_short"))
    status = 0
    try:
        _play_loop(match, game, seat_bots, player, ui, args)
    except KeyboardInterrupt:
        ui.say()
        ui.say(tr("interrupted"))
        status = 130
    except EOFError:
        ui.say()
        ui.say(tr("end_of_input"))
    except _Quit:
        ui.say(tr("quit"))
    finally:
        saved = _save_record(match.record(), path, ui)
    if not saved and status == 0:
        status = 1
    return status


def _save_record(record: Mapping[str, Any], path: Path, ui: Console) -> bool:
    try:
        with path.open("w", encoding="utf-8") as f:
            json.dump(record, f, ensure_ascii=False, indent=1)
            f.write("\n")
    except OSError as e:
        ui.error(ui.tr("cannot_save", path=str(path), error=e.strerror or str(e)))
        return False
    ui.say(ui.tr("record_saved", path=str(path)))
    return True


def _play_loop(match: Match, game: Game, seat_bots: Mapping[int, bots_mod.Bot], player: _Player,
               ui: Console, args: argparse.Namespace) -> None:
    tr = ui.tr
    deals_done = len(match.deals)
    started = -1
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        if started != len(match.deals):
            started = len(match.deals)
            ui.say()
            ui.say(tr("deal_starts", n=started + 1, who=player.name(match.deal.dealer)))
        if seat == player.seat:
            view = match.view(seat)
            ui.say()
            ui.lines(render_view(view, tr, player.name, show_points=not args.hide_points,
                                 you=player.seat))
            text = _ask_move(match, view, ui, player, auto=args.auto)
            ui.say(tr("plays", who=player.name(seat), move=pretty_move(text)))
        else:
            move = seat_bots[seat].choose(match.view(seat))
            match.play(move, seat=seat)
            ui.say(tr("plays", who=player.name(seat), move=pretty_move(match.moves[-1][1])))
        if len(match.deals) > deals_done:
            for number in range(deals_done, len(match.deals)):
                ui.lines(_deal_end_lines(match, number, player.seat, tr, player.name,
                                         show_points=not args.hide_points))
            deals_done = len(match.deals)
    ui.say()
    ui.say(tr("match_over", scores=_per_seat(match.scores, player.name, tr)))
    winners = match.winners
    if not winners:
        ui.say(tr("no_winner"))
    elif winners == [player.seat]:
        ui.say(tr("you_win"))
    else:
        ui.say(tr("winners", who=", ".join(player.name(s) for s in winners)))


def _deal_end_lines(match: Match, number: int, seat: int, tr: Translator, names: SeatNamer,
                    show_points: bool = True) -> list[str]:
    """How deal ``number`` (0-based) of a match ended, as ``seat`` sees it, and the scores."""
    deal = match.deals[number]
    view = deal.view(seat)
    lines = ["", tr("deal_over", n=number + 1)]
    lines.extend("  " + line for line in _public_lines(view, tr, names))
    if show_points:
        lines.append(tr("deal_points", points=_per_seat(view.points, names, tr)))
    result = deal.result or [0] * deal.players
    lines.append(tr("deal_result", result=_per_seat(result, names, tr, signed=True)))
    scores = [sum((d.result or [0] * d.players)[s] for d in match.deals[:number + 1])
              for s in range(deal.players)]
    lines.append(tr("match_scores", scores=_per_seat(scores, names, tr)))
    return lines


_QUIT_WORDS = {"q", "quit", "exit", "в", "выход"}
_HELP_WORDS = {"?", "h", "help", "помощь"}


def _ask_move(match: Match, view: View, ui: Console, player: _Player, auto: bool) -> str:
    """Ask until the person enters a legal move; play it and return its canonical text."""
    tr = ui.tr
    legal = list(view.legal_moves)
    if auto and len(legal) == 1:
        match.play(legal[0], seat=player.seat)
        return legal[0].text
    ui.lines(_menu_lines(legal, tr, view.game))
    if len(legal) == 1:
        ui.say(tr("forced", move=pretty_move(legal[0].text)))
    while True:
        line = ui.ask(tr("prompt"))
        text = line.strip()
        if text.lower() in _QUIT_WORDS:
            raise _Quit
        if text.lower() in _HELP_WORDS:
            ui.say(tr("play_help", example=legal[0].text))
            ui.lines(_menu_lines(legal, tr, view.game))
            continue
        move: Move | str
        if not text:
            if len(legal) == 1:
                move = legal[0]
            else:
                ui.say(tr("empty_input", last=len(legal)))
                continue
        elif text.isdigit():
            number = int(text)
            if not 1 <= number <= len(legal):
                ui.say(tr("bad_number", n=number, last=len(legal)))
                continue
            move = legal[number - 1]
        else:
            move = text
        try:
            match.play(move, seat=player.seat)
        except InvalidMoveError as e:
            ui.say(tr("invalid_move", text=text, error=str(e)))
            continue
        except IllegalMoveError as e:
            ui.say(tr("illegal_move", text=text, error=str(e)))
            continue
        return match.moves[-1][1]


# ---- replay


def _configure_replay(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("file", metavar="FILE", help=tr("help_record_file"))
    who = p.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, default=None, help=tr("help_replay_seat"))
    who.add_argument("--all", action="store_true", help=tr("help_replay_all"))
    p.add_argument("--no-pause", action="store_true", help=tr("help_no_pause"))


def _fresh_target(record: Mapping[str, Any]) -> Deal | Match:
    """The record's deal or match before its first move (the record is known to be valid)."""
    game = load(record["game"], **(record.get("options") or {}))
    if record.get("format") == "cardplay-deal/1" or (
            "format" not in record and "deck" in record):
        return game.deal(record.get("seed"), deck=record.get("deck"), dealer=record.get("dealer"),
                         **(record.get("context") or {}))
    return game.match(record.get("seed"), dealer=record.get("dealer"))


def _replay_lines(target: Deal | Match, seats: Sequence[int], tr: Translator,
                  names: SeatNamer) -> list[str]:
    views = [target.view(s) for s in seats]
    first = views[0]
    lines = render_view(first, tr, names, show_hand=False)
    for v in views:
        if v.hand:
            lines.append(tr("hand_of", who=names(v.seat),
                            cards=" ".join(c.pretty() for c in v.hand)))
        if v is not first:
            lines.extend("  " + line for line in
                         _public_lines(v, tr, names, skip=dict(first.public)))
    return lines


def _run_replay(args: argparse.Namespace, ui: Console) -> int:
    tr = ui.tr
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        ui.error(tr("cannot_read", path=args.file, error=getattr(e, "strerror", None) or str(e)))
        return 2
    try:
        final = replay(text)
    except RecordError as e:
        ui.error(tr("corrupt_record", error=str(e)))
        return 2
    record = json.loads(text)
    target = _fresh_target(record)
    n = target.players
    if args.seat is not None and not 0 <= args.seat < n:
        ui.error(tr("bad_seat", seat=args.seat, last=n - 1))
        return 2
    seats = [args.seat] if args.seat is not None else list(range(n))

    def names(seat: int) -> str:
        return tr("seat_n", seat=seat)

    moves: list[str] = record["moves"]
    ui.say(tr("replay_banner", game=record["game"], moves=len(moves),
              seed=record.get("seed")))
    ui.lines(_replay_lines(target, seats, tr, names))
    deals_done = 0
    for i, move in enumerate(moves):
        if not args.no_pause:
            try:
                answer = ui.ask(tr("replay_prompt"))
            except (EOFError, KeyboardInterrupt):
                ui.say()
                return 0
            if answer.strip().lower() in _QUIT_WORDS:
                return 0
        seat = target.to_move or 0
        target.play(move)
        ui.say()
        ui.say(tr("replay_move", i=i + 1, total=len(moves), who=names(seat),
                  move=pretty_move(move)))
        if isinstance(target, Match) and len(target.deals) > deals_done:
            for number in range(deals_done, len(target.deals)):
                ui.lines(_deal_end_lines(target, number, seats[0], tr, names))
            deals_done = len(target.deals)
            if target.is_over:
                continue
            ui.say()
        ui.lines(_replay_lines(target, seats, tr, names))
    ui.say()
    if isinstance(final, Match):
        if final.is_over:
            ui.say(tr("match_over", scores=_per_seat(final.scores, names, tr)))
            ui.say(tr("winners", who=", ".join(names(s) for s in final.winners) or "—"))
        else:
            ui.say(tr("replay_unfinished", scores=_per_seat(final.scores, names, tr)))
    elif final.result is not None:
        ui.say(tr("deal_result", result=_per_seat(final.result, names, tr, signed=True)))
    return 0


# ---- arena


def _configure_arena(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("game", metavar="GAME")
    p.add_argument("bot_a", metavar="BOT_A", help=tr("help_bot_level"))
    p.add_argument("bot_b", metavar="BOT_B", help=tr("help_bot_level"))
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--matches", type=int, default=0)
    p.add_argument("--workers", type=int, default=None, help=tr("help_arena_workers"))
    p.add_argument("--ray", default=None, metavar="ADDRESS|local", help=tr("help_arena_ray"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--option", "-o", action="append", default=[], metavar="K=V")
    p.add_argument("--out", default=None, metavar="DIR", help=tr("help_arena_out"))


def _run_arena(args: argparse.Namespace, ui: Console) -> int:
    # The arena is the measuring front-end; the command line is only its switchboard.
    from . import arena
    from .bots import LEVELS

    options: dict[str, Any] = {}
    for kv in args.option:
        key, sep, value = kv.partition("=")
        if not sep:
            ui.error(ui.tr("arena_bad_option", kv=kv))
            return 2
        options[key.strip()] = value.strip()
    if args.players is not None:
        options["players"] = args.players
    for level in (args.bot_a, args.bot_b):
        if level not in LEVELS:
            ui.error(ui.tr("arena_bad_level", level=level, levels=", ".join(LEVELS)))
            return 2
    if (args.deals < 0 or args.matches < 0 or args.deals + args.matches == 0
            or (args.workers is not None and args.workers < 1)):
        ui.error(ui.tr("arena_bad_counts"))
        return 2
    try:
        load(args.game, **options)
    except ValueError as e:
        ui.error(str(e))
        return 2
    try:
        report, rows = arena.run(args.game, args.bot_a, args.bot_b, deals=args.deals,
                                 matches=args.matches, seed=args.seed, workers=args.workers,
                                 options=options, progress=True, ray=args.ray)
    except arena.RayNotInstalled:
        ui.error(ui.tr("arena_needs_dist"))
        return 2
    except arena.ClusterUnavailable as e:
        ui.error(ui.tr("arena_ray_unavailable", address=e.address, reason=e.reason))
        return 2
    ui.say(report.summary())
    if args.out:
        for path in arena.write_outputs(report, rows, args.out):
            ui.say(ui.tr("arena_wrote", path=path))
    return 0


# ---- serve (the web server; needs the optional extra `web`)

def _configure_serve(p: argparse.ArgumentParser, tr: Translator) -> None:
    # Limits lives in the standard-library part of the server package, so --help works
    # without the web extra; one option per limit, named after it
    from .server.limits import Limits

    p.add_argument("--host", default="127.0.0.1", help=tr("help_host"))
    p.add_argument("--port", type=int, default=8000, help=tr("help_port"))
    p.add_argument("--data", default=None, metavar="DIR", help=tr("help_data"))
    p.add_argument("--grace", type=float, default=30.0, help=argparse.SUPPRESS)
    p.add_argument("--bot-delay", type=float, default=0.6, help=argparse.SUPPRESS)
    p.add_argument("--workers", type=int, default=None, help=argparse.SUPPRESS)
    defaults = Limits()
    for name in Limits.names():
        value = getattr(defaults, name)
        p.add_argument("--" + name.replace("_", "-"), type=type(value), default=value,
                       metavar="N", help=tr(_limit_help_key(name), default=f"{value:g}"))
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help=tr("help_allow_origin"))


def _limit_help_key(name: str) -> str:
    """The help text of a limit's option (a test holds one for every limit, in both
    languages)."""
    return "help_limit_" + name


def _run_serve(args: argparse.Namespace, ui: Console) -> int:
    try:
        import uvicorn

        from .server.app import create_app
        from .server.botpool import ProcessBotRunner
        from .server.limits import Limits
        from .server.serving import uvicorn_config
        from .server.storage import default_data_dir
    except ImportError:
        ui.error(ui.tr("serve_needs_web"))
        return 2
    try:
        limits = Limits(**{name: getattr(args, name) for name in Limits.names()})
        data = Path(args.data) if args.data else default_data_dir()
        app = create_app(data, runner=ProcessBotRunner(args.workers), grace=args.grace,
                         bot_delay=args.bot_delay, limits=limits,
                         allowed_origins=args.allow_origin)
    except ValueError as e:
        ui.error(str(e))
        return 2
    ui.say(ui.tr("serving", url=f"http://{args.host}:{args.port}", data=str(data)))
    uvicorn.Server(uvicorn_config(app, args.host, args.port, limits)).run()
    return 0


# ---- verify (a server's record: its seed commitment and its moves)

_VERIFY_FAILURES = {"no_commitment": "verify_no_commitment", "malformed": "verify_malformed",
                    "unknown_scheme": "verify_unknown_scheme", "mismatch": "verify_mismatch",
                    "no_replay": "verify_no_replay"}
_SEED_SOURCES = {"server": "verify_source_server", "creator": "verify_source_creator",
                 "operator": "verify_source_operator"}


def _configure_verify(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("file", metavar="RECORD", help=tr("help_verify_file"))


def _run_verify(args: argparse.Namespace, ui: Console) -> int:
    from .fairness import verify

    tr = ui.tr
    try:
        record = json.loads(Path(args.file).read_text(encoding="utf-8"))
        verdict = verify(record)
    except (OSError, UnicodeDecodeError) as e:
        ui.error(tr("cannot_read", path=args.file, error=getattr(e, "strerror", None) or str(e)))
        return 2
    except (ValueError, RecordError) as e:  # not JSON, or not a record at all
        ui.error(tr("corrupt_record", error=str(e)))
        return 2
    if not verdict.ok:
        ui.error(tr(_VERIFY_FAILURES.get(verdict.code, "verify_malformed"),
                    detail=verdict.message))
        return 1
    source = tr(_SEED_SOURCES.get(verdict.seed_source or "", "verify_source_unknown"))
    ui.say(tr("verify_ok", source=source, moves=verdict.moves)
           + ("" if verdict.finished else " " + tr("verify_unfinished")))
    return 0


COMMANDS: dict[str, Command] = {
    "games": Command(help="cmd_games", configure=_configure_games, run=_run_games),
    "rules": Command(help="cmd_rules", configure=_configure_rules, run=_run_rules),
    "play": Command(help="cmd_play", configure=_configure_play, run=_run_play),
    "replay": Command(help="cmd_replay", configure=_configure_replay, run=_run_replay),
    "arena": Command(help="cmd_arena", configure=_configure_arena, run=_run_arena),
    "serve": Command(help="cmd_serve", configure=_configure_serve, run=_run_serve),
    "verify": Command(help="cmd_verify", configure=_configure_verify, run=_run_verify),
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
    _add_lang(parser, tr, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, cmd in COMMANDS.items():
        text = tr(cmd.help)
        p = sub.add_parser(name, help=text, description=text, aliases=list(cmd.aliases))
        _add_lang(p, tr)
        cmd.configure(p, tr)
        p.set_defaults(_command=name)
    return parser


def _unicode_stdout() -> None:
    """Let a terminal that cannot show ♠ get a replacement character instead of a crash."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # a closed or odd stream
            reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cardplay`` command; return its exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    _unicode_stdout()
    lang = _lang_in_argv(args_list) or detect_lang(os.environ)
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
