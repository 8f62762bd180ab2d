"""The ``cardplay`` command, driven through ``main(argv)`` with swapped stdin and stdout."""

from __future__ import annotations

import builtins
import io
import json
import re
import string
import sys
from pathlib import Path

import pytest

import cardplay
from cardplay import cli
from cardplay.cli import COMMANDS, Command, main, pretty_move
from cardplay.i18n import CLI, LANGS, Translator, detect_lang, messages
from helpers import english_words


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests choose their language explicitly; the person's LANG must not leak in."""
    monkeypatch.delenv("LANG", raising=False)


def run(monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "stdout", out)
    code = main(argv)
    return code, out.getvalue()


def seed_where_seat_0_leads() -> int:
    """A seed whose Sixty-Six match starts with seat 0 to move (seat 1 deals)."""
    game = cardplay.load("sixty-six")
    return next(s for s in range(100) if game.match(s).to_move == 0)


# ---- games and rules


def test_games_lists_every_game_with_its_title_in_the_readers_language(
        monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(monkeypatch, ["games"])
    assert code == 0
    for name in cardplay.engine.games():
        assert name in out
    assert "Sixty-Six" in out and "Шестьдесят шесть" not in out
    assert "players" in out and "title" in out
    code, out = run(monkeypatch, ["--lang", "ru", "games"])
    assert code == 0 and "Шестьдесят шесть (66)" in out and "Sixty-Six" not in out


def test_games_in_russian_from_lang_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    code, out = run(monkeypatch, ["games"])
    assert code == 0
    assert "игра" in out and "Правила:" in out
    code, out = run(monkeypatch, ["games", "--lang", "en"])
    assert "Rules:" in out


def test_rules_in_english_lists_every_option(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(monkeypatch, ["rules", "sixty-six"])
    assert code == 0
    cls = cardplay.engine.game_class("sixty-six")
    assert out.startswith("Sixty-Six\n=========\n\n")
    assert cls.declaration.summary.en in out
    assert "- Close the talon: No more drawing; follow suit from now on" in out
    assert "- End of the hand: Play out. " in out
    for name in cls.option_fields():
        assert re.search(rf"^\s+{name}\s", out, re.M), name
    assert re.search(r"^\s+end_mode\s+play_out\s+play_out, first_to_66$", out, re.M)
    assert re.search(r"^\s+must_head\s+true\s+true, false$", out, re.M)
    assert "whole number" in out  # match_target


def test_rules_in_russian(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(monkeypatch, ["rules", "sixty-six", "--lang", "ru"])
    assert code == 0
    assert out.startswith("Шестьдесят шесть (66)\n")
    assert "- Закрыть прикуп: " in out and "Правила за этим столом:" in out
    assert "Настройки" in out and "по умолчанию" in out


# What a programmer's text holds and a player's must not: reST markup, pointers to source files
# and documents that are not installed, and the numbers of the moves in the action space.
_NOT_FOR_PLAYERS = re.compile(r"``|::|:class:|:func:|:data:|\.py\b|RULES\.md|docs/|"
                              r"\b(action|move) codes?\b|\baction space|\baction \d")


@pytest.mark.parametrize("lang", ["en", "ru", "de"])
@pytest.mark.parametrize("name", cardplay.engine.games())
def test_rules_are_for_players(monkeypatch: pytest.MonkeyPatch, name: str, lang: str) -> None:
    code, out = run(monkeypatch, ["rules", name, "--lang", lang])
    assert code == 0
    assert _NOT_FOR_PLAYERS.search(out) is None, _NOT_FOR_PLAYERS.findall(out)
    declaration = cardplay.engine.game_class(name).declaration
    assert declaration.summary(lang) in out
    for kind in declaration.moves:
        assert f"- {kind.label(lang)}: {kind.description(lang)}" in out
    cyrillic = re.search("[а-яА-Я]", out.split("\n", 1)[1]) is not None
    assert cyrillic == (lang == "ru")
    if lang == "de":  # the rules in German, up to the options' table of code names
        assert english_words(out.split("cardplay play NAME")[0]) == []


def test_rules_go_through_the_pager_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    paged: list[str] = []
    monkeypatch.setattr("pydoc.pager", paged.append)
    code, out = run(monkeypatch, ["rules", "twenty"])  # a StringIO is no terminal
    assert code == 0 and paged == [] and out.startswith("Twenty (20)\n")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    assert main(["rules", "twenty"]) == 0
    assert len(paged) == 1 and paged[0].startswith("Twenty (20)\n")
    assert paged[0].rstrip().endswith("cardplay play twenty")
    assert screen.getvalue() == ""


def test_rules_of_an_unknown_game_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(monkeypatch, ["rules", "poker"])
    assert code == 2
    assert "sixty-six" in out  # the valid games are named


def test_help_and_missing_command(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(monkeypatch, ["--help"])
    assert code == 0 and "play" in out and "replay" in out
    code, out = run(monkeypatch, [])
    assert code == 2
    code, _ = run(monkeypatch, ["play"])  # argparse: missing NAME
    assert code == 2


# ---- play


def test_whole_match_to_the_end(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    code, out = run(monkeypatch, ["play", "sixty-six", "--vs", "random", "--seed", "11",
                                  "--save", str(path)], stdin="1\n" * 3000)
    assert code == 0
    assert "The match is over" in out
    assert "Deal 1 is over." in out and "Result of the deal" in out
    assert f"Match record saved to {path}" in out
    record = json.loads(path.read_text(encoding="utf-8"))
    match = cardplay.replay(record)
    assert isinstance(match, cardplay.Match) and match.is_over
    assert f"Final scores: You {match.scores[0]} · Bot 1 {match.scores[1]}" in out
    assert max(match.scores) >= 7
    # the bots' moves are printed as they happen
    assert out.count("Bot 1: ") >= sum(1 for _ in record["moves"]) // 3
    # a Sixty-Six view is drawn by its own renderer, with suit symbols
    assert "Trumps: " in out and "Your hand: " in out and "♠" in out


def test_forced_moves_are_confirmed_with_enter(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    forced = 0

    def person(prompt: str) -> str:
        nonlocal forced
        out.write(prompt + "\n")
        tail = out.getvalue()[-300:]
        if "Only one move" in tail.rsplit("Your moves:", 1)[-1]:
            forced += 1
            return ""
        return "1"

    monkeypatch.setattr(builtins, "input", person)
    code = main(["play", "sixty-six", "--vs", "random", "--seed", "4",
                 "--save", str(tmp_path / "f.json")])
    assert code == 0 and forced > 0
    assert "The match is over" in out.getvalue()
    assert "Nothing entered" not in out.getvalue()


def test_auto_plays_forced_moves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, out = run(monkeypatch, ["play", "sixty-six", "--vs", "random", "--seed", "4", "--auto",
                                  "--save", str(tmp_path / "a.json")], stdin="1\n" * 3000)
    assert code == 0 and "The match is over" in out
    assert "Only one move" not in out


def test_bad_inputs_get_messages_and_change_nothing(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    seed = seed_where_seat_0_leads()
    hand = {str(c) for c in cardplay.load("sixty-six").match(seed).view(0).hand}
    not_held = next(c for c in ("AS", "TS", "KS", "QS", "JS", "9S", "AH", "TH") if c not in hand)
    path = tmp_path / "bad.json"
    lines = ["", "99", "0", "xx", "KH=30", "buy", not_held]
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", str(seed), "--save", str(path)],
                    stdin="\n".join(lines) + "\n")
    assert code == 0
    assert "Nothing entered: type a number from 1 to" in out
    assert "There is no move 99" in out and "There is no move 0" in out
    menu = re.search(r"^   1\) (\S+) ", out, re.M)
    assert menu is not None
    for text in ("xx", "KH=30", "buy"):
        assert f"'{text}' is not a move of this game: type a number from 1 to 7, or a move as " \
               f"the menu writes it (such as {menu.group(1)}).\n" in out
    assert f"You do not hold {pretty_move(not_held)}.\n" in out
    assert out.count("Your move> ") == len(lines) + 1  # a new prompt after each, then EOF
    assert "End of input" in out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["moves"] == []  # nothing was played
    assert record["seed"] == seed


# Seed 13: seat 0 leads Sixty-Six holding K♠ without Q♠ (trumps are clubs) and no 2 of anything.
_REFUSALS = {
    "en": ["'xyz' is not a move of this game: type a number from 1 to 7, or a move as the menu "
           "writes it (such as 9♠).",
           "2♠ is not among this game's cards.",
           "You do not hold Q♥.",
           # the rule that forbids it (issue 32), not just the moves that are allowed
           "A marriage is the King and Queen of one suit: you do not hold Q♠."],
    "ru": ["'xyz' — не ход этой игры: наберите номер от 1 до 7 или ход, как он записан в списке "
           "(например, 9♠).",
           "Карты 2♠ в этой игре нет.",
           "У вас на руке нет Д♥.",
           "Марьяж — это король и дама одной масти, а у вас нет карты Д♠."],
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_one_message_per_bad_input_in_the_table_s_words(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path, lang: str) -> None:
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", "13", "--lang", lang,
                                  "--save", str(tmp_path / "r.json")],
                    stdin="xyz\n2S\nQH\nKS=20\n")
    assert code == 0
    prompt = "Your move> " if lang == "en" else "Ваш ход> "
    answers = out.split(prompt)[1:5]
    typed = ["xyz", "2S", "QH", "KS=20"]
    assert answers == [f"{t}\n{message}\n" for t, message in zip(typed, _REFUSALS[lang])]
    # the engine's words for programmers stay out: its game prefix, seat numbers, card codes
    assert "sixty-six:" not in out and "seat 0" not in out and " KS " not in out


def test_a_deal_end_is_explained(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Seed 18 (always the first move against random bots): both reach 66, a replay for 0."""
    argv = ["play", "sixty-six", "--vs", "random", "--seed", "18", "-o", "match_target=1",
            "--save", str(tmp_path / "e.json")]
    code, out = run(monkeypatch, argv, stdin="1\n" * 400)
    assert code == 0
    end = out.split("Deal 1 is over.\n", 1)[1]
    assert "Result of the deal: You +0 · Bot 1 +0\n  Replay: Both players reached 66: no game " \
           "points, the same dealer deals again.\nMatch scores: You 0 · Bot 1 0\n" in end
    code, out = run(monkeypatch, [*argv, "--lang", "ru"], stdin="1\n" * 400)
    assert "Итог сдачи: Вы +0 · Бот 1 +0\n  Переигровка: Оба набрали 66: очков нет, тот же " \
           "игрок сдаёт снова.\n" in out


def test_levels_and_option_errors_in_russian(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", "3", "--vs", "fast", "--lang",
                                  "ru", "--save", str(tmp_path / "l.json")])
    assert code == 0
    assert out.startswith("Шестьдесят шесть (66) · зерно 3 · боты: быстрый поиск · ваше место: 0")
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", "3", "--vs", "random",
                                  "--save", str(tmp_path / "l.json")])
    assert out.startswith("Sixty-Six · seed 3 · bots: random · your seat: 0")
    code, out = run(monkeypatch, ["play", "sixty-six", "-o", "end_mode=sudden", "--lang", "ru"])
    assert code == 2
    assert out == "ошибка: настройка end_mode не может быть 'sudden'; допустимо: play_out, " \
                  "first_to_66\n"
    code, out = run(monkeypatch, ["play", "sixty-six", "-o", "match_target=0", "--lang", "ru"])
    assert out == "ошибка: настройка match_target не может быть '0'; допустимо: целое число " \
                  "от 1 до 100\n"
    code, out = run(monkeypatch, ["play", "sixty-six", "-o", "colour=red", "--lang", "ru"])
    assert out.startswith("ошибка: настройки 'colour' нет; настройки: preset, end_mode, ")


def test_every_level_has_words_in_both_languages() -> None:
    from cardplay.bots import LEVELS
    from cardplay.wording import level_name

    for lang in ("en", "ru"):
        names = [level_name(level, Translator(lang)) for level in LEVELS]
        assert not any(n.startswith("level_") for n in names)
        assert len(set(names)) == len(LEVELS)
    assert level_name("strong", Translator("ru")) == "сильный поиск"


def test_the_prompt_edits_lines_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delitem(sys.modules, "readline", raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    monkeypatch.setattr(builtins, "input", lambda prompt: "x")
    cli.Console(Translator("en")).ask("> ")
    assert "readline" not in sys.modules  # a pipe: nothing to edit
    monkeypatch.setattr(sys, "stdin", Terminal("1\n"))
    assert cli.Console(Translator("en")).ask("> ") == "x"
    assert "readline" in sys.modules


def test_moves_by_notation_in_any_spelling(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    seed = seed_where_seat_0_leads()
    card = cardplay.load("sixty-six").match(seed).view(0).hand[0]
    spelled = card.pretty().lower()  # such as "10♥" or "q♠"
    path = tmp_path / "n.json"
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", str(seed), "--save", str(path)],
                    stdin=spelled + "\n")
    assert code == 0
    assert f"You: {card.pretty()}" in out
    assert json.loads(path.read_text(encoding="utf-8"))["moves"][0] == str(card)


def test_eof_saves_a_record_that_replays(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", "21"], stdin="1\n1\n1\n")
    assert code == 0
    path = tmp_path / "cardplay-sixty-six-21.json"
    assert path.exists() and f"saved to {path.name}" in out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["game"] == "sixty-six" and len(record["moves"]) >= 3
    match = cardplay.replay(record)
    assert isinstance(match, cardplay.Match) and not match.is_over
    assert [t for _, t in match.moves] == record["moves"]


def test_random_seed_is_recorded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = run(monkeypatch, ["play", "sixty-six"], stdin="")
    assert code == 0
    (path,) = tmp_path.glob("cardplay-sixty-six-*.json")
    seed = json.loads(path.read_text(encoding="utf-8"))["seed"]
    assert path.name == f"cardplay-sixty-six-{seed}.json" and f"seed {seed}" in out


def test_quit_and_ctrl_c(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", "3", "--save",
                                  str(tmp_path / "q.json")], stdin="q\n")
    assert code == 0 and "You left the match." in out
    assert (tmp_path / "q.json").exists()

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", interrupt)
    path = tmp_path / "c.json"
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", "3", "--save", str(path)])
    assert code == 130 and "Interrupted." in out
    cardplay.replay(json.loads(path.read_text(encoding="utf-8")))


def test_unsaveable_record_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "no-such-folder" / "r.json"
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", "3", "--save", str(path)])
    assert code == 1 and "cannot save the record" in out


def test_help_at_the_prompt_and_russian_play(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", "3", "--lang", "ru",
                                  "--save", str(tmp_path / "r.json")], stdin="?\n\n1\n")
    assert code == 0
    assert "Введите номер хода или сам ход" in out
    assert "Ничего не введено" in out
    assert "Ваши ходы:" in out and "Козырь:" in out
    assert "Ввод закончился" in out and "Запись партии сохранена" in out


def test_bad_option_exits_2_naming_the_valid_values(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = run(monkeypatch, ["play", "sixty-six", "--option", "end_mode=sudden"])
    assert code == 2
    assert "play_out" in out and "first_to_66" in out
    code, out = run(monkeypatch, ["play", "sixty-six", "--option", "colour=red"])
    assert code == 2 and "match_target" in out
    code, out = run(monkeypatch, ["play", "sixty-six", "-o", "match_target=0"])
    assert code == 2 and "whole number" in out
    code, out = run(monkeypatch, ["play", "sixty-six", "--option", "match_target"])
    assert code == 2 and "name=value" in out
    code, out = run(monkeypatch, ["play", "no-such-game"])
    assert code == 2 and "sixty-six" in out
    assert not list(tmp_path.glob("*.json"))  # nothing started, nothing saved


def test_options_are_passed_to_the_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "o.json"
    code, _ = run(monkeypatch, ["play", "sixty-six", "--seed", "2", "--save", str(path),
                                "--option", "preset=schnapsen", "-o", "match_target=1",
                                "-o", "allow_close=false", "--vs", "random"],
                  stdin="1\n" * 200)
    assert code == 0
    options = json.loads(path.read_text(encoding="utf-8"))["options"]
    assert options["preset"] == "schnapsen" and options["match_target"] == 1
    assert options["allow_close"] is False


def test_bad_seat_players_and_level(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(monkeypatch, ["play", "sixty-six", "--seat", "2"])
    assert code == 2 and "seats are 0 to 1" in out
    code, out = run(monkeypatch, ["play", "sixty-six", "--players", "3"])
    assert code == 2 and "2 players" in out
    code, _ = run(monkeypatch, ["play", "sixty-six", "--vs", "genius"])
    assert code == 2


def test_players_option_and_hidden_points(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    multi = next(n for n in cardplay.engine.games()
                 if "players" in cardplay.engine.game_class(n).option_fields())
    cls = cardplay.engine.game_class(multi)
    players = min(cls.min_players + 1, cls.max_players)
    path = tmp_path / "p.json"
    code, out = run(monkeypatch, ["play", multi, "--players", str(players), "--seed", "1",
                                  "--vs", "random", "--save", str(path), "--hide-points"],
                    stdin="1\n" * 10)
    assert code == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    assert str(record["options"]["players"]) == str(players)
    assert f"Bot {players - 1}" in out and "Points in this deal" not in out


def test_playing_at_seat_1(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, out = run(monkeypatch, ["play", "sixty-six", "--seat", "1", "--seed", "5",
                                  "--save", str(tmp_path / "s.json")], stdin="1\n1\n")
    assert code == 0 and "Bot 0: " in out and "You: " in out


@pytest.mark.parametrize("name", cardplay.engine.games())
def test_every_game_can_be_started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                   name: str) -> None:
    """The generic display copes with every registered game: a few moves, then EOF."""
    path = tmp_path / "g.json"
    code, out = run(monkeypatch, ["play", name, "--seed", "1", "--vs", "random",
                                  "--save", str(path)], stdin="1\n" * 20)
    assert code == 0, out
    assert "Your moves:" in out or "The match is over" in out
    cardplay.replay(json.loads(path.read_text(encoding="utf-8")))
    code, out = run(monkeypatch, ["replay", str(path), "--no-pause"])
    assert code == 0, out


# ---- replay


@pytest.fixture
def saved(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    path = tmp_path / "saved.json"
    code, _ = run(monkeypatch, ["play", "sixty-six", "--seed", "8", "--vs", "random",
                                "--save", str(path)], stdin="1\n" * 3000)
    assert code == 0
    return path


def test_replay_without_pauses(monkeypatch: pytest.MonkeyPatch, saved: Path) -> None:
    moves = json.loads(saved.read_text(encoding="utf-8"))["moves"]
    code, out = run(monkeypatch, ["replay", str(saved), "--no-pause"])
    assert code == 0
    assert f"{len(moves)} moves" in out
    assert f"Move 1/{len(moves)}: " in out and f"Move {len(moves)}/{len(moves)}: " in out
    assert "Hand of Seat 0" in out and "Hand of Seat 1" in out
    assert "The match is over" in out and "Winner(s): Seat" in out


def test_replay_of_one_seat_shows_only_its_cards(monkeypatch: pytest.MonkeyPatch,
                                                 saved: Path) -> None:
    code, out = run(monkeypatch, ["replay", str(saved), "--no-pause", "--seat", "1"])
    assert code == 0
    assert "Hand of Seat 1" in out and "Hand of Seat 0" not in out
    code, out = run(monkeypatch, ["replay", str(saved), "--seat", "2"])
    assert code == 2


def test_replay_steps_on_enter_and_quits(monkeypatch: pytest.MonkeyPatch, saved: Path) -> None:
    code, out = run(monkeypatch, ["replay", str(saved)], stdin="\n\nq\n")
    assert code == 0
    assert "Move 2/" in out and "Move 3/" not in out
    code, out = run(monkeypatch, ["replay", str(saved), "--lang", "ru"], stdin="\n")
    assert code == 0 and "Ход 1/" in out and "Ход 2/" not in out  # EOF ends it


def test_replay_of_a_deal_record(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    deal = cardplay.load("sixty-six").deal(seed=5)
    while not deal.is_over:
        deal.play(deal.legal_moves()[0])
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal.record()), encoding="utf-8")
    code, out = run(monkeypatch, ["replay", str(path), "--no-pause"])
    assert code == 0 and "Result of the deal" in out


@pytest.mark.parametrize("content", [
    "{not json",
    '["a", "list"]',
    '{"game": "sixty-six"}',
    '{"game": "sixty-six", "seed": 1, "moves": ["KH=30"]}',
    '{"game": "sixty-six", "seed": 1, "moves": ["exchange"]}',
    '{"game": "poker", "seed": 1, "moves": []}',
    '{"game": "sixty-six", "options": {"end_mode": "x"}, "seed": 1, "moves": []}',
])
def test_replay_of_a_corrupt_record_exits_2(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                            content: str) -> None:
    path = tmp_path / "corrupt.json"
    path.write_text(content, encoding="utf-8")
    code, out = run(monkeypatch, ["replay", str(path)])
    assert code == 2
    assert out.startswith("error: the record cannot be replayed: ")


def test_replay_of_a_missing_file_exits_2(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    code, out = run(monkeypatch, ["replay", str(tmp_path / "none.json")])
    assert code == 2 and "cannot read" in out


# ---- pieces


def test_pretty_move() -> None:
    assert pretty_move("KH=20") == "K♥=20"
    assert pretty_move("TD") == "10♦"
    assert pretty_move("AS=H") == "A♠=♥"
    assert pretty_move("AC+KH=1") == "A♣+K♥=1"
    assert pretty_move("stake 25") == "stake 25"
    assert pretty_move("close") == "close"


def _texts(lang: str) -> dict[str, str]:
    """The command line's texts of a catalogue, plural forms joined (their placeholders count)."""
    return {k: v if isinstance(v, str) else " ".join(v) for k, v in messages(lang, CLI).items()}


def test_messages_match_in_every_language() -> None:
    en_texts = _texts("en")
    fields = string.Formatter()
    for lang in LANGS:
        texts = _texts(lang)
        assert set(en_texts) == set(texts), lang
        for key, text in en_texts.items():
            en = {f for _, f, _, _ in fields.parse(text) if f}
            there = {f for _, f, _, _ in fields.parse(texts[key]) if f}
            assert en == there, (lang, key)


def test_every_message_the_cli_uses_exists() -> None:
    source = "".join(path.read_text(encoding="utf-8")
                     for path in Path(cli.__file__).parent.glob("*.py"))
    used = set(re.findall(r'tr\("([a-z0-9_]+)"', source))
    used |= {c.help for c in COMMANDS.values()}
    missing = used - set(_texts("en"))
    assert not missing


def test_argparse_speaks_the_readers_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "de", "play"]) == 2
    err = capsys.readouterr().err
    assert "Fehler: diese Argumente fehlen: NAME" in err and "Aufruf:" in err
    assert main(["rules", "--help", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "позиционные аргументы" in out and "show this help" not in out
    assert main(["play"]) == 2
    assert "the following arguments are required: NAME" in capsys.readouterr().err


def test_translator_and_lang_detection() -> None:
    assert detect_lang({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert detect_lang({"LANG": "en_GB.UTF-8"}) == "en"
    assert detect_lang({"LANG": "de_AT.UTF-8"}) == "de"
    assert detect_lang({"LANG": "fr_FR.UTF-8"}) == "en"
    assert detect_lang({}) == "en"
    tr = Translator("ru")
    assert tr("you") == "Вы"
    assert tr("no-such-key") == "no-such-key"
    assert Translator("xx").lang == "en"


def test_a_new_command_is_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def configure(p: object, tr: Translator) -> None:
        p.add_argument("--deals", type=int, default=1)  # type: ignore[attr-defined]

    def run_it(args: object, ui: cli.Console) -> int:
        seen.append(str(args.deals))  # type: ignore[attr-defined]
        ui.say("ran")
        return 0

    monkeypatch.setitem(COMMANDS, "arena", Command(help="cmd_arena", configure=configure,
                                                   run=run_it))
    code, out = run(monkeypatch, ["arena", "--deals", "5"])
    assert code == 0 and seen == ["5"] and "ran" in out



def test_russian_play_writes_cards_with_russian_ranks(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", "11", "--vs", "random",
                                  "--lang", "ru", "--save", str(tmp_path / "r.json")],
                    stdin="1\n" * 40)
    assert code == 0
    assert re.search(r"[ВДКТ][♠♥♦♣]", out), out
    assert not re.search(r"[JQKA][♠♥♦♣]", out), out
    assert "Козырь: " in out and "Осталось в прикупе: " in out


def test_every_game_is_shown_with_the_words_of_its_declaration(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    """No identifier of the code reaches the screen: every public line starts with a declared
    label, and no snake_case word appears anywhere but in the move notation."""
    for name in cardplay.games():
        code, out = run(monkeypatch, ["play", name, "--seed", "2", "--vs", "random",
                                      "--save", str(tmp_path / f"{name}.json")],
                        stdin="1\n" * 60)
        assert code == 0, out
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", out.replace(str(tmp_path), "")), \
            (name, re.findall(r"\b[a-z]+_[a-z_]+\b", out))


@pytest.mark.parametrize("command", ["play", "rules", "tui"])
def test_an_unknown_game_is_named_in_both_languages(monkeypatch: pytest.MonkeyPatch,
                                                    command: str) -> None:
    games = ", ".join(cardplay.games())
    code, out = run(monkeypatch, [command, "poker"])
    assert code == 2 and out == f"error: there is no game 'poker'; the games are {games}\n"
    code, out = run(monkeypatch, [command, "poker", "--lang", "ru"])
    assert code == 2 and out == f"ошибка: игры 'poker' нет; игры: {games}\n"


def test_after_the_first_move_of_a_deal_only_what_changed_is_shown(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Seed 13: you lead 9♠ and take Bot 1's 10♥: the talon and your tricks
    change, the trumps do not; ? shows the whole table again."""
    code, out = run(monkeypatch, ["play", "sixty-six", "--seed", "13", "--vs", "random",
                                  "--save", str(tmp_path / "c.json")], stdin="1\n?\n")
    assert code == 0
    second = out.split("You: 9♠\nBot 1: 10♥\n\n", 1)[1]
    assert second.startswith("── Deal 1 · dealer: Bot 1 ──\n"
                             "  Cards left in the talon: 10\n"
                             "  Tricks won: You 1 · Bot 1 0\n"
                             "Points in this deal: You 10 · Bot 1 0\n"
                             "Your hand: K♠ A♠ 9♥ J♥ 10♦ Q♦\n")
    assert out.count("  Trumps: ♣\n") == 2  # the first view, and again after ?
    assert out.count("Match scores: You 0 · Bot 1 0\n") == 2
    assert "? shows the whole table again." in out


def test_a_saved_record_is_whole_or_the_old_one_stays(tmp_path: Path) -> None:
    """`play --save` and the terminal table write a record through a file beside it and a rename:
    a reader polling for the file (the tmux test did) never read an empty file again, and a
    record that cannot be written leaves the previous one as it was and nothing beside it."""
    from cardplay.cli.savefile import write_record

    path = tmp_path / "game.json"
    write_record({"moves": ["9S"]}, path)
    write_record({"moves": ["9S", "TH"]}, path)
    assert json.loads(path.read_text(encoding="utf-8")) == {"moves": ["9S", "TH"]}
    with pytest.raises(TypeError):
        write_record({"moves": [object()]}, path)
    assert json.loads(path.read_text(encoding="utf-8")) == {"moves": ["9S", "TH"]}
    with pytest.raises(OSError):
        write_record({"moves": []}, tmp_path / "no such folder" / "game.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
