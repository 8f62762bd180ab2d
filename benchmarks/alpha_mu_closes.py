"""How much strategy fusion there is to remove after a close: at every close LEVEL makes against
OPPONENT, the worlds it must play (each hand the opponent may hold) are counted three ways:

    python benchmarks/alpha_mu_closes.py --level strong --opponent heuristic --deals 40 \\
        --seed 7 --options '{"preset": "schnapsen"}'

* won seeing the cards: worlds where the closer wins with best play knowing the opponent's hand
  (what PIMC's per-world solves credit a close with);
* won by one strategy: the most worlds one strategy of the closer wins, its cards the same in
  worlds it cannot tell apart (alpha-mu searched to the end of the deal);
* and whether the game was then actually won.

Prints each close and the means over all of them. The gap between the first two is the strategy
fusion in the worlds' values that alpha-mu removes and PIMC keeps.
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

import cardplay
from cardplay.bots import LEVELS, load
from cardplay.bots.sixty_six_alphamu import AlphaMu
from cardplay.bots.sixty_six_solver import _EXACT, PIMCBot, _Search
from cardplay.builtin.sixty_six import SixtySixDeal


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--level", default="strong", choices=LEVELS)
    ap.add_argument("--opponent", default="heuristic", choices=LEVELS)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--options", default="{}", help="the game's options as JSON")
    args = ap.parse_args()
    game = cardplay.load("sixty-six", **json.loads(args.options))
    rows: list[tuple[int, int, int, bool]] = []
    for g in range(args.deals):
        for seat in (0, 1):
            deal = game.deal(seed=args.seed * 1000 + g)
            bots: list[Any] = [load(args.level, game, seed=g), load(args.opponent, game, seed=g)]
            if seat:
                bots.reverse()
            counted: tuple[int, int, int] | None = None
            while deal.to_move is not None:
                mover = deal.to_move
                move = bots[mover].choose(deal.view(mover))
                deal.play(move, seat=mover)
                if mover == seat and move.text == "close":
                    counted = _count(game, deal.view(seat), seat)
            if counted is not None:
                result = deal.result
                assert result is not None
                rows.append((*counted, result[seat] > result[1 - seat]))
                print(f"deal {g}, seat {seat}: {counted[0]} worlds, won seeing the cards "
                      f"{counted[1]}, by one strategy {counted[2]}; game won: {rows[-1][3]}",
                      flush=True)
    if not rows:
        print("no closes")
        return
    print(f"{len(rows)} closes in {2 * args.deals} games: mean share of worlds won seeing the "
          f"cards {statistics.mean(r[1] / r[0] for r in rows):.3f}, by one strategy "
          f"{statistics.mean(r[2] / r[0] for r in rows):.3f}; games won "
          f"{statistics.mean(r[3] for r in rows):.3f}")


def _count(game: cardplay.Game, view: Any, seat: int) -> tuple[int, int, int]:
    worlds = [w for w, _ in PIMCBot(game, seed=0, enumerate_limit=200, closed_worlds=48)
              ._worlds(view)]
    seeing = sum(_Search(seat, 10**6).value(w, -1, 1, _EXACT) > 0 for w in worlds)
    first = worlds[0]
    assert isinstance(first, SixtySixDeal)
    scores = AlphaMu(worlds, seat, 10**8).scores(first.legal_codes(), moves=6)
    return len(worlds), seeing, max(scores.values())


if __name__ == "__main__":
    main()
