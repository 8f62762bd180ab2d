"""Research adapters (optional extra ``rl``: ``pip install "cardplay[rl]"``).

* :mod:`cardplay.rl.actions`: a fixed integer action space per game (standard library only);
* :mod:`cardplay.rl.observations`: fixed-size numeric encodings of a seat's View (numpy);
* :mod:`cardplay.rl.pettingzoo`: ``env(game, **options)``, a PettingZoo AEC environment;
* :mod:`cardplay.rl.gym`: ``CardplayEnv``, one seat against bots as a Gymnasium environment;
* :mod:`cardplay.rl.vector`: ``VectorEnv``, N deals stepped together in NumPy batches;
* :mod:`cardplay.rl.openspiel`: ``register()`` makes every game an OpenSpiel Python game;
* :mod:`cardplay.rl.infostate`: compact information-state keys for tabular methods.

Importing this package registers the Gymnasium ids ``cardplay/<game>-v0`` (one per game, the
environment :class:`cardplay.rl.gym.CardplayEnv`; keyword arguments of ``gymnasium.make`` go to
it) when Gymnasium is installed; ``gymnasium.make("cardplay.rl:cardplay/sixty-six-v0")``
imports it on the way. Nothing else is imported here, so each adapter needs only its own library.
``docs/research.md`` has a short example of each.
"""

from __future__ import annotations


def gym_ids() -> list[str]:
    """The Gymnasium ids of the games: ``cardplay/<game>-v0``."""
    from ..engine import games

    return [f"cardplay/{name}-v0" for name in games()]


def _register_gym() -> None:
    try:
        import gymnasium
    except ImportError:  # the adapters that need it say so when they are imported
        return
    from ..engine import games

    for name in games():
        env_id = f"cardplay/{name}-v0"
        if env_id not in gymnasium.registry:
            # the entry point is a text: the environment's module is imported on make()
            gymnasium.register(env_id, entry_point="cardplay.rl.gym:CardplayEnv",
                               kwargs={"game": name})


_register_gym()
