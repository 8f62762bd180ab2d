"""When a table's cards are fixed: its scheme-2 commitment, its people's contributions and the
deck seed they give together (docs/protocol.md, *Fair shuffles and signed records*).

The server commits at creation, before it has seen any contribution. A person's seat
contributes once: at create or join (the HTTP body's ``contribution``) or at its first
``hello``; a ``hello`` without one, from a seat that has none yet, makes the server draw it
(marked ``drawn``). The deck seed is fixed, and the first card dealt, the moment the last
person's seat has its contribution. Tables of bots only, and tables whose seed was chosen, deal
at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine import Game, fresh_seed
from ..fairness import commit_v2, deck_seed, new_contribution, new_salt, normal_contribution
from .protocol import ProtocolError
from .storage import StoredTable

if TYPE_CHECKING:
    from .hub import Hub
    from .tables import Table

__all__ = ["Fairness", "check_contribution", "deal_first", "entry", "fix_seed",
           "hello_contribution", "new_fairness", "take_contribution", "take_stored"]


@dataclass(frozen=True)
class Fairness:
    """A new table's commitment and what it commits to."""

    server_seed: int
    salt: str
    commitment: str
    contributions: list[dict[str, Any] | None]
    seed: int  # the deck seed; 0 while a person's contribution is still to come


def new_fairness(game: Game, kinds: Sequence[str], dealer: int | None, chosen: int | None,
                 source: str) -> Fairness:
    """The commitment of a new table: to a seed the server draws, or (``creator``,
    ``operator``) to the one chosen, which is then the deck seed as it is."""
    server_seed = fresh_seed() if chosen is None else chosen
    salt = new_salt()
    commitment = commit_v2(game.name, game.options_dict(), dealer, kinds, source, server_seed,
                           salt)
    contributions: list[dict[str, Any] | None] = [None] * len(kinds)
    if source != "server":
        seed = server_seed
    elif "human" in kinds:
        seed = 0  # fixed once every person has contributed
    else:
        seed = deck_seed(server_seed, [None] * len(kinds))  # nobody to wait for
    return Fairness(server_seed, salt, commitment, contributions, seed)


def check_contribution(value: Any) -> str | None:
    """A client's contribution (None when it sent none); ValueError when it is not one."""
    if value is None:
        return None
    found = normal_contribution(value)
    if found is None:
        raise ValueError("'contribution' is 32 hexadecimal characters (128 random bits, e.g. "
                         "from crypto.getRandomValues)")
    return found


def hello_contribution(value: Any) -> str | None:
    """:func:`check_contribution` of a ``hello``: an error frame when it is not one."""
    try:
        return check_contribution(value)
    except ValueError as e:
        raise ProtocolError("bad_contribution", str(e)) from None


def entry(stored: StoredTable, seat: int, value: str | None, draw: bool
          ) -> dict[str, Any] | None:
    """What seat ``seat`` contributes now: ``value``, or (with ``draw``, when ``value`` is
    None) one the server draws, marked so; None when the table does not wait for it (the seat
    has one already, is a bot's, or the seed is fixed)."""
    if not stored.waiting or stored.contributions is None:
        return None
    if stored.seats[seat].get("kind") != "human" or stored.contributions[seat] is not None:
        return None
    if value is None:
        return {"value": new_contribution(), "drawn": True} if draw else None
    return {"value": value, "drawn": False}


def fix_seed(stored: StoredTable) -> bool:
    """Once no person's part is still to come: the deck seed from the server seed and every
    contribution in seat order (the same wherever it is worked out). Whether it was fixed."""
    if stored.waiting or stored.server_seed is None or stored.contributions is None or \
            stored.seed_source != "server":
        return False
    stored.seed = deck_seed(stored.server_seed, [c["value"] if c is not None else None
                                                 for c in stored.contributions])
    return True


def take_contribution(hub: Hub, table: Table, seat: int, value: str | None,
                      draw: bool) -> None:
    """Give a table its seat's part of the shuffle, if it waits for it (:func:`entry`). The
    store adds it to the seat's entry only if that is still empty, in one transaction, and
    answers with every seat's (another process may have added one meanwhile); the last one
    fixes the deck seed, and the first deal is dealt from it. Other processes hear of it as of
    a seat claimed (they read both back)."""
    given = entry(table.stored, seat, value, draw)
    if given is None:
        return
    table.stored.contributions = hub.storage.add_contribution(table.id, seat, given)
    if fix_seed(table.stored):
        hub.storage.set_seed(table.id, table.stored.seed)
        deal_first(hub, table)
    hub.broker.publish(table.id, {"seats": 1})


def deal_first(hub: Hub, table: Table) -> None:
    """The deck seed is fixed: the placeholder match gives way to the real one (the caller
    sends everyone their views), and a bot to move is started."""
    table.match = table.game.match(seed=table.stored.seed, dealer=table.stored.dealer)
    table.last_deal_end = -1
    table._state_cache.clear()
    table._info_cache = None
    hub.kick(table)


def take_stored(hub: Hub, table: Table, stored: StoredTable) -> None:
    """The contributions another process took (read back from the store with the seats); if
    the last one came there, the cards are dealt here too."""
    if table.waiting and stored.contributions is not None:
        table.stored.contributions = stored.contributions
        if fix_seed(table.stored):
            deal_first(hub, table)
