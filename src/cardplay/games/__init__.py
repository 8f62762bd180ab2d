"""One module per game; each registers itself with :func:`cardplay.engine.register`."""
