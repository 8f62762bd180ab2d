"""Seeds and shuffles: every deck order comes from a seed, the same on every platform."""

from __future__ import annotations

import hashlib
import math
import os


def derive_seed(seed: int, *keys: object) -> int:
    """A 63-bit seed derived deterministically from a seed and keys (the same everywhere)."""
    h = hashlib.blake2b(repr((seed, *keys)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") >> 1


def shuffled(cards: list[int], seed: int) -> list[int]:
    """``cards`` in an order fixed by ``seed``: a Fisher-Yates shuffle driven by one big number.

    The number is the SHAKE-256 hash of the seed, with 256 bits more than log2(n!), so every
    order is equally likely to within 2**-256; one hash is several times cheaper than seeding a
    Mersenne Twister, and the order is the same on every platform and Python version.
    """
    n = len(cards)
    sizes = _SIZES.get(n)
    if sizes is None:
        bits = sum(i.bit_length() for i in range(2, n + 1)) + 256
        sizes = _SIZES[n] = ((bits + 7) // 8, math.factorial(n))
    # The swaps read the number's digits in the mixed radix n, n-1, ..., 2, which depend only on
    # its remainder modulo n!: reducing it first keeps every divmod below on a short number.
    k = int.from_bytes(hashlib.shake_256(b"cardplay-shuffle:%d" % seed).digest(sizes[0]),
                       "little") % sizes[1]
    out = list(cards)
    for i in range(n - 1, 0, -1):
        k, j = divmod(k, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# Per deck size: the bytes of hash a shuffle reads, and n!.
_SIZES: dict[int, tuple[int, int]] = {}


def fresh_seed() -> int:
    """A new random seed for a deal or match created without one (it is recorded)."""
    return int.from_bytes(os.urandom(8), "big") >> 1
