"""Durable timers (bot.services.shared.timers): claimed once across processes, never lost.

Each "process" here is a TimerService with its own owner name and session factory on the
same database (SQLite file and PostgreSQL): the claim is one SQL statement, so what these
tests prove holds for separate processes as well.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.config import Shards
from bot.db.engine import session_factory
from bot.db.models import utcnow
from bot.services.shared import timers as timers_module
from bot.services.shared.timers import TimerService, cancel, schedule

KIND = "test.ping"


def shard_guild(shard: int, count: int, n: int = 0) -> int:
    """A snowflake whose guild lives on ``shard`` of ``count`` ((id >> 22) % count)."""
    return ((1000 + n) * count + shard) << 22


def process(engine, name: str, shards: Shards | None = None, **kw) -> TimerService:
    service = TimerService(session_factory(engine), shards, owner=name, **kw)
    service.register(KIND, _nothing)
    return service


async def _nothing(_due) -> None:
    return None


async def _put(engine, *timers: tuple[str, int, timedelta]) -> None:
    sessions = session_factory(engine)
    async with sessions() as session, session.begin():
        for ref, guild, offset in timers:
            await schedule(session, KIND, ref, guild, utcnow() + offset)


async def test_two_processes_claiming_together_never_share_a_timer(engine):
    await _put(engine, *((f"r{i}", shard_guild(0, 1, i), timedelta(minutes=-1)) for i in range(60)))
    a, b = process(engine, "a"), process(engine, "b")
    got: list[list] = await asyncio.gather(*(p.claim(limit=7) for _ in range(6) for p in (a, b)))
    refs = [due.ref for batch in got for due in batch]
    assert len(refs) == len(set(refs)), "a timer claimed twice"
    rest = await a.claim(limit=100)
    assert sorted(refs + [d.ref for d in rest]) == sorted(f"r{i}" for i in range(60)), "one lost"


async def test_a_dead_claimers_timer_is_fired_by_its_successor_after_the_lease(engine):
    await _put(engine, ("x", shard_guild(0, 1), timedelta(minutes=-1)))
    dead = process(engine, "dead", lease=timedelta(seconds=60))
    successor = process(engine, "successor")
    (claimed,) = await dead.claim()
    # the claimer is killed here: no post, no record
    assert await successor.claim() == [], "the lease still holds"
    assert await successor.next_wake() >= utcnow() + timedelta(seconds=55)
    (again,) = await successor.claim(utcnow() + timedelta(seconds=61))
    assert (again.id, again.nonce) == (claimed.id, claimed.nonce), "same firing, same nonce"
    assert again.attempts == 2
    assert await successor.done(again)
    assert await dead.claim(utcnow() + timedelta(days=1)) == []


async def test_a_process_fires_only_the_timers_of_its_shards(engine):
    await _put(
        engine,
        ("zero", shard_guild(0, 2), timedelta(minutes=-1)),
        ("one", shard_guild(1, 2), timedelta(minutes=-1)),
        ("one-b", shard_guild(1, 2, 7), timedelta(minutes=-1)),
    )
    shard1 = process(engine, "s1", Shards(2, (1,)))
    assert sorted(d.ref for d in await shard1.claim()) == ["one", "one-b"]
    shard0 = process(engine, "s0", Shards(2, (0,)))
    assert [d.ref for d in await shard0.claim()] == ["zero"]


async def test_moving_or_cancelling_a_timer_in_flight_keeps_the_new_state(engine):
    await _put(engine, ("m", shard_guild(0, 1), timedelta(minutes=-1)))
    p = process(engine, "p")
    (first,) = await p.claim()
    await _put(engine, ("m", shard_guild(0, 1), timedelta(minutes=-1)))  # moved while posting
    assert not await p.done(first), "the moved timer survives the old firing's record"
    (second,) = await p.claim()
    assert second.generation == first.generation + 1 and second.nonce != first.nonce
    async with session_factory(engine)() as session, session.begin():
        await cancel(session, KIND, "m")
    assert not await p.done(second)
    assert await p.claim(utcnow() + timedelta(days=1)) == []


async def test_a_failing_handler_is_retried_then_dropped(engine, monkeypatch):
    monkeypatch.setattr(timers_module, "MAX_ATTEMPTS", 3)
    await _put(engine, ("f", shard_guild(0, 1), timedelta(minutes=-1)))
    p = TimerService(session_factory(engine), owner="p", lease=timedelta(seconds=30))
    calls = []

    async def boom(due) -> None:
        calls.append(due.attempts)
        raise RuntimeError("Discord is down")

    p.register(KIND, boom)
    assert await p.fire() == 0
    assert await p.fire() == 0, "not again before the lease runs out"
    assert await p.fire(utcnow() + timedelta(seconds=31)) == 0
    assert await p.fire(utcnow() + timedelta(seconds=62)) == 1, "dropped after 3 attempts"
    assert calls == [1, 2, 3]
    assert await p.claim(utcnow() + timedelta(days=1)) == []


async def test_only_registered_kinds_are_claimed(engine):
    sessions = session_factory(engine)
    async with sessions() as session, session.begin():
        await schedule(session, "other.kind", "o", shard_guild(0, 1), utcnow())
    p = process(engine, "p")
    assert await p.claim(utcnow() + timedelta(minutes=1)) == []
    assert await p.next_wake() is None


@pytest.mark.parametrize("count", [3])
async def test_next_wake_is_the_earliest_due_of_this_process(engine, count):
    await _put(
        engine,
        ("later", shard_guild(2, count), timedelta(hours=2)),
        ("soon", shard_guild(2, count, 1), timedelta(hours=1)),
        ("elsewhere", shard_guild(0, count), timedelta(minutes=1)),
    )
    p = process(engine, "p", Shards(count, (2,)))
    wake = await p.next_wake()
    assert timedelta(minutes=59) < wake - utcnow() <= timedelta(hours=1)
