"""The seven built-in games, one package each; the registry imports a game's package the first time
``cardplay.load`` asks for it by name, and ``cardplay.games()`` lists them with any game registered
from outside (see docs/new-game.md)."""
