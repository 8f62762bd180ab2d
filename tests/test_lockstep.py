"""The engine plays every move exactly as the engine of the day tests/data/lockstep.json was
written (see tests/lockstep.py): a speed-up must not change a single legal move, hand, public
state, score or record. Regenerate the file only for a deliberate rules change, and say so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lockstep import configs, digests, key

GOLDEN: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "lockstep.json").read_text(encoding="utf-8"))


def test_every_config_has_its_digests() -> None:
    assert sorted(key(n, o) for n, o, _ in configs()) == sorted(GOLDEN)


@pytest.mark.parametrize("name, options, deals", configs(),
                         ids=[key(n, o) for n, o, _ in configs()])
def test_every_move_as_before(name: str, options: dict[str, Any], deals: int) -> None:
    want = GOLDEN[key(name, options)]
    got = digests(name, options, deals)
    first_bad = next((i for i, (a, b) in enumerate(zip(got["blocks"], want["blocks"]))
                      if a != b), None)
    assert first_bad is None, (f"deals {first_bad * 100}..{first_bad * 100 + 99} differ "
                               f"(seeds 1_000_003 * i + 17)")
    assert got == want
