"""The catalogues (src/cardplay/locale): every language has every text, translated, with the
English text's placeholders and its language's plural forms; every .mo is compiled from its .po;
every text the code asks for exists; and no text is glued together from translated pieces."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

import cardplay
from cardplay import catalogues
from cardplay.catalogues import check, declared_texts, load
from cardplay.i18n import BROWSER, CLI, LANGS, LOCALE_DIR, Text, Translator, format_decimal
from cardplay.i18n import messages as catalogue_messages
from helpers import add_test_catalogue

SRC = Path(cardplay.__file__).parent
STATIC = SRC / "server" / "static"


def test_every_catalogue_is_complete_and_compiled() -> None:
    assert set(LANGS) == {"en", "ru", "de"}
    assert check() == []


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the catalogues that the checks read instead of the package's."""
    for p in LOCALE_DIR.iterdir():
        shutil.copy(p, tmp_path / p.name)
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path)
    return tmp_path


def _edit(folder: Path, lang: str, context: str | None, msgid: str, text: str) -> None:
    with open(folder / f"{lang}.po", "rb") as f:
        cat = read_po(f, locale=lang)
    message = cat.get(msgid, context)
    assert message is not None, msgid
    message.string = text
    with open(folder / f"{lang}.po", "wb") as f:
        write_po(f, cat, width=100, include_lineno=False)


def test_a_missing_or_empty_translation_fails_naming_it(scratch: Path) -> None:
    _edit(scratch, "de", CLI, "prompt", "")
    catalogues.compile_all()
    assert check(["de"]) == ["de: cli | 'prompt' is not translated"]
    with open(scratch / "ru.po", "rb") as f:
        cat = read_po(f, locale="ru")
    cat.delete("Trumps")
    with open(scratch / "ru.po", "wb") as f:
        write_po(f, cat, width=100, include_lineno=False)
    catalogues.compile_all()
    assert check(["ru"]) == ["ru: 'Trumps' is missing"]


def test_a_translation_must_keep_every_placeholder(scratch: Path) -> None:
    _edit(scratch, "de", BROWSER, "waiting_for", "Warten auf {wer}.")
    catalogues.compile_all()
    assert check(["de"]) == ["de: browser | 'waiting_for': 'Warten auf {wer}.' has placeholders "
                             "['wer'], the English ['who']"]


def test_a_stale_mo_fails(scratch: Path) -> None:
    _edit(scratch, "ru", CLI, "yes", "ага")
    assert check(["ru"]) == ["ru: ru.mo is not compiled from ru.po (run compile)"]


def test_the_catalogues_hold_exactly_the_texts_the_games_declare() -> None:
    # what `python -m cardplay.catalogues extract` would write: a new text in a declaration
    # fails here until it is extracted (and then until it is translated, above)
    declared = set(declared_texts())
    catalogued = {(m.context, m.id) for m in load("en")
                  if m.id and m.context not in catalogues.KEYED}
    assert declared - catalogued == set()
    assert catalogued - declared == set()


def test_every_text_the_code_asks_for_is_catalogued() -> None:
    python = "".join(p.read_text(encoding="utf-8") for p in SRC.rglob("*.py"))
    asked = set(re.findall(r'\btr\("([a-z0-9_]+)"', python)) - {"key"}  # "key": a docstring's
    asked |= set(re.findall(r'translate\("([a-z0-9_]+)", [a-z_.]+, CLI', python))
    assert asked and asked - set(catalogue_messages("en", CLI)) == set()
    js = "".join(p.read_text(encoding="utf-8") for p in STATIC.glob("*.js"))
    browser = set(catalogue_messages("en", BROWSER))
    wanted = set(re.findall(r'\bt\("([a-z0-9_]+)"\s*[,)]', js))
    assert wanted and wanted - browser == set()
    # a key built in the script (t("rank_" + r)) names a family the catalogue has
    families = set(re.findall(r'\bt\("([a-z0-9_]+_)"\s*\+', js))
    assert {"rank_", "suit_", "bot_name_"} <= families
    assert all(any(k.startswith(f) for k in browser) for f in families)


def test_every_error_the_socket_sends_has_words_in_every_language() -> None:
    """The table shows an error frame by its code (err_CODE), else the server's English
    message: a Russian page showed English for a failed store ("storage") and eight other
    codes. Every code a ProtocolError carries has its text in each catalogue."""
    server = "".join(p.read_text(encoding="utf-8") for p in (SRC / "server").glob("*.py"))
    codes = set(re.findall(r'ProtocolError\(\s*"([a-z_]+)"', server))
    assert {"storage", "rate", "illegal", "unavailable"} <= codes
    for lang in LANGS:
        texts = catalogue_messages(lang, BROWSER)
        assert sorted(c for c in codes if not texts.get("err_" + c)) == [], lang


def test_plural_forms_follow_each_languages_rule() -> None:
    counts = [(n, Translator(lang)("tui_cards_in_hand", n=n))
              for lang in ("en", "ru", "de") for n in (1, 2, 5, 21)]
    assert [text for _, text in counts] == [
        "1 card", "2 cards", "5 cards", "21 cards",
        "1 карта", "2 карты", "5 карт", "21 карта",
        "1 Karte", "2 Karten", "5 Karten", "21 Karten"]


def test_numbers_are_written_per_language(monkeypatch: pytest.MonkeyPatch) -> None:
    assert [format_decimal(1234.5, lang) for lang in ("en", "ru", "de")] == \
        ["1,234.50", "1\xa0234,50", "1.234,50"]
    # without Babel (the core's own dependencies): the catalogue's decimal point
    monkeypatch.setitem(__import__("sys").modules, "babel.numbers", None)
    assert [format_decimal(-0.25, lang) for lang in ("en", "ru", "de")] == \
        ["-0.25", "-0,25", "-0,25"]


def test_a_text_names_itself_once_in_english() -> None:
    assert Text("Trumps")("de") == "Atout" and Text("Trumps", ctx="two_ten_jack")("de") == "Trumpf"
    assert Text("Trumps").to_dict() == {"en": "Trumps", "de": "Atout", "ru": "Козырь"}
    with pytest.raises(TypeError):
        Text("Trumps", "Козырь")  # type: ignore[misc]
    # a text no catalogue has reads as its English in every language
    assert Text("Not in any catalogue")("ru") == "Not in any catalogue"


def test_a_game_outside_the_package_adds_its_own_catalogue() -> None:
    assert Text("A text of a game elsewhere")("de") == "A text of a game elsewhere"
    add_test_catalogue("de", {"A text of a game elsewhere": "Ein Text eines Spiels anderswo"})
    assert Text("A text of a game elsewhere")("de") == "Ein Text eines Spiels anderswo"
    assert Text("Trumps")("de") == "Atout"  # the package's own come first


# ---- no text glued from translated pieces


# What asks a catalogue for a text (in Python and in the browser's scripts)
_TRANSLATING = {"tr", "translate", "t", "label", "description", "words", "title", "summary"}
LETTERS = re.compile(r"[^\W\d_]{2,}")


def _translates(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            f = sub.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
                else ""
            if name in _TRANSLATING:
                return True
    return False


def python_glue(source: str) -> list[str]:
    """Where Python source builds a text from translated pieces: a Text that is not one string
    literal (``Text(f"... {en}")``, ``Text(en.capitalize())``), words of a sentence written in
    code around a translated piece (``f"{rank} of {suit}"`` with translated parts, ``tr(..) +
    " and "``), or a branch on one language (``lang == "ru"``)."""
    found = []
    ours = "from rich.text import Text" not in source  # Rich's Text is styled output, not ours
    for node in ast.walk(ast.parse(source)):
        if ours and isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "Text":
            if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant) or \
                    not isinstance(node.args[0].value, str):
                found.append(f"line {node.lineno}: Text of a non-literal")
        elif isinstance(node, ast.JoinedStr) and any(
                isinstance(v, ast.FormattedValue) and _translates(v.value) for v in node.values):
            words = [v.value for v in node.values if isinstance(v, ast.Constant)
                     and LETTERS.search(str(v.value))]
            if words:
                found.append(f"line {node.lineno}: words {words} around a translated text")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and \
                (_translates(node.left) or _translates(node.right)):
            for side in (node.left, node.right):
                if isinstance(side, ast.Constant) and LETTERS.search(str(side.value)):
                    found.append(f"line {node.lineno}: {side.value!r} added to a translated text")
        elif isinstance(node, ast.Compare) and any(
                isinstance(c, ast.Constant) and isinstance(c.value, str)
                and re.fullmatch(r"[a-z]{2}", c.value) and c.value != "en"
                for c in node.comparators) and "lang" in ast.unparse(node.left):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


_TEMPLATE = re.compile(r"`((?:[^`\\]|\\.)*)`")


def js_glue(source: str) -> list[str]:
    """The same in the browser's scripts: a template literal with words of its own around a
    translated text (``${t("rank")} of ${t("suit")}``), a word added to one with ``+``, or a
    branch on one language (``lang === "ru"``)."""
    found = []
    for m in _TEMPLATE.finditer(source):
        body = m.group(1)
        if re.search(r"\$\{[^}]*\bt\(", body):
            outside = re.sub(r"\$\{(?:[^{}]|\{[^{}]*\})*\}", " ", body)
            if LETTERS.search(outside):
                found.append(f"`{body}`")
    found += re.findall(r'\bt\([^()]*\)\s*\+\s*"[^"]*[A-Za-z]{2}[^"]*"', source)
    found += re.findall(r'"[^"]*[A-Za-z]{2}[^"]*"\s*\+\s*t\(', source)
    found += re.findall(r'lang\s*[!=]==?\s*"(?!en")[a-z]{2}"', source)
    return found


def test_the_glue_scans_find_what_was_removed() -> None:
    # the patterns this work took out of the code (cards.py, chukhny's declaration, wording.py,
    # common.js and coach.js before the catalogues)
    assert python_glue('Text(f"The card required is a {en}.")') == \
        ["line 1: Text of a non-literal"]
    assert python_glue('Text(en.capitalize())') == ["line 1: Text of a non-literal"]
    assert python_glue('x = f"{tr(\'rank\')} of {tr(\'suit\')}"') == \
        ["line 1: words [' of '] around a translated text"]
    assert python_glue('x = "ru" if lang == "ru" else "en"') == ["line 1: lang == 'ru'"]
    assert python_glue('x = tr("you") + " and more"') == \
        ["line 1: ' and more' added to a translated text"]
    assert js_glue('return `${t("rank_" + r)} of ${t("suit_" + s)}`;') == \
        ['`${t("rank_" + r)} of ${t("suit_" + s)}`']
    assert js_glue('return lang === "ru" ? a : b;') == ['lang === "ru"']
    assert js_glue('x = t("yes") + " please";') == ['t("yes") + " please"']
    # and let through what is not glue: a label and its value, items joined by a separator
    assert python_glue('x = f"{f.label(lang)}: {value}"') == []
    assert js_glue('x = `${t("players", { n })} · ${t("deal_n", { n: d })}`;') == []


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: p.name)
def test_no_python_text_is_glued_from_translated_pieces(path: Path) -> None:
    assert python_glue(path.read_text(encoding="utf-8")) == [], path


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda p: p.name)
def test_no_browser_text_is_glued_from_translated_pieces(path: Path) -> None:
    assert js_glue(path.read_text(encoding="utf-8")) == [], path


def test_no_translation_is_left_in_python_or_the_browsers_scripts() -> None:
    # Cyrillic in the code is Russian left behind. What may stay is input, not output: the card
    # parser's Russian letters, the Russian keys the TUI, the prompt and the page accept; in the
    # games' modules, their docstrings' Russian names and the RULES_RU summaries for developers
    cyrillic = re.compile(r"[А-Яа-яЁё]")
    allowed = {"cards.py", "tui/app.py", "cli/play.py", "server/static/coach.js",
               "server/static/table.js"}
    for path in [*SRC.rglob("*.py"), *STATIC.glob("*.js")]:
        where = path.relative_to(SRC).as_posix()
        if where in allowed or re.fullmatch(r"builtin/\w+/(game|__init__)\.py", where):
            continue
        assert cyrillic.search(path.read_text(encoding="utf-8")) is None, path
    texts_js = (STATIC / "texts.js").read_text(encoding="utf-8")
    assert "Skip to content" not in texts_js and "Правила" not in texts_js


def test_catalogues_added_again_and_again_make_no_cycle() -> None:
    # add_fallback links the objects themselves: catalogues added by games outside the package
    # were linked anew at every rebuild, until one fell back on itself (a RecursionError on the
    # next missing text, seen when a worker had added test catalogues twice)
    from cardplay.i18n import translate
    from helpers import add_test_catalogue

    for i in range(3):
        add_test_catalogue("ru", {f"cycle test text {i}": f"текст проверки {i}"})
        assert translate("cycle test text 0", "ru") == "текст проверки 0"
        assert translate("no such text anywhere", "ru") == "no such text anywhere"
