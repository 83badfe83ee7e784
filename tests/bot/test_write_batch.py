"""Group commit of the audit log (:mod:`bot.services.shared.write_batch`,
:mod:`bot.db.roll_log_writes`), on SQLite and PostgreSQL.

A burst of rolls shares one statement; each caller must still get the id of *its own* row,
a bad row must fail alone and leave nothing half-written, and a caller that gives up must
not take its row with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import re

import pytest
from sqlalchemy import text
from sqlmodel import select

from bot.db.models import RollLog, utcnow
from bot.db.roll_log_writes import AmbiguousBatch, MessageLink, RollLogWriter
from bot.services import Actor, Place
from bot.services.shared.audit import AuditEntry, roll_log_values
from bot.services.shared.write_batch import AlreadyWritten, WriteBatch

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
    before = batch.batches
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
    assert batch.batches - before < len(views) / 4  # shared, not one each

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


async def test_a_bad_write_fails_alone():
    """One item of a batch breaks its statement: the batch is retried row by row."""
    seen: list[list[int]] = []

    async def flush(items: list[int]) -> list[int]:
        seen.append(list(items))
        if 13 in items:
            raise ValueError("trece")
        return [item * 2 for item in items]

    batch: WriteBatch[int, int] = WriteBatch(flush)
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


async def _until(condition, seconds: float = 10.0) -> None:
    """Turn the event loop until ``condition()`` (bounded in time: a test that cannot hang;
    a count of turns was too short when a first query of the active characters ran long)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline:
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("condition never met")


def _row(user_id: int, reason: str, **changes) -> dict:
    values = roll_log_values(
        HERE,
        Actor(user_id, f"jugadora {user_id}"),
        None,
        "Ardelia",
        AuditEntry(
            kind="roll",
            expression="1d20+5",
            reason=reason,
            breakdown="1d20 (12) + 5 = 17",
            total=17,
            detail={"nota": "ñandú", "dados": [12]},
            fumble=reason == "pifia",
            private=reason == "privada",
        ),
    )
    return {**values, **changes}


async def test_a_link_longer_than_its_column_is_cut_to_fit(engine):
    """The writer owns the column's width: PostgreSQL would refuse the whole batch of links
    for one over-long URL, SQLite would keep it whole."""
    writer = RollLogWriter(engine)
    (log_id,) = await writer.insert([_row(480, "larga")])
    url = "https://discord.com/channels/" + "9" * 300
    await writer.attach([MessageLink(log_id, GUILD, 5560, url)])
    stored = (await _rows(_Sessions(engine)))[log_id]
    assert (stored.message_id, stored.message_url) == (5560, url[:200])


async def test_the_writer_stores_what_the_orm_reads(engine):
    """Rows written through the driver are the rows the ORM writes: JSON, booleans, the
    timestamp (SQLite's text, PostgreSQL's timestamp), each id its own row's, and a link
    that names another guild changes nothing."""
    writer = RollLogWriter(engine)
    rows = [_row(400 + i, reason) for i, reason in enumerate(["una", "pifia", "privada"])]
    ids = await writer.insert(rows)
    assert len(set(ids)) == 3
    assert await _committed(engine) == 3, "committed when the call returns, seen elsewhere"
    await writer.attach(
        [
            MessageLink(ids[0], GUILD, 5551, "https://discord.com/channels/1/2/5551"),
            MessageLink(ids[1], GUILD + 1, 5552, "https://elsewhere"),  # not this guild's row
        ]
    )
    found = await _rows(_Sessions(engine))
    for log_id, row in zip(ids, rows, strict=True):
        stored = found[log_id]
        assert (stored.user_id, stored.reason) == (row["user_id"], row["reason"])
        assert stored.detail == {"nota": "ñandú", "dados": [12]}
        assert (stored.fumble, stored.private) == (row["fumble"], row["private"])
        written = row["created_at"].replace(tzinfo=None)
        assert stored.created_at.replace(tzinfo=None) == written
    assert (found[ids[0]].message_id, found[ids[0]].message_url) == (
        5551,
        "https://discord.com/channels/1/2/5551",
    )
    assert (found[ids[1]].message_id, found[ids[1]].message_url) == (None, None)

    # Stored as the ORM stores them: the same text shape (SQLite keeps datetimes and JSON as
    # text; a timestamp written with another format would sort and compare wrongly).  On
    # PostgreSQL the timestamp is a timestamp (its text drops trailing zeros of the
    # microseconds, so only the JSON's text is compared there).
    microseconds = 456_000  # trailing zeros: the case a text format could get wrong
    async with _Sessions(engine).sessions() as session, session.begin():
        session.add(
            RollLog(**_row(499, "orm", created_at=utcnow().replace(microsecond=microseconds)))
        )
    await writer.insert([_row(498, "otra", created_at=utcnow().replace(microsecond=microseconds))])
    columns = "CAST(detail AS TEXT)"
    if engine.dialect.name == "sqlite":
        columns += ", CAST(created_at AS TEXT)"
    async with engine.connect() as connection:
        shapes = (await connection.execute(text(f"SELECT reason, {columns} FROM roll_log"))).all()
    by_reason = {reason: tuple(re.sub(r"\d", "0", v) for v in rest) for reason, *rest in shapes}
    assert by_reason["una"] == by_reason["orm"] == by_reason["otra"], by_reason


async def test_a_failed_batch_writes_nothing_and_the_next_one_lands(engine):
    """A NOT NULL violation in one row fails the whole statement, nothing of it is kept
    (SQLite's open transaction is rolled back when the connection goes back to the pool),
    and the batch retried row by row lands every good row."""
    writer = RollLogWriter(engine)
    good, bad = _row(501, "buena"), _row(502, "mala", user_name=None)
    with pytest.raises(Exception):  # noqa: B017,PT011 - each driver has its own IntegrityError
        await writer.insert([good, bad])
    assert await _rows(_Sessions(engine)) == {}
    # held: a PostgreSQL burst's connection, dropped after the error
    batch = WriteBatch(writer.insert, hold=writer.burst)
    results = await asyncio.gather(
        batch.submit(good), batch.submit(bad), batch.submit(_row(503, "otra")),
        return_exceptions=True,
    )  # fmt: skip
    assert isinstance(results[1], Exception)
    stored = await _rows(_Sessions(engine))
    assert sorted(row.reason for row in stored.values()) == ["buena", "otra"]
    assert {stored[results[0]].reason, stored[results[2]].reason} == {"buena", "otra"}
    assert stored[results[0]].reason == "buena"


async def test_two_rows_one_member_one_microsecond_go_in_one_by_one(engine):
    """The pair SQLite matches ids by is shared: refused before anything is written, then
    the batch's retry writes each row alone and each caller still gets its own id."""
    writer = RollLogWriter(engine)
    now = utcnow()
    twins = [_row(600, "primera", created_at=now), _row(600, "segunda", created_at=now)]
    if engine.dialect.name == "sqlite":
        with pytest.raises(AmbiguousBatch):
            await writer.insert(twins)
        assert await _rows(_Sessions(engine)) == {}
    batch = WriteBatch(writer.insert)
    ids = await asyncio.gather(*(batch.submit(row) for row in twins))
    stored = await _rows(_Sessions(engine))
    assert [stored[log_id].reason for log_id in ids] == ["primera", "segunda"]


async def _committed(engine) -> int:
    """Rows of ``roll_log`` seen from another engine's connection (so a transaction left open
    on the writer's connection, whose own reads would see it, cannot pass for a commit)."""
    from bot.db.engine import create_engine

    other = create_engine(engine.url.render_as_string(hide_password=False))
    try:
        async with other.connect() as connection:
            return (await connection.execute(text("SELECT count(*) FROM roll_log"))).scalar_one()
    finally:
        await other.dispose()


async def test_already_written_is_not_retried():
    """A flush that wrote its batch but cannot answer each caller fails them all, once."""
    calls: list[list[int]] = []

    async def flush(items: list[int]) -> list[int]:
        calls.append(list(items))
        raise AlreadyWritten("escrito, sin respuesta")

    batch: WriteBatch[int, int] = WriteBatch(flush)
    results = await asyncio.gather(*(batch.submit(n) for n in range(3)), return_exceptions=True)
    assert all(isinstance(result, AlreadyWritten) for result in results)
    assert calls == [[0, 1, 2]]

    async def short(items: list[int]) -> list[int]:  # wrote them, lost one answer
        calls.append(list(items))
        return [item * 2 for item in items][1:]

    calls.clear()
    batch = WriteBatch(short)
    results = await asyncio.gather(*(batch.submit(n) for n in range(3)), return_exceptions=True)
    assert all(isinstance(result, AlreadyWritten) for result in results)
    assert calls == [[0, 1, 2]]


async def test_a_burst_holds_one_connection_and_gives_it_back(engine):
    """PostgreSQL pays the pool's pre-ping per checkout: the batches of one burst share one
    connection, given back when the queue is empty."""
    from sqlalchemy import event

    checkouts: list[object] = []
    event.listen(engine.sync_engine, "checkout", lambda *_: checkouts.append(1))
    writer = RollLogWriter(engine)
    batch = WriteBatch(writer.insert, limit=5, hold=writer.burst)
    ids = await asyncio.gather(*(batch.submit(_row(700 + n, f"r{n}")) for n in range(30)))
    assert batch.batches >= 6 and len(set(ids)) == 30
    assert writer._held is None  # noqa: SLF001 - given back with the queue empty
    if engine.dialect.name == "sqlite":  # SQLite's one connection is never held
        assert len(checkouts) == batch.batches
        return
    assert len(checkouts) == 1
    await batch.submit(_row(800, "después"))
    assert len(checkouts) == 2


async def test_a_hold_that_fails_fails_its_callers_and_keeps_nothing():
    """No connection for a burst: each waiting caller gets the error, and nothing of theirs
    is written later by the next burst."""
    written: list[list[int]] = []
    broken = True

    @contextlib.asynccontextmanager
    async def hold():
        if broken:
            raise ConnectionError("sin base de datos")
        yield

    async def flush(items: list[int]) -> list[int]:
        written.append(list(items))
        return list(items)

    batch: WriteBatch[int, int] = WriteBatch(flush, hold=hold)
    results = await asyncio.gather(*(batch.submit(n) for n in range(3)), return_exceptions=True)
    assert all(isinstance(result, ConnectionError) for result in results)
    broken = False
    assert await batch.submit(9) == 9
    assert written == [[9]]


async def test_a_write_that_arrives_while_the_hold_is_left_is_written():
    left = asyncio.Event()
    proceed = asyncio.Event()

    @contextlib.asynccontextmanager
    async def hold():
        yield
        left.set()
        await proceed.wait()  # giving the connection back takes a turn of the loop

    async def flush(items: list[int]) -> list[int]:
        return [item + 100 for item in items]

    batch: WriteBatch[int, int] = WriteBatch(flush, hold=hold)
    first = asyncio.create_task(batch.submit(1))
    await left.wait()
    late = asyncio.create_task(batch.submit(2))  # the drain task is still leaving the hold
    await asyncio.sleep(0)
    proceed.set()
    assert await asyncio.wait_for(asyncio.gather(first, late), 5) == [101, 102]


class _Sessions:
    """Enough of the services for :func:`_rows`: sessions on ``engine``."""

    def __init__(self, engine) -> None:
        from bot.db.engine import session_factory

        self.sessions = session_factory(engine)


async def test_on_sqlite_links_wait_for_the_rolls_being_written(services):
    """SQLite has one connection: a message link (bookkeeping) submitted while rolls are
    being written goes after them, so it never holds the connection a roll waits for."""
    await services.campaigns.create(
        HERE, GM, name="Turnos", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    first = await services.rolls.roll(HERE, PLAYERS[0], "1d6")
    order: list[str] = []
    writer = services.rolls.writer
    insert, attach = writer.insert, writer.attach

    async def logged_insert(rows):
        order.append("rolls")
        return await insert(rows)

    async def logged_attach(links):
        order.append("links")
        return await attach(links)

    writer.insert, writer.attach = logged_insert, logged_attach
    services.rolls.log_writes.flush = logged_insert
    rolls = [asyncio.create_task(services.rolls.roll(HERE, p, "1d6")) for p in PLAYERS[1:4]]
    await _until(lambda: services.rolls.log_writes.submitted == 4)
    link = asyncio.create_task(services.rolls.attach_message(first.log_id, GUILD, 77, "u"))
    more = [asyncio.create_task(services.rolls.roll(HERE, p, "1d6")) for p in PLAYERS[4:6]]
    await asyncio.gather(*rolls, link, *more)
    if services.rolls.writer.dialect.name == "sqlite":
        assert order[-1] == "links", order
    assert order.count("links") == 1
    assert (await _rows(services))[first.log_id].message_id == 77
