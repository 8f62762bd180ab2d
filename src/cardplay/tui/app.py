"""The terminal table drawn with Textual: one fixed screen, keys for everything.

The screen keeps its place while a match goes on: the header (game, deal, match scores), the
seats, the middle of the table (the trick, which stays until the next lead, and every shared
fact of the game), your hand (arrow keys and Enter, or a card's number), the moves that are no
card on keys of their own, a status line and the log. What each part says comes from
:mod:`.table`; this module only lays it out, colours the suits and answers the keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, RichLog, Static

from ..i18n import Translator
from .table import (
    Action,
    Session,
    actions,
    breakdown_lines,
    card_moves,
    end_lines,
    hand_items,
    has_tricks,
    header_line,
    keys_line,
    last_trick_lines,
    middle_lines,
    move_label,
    rules_lines,
    seat_lines,
    sheet_lines,
)

__all__ = ["PickerApp", "TableApp", "coloured"]

_RED = "♥♦"


def coloured(line: str, style: str = "") -> Text:
    """A line with the red suits in red (the black ones keep the terminal's colour). Every
    text reaches the screen as a ``Text``, never as markup: ``[c] Close`` is a key, not a tag."""
    out = Text(style=style)
    for ch in line:
        out.append(ch, style="bold red" if ch in _RED else "")
    return out


class TextScreen(ModalScreen[None]):
    """A page over the table (the rules, the last trick, the score sheet, a deal's end):
    Enter, Escape or the key that opened it closes it."""

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > Vertical { width: 90%; height: auto; max-height: 90%; border: round $accent;
                            background: $surface; padding: 0 1; }
    TextScreen #page-title { text-style: bold; }
    TextScreen #page-hint { color: $text-muted; }
    """

    def __init__(self, title: str, lines: Sequence[str], hint: str,
                 close_keys: Sequence[str] = ()) -> None:
        super().__init__()
        self.title_text = title
        self.lines = list(lines)
        self.hint = hint
        self.close_keys = {"enter", "escape", *close_keys}

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), id="page-title")
            with VerticalScroll():
                yield Static(coloured("\n".join(self.lines)), id="page-body")
            yield Static(Text(self.hint), id="page-hint")

    def on_key(self, event: events.Key) -> None:
        if event.key in self.close_keys:
            event.stop()
            self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A move that cannot be taken back: y or Enter plays it, n or Escape does not."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Static { width: auto; max-width: 80%; border: round $warning;
                             background: $surface; padding: 1 2; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(coloured(self.question), id="question")

    def on_key(self, event: events.Key) -> None:
        # д and н: the same answers typed on a Russian layout; j: "ja", as the German text asks
        if event.key in ("y", "enter", "д", "j"):
            event.stop()
            self.dismiss(True)
        elif event.key in ("n", "escape", "н"):
            event.stop()
            self.dismiss(False)


class ChooseScreen(ModalScreen["str | None"]):
    """Which of several moves with one card (a card alone or with a declaration)."""

    DEFAULT_CSS = """
    ChooseScreen { align: center middle; }
    ChooseScreen > Vertical { width: 60; height: auto; border: round $accent;
                              background: $surface; }
    ChooseScreen OptionList { height: auto; max-height: 20; }
    """

    AUTO_FOCUS = "OptionList"

    def __init__(self, question: str, moves: Sequence[str], labels: Sequence[str]) -> None:
        super().__init__()
        self.question = question
        self.moves = list(moves)
        self.labels = list(labels)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.question), id="choose-question")
            yield OptionList(*(coloured(x) for x in self.labels), id="choices")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.moves[event.option_index])

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape":
            event.stop()
            self.dismiss(None)


class TableApp(App[int]):
    """The table of one match (or of a record replayed), as ``session.seat`` sees it."""

    TITLE = "cardplay"
    # Keys belong to the table until ":" opens the move box.
    AUTO_FOCUS = None
    CSS = """
    Screen { layout: horizontal; }
    #main { width: 3fr; }
    #log { width: 1fr; min-width: 28; border-left: solid $primary; }
    #head { background: $primary; color: $text; text-style: bold; padding: 0 1; }
    #seats { padding: 0 1; height: auto; }
    #middle { border: round $secondary; padding: 0 1; height: 1fr; }
    #hand { padding: 0 1; height: auto; min-height: 2; }
    #actions { padding: 0 1; height: auto; }
    #status { padding: 0 1; height: auto; color: $warning; }
    #keys { padding: 0 1; color: $text-muted; height: auto; }
    #notation { display: none; }
    #notation.shown { display: block; }
    """

    def __init__(self, session: Session, bot_delay: float = 0.6) -> None:
        super().__init__()
        self.session = session
        self.tr = session.tr
        self.bot_delay = bot_delay
        self.cursor = 0
        self.status = ""
        self.busy = False  # a page over the table, or a bot's move due
        self.saved = ""
        self._logged = 0  # lines of the session's log already in the log pane

    # ---- layout

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="main"):
                yield Static(id="head")
                yield Static(id="seats")
                yield Static(id="middle")
                yield Static(id="hand")
                yield Static(id="actions")
                yield Static(id="status")
                yield Input(placeholder=self.tr("tui_type_move"), id="notation",
                            select_on_focus=False)  # a run's word stays when typing on
                yield Static(id="keys")
            log = RichLog(id="log", wrap=True, markup=False)
            log.can_focus = False
            yield log

    def on_mount(self) -> None:
        self.draw()
        self.call_after_refresh(self.advance)

    # ---- what the screen says

    def text_of(self, part: str) -> str:
        """The plain text a part of the screen shows (what a test or a screen reader reads)."""
        widget = self.query_one(f"#{part}", Static)
        content = widget.content
        return content.plain if isinstance(content, Text) else str(content)

    def _actions(self) -> list[Action]:
        if not self.session.persons_turn():
            return []
        return actions(self.session.view(), self.tr.lang)

    def draw(self) -> None:
        s = self.session
        tr = self.tr
        view = s.view()
        self.query_one("#head", Static).update(Text(header_line(view, s.title, tr, s.name)))
        self.query_one("#seats", Static).update(coloured("\n".join(seat_lines(view, s.name, tr))))
        self.query_one("#middle", Static).update(
            coloured("\n".join(middle_lines(view, s.name, tr))))
        items = hand_items(view, tr.lang)
        self.cursor = max(0, min(self.cursor, len(items) - 1))
        hand = Text(tr("tui_hand_of", who=s.name(s.seat)) if s.replaying else tr("tui_hand"),
                    style="bold")
        mine = s.persons_turn()
        for i, (card, playable) in enumerate(items):
            style = "reverse" if mine and i == self.cursor else ""
            if mine and not playable:
                style += " dim"  # a card that cannot be played now
            hand.append(f"  {i + 1}:" if i < 9 else "  ", style="dim")
            hand.append_text(coloured(card, style=style.strip()))
        self.query_one("#hand", Static).update(hand)
        bar = []
        for a in self._actions():
            bar.append(f"[{a.key}] {a.label}")
        if s.replaying:
            bar.append(tr("tui_replay_move", i=len(s.match.moves), total=len(s.script or [])))
        elif not mine and not s.match.is_over and s.match.to_move is not None:
            bar.append(tr("tui_waiting", who=s.name(s.match.to_move)))
        self.query_one("#actions", Static).update(coloured("   ".join(bar)))
        self.query_one("#status", Static).update(coloured(self.status))
        self.query_one("#keys", Static).update(
            Text(keys_line(view, tr, s.replaying, mine and s.can_take_back())))
        log = self.query_one("#log", RichLog)
        if s.log_changed < self._logged:  # a line already shown was rewritten: show it anew
            log.clear()
            self._logged = 0
        for line in s.log[self._logged:]:
            log.write(coloured(line))
        self._logged = s.log_changed = len(s.log)

    # ---- the driver loop: bots (or the record) move, deals end, the match ends

    def advance(self) -> None:
        """Let the bots move until it is the person's turn; stop at each deal's end to show it.
        With a delay, one bot move per tick, so each can be seen."""
        s = self.session
        if self.busy or s.replaying:
            return
        while not s.match.is_over and not s.persons_turn():
            if self.bot_delay > 0:
                self.busy = True
                self.set_timer(self.bot_delay, self._bot_tick)
                return
            s.bot_step()
            if self._after_move():
                return
        self.draw()

    def _bot_tick(self) -> None:
        # A searching bot thinks for seconds: on a thread, so the keys of the table (rules,
        # score sheet, quit) keep answering meanwhile.
        self.run_worker(self._think, thread=True, exclusive=True, group="bot")

    def _think(self) -> None:
        choice = self.session.bot_choice()
        self.call_from_thread(self._bot_moved, choice)

    def _bot_moved(self, choice: tuple[int, str] | None) -> None:
        self.busy = False
        if choice is not None:
            self.session.apply(*choice)
        if not self._after_move():
            self.advance()

    def _after_move(self) -> bool:
        """Show what a move ended (a deal, the match); True when a page now waits for a key."""
        s = self.session
        self.draw()
        ended = s.ended_deals()
        if s.match.is_over:
            self.saved = s.save()
            pages = [breakdown_lines(s.match, n, s.seat, self.tr, s.name) for n in ended]
            lines = [line for page in pages for line in [*page, ""]]
            lines += end_lines(s.match, s.name, self.tr, None if s.replaying else s.seat)
            if self.saved:
                lines += ["", self.saved]
            self.busy = True
            self.push_screen(TextScreen(self.tr("tui_end_title"), lines,
                                        self.tr("tui_end_hint")), lambda _: self.exit(0))
            return True
        if ended:
            self.busy = True
            lines = [line for n in ended
                     for line in breakdown_lines(s.match, n, s.seat, self.tr, s.name)]
            self.push_screen(TextScreen(self.tr("tui_deal_end_title"), lines,
                                        self.tr("tui_next_deal")), self._deal_shown)
            return True
        return False

    def _deal_shown(self, _: None) -> None:
        self.busy = False
        self.draw()
        self.advance()

    # ---- the person's keys

    def _play(self, text: str) -> None:
        refused = self.session.play(text)
        self.status = refused or ""
        if refused is not None:
            self.draw()
            return
        if not self._after_move():
            self.advance()

    def _ask(self, text: str, confirm: bool) -> None:
        if not confirm:
            self._play(text)
            return
        question = self.tr("tui_confirm", move=move_label(self.session.game.declaration, text,
                                                          self.tr.lang))
        self.push_screen(ConfirmScreen(question), lambda yes: self._play(text) if yes else None)

    def _confirm_of(self, text: str) -> bool:
        kind = self.session.game.declaration.move_kind(text)
        return bool(kind is not None and kind.confirm)

    def _choose_card(self, index: int) -> None:
        s = self.session
        view = s.view()
        if not 0 <= index < len(view.hand):
            return
        self.cursor = index
        card = str(view.hand[index])
        moves = card_moves(view)[card]
        if not moves:
            self.status = s.play(card) or ""  # refused: the message says what can be played
            self.draw()
            return
        if len(moves) == 1:
            self._ask(moves[0], self._confirm_of(moves[0]))
            return
        declaration = s.game.declaration
        labels = [move_label(declaration, m, self.tr.lang) for m in moves]

        def chosen(move: str | None) -> None:
            if move is not None:
                self._ask(move, self._confirm_of(move))

        self.push_screen(ChooseScreen(self.tr("tui_choose"), moves, labels), chosen)

    def _open_notation(self, prefill: str = "", hint: str = "") -> None:
        box = self.query_one("#notation", Input)
        box.add_class("shown")
        box.value = prefill
        box.cursor_position = len(prefill)
        if hint:
            self.status = hint
            self.draw()
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        box = self.query_one("#notation", Input)
        box.remove_class("shown")
        self.set_focus(None)
        text = event.value.strip()
        if text and self.session.persons_turn():
            self._play(text)

    def _page(self, title: str, lines: Sequence[str], key: str) -> None:
        self.push_screen(TextScreen(title, lines, self.tr("tui_back"), close_keys=(key,)))

    def on_key(self, event: events.Key) -> None:
        if len(self.screen_stack) > 1:  # a page or a question is open: its keys are its own
            return
        box = self.query_one("#notation", Input)
        if box.has_focus:
            if event.key == "escape":
                box.remove_class("shown")
                self.set_focus(None)
                event.stop()
            return
        s = self.session
        key = event.key
        handled: Callable[[], None] | None = None
        view = s.view()
        if key == "q":
            handled = self._quit
        elif key == "r":
            def handled() -> None:
                self._page(self.tr("tui_rules_title", game=s.title),
                           rules_lines(s.game, self.tr), "r")
        elif key == "l" and has_tricks(view):
            def handled() -> None:
                self._page(self.tr("tui_last_trick_title"),
                           last_trick_lines(view, s.name, self.tr), "l")
        elif key == "s":
            def handled() -> None:
                self._page(self.tr("tui_sheet_title"), sheet_lines(view, s.name, self.tr), "s")
        elif s.replaying and key in ("right", "space", "enter", "n"):
            handled = self._replay_step
        elif self.busy or not s.persons_turn():
            pass
        elif key in ("left", "right") and view.hand:
            step = -1 if key == "left" else 1
            self.cursor = (self.cursor + step) % len(view.hand)
            handled = self.draw
        elif key == "enter" and view.hand:
            def handled() -> None:
                self._choose_card(self.cursor)
        elif key.isdigit() and key != "0":
            def handled() -> None:
                self._choose_card(int(key) - 1)
        elif key in ("colon", "slash"):
            handled = self._open_notation
        elif key == "u":
            handled = self._take_back
        else:
            for a in self._actions():
                if a.key == key:
                    def handled(a: Action = a) -> None:
                        self._action(a)
                    break
        if handled is not None:
            event.stop()
            handled()

    def _take_back(self) -> None:
        taken = self.session.take_back()
        self.status = self.tr("tui_taken_back" if taken else "tui_nothing_to_take_back")
        self.cursor = 0
        self.draw()

    def _action(self, a: Action) -> None:
        if a.is_run:
            word, lo = a.moves[0].split()
            hi = a.moves[-1].split()[1]
            self._open_notation(f"{word} ", self.tr("menu_run", word=word, lo=lo, hi=hi))
            return
        self._ask(a.moves[0], a.confirm)

    def _replay_step(self) -> None:
        s = self.session
        if s.moves_left() <= 0 or self.busy:
            return
        s.bot_step()
        self._after_move()

    def _quit(self) -> None:
        if not self.saved:
            self.saved = self.session.save()
        self.exit(0)


class PickerApp(App["str | None"]):
    """``cardplay tui`` without a game: the games by title, chosen with the arrow keys and
    Enter (Escape or q leaves)."""

    DEFAULT_CSS = """
    PickerApp { align: center middle; }
    PickerApp > Vertical { width: 70; height: auto; border: round $accent; }
    PickerApp OptionList { height: auto; }
    """
    AUTO_FOCUS = "OptionList"

    def __init__(self, tr: Translator, entries: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.tr = tr
        self.entries = list(entries)  # (game name, what the list shows)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.tr("tui_pick_title")), id="pick-title")
            yield OptionList(*(Text(shown) for _, shown in self.entries), id="games")
            yield Static(Text(self.tr("tui_pick_hint")), id="pick-hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.exit(self.entries[event.option_index][0])

    def on_key(self, event: events.Key) -> None:
        if event.key in ("escape", "q"):
            self.exit(None)
