"""``cardplay daily verify DAY GAME``: recompute a day's daily list from its signed records.

With ``--server URL`` the records, the list and the key come from the server (its
``/api/daily/GAME/records``, ``/api/daily/GAME/results`` and ``/api/keys``); with ``--records
DIR`` from files saved there (``records.json``, ``results.json`` and, optionally, ``keys.json``:
the same three answers). ``--save DIR`` keeps what was fetched, so anyone can check it again.
Exit 0 when everything holds, 1 naming each failure, 2 when something cannot be read.
"""

from __future__ import annotations

import argparse
import json
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from ..i18n import Translator
from .console import Console

__all__ = ["configure_daily", "run_daily"]


def configure_daily(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("action", choices=["verify"], help=tr("help_daily_action"))
    p.add_argument("day", metavar="DAY", help=tr("help_daily_day"))
    p.add_argument("game", metavar="GAME", help=tr("help_daily_game"))
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--server", metavar="URL", help=tr("help_daily_server"))
    where.add_argument("--records", metavar="DIR", help=tr("help_daily_records"))
    p.add_argument("--save", metavar="DIR", default=None, help=tr("help_daily_save"))


def _fetch(base: str, path: str, query: dict[str, str] | None = None) -> Any:
    url = base.rstrip("/") + path + ("?" + urllib.parse.urlencode(query) if query else "")
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read(64 * 1024 * 1024).decode("utf-8"))


def _load(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """(records, results, keys or None) from the server or the folder."""
    if args.server:
        game = urllib.parse.quote(args.game, safe="")
        records = _fetch(args.server, f"/api/daily/{game}/records", {"day": args.day})
        results = _fetch(args.server, f"/api/daily/{game}/results", {"day": args.day})
        keys = _fetch(args.server, "/api/keys")
        return records, results, keys
    folder = Path(args.records)
    keys_file = folder / "keys.json"
    keys = json.loads(keys_file.read_text("utf-8")) if keys_file.exists() else None
    return (json.loads((folder / "records.json").read_text("utf-8")),
            json.loads((folder / "results.json").read_text("utf-8")), keys)


def run_daily(args: argparse.Namespace, ui: Console) -> int:
    from ..dailyverify import verify_day
    from ..fairness import public_keys

    tr = ui.tr
    try:
        records, results, keys = _load(args)
        public = public_keys(json.dumps(keys)) if keys is not None else None
    except (OSError, ValueError, UnicodeDecodeError) as e:
        ui.error(tr("daily_cannot_read", error=getattr(e, "reason", None) or e))
        return 2
    if args.save:
        out = Path(args.save)
        out.mkdir(parents=True, exist_ok=True)
        for name, data in (("records", records), ("results", results), ("keys", keys)):
            if data is not None:
                (out / f"{name}.json").write_text(json.dumps(data, ensure_ascii=False, indent=1),
                                                  "utf-8")
    verdict = verify_day(args.day, args.game, records, results, public)
    for rank, (player, score, deals) in enumerate(verdict.recomputed, 1):
        ui.say(tr("daily_row", rank=rank, player=player, score=score, deals=deals))
    if verdict.ok:
        ui.say(tr("daily_verify_ok", records=verdict.records, day=args.day, game=args.game))
        return 0
    ui.error(tr("daily_verify_not", detail=", ".join(sorted({c for c, _ in verdict.failures}))))
    for code, detail in verdict.failures:
        ui.say(tr("verify_failure", code=code, detail=detail))
    return 1
