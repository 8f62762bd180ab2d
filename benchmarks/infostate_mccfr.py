"""Outcome-sampling MCCFR on Sixty-Six with the two information-state strings: iterations per
second and the memory of the solver's table, JSON views (the default) against compact keys
(:mod:`cardplay.rl.infostate`).

A short bounded run: the same number of iterations with the same seed for each string, one
after the other in this process. Memory is what ``tracemalloc`` counts as allocated and still
held after the iterations (the solver's table of information states: keys, regrets, average
policies), and its peak; speed is the process's CPU time. Figures only; nothing fails.

    python benchmarks/infostate_mccfr.py [--iterations N] [--game NAME]
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc

import numpy as np
import pyspiel
from open_spiel.python.algorithms import outcome_sampling_mccfr

from cardplay.rl import openspiel


def measure(game_name: str, infostate: str, iterations: int, seed: int) -> dict[str, float]:
    game = pyspiel.load_game(game_name, {"infostate": infostate})
    np.random.seed(seed)  # the solver samples with numpy's global generator
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    t0 = time.process_time()
    for _ in range(iterations):
        solver.iteration()
    seconds = time.process_time() - t0
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    table = solver._infostates
    keys = list(table)
    return {"iterations_per_s": iterations / seconds, "infostates": len(table),
            "mean_key_chars": sum(map(len, keys)) / max(1, len(keys)),
            "held_mib": (held - base) / 2 ** 20, "peak_mib": (peak - base) / 2 ** 20,
            "bytes_per_infostate": (held - base) / max(1, len(table))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--game", default="sixty-six")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    openspiel.register()
    name = openspiel.game_name(args.game)
    print(f"{name}: outcome-sampling MCCFR, {args.iterations} iterations, seed {args.seed}")
    print(f"{'strings':8} {'it/s':>8} {'infostates':>11} {'key chars':>10} {'held MiB':>9} "
          f"{'peak MiB':>9} {'B/infostate':>12}")
    for mode in ("json", "compact"):
        r = measure(name, mode, args.iterations, args.seed)
        print(f"{mode:8} {r['iterations_per_s']:8.1f} {r['infostates']:11.0f} "
              f"{r['mean_key_chars']:10.1f} {r['held_mib']:9.2f} {r['peak_mib']:9.2f} "
              f"{r['bytes_per_infostate']:12.0f}")


if __name__ == "__main__":
    main()
