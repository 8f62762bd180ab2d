"""Bots: the protocol, levels by name, and the bots written once over View + sample_deal.

A bot is any object with ``choose(view) -> Move``; it is only called when ``view.to_move`` is its
seat, and it sees nothing but that view.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Protocol

from ..engine import Game, Move, View

__all__ = ["LEVELS", "Bot", "HybridBot", "RandomBot", "load"]


class Bot(Protocol):
    """The bot protocol."""

    def choose(self, view: View) -> Move: ...


from .random import RandomBot  # noqa: E402

LEVELS = ("random", "heuristic", "fast", "strong")

# Search budgets per level: iterations (reproducible) capped by seconds per move (a safety net
# on slow machines; when the cap binds, the move depends on the machine's speed).
SEARCH_BUDGETS: dict[str, tuple[int, float | None]] = {"fast": (120, 0.045), "strong": (1500, 0.9)}

# Sixty-Six's fast level: ISMCTS iterations per phase-1 lead (see _pimc); seconds cap 0.5.
FAST_SIXTY_SIX_LEAD_ITERATIONS = 600

# Which searcher plays `fast` and `strong` in each game, picked by measurement against the
# heuristic (arena deal share): "rollout" is PolicyRolloutBot over the game's heuristic,
# "ismcts" ISMCTS with random rollouts (plus the exact endgame where a game has one), "pimc"
# the two-player trick games' PIMC bots (see _pimc), "lookahead" below. A game missing here
# uses "ismcts".
SEARCHERS: dict[str, dict[str, str]] = {
    "fast": {"sixty-six": "pimc", "macao": "rollout", "banchok": "rollout", "twenty": "rollout",
             "chukhny": "rollout", "two-ten-jack": "lookahead", "maltese-twenty": "lookahead"},
    "strong": {"sixty-six": "pimc", "macao": "rollout", "banchok": "rollout",
               "twenty": "rollout", "chukhny": "rollout", "two-ten-jack": "lookahead",
               "maltese-twenty": "lookahead"},
}
# "lookahead": Maltese Twenty's heuristic is itself a small PIMC search (opponent hands drawn
# from the unseen cards, a negamax look-ahead in each, exact once the stock is empty); these
# levels run it with more (samples, plies). Measured against the heuristic's (16, 4): (48, 6)
# 0.596 [0.561, 0.629] over 400 duplicate deals, median 1.2 ms; (128, 10) 0.598 [0.549, 0.644]
# over 200, median 2.8 ms, p95 340 ms; policy rollouts over the heuristic, which the levels
# used before, 0.518 (fast, 150 deals) and 0.471 (strong, 60). With the levels' own seeds
# (`cardplay arena maltese-twenty LEVEL heuristic`): fast 0.554 [0.520, 0.588] (400 deals,
# seed 71), strong 0.570 [0.521, 0.618] (200 deals, seed 72; median 2.5 ms, max 1.1 s).
LOOKAHEAD_BUDGETS: dict[str, tuple[int, int]] = {"fast": (48, 6), "strong": (128, 10)}
# Two-Ten-Jack's heuristic judges each lead over sampled opponent hands (24 by default) and plays
# the stockless endgame exactly; "lookahead" runs it with more sampled hands. Measured against
# the default: 96 hands 0.515 [0.502, 0.527] over 3,000 duplicate deals, 256 hands 0.524
# [0.506, 0.542] over 1,500 (mean 3.9 ms per move), 1,024 hands 0.504 [0.482, 0.525] over
# 1,000: a small edge that stops growing past a hundred or so hands. The level on a fresh seed
# (`cardplay arena two-ten-jack fast heuristic --deals 3000 --seed 78`): 0.507 [0.494, 0.520],
# not clear of even, nor over 10,000 deals (seed 80: 0.505 [0.498, 0.512], though its hand
# points per deal, 2.627 +- 0.085 of the 5 a hand shares out, are); PIMC, the level before,
# scored 0.497 [0.440, 0.553] over 150 deals.
# Strong plays the same: its PIMC bot (12 worlds, 3 tricks deep) scored below an even share,
# 0.472 [0.432, 0.512] over 300 deals (seed 79) and 0.445 [0.378, 0.514] over 100 (seed 5), and
# more hands than 256 gained nothing.
TWO_TEN_JACK_LOOKAHEAD_SAMPLES = {"fast": 256, "strong": 256}

# PolicyRolloutBot budgets per level and game: the most policy decisions simulated per move (the
# reproducible budget; whole worlds only, at most ROLLOUT_MAX_WORLDS) and the most candidate
# moves compared. The seconds of SEARCH_BUDGETS cap it as a safety net. A heuristic decision
# costs 0.1-2 ms depending on the game, hence the different numbers. Forced moves cost nothing
# and the looks below stop easy decisions early, so the median move stays well under the
# budget's worst case (in Chukhny most moves are forced, hence its larger budget). The entries of
# the trick games and Maltese Twenty serve only when SEARCHERS is switched back to "rollout".
# Macao's fast budget was 400 decisions: its median move then sat at the 45 ms cap (51 ms wall on
# a loaded machine) for the same share against the heuristic (0.325 against 0.327 at 100, 100
# deals, seed 73).
ROLLOUT_BUDGETS: dict[str, dict[str, tuple[int, int]]] = {
    "fast": {"macao": (100, 3), "banchok": (100, 3), "twenty": (300, 6), "chukhny": (500, 6),
             "two-ten-jack": (60, 6), "maltese-twenty": (160, 6), "sixty-six": (20, 6)},
    "strong": {"macao": (4000, 3), "banchok": (2000, 3), "twenty": (3000, 6),
               "chukhny": (5000, 6), "two-ten-jack": (1200, 6), "maltese-twenty": (1600, 6),
               "sixty-six": (400, 6)},
}
ROLLOUT_MAX_WORLDS = {"fast": 64, "strong": 256}
# Worlds between two looks at the paired statistics: the search stops as soon as one candidate
# clearly beats the heuristic's move or none can, so easy decisions cost a few worlds and the
# budget goes to the close ones (see PolicyRolloutBot).
ROLLOUT_LOOK_EVERY = 4
# Heuristics that read the view's history; the others get cheaper views in rollouts.
_HISTORY_READERS = frozenset({"two-ten-jack", "sixty-six"})


class HybridBot:
    """Searches until the game's endgame, where an exact player takes over.

    ``endgame(view)`` says when every card is known or deducible (Two-Ten-Jack once the stock is
    empty); from then on ``exact`` plays, since sampling worlds adds nothing.
    """

    def __init__(self, search: Bot, exact: Bot, endgame: Callable[[View], bool]) -> None:
        self.search, self.exact, self.endgame = search, exact, endgame

    def choose(self, view: View) -> Move:
        return (self.exact if self.endgame(view) else self.search).choose(view)


# Games whose heuristic bot plays exactly once the stock is empty (both hands are then known).
_EXACT_ENDGAMES: dict[str, Callable[[View], bool]] = {
    "two-ten-jack": lambda view: view.public["stock"] == 0,
    "maltese-twenty": lambda view: view.public["stock_size"] == 0,
}


def _heuristic(game: Game, seed: int | None) -> Bot:
    module = type(game).__module__.rsplit(".", 1)[-1]
    try:
        mod = importlib.import_module(f"{__name__}.heuristics.{module}")
    except ModuleNotFoundError:
        raise ValueError(f"no heuristic bot for {game.name} yet; levels: random") from None
    bot: Bot = mod.HeuristicBot(game, seed=seed)
    return bot


def _pimc(level: str, game: Game, seed: int | None) -> Bot:
    """The two-player trick games' PIMC bots (sampled worlds solved by alpha-beta)."""
    if game.name == "sixty-six":
        from .sixty_six_solver import PIMCBot

        # Phase 1 by ISMCTS; phase 2 solved exactly in sampled worlds, every world enumerated
        # after a close when there are few. Measured against the heuristic over 200 duplicate
        # deals, ISMCTS in phase 1 beat a two-trick alpha-beta in every world (0.630 against
        # 0.520 of deals), so both levels use it.
        iterations, seconds = SEARCH_BUDGETS[level]
        if level == "strong":
            return PIMCBot(game, seed=seed, iterations=iterations, seconds=seconds, worlds=12,
                           max_nodes=10_000, move_nodes=60_000, closed_worlds=16,
                           enumerate_limit=60)
        # fast: the search goes to phase-1 leads (and the exchange, marriages and closing that
        # come with them), where the heuristic is weakest; the heuristic answers leads. Measured
        # against the heuristic (600 duplicate deals each): 120 iterations on every phase-1
        # move 0.504, 300 on leads 0.527, 600 on leads 0.543 [0.514, 0.571] and, as this
        # level on a fresh seed, 0.548 [0.520, 0.576]. Leads are under half the moves, so the
        # median move is an answer or a phase-2 move (1.3 ms); a lead takes 100-300 ms.
        return PIMCBot(game, seed=seed, iterations=FAST_SIXTY_SIX_LEAD_ITERATIONS,
                       seconds=0.5, worlds=2, max_nodes=8_000, move_nodes=16_000,
                       closed_worlds=4, enumerate_limit=6, follower=_heuristic(game, seed))
    if game.name == "two-ten-jack":
        from .two_ten_jack_solver import Evaluation
        from .two_ten_jack_solver import PIMCBot as TwoTenJackPIMC

        # Sampled worlds searched without their (unknowable) stock order; exact once the stock
        # is empty.
        if level == "strong":
            return TwoTenJackPIMC(game, seed=seed, worlds=12, depth=3, draws=False, endgame=2,
                                  max_nodes=20_000, evaluation=Evaluation(keep_scale=1.5))
        return TwoTenJackPIMC(game, seed=seed, worlds=8, depth=2, draws=False)
    raise ValueError(f"no PIMC bot for {game.name}")


def _lookahead(level: str, game: Game, seed: int | None) -> Bot:
    """The heuristic's own sampled look-ahead with a larger budget (Maltese Twenty,
    Two-Ten-Jack)."""
    if game.name == "maltese-twenty":
        from .heuristics.maltese_twenty import HeuristicBot

        samples, plies = LOOKAHEAD_BUDGETS[level]
        return HeuristicBot(game, seed=seed, samples=samples, depth=plies)
    if game.name == "two-ten-jack":
        from .heuristics.two_ten_jack import HeuristicBot as TwoTenJackHeuristic

        return TwoTenJackHeuristic(game, seed=seed, samples=TWO_TEN_JACK_LOOKAHEAD_SAMPLES[level])
    raise ValueError(f"no look-ahead bot for {game.name}")


def load(level: str, game: Game, seed: int | None = None) -> Bot:
    """A bot of a named level for a game.

    ``random``: uniform legal moves; ``heuristic``: per-game rules of thumb; ``fast`` and
    ``strong``: search with a small and a large budget, by the per-game table ``SEARCHERS``:
    policy rollouts over the heuristic (``bots.rollout``), Sixty-Six PIMC, or information-set
    MCTS handing over to exact play where a game's endgame has perfect information. Budgets are
    counted in iterations, worlds or simulated decisions (reproducible for a seed); the seconds
    of ``SEARCH_BUDGETS`` only cap them as a safety net.
    """
    if level == "random":
        return RandomBot(game, seed=seed)
    if level in SEARCH_BUDGETS:
        from .ismcts import ISMCTSBot

        iterations, seconds = SEARCH_BUDGETS[level]
        searcher = SEARCHERS[level].get(game.name, "ismcts")
        if searcher == "rollout":
            from .rollout import PolicyRolloutBot

            decisions, candidates = ROLLOUT_BUDGETS[level][game.name]
            return PolicyRolloutBot(game, _heuristic, seed=seed,
                                    worlds=ROLLOUT_MAX_WORLDS[level], decisions=decisions,
                                    seconds=seconds, max_candidates=candidates,
                                    look_every=ROLLOUT_LOOK_EVERY,
                                    light_views=game.name not in _HISTORY_READERS)
        if searcher == "pimc":
            return _pimc(level, game, seed)
        if searcher == "lookahead":
            return _lookahead(level, game, seed)
        search = ISMCTSBot(game, seed=seed, iterations=iterations, seconds=seconds)
        if game.name in _EXACT_ENDGAMES:
            return HybridBot(search, _heuristic(game, seed), _EXACT_ENDGAMES[game.name])
        return search
    if level == "heuristic":
        return _heuristic(game, seed)
    raise ValueError(f"unknown bot level {level!r}; valid levels: {', '.join(LEVELS)}")
