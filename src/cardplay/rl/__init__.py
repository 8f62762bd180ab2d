"""Research adapters (optional extra ``rl``: ``pip install "cardplay[rl]"``).

* :mod:`cardplay.rl.actions`: a fixed integer action space per game (standard library only);
* :mod:`cardplay.rl.observations`: fixed-size numeric encodings of a seat's View (numpy);
* :mod:`cardplay.rl.pettingzoo`: ``env(game, **options)``, a PettingZoo AEC environment;
* :mod:`cardplay.rl.gym`: ``CardplayEnv``, one seat against bots as a Gymnasium environment;
* :mod:`cardplay.rl.openspiel`: ``register()`` makes every game an OpenSpiel Python game.

Nothing is imported here, so each adapter needs only its own library. ``docs/research.md`` has a
short example of each.
"""
