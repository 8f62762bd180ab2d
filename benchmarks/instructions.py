"""Instructions per unit of engine work, counted by valgrind: figures that do not move with load.

Timings on a shared 2-core machine move by 10-40% from one run to the next; the number of
instructions the same program executes does not (valgrind counts them, whatever else runs). For
every game and preset of ``playouts.py`` and every kind of work below, this runs the work twice
under ``valgrind --tool=cachegrind`` (N and 4N units, hash seed fixed) and prints
(I(4N) - I(N)) / 3N, the instructions of one unit once imports and warmed caches cancel out:

    fast    one random deal through the fast path (legal_codes + apply_code)
    api     one random deal through the public API (legal_moves + play)
    views   one random deal where the mover gets a View each turn and picks from its moves
    copy    deal.copy() of each of 40 positions taken through random deals
    sample  game.sample_deal(view, rng) on each of those positions' views, seen for the first time

``--against DIR`` counts the same work on another source tree too (say the one before a change:
``git archive REV src | tar -x -C /tmp/before``, then ``--against /tmp/before/src``) and prints
how many times fewer instructions this tree needs. Needs valgrind (Debian: ``apt-get install
valgrind``); figures only, nothing passes or fails. Slow: valgrind runs Python 30-50x slower.

    python benchmarks/instructions.py [--kinds fast,api] [--game NAME] [--units N] [--against DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
KINDS = ("fast", "api", "views", "copy", "sample")
POSITIONS = 40
# Units per count by kind: a long game's deal (Twenty with 4 players, the banking games) and a
# pass over 40 positions are already many units' worth of work.
UNITS = {"fast": 10, "api": 10, "views": 6, "copy": 3, "sample": 3}
HEAVY = ("macao", "chukhny", "banchok")


def work(kind: str, config: int, units: int) -> None:
    """Run ``units`` units of ``kind`` on ``playouts.CONFIGS[config]`` (in the counted process)."""
    from playouts import CONFIGS, fast_path, positions, public_api

    import cardplay

    name, _label, options = CONFIGS[config]
    game = cardplay.load(name, **options)
    game.deal(seed=0)  # the game's tables, built on first use, are not the work
    if kind in ("fast", "api"):  # the very loops make bench times
        (fast_path if kind == "fast" else public_api)(game, units, 0)
        return
    deals = positions(game, POSITIONS, 5000) if kind in ("copy", "sample") else []
    rng = random.Random(1)
    for i in range(units):
        if kind == "views":
            d = game.deal(seed=i)
            while d.to_move is not None:
                d.play(rng.choice(d.view(d.to_move).legal_moves))
        elif kind == "copy":
            for d in deals:
                d.copy()
        else:
            for d in deals:
                game.sample_deal(d.view(d.to_move or 0), rng)


def instructions_of(args: list[str], **env: str) -> int:
    """Instructions of a whole Python process running ``args`` (valgrind; hash seed fixed and
    ``env`` added to this process's environment)."""
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, *args],
        env=dict(os.environ, PYTHONHASHSEED="0", **env), capture_output=True, text=True,
        check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no count:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def count(src: Path, kind: str, config: int, units: int) -> int:
    """Instructions of a whole process doing ``units`` units of work on the tree ``src``."""
    return instructions_of([__file__, "--work", kind, str(config), str(units)],
                           PYTHONPATH=f"{src}{os.pathsep}{HERE}")


def per_unit(src: Path, kind: str, config: int, units: int) -> int:
    return (count(src, kind, config, 4 * units) - count(src, kind, config, units)) // (3 * units)


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--work":
        work(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kinds", default=",".join(KINDS),
                    help="comma-separated, of " + ", ".join(KINDS))
    ap.add_argument("--game", default=None)
    ap.add_argument("--units", type=int, default=None, help="units per count (default by kind)")
    ap.add_argument("--against", type=Path, default=None, help="another tree's src folder")
    args = ap.parse_args()
    kinds = args.kinds.split(",")
    if any(k not in KINDS for k in kinds):
        ap.error(f"kinds are {', '.join(KINDS)}")
    sys.path.insert(0, str(HERE))
    from playouts import CONFIGS

    print(f"{'game':<16}{'config':<15}{'work':<8}{'instructions':>14}", end="")
    print(f"{'against':>14}{'fewer':>8}" if args.against else "")
    for i, (name, label, _options) in enumerate(CONFIGS):
        if args.game and args.game != name:
            continue
        for kind in kinds:
            units = args.units or max(2, UNITS[kind] // (2 if name in HEAVY else 1))
            ours = per_unit(SRC, kind, i, units)
            line = f"{name:<16}{label:<15}{kind:<8}{ours:>14,}"
            if args.against:
                theirs = per_unit(args.against, kind, i, units)
                line += f"{theirs:>14,}{theirs / ours:>7.2f}x"
            print(line, flush=True)


if __name__ == "__main__":
    main()
