"""The PostgreSQL migrations form one chain, 0001 to the head, whatever branches added them."""

from __future__ import annotations

import re

from alembic.config import Config
from alembic.script import ScriptDirectory

from cardplay.server.pgstore import MIGRATIONS

HEAD = "0009"  # the account settings; a new migration moves this


def test_the_migrations_are_one_chain_to_the_head() -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    scripts = ScriptDirectory.from_config(cfg)
    assert scripts.get_heads() == [HEAD]  # two heads: two branches took one number's place
    chain = [s.revision for s in scripts.walk_revisions("base", "heads")]
    assert chain == [f"{n:04d}" for n in range(int(HEAD), 0, -1)]
    # each file is named after its revision, so that a renumbered one is seen at a glance
    files = sorted(p.name for p in (MIGRATIONS / "versions").glob("v*.py"))
    assert [re.match(r"v(\d{4})_", f).group(1) for f in files] == sorted(chain)  # type: ignore[union-attr]
