"""Group commit of the audit log (:mod:`bot.services.write_batch`), on SQLite and PostgreSQL.

A burst of rolls shares one ``INSERT`` and one transaction; each caller must still get the
id of *its own* row, a bad row must fail alone, and a caller that gives up must not take its
row with it.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import select

from bot.db.models import RollLog
from bot.services import Actor, Place
from bot.services.write_batch import WriteBatch

GUILD, CHANNEL = 7272, 91
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
PLAYERS = [Actor(300 + i, f"jugadora {i}") for i in range(50)]


async def _rows(services) -> dict[int, RollLog]:
    async with services.sessions() as session:
        found = (await session.exec(select(RollLog).where(RollLog.guild_id == GUILD))).all()
    return {row.id: row for row in found}


async def test_a_burst_shares_transactions_and_every_caller_gets_its_own_row(services):
    await services.campaigns.create(
        HERE, GM, name="Ráfaga", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    batch = services.rolls.log_writes
    before = batch.transactions
    # Every roll distinct (member, reason): the row found under the returned id must be it.
    views = await asyncio.gather(
        *(
            services.rolls.roll(HERE, actor, f"1d20+{n}", reason=f"tirada {i}-{n}")
            for i, actor in enumerate(PLAYERS)
            for n in range(4)
        )
    )
    rows = await _rows(services)
    assert len(rows) == len(views) == 200
    for view in views:
        row = rows[view.log_id]
        assert (row.user_id, row.reason, row.total) == (view.user_id, view.reason, view.total)
    assert batch.transactions - before < len(views) / 4  # shared, not one each

    await asyncio.gather(
        *(
            services.rolls.attach_message(view.log_id, GUILD, 90_000 + k, f"https://x/{k}")
            for k, view in enumerate(views)
        )
    )
    rows = await _rows(services)
    for k, view in enumerate(views):
        assert (rows[view.log_id].message_id, rows[view.log_id].message_url) == (
            90_000 + k,
            f"https://x/{k}",
        )


async def test_a_bad_write_fails_alone(engine):
    """One item of a batch breaks its statement: the batch is retried row by row."""
    seen: list[list[int]] = []

    async def flush(connection: AsyncConnection, items: list[int]) -> list[int]:
        seen.append(list(items))
        if 13 in items:
            raise ValueError("trece")
        return [item * 2 for item in items]

    batch: WriteBatch[int, int] = WriteBatch(engine, flush)
    results = await asyncio.gather(
        *(batch.submit(n) for n in range(10, 17)), return_exceptions=True
    )
    assert [r if not isinstance(r, ValueError) else "error" for r in results] == [
        20,
        22,
        24,
        "error",
        28,
        30,
        32,
    ]
    assert seen[0] == list(range(10, 17))  # together first, then one by one
    assert [items for items in seen[1:] if len(items) == 1] == [[n] for n in range(10, 17)]


async def test_a_caller_that_gives_up_does_not_lose_its_row(services):
    await services.campaigns.create(
        HERE, GM, name="Paciencia", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    batch = services.rolls.log_writes
    task = asyncio.create_task(services.rolls.roll(HERE, PLAYERS[0], "3d6", reason="cancelada"))
    await _until(lambda: batch.submitted == 1)  # submitted, its transaction not yet over
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await services.rolls.drain()
    assert [row.reason for row in (await _rows(services)).values()] == ["cancelada"]


async def test_drain_waits_for_everything_submitted(services):
    batch = services.rolls.log_writes
    tasks = [asyncio.create_task(services.rolls.roll(HERE, actor, "1d6")) for actor in PLAYERS[:20]]
    await _until(lambda: batch.submitted == 20)
    await services.rolls.drain()
    assert len(await _rows(services)) == 20  # before any roller has read its answer
    await asyncio.gather(*tasks)


async def _until(condition, limit: int = 10_000) -> None:
    """Turn the event loop until ``condition()`` (bounded: a test that cannot hang)."""
    for _ in range(limit):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("condition never met")
