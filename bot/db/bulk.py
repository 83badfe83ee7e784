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
from typing import Any

from sqlalchemy import Table, delete, select, update
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel.ext.asyncio.session import AsyncSession

__all__ = ["DELETE_BATCH", "delete_in_batches"]

#: Rows deleted per transaction (each a few milliseconds on SQLite).
DELETE_BATCH = 500


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
        async with sessions() as session, session.begin():
            connection = await session.connection()
            deleted = (await connection.execute(statement)).rowcount
        total += deleted
        await asyncio.sleep(0)
        if len(keys) != 1 or deleted < size:
            return total
