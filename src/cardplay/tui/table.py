"""What the terminal table shows, and the match behind it, without Textual.

Every part of the screen is read off the view and the game's declaration, field by field as the
kinds say (DESIGN.md 16); the few field names it places (``trick``, ``last_trick``, ``tricks``,
``hand_sizes``, ``outcome``) are the ones every game shares (see :mod:`cardplay.declaration`).
:class:`Session` drives a match as every front-end does: the person's moves, each bot's move
from its own view, one driver loop; or, for a replay, the record's moves one key at a time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import bots as bots_mod
from ..cli.savefile import write_record
from ..declaration import Declaration, Field
from ..engine import (
    Deal,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Match,
    View,
    declaration_of,
    load,
)
from ..i18n import Translator
from ..wording import (
    SeatNamer,
    card_text,
    deal_over_text,
    deal_title,
    field_block,
    move_text,
    outcome_reasons,
    refusal,
    rules_text,
    typed_move,
)

__all__ = ["RESERVED_KEYS", "Action", "Session", "actions", "breakdown_lines", "card_moves",
           "end_lines", "fresh_match", "hand_items", "has_tricks", "header_line", "keys_line",
           "last_trick", "last_trick_lines", "middle_lines", "move_label", "rules_lines",
           "seat_lines", "sheet_lines"]

_CARD = re.compile(r"[2-9TJQKA][SHDC]")
_WORD_NUMBER = re.compile(r"([a-z]+) ([0-9]+)")
# The table's own keys; a special move never takes one of them.
RESERVED_KEYS = frozenset("qrlsu")  # quit, rules, last trick, score sheet, take back
# Fields the table places itself (the trick area, the seat rows) rather than as labelled lines.
_PLACED = ("trick", "last_trick", "hand_sizes")


def _shown(value: Any) -> bool:
    return value is not None and value != [] and not (
        isinstance(value, list) and value and all(v == [] for v in value))


# ---- the screen's parts


def header_line(view: View, title: str, tr: Translator, names: SeatNamer) -> str:
    """``Sixty-Six · Deal 2 · dealer: Bot 1 · Match: You 3 · Bot 1 5``."""
    parts = [title]
    if view.match is not None:
        # the game's own word for a deal where it has one ("Round 2"), as its table says
        parts.append(deal_title(view.game, view.match.get("deal_number", 1), tr))
    parts.append(tr("dealer_is", who=names(view.dealer)))
    if view.match is not None and "scores" in view.match:
        parts.append(tr("tui_match", scores=" · ".join(
            f"{names(s)} {x}" for s, x in enumerate(view.match["scores"]))))
    return " · ".join(parts)


def _seat_order(view: View) -> list[int]:
    """The others in playing order after the seat, then the seat itself."""
    n = view.players
    return [(view.seat + k) % n for k in range(1, n)] + [view.seat]


def seat_lines(view: View, names: SeatNamer, tr: Translator) -> list[str]:
    """One line per seat: its name, whether it deals or is to move, its cards in hand, its
    points and every per-seat field of the game."""
    declaration = declaration_of(view.game)
    lang = tr.lang
    pub = view.public
    lines = []
    for s in _seat_order(view):
        bits = [names(s)]
        if s == view.dealer:
            bits.append(tr("tui_dealer"))
        if view.to_move == s:
            bits.append(tr("tui_to_move"))
        sizes = pub.get("hand_sizes")
        if isinstance(sizes, list) and sizes[s] is not None:
            bits.append(tr("tui_cards_in_hand", n=sizes[s]))
        # the points once: not again where a declared field holds the same numbers
        if any(view.points) and not any(f.kind == "per_seat" and not f.detail
                                        and pub.get(f.name) == list(view.points)
                                        for f in declaration.public):
            bits.append(tr("tui_points", n=view.points[s]))
        for f in declaration.public:
            if f.detail or f.name in _PLACED or f.name not in pub:
                continue
            v = pub[f.name]
            if f.kind == "per_seat" and v[s] is not None:
                bits.append(f"{f.label(lang)} {v[s]}")
            elif f.kind == "per_seat_choice":
                bits.append(f"{f.label(lang)}: {_value_words(f, v[s], lang)}")
            elif f.kind == "per_seat_cards" and v[s]:
                bits.append(f"{f.label(lang)}: " + " ".join(card_text(c, lang) for c in v[s]))
        lines.append(" · ".join(bits))
    return lines


def last_trick(public: Mapping[str, Any], players: int) -> tuple[list[tuple[int, str]],
                                                                  int | None] | None:
    """The last completed trick as (seat, card) plays and its winner: a game's ``last_trick``
    record, or the last of its ``tricks`` (whose cards follow on from its leader)."""
    rec = public.get("last_trick")
    if isinstance(rec, Mapping) and rec.get("cards"):
        plays = [(int(p["seat"]), str(p["card"])) if isinstance(p, Mapping) else (i, str(p))
                 for i, p in enumerate(rec["cards"])]
        return plays, rec.get("winner")
    tricks = public.get("tricks")
    if isinstance(tricks, list) and tricks:
        last = tricks[-1]
        leader = int(last.get("leader") or 0)
        plays = [(int(c["seat"]), str(c["card"])) if isinstance(c, Mapping)
                 else ((leader + i) % players, str(c)) for i, c in enumerate(last.get("cards", []))]
        return plays, last.get("winner")
    return None


def _plays_text(plays: Sequence[tuple[int, str]], names: SeatNamer, lang: str) -> str:
    return "   ".join(f"{names(s)}: {card_text(c, lang)}" for s, c in plays)


def trick_lines(view: View, names: SeatNamer, tr: Translator) -> list[str]:
    """The trick in play; when none is, the one just completed with who took it, which stays
    until the next lead so both cards can be seen."""
    declaration = declaration_of(view.game)
    try:
        f = declaration.field("trick")
    except KeyError:
        return []
    current = view.public.get("trick") or []
    if current:
        plays = [(int(p["seat"]), str(p["card"])) for p in current]
        return [f"{f.label(tr.lang)}: {_plays_text(plays, names, tr.lang)}"]
    done = last_trick(view.public, view.players)
    if done is None or view.is_over:
        return [f"{f.label(tr.lang)}: —"]
    plays, winner = done
    taken = tr("tui_taken_by", who=names(winner)) if winner is not None else ""
    return [f"{f.label(tr.lang)}: {_plays_text(plays, names, tr.lang)}   {taken}".rstrip()]


def middle_lines(view: View, names: SeatNamer, tr: Translator) -> list[str]:
    """The trick area, then ``Label: value`` for every other shared field (a record of the whole
    deal so far, declared detail, is one key away instead)."""
    declaration = declaration_of(view.game)
    lines = trick_lines(view, names, tr)
    for f in declaration.public:
        if f.detail or f.name in _PLACED or f.name not in view.public:
            continue
        if f.kind in ("per_seat", "per_seat_choice", "per_seat_cards"):
            continue
        value = view.public[f.name]
        if _shown(value):
            lines += field_block(f, value, tr.lang, names)
    return lines


# ---- the person's moves


def card_moves(view: View) -> dict[str, list[str]]:
    """For each card in hand, the legal moves that play it (a card alone, or with a
    declaration, or with other cards)."""
    out: dict[str, list[str]] = {str(c): [] for c in view.hand}
    for m in view.legal_moves:
        for c in dict.fromkeys(_CARD.findall(m.text)):
            if c in out:
                out[c].append(m.text)
    return out


def hand_items(view: View, lang: str) -> list[tuple[str, bool]]:
    """Each card of the hand as the table writes it, and whether it can be played now."""
    moves = card_moves(view)
    return [(card_text(str(c), lang), bool(moves[str(c)])) for c in view.hand]


@dataclass(frozen=True)
class Action:
    """A move that is not a card of the hand, on a key: one move, or a run ``stake 5`` ..
    ``stake 100`` whose number is typed (``moves`` holds the run)."""

    key: str
    label: str
    moves: tuple[str, ...]
    confirm: bool

    @property
    def is_run(self) -> bool:
        return len(self.moves) > 1


def _pick_key(text: str, used: set[str]) -> str:
    for ch in [*text.lower(), *"abcdefghijkmnoptuvwxyz"]:
        if ch.isascii() and ch.isalpha() and ch not in used and ch not in RESERVED_KEYS:
            used.add(ch)
            return ch
    return ""


def actions(view: View, lang: str) -> list[Action]:
    """The legal moves that name no card of the hand, each on a key of its own; a run of
    numbered moves is one action. Only legal moves are offered."""
    declaration = declaration_of(view.game)
    rest = [m.text for m in view.legal_moves if not _CARD.search(m.text)]
    runs: dict[str, list[str]] = {}
    singles: list[str] = []
    for text in rest:
        m = _WORD_NUMBER.fullmatch(text)
        if m is not None:
            runs.setdefault(m.group(1), []).append(text)
        else:
            singles.append(text)
    used: set[str] = set()
    out = []
    for text in singles:
        kind = declaration.move_kind(text)
        label = kind.label(lang) if kind is not None else text
        out.append(Action(_pick_key(text, used), label, (text,),
                          bool(kind is not None and kind.confirm)))
    for word, texts in runs.items():
        kind = declaration.move_kind(texts[0])
        label = kind.label(lang) if kind is not None else word
        lo, hi = texts[0].split()[1], texts[-1].split()[1]
        shown = f"{label} {lo}" if len(texts) == 1 else f"{label} {lo}–{hi}"
        out.append(Action(_pick_key(word, used), shown, tuple(texts),
                          bool(kind is not None and kind.confirm)))
    return out


def move_label(declaration: Declaration, text: str, lang: str) -> str:
    """A move as a choice reads: its cards as the table writes them, and its kind's name when
    it is more than a card (``K♥=20 — Announce a marriage``)."""
    kind = declaration.move_kind(text)
    shown = move_text(text, lang)
    if kind is None or kind.name in ("card", "play") or _CARD.fullmatch(text):
        return shown
    if not _CARD.search(text):  # a word of the notation: its kind says it in the reader's words
        number = _WORD_NUMBER.fullmatch(text)
        return f"{kind.label(lang)} {number.group(2)}" if number else kind.label(lang)
    return f"{shown} — {kind.label(lang)}"


# ---- what the keys open


def last_trick_lines(view: View, names: SeatNamer, tr: Translator) -> list[str]:
    done = last_trick(view.public, view.players)
    if done is None:
        return [tr("tui_no_last_trick")]
    plays, winner = done
    lines = [f"{names(s)}: {card_text(c, tr.lang)}" for s, c in plays]
    if winner is not None:
        lines.append(tr("tui_taken_by", who=names(winner)))
    return lines


def sheet_lines(view: View, names: SeatNamer, tr: Translator) -> list[str]:
    """The match so far: one row per finished deal, then the totals."""
    n = view.players
    head = [tr("tui_deal_col"), *(names(s) for s in range(n))]
    rows = [head]
    match = view.match or {}
    for i, result in enumerate(match.get("results") or []):
        rows.append([str(i + 1), *(f"{x:+d}" if isinstance(x, int) else "—"
                                   for x in (result or [None] * n))])
    rows.append([tr("tui_total"), *(str(x) for x in match.get("scores", [0] * n))])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return ["  ".join([r[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(r[1:], widths[1:]))])
            for r in rows]


def breakdown_lines(match: Match, number: int, seat: int, tr: Translator,
                    names: SeatNamer) -> list[str]:
    """How deal ``number`` (0-based) ended, seat by seat: its result, points and per-seat
    facts, then the rest of what its end shows, what the outcome means, and the scores."""
    deal = match.deals[number]
    view = deal.view(seat)
    declaration = declaration_of(view.game)
    lang = tr.lang
    n = deal.players
    result = list(deal.result or [0] * n)
    rows: list[list[str]] = [["", *(names(s) for s in range(n))],
                             [tr("tui_result"), *(f"{x:+d}" for x in result)]]
    if any(view.points):
        rows.append([tr("tui_points_row"), *(str(x) for x in view.points)])
    other: list[tuple[Field, Any]] = []
    for f in declaration.public:
        v: Any = view.public.get(f.name)
        if f.detail or not _shown(v):
            continue
        if f.kind == "per_seat":
            if f.name == "hand_sizes" and not any(v):
                continue
            rows.append([f.label(lang), *("—" if x is None else str(x) for x in v)])
        elif f.kind == "per_seat_choice":
            rows.append([f.label(lang), *(_value_words(f, x, lang) for x in v)])
        elif f.kind == "per_seat_cards":
            rows.append([f.label(lang), *(" ".join(card_text(c, lang) for c in x) or "—"
                                          for x in v)])
        elif f.kind in ("record", "choice", "seat", "seats", "flag") and f.name != "last_trick":
            other.append((f, v))
    widths = [max(len(r[i]) for r in rows) for i in range(n + 1)]
    lines = [deal_over_text(view.game, number + 1, tr), ""]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.append("")
    lines += [line for f, v in other for line in field_block(f, v, lang, names)]
    reasons = outcome_reasons(view, lang)
    lines += reasons
    if not reasons and not any(result):
        lines.append(tr("deal_nobody_scores"))
    scores = [sum((d.result or [0] * n)[s] for d in match.deals[:number + 1]) for s in range(n)]
    lines.append(tr("match_scores", scores=" · ".join(f"{names(s)} {x}"
                                                      for s, x in enumerate(scores))))
    return lines


def _value_words(f: Field, raw: Any, lang: str) -> str:
    named = f.value(raw)
    return named.label(lang) if named is not None else str(raw)


def end_lines(match: Match, names: SeatNamer, tr: Translator, seat: int | None) -> list[str]:
    """The end of the match: the final scores and who won."""
    lines = [tr("match_over", scores=" · ".join(f"{names(s)} {x}"
                                                for s, x in enumerate(match.scores)))]
    winners = match.winners
    if not winners:
        lines.append(tr("no_winner"))
    elif seat is not None and winners == [seat]:
        lines.append(tr("you_win"))
    else:
        lines.append(tr("winners", who=", ".join(names(s) for s in winners)))
    return lines


# ---- the match behind the table


class Session:
    """A match at the table: the person's seat, the bots of the other seats, the log; or a
    record replayed move by move (``script``), shown as ``seat`` sees it."""

    def __init__(self, match: Match, seat: int, tr: Translator,
                 bots: Mapping[int, bots_mod.Bot] | None = None,
                 script: Sequence[str] | None = None, path: Path | None = None,
                 title: str = "") -> None:
        self.match = match
        self.seat = seat
        self.tr = tr
        self.bots = dict(bots or {})
        self.script = list(script) if script is not None else None
        self.path = path
        self.title = title or match.game.declaration.title(tr.lang)
        self.log: list[str] = []
        # the first line of the log rewritten since a reader took it (a run's count grew)
        self.log_changed = 0
        self._last_line = ""
        self._run = 0
        self.deals_seen = len(match.deals)

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def replaying(self) -> bool:
        return self.script is not None

    def name(self, seat: int) -> str:
        if self.replaying:
            return self.tr("seat_n", seat=seat)
        return self.tr("you") if seat == self.seat else self.tr("bot_seat", seat=seat)

    def view(self) -> View:
        return self.match.view(self.seat)

    def persons_turn(self) -> bool:
        return not self.replaying and not self.match.is_over and \
            self.match.to_move == self.seat

    def moves_left(self) -> int:
        return len(self.script) - len(self.match.moves) if self.script is not None else 0

    def _logged(self, seat: int) -> None:
        """Log the last move; a run of the same move by the same seat (draw, draw, ...) is one
        line with its count, so the log keeps what happened in view."""
        text = self.match.moves[-1][1]
        shown = move_label(self.game.declaration, text, self.tr.lang)
        line = self.tr("plays", who=self.name(seat), move=shown)
        if self.log and self._last_line == line:
            self._run += 1
            self.log[-1] = f"{line} ×{self._run}"
            self.log_changed = min(self.log_changed, len(self.log) - 1)
            return
        self._last_line, self._run = line, 1
        self.log.append(line)

    def bot_choice(self) -> tuple[int, str] | None:
        """The seat due to move and the move its bot (or the record) makes; None when it is
        nobody's or the person's turn. The bot sees only its view, so this may run on another
        thread while the screen goes on answering keys."""
        seat = self.match.to_move
        if self.match.is_over or seat is None:
            return None
        if self.script is not None:
            if self.moves_left() <= 0:
                return None
            return seat, self.script[len(self.match.moves)]
        if seat in self.bots:
            return seat, self.bots[seat].choose(self.match.view(seat)).text
        return None

    def apply(self, seat: int, move: str) -> None:
        """Play a move :meth:`bot_choice` gave, and log it."""
        self.match.play(move, seat=seat)
        self._logged(seat)

    def bot_step(self) -> bool:
        """One move by the bot to move (or the record's next move); False when none is due."""
        choice = self.bot_choice()
        if choice is None:
            return False
        self.apply(*choice)
        return True

    def play(self, text: str) -> str | None:
        """The person's move; a refusal in the reader's words when it cannot be played."""
        view = self.view()
        text = typed_move(text, self.tr.lang)
        try:
            self.match.play(text, seat=self.seat)
        except InvalidMoveError:
            return refusal(self.game, view, text, self.tr)
        except IllegalMoveError as e:
            return refusal(self.game, view, text, self.tr, e.reason)
        self._logged(self.seat)
        return None

    def can_take_back(self) -> bool:
        """Whether the person has a move of the deal in play to take back (never in a replay)."""
        return not self.replaying and self.match.takeback_point(self.seat) is not None

    def take_back(self) -> bool:
        """Take back the person's last move of the deal in play and the bots' answers after it,
        as the browser does at a casual table (the terminal table is always one): the match is
        rebuilt from the moves kept, so the record saved is the game as it now stands. False
        when there is nothing to take back."""
        point = None if self.replaying else self.match.takeback_point(self.seat)
        if point is None:
            return False
        kept = self.match.moves[:point]
        self.match = self.game.match(self.match.seed, dealer=self.match.given_dealer)
        self.log, self._last_line, self._run, self.log_changed = [], "", 0, 0
        for seat, text in kept:
            self.match.play(text, seat=seat)
            self._logged(seat)
        return True

    def ended_deals(self) -> list[int]:
        """The deals that ended since the last call (0-based)."""
        done = list(range(self.deals_seen, len(self.match.deals)))
        self.deals_seen = len(self.match.deals)
        return done

    def save(self) -> str:
        """Save the record (a replay saves nothing); the line that says where, or why not."""
        if self.path is None or self.replaying:
            return ""
        try:
            write_record(self.match.record(), self.path)
        except OSError as e:
            return self.tr("cannot_save", path=str(self.path), error=e.strerror or str(e))
        return self.tr("record_saved", path=str(self.path))


def fresh_match(record: Mapping[str, Any]) -> Match | Deal:
    """A record's match (or deal) before its first move; the record is known to replay."""
    game = load(record["game"], **(record.get("options") or {}))
    if record.get("format") == "cardplay-deal/1" or (
            "format" not in record and "deck" in record):
        return game.deal(record.get("seed"), deck=record.get("deck"), dealer=record.get("dealer"),
                         **(record.get("context") or {}))
    return game.match(record.get("seed"), dealer=record.get("dealer"))


def has_tricks(view: View) -> bool:
    """Whether the game plays tricks (declares the shared names of a trick)."""
    return bool({f.name for f in declaration_of(view.game).public} &
                {"trick", "last_trick", "tricks"})


def keys_line(view: View, tr: Translator, replaying: bool, can_take_back: bool = False) -> str:
    """The keys of the table; the last trick's only where the game has tricks, the take-back's
    only while there is a move to take back."""
    parts = [tr("tui_keys_replay") if replaying else tr("tui_keys_play"), tr("tui_key_rules")]
    if can_take_back:
        parts.append(tr("tui_key_take_back"))
    if has_tricks(view):
        parts.append(tr("tui_key_last_trick"))
    if view.match is not None:
        parts.append(tr("tui_key_sheet"))
    parts.append(tr("tui_key_quit"))
    return " · ".join(parts)


def rules_lines(game: Game, tr: Translator) -> list[str]:
    return rules_text(game.declaration, game.options_dict(), tr.lang).split("\n")
