"""One module per game; each registers itself with :func:`cardplay.engine.register`.

``cardplay.games()`` lists the registered games, and importing a game module makes Python bind
this package to the name ``cardplay.games``; so the package itself is callable and answers the
same list, and ``cardplay.games()`` works whichever object the name holds.
"""

from __future__ import annotations

import sys
import types


class _CallableGamesPackage(types.ModuleType):
    def __call__(self) -> list[str]:
        from ..engine import games

        return games()


sys.modules[__name__].__class__ = _CallableGamesPackage
