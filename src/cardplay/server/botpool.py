"""Bots for the server, run off the event loop.

A bot gets only its seat's view, sent as the view's JSON dict and rebuilt into a
:class:`cardplay.View` in the worker, and answers a move text. :class:`ProcessBotRunner` runs bots
in worker processes (the default of ``cardplay serve``), so a slow bot never blocks the event
loop; :class:`ThreadBotRunner` runs them in a thread (tests, small machines).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from types import MappingProxyType
from typing import Any

from .. import bots as bots_mod
from ..advice import Advice, advice_texts, advise
from ..cards import Card
from ..engine import Game, Move, View, load

__all__ = ["HINT_LEVEL", "REVIEW_LEVEL", "BotRunner", "ProcessBotRunner", "ThreadBotRunner",
           "choose_move", "hint_values", "review_deal", "view_from_dict"]


def view_from_dict(d: Mapping[str, Any]) -> View:
    """Rebuild a :class:`View` from its ``to_dict()`` form (what crosses the process boundary)."""
    match = d.get("match")
    return View(
        game=d["game"],
        seat=d["seat"],
        players=d["players"],
        dealer=d["dealer"],
        to_move=d["to_move"],
        hand=tuple(Card(c) for c in d["hand"]),
        legal_moves=tuple(Move(m) for m in d["legal_moves"]),
        public=MappingProxyType(dict(d["public"])),
        points=tuple(d["points"]),
        is_over=d["is_over"],
        result=tuple(d["result"]) if d["result"] is not None else None,
        history=tuple((s, t) for s, t in d["history"]),
        options=MappingProxyType(dict(d["options"])),
        match=MappingProxyType(dict(match)) if match is not None else None,
    )


_GAMES: dict[tuple[str, str], Game] = {}


def _game(name: str, options: Mapping[str, Any]) -> Game:
    key = (name, repr(sorted(options.items())))
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) > 256:
            _GAMES.clear()
        game = _GAMES[key] = load(name, **options)
    return game


def choose_move(game: str, options: Mapping[str, Any], level: str, seed: int,
                view: Mapping[str, Any]) -> str:
    """Run one bot decision: the bot of ``level`` for this game chooses from the view alone.

    A bot is built for each decision (well under a millisecond; a learned policy's weights are
    cached by policy.py): a bot kept between calls would carry its generator's state from one
    call to the next, and the same view and seed would not always give the same move (a move
    taken back and played again, undo.py, must meet the same answers)."""
    bot = bots_mod.load(level, _game(game, options), seed=seed)
    return str(bot.choose(view_from_dict(view)))


# The levels behind the browser's hints (while a person waits to move) and its deal reviews.
HINT_LEVEL = "fast"
REVIEW_LEVEL = "strong"


def hint_values(view: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """The values of the seat's legal moves, from its view alone (``cardplay.bots.evaluate``)."""
    seen = view_from_dict(view)
    ev = bots_mod.evaluate(seen, HINT_LEVEL, seed=seed)
    return {**ev.to_dict(), "advice": _advice(advise(seen, ev.values, ev.errors, ev.exact))}


def _advice(a: Advice | None) -> dict[str, Any] | None:
    """The verdict with its words in every language: the page switches language in place."""
    return None if a is None else {**a.to_dict(), "words": advice_texts(a)}


def review_deal(record: Mapping[str, Any], seat: int, deal: int) -> list[dict[str, Any]]:
    """One seat's decisions of one deal of a match record, valued (``cardplay.review``)."""
    from ..review import review

    result = review(record, seats=[seat], level=REVIEW_LEVEL, deals=[deal])
    return [{**d.to_dict(), "costly": d.costly, "noise": round(d.noise, 4), "worlds": d.worlds,
             "advice": _advice(d.advice)} for d in result.decisions]


def _warm() -> int:
    """Import the games in a worker ahead of the first real request."""
    import contextlib

    import cardplay

    for name in cardplay.games():
        # a game being written may fail to import; its tables will say so
        with contextlib.suppress(Exception):
            cardplay.load(name)
    return os.getpid()


def _start_worker(parent: int, niceness: int) -> None:
    """Worker initializer: run at ``niceness`` (coaching's workers yield the CPU to the bots'),
    and leave with the server process (:func:`_watch_parent`)."""
    if niceness:
        os.nice(niceness)
    _watch_parent(parent)


def _watch_parent(parent: int) -> None:
    """Worker initializer: leave when the server process is gone (even after a SIGKILL, which
    gives it no chance to stop its workers)."""
    import threading
    import time

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


class BotRunner:
    """Runs bot decisions in an executor; ``choose`` is awaited on the event loop."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor

    async def choose(self, game: str, options: Mapping[str, Any], level: str, seed: int,
                     view: Mapping[str, Any]) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, choose_move, game, dict(options), level,
                                          seed, dict(view))

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a module-level function of this module (hint_values, review_deal) off the loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, fn, *args)

    async def warm(self) -> None:
        """Start the workers now rather than at the first bot move."""

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


class ThreadBotRunner(BotRunner):
    """Bots in one worker thread: no process start-up; for tests and tiny deployments."""

    def __init__(self, workers: int = 1) -> None:
        super().__init__(ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot"))


class ProcessBotRunner(BotRunner):
    """Bots in worker processes (``spawn``: safe beside the event loop's threads).

    ``niceness`` lowers the workers' priority: the hub gives hints and reviews a runner of
    their own at niceness 10, so that on a busy machine a bot's move (at 0) gets the CPU
    first, and no bot's move ever waits in the queue behind a review. Workers start when
    first needed (or at :meth:`warm`)."""

    def __init__(self, workers: int | None = None, niceness: int = 0) -> None:
        self.workers = workers or max(1, min(4, (os.cpu_count() or 2)))
        ctx = multiprocessing.get_context("spawn")
        super().__init__(ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx,
                                             initializer=_start_worker,
                                             initargs=(os.getpid(), niceness)))

    async def warm(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self.executor, _warm)
                               for _ in range(self.workers)))
