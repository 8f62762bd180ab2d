"""``cardplay play`` and ``cardplay replay``: a match at the terminal, and a record stepped through.

The command drives a match the way every front-end does (DESIGN.md section 1): it asks
``match.to_move``, gets a move from the person or from that seat's bot (which sees only its
``View``), and calls ``match.play``. It works over the public API and the game's declaration
only, so every registered game is playable as soon as it appears.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import bots as bots_mod
from ..engine import (
    Deal,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    Move,
    OptionError,
    RecordError,
    View,
    derive_seed,
    replay,
)
from ..engine.options import check_option_value
from ..i18n import Translator
from ..review import start_of
from ..wording import SeatNamer, card_text, level_name, move_words, refusal, typed_move
from .console import Console
from .info import find_game, players_text, valid_values
from .render import (
    deal_end_lines,
    menu_lines,
    per_seat_text,
    public_lines,
    render_view,
)
from .savefile import write_record

__all__ = ["configure_play", "configure_replay", "make_game", "run_play", "run_replay"]


class _Quit(Exception):
    """The person asked to leave the match."""


# ---- play



def said_move(match: Match, text: str, lang: str) -> str:
    """A move as the person reads it in what the table says (a stake, "Buy a card"), never its
    notation's code word (``stake 25``, ``buy``): the menu keeps the notation, for typing."""
    return move_words(match.game.declaration, text, lang)

def add_table_arguments(p: argparse.ArgumentParser, tr: Translator) -> None:
    """The options a match at a table takes, the same for ``cardplay play`` and ``cardplay tui``
    (make_game reads them)."""
    p.add_argument("--vs", metavar="LEVEL", choices=bots_mod.LEVELS, default=None,
                   help=tr("help_vs", levels=", ".join(bots_mod.LEVELS)))
    p.add_argument("--seed", type=int, default=None, help=tr("help_seed"))
    p.add_argument("--seat", type=int, default=0, help=tr("help_seat"))
    p.add_argument("--players", type=int, default=None, help=tr("help_players"))
    p.add_argument("--option", "-o", metavar="K=V", action="append", default=[],
                   help=tr("help_option"))
    p.add_argument("--save", metavar="FILE", default=None, help=tr("help_save"))


def configure_play(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("game", metavar="NAME", help=tr("help_game_name"))
    add_table_arguments(p, tr)
    p.add_argument("--auto", action="store_true", help=tr("help_auto"))
    p.add_argument("--hide-points", action="store_true", help=tr("help_hide_points"))


def parse_options(pairs: Sequence[str], tr: Translator) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(tr("bad_option_syntax", text=pair))
        out[key.strip()] = value.strip()
    return out


def make_game(args: argparse.Namespace, ui: Console) -> Game | None:
    """The game of ``--game``, ``--option`` and ``--players`` (as play and tui take them), or None
    after saying what is wrong in the reader's language."""
    tr = ui.tr
    try:
        cls = find_game(args.game, tr)
        options: dict[str, Any] = dict(parse_options(args.option, tr))
    except ValueError as e:
        ui.error(str(e))
        return None
    if args.players is not None:
        if "players" in cls.option_fields():
            options["players"] = args.players
        elif args.players != cls.min_players:
            ui.error(tr("players_fixed", game=cls.name, players=players_text(cls)))
            return None
    try:
        return cls(**options)
    except OptionError as e:
        ui.error(option_refusal(cls, options, tr) or tr("options_conflict", error=str(e)))
        return None
    except ValueError as e:
        ui.error(str(e))
        return None


def option_refusal(cls: type[Game], options: Mapping[str, Any], tr: Translator) -> str | None:
    """The first unknown option or refused value, said in the reader's language with what is
    valid; None when each value is fine alone and only their combination is refused."""
    fields = cls.option_fields()
    for name, value in options.items():
        if name not in fields:
            return tr("unknown_option", name=name, valid=", ".join(fields))
        try:
            check_option_value(cls.name, fields[name], value)
        except OptionError:
            return tr("bad_option_value", name=name, value=value,
                      valid=valid_values(fields[name], tr))
    return None


def default_level(game: Game) -> str:
    """The bots' level when none is asked for: the game's heuristic, else random."""
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


def run_play(args: argparse.Namespace, ui: Console) -> int:
    tr = ui.tr
    game = make_game(args, ui)
    if game is None:
        return 2
    n = game.players
    if not 0 <= args.seat < n:
        ui.error(tr("bad_seat", seat=args.seat, last=n - 1))
        return 2
    level = args.vs or default_level(game)
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
              seed=seed, level=level_name(level, tr), seat=args.seat))
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
        write_record(record, path)
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
    shown: dict[str, Any] | None = None  # the public state last shown in this deal
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        if started != len(match.deals):
            started = len(match.deals)
            shown = None
            ui.say()
            ui.say(tr("deal_starts", n=started + 1, who=player.name(match.deal.dealer)))
        if seat == player.seat:
            view = match.view(seat)
            ui.say()
            ui.lines(render_view(view, tr, player.name, show_points=not args.hide_points,
                                 you=player.seat, unchanged=shown))
            shown = dict(view.public)
            text = _ask_move(match, view, ui, player, auto=args.auto,
                             show_points=not args.hide_points)
            ui.say(tr("plays", who=player.name(seat), move=said_move(match, text, tr.lang)))
        else:
            move = seat_bots[seat].choose(match.view(seat))
            match.play(move, seat=seat)
            ui.say(tr("plays", who=player.name(seat),
                      move=said_move(match, match.moves[-1][1], tr.lang)))
        if len(match.deals) > deals_done:
            for number in range(deals_done, len(match.deals)):
                ui.lines(deal_end_lines(match, number, player.seat, tr, player.name,
                                         show_points=not args.hide_points))
            deals_done = len(match.deals)
    ui.say()
    ui.say(tr("match_over", scores=per_seat_text(match.scores, player.name)))
    winners = match.winners
    if not winners:
        ui.say(tr("no_winner"))
    elif winners == [player.seat]:
        ui.say(tr("you_win"))
    else:
        ui.say(tr("winners", who=", ".join(player.name(s) for s in winners)))


QUIT_WORDS = {"q", "quit", "exit", "в", "выход", "beenden"}
_HELP_WORDS = {"?", "h", "help", "помощь", "hilfe"}


def _ask_move(match: Match, view: View, ui: Console, player: _Player, auto: bool,
              show_points: bool = True) -> str:
    """Ask until the person enters a legal move; play it and return its canonical text."""
    tr = ui.tr
    legal = list(view.legal_moves)
    if auto and len(legal) == 1:
        match.play(legal[0], seat=player.seat)
        return legal[0].text
    ui.lines(menu_lines(legal, tr, view.game))
    if len(legal) == 1:
        ui.say(tr("forced", move=said_move(match, legal[0].text, tr.lang)))
    while True:
        line = ui.ask(tr("prompt"))
        text = line.strip()
        if text.lower() in QUIT_WORDS:
            raise _Quit
        if text.lower() in _HELP_WORDS:
            ui.say(tr("play_help", example=legal[0].text))
            ui.lines(render_view(view, tr, player.name, show_points=show_points,
                                 you=player.seat))
            ui.lines(menu_lines(legal, tr, view.game))
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
            move = text = typed_move(text, tr.lang)
        try:
            match.play(move, seat=player.seat)
        except InvalidMoveError:
            ui.say(refusal(match.game, view, text, tr))
            continue
        except IllegalMoveError as e:
            ui.say(refusal(match.game, view, text, tr, e.reason))
            continue
        return match.moves[-1][1]


# ---- replay


def configure_replay(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("file", metavar="FILE", help=tr("help_record_file"))
    who = p.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, default=None, help=tr("help_replay_seat"))
    who.add_argument("--all", action="store_true", help=tr("help_replay_all"))
    p.add_argument("--no-pause", action="store_true", help=tr("help_no_pause"))
    p.add_argument("--tui", action="store_true", help=tr("help_replay_tui"))


def _replay_lines(target: Deal | Match, seats: Sequence[int], tr: Translator,
                  names: SeatNamer) -> list[str]:
    views = [target.view(s) for s in seats]
    first = views[0]
    lines = render_view(first, tr, names, show_hand=False)
    for v in views:
        if v.hand:
            lines.append(tr("hand_of", who=names(v.seat),
                            cards=" ".join(card_text(str(c), tr.lang) for c in v.hand)))
        if v is not first:
            lines.extend("  " + line for line in
                         public_lines(v, tr, names, skip=dict(first.public)))
    return lines


def run_replay(args: argparse.Namespace, ui: Console) -> int:
    tr = ui.tr
    if args.tui:
        from ..tui.command import open_replay

        return open_replay(args.file, args.seat, ui)
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
    target = start_of(record)
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
            if answer.strip().lower() in QUIT_WORDS:
                return 0
        seat = target.to_move or 0
        target.play(move)
        ui.say()
        ui.say(tr("replay_move", i=i + 1, total=len(moves), who=names(seat),
                  move=move_words(target.game.declaration, move, tr.lang)))
        if isinstance(target, Match) and len(target.deals) > deals_done:
            for number in range(deals_done, len(target.deals)):
                ui.lines(deal_end_lines(target, number, seats[0], tr, names))
            deals_done = len(target.deals)
            if target.is_over:
                continue
            ui.say()
        ui.lines(_replay_lines(target, seats, tr, names))
    ui.say()
    if isinstance(final, Match):
        if final.is_over:
            ui.say(tr("match_over", scores=per_seat_text(final.scores, names)))
            ui.say(tr("winners", who=", ".join(names(s) for s in final.winners) or "—"))
        else:
            ui.say(tr("replay_unfinished", scores=per_seat_text(final.scores, names)))
    elif final.result is not None:
        ui.say(tr("deal_result", result=per_seat_text(final.result, names, signed=True)))
    return 0
