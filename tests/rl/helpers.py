"""Configurations and helpers shared by the adapter tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import cardplay
from cardplay.engine import Deal, Game, game_class


def player_counts(name: str) -> list[int]:
    """The smallest, a middle and the largest player count of a game."""
    cls = game_class(name)
    lo, hi = cls.min_players, cls.max_players
    return sorted({lo, (lo + hi) // 2, hi})


def options_for(name: str, players: int) -> dict[str, Any]:
    cls = game_class(name)
    return {} if cls.min_players == cls.max_players else {"players": players}


# Every registered game at its smallest, a middle and its largest player count.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    (name, options_for(name, n)) for name in cardplay.games() for n in player_counts(name)]
IDS = [f"{name}-{opts.get('players', 2)}p" for name, opts in CONFIGS]

# Option sets that change the action space or the rules a lot, tested on top of CONFIGS.
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("sixty-six", {"preset": "schnapsen"}),
    ("twenty", {"preset": "canonical", "players": 3}),
    ("banchok", {"bank_stake": 20, "ace_low": True}),
    ("macao", {"max_stake": 20, "multi_buy": True, "naturals": True}),
    ("chukhny", {"deck_size": 36, "after_ace": "wrap", "players": 4}),
]
VARIANT_IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for name, o in VARIANTS]


def positions(game: Game, deals: int, seed: int) -> Iterator[Deal]:
    """Every position (the deal itself, mutated) of random deals, the end included."""
    rng = random.Random(seed)
    for i in range(deals):
        d = game.deal(seed=seed * 1000 + i, dealer=rng.randrange(game.players))
        while True:
            yield d
            if d.is_over:
                break
            d.apply_code(rng.choice(d.legal_codes()))
