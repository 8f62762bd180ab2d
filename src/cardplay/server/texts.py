"""The browser's words: one language's ``browser`` messages of the catalogue as JSON, with an ETag.

``GET /api/texts/{lang}`` serves ``{"lang", "languages", "texts"}``: ``texts`` maps each key to
its text, or, for a text with plural forms, to its forms by CLDR plural category (``one``,
``few``, ``many``, ``other``), which the browser picks with ``Intl.PluralRules``; ``languages``
names every language in its own words, for the lobby's list. The body is built once per language
from the compiled catalogue; its ETag is a hash of the body, so a browser revalidates cheaply.
"""

from __future__ import annotations

import functools
import gettext
import hashlib
import json

from babel import Locale

from ..i18n import BROWSER, LANGS, LOCALE_DIR, messages, translate

__all__ = ["texts_body"]


def _categories(lang: str) -> dict[str, int]:
    """Which gettext plural form (its index in the catalogue) each CLDR category of ``lang``
    takes: the catalogue's ``Plural-Forms`` rule and CLDR's categories, met on sample numbers."""
    with open(LOCALE_DIR / f"{lang}.mo", "rb") as f:
        index = gettext.GNUTranslations(f).plural  # type: ignore[attr-defined]
    rule = Locale.parse(lang).plural_form
    found: dict[str, int] = {}
    for n in range(200):
        found.setdefault(rule(n), index(n))
    # a category only fractions reach (Russian "other": 1,5) reads like the last integer form
    last = max(found.values(), default=0)
    for tag in rule.tags | {"other"}:
        found.setdefault(tag, last)
    return found


@functools.cache
def texts_body(lang: str) -> tuple[bytes, str]:
    """The JSON body for ``lang`` and its ETag (``lang`` must be one of :data:`LANGS`)."""
    cats = _categories(lang)
    texts: dict[str, str | dict[str, str]] = {}
    for key, text in {**messages("en", BROWSER), **messages(lang, BROWSER)}.items():
        texts[key] = text if isinstance(text, str) else \
            {tag: text[min(i, len(text) - 1)] for tag, i in cats.items()}
    # languages in LANGS's order (English first: the lobby lists them so), texts by key
    body = json.dumps({"lang": lang,
                       "languages": {code: translate("language_name", code, BROWSER)
                                     for code in LANGS},
                       "texts": dict(sorted(texts.items()))}, ensure_ascii=False).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
