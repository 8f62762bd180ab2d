"""Random games per second through each research adapter, compared with the bare engine.

For every game (default options) it times complete random deals, on one core, median of a few
runs alternated between the methods:

* ``fast``: the bare engine's fast path (``legal_codes()`` + ``apply_code()``);
* ``api``: the bare engine's public API (``legal_moves()`` + ``play()``);
* ``pettingzoo``: ``env()`` driven by ``agent_iter``; every step calls ``last()`` (the agent's
  observation vector and action mask) and steps a random legal action from the mask;
* ``pz+wrap``: the same with PettingZoo's order-enforcing wrapper (``env(..., wrap=True)``);
* ``gym``: ``CardplayEnv`` at seat 0 against ``random`` bots; the agent picks from
  ``info["legal_actions"]``; ``bots``: the same game with every seat a ``RandomBot`` reading its
  View, without the adapter (what the Gym environment's opponents cost anyway);
* ``openspiel``: a deal through the OpenSpiel game (chance nodes included), random legal actions;
  ``os+obs``: plus the observation tensor of the player to move at every decision.

Figures only: nothing here passes or fails. Deals per second are printed with moves per second;
random deals differ in length from method to method, so the cost ratios (the adapter's time over
the bare engine's fast path and public API) are taken per move. The public API is the bare engine
a user calls, so it is the baseline of the adapters' "at most 3 times the engine" target; the
fast path (what the adapters themselves drive) is the harder one. The adapters' times include
what any user loop pays: PettingZoo's steps of finished agents at the end of a deal, Gymnasium's
opponents, OpenSpiel's chance nodes (one per card dealt) and its probe of the observer (pyspiel
sets the observer from a fresh state for seat 0 before every ``observation_tensor`` call).

    python benchmarks/adapters.py [--deals N] [--runs R] [--game NAME] [--skip-openspiel]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import cardplay
from cardplay.bots import RandomBot
from cardplay.engine import Game


def fast(game: Game, deals: int, seed: int) -> int:
    rng = random.Random(seed)
    choice = rng.choice
    n = game.players
    moves = 0
    for i in range(deals):
        d = game.deal(seed=seed + i, dealer=i % n)
        legal, apply = d.legal_codes, d.apply_code
        while d._turn is not None:
            apply(choice(legal()))
        moves += len(d.history)
    return moves


def api(game: Game, deals: int, seed: int) -> int:
    rng = random.Random(seed)
    n = game.players
    moves = 0
    for i in range(deals):
        d = game.deal(seed=seed + i, dealer=i % n)
        while not d.is_over:
            d.play(rng.choice(d.legal_moves()))
        moves += len(d.history)
    return moves


def bots(game: Game, deals: int, seed: int) -> int:
    n = game.players
    players = [RandomBot(game, seed=seed + s) for s in range(n)]
    moves = 0
    for i in range(deals):
        d = game.deal(seed=seed + i, dealer=i % n)
        while not d.is_over:
            t = d.to_move
            assert t is not None
            d.play(players[t].choose(d.view(t)))
        moves += len(d.history)
    return moves


def _pettingzoo(wrapped: bool) -> Callable[[Game, int, int], int]:
    from cardplay.rl.pettingzoo import env

    def run(game: Game, deals: int, seed: int) -> int:
        e = env(game, wrap=wrapped)
        rand = random.Random(seed).random
        moves = 0
        for i in range(deals):
            e.reset(seed=seed + i)
            for _ in e.agent_iter():
                obs, _, terminated, truncated, _ = e.last()
                if terminated or truncated:
                    e.step(None)
                else:
                    legal = obs["action_mask"].nonzero()[0]
                    e.step(int(legal[int(rand() * len(legal))]))
                    moves += 1
        return moves

    return run


def gym(game: Game, deals: int, seed: int) -> int:
    from cardplay.rl.gym import CardplayEnv

    env = CardplayEnv(game, opponents="random")
    rand = random.Random(seed).random
    moves = 0
    for i in range(deals):
        _, info = env.reset(seed=seed + i)
        while True:
            legal = info["legal_actions"]
            _, _, terminated, truncated, info = env.step(int(legal[int(rand() * len(legal))]))
            if terminated or truncated:
                break
        moves += env.table.moves
    return moves


def _openspiel(observe: bool) -> Callable[[Game, int, int], int]:
    import pyspiel

    from cardplay.rl import openspiel

    openspiel.register()

    def run(game: Game, deals: int, seed: int) -> int:
        params: dict[str, Any] = {"players": game.players} if "players" in \
            game.options_dict() else {}
        g = pyspiel.load_game(openspiel.game_name(game.name), params)
        rng = random.Random(seed)
        moves = 0
        for _ in range(deals):
            state = g.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(actions, probs)[0])
                    continue
                if observe:
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        return moves

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100, help="deals per run (default 100)")
    ap.add_argument("--runs", type=int, default=3, help="runs per method (default 3)")
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--skip-openspiel", action="store_true")
    args = ap.parse_args()
    methods: dict[str, Callable[[Game, int, int], int]] = {
        "fast": fast, "api": api, "pettingzoo": _pettingzoo(False),
        "pz+wrap": _pettingzoo(True), "bots": bots, "gym": gym}
    if not args.skip_openspiel:
        methods["openspiel"] = _openspiel(False)
        methods["os+obs"] = _openspiel(True)
    names = args.game or cardplay.games()
    print(f"random deals per second (and moves per second), median of {args.runs} runs of "
          f"{args.deals} deals")
    print(f"{'game':15s}" + "".join(f"{m:>17s}" for m in methods))
    ratios: dict[str, list[tuple[str, float, float]]] = {}
    for name in names:
        game = cardplay.load(name)
        for m in methods.values():  # warm the caches (Twenty's tables, observers)
            m(game, 2, 0)
        times: dict[str, list[float]] = {m: [] for m in methods}
        moves: dict[str, int] = dict.fromkeys(methods, 0)
        for r in range(args.runs):
            for k, (m, fn) in enumerate(methods.items()):
                # distinct deals per method and run: no method meets a position whose legal
                # moves another one left in a game's caches
                t = time.perf_counter()
                moves[m] += fn(game, args.deals, 1_000_000 * k + 10_000 * r + 1)
                times[m].append(time.perf_counter() - t)
        deal_rate = {m: args.deals / statistics.median(ts) for m, ts in times.items()}
        move_rate = {m: moves[m] / sum(ts) for m, ts in times.items()}
        print(f"{name:15s}" + "".join(f"{deal_rate[m]:7.0f} ({move_rate[m]:7.0f})"
                                      for m in methods), flush=True)
        for m in methods:
            if m not in ("fast", "api"):
                ratios.setdefault(m, []).append((name, move_rate["fast"] / move_rate[m],
                                                 move_rate["api"] / move_rate[m]))
    print("\nadapter cost per move, x the bare engine's fast path / x its public API (random "
          "deals differ in length, so the ratios are taken per move):")
    for m, rows in ratios.items():
        print(f"{m:11s} " + "  ".join(f"{n} {a:.1f}/{b:.1f}" for n, a, b in rows))


if __name__ == "__main__":
    main()
