"""Lockstep digests: every move of thousands of random deals, and whole matches, summed up in a
hash per block of deals, so that a faster engine can be compared with the engine of the day the
digests were written, move by move.

What one position contributes: the seat to act, its legal move codes, every seat's hand codes and
public state (as canonical JSON) and the card points; a finished deal adds its result and record.
Play alternates between the fast path (``legal_codes`` + ``apply_code``) and the public API
(``legal_moves`` + ``play`` by text), and continues on a ``copy()`` now and then, so all three
are held to the same rules.

    python tests/lockstep.py > tests/data/lockstep.json
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import cardplay
from cardplay.engine import Deal, Game, OptionError, game_class

# Deals per block: a failure names the block, so it is quick to find the first differing deal.
BLOCK = 100


def configs() -> list[tuple[str, dict[str, Any], int]]:
    """(game, options, deals): each game's defaults and presets with many deals, then every
    non-default value of every option with choices, each alone, with fewer."""
    main: list[tuple[str, dict[str, Any], int]] = [
        ("sixty-six", {}, 1000),
        ("sixty-six", {"preset": "schnapsen"}, 1000),
        ("sixty-six", {"preset": "schnapsen", "allow_close": False, "marriage_lead": "king",
                       "marriage_credit": "next_trick"}, 500),
        ("two-ten-jack", {}, 1000),
        ("maltese-twenty", {}, 1000),
        ("twenty", {}, 500),
        ("twenty", {"players": 4}, 300),
        ("twenty", {"preset": "canonical"}, 300),
        ("twenty", {"preset": "canonical", "players": 3}, 200),
        ("banchok", {}, 300),
        ("banchok", {"players": 5}, 200),
        ("macao", {}, 300),
        ("macao", {"players": 5}, 200),
        ("chukhny", {}, 500),
        ("chukhny", {"players": 6}, 200),
    ]
    variants: list[tuple[str, dict[str, Any], int]] = []
    for name in sorted(cardplay.games()):
        for field_name, f in game_class(name).option_fields().items():
            choices = f.metadata.get("choices")
            if not choices or field_name in ("preset", "players"):
                continue
            for value in choices[1:]:
                opts = {field_name: value}
                try:
                    cardplay.load(name, **opts)
                except OptionError:
                    opts = {"preset": "schnapsen", field_name: value}
                    try:
                        cardplay.load(name, **opts)
                    except OptionError:
                        continue
                variants.append((name, opts, 100))
    return main + variants


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def _position(d: Deal) -> str:
    seats = range(d.players)
    return _canon([d.to_move, list(d.legal_codes()), [list(d.hand_codes(s)) for s in seats],
                   [d.public_state(s) for s in seats], d.points])


def _play_deal(game: Game, seed: int, h: Any) -> None:
    rng = random.Random(seed)
    d = game.deal(seed=seed, dealer=seed % game.players)
    public = seed % 2 == 1
    while d.to_move is not None:
        h.update(_position(d).encode())
        if rng.random() < 0.1:
            d = d.copy()
        if public:
            d.play(rng.choice(d.legal_moves()).text)
        else:
            d.apply_code(rng.choice(d.legal_codes()))
    h.update(_position(d).encode())
    h.update(_canon([d.result, d.record()]).encode())


def _play_match(game: Game, seed: int, h: Any, max_moves: int = 3000) -> None:
    rng = random.Random(seed)
    m = game.match(seed=seed)
    moves = 0
    while not m.is_over and moves < max_moves:
        m.play(rng.choice(m.legal_moves()))
        moves += 1
    h.update(_canon([m.is_over, m.scores, m.record()]).encode())


def digests(name: str, options: dict[str, Any], deals: int) -> dict[str, Any]:
    game = cardplay.load(name, **options)
    blocks = []
    for start in range(0, deals, BLOCK):
        h = hashlib.sha256()
        for seed in range(start, min(deals, start + BLOCK)):
            _play_deal(game, 1_000_003 * seed + 17, h)
        blocks.append(h.hexdigest()[:16])
    h = hashlib.sha256()
    for seed in range(5):
        _play_match(game, 7919 * seed + 3, h)
    return {"game": name, "options": options, "deals": deals, "blocks": blocks,
            "matches": h.hexdigest()[:16]}


def key(name: str, options: dict[str, Any]) -> str:
    return name + " " + _canon(options)


def main() -> int:
    out = {key(n, o): digests(n, o, k) for n, o, k in configs()}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
