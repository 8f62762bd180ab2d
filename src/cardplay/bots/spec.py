"""Bots named by text: a level, ``module:Class``, ``path/file.py:Class`` or a saved policy.

What the arena command (and ``arena.run``) accept as a bot, besides bot objects and factories:

* a level of :func:`cardplay.bots.load` (``random``, ``heuristic``, ``fast``, ``strong``) or a
  research level (``learned``: the shipped NumPy policy, :mod:`cardplay.bots.policy`);
* ``module:Name``: an importable class or function;
* ``path/file.py:Name``: a class or function in a Python file (loaded by path, not installed);
* ``path/policy.npz``: weights saved by :func:`cardplay.bots.policy.save_policy`.

A class or function is called as ``Name(game, seed=seed)`` when it takes both, ``Name(game)``
when it takes one argument, ``Name()`` when it takes none, and must return an object with
``choose(view) -> Move``. A spec is plain text, so it travels to worker processes (and Ray
tasks) as it is and is resolved there. Only the standard library is used (a policy file needs
NumPy when it is loaded).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..engine import Game

__all__ = ["RESEARCH_LEVELS", "BotSpecError", "build_spec", "label_of", "resolve"]

# Levels beyond the four every front-end offers: they need the extra ``rl`` (NumPy) and exist
# only for some games, so the web catalogue and ``cardplay play --vs`` do not list them.
RESEARCH_LEVELS = ("learned",)

Maker = Callable[[Game, "int | None"], Any]


class BotSpecError(ValueError):
    """A text that names no usable bot; the message says what is accepted."""

    def __init__(self, spec: str, reason: str) -> None:
        from . import LEVELS

        super().__init__(
            f"cannot use {spec!r} as a bot: {reason}. A bot is a level "
            f"({', '.join((*LEVELS, *RESEARCH_LEVELS))}), module:Class, path/file.py:Class "
            f"or a saved policy file (.npz)")
        self.spec = spec
        self.reason = reason


def _is_policy_file(spec: str) -> bool:
    return spec.endswith(".npz")


def label_of(spec: str) -> str:
    """A short name for the report: the level, the class or function name, or the file's
    stem."""
    if _is_policy_file(spec):
        return Path(spec).stem
    if ":" in spec:
        return spec.rpartition(":")[2]
    return spec


def _load_file(path: str) -> Any:
    """A module from a Python file, loaded once per path (named after the path, so two files
    of the same name do not collide)."""
    p = Path(path).resolve()
    if not p.is_file():
        raise FileNotFoundError(f"no such file {path!r}")
    name = "cardplay_user_bot_" + hashlib.sha1(str(p).encode()).hexdigest()[:12]
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, p)
        if spec is None or spec.loader is None:
            raise ImportError(f"{path!r} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return module


def _call(target: Any, game: Game, seed: int | None) -> Any:
    """Build a bot from a class or function with as many of (game, seed) as it takes."""
    try:
        params = inspect.signature(target).parameters
    except (TypeError, ValueError):  # a builtin without a signature: try the full call
        return target(game, seed=seed)
    takes_seed = "seed" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())
    positional = [p for p in params.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "seed"]
    if any(p.kind is p.VAR_POSITIONAL for p in params.values()) or positional:
        return target(game, seed=seed) if takes_seed else target(game)
    return target(seed=seed) if takes_seed else target()


def resolve(spec: str) -> Maker:
    """``(game, seed) -> bot`` for a spec; raises :class:`BotSpecError` saying why not."""
    from . import LEVELS
    from . import load as load_level

    if not isinstance(spec, str) or not spec:
        raise BotSpecError(str(spec), "not a name")
    if spec in LEVELS or spec in RESEARCH_LEVELS:
        return lambda game, seed: load_level(spec, game, seed=seed)
    if _is_policy_file(spec):
        if not Path(spec).is_file():
            raise BotSpecError(spec, "no such policy file")

        def policy(game: Game, seed: int | None) -> Any:
            from .policy import load_policy

            return load_policy(spec, game, seed=seed)

        return policy
    where, sep, name = spec.rpartition(":")
    if not sep or not where or not name:
        raise BotSpecError(spec, "not a known level")
    try:
        module = _load_file(where) if where.endswith(".py") else importlib.import_module(where)
    except Exception as e:  # an import error of any kind inside the user's module
        raise BotSpecError(spec, f"cannot import {where!r} ({type(e).__name__}: {e})") from e
    target = getattr(module, name, None)
    if target is None or not callable(target):
        raise BotSpecError(spec, f"{where!r} has no class or function {name!r}")
    return lambda game, seed: _call(target, game, seed)


def build_spec(spec: str, game: Game, seed: int | None = None) -> Any:
    """The bot a spec names, for a game; checked to have ``choose``."""
    try:
        bot = resolve(spec)(game, seed)
    except BotSpecError:
        raise
    except Exception as e:
        # a level the game lacks, or the user's constructor failing: say which spec it was
        raise BotSpecError(spec, f"{type(e).__name__}: {e}") from e
    if not callable(getattr(bot, "choose", None)):
        raise BotSpecError(spec, f"it built a {type(bot).__name__}, which has no choose(view)")
    return bot
