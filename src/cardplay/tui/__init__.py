"""The terminal table: ``cardplay tui``, a full-screen table for every game (extra ``tui``).

:mod:`.table` says what the table shows, as plain text read off the game's declaration, and
drives the match (the person, the bots, the record); it needs only the standard library.
:mod:`.app` draws it with Textual, which is imported only when the table is opened, so the
rest of ``cardplay`` works without the extra; :mod:`.command` is the subcommand.
"""
