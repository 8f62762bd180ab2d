"""Our bot inside the reference platform: duplicate Schnapsen deals refereed by the VU engine.

The PyPI package ``schnapsen`` (VU Amsterdam) is the referee: every game runs in its engine, on its
rules, against its bots. Our bot enters it as one of its bots (:class:`CardplayBot`): it keeps a
shadow cardplay deal, loaded with ``VU_SCHNAPSEN_OPTIONS`` and dealt from the same deck order as
the VU game, replays every move of both players into it, and gives our bot only
``shadow.view(seat)``. At each of our decisions the adapter checks that the shadow agrees with the
VU game (hand, legal moves one-to-one, talon, trump card, scores, phase) and at the end that both
engines give the same winner and game points, so every game also cross-checks the rules.

Each deal is played twice with the seats swapped (the same deck, from the same seed); the report
gives the share of games won with a Wilson 95% interval, game points per game and the time per
move of each side. ``schnapsen`` is a benchmark-only dependency that cardplay never imports:

    pip install schnapsen
    python benchmarks/vs_schnapsen_match.py --bot strong --opponent rdeep16+ab --deals 2000 \\
        --workers 8 --out vu.json

Opponents: ``rdeep16+ab`` is its ``RdeepBot(16, 4)`` in phase 1 handing over to its
``AlphaBetaBot`` once the talon is empty (the way its own examples and tests pair them);
``rdeep64`` is ``RdeepBot(64, 8)`` throughout; ``rand`` (its ``RandBot``) is for quick checks.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

import cardplay
from cardplay.arena import wilson_interval
from cardplay.bots import LEVELS, build, searcher_of
from cardplay.bots import load as load_bot
from cardplay.builtin.sixty_six import VU_SCHNAPSEN_OPTIONS
from cardplay.declaration import Searcher
from cardplay.engine import Deal

try:
    from schnapsen.bots import AlphaBetaBot, RandBot, RdeepBot  # type: ignore[import-untyped,import-not-found,unused-ignore]
    from schnapsen.deck import Rank, Suit  # type: ignore[import-untyped,import-not-found,unused-ignore]
    from schnapsen.game import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
        Bot,
        GamePhase,
        SchnapsenGamePlayEngine,
    )
except ImportError:  # the module's help still prints; main() says what to install
    Bot = object  # type: ignore[misc,assignment,unused-ignore]

GAME = cardplay.load("sixty-six", **VU_SCHNAPSEN_OPTIONS)
OPPONENTS = ("rdeep16+ab", "rdeep64", "rand")
HAND = 5  # cards each; the VU deck order deals cards 0, 2, ..., 8 to its first leader


class RuleMismatch(AssertionError):
    """The two engines disagree: a rules difference our options do not reproduce."""


def card_text(card: Any) -> str:
    """A VU card in our notation (``TH``)."""
    rank = {Rank.ACE: "A", Rank.TEN: "T", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J"}
    suit = {Suit.SPADES: "S", Suit.HEARTS: "H", Suit.DIAMONDS: "D", Suit.CLUBS: "C"}
    return rank[card.rank] + suit[card.suit]


def move_text(move: Any, trump: Any) -> str:
    """A VU move in our notation: its marriage always leads the king (``KH=20``)."""
    if move.is_trump_exchange():
        return "exchange"
    if move.is_marriage():
        m = move.as_marriage()
        return f"{card_text(m.king_card)}={40 if m.suit is trump else 20}"
    return card_text(move.as_regular_move().card)


def shadow_deck(vu_order: list[Any]) -> list[str]:
    """Our deck order (RULES.md 4.3a) for a VU deck order.

    The VU engine deals cards 0..9 alternately, its first leader first (our non-dealer), and its
    talon is cards 10..19 drawn from the top with the trump card last; our order puts the trump
    card right after the hands and the talon after it.
    """
    texts = [card_text(c) for c in vu_order]
    return [*texts[:2 * HAND], texts[-1], *texts[2 * HAND:-1]]


def vu_deck(seed: int) -> list[Any]:
    """The deck order ``SchnapsenGamePlayEngine.play_game`` deals from ``random.Random(seed)``."""
    gen = SchnapsenGamePlayEngine().deck_generator
    return list(gen.shuffle_deck(gen.get_initial_deck(), random.Random(seed)).get_cards())


class CardplayBot(Bot):
    """A cardplay bot as a VU bot. ``seat`` 0 is the VU game's first leader, 1 its follower."""

    def __init__(self, bot: Any, seat: int, deck: list[str]) -> None:
        super().__init__("cardplay")
        self.bot, self.seat = bot, seat
        self.shadow: Deal = GAME.deal(deck=deck, dealer=1)
        self.replayed = 0            # tricks of the VU history already played into the shadow
        self.partial = ""            # the current trick's lead, played before its trick is done
        self.decisions = 0
        self.seconds = 0.0
        self.cpu_ms: list[float] = []  # CPU time of each of our decisions
        self.ended = False

    # ---- replaying the VU game into the shadow

    def _play(self, text: str) -> None:
        try:
            self.shadow.play(text)
        except ValueError as e:
            raise RuleMismatch(f"the VU game played {text!r}, which our rules refuse: {e}") from e

    def _catch_up(self, perspective: Any, leader_move: Any) -> None:
        trump = perspective.get_trump_suit()
        tricks = [t for _, t in perspective.get_game_history() if t is not None]
        for trick in tricks[self.replayed:]:
            if trick.is_trump_exchange():
                self._play("exchange")
                continue
            lead = move_text(trick.leader_move, trump)
            if self.partial:
                if lead != self.partial:
                    raise RuleMismatch(f"trick led {lead}, seen as {self.partial}")
                self.partial = ""
            else:
                self._play(lead)
            self._play(card_text(trick.follower_move.card))
        self.replayed = len(tricks)
        if leader_move is not None and not self.partial:
            self.partial = move_text(leader_move, trump)
            self._play(self.partial)

    def _check(self, perspective: Any, leader_move: Any) -> dict[str, Any]:
        """Compare the shadow with the VU game; the VU moves by our notation."""
        d, seat = self.shadow, self.seat
        if d.to_move != seat or perspective.am_i_leader() != (leader_move is None):
            raise RuleMismatch(f"turn: VU asks seat {seat}, ours has {d.to_move} to move")
        view = d.view(seat)
        trump = perspective.get_trump_suit()
        theirs = {move_text(m, trump): m for m in perspective.valid_moves()}
        ours = {m.text for m in view.legal_moves}
        if len(theirs) != len(perspective.valid_moves()) or set(theirs) != ours:
            raise RuleMismatch(f"legal moves: VU {sorted(theirs)}, ours {sorted(ours)}")
        hand = {card_text(c) for c in perspective.get_hand().get_cards()}
        if hand != {str(c) for c in view.hand}:
            raise RuleMismatch(f"hand: VU {sorted(hand)}, ours {sorted(map(str, view.hand))}")
        pub = view.public
        face_up = perspective.get_trump_card()
        my, opp = perspective.get_my_score(), perspective.get_opponent_score()
        # The VU engine books a marriage when its trick is complete, ours on the lead: the same
        # points wait for the same trick, so only the follower's picture in between differs.
        opp_pending = opp.pending_points
        if leader_move is not None and leader_move.is_marriage():
            opp_pending += 40 if leader_move.as_marriage().suit is trump else 20
        checks = {
            "talon": (perspective.get_talon_size(), pub["stock"]),
            "trump card": (card_text(face_up) if face_up is not None else None,
                           pub["trump_card"]),
            "phase": (2 if perspective.get_phase() == GamePhase.TWO else 1, pub["phase"]),
            "points": ((my.direct_points, opp.direct_points),
                       (d.points[seat], d.points[1 - seat])),
            "pending": ((my.pending_points, opp_pending),
                        (pub["pending"][seat], pub["pending"][1 - seat])),
        }
        for what, (vu, mine) in checks.items():
            if vu != mine:
                raise RuleMismatch(f"{what}: VU {vu}, ours {mine}")
        return theirs

    # ---- the VU bot interface

    def get_move(self, perspective: Any, leader_move: Any) -> Any:
        self._catch_up(perspective, leader_move)
        theirs = self._check(perspective, leader_move)
        t0, c0 = time.perf_counter(), time.process_time()
        move = self.bot.choose(self.shadow.view(self.seat))
        self.seconds += time.perf_counter() - t0
        self.cpu_ms.append(1000 * (time.process_time() - c0))
        self.decisions += 1
        return theirs[move.text]

    def notify_game_end(self, won: bool, perspective: Any) -> None:
        self._catch_up(perspective, None)
        self.ended = True


class TwoPhaseBot(Bot):
    """One VU bot while the talon lasts, another once it is empty."""

    def __init__(self, phase1: Any, phase2: Any) -> None:
        super().__init__("two-phase")
        self.phase1, self.phase2 = phase1, phase2

    def get_move(self, perspective: Any, leader_move: Any) -> Any:
        bot = self.phase2 if perspective.get_phase() == GamePhase.TWO else self.phase1
        return bot.get_move(perspective, leader_move)


class TimedBot(Bot):
    """Counts a VU bot's moves and the time it takes for them."""

    def __init__(self, bot: Any) -> None:
        super().__init__("timed")
        self.bot, self.decisions, self.seconds = bot, 0, 0.0

    def get_move(self, perspective: Any, leader_move: Any) -> Any:
        t0 = time.perf_counter()
        move = self.bot.get_move(perspective, leader_move)
        self.seconds += time.perf_counter() - t0
        self.decisions += 1
        return move


def opponent(name: str, rng: random.Random) -> Any:
    if name == "rdeep16+ab":
        return TwoPhaseBot(RdeepBot(16, 4, rng), AlphaBetaBot())
    if name == "rdeep64":
        return RdeepBot(64, 8, rng)
    if name == "rand":
        return RandBot(rng)
    raise ValueError(f"unknown opponent {name!r}; valid: {', '.join(OPPONENTS)}")


def _searcher(level: str) -> Searcher:
    """The declared searcher of ``level`` (a ValueError naming the levels if it has none)."""
    return searcher_of(level, GAME)


def our_bot(level: str, bot_seed: int, budget_only: bool, iterations: int | None = None,
            extra: tuple[tuple[str, Any], ...] = ()) -> Any:
    """Our bot of a level; ``budget_only``: its searcher without the seconds cap, a safety net
    that binds only when the machine is short of CPU, and then weakens our bot alone (without
    it the moves depend only on the seeds); ``iterations``: its search budget instead of the
    level's (to spend a faster engine on more iterations at the same time per move); ``extra``:
    other settings of its searcher (``--set inference=64``), for ablations."""
    if (budget_only or iterations or extra) and level not in ("random", "heuristic"):
        searcher = _searcher(level)
        settings = dict(searcher.settings)
        if budget_only:
            settings["seconds"] = None
        if iterations:
            settings["iterations"] = iterations
        settings.update(extra)
        return build(dataclasses.replace(searcher, settings=settings), GAME, bot_seed)
    return load_bot(level, GAME, seed=bot_seed)


def play_game(level: str, opp: str, deal_seed: int, our_seat: int, bot_seed: int,
              budget_only: bool = False, iterations: int | None = None,
              extra: tuple[tuple[str, Any], ...] = ()) -> dict[str, Any]:
    """One VU game on the deck of ``deal_seed``; our bot leads first when ``our_seat`` is 0."""
    deck = vu_deck(deal_seed)
    ours = CardplayBot(our_bot(level, bot_seed, budget_only, iterations, extra), our_seat,
                       shadow_deck(deck))
    theirs = TimedBot(opponent(opp, random.Random(bot_seed ^ 0x5EED)))
    first, second = (ours, theirs) if our_seat == 0 else (theirs, ours)
    t0, c0 = time.perf_counter(), time.process_time()
    winner, points, score = SchnapsenGamePlayEngine().play_game(
        first, second, random.Random(deal_seed))
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    # The referee's verdict must be the shadow's.
    d = ours.shadow
    won = winner is ours
    win_seat = our_seat if won else 1 - our_seat
    expected = [0, 0]
    expected[win_seat] = points
    if not ours.ended or d.result != expected or d.points[win_seat] != score.direct_points:
        raise RuleMismatch(f"deal seed {deal_seed}: VU result seat {win_seat} +{points} "
                           f"({score.direct_points} points), ours {d.result} {d.points}")
    return {"deal_seed": deal_seed, "our_seat": our_seat, "won": won,
            "game_points": points if won else -points, "points": list(d.points),
            "tricks": len(d.view(0).public["tricks"]), "seconds": seconds, "cpu_seconds": cpu,
            "our_moves": ours.decisions, "our_seconds": ours.seconds, "our_cpu_ms": ours.cpu_ms,
            "their_moves": theirs.decisions, "their_seconds": theirs.seconds}


def play_duplicate(job: tuple[str, str, int, int, bool, int | None, tuple[tuple[str, Any], ...]],
                   ) -> list[dict[str, Any]]:
    """Both games of one deal, seats swapped, from the same deck."""
    level, opp, seed, index, budget_only, iterations, extra = job
    deal_seed = seed * 1_000_003 + index
    return [play_game(level, opp, deal_seed, seat, deal_seed * 2 + seat, budget_only,
                      iterations, extra) for seat in (0, 1)]


def _quantiles(xs: list[float]) -> dict[str, float]:
    s = sorted(xs) or [0.0]
    return {q: s[min(len(s) - 1, int(f * len(s)))]
            for q, f in (("median", 0.5), ("p95", 0.95), ("p99", 0.99))} | {"max": s[-1]}


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    wins = sum(r["won"] for r in rows)
    lo, hi = wilson_interval(wins, n)
    our_moves = sum(r["our_moves"] for r in rows)
    their_moves = sum(r["their_moves"] for r in rows)
    return {
        "games": n, "wins": wins, "share": wins / n, "wilson95": [lo, hi],
        "game_points_per_game": {
            "ours": sum(max(r["game_points"], 0) for r in rows) / n,
            "theirs": sum(max(-r["game_points"], 0) for r in rows) / n,
            "net": sum(r["game_points"] for r in rows) / n},
        "share_as_first_leader": sum(r["won"] for r in rows if r["our_seat"] == 0)
        / max(1, sum(r["our_seat"] == 0 for r in rows)),
        "our_ms_per_move": 1000 * sum(r["our_seconds"] for r in rows) / max(1, our_moves),
        "their_ms_per_move": 1000 * sum(r["their_seconds"] for r in rows) / max(1, their_moves),
        "our_cpu_ms": _quantiles([t for r in rows for t in r.get("our_cpu_ms", [])]),
        "decisions_cross_checked": our_moves,
        "seconds_per_game": sum(r["seconds"] for r in rows) / n,
        # CPU time is what core-hours are made of; wall time grows on a shared machine.
        "cpu_seconds_per_game": sum(r["cpu_seconds"] for r in rows) / n,
    }


def run(level: str, opp: str, deals: int, seed: int, workers: int,
        progress: Callable[[int], None] | None = None,
        budget_only: bool = False, iterations: int | None = None,
        extra: tuple[tuple[str, Any], ...] = ()) -> list[dict[str, Any]]:
    jobs = [(level, opp, seed, i, budget_only, iterations, extra) for i in range(deals)]
    rows: list[dict[str, Any]] = []
    results: Iterable[list[dict[str, Any]]]
    if workers <= 1:
        results = map(play_duplicate, jobs)
        for pair in results:
            rows.extend(pair)
            if progress:
                progress(len(rows) // 2)
        return rows
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for pair in pool.imap_unordered(play_duplicate, jobs):
            rows.extend(pair)
            if progress:
                progress(len(rows) // 2)
    rows.sort(key=lambda r: (r["deal_seed"], r["our_seat"]))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--bot", default="strong", choices=LEVELS, help="our bot's level")
    ap.add_argument("--opponent", default="rdeep16+ab", choices=OPPONENTS)
    ap.add_argument("--deals", type=int, default=100, help="duplicate deals (2 games each)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1, help="processes")
    ap.add_argument("--out", help="write the summary and every game to this JSON file")
    ap.add_argument("--budget-only", action="store_true",
                    help="lift our bot's seconds cap per move (its iteration budget alone "
                         "decides, so a busy machine cannot weaken it); CPU time is reported")
    ap.add_argument("--iterations", type=int, default=None,
                    help="our searcher's iterations per move instead of the level's")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=INT",
                    help="another setting of our searcher (an ablation: --set inference=64)")
    args = ap.parse_args(argv)
    try:
        extra = tuple((k, int(v)) for k, _, v in (x.partition("=") for x in args.set))
    except ValueError:
        print("--set takes KEY=INT (a whole number), e.g. --set inference=64", file=sys.stderr)
        return 2
    if Bot is object:
        print("the 'schnapsen' package is not installed: pip install schnapsen", file=sys.stderr)
        return 2
    started = time.perf_counter()

    def progress(done: int) -> None:
        if done % max(1, args.deals // 20) == 0 or done == args.deals:
            print(f"  {done}/{args.deals} deals, {time.perf_counter() - started:.0f} s",
                  file=sys.stderr, flush=True)

    rows = run(args.bot, args.opponent, args.deals, args.seed, args.workers, progress,
               args.budget_only, args.iterations, extra)
    s = summarize(rows)
    s.update(bot=args.bot, opponent=args.opponent, deals=args.deals, seed=args.seed,
             workers=args.workers, budget_only=args.budget_only, iterations=args.iterations,
             settings=dict(extra),
             wall_seconds=time.perf_counter() - started,
             options=VU_SCHNAPSEN_OPTIONS)
    lo, hi = s["wilson95"]
    gp = s["game_points_per_game"]
    print(f"cardplay {args.bot} vs VU {args.opponent}: {args.deals} duplicate deals, "
          f"{s['games']} games on the VU engine, seed {args.seed}")
    print(f"  games won      {s['wins']}/{s['games']} = {s['share']:.1%} "
          f"(Wilson 95% {lo:.1%} .. {hi:.1%})")
    print(f"  game points    {gp['ours']:.3f} ours, {gp['theirs']:.3f} theirs per game "
          f"(net {gp['net']:+.3f})")
    print(f"  ms per move    ours {s['our_ms_per_move']:.1f}, theirs {s['their_ms_per_move']:.1f}")
    cpu = s["our_cpu_ms"]
    print(f"  our CPU ms     median {cpu['median']:.0f}, p95 {cpu['p95']:.0f}, "
          f"p99 {cpu['p99']:.0f}, max {cpu['max']:.0f} per move"
          f"{' (no seconds cap)' if args.budget_only else ''}")
    print(f"  cross-checked  {s['decisions_cross_checked']} decisions, {s['games']} results; "
          f"{s['seconds_per_game']:.2f} s ({s['cpu_seconds_per_game']:.2f} s CPU) per game, "
          f"{s['wall_seconds']:.0f} s wall")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"summary": s, "games": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
