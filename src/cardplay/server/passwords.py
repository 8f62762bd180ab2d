"""Password hashing: Argon2id (argon2-cffi), with the cost the server is configured with.

The production cost is argon2-cffi's RFC 9106 "low memory" profile (3 passes over 64 MiB, 4
lanes): tens of milliseconds a hash, far too slow to try many guesses. Tests build the hasher
with a cheap cost through the same :class:`PasswordConfig` (``create_app(passwords=...)``), so
they run the code path production runs.

A password is never stored, logged or echoed: only its Argon2id hash (with its own salt and
parameters) is stored, and :meth:`Passwords.verify` compares in constant time. For an unknown
name the caller still verifies against :attr:`Passwords.dummy`, a hash of a random text, so a
wrong name and a wrong password cost the same time.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import cached_property

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

__all__ = ["MAX_PASSWORD", "MIN_PASSWORD", "PRODUCTION", "PasswordConfig", "Passwords"]

MIN_PASSWORD = 8  # characters
MAX_PASSWORD = 256  # characters: a bound on the work one request can ask of the hasher


@dataclass(frozen=True)
class PasswordConfig:
    """Argon2id's cost: passes, memory in KiB, lanes."""

    time_cost: int = 3
    memory_cost: int = 65536
    parallelism: int = 4


PRODUCTION = PasswordConfig()


class Passwords:
    """Hashes and checks passwords with one Argon2id configuration."""

    def __init__(self, config: PasswordConfig = PRODUCTION) -> None:
        self.config = config
        self.hasher = PasswordHasher(time_cost=config.time_cost,
                                     memory_cost=config.memory_cost,
                                     parallelism=config.parallelism, type=Type.ID)

    @cached_property
    def dummy(self) -> str:
        """What an unknown name is checked against, so that it costs what a known one does
        (made on first use: every check reads it first, known name or not)."""
        return self.hasher.hash(secrets.token_urlsafe(24))

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (None: an unknown name, checked against the
        dummy and refused). Always one full Argon2id computation."""
        dummy = self.dummy  # read on both paths, so the first check of either pays for it
        try:
            ok = self.hasher.verify(stored if stored is not None else dummy, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return ok and stored is not None

    def needs_rehash(self, stored: str) -> bool:
        """Whether a stored hash was made with another cost (it is replaced at sign-in)."""
        return self.hasher.check_needs_rehash(stored)
