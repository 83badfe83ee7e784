"""Deleting many rows without holding the database: a bounded batch per transaction.

SQLite serves every command through one connection (bot/db/engine.py), so one transaction
that deletes a campaign's or a guild's hundred thousand rows keeps every other server's
``/roll`` waiting until it ends.  :func:`delete_in_batches` deletes ``batch`` rows per
transaction and lets the event loop turn between two, so the commands waiting for the
connection get it in between.  Callers make the whole operation safe to stop half-way (an
invisible campaign, a purge that resumes): a batch never undoes another.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Table, delete, select, update
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.expression import TableClause
from sqlmodel.ext.asyncio.session import AsyncSession

__all__ = ["DELETE_BATCH", "PAUSE", "delete_in_batches", "driver_insert", "pause_after"]

#: Rows deleted per transaction (each a few milliseconds on SQLite).
DELETE_BATCH = 500
#: The longest pause between two batches (seconds).
PAUSE = 0.05


async def pause_after(started: float) -> None:
    """Between two batches, as long as the last one took (``started``: its
    :func:`time.perf_counter`), at most :data:`PAUSE`: a bulk write uses the database half
    the time at most, so another server's command finds it free more often than not instead
    of queueing behind batch after batch (SQLite: one connection).  An import takes about
    1.5× as long; nobody waits for it.  Measured (benchmarks/fairness_bench.py, a 50,000-row
    import, two runs each on the shared 2-core machine at load 6–8): another server's /roll
    p99 on SQLite was 4.8× and 2.5× its idle p99 with the pause, 4.5× and 3.2× with an
    immediate turn of the loop — within the machine's noise; docs/performance.md."""
    await asyncio.sleep(min(time.perf_counter() - started, PAUSE))


async def delete_in_batches(
    sessions: async_sessionmaker[AsyncSession],
    table: Table,
    where: ColumnElement[bool],
    *,
    batch: int | None = None,
) -> int:
    """Deletes the rows of ``table`` matching ``where``, ``batch`` per transaction (a table
    with a composite key — a few rows per campaign or guild — all at once); the count."""
    size = batch or DELETE_BATCH
    keys = list(table.primary_key.columns)
    # a row pointing at a row of its own table (a character copied from a template) would
    # stop the batch holding the template: those links go first, in one statement
    for key in table.foreign_keys:
        if key.column.table is table and key.parent.nullable:
            async with sessions() as session, session.begin():
                connection = await session.connection()
                await connection.execute(
                    update(table).where(where, key.parent.is_not(None)).values({key.parent: None})
                )
    total = 0
    while True:
        statement: Any
        if len(keys) == 1:
            chosen = select(keys[0]).where(where).limit(size).scalar_subquery()
            statement = delete(table).where(keys[0].in_(chosen))
        else:
            statement = delete(table).where(where)
        started = time.perf_counter()
        async with sessions() as session, session.begin():
            connection = await session.connection()
            deleted = (await connection.execute(statement)).rowcount
        total += deleted
        await pause_after(started)
        if len(keys) != 1 or deleted < size:
            return total


def driver_insert(
    dialect: Dialect, table: TableClause, rows: Sequence[Mapping[str, Any]]
) -> tuple[str, list[tuple[Any, ...]]]:
    """An ``INSERT`` of ``rows`` as the driver takes it: its text and one tuple of bound
    values per row, every value through its column's own bind processor (JSON text,
    SQLite's datetime text), so the rows are exactly what SQLAlchemy would write.

    Made *before* the connection is taken: SQLAlchemy processes each row's values while it
    holds the connection, and on SQLite (one connection for every server) that Python work
    was most of a restore batch's hold."""
    names = sorted({name for row in rows for name in row})
    processors = [
        table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in names
    ]
    if dialect.paramstyle == "qmark":
        marks = ", ".join("?" * len(names))
    else:
        marks = ", ".join(f"${n}" for n in range(1, len(names) + 1))
    text = f"INSERT INTO {table.name} ({', '.join(names)}) VALUES ({marks})"
    params = [
        tuple(
            process(row.get(name)) if process is not None else row.get(name)
            for name, process in zip(names, processors, strict=True)
        )
        for row in rows
    ]
    return text, params
