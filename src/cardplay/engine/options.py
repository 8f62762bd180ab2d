"""Options: how a game declares one option of its frozen options dataclass, and checks a value."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from .errors import OptionError


def option(default: Any, choices: Sequence[Any] | None = None, *, positive_int: bool = False,
           int_range: tuple[int, int] | None = None, doc: str = "") -> Any:
    """Declare one option of a game's frozen options dataclass.

    ``choices`` lists the valid values; ``positive_int`` accepts any whole number >= 1;
    ``int_range`` accepts whole numbers in an inclusive range.
    """
    meta = {"choices": tuple(choices) if choices is not None else None,
            "positive_int": positive_int, "int_range": int_range, "doc": doc}
    return dataclasses.field(default=default, metadata=meta)


def check_option_value(game: str, f: dataclasses.Field[Any], value: Any) -> Any:
    meta = f.metadata
    choices = meta.get("choices")
    if choices is not None:
        for c in choices:
            if value == c and type(value) is type(c):
                return value
        # Accept "true"/"false"/"7" spellings from the command line and records.
        if isinstance(value, str):
            for c in choices:
                if isinstance(c, bool) and value.lower() in ("true", "false") and \
                        (value.lower() == "true") == c:
                    return c
                if isinstance(c, int) and not isinstance(c, bool) and value.isdigit() and \
                        int(value) == c:
                    return c
        shown = ", ".join(repr(c) for c in choices)
        raise OptionError(f"{game}: option {f.name}={value!r} is not valid; valid values: {shown}")
    if meta.get("positive_int") or meta.get("int_range"):
        v = value
        if isinstance(v, str) and v.isdigit():
            v = int(v)
        lo, hi = meta.get("int_range") or (1, None)
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            want = f"a whole number from {lo} to {hi}" if hi is not None else \
                f"a whole number of at least {lo}"
            raise OptionError(f"{game}: option {f.name}={value!r} is not valid; it takes {want}")
        return v
    return value
