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
  ``os+obs``: plus the observation tensor of the player to move at every decision;
* ``floor`` and ``floor+obs``: the same loop through the *pyspiel floor*, a Python game
  registered with pyspiel that has the game's shape and does nothing else: as many players, the
  same chance nodes (a dealer node, then one per card with as many outcomes as our game has on
  average: 52, 51, ... with one deck), as many decisions per deal and legal actions per decision
  as our game's random deals on average (trivial actions: ``0 .. k-1``), and an observer that
  writes one entry of a tensor of our size. It is what pyspiel's own machinery (the calls
  between C++ and Python, the conversions, the observer's round trip) costs a game of that
  shape: the part of the OpenSpiel figures that no Python game can go below.

Times are the process's CPU time (``time.process_time``), so that other load on the machine
counts less (it still slows a shared core down). Figures only: nothing here passes or fails.
Deals per second are printed with moves per second;
random deals differ in length from method to method, so the cost ratios (the adapter's time over
the bare engine's fast path and public API) are taken per move. The public API is the bare engine
a user calls, so it is the baseline of the adapters' "at most 3 times the engine" target; the
fast path (what the adapters themselves drive) is the harder one. The adapters' times include
what any user loop pays: PettingZoo's steps of finished agents at the end of a deal, Gymnasium's
opponents, OpenSpiel's chance nodes (one per card dealt) and its probe of the observer (pyspiel
sets the observer from a fresh state for seat 0 before every ``observation_tensor`` call).

    python benchmarks/adapters.py [--deals N] [--runs R] [--game NAME] [--skip-openspiel]

``--vector`` instead compares decisions per second (every seat's, each with its observation and
mask, a random legal action) in one game (default Sixty-Six): the single PettingZoo env, the
single Gymnasium env (its random opponents' moves counted too), ``cardplay.rl.vector.VectorEnv``
at several batch sizes, OpenSpiel's native (C++) ``hearts`` through pyspiel with its
information-state tensor at each decision (it has no observation tensor), and RLCard's ``uno``
(the state it returns at each step holds the observation and the legal actions) when RLCard is
importable (it is no dependency).

    python benchmarks/adapters.py --vector [--seconds S] [--game NAME]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import cardplay
from cardplay.bots import RandomBot
from cardplay.engine import Game

try:
    import pyspiel
except ImportError:  # the OpenSpiel columns need the "rl" extra
    pyspiel = None


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


def _spiel_deals(g: Any, deals: int, seed: int, observe: bool) -> int:
    """The OpenSpiel loop of ``openspiel`` and ``os+obs`` (and of the floor): random deals of a
    loaded pyspiel game, chance nodes included; the number of decisions played."""
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


def _openspiel(observe: bool) -> Callable[[Game, int, int], int]:
    import pyspiel

    from cardplay.rl import openspiel

    openspiel.register()

    def run(game: Game, deals: int, seed: int) -> int:
        params: dict[str, Any] = {"players": game.players} if "players" in \
            game.options_dict() else {}
        g = pyspiel.load_game(openspiel.game_name(game.name), params)
        return _spiel_deals(g, deals, seed, observe)

    return run


# ---- the pyspiel floor: what pyspiel's own machinery costs a Python game of the same shape


@dataclasses.dataclass(frozen=True)
class FloorShape:
    """A cardplay game's shape as the OpenSpiel loop meets it, on average over random deals."""

    players: int
    outcomes: tuple[int, ...]  # chance outcomes at each chance node (the dealer's, then cards)
    moves: int                 # decisions per deal
    legal: int                 # legal actions per decision
    tensor: int                # observation tensor size


def floor_shape(game: Game, deals: int = 200, seed: int = 7) -> FloorShape:
    """The shape of our OpenSpiel game of ``game``: a dealer node (``players`` outcomes), one
    node per card of the deck (the distinct cards left: 52, 51, ... with one deck), the mean
    number of decisions of a random deal and of legal actions at a decision."""
    from cardplay.rl.observations import encoder

    rng = random.Random(seed)
    deck = game._deck_cards()
    distinct = [0.0] * len(deck)
    for _ in range(deals):
        order = deck[:]
        rng.shuffle(order)
        for i in range(len(order)):
            distinct[i] += len(set(order[i:]))
    moves = choices = 0
    for i in range(deals):
        d = game.deal(seed=seed + i, dealer=i % game.players)
        while d._turn is not None:
            codes = d.legal_codes()
            choices += len(codes)
            d.apply_code(rng.choice(codes))
        moves += len(d.history)
    return FloorShape(game.players, (game.players, *(round(x / deals) for x in distinct)),
                      round(moves / deals), max(1, round(choices / moves)),
                      encoder(game).size)


if pyspiel is not None:
    _PLAYER_CHANCE = int(pyspiel.PlayerId.CHANCE)
    _PLAYER_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

    class FloorGame(pyspiel.Game):
        """A game of a given shape that does nothing else: trivial legal actions (the same
        number), uniform chance nodes (the same numbers of outcomes), an observer that writes
        one entry of a tensor of our size. One subclass per shape, with ``shape`` and
        ``game_type`` set."""

        shape: FloorShape
        game_type: Any

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            sh = self.shape
            self.chance = len(sh.outcomes)
            self.total = self.chance + sh.moves
            self.legal = list(range(sh.legal))
            self.chance_lists = [[(a, 1.0 / k) for a in range(k)] for k in sh.outcomes]
            super().__init__(self.game_type, pyspiel.GameInfo(
                num_distinct_actions=sh.legal, max_chance_outcomes=max(sh.outcomes),
                num_players=sh.players, min_utility=-1.0, max_utility=1.0, utility_sum=None,
                max_game_length=sh.moves), params or {})

        def new_initial_state(self) -> FloorState:
            return FloorState(self)

        def make_py_observer(self, iig_obs_type: Any = None,
                             params: dict[str, Any] | None = None) -> FloorObserver:
            return FloorObserver(self.shape.tensor)

    class FloorState(pyspiel.State):
        def __init__(self, game: FloorGame) -> None:
            super().__init__(game)
            self.floor = game
            self.step = 0

        def current_player(self) -> int:
            g = self.floor
            i = self.step
            if i < g.chance:
                return _PLAYER_CHANCE
            if i >= g.total:
                return _PLAYER_TERMINAL
            return (i - g.chance) % g.shape.players

        def is_terminal(self) -> bool:
            return self.step >= self.floor.total

        def _legal_actions(self, player: int) -> list[int]:
            return self.floor.legal

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return self.floor.chance_lists[self.step]

        def _apply_action(self, action: int) -> None:
            self.step += 1

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def returns(self) -> list[float]:
            return [0.0] * self.floor.shape.players

        def __str__(self) -> str:
            return str(self.step)

    class FloorObserver:
        def __init__(self, size: int) -> None:
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state: FloorState, player: int) -> None:
            self.tensor[0] = state.step

        def string_from(self, state: FloorState, player: int) -> str:
            return str(state.step)


_FLOOR_CLASSES: dict[str, type[Any]] = {}  # kept: pyspiel holds the creators until exit


def floor_name(game: Game) -> str:
    """Register the floor game of ``game`` (once) and return its pyspiel name."""
    name = f"cardplay_floor_{game.name.replace('-', '_')}_{game.players}p"
    if name not in _FLOOR_CLASSES:
        shape = floor_shape(game)
        gtype = pyspiel.GameType(
            short_name=name, long_name=name,
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=shape.players, min_num_players=shape.players,
            provides_information_state_string=False, provides_information_state_tensor=False,
            provides_observation_string=True, provides_observation_tensor=True,
            parameter_specification={})
        cls = type(f"FloorGame_{name}", (FloorGame,), {"shape": shape, "game_type": gtype})
        _FLOOR_CLASSES[name] = cls
        pyspiel.register_game(gtype, cls)
    return name


def _floor(observe: bool) -> Callable[[Game, int, int], int]:
    def run(game: Game, deals: int, seed: int) -> int:
        return _spiel_deals(pyspiel.load_game(floor_name(game)), deals, seed, observe)

    return run


# ---- --vector: decisions per second, the vectorised environment against the single ones


def _timed(fn: Callable[[], int], seconds: float) -> float:
    """Decisions per CPU second: ``fn`` (one batch of work, returning its decisions) repeated
    for at least ``seconds``."""
    done, t0 = 0, time.process_time()
    while True:
        done += fn()
        spent = time.process_time() - t0
        if spent >= seconds:
            return done / spent


def vector_rates(game: Game, seconds: float) -> dict[str, float]:
    """Decisions per second through each single and vectorised environment of ``game``."""
    from cardplay.rl.vector import VectorEnv

    rates: dict[str, float] = {}
    seed = iter(range(1, 10**9))
    pz = _pettingzoo(False)
    rates["pettingzoo"] = _timed(lambda: pz(game, 5, next(seed)), seconds)
    rates["gym (+bots)"] = _timed(lambda: gym(game, 5, next(seed)), seconds)
    for n in (1, 16, 64, 256):
        venv = VectorEnv(game, num_envs=n)
        venv.reset(seed=0)
        rng = np.random.default_rng(0)

        def steps(venv: VectorEnv = venv, rng: np.random.Generator = rng, n: int = n) -> int:
            for _ in range(10):
                venv.step(venv.sample(rng))
            return 10 * n

        rates[f"vector x{n}"] = _timed(steps, seconds)
    if pyspiel is not None:
        hearts = pyspiel.load_game("hearts")
        rng = random.Random(0)

        def spiel_hearts() -> int:
            moves = 0
            state = hearts.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(actions, probs)[0])
                    continue
                # hearts has no observation tensor: its information-state tensor instead
                state.information_state_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
            return moves

        rates["openspiel hearts (C++)"] = _timed(spiel_hearts, seconds)
    try:
        import rlcard
    except ImportError:
        rlcard = None
    if rlcard is not None:
        env = rlcard.make("uno", config={"seed": 0})
        rng = random.Random(0)

        def uno() -> int:
            state, _ = env.reset()
            moves = 0
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(rng.choice(legal))
                moves += 1
            return moves

        rates["rlcard uno"] = _timed(uno, seconds)
    return rates


def vector_main(game_name: str, seconds: float) -> None:
    game = cardplay.load(game_name)
    print(f"{game_name}: decisions per CPU second (observation + mask + a random legal action "
          f"each), {seconds:g} s per method")
    rates = vector_rates(game, seconds)
    base = rates["pettingzoo"]
    for name, rate in rates.items():
        print(f"  {name:24s} {rate:10.0f}/s  x{rate / base:.2f} of the single PettingZoo env")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vector", action="store_true",
                    help="compare the vectorised environment with the single ones instead")
    ap.add_argument("--seconds", type=float, default=3.0, help="--vector: CPU seconds a method")
    ap.add_argument("--deals", type=int, default=100, help="deals per run (default 100)")
    ap.add_argument("--runs", type=int, default=3, help="runs per method (default 3)")
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--skip-openspiel", action="store_true")
    args = ap.parse_args()
    if args.vector:
        vector_main((args.game or ["sixty-six"])[0], args.seconds)
        return
    methods: dict[str, Callable[[Game, int, int], int]] = {
        "fast": fast, "api": api, "pettingzoo": _pettingzoo(False),
        "pz+wrap": _pettingzoo(True), "bots": bots, "gym": gym}
    if not args.skip_openspiel:
        methods["openspiel"] = _openspiel(False)
        methods["floor"] = _floor(False)
        methods["os+obs"] = _openspiel(True)
        methods["floor+obs"] = _floor(True)
    names = args.game or cardplay.games()
    print(f"random deals per second (and moves per second), median of {args.runs} runs of "
          f"{args.deals} deals")
    print(f"{'game':15s}" + "".join(f"{m:>17s}" for m in methods))
    ratios: dict[str, list[tuple[str, float, float]]] = {}
    over_floor: dict[str, list[tuple[str, float]]] = {}
    for name in names:
        game = cardplay.load(name)
        for warm in methods.values():  # warm the caches (Twenty's tables, observers)
            warm(game, 2, 0)
        times: dict[str, list[float]] = {m: [] for m in methods}
        moves: dict[str, int] = dict.fromkeys(methods, 0)
        for r in range(args.runs):
            for k, (m, fn) in enumerate(methods.items()):
                # distinct deals per method and run: no method meets a position whose legal
                # moves another one left in a game's caches
                t = time.process_time()
                moves[m] += fn(game, args.deals, 1_000_000 * k + 10_000 * r + 1)
                times[m].append(time.process_time() - t)
        deal_rate = {m: args.deals / statistics.median(ts) for m, ts in times.items()}
        move_rate = {m: moves[m] / sum(ts) for m, ts in times.items()}
        print(f"{name:15s}" + "".join(f"{deal_rate[m]:7.0f} ({move_rate[m]:7.0f})"
                                      for m in methods), flush=True)
        for m in methods:
            if m not in ("fast", "api"):
                ratios.setdefault(m, []).append((name, move_rate["fast"] / move_rate[m],
                                                 move_rate["api"] / move_rate[m]))
        for ours, floor in (("openspiel", "floor"), ("os+obs", "floor+obs")):
            if ours in move_rate:
                over_floor.setdefault(ours, []).append(
                    (name, move_rate[floor] / move_rate[ours]))
    print("\nadapter cost per move, x the bare engine's fast path / x its public API (random "
          "deals differ in length, so the ratios are taken per move):")
    for m, rows in ratios.items():
        print(f"{m:11s} " + "  ".join(f"{n} {a:.1f}/{b:.1f}" for n, a, b in rows))
    if over_floor:
        print("\nOpenSpiel cost per move, x the pyspiel floor (a Python game of the same shape "
              "that does nothing else; the floor's own cost is in the rows above):")
        for m, pairs in over_floor.items():
            print(f"{m:11s} " + "  ".join(f"{n} {a:.1f}" for n, a in pairs))


if __name__ == "__main__":
    main()
