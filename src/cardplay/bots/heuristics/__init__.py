"""Per-game heuristic bots: module ``<game module>.py`` defines ``HeuristicBot(game, seed)``."""
