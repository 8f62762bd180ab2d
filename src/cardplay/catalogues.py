"""Keeping the catalogues (``cardplay/locale/*.po``) whole: extract, check and compile them.

``python -m cardplay.catalogues`` (needs Babel, the ``dev`` extra; ``make i18n`` runs it):

* ``extract``: every text the registered games declare goes into ``en.po`` (English as both key
  and text) and, untranslated, into every other catalogue; texts no game declares any more leave
  them. Keyed texts (contexts ``cli`` and ``browser``) are written by hand in ``en.po`` first and
  reach the other catalogues the same way.
* ``check [LANG ...]``: every message of ``en.po`` is in each catalogue, translated (not empty,
  not fuzzy), with the same ``{placeholders}``, with every plural form; each ``.mo`` is up to
  date. Prints each problem naming the message; exits 1 if there is one.
* ``compile``: ``.po`` -> ``.mo``, which the runtime reads with the standard library.
* ``add LANG``: start a new language's catalogue, every message untranslated.

Adding a language is one file: ``add xx`` writes ``xx.po``; translate it, then ``make i18n``
checks and compiles it (docs/i18n.md).
"""

from __future__ import annotations

import dataclasses
import re
import string
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from .i18n import LOCALE_DIR, Text, read_mo

__all__ = ["check", "compile_all", "declared_texts", "extract", "main", "placeholders"]

Key = tuple[str | None, str]
# the contexts whose messages are written by hand in en.po (not extracted from declarations)
KEYED = ("cli", "browser", "argparse")


def _po(lang: str) -> Path:
    return LOCALE_DIR / f"{lang}.po"


def languages() -> list[str]:
    """Every language with a catalogue, English first."""
    return ["en", *sorted(p.stem for p in LOCALE_DIR.glob("*.po") if p.stem != "en")]


def load(lang: str) -> Catalog:
    with open(_po(lang), "rb") as f:
        return read_po(f, locale=lang)


def save(cat: Catalog, lang: str) -> None:
    with open(_po(lang), "wb") as f:
        write_po(f, cat, width=100, include_lineno=False, sort_output=False)


def _texts_in(obj: Any) -> Iterator[Text]:
    """Every Text inside a declaration (dataclasses, tuples, mappings), in declaration order."""
    if isinstance(obj, Text):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _texts_in(getattr(obj, f.name))
    elif isinstance(obj, tuple | list):
        for x in obj:
            yield from _texts_in(x)


def declared_texts() -> dict[Key, list[str]]:
    """(context, English) of every text of every registered game's declaration -> the games."""
    from .engine import declaration_of, games
    from .engine.reasons import COMMON

    out: dict[Key, list[str]] = {}
    for text in _texts_in(COMMON):  # the reasons every game gives (cardplay.engine.reasons)
        out.setdefault((text.ctx, text.en), []).append("every game")
    for name in games():
        for text in _texts_in(declaration_of(name)):
            where = out.setdefault((text.ctx, text.en), [])
            if name not in where:
                where.append(name)
    return out


def _key(m: Message) -> Key:
    msgid = m.id[0] if isinstance(m.id, tuple | list) else m.id
    return (m.context, msgid)


def extract() -> None:
    """Bring every catalogue's set of messages up to date with the declarations and en.po."""
    en = load("en")
    declared = declared_texts()
    for m in list(en):
        if m.id and m.context not in KEYED and _key(m) not in declared:
            en.delete(m.id, m.context)
    for (ctx, msgid), where in declared.items():
        comment = "game: " + ", ".join(where)
        known = en.get(msgid, ctx)
        if known is None:
            en.add(msgid, msgid, context=ctx, auto_comments=[comment])
        else:
            known.auto_comments = [comment]
    save(en, "en")
    for lang in languages()[1:]:
        # rebuilt in en.po's order, so that every catalogue reads side by side with English
        cat = load(lang)
        fresh = Catalog(locale=lang, project="cardplay", version="0.1", fuzzy=False,
                        creation_date=cat.creation_date, revision_date=cat.revision_date)
        forms = get_plural(lang).num_plurals
        for m in en:
            if not m.id:
                continue
            old = cat.get(m.id, m.context)
            plural = isinstance(m.id, tuple | list)
            text = (old.string or "") if old is not None else \
                ("",) * forms if plural else ""
            fresh.add(m.id, text, context=m.context, auto_comments=m.auto_comments,
                      user_comments=old.user_comments if old is not None else (),
                      flags=old.flags if old is not None else ())
        save(fresh, lang)


def add_language(lang: str) -> Path:
    """Start ``lang``'s catalogue: every message of en.po, untranslated, with the language's
    header (its CLDR plural rule); ``check`` then lists what is left to translate."""
    path = _po(lang)
    if path.exists():
        raise SystemExit(f"{path} exists already")
    Locale.parse(lang)  # an unknown language code fails here, before a file is written
    save(Catalog(locale=lang, project="cardplay", version="0.1", fuzzy=False), lang)
    extract()
    return path


def placeholders(text: str) -> set[str]:
    """The ``{names}`` of a ``str.format`` template, and the ``%(name)s`` and ``%s`` of a
    ``%`` one (argparse's)."""
    if "%" in text:
        return set(re.findall(r"%\(\w+\)[sr]|%[sr]", text))
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def _forms(m: Message) -> list[str]:
    return list(m.string) if isinstance(m.string, tuple | list) else [m.string or ""]


def check(langs: Sequence[str] | None = None) -> list[str]:
    """Every problem of the catalogues, one line each, naming the message."""
    en = load("en")
    problems: list[str] = []
    for lang in langs or languages():
        cat = en if lang == "en" else load(lang)
        want = get_plural(lang).num_plurals
        if cat.num_plurals != want:
            problems.append(f"{lang}: Plural-Forms has {cat.num_plurals} forms, CLDR says {want}")
        for ref in en:
            if not ref.id:
                continue
            ctx, msgid = _key(ref)
            name = f"{lang}: {ctx + ' | ' if ctx else ''}{msgid!r}"
            m = cat.get(ref.id, ref.context)
            if m is None:
                problems.append(f"{name} is missing")
                continue
            forms = _forms(m)
            if m.fuzzy or not all(f.strip() for f in forms):
                problems.append(f"{name} is not translated")
                continue
            if isinstance(ref.id, tuple | list) and len(forms) != cat.num_plurals:
                problems.append(f"{name} has {len(forms)} plural forms, not {cat.num_plurals}")
            need = set().union(*(placeholders(f) for f in _forms(ref)))
            for f in forms:
                if placeholders(f) != need and not (isinstance(ref.id, tuple | list)
                                                    and placeholders(f) <= need):
                    problems.append(f"{name}: {f!r} has placeholders {sorted(placeholders(f))}, "
                                    f"the English {sorted(need)}")
        for m in cat:
            if m.id and en.get(m.id, m.context) is None:
                problems.append(f"{lang}: {_key(m)!r} is not in en.po (run extract)")
        mo = LOCALE_DIR / f"{lang}.mo"
        if not mo.exists() or read_mo(mo) != _compiled(cat):
            problems.append(f"{lang}: {mo.name} is not compiled from {lang}.po (run compile)")
    return problems


def _compiled(cat: Catalog) -> dict[Key, tuple[str, ...]]:
    """What a .mo of ``cat`` holds (translated, not fuzzy messages), as read_mo reads it."""
    return {_key(m): tuple(_forms(m)) for m in cat
            if m.id and not m.fuzzy and all(_forms(m))}


def compile_all() -> None:
    for lang in languages():
        cat = load(lang)
        with open(LOCALE_DIR / f"{lang}.mo", "wb") as f:
            write_mo(f, cat)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args.pop(0) if args else "check"
    if command == "extract":
        extract()
    elif command == "add" and len(args) == 1:
        print(f"wrote {add_language(args[0])}; translate it, then: make i18n")
    elif command == "compile":
        compile_all()
    elif command == "check":
        problems = check(args or None)
        for p in problems:
            print(p)
        print(f"{len(problems)} problem(s) in {', '.join(args or languages())}: "
              + ", ".join(f"{lang} {sum(1 for m in load(lang) if m.id)} messages"
                          for lang in args or languages()))
        return 1 if problems else 0
    else:
        print("usage: python -m cardplay.catalogues "
              "[extract | add LANG | check [LANG ...] | compile]")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
