"""Every text a person reads, looked up in the language's gettext catalogue (``cardplay/locale``).

One catalogue per language: ``locale/<lang>.po`` is the source a translator edits, and
``locale/<lang>.mo`` its compiled form, read here with the standard library's :mod:`gettext` so
that ``import cardplay`` needs no Babel (``python -m cardplay.catalogues`` extracts, checks and
compiles them with Babel; a test fails when a ``.mo`` is older than its ``.po``). Three kinds of
message share a catalogue, told apart by their gettext context:

* ``cli``: the command line's and the terminal table's texts, by key (``tr("play_banner")``);
  ``en.po`` holds their English.
* ``browser``: the browser's texts, by key, served as JSON per language (``GET /api/texts/LANG``).
* ``argparse``: the standard library's argparse's own words, keyed by their English.
* no context: a game's declared texts, keyed by their English (:class:`Text`); a context names
  the game where two games say the same English differently.

A text with an ``{n}`` placeholder may have plural forms, chosen by the language's plural rule
(gettext's ``Plural-Forms``, from CLDR). A text missing in a language falls back to English, so a
catalogue being written never crashes a front-end (the checks in ``make test`` name what is
missing).
"""

from __future__ import annotations

import functools
import gettext
import io
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["ARGPARSE", "BROWSER", "CLI", "LANGS", "LOCALE_DIR", "Text", "Translator",
           "add_catalogue", "catalogue", "detect_lang", "format_decimal", "messages", "read_mo",
           "translate"]

LOCALE_DIR = Path(__file__).parent / "locale"
CLI = "cli"
BROWSER = "browser"
# the standard library's argparse's own words (usage:, options, its errors), keyed by their English
ARGPARSE = "argparse"

# English first (the language every text falls back to), then the others as their files come
LANGS: tuple[str, ...] = ("en", *sorted(p.stem for p in LOCALE_DIR.glob("*.mo")
                                        if p.stem != "en"))

# catalogues of games outside the package (add_catalogue), consulted after the package's own
# (their compiled bytes: each build of a catalogue parses its own copies, because add_fallback
# links the objects themselves, and linking shared ones again made a cycle of fallbacks)
_EXTRA: dict[str, list[bytes]] = {}


@functools.cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang``; an unknown language gets none (texts stay English)."""
    try:
        with open(LOCALE_DIR / f"{lang}.mo", "rb") as f:
            found: gettext.NullTranslations = gettext.GNUTranslations(f)
    except (FileNotFoundError, ValueError):
        found = gettext.NullTranslations()
    for extra in _EXTRA.get(lang, ()):
        found.add_fallback(gettext.GNUTranslations(io.BytesIO(extra)))
    return found


def add_catalogue(lang: str, mo_file: str | Path) -> None:
    """Add the compiled catalogue of a game that lives outside this package (docs/i18n.md):
    its texts are looked up after the package's own."""
    data = Path(mo_file).read_bytes()
    gettext.GNUTranslations(io.BytesIO(data))  # a file that is no catalogue fails here, at once
    _EXTRA.setdefault(lang, []).append(data)
    catalogue.cache_clear()


def translate(msgid: str, lang: str, context: str | None = None, n: int | None = None) -> str:
    """``msgid`` (with ``context``) in ``lang``, in its plural form for ``n`` when given; English
    (then ``msgid`` itself) where the language lacks it."""
    for code in (lang, "en") if lang != "en" else ("en",):
        t = catalogue(code)
        if n is None:
            text = t.pgettext(context, msgid) if context else t.gettext(msgid)
        else:
            text = t.npgettext(context, msgid, msgid, n) if context else \
                t.ngettext(msgid, msgid, n)
        if text != msgid or code == "en":
            return text
    return msgid


def format_decimal(x: float, lang: str, places: int = 2) -> str:
    """A number with ``places`` decimals as ``lang`` writes it (``1.50``, ``1,50``): Babel's CLDR
    data where Babel is installed, else the catalogue's decimal point."""
    try:
        from babel.numbers import format_decimal as babel_decimal
    except ImportError:
        return f"{x:.{places}f}".replace(".", translate("decimal_point", lang, CLI))
    return str(babel_decimal(round(x, places), format="#,##0." + "0" * places, locale=lang))


def detect_lang(environ: Mapping[str, str]) -> str:
    """The language of ``LANG`` (``de_AT.UTF-8`` -> ``de``) where a catalogue has it, else
    ``en``."""
    code = environ.get("LANG", "").lower()[:2]
    return code if code in LANGS else "en"


class Translator:
    """The command line's texts in one language: ``tr("key", name=value)``; a text with plural
    forms takes the form for its ``n``."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang if lang in LANGS else "en"

    def __call__(self, key: str, **values: Any) -> str:
        n = values.get("n")
        text = translate(key, self.lang, CLI, n if isinstance(n, int) and key in _plural_keys()
                         else None)
        return text.format(**values) if values else text


@functools.cache
def _plural_keys() -> frozenset[str]:
    return frozenset(k for k, v in messages("en", CLI).items() if isinstance(v, tuple))


@dataclass(frozen=True)
class Text:
    """A text a game declares, named once by its English (the catalogue's key), with a
    ``ctx`` where two games say the same English differently."""

    en: str
    # keyword only: the old pair, Text(english, russian), fails instead of reading as a context
    ctx: str | None = field(default=None, kw_only=True)

    def __call__(self, lang: str = "en") -> str:
        return translate(self.en, lang, self.ctx)

    def to_dict(self) -> dict[str, str]:
        """The text in every language (what ``GET /api/games`` serves)."""
        return {lang: self(lang) for lang in LANGS}


# --------------------------------------------------------------------------------------------
# Reading a whole catalogue (the browser's texts, the checks)


def read_mo(path: str | Path) -> dict[tuple[str | None, str], tuple[str, ...]]:
    """Every message of a compiled catalogue: (context, msgid) -> its forms (one, or one per
    plural form). The format is gettext's documented ``.mo`` layout; the header is left out."""
    data = Path(path).read_bytes()
    order = "<" if struct.unpack("<I", data[:4])[0] == 0x950412DE else ">"
    _, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    out: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for i in range(count):
        klen, koff = struct.unpack(order + "2I", data[originals + 8 * i:originals + 8 * i + 8])
        vlen, voff = struct.unpack(order + "2I",
                                   data[translations + 8 * i:translations + 8 * i + 8])
        key = data[koff:koff + klen].decode()
        if not key:
            continue
        context, sep, msgid = key.partition("\x04")
        if not sep:
            context, msgid = "", context
        out[(context or None, msgid.split("\x00")[0])] = \
            tuple(data[voff:voff + vlen].decode().split("\x00"))
    return out


def messages(lang: str, context: str | None) -> dict[str, str | tuple[str, ...]]:
    """The messages of ``context`` in ``lang``'s catalogue: a text, or a tuple of plural forms."""
    path = LOCALE_DIR / f"{lang}.mo"
    if not path.exists():
        return {}
    return {msgid: forms[0] if len(forms) == 1 else forms
            for (ctx, msgid), forms in read_mo(path).items() if ctx == context}
