"""Issue 33's Sixty-Six expert candidate against strong, both without the seconds cap, on
duplicate deals: ``python benchmarks/expert_vs_strong.py SEED DEALS`` prints the candidate's
running deal share with a 95% interval over deals."""

from __future__ import annotations

import dataclasses
import math
import sys

import cardplay
from cardplay.arena import play_deal
from cardplay.bots import build, searcher_of
from cardplay.declaration import Searcher

CANDIDATE = "cardplay.bots.sixty_six_expert:expert_bot"


def main(seed: int, deals: int) -> None:
    game = cardplay.load("sixty-six")
    st = searcher_of("strong", game)
    strong = dataclasses.replace(st, settings={**st.settings, "seconds": None})
    expert = Searcher("factory", {**st.settings, "seconds": None, "inference": 64},
                      factory=CANDIDATE)
    shares: list[float] = []
    for i in range(deals):
        deal_seed = seed * 1000 + i
        total = 0.0
        for ex in (0, 1):
            bots = [build(expert if s == ex else strong, game, deal_seed * 2 + s) for s in (0, 1)]
            r = play_deal(game, deal_seed, bots)
            total += 1.0 if r[ex] > r[1 - ex] else 0.5 if r[ex] == r[1 - ex] else 0.0
        shares.append(total / 2)
        n = len(shares)
        m = sum(shares) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in shares) / max(1, n - 1))
        print(f"{n} deals: expert share {m:.3f} +- {1.96 * sd / math.sqrt(n):.3f}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
