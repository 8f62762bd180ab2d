"""The server's Ed25519 signing key: made on first start, shared by a site's processes, and the
signature every finished record carries.

The key is a PKCS#8 PEM file, ``DATA/signing-key.pem`` by default, created with mode 0600 (and
``O_EXCL``, so two processes starting together on one data directory end up with one key). The
processes of one site sign with one key: give them one data directory, copy the file into each,
or name it with ``cardplay serve --signing-key FILE``. Anyone checks a record against the public
key (``GET /api/keys``) with ``cardplay verify RECORD --key URL|FILE``.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..fairness import SIGNATURE_ALG, key_id, signed_bytes

__all__ = ["KEY_FILE", "Signer"]

KEY_FILE = "signing-key.pem"


class Signer:
    """One Ed25519 key: signs records, and names its public half."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public = key.public_key().public_bytes(serialization.Encoding.Raw,
                                                    serialization.PublicFormat.Raw)
        self.id = key_id(self.public)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Signer:
        """The key in ``path``, made there first (mode 0600) when the file does not exist."""
        p = Path(path)
        if not p.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
            pem = Ed25519PrivateKey.generate().private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption())
            # another process may make it at the same moment: the first one's key is kept
            with contextlib.suppress(FileExistsError):
                fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "wb") as f:
                    f.write(pem)
        try:
            key = serialization.load_pem_private_key(p.read_bytes(), password=None)
        except (ValueError, TypeError) as e:
            raise ValueError(f"{p} is not an unencrypted PEM private key: {e}") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError(f"{p} holds a key that is not Ed25519")
        return cls(key)

    def secret(self, purpose: str) -> bytes:
        """A secret of the site for one ``purpose``: the same in every process that shares
        the key, unknown to anyone without it (HMAC-SHA256 of the purpose under the private
        key's bytes), so that what it derives need never be stored."""
        raw = self._key.private_bytes(serialization.Encoding.Raw,
                                      serialization.PrivateFormat.Raw,
                                      serialization.NoEncryption())
        return hmac.new(raw, b"cardplay-secret/1\x00" + purpose.encode("utf-8"),
                        hashlib.sha256).digest()

    def keys(self) -> dict[str, Any]:
        """The answer of ``GET /api/keys``."""
        return {"keys": [{"id": self.id, "alg": SIGNATURE_ALG,
                          "public": base64.b64encode(self.public).decode("ascii")}]}

    def sign(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """``record`` with its ``signature`` (a signature it held before is replaced)."""
        out = {k: v for k, v in record.items() if k != "signature"}
        value = self._key.sign(signed_bytes(out))
        out["signature"] = {"alg": SIGNATURE_ALG, "key": self.id,
                            "value": base64.b64encode(value).decode("ascii")}
        return out
