"""``cardplay arena``, ``cardplay serve`` and ``cardplay verify``: the measuring, serving and
checking front-ends, of which the command line is only the switchboard."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..engine import RecordError, load
from ..i18n import Translator
from .console import Console

__all__ = ["configure_arena", "configure_serve", "configure_verify", "run_arena", "run_serve",
           "run_verify"]


# ---- arena


def configure_arena(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("game", metavar="GAME")
    p.add_argument("bot_a", metavar="BOT_A", help=tr("help_bot_level"))
    p.add_argument("bot_b", metavar="BOT_B", help=tr("help_bot_level"))
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--matches", type=int, default=0)
    p.add_argument("--workers", type=int, default=None, help=tr("help_arena_workers"))
    p.add_argument("--ray", default=None, metavar="ADDRESS|local", help=tr("help_arena_ray"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--option", "-o", action="append", default=[], metavar="K=V")
    p.add_argument("--out", default=None, metavar="DIR", help=tr("help_arena_out"))
    p.add_argument("--label", action="append", default=[], metavar="NAME",
                   help=tr("help_arena_label"))


def run_arena(args: argparse.Namespace, ui: Console) -> int:
    # The arena is the measuring front-end; the command line is only its switchboard.
    from .. import arena
    from ..bots import LEVELS
    from ..bots.spec import RESEARCH_LEVELS, BotSpecError, build_spec

    options: dict[str, Any] = {}
    for kv in args.option:
        key, sep, value = kv.partition("=")
        if not sep:
            ui.error(ui.tr("arena_bad_option", kv=kv))
            return 2
        options[key.strip()] = value.strip()
    if args.players is not None:
        options["players"] = args.players
    if len(args.label) > 2:
        ui.error(ui.tr("arena_bad_labels"))
        return 2
    if (args.deals < 0 or args.matches < 0 or args.deals + args.matches == 0
            or (args.workers is not None and args.workers < 1)):
        ui.error(ui.tr("arena_bad_counts"))
        return 2
    try:
        game = load(args.game, **options)
    except ValueError as e:
        ui.error(str(e))
        return 2
    for spec in (args.bot_a, args.bot_b):
        try:  # one bot of each, so a bad spec is said before any game is played
            build_spec(spec, game, 0)
        except BotSpecError as e:
            ui.error(ui.tr("arena_bad_bot", spec=spec, reason=e.reason,
                           levels=", ".join((*LEVELS, *RESEARCH_LEVELS))))
            return 2
    labels = ([*args.label, None, None])[:2]
    try:
        report, rows = arena.run(args.game, args.bot_a, args.bot_b, deals=args.deals,
                                 matches=args.matches, seed=args.seed, workers=args.workers,
                                 options=options, progress=True, ray=args.ray,
                                 labels=(labels[0], labels[1]))
    except arena.RayNotInstalled:
        ui.error(ui.tr("arena_needs_dist"))
        return 2
    except arena.ClusterUnavailable as e:
        ui.error(ui.tr("arena_ray_unavailable", address=e.address, reason=e.reason))
        return 2
    ui.say(report.summary())
    if args.out:
        paths = arena.write_outputs(report, rows, args.out)
        for path in paths:
            ui.say(ui.tr("arena_wrote", path=path))
        if not any(p.name == "shares.png" for p in paths):
            ui.say(ui.tr("arena_no_plot"))
    return 0


# ---- serve (the web server; needs the optional extra `web`)

def configure_serve(p: argparse.ArgumentParser, tr: Translator) -> None:
    # Limits lives in the standard-library part of the server package, so --help works
    # without the web extra; one option per limit, named after it
    from ..server.limits import Limits

    p.add_argument("--host", default="127.0.0.1", help=tr("help_host"))
    p.add_argument("--port", type=int, default=8000, help=tr("help_port"))
    p.add_argument("--data", default=None, metavar="DIR", help=tr("help_data"))
    p.add_argument("--database", default=None, metavar="URL", help=tr("help_database"))
    p.add_argument("--broker", default=None, metavar="URL", help=tr("help_broker"))
    p.add_argument("--broker-prefix", default="cardplay", metavar="NAME",
                   help=tr("help_broker_prefix"))
    p.add_argument("--lease-ttl", type=float, default=3.0, metavar="S",
                   help=tr("help_lease_ttl"))
    p.add_argument("--grace", type=float, default=30.0, help=argparse.SUPPRESS)
    p.add_argument("--bot-delay", type=float, default=0.6, help=argparse.SUPPRESS)
    p.add_argument("--workers", type=int, default=None, help=argparse.SUPPRESS)
    # clocks' bounds and constants (docs/protocol.md, "Clocks"); tests shorten them
    for name, kind in (("min_move", float), ("strikes", int), ("away_forfeit", float),
                       ("deal_pause", float)):
        p.add_argument("--clock-" + name.replace("_", "-"), type=kind, default=None,
                       help=argparse.SUPPRESS)
    defaults = Limits()
    for name in Limits.names():
        value = getattr(defaults, name)
        p.add_argument("--" + name.replace("_", "-"), type=type(value), default=value,
                       metavar="N", help=tr(_limit_help_key(name), default=f"{value:g}"))
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help=tr("help_allow_origin"))
    p.add_argument("--signing-key", default=None, metavar="FILE", help=tr("help_signing_key"))


def _limit_help_key(name: str) -> str:
    """The help text of a limit's option (a test holds one for every limit, in both
    languages)."""
    return "help_limit_" + name


def run_serve(args: argparse.Namespace, ui: Console) -> int:
    try:
        import uvicorn

        from ..server.app import create_app
        from ..server.botpool import ProcessBotRunner
        from ..server.clocks import ClockRules
        from ..server.limits import Limits
        from ..server.serving import uvicorn_config
        from ..server.storage import default_data_dir
    except ImportError:
        ui.error(ui.tr("serve_needs_web"))
        return 2
    try:
        limits = Limits(**{name: getattr(args, name) for name in Limits.names()})
        clock_rules = ClockRules(**{name: getattr(args, "clock_" + name) for name in
                                    ("min_move", "strikes", "away_forfeit", "deal_pause")
                                    if getattr(args, "clock_" + name) is not None})
        data = Path(args.data) if args.data else default_data_dir()
        app = create_app(data, runner=ProcessBotRunner(args.workers), grace=args.grace,
                         bot_delay=args.bot_delay, limits=limits,
                         allowed_origins=args.allow_origin, database=args.database,
                         broker=args.broker, broker_prefix=args.broker_prefix,
                         lease_ttl=args.lease_ttl, signing_key=args.signing_key,
                         clock_rules=clock_rules)
    except ImportError as e:  # psycopg, alembic or redis missing
        ui.error(ui.tr("serve_needs_multi", error=str(e)))
        return 2
    except (ValueError, OSError) as e:  # a bad URL or limit; a signing key not readable
        ui.error(str(e))
        return 2
    where = app.state.storage.where if args.database else str(data)
    ui.say(ui.tr("serving", url=f"http://{args.host}:{args.port}", data=where))
    uvicorn.Server(uvicorn_config(app, args.host, args.port, limits)).run()
    return 0


# ---- db (the PostgreSQL schema of several server processes; needs the extra `multi`)

def configure_db(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("action", choices=["upgrade"], help=tr("help_db_action"))
    p.add_argument("--database", required=True, metavar="URL", help=tr("help_database"))


def run_db(args: argparse.Namespace, ui: Console) -> int:
    """``cardplay db upgrade --database URL``: what ``serve --database`` also does on start,
    for a site that migrates before it rolls new processes out."""
    try:
        import psycopg

        from ..server.pgstore import upgrade
    except ImportError as e:
        ui.error(ui.tr("serve_needs_multi", error=str(e)))
        return 2
    if not args.database.startswith(("postgresql://", "postgres://")):
        ui.error("--database takes a postgresql:// URL")
        return 2
    upgrade(args.database)
    with psycopg.connect(args.database) as db:
        row = db.execute("SELECT version_num FROM alembic_version").fetchone()
        name = db.info.dbname
    ui.say(ui.tr("db_upgraded", database=name, revision=row[0] if row else "-"))
    return 0


# ---- verify (a server's record: signature, commitment, contributions, moves, completeness)


def configure_verify(p: argparse.ArgumentParser, tr: Translator) -> None:
    p.add_argument("file", metavar="RECORD", help=tr("help_verify_file"))
    p.add_argument("--key", default=None, metavar="FILE|URL", help=tr("help_verify_key"))


def _read_key(where: str) -> dict[str, bytes]:
    """The public keys at ``where``: a URL (a site's address means its ``/api/keys``) or a
    file. OSError or ValueError when they cannot be read."""
    from ..fairness import public_keys

    if where.startswith(("http://", "https://")):
        import urllib.parse
        import urllib.request

        url = where
        if urllib.parse.urlsplit(url).path in ("", "/"):
            url = url.rstrip("/") + "/api/keys"
        with urllib.request.urlopen(url, timeout=15) as answer:
            text = answer.read(65536).decode("utf-8")
    else:
        text = Path(where).read_text(encoding="utf-8")
    return public_keys(text)


def run_verify(args: argparse.Namespace, ui: Console) -> int:
    """Exit 0 when every check passes (the signature too, given a key), 1 naming each check
    that failed, 2 when the record or the key cannot be read."""
    from ..fairness import Said, verify

    tr = ui.tr

    def said(text: str) -> str:  # verify's sentences in the reader's language
        return text.said_in(tr) if isinstance(text, Said) else text

    keys = None
    if args.key is not None:
        try:
            keys = _read_key(args.key)
        except (OSError, ValueError, UnicodeDecodeError) as e:
            ui.error(tr("verify_bad_key", where=args.key, error=getattr(e, "reason", None) or e))
            return 2
    try:
        record = json.loads(Path(args.file).read_text(encoding="utf-8"))
        verdict = verify(record, keys)
    except (OSError, UnicodeDecodeError) as e:
        ui.error(tr("cannot_read", path=args.file, error=getattr(e, "strerror", None) or str(e)))
        return 2
    except (ValueError, RecordError) as e:  # not JSON, or not a record at all
        ui.error(tr("corrupt_record", error=str(e)))
        return 2
    if verdict.ok:
        ui.say(tr("verify_ok", detail=said(verdict.message)))
    else:
        # the failed checks by name on one line, then each with why
        ui.error(tr("verify_not", detail=", ".join(c for c, _ in verdict.failures)
                    if verdict.failures else said(verdict.message)))
        for code, detail in verdict.failures:
            ui.say(tr("verify_failure", code=code, detail=said(detail)))
    if verdict.signature == "ok":
        sig = record.get("signature") or {}
        ui.say(tr("verify_signature_ok", kid=str(sig.get("key"))))
    for i, c in enumerate(verdict.contributions):
        if isinstance(c, dict):
            # one whole sentence each way (a drawn part is said inside it, not glued on)
            ui.say(tr("verify_contribution_drawn" if c.get("drawn") else "verify_contribution",
                      seat=i + 1, value=c.get("value")))
    for note in verdict.notes:
        ui.say(tr("verify_note", detail=said(note)))
    return 0 if verdict.ok else 1
