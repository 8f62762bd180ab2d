"""Writing a match record to a file whole or not at all."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["write_record"]


def write_record(record: Mapping[str, Any], path: Path) -> None:
    """Write ``record`` as JSON to ``path`` through a file beside it and a rename, so that a
    reader (another program, a test polling for the file) or a crash mid-write never meets half
    a record. Raises OSError as ``open`` does."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        with partial.open("w", encoding="utf-8") as f:
            json.dump(record, f, ensure_ascii=False, indent=1)
            f.write("\n")
        os.replace(partial, path)
    except BaseException:  # a full disk, a record that is not JSON, an interrupt: no leftovers
        partial.unlink(missing_ok=True)
        raise
