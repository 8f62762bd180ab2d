"""Observation encodings: fixed size, bounded, a function of the seat's View only (leak test)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cardplay
from cardplay.rl.observations import Snapshot, encoder

from .helpers import CONFIGS, IDS, VARIANT_IDS, VARIANTS, positions


@pytest.mark.parametrize(("name", "opts"), CONFIGS + VARIANTS, ids=IDS + VARIANT_IDS)
def test_encoding_is_bounded_and_equals_the_views(name: str, opts: dict[str, Any]) -> None:
    """The View, the snapshot of the deal's view hooks and the fast path (the deal's state) give
    the same vector, always in [-1, 1]."""
    game = cardplay.load(name, **opts)
    enc = encoder(game)
    assert len(enc.labels()) == enc.size
    n = game.players
    for i, d in enumerate(positions(game, 4, seed=5)):
        if i % 2 and not d.is_over:
            continue
        for seat in range(n):
            view = d.view(seat)
            a = enc.encode_view(view)
            b = enc.encode(Snapshot.of_deal(d, seat))
            c = enc.encode_deal(d, seat)
            assert a.dtype == np.float32 and a.shape == (enc.size,)
            assert np.array_equal(a, b)
            assert np.array_equal(a, c), [enc.labels()[j] for j in np.flatnonzero(a != c)]
            assert a.min() >= -1.0 and a.max() <= 1.0
            hand = a[enc.blocks["hand"][0]:enc.blocks["hand"][0] + 52]
            assert sorted(np.flatnonzero(hand).tolist()) == sorted({int(c) for c in view.hand})


@pytest.mark.parametrize(("name", "opts"), CONFIGS + VARIANTS, ids=IDS + VARIANT_IDS)
def test_no_hidden_card_leaks_into_the_encoding(name: str, opts: dict[str, Any]) -> None:
    """Deals that differ only in what a seat cannot see (worlds drawn by sample_deal from its
    view) give that seat the same vector."""
    game = cardplay.load(name, **opts)
    enc = encoder(game)
    rng = random.Random(7)
    n = game.players
    compared = differing = 0
    for i, d in enumerate(positions(game, 6, seed=11)):
        if i % 4:
            continue
        for seat in range(n) if n <= 4 else (i % n, (i + n // 2) % n):
            other = game.sample_deal(d.view(seat), rng)
            a = enc.encode(Snapshot.of_deal(d, seat))
            b = enc.encode(Snapshot.of_deal(other, seat))
            assert np.array_equal(a, b), [enc.labels()[j] for j in np.flatnonzero(a != b)]
            assert np.array_equal(enc.encode_deal(d, seat), enc.encode_deal(other, seat))
            compared += 1
            differing += other.deck != d.deck
    assert compared > 10 and differing > 0


@pytest.mark.parametrize("name", ["sixty-six", "chukhny", "banchok"])
def test_match_views_add_the_scores(name: str) -> None:
    game = cardplay.load(name, **({"games": 3} if name == "chukhny" else {}))
    enc = encoder(game)
    rng = random.Random(2)
    m = game.match(seed=4)
    steps = 0
    while not m.is_over and steps < 400:
        for seat in range(game.players):
            a = enc.encode_view(m.view(seat))
            b = enc.encode(Snapshot.of_deal(m.deal, seat, m))
            assert np.array_equal(a, b)
            assert np.array_equal(a, enc.encode_deal(m.deal, seat, m))
        m.play(rng.choice(m.legal_moves()))
        steps += 1
    off, size = enc.blocks["scores"]
    final = enc.encode_view(m.view(0))[off:off + size]
    if any(m.scores):
        assert final.any()


def test_labels_name_blocks_and_relative_seats() -> None:
    enc = encoder(cardplay.load("twenty", players=3))
    labels = enc.labels()
    assert labels[:3] == ["to_move:seat+0", "to_move:seat+1", "to_move:seat+2"]
    assert "hand:QH" in labels and "played_by_seat+2:AC" in labels
    assert enc.blocks["hand"][1] == 52


def test_every_game_has_a_fast_path() -> None:
    for name in cardplay.games():
        assert encoder(cardplay.load(name)).fast_encoder is not None, name


@pytest.mark.parametrize("name", cardplay.games())
def test_interleaved_deals_and_copies_encode_as_their_views(name: str) -> None:
    """The fast path keeps per-deal state (constant blocks, Maltese Twenty's cleared cards):
    two deals and a copy of one, played and encoded in turn, each give its own View's vector."""
    game = cardplay.load(name)
    enc = encoder(game)
    rng = random.Random(4)
    deals = [game.deal(seed=1, dealer=0), game.deal(seed=2, dealer=game.players - 1)]
    for step in range(200):
        if step == 30:
            deals.append(deals[0].copy())
        live = [d for d in deals if not d.is_over]
        if not live:
            break
        for d in live:
            for seat in {0, d.to_move or 0}:
                assert np.array_equal(enc.encode_deal(d, seat), enc.encode_view(d.view(seat)))
            d.apply_code(rng.choice(d.legal_codes()))
    assert len(deals) == 3 or all(d.is_over for d in deals)
