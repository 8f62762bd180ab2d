"""Provably fair shuffles: what a server commits to before the first card, and the check after.

Scheme 2 (``sha256:cardplay-commitment/2``). When a table is created the server draws a
*server seed* and a salt and shows every seat the **commitment**: the SHA-256 of a
domain-separated, length-prefixed encoding of everything that decides the cards: the scheme's
version, the game, its options (canonical JSON), the dealer rule, the seats (their count and
kinds), who chose the seed, the server seed and the salt. Every person's seat then adds its own
randomness (a *contribution*, 32 hex characters drawn by the client); the match's deck seed is
the hash of the server seed and every contribution in seat order (:func:`deck_seed`), fixed
once the last person's seat has contributed and before any card is shown. The server committed
before it saw any contribution and no player knows the server seed, so neither the server nor
any one player can choose the shuffle. A seat that never sent one gets a contribution the
server drew, marked ``"drawn": true``. At a table whose creator chose the seed (``creator``, a
practice table with bots only) or the server's own code did (``operator``: tests, benchmarks),
the committed seed is the deck seed as it is, and the record says so.

The record, given once the match is over, reveals every part; :func:`verify` recomputes the
commitment and the deck seed, replays every move, checks that the match is complete and, given
the server's public key, checks the record's Ed25519 signature (:func:`signed_bytes` is what is
signed). Scheme 1 (``sha256:cardplay-seed-commitment/1``, seed and salt only) still verifies,
reported as the weaker old scheme.

Standard library only, like the engine; the signature check alone needs ``cryptography`` and
says so when it is missing, rather than passing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import RecordError, load, replay
from .i18n import Translator

__all__ = ["SCHEME", "SCHEME_DAILY", "SCHEME_V1", "SIGNATURE_ALG", "Said", "Verdict", "commit",
           "commit_daily", "commit_v2",
           "deck_seed", "fairness_header", "key_id", "new_contribution", "new_salt",
           "normal_contribution", "public_keys", "signed_bytes", "verify"]

SCHEME_V1 = "sha256:cardplay-seed-commitment/1"
SCHEME = "sha256:cardplay-commitment/2"
# a daily deal's record: scheme 2's hash over the day's parameters (docs/daily.md)
SCHEME_DAILY = "sha256:cardplay-daily/1"
SIGNATURE_ALG = "Ed25519"
_DOMAIN = b"cardplay-seed-commitment/1\x00"
_DOMAIN_V2 = b"cardplay-commitment/2\x00"
_DOMAIN_DECK = b"cardplay-deck-seed/2\x00"
_DOMAIN_SIGNATURE = b"cardplay-record-signature/1\x00"
_SALT_BYTES = 16
CONTRIBUTION_HEX = 32  # a contribution: 128 random bits as lowercase hex
SOURCES = ("server", "creator", "operator")


def new_salt() -> str:
    """A fresh per-table salt: 128 random bits as hex."""
    return secrets.token_hex(_SALT_BYTES)


def new_contribution() -> str:
    """A contribution the server draws for a seat that sent none (recorded as drawn)."""
    return secrets.token_hex(CONTRIBUTION_HEX // 2)


def normal_contribution(value: Any) -> str | None:
    """``value`` as a contribution (lowercase hex of 32 characters), or None when it is not
    one."""
    if not isinstance(value, str) or len(value) != CONTRIBUTION_HEX or not value.isascii():
        return None
    value = value.lower()
    return value if all(c in "0123456789abcdef" for c in value) else None


def _prefixed(*parts: bytes) -> bytes:
    # a 4-byte length before each part: no two lists of parts share an encoding
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def _whole(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and value >= 0


def commit(seed: int, salt: str) -> str:
    """Scheme 1's commitment to ``seed`` under ``salt``: hex SHA-256 over the domain tag, the
    salt's length and bytes, and the seed as decimal text."""
    if not _whole(seed):
        raise ValueError("a seed is a whole number of at least 0")
    return hashlib.sha256(_DOMAIN + _prefixed(salt.encode("ascii"),
                                              str(seed).encode("ascii"))).hexdigest()


def canonical(value: Any) -> bytes:
    """JSON with sorted keys and no spaces, as UTF-8: the one text of a value that is hashed
    and signed (the browser's check writes it the same way)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def commit_v2(game: str, options: Mapping[str, Any], dealer: int | None,
              seats: Sequence[str], seed_source: str, server_seed: int, salt: str) -> str:
    """Scheme 2's commitment: hex SHA-256 of the domain tag (which names the version) and,
    length-prefixed, the game, its options as canonical JSON, the dealer rule (``null`` or the
    first dealer's seat), the seats' kinds joined by commas, who chose the seed, the server
    seed as decimal text and the salt."""
    if not _whole(server_seed):
        raise ValueError("a seed is a whole number of at least 0")
    parts = (game.encode("utf-8"), canonical(dict(options)),
             b"null" if dealer is None else str(dealer).encode("ascii"),
             ",".join(seats).encode("utf-8"), seed_source.encode("utf-8"),
             str(server_seed).encode("ascii"), salt.encode("ascii"))
    return hashlib.sha256(_DOMAIN_V2 + _prefixed(*parts)).hexdigest()


def commit_daily(game: str, day: str, options: Mapping[str, Any], segments: int, level: str,
                 players: int, day_seed: int, salt: str) -> str:
    """The commitment to a day's deals of one game: scheme 2's hash (:func:`commit_v2`) with
    the day, the number of deals and the bots' level beside the options, seat 0 a person's and
    the others bots', the last seat dealing first, and ``daily`` as who chose the seed. Everyone
    who plays that day is dealt from ``day_seed``: no contribution changes the deck."""
    params = {"day": day, "options": dict(options), "segments": segments, "level": level}
    return commit_v2(game, params, players - 1, ["human"] + ["bot"] * (players - 1), "daily",
                     day_seed, salt)


def deck_seed(server_seed: int, contributions: Sequence[str | None]) -> int:
    """The match's seed from the server seed and every seat's contribution, in seat order
    (None, an empty part, for a bot's seat): the first 63 bits of their SHA-256."""
    parts = [str(server_seed).encode("ascii")] + [(c or "").encode("ascii")
                                                  for c in contributions]
    digest = hashlib.sha256(_DOMAIN_DECK + _prefixed(*parts)).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def fairness_header(seed: int, salt: str, seed_source: str, *,
                    server_seed: int | None = None, game: str = "",
                    options: Mapping[str, Any] | None = None, dealer: int | None = None,
                    seats: Sequence[str] = (),
                    contributions: Sequence[Mapping[str, Any] | None] | None = None,
                    commitment: str | None = None) -> dict[str, Any]:
    """The ``fairness`` part of a record. Without ``server_seed``: scheme 1 (a table made
    before scheme 2). With it: scheme 2, revealing the server seed, the seats' kinds and
    every contribution (``{"value", "drawn"}``, None for a bot's seat)."""
    if server_seed is None:
        return {"scheme": SCHEME_V1, "commitment": commit(seed, salt), "salt": salt,
                "seed_source": seed_source}
    return {"scheme": SCHEME,
            "commitment": commitment or commit_v2(game, options or {}, dealer, seats,
                                                  seed_source, server_seed, salt),
            "salt": salt, "seed_source": seed_source, "server_seed": server_seed,
            "seats": list(seats),
            "contributions": [dict(c) if c is not None else None
                              for c in (contributions or [None] * len(seats))]}


def signed_bytes(record: Mapping[str, Any]) -> bytes:
    """What a record's signature signs: a domain tag, then the record without its
    ``signature`` as canonical JSON."""
    return _DOMAIN_SIGNATURE + canonical({k: v for k, v in record.items() if k != "signature"})


def key_id(public: bytes) -> str:
    """A public key's name: the first 16 hex characters of the SHA-256 of its 32 bytes."""
    return hashlib.sha256(public).hexdigest()[:16]


# ---- checking


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify` found: ``ok``, the first failure's ``code`` (``ok`` when none) and
    a sentence; ``failures`` lists every check that failed as (code, sentence), ``notes`` what
    holds but is worth saying (the old scheme, an unchecked signature, a creator's seed)."""

    ok: bool
    code: str
    message: str
    seed_source: str | None = None
    finished: bool = False
    moves: int = 0
    scheme: str | None = None
    signature: str = "unchecked"  # ok, unchecked, failed, unsigned, unavailable
    failures: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = field(default=())
    contributions: tuple[Any, ...] = ()


class Said(str):
    """A sentence of :func:`verify`'s, in English, that knows its catalogue key (context
    ``cli``) and values, so that ``cardplay verify`` says it in the reader's language."""

    key: str
    values: dict[str, Any]

    def __new__(cls, key: str, **values: Any) -> Said:
        said = super().__new__(cls, _ENGLISH(key, **values))
        said.key, said.values = key, values
        return said

    def said_in(self, tr: Translator) -> str:
        return tr(self.key, **self.values)


_ENGLISH = Translator("en")
_SOURCES_SAID = ("server", "creator", "operator")  # verify_why_holds_<source>


def verify(record: Mapping[str, Any], keys: Mapping[str, bytes] | None = None) -> Verdict:
    """Check a match record: its commitment, its deck seed (scheme 2: from the server seed and
    every contribution), that every move replays, that the match is complete and, with
    ``keys`` (key id -> 32-byte Ed25519 public key), its signature.

    Not ``ok`` when any of them fails; ``failures`` names each. A record that is not a record
    at all raises RecordError."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    fair = record.get("fairness")
    if fair is None:
        return Verdict(False, "no_commitment", Said("verify_why_no_commitment"))
    if not isinstance(fair, Mapping):
        return Verdict(False, "malformed", Said("verify_why_not_object"))
    scheme = fair.get("scheme")
    if scheme == SCHEME_DAILY:
        return _verify_daily(record, fair, keys)
    if scheme not in (SCHEME, SCHEME_V1):
        return Verdict(False, "unknown_scheme",
                       Said("verify_why_unknown_scheme", scheme=repr(scheme), known=repr(SCHEME),
                            old=repr(SCHEME_V1)))
    claimed, salt, seed = fair.get("commitment"), fair.get("salt"), record.get("seed")
    if not isinstance(claimed, str) or not isinstance(salt, str) or not salt.isascii():
        return Verdict(False, "malformed", Said("verify_why_no_salt"))
    if not isinstance(seed, int) or not _whole(seed):
        return Verdict(False, "malformed", Said("verify_why_no_seed"))
    source = fair.get("seed_source") if isinstance(fair.get("seed_source"), str) else None
    failures: list[tuple[str, str]] = []
    notes: list[str] = []
    contributions: tuple[Any, ...] = ()
    if scheme == SCHEME_V1:
        notes.append(Said("verify_why_old_scheme"))
        if not hmac.compare_digest(commit(seed, salt), claimed.lower()):
            failures.append(("mismatch", Said("verify_why_mismatch")))
    else:
        problem = _check_v2(record, fair, claimed, salt, seed, source, failures)
        if problem is not None:
            return problem
        contributions = tuple(fair["contributions"])
    moves = record.get("moves")
    count = len(moves) if isinstance(moves, list) else 0
    finished = False
    try:
        match = replay(record)
    except RecordError as e:
        failures.append(("no_replay", Said("verify_why_no_replay", error=str(e))))
    else:
        finished = bool(getattr(match, "is_over", False))
        if not finished:
            failures.append(("incomplete", Said("verify_why_incomplete", n=count)))
    if source in ("creator", "operator"):
        notes.append(Said("verify_why_chosen_" + source))
    signature = _check_signature(record, keys, failures)
    if signature == "unchecked":
        notes.append(Said("verify_why_unchecked"))
    if failures:
        code = failures[0][0]
        return Verdict(False, code, "; ".join(m for _, m in failures), source, finished,
                       count, str(scheme), signature, tuple(failures), tuple(notes),
                       contributions)
    holds = "verify_why_holds_" + (source if source in _SOURCES_SAID else "unknown")
    return Verdict(True, "ok", Said(holds, n=count), source, finished, count,
                   str(scheme), signature, (), tuple(notes), contributions)


def _check_v2(record: Mapping[str, Any], fair: Mapping[str, Any], claimed: str, salt: str,
              seed: int, source: str | None, failures: list[tuple[str, str]]
              ) -> Verdict | None:
    """Scheme 2's commitment, contributions and deck seed (failures appended); a Verdict
    when the header is too broken to check at all."""
    server_seed, seats = fair.get("server_seed"), fair.get("seats")
    contribs, game, options = fair.get("contributions"), record.get("game"), record.get("options")
    dealer = record.get("dealer")
    if not (_whole(server_seed) and isinstance(seats, list)
            and all(s in ("human", "bot") for s in seats) and isinstance(contribs, list)
            and isinstance(game, str) and isinstance(options, Mapping)
            and source in SOURCES and (dealer is None or _whole(dealer))):
        return Verdict(False, "malformed", Said("verify_why_v2_header"))
    assert isinstance(server_seed, int) and isinstance(source, str)
    expected = commit_v2(game, options, dealer, seats, source, server_seed, salt)
    if not hmac.compare_digest(expected, claimed.lower()):
        failures.append(("commitment", Said("verify_why_commitment")))
    try:
        players = load(game, **options).players
    except (ValueError, TypeError):
        players = None  # the replay says why
    if players is not None and players != len(seats):
        failures.append(("seats", Said("verify_why_seats", listed=len(seats), game=game,
                                       players=players)))
    values: list[str | None] = []
    bad = len(contribs) != len(seats)
    for kind, c in zip(seats, contribs):
        if kind == "bot" or source != "server":
            bad = bad or c is not None
            values.append(None)
            continue
        value = normal_contribution(c.get("value")) if isinstance(c, Mapping) else None
        bad = bad or value is None or not isinstance(c.get("drawn"), bool)
        values.append(value)
    if bad:
        failures.append(("contributions", Said("verify_why_contributions")))
        return None
    derived = server_seed if source != "server" else deck_seed(server_seed, values)
    if derived != seed:
        failures.append(("seed", Said("verify_why_seed")))
    return None


def _verify_daily(record: Mapping[str, Any], fair: Mapping[str, Any],
                  keys: Mapping[str, bytes] | None) -> Verdict:
    """A daily attempt's record: the day's commitment over the day's parameters (the game's
    daily options, number of deals and level, :mod:`cardplay.dailyplan`), the deck seed being
    the day's seed itself, the moves replaying, and the signature. An attempt left before its
    last deal is complete as far as it went (its finished deals count): a note, not a
    failure."""
    from .dailyplan import DAILY_LEVEL, PLANS

    game, day, salt = record.get("game"), fair.get("day"), fair.get("salt")
    seed, server_seed = record.get("seed"), fair.get("server_seed")
    plan = PLANS.get(game) if isinstance(game, str) else None
    if plan is None or not isinstance(day, str) or not isinstance(salt, str) or \
            not salt.isascii() or not _whole(seed) or not isinstance(fair.get("commitment"), str):
        return Verdict(False, "malformed", Said("verify_why_daily_header"))
    failures: list[tuple[str, str]] = []
    notes: list[str] = []
    options = record.get("options")
    try:
        players = load(str(game), **plan.options).players
        full = load(str(game), **plan.options).options_dict()
    except (ValueError, TypeError):
        players, full = 0, {}
    if options != full or record.get("series") != plan.segments or \
            record.get("dealer") != players - 1 or fair.get("level") != DAILY_LEVEL:
        failures.append(("daily_plan", Said("verify_why_daily_plan")))
    expected = commit_daily(str(game), day, plan.options, plan.segments, DAILY_LEVEL, players,
                            int(seed), salt)  # type: ignore[arg-type]
    if not hmac.compare_digest(expected, str(fair["commitment"]).lower()):
        failures.append(("commitment", Said("verify_why_daily_commitment")))
    if server_seed != seed:
        failures.append(("seed", Said("verify_why_daily_seed")))
    moves = record.get("moves")
    count = len(moves) if isinstance(moves, list) else 0
    finished = False
    try:
        match = replay(record)
    except RecordError as e:
        failures.append(("no_replay", Said("verify_why_no_replay", error=str(e))))
    else:
        finished = bool(getattr(match, "is_over", False))
        if not finished:
            notes.append(Said("verify_why_daily_left", n=plan.segments,
                              done=len(getattr(match, "segment_results", []))))
    signature = _check_signature(record, keys, failures)
    if signature == "unchecked":
        notes.append(Said("verify_why_unchecked"))
    if failures:
        return Verdict(False, failures[0][0], "; ".join(m for _, m in failures), "daily",
                       finished, count, SCHEME_DAILY, signature, tuple(failures), tuple(notes))
    return Verdict(True, "ok", Said("verify_why_daily_holds", n=count),
                   "daily", finished, count, SCHEME_DAILY, signature, (), tuple(notes))


def _check_signature(record: Mapping[str, Any], keys: Mapping[str, bytes] | None,
                     failures: list[tuple[str, str]]) -> str:
    if keys is None:
        return "unchecked"
    sig = record.get("signature")
    if not isinstance(sig, Mapping):
        failures.append(("unsigned", Said("verify_why_unsigned")))
        return "unsigned"
    kid, value = sig.get("key"), sig.get("value")
    try:
        raw = base64.b64decode(value, validate=True) if isinstance(value, str) else b""
    except (binascii.Error, ValueError):
        raw = b""
    public = keys.get(kid) if isinstance(kid, str) else None
    if public is None and len(keys) == 1:
        public = next(iter(keys.values()))  # one key given: it is the one meant
    if sig.get("alg") != SIGNATURE_ALG or public is None or len(raw) != 64:
        failures.append(("signature", Said("verify_why_bad_signature")))
        return "failed"
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:
        failures.append(("signature_unavailable", Said("verify_why_no_crypto")))
        return "unavailable"
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(raw, signed_bytes(record))
    except (InvalidSignature, ValueError):
        failures.append(("signature", Said("verify_why_signature_mismatch")))
        return "failed"
    return "ok"


# ---- public keys, as `cardplay verify --key` reads them

_SPKI_ED25519 = bytes.fromhex("302a300506032b6570032100")  # DER before the key's 32 bytes


def public_keys(text: str) -> dict[str, bytes]:
    """The Ed25519 public keys in ``text`` by key id: the JSON of ``GET /api/keys``, a PEM
    public key, the server's own PEM private key file (needs ``cryptography``), or the key's
    32 bytes in base64. ValueError when it is none of these."""
    text = text.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
            found = {}
            for k in data["keys"]:
                if k.get("alg") == SIGNATURE_ALG:
                    raw = base64.b64decode(k["public"], validate=True)
                    if len(raw) == 32:
                        found[key_id(raw)] = raw
        except (ValueError, KeyError, TypeError, AttributeError, binascii.Error):
            raise ValueError("the JSON holds no list of keys as GET /api/keys gives it") from None
        if not found:
            raise ValueError("the JSON lists no Ed25519 key")
        return found
    if "PRIVATE KEY" in text:
        try:
            from cryptography.hazmat.primitives import serialization
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        except ImportError:
            raise ValueError("reading a private key file needs the 'cryptography' package; "
                             "give the public key (GET /api/keys) instead") from None
        key = serialization.load_pem_private_key(text.encode("ascii"), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError("the key is not an Ed25519 key")
        raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                            serialization.PublicFormat.Raw)
        return {key_id(raw): raw}
    body = text
    if "BEGIN PUBLIC KEY" in text:
        body = "".join(line for line in text.splitlines() if not line.startswith("-----"))
    try:
        raw = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("not a key: expected the JSON of GET /api/keys, a PEM key, or 32 "
                         "bytes in base64") from None
    if len(raw) == len(_SPKI_ED25519) + 32 and raw.startswith(_SPKI_ED25519):
        raw = raw[len(_SPKI_ED25519):]
    if len(raw) != 32:
        raise ValueError("not an Ed25519 public key (32 bytes)")
    return {key_id(raw): raw}
