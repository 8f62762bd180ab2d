"""A card's corner letter is the one the words use (issue 32, item 4): Russian messages write
В Д К Т and German B D K A, so the faces of those ranks are drawn again with the language's
letter, changing only the corner index of the public-domain faces; the server serves them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import cardplay.server

CARDS = Path(cardplay.server.__file__).parent / "static" / "cards"
OWN = {"ru": "JQA", "de": "JQ"}
INDEX = re.compile(r'<symbol id="V([SHDC])([2-9TJQKA])"[^>]*><path d="([^"]*)"')


@pytest.mark.parametrize("style", ["2c", "4c"])
@pytest.mark.parametrize("lang", sorted(OWN))
def test_only_the_corner_letter_changes(style: str, lang: str) -> None:
    made = sorted(p.name for p in (CARDS / f"{style}-{lang}").glob("*.svg"))
    assert made == sorted(f"{r}{s}.svg" for r in OWN[lang] for s in "SHDC")
    glyphs: dict[str, set[str]] = {}
    for name in made:
        ours = (CARDS / f"{style}-{lang}" / name).read_text()
        base = (CARDS / style / name).read_text()
        (suit, rank, path), = INDEX.findall(ours)
        assert name == f"{rank}{suit}.svg"
        assert INDEX.sub("", ours) == INDEX.sub("", base)  # everything else as drawn
        assert path != INDEX.findall(base)[0][2]
        glyphs.setdefault(rank, set()).add(path)
    assert all(len(g) == 1 for g in glyphs.values())  # one letter per rank, in every suit
    if lang == "de":  # the Bube's B is the Russian В's shape: the same letter
        russian = INDEX.findall((CARDS / f"{style}-ru" / "JS.svg").read_text())[0][2]
        assert glyphs["J"] == {russian}


def test_the_faces_are_served(client: TestClient) -> None:
    r = client.get("/static/cards/2c-ru/QH.svg")
    assert r.status_code == 200 and 'face="QH"' in r.text
    assert client.get("/static/cards/4c-de/JS.svg").status_code == 200
