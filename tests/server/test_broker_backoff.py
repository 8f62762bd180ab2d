"""The Redis broker on its own, against a redis-server of the test's own that is killed and
started again: while Redis is away the listener tries again after waits that double up to the
cap (never in a tight loop), status() says ``down``, publishing never blocks; once Redis is
back it subscribes again within the cap, says ``ok``, and catches every table up from the
store."""

from __future__ import annotations

import asyncio
import itertools
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from cardplay.server.broker import RedisBroker

from .services import Redis


@dataclass
class FakeTable:
    id: str
    seats: list[Any] = field(default_factory=list)
    remote: dict[str, tuple[frozenset[int], float]] = field(default_factory=dict)

    def has_connections(self) -> bool:
        return False

    def presence_changed(self) -> None:
        pass


class FakeHub:
    """What the broker calls on the hub, recorded."""

    def __init__(self) -> None:
        self.tables = {"t1": FakeTable("t1"), "t2": FakeTable("t2")}
        self.caught_up: list[str] = []
        self.ticks = 0

    def catch_up(self, table: FakeTable, broadcast: bool = True) -> int:
        self.caught_up.append(table.id)
        return 0

    def reload_seats(self, table: FakeTable) -> None:
        pass

    async def lease_tick(self) -> None:
        self.ticks += 1

    def remote_change(self, table_id: str, msg: dict[str, Any]) -> None:
        pass

    def remote_presence(self, proc: str, tables: dict[str, Any]) -> None:
        pass


def test_the_listener_backs_off_and_comes_back() -> None:
    server = Redis().start()
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(_outage(server))
        except BaseException as e:
            failed.append(e)

    # in a thread of its own: a listener that spins never gives the loop back, and the test
    # must fail then, not hang
    thread = threading.Thread(target=run, daemon=True)
    try:
        thread.start()
        thread.join(timeout=60)
        assert not thread.is_alive(), "the event loop never came back (a listener spinning?)"
        if failed:
            raise failed[0]
    finally:
        server.stop()


async def _outage(server: Redis) -> None:
    broker = RedisBroker(server.url(), prefix="backoff", ttl=1.5)
    hub = FakeHub()
    await broker.start(hub)  # type: ignore[arg-type]
    tries: list[float] = []
    subscribe = broker._subscribed

    async def counted() -> Any:
        tries.append(time.monotonic())
        return await subscribe()

    broker._subscribed = counted  # type: ignore[method-assign]
    try:
        assert broker.status() == "ok" and broker.backoff_cap == 1.5
        assert server.proc is not None
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait(timeout=10)
        killed = time.monotonic()
        while broker.status() != "down":
            assert time.monotonic() < killed + 2.5, "the broker never noticed"
            await asyncio.sleep(0.05)
        ticks = hub.ticks
        # publishing with Redis away returns at once, and leases are not even asked for
        started = time.monotonic()
        for i in range(1000):
            broker.publish("t1", {"v": i})
        assert await broker.acquire_many(["t1", "t2"]) == set()
        assert time.monotonic() - started < 0.5
        await asyncio.sleep(6.0)
        assert hub.ticks == ticks  # no lease tick while Redis is away
        gaps = [b - a for a, b in itertools.pairwise(tries)]
        # 0.1 s doubling up to the 1.5 s cap, each wait 50-100 % of its step (jitter): some
        # tries, never many, and the later ones about the cap apart
        assert 3 <= len(tries) <= 12, tries
        assert min(gaps) >= 0.05 and max(gaps) <= 1.5 + 0.5, gaps
        assert all(g >= 0.75 - 0.05 for g in gaps[-2:]), gaps
        hub.caught_up.clear()
        server.start()
        back = time.monotonic()
        while broker.status() != "ok":
            assert time.monotonic() < back + 1.5 + 1.0, "the broker never came back"
            await asyncio.sleep(0.05)
        assert sorted(hub.caught_up) == ["t1", "t2"]  # every table read from the store
        await asyncio.sleep(1.0)
        assert hub.ticks > ticks  # the lease ticks again
    finally:
        stopping = time.monotonic()
        await broker.close()
        assert time.monotonic() - stopping < 2.0
