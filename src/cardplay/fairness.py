"""Provably fair shuffles: a commitment to a match's seed, shown before play, checked after it.

A server that draws a table's seed commits to it before the first card is dealt: it shows every
seat ``commit(seed, salt)``, the SHA-256 of a domain-separated encoding of a random per-table
salt and the seed. The salt keeps the 63-bit seed from being found by hashing every candidate;
the domain tag keeps the hash from meaning anything in another protocol. Once the match is over
the record reveals the seed (it always held it) and the salt, and anyone can check with
:func:`verify` (``cardplay verify RECORD``) that the match was dealt from the seed the server
committed to, and that the record's moves replay.

Standard library only, like the engine: records are checked wherever ``cardplay`` is installed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .engine import RecordError, replay

__all__ = ["SCHEME", "Verdict", "commit", "fairness_header", "new_salt", "verify"]

SCHEME = "sha256:cardplay-seed-commitment/1"
_DOMAIN = b"cardplay-seed-commitment/1\x00"
_SALT_BYTES = 16


def new_salt() -> str:
    """A fresh per-table salt: 128 random bits as hex."""
    return secrets.token_hex(_SALT_BYTES)


def commit(seed: int, salt: str) -> str:
    """The commitment to ``seed`` under ``salt``: hex SHA-256 over the domain tag, the salt's
    length and bytes, and the seed as decimal text (lengths prefixed, so no two (salt, seed)
    pairs share an encoding)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError("a seed is a whole number of at least 0")
    salt_bytes = salt.encode("ascii")
    seed_bytes = str(seed).encode("ascii")
    h = hashlib.sha256(_DOMAIN)
    for part in (salt_bytes, seed_bytes):
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.hexdigest()


def fairness_header(seed: int, salt: str, seed_source: str) -> dict[str, Any]:
    """The ``fairness`` part of a record: scheme, commitment, who chose the seed, and the salt
    (revealed with the record, which is given only once the match is over)."""
    return {"scheme": SCHEME, "commitment": commit(seed, salt), "salt": salt,
            "seed_source": seed_source}


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify` found: ``ok`` and a sentence saying why."""

    ok: bool
    code: str  # ok, no_commitment, malformed, unknown_scheme, mismatch, no_replay
    message: str
    seed_source: str | None = None
    finished: bool = False
    moves: int = 0


def verify(record: Mapping[str, Any]) -> Verdict:
    """Check a match record's seed commitment and replay its moves.

    Not ``ok`` when the record carries no commitment, when the commitment does not match the
    record's seed and salt (the seed, salt or commitment was changed), or when the moves do not
    replay (a move was changed). A record that is not a record at all raises RecordError."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    fair = record.get("fairness")
    if fair is None:
        return Verdict(False, "no_commitment",
                       "the record carries no seed commitment (an older record, or one made "
                       "outside the server): there is nothing to verify")
    if not isinstance(fair, Mapping):
        return Verdict(False, "malformed", "the record's 'fairness' is not an object")
    if fair.get("scheme") != SCHEME:
        return Verdict(False, "unknown_scheme",
                       f"unknown commitment scheme {fair.get('scheme')!r}; this version "
                       f"checks {SCHEME!r}")
    claimed, salt, seed = fair.get("commitment"), fair.get("salt"), record.get("seed")
    if not isinstance(claimed, str) or not isinstance(salt, str) or not salt.isascii():
        return Verdict(False, "malformed", "the record's commitment or salt is missing or not text")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        return Verdict(False, "malformed", "the record has no whole-number seed to check")
    source = fair.get("seed_source") if isinstance(fair.get("seed_source"), str) else None
    if not hmac.compare_digest(commit(seed, salt), claimed.lower()):
        return Verdict(False, "mismatch",
                       "the commitment does not match the record's seed and salt: the match "
                       "was not dealt from the seed committed to", source)
    try:
        match = replay(record)
    except RecordError as e:
        return Verdict(False, "no_replay",
                       f"the commitment matches, but the moves do not replay: {e}", source)
    over = bool(match.is_over)
    who = {"server": "drawn by the server", "creator": "chosen by the table's creator",
           "operator": "fixed by the server's operator"}.get(
        source or "", "of unknown origin")
    moves = len(record.get("moves") or [])
    return Verdict(True, "ok", f"the seed matches its commitment (seed {who}) and all {moves} "
                               f"moves replay"
                               + ("" if over else "; the record ends before the match does"),
                   source, over, moves)
