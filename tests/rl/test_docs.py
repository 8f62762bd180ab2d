"""The examples of docs/research.md run (the training example with a shorter budget)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_doc_has_an_example_per_adapter() -> None:
    text = "\n".join(BLOCKS)
    for needle in ("action_space(", "pettingzoo import env", "CardplayEnv(", "openspiel.register()",
                   "ISMCTSBot(", "SECONDS ="):
        assert needle in text


@pytest.mark.parametrize("block", BLOCKS, ids=[f"example{i}" for i in range(len(BLOCKS))])
def test_doc_example_runs(block: str) -> None:
    code = block.replace("SECONDS = 10", "SECONDS = 2").replace("mean_result(200)",
                                                                 "mean_result(20)")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {"__name__": "research_doc"})
    assert out.getvalue().strip()
