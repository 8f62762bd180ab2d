"""The terminal table (``cardplay tui``), driven by Textual's pilot and, once, in a real terminal.

Each game plays a whole deal from a fixed seed with the keys a person would press; the tests
read what the screen's parts show after the presses.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import RichLog, Static

import cardplay
from cardplay.cli import main
from cardplay.i18n import CLI, LANGS, Translator, messages
from cardplay.tui.app import ChooseScreen, ConfirmScreen, TableApp, TextScreen
from cardplay.tui.command import new_session
from cardplay.tui.table import actions, card_moves, move_label
from cardplay.wording import card_text

# Seeds whose first deal gives the person (seat 0, choosing at random from the seed) several
# moves of as many kinds as the game has, against random bots.
SEEDS = {"banchok": 1, "chukhny": 5, "macao": 38, "maltese-twenty": 1, "sixty-six": 31,
         "twenty": 14, "two-ten-jack": 2}
SIZE = (120, 45)


def run_async(coro: Any) -> Any:
    """Run a pilot scenario to its end on a fresh event loop in its own thread: in a test run
    that also drives a browser, Playwright's sync API keeps an event loop running on the main
    thread, where ``asyncio.run`` refuses to start."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as e:  # re-raised in the test's thread
            box["error"] = e

    thread = threading.Thread(target=target, name="pilot")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box.get("value")


def page_text(app: TableApp) -> str:
    body = app.screen.query_one("#page-body", Static).content
    return getattr(body, "plain", str(body))


def runs_of(lines: list[str]) -> list[str]:
    """A log of these lines where a run of one line is that line once with its count."""
    out: list[tuple[str, int]] = []
    for line in lines:
        if out and out[-1][0] == line:
            out[-1] = (line, out[-1][1] + 1)
        else:
            out.append((line, 1))
    return [line if n == 1 else f"{line} ×{n}" for line, n in out]


async def press_for(pilot: object, app: TableApp, move: str) -> None:
    """The keys that play ``move``: its action's key, or the card's number (then the choice
    among the card's moves), and "y" where the move asks first."""
    press = pilot.press  # type: ignore[attr-defined]
    view = app.session.view()
    declaration = app.session.game.declaration
    kind = declaration.move_kind(move)
    confirm = bool(kind is not None and kind.confirm)
    for a in actions(view, app.session.tr.lang):
        if move in a.moves:
            assert f"[{a.key}] {a.label}" in app.text_of("actions")
            if a.is_run:
                await press(a.key)
                assert app.query_one("#notation").has_focus
                await press(*move.split()[1], "enter")
            else:
                await press(a.key)
            break
    else:
        hand = [str(c) for c in view.hand]
        moves = card_moves(view)
        card = next(c for c in hand if move in moves[c])
        index = hand.index(card)
        if index < 9:
            await press(str(index + 1))
        else:
            steps = (index - app.cursor) % len(hand)
            await press(*["right"] * steps)
            assert app.cursor == index
            await press("enter")
        if len(moves[card]) > 1:
            assert isinstance(app.screen, ChooseScreen)
            await pilot.pause()  # type: ignore[attr-defined]
            await press(*["down"] * moves[card].index(move), "enter")
    if confirm:
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.pause()  # type: ignore[attr-defined]
        await press("y")
    await pilot.pause()  # type: ignore[attr-defined]


async def play_first_deal(name: str, tmp_path: Path, lang: str = "en") -> None:
    seed = SEEDS.get(name, 1)
    game = cardplay.load(name)
    tr = Translator(lang)
    path = tmp_path / f"{name}.json"
    session = new_session(game, seed, 0, "random", tr, path)
    app = TableApp(session, bot_delay=0)
    rng = random.Random(seed)
    mine = 0
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while not isinstance(app.screen, TextScreen):
            assert session.persons_turn(), name
            view = session.view()
            shown = app.text_of("hand")
            assert shown.startswith(tr("tui_hand"))
            for card in view.hand:
                assert card_text(str(card), lang) in shown
            move = rng.choice(list(view.legal_moves)).text
            before = len(session.match.moves)
            await press_for(pilot, app, move)
            assert session.match.moves[before] == (0, move), (name, move)
            assert app.text_of("status") == ""
            mine += 1
        assert mine >= 3
        deal = session.match.deals[0]
        names = [session.name(s) for s in range(game.players)]
        text = page_text(app)
        lines = text.split("\n")
        # Maltese Twenty's deal is a round, and says so
        assert lines[0] == ("Round 1 is over." if name == "maltese-twenty"
                            else tr("deal_over", n=1))
        assert re.split(r"\s{2,}", lines[2].strip()) == names
        assert lines[3].split() == [tr("tui_result"), *(f"{x:+d}" for x in deal.result)]
        # every move of the deal is in the log, in order, said as the table says it
        played = session.match.moves[:len(deal.history)]
        said = [tr("plays", who=names[s], move=move_label(game.declaration, t, lang))
                for s, t in played]
        expected = runs_of(said)
        assert session.log[:len(expected)] == expected
        await pilot.press("enter")  # on to the next deal (one without a move of yours ends too)
        await pilot.pause()
        while isinstance(app.screen, TextScreen) and not session.match.is_over:
            await pilot.press("enter")
            await pilot.pause()
        if not session.match.is_over:
            named = game.declaration.deal_name  # a game's own word: Maltese Twenty's round
            n = len(session.match.deals) + 1
            number = named(lang).replace("{n}", str(n)) if named else tr("deal_number", n=n)
            assert app.text_of("head").startswith(f"{session.title} · {number} · ")
            await pilot.press("q")
    record = json.loads(path.read_text(encoding="utf-8"))
    again = cardplay.replay(record)
    assert isinstance(again, cardplay.Match)
    assert again.deals[0].result == deal.result
    assert record["moves"][:len(played)] == [t for _, t in played]


@pytest.mark.parametrize("name", cardplay.games())
def test_a_whole_deal_of_every_game_at_the_table(name: str, tmp_path: Path) -> None:
    run_async(play_first_deal(name, tmp_path))


def test_a_deal_in_russian(tmp_path: Path) -> None:
    run_async(play_first_deal("sixty-six", tmp_path, lang="ru"))


def test_a_deal_in_german(tmp_path: Path) -> None:
    run_async(play_first_deal("sixty-six", tmp_path, lang="de"))


async def _sixty_six_13(lang: str = "en") -> TableApp:
    game = cardplay.load("sixty-six")
    return TableApp(new_session(game, 13, 0, "random", Translator(lang), None), bot_delay=0)


def test_the_table_of_sixty_six(tmp_path: Path) -> None:
    """Seed 13: you lead; the arrow keys move the cursor and Enter plays its card."""
    async def scenario() -> None:
        app = await _sixty_six_13()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.text_of("head") == "Sixty-Six · bots: random · Deal 1 · dealer: Bot 1 · " \
                                          "Match: You 0 · Bot 1 0"
            assert app.text_of("hand") == "Your hand:  1:9♠  2:K♠  3:A♠  4:9♥  5:10♦  6:Q♦"
            hand = app.query_one("#hand", Static).content
            red = "".join(hand.plain[sp.start:sp.end] for sp in hand.spans
                          if "red" in str(sp.style))
            assert red == "♥♦♦"  # the red suits in red, the black ones as the terminal writes
            cursor = [hand.plain[sp.start:sp.end] for sp in hand.spans
                      if "reverse" in str(sp.style)]
            assert cursor == ["9♠"]  # the cursor starts on the first card
            assert app.text_of("actions") == "[c] Close the talon"
            assert app.text_of("middle").split("\n")[:3] == [
                "On the table: —", "Trumps: ♣", "Face-up trump card: 9♣"]
            assert app.text_of("seats").split("\n")[1].startswith("You · ▶ to move · 6 cards")
            assert app.text_of("keys") == "←/→ choose a card · Enter or 1–9 play it · : type a " \
                                          "move · r rules · l last trick · s score sheet · q quit"
            await pilot.press("right", "right", "left")
            assert app.cursor == 1
            await pilot.press("enter")  # the card under the cursor: K♠
            await pilot.pause()
            assert app.session.log[0] == "You: K♠"
            assert app.session.match.moves[0] == (0, "KS")
    run_async(scenario())


def test_keys_of_the_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = await _sixty_six_13()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("1")
            await pilot.pause()
            assert app.session.log == ["You: 9♠", "Bot 1: 10♥"]
            assert app.text_of("middle").startswith(
                "On the table: You: 9♠   Bot 1: 10♥   (taken by You)\n")
            await pilot.press("l")
            assert isinstance(app.screen, TextScreen)
            assert page_text(app) == "You: 9♠\nBot 1: 10♥\n(taken by You)"
            await pilot.press("l")
            await pilot.press("s")
            assert page_text(app).split("\n") == ["Deal   You  Bot 1", "Total    0      0"]
            await pilot.press("escape", "r")
            assert page_text(app).startswith(cardplay.load("sixty-six").declaration.summary.en)
            assert "- Close the talon: " in page_text(app)
            await pilot.press("enter")
            # a card the table can write but you do not hold, typed after ":"
            await pilot.press("colon", *"AH", "enter")
            await pilot.pause()
            assert app.text_of("status") == "You do not hold A♥."
            # closing the talon cannot be undone: n keeps it open, y closes it
            await pilot.press("c")
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("n")
            assert app.session.match.moves[-1] == (1, "TH")
            await pilot.press("c", "y")
            await pilot.pause()
            assert app.session.match.moves[2] == (0, "close")
            assert app.session.log[2] == "You: Close the talon"
            assert "[c]" not in app.text_of("actions")  # no longer legal, no longer offered
    run_async(scenario())


def test_russian_table_words(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = await _sixty_six_13("ru")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.text_of("head") == "Шестьдесят шесть (66) · боты: случайный · Сдача 1 · " \
                                          "сдаёт: Бот 1 · Партия: Вы 0 · Бот 1 0"
            assert app.text_of("hand") == "Ваши карты:  1:9♠  2:К♠  3:Т♠  4:9♥  5:10♦  6:Д♦"
            assert app.text_of("actions") == "[c] Закрыть прикуп"
            await pilot.press("colon", *"QH", "enter")
            await pilot.pause()
            assert app.text_of("status") == "У вас на руке нет Д♥."
            await pilot.press("c")
            await pilot.pause()
            question = app.screen.query_one("#question", Static).content
            assert getattr(question, "plain", "") == "Закрыть прикуп: это нельзя отменить. " \
                                                     "Сыграть? y или д — да · n или н — нет"
            await pilot.press("н")
            assert app.session.match.moves == [] and not isinstance(app.screen, ConfirmScreen)
            await pilot.press("c")
            await pilot.pause()
            await pilot.press("д")
            await pilot.pause()
            assert app.session.match.moves[0] == (0, "close")
            assert app.session.log[0] == "Вы: Закрыть прикуп"
    run_async(scenario())


def test_a_whole_match_to_the_end_screen_and_its_replay(tmp_path: Path) -> None:
    async def scenario() -> tuple[str, TableApp]:
        game = cardplay.load("sixty-six", match_target=1)
        path = tmp_path / "m.json"
        app = TableApp(new_session(game, 31, 0, "random", Translator("en"), path), bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            while not app.session.match.is_over:
                if isinstance(app.screen, TextScreen):
                    await pilot.press("enter")
                else:
                    await press_for(pilot, app, app.session.view().legal_moves[0].text)
            text = page_text(app)
            await pilot.press("enter")
        return text, app

    text, app = run_async(scenario())
    match = app.session.match
    assert app.return_code == 0
    scores = " · ".join(f"{app.session.name(s)} {x}" for s, x in enumerate(match.scores))
    assert f"The match is over. Final scores: {scores}" in text
    assert text.rstrip().endswith(f"Match record saved to {tmp_path / 'm.json'}")
    record = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert cardplay.replay(record).is_over  # type: ignore[union-attr]

    async def replayed() -> None:
        from cardplay.tui.table import Session, fresh_match

        target = fresh_match(record)
        assert isinstance(target, cardplay.Match)
        session = Session(target, 0, Translator("en"), script=record["moves"])
        rapp = TableApp(session, bot_delay=0)
        async with rapp.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert rapp.text_of("actions") == f"Move 0 of {len(record['moves'])}"
            assert rapp.text_of("hand").startswith("Hand of Seat 0:  1:")
            await pilot.press("right", "space")
            assert rapp.text_of("actions") == f"Move 2 of {len(record['moves'])}"
            first, second = record["moves"][:2]
            assert session.log[0].endswith(card_text(first)) and session.log[0].startswith(
                "Seat ")
            assert len(session.log) == 2 and session.match.moves[1][1] == second
    run_async(replayed())


def test_a_game_without_tricks_has_no_last_trick_key() -> None:
    async def scenario() -> None:
        game = cardplay.load("twenty")
        app = TableApp(new_session(game, 14, 0, "random", Translator("ru"), None), bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.text_of("keys") == "←/→ выбрать карту · Enter или 1–9 сыграть · : ввести " \
                                          "ход · r правила · s счёт · q выход"
            assert app.text_of("actions") == "[d] Взять карту"
    run_async(scenario())


def test_bots_think_on_a_thread_while_the_table_answers(tmp_path: Path) -> None:
    async def scenario() -> None:
        game = cardplay.load("sixty-six")
        app = TableApp(new_session(game, 13, 0, "random", Translator("en"), None),
                       bot_delay=1.0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("1")
            assert app.text_of("actions") == "Waiting for Bot 1…"
            for _ in range(100):
                if len(app.session.log) == 2:
                    break
                await pilot.pause(0.05)
            assert app.session.log == ["You: 9♠", "Bot 1: 10♥"]
            assert app.text_of("actions") == "[c] Close the talon"
    run_async(scenario())


def test_the_game_picker() -> None:
    from cardplay.tui.app import PickerApp
    from cardplay.tui.command import game_entries

    async def scenario(lang: str) -> tuple[str | None, list[tuple[str, str]]]:
        entries = game_entries(Translator(lang))
        app = PickerApp(Translator(lang), entries)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("down", "enter")
        return app.return_value, entries

    chosen, entries = run_async(scenario("en"))
    assert [name for name, _ in entries] == cardplay.games() and chosen == cardplay.games()[1]
    assert entries[cardplay.games().index("sixty-six")][1] == "Sixty-Six · Players: 2"
    _, entries = run_async(scenario("ru"))
    assert entries[cardplay.games().index("chukhny")][1] == "Чухны · Игроков: 2–15"


def test_without_textual_the_command_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "textual", None)  # the extra is not installed
    monkeypatch.setitem(sys.modules, "cardplay.tui.app", None)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["tui", "sixty-six"]) == 2
    assert out.getvalue() == "error: the terminal table needs the tui extra: " \
                             "pip install 'cardplay[tui]'\n"
    out.seek(0)
    out.truncate()
    assert main(["tui", "sixty-six", "--lang", "ru"]) == 2
    assert out.getvalue() == "ошибка: для стола в терминале нужно: pip install 'cardplay[tui]'\n"


def test_replay_at_the_table_refuses_what_it_cannot_show(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    deal = cardplay.load("sixty-six").deal(seed=5)
    while not deal.is_over:
        deal.play(deal.legal_moves()[0])
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal.record()), encoding="utf-8")
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["replay", str(path), "--tui"]) == 2
    assert out.getvalue() == "error: the table replays match records; a deal record replays " \
                             "with cardplay replay FILE\n"
    out.seek(0)
    out.truncate()
    assert main(["replay", str(tmp_path / "none.json"), "--tui", "--lang", "ru"]) == 2
    assert out.getvalue().startswith(f"ошибка: не удалось прочитать {tmp_path / 'none.json'}: ")


def test_a_run_of_draws_is_one_line_of_the_log() -> None:
    """Chukhny, seed 5: the bots draw again and again before you move."""
    async def scenario() -> None:
        game = cardplay.load("chukhny")
        app = TableApp(new_session(game, 5, 0, "random", Translator("en"), None), bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.session.log == ["Bot 1: Draw ×9", "Bot 1: 9♠", "Bot 2: Draw ×15"]
            assert len(app.query_one("#log", RichLog).lines) == 3  # the pane shows the same
            assert app.text_of("keys") == "←/→ choose a card · Enter or 1–9 play it · : type a " \
                                          "move · r rules · s score sheet · q quit"
            await pilot.press("l")  # no tricks in this game: the key does nothing
            assert not isinstance(app.screen, TextScreen)
    run_async(scenario())


def test_every_message_the_table_uses_exists() -> None:
    source = "".join(p.read_text(encoding="utf-8")
                     for p in (Path(cardplay.__file__).parent / "tui").glob("*.py"))
    used = set(re.findall(r'tr\("([a-z0-9_]+)"', source))
    assert used and all(not used - set(messages(lang, CLI)) for lang in LANGS)


# ---- a real terminal


class Tmux:
    """A tmux server of the test's own (its own socket), so the environment given to the
    command is the one it runs in: a server already running elsewhere would hand a new session
    that server's environment instead."""

    def __init__(self, name: str) -> None:
        self.socket = name

    def __call__(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True,
                              capture_output=True, text=True).stdout

    def wait_for(self, pane: str, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self("capture-pane", "-p", "-t", pane)
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{screen}")


def test_in_a_real_terminal(tmp_path: Path) -> None:
    """tmux runs `cardplay tui` in a pseudo-terminal: keys in, the screen's text out."""
    assert shutil.which("tmux"), "tmux is installed by .ci/run"
    tmux = Tmux(f"cardplay-test-{os.getpid()}")
    record = tmp_path / "t.json"
    src = str(Path(cardplay.__file__).parent.parent)
    # COLUMNS and LINES would override the size of the terminal (pytest may set them)
    command = ["env", "-u", "COLUMNS", "-u", "LINES", f"PYTHONPATH={src}", "LANG=C.UTF-8",
               "TERM=xterm-256color", sys.executable, "-m", "cardplay.cli", "tui", "sixty-six",
               "--seed", "13", "--vs", "random", "--lang", "en", "--save", str(record),
               "--bot-delay", "0"]
    tmux("-u", "new-session", "-d", "-s", "t", "-x", "120", "-y", "40",
         " ".join(shlex.quote(c) for c in command))
    pane = "t:0.0"
    try:
        tmux("set-option", "-t", "t", "remain-on-exit", "on")  # a crash stays readable
        # without a client attached, a fresh server may keep the default 80x24
        tmux("resize-window", "-t", "t", "-x", "120", "-y", "40")
        screen = tmux.wait_for(pane, "Your hand:")
        assert "Sixty-Six · bots: random · Deal 1" in screen
        assert "1:9♠  2:K♠  3:A♠  4:9♥  5:10♦  6:Q♦" in screen
        tmux("send-keys", "-t", pane, "1")
        screen = tmux.wait_for(pane, "(taken by You)")
        assert "On the table: You: 9♠   Bot 1: 10♥   (taken by You)" in screen
        assert "You: 9♠" in screen and "Bot 1: 10♥" in screen  # the log pane
        assert "[c] Close the talon" in screen
        tmux("send-keys", "-t", pane, "q")
        deadline = time.monotonic() + 30
        while not record.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert json.loads(record.read_text(encoding="utf-8"))["moves"][:2] == ["9S", "TH"]
    finally:
        subprocess.run(["tmux", "-L", tmux.socket, "kill-server"], capture_output=True)


def test_the_terminal_table_names_rounds_leaders_and_records_as_the_browser_does() -> None:
    """Issue 32 in the terminal: Maltese Twenty's header says "Round 1" as its table does;
    Sixty-Six's "Leads" names the seat to lead after a trick, under a Russian label that is not
    the turn's own "ходит"; a record is a block of lines, never "Key: value; Key: value"."""
    from cardplay.cli.render import deal_end_lines
    from cardplay.tui.table import breakdown_lines, header_line, middle_lines

    names = ["Ann", "Bob"].__getitem__
    maltese = cardplay.load("maltese-twenty").match(seed=4)
    view = maltese.view(0)
    assert header_line(view, "Maltese", Translator("en"), names).startswith(
        "Maltese · Round 1 · ")
    assert " · Раунд 1 · " in header_line(view, "М", Translator("ru"), names)
    # play until a score is recorded: its record is three indented lines, not one joined line
    deal = maltese.deal
    while deal.view(0).public["last_event"] is None:
        deal.play(deal.legal_moves()[0])
    lines = middle_lines(deal.view(0), names, Translator("en"))
    at = lines.index("Last score:")
    assert [x.split(":")[0] for x in lines[at + 1:at + 4]] == ["  Player", "  Score", "  Points"]
    assert not [x for x in lines if re.search(r": [^;]+; [^:;]+: ", x)]
    # a round's end says "Round 1 is over." in the terminal table and the command line alike
    while not maltese.deals:
        maltese.play(maltese.legal_moves()[0])
    assert breakdown_lines(maltese, 0, 0, Translator("ru"), names)[0] == "Раунд 1 окончен."
    assert deal_end_lines(maltese, 0, 0, Translator("de"), names)[1] == "Runde 1 ist vorbei."
    sixty_six = cardplay.load("sixty-six").match(seed=4)
    while not sixty_six.deals:
        sixty_six.play(sixty_six.legal_moves()[0])
    assert breakdown_lines(sixty_six, 0, 0, Translator("en"), names)[0] == "Deal 1 is over."
    # Sixty-Six: after a trick the seat to move is the one "Leads" names
    deal66 = cardplay.load("sixty-six").deal(seed=31)
    rng = random.Random(1)
    for _ in range(6):
        deal66.play(rng.choice([m for m in deal66.legal_moves() if len(m.text) == 2]))
        if not deal66.view(0).public["trick"]:
            assert deal66.view(0).public["leader"] == deal66.to_move
    ru = [x for x in middle_lines(deal66.view(0), names, Translator("ru"))
          if x.startswith("Кто заходит: ")]
    assert ru == [f"Кто заходит: {names(deal66.view(0).public['leader'])}"]


def test_take_back_at_the_terminal_table(tmp_path: Path) -> None:
    """Issue 32's undo in the terminal: u takes back the person's last move of the deal in play
    and the bots' answers; the key is offered only while there is such a move; the record saved
    is the game as it then stands."""
    async def scenario() -> None:
        game = cardplay.load("sixty-six")
        record = tmp_path / "undo.json"
        app = TableApp(new_session(game, 13, 0, "random", Translator("en"), record),
                       bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            first_hand = app.text_of("hand")
            assert "u take back" not in app.text_of("keys")
            await pilot.press("u")  # nothing of mine yet: said so, nothing changes
            await pilot.pause()
            assert app.text_of("status") == "You have no move to take back in this deal."
            assert app.session.match.moves == []
            await pilot.press("1")  # 9♠, which Bot 1 answers with 10♥
            await pilot.pause()
            assert app.session.match.moves == [(0, "9S"), (1, "TH")]
            assert "u take back" in app.text_of("keys")
            await pilot.press("u")
            await pilot.pause()
            assert app.session.match.moves == [] and app.session.log == []
            assert app.text_of("status") == \
                "Your last move was taken back, and the bots' answers to it."
            assert app.text_of("hand") == first_hand
            assert len(app.query_one("#log", RichLog).lines) == 0
            await pilot.press("2")  # K♠ instead
            await pilot.pause()
            assert app.session.match.moves[0] == (0, "KS")
            assert app.session.log[0] == "You: K♠"
            await pilot.press("q")
            await pilot.pause()
        saved = json.loads(record.read_text(encoding="utf-8"))
        assert saved["moves"][0] == "KS" and "9S" not in saved["moves"][:1]
        assert cardplay.replay(saved).moves == app.session.match.moves
    run_async(scenario())
