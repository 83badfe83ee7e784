"""Stored moments are UTC and come back aware, whatever the backend (bot/db/types.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import DateTime, func
from sqlalchemy import select as core_select
from sqlmodel import SQLModel, select

from bot.db.models import Timer
from bot.db.types import UtcDateTime

MADRID = ZoneInfo("Europe/Madrid")


def test_every_moment_column_is_a_utc_moment():
    """A new datetime column declared without ``sa_type=UtcDateTime`` would read back naive."""
    plain = [
        f"{table.name}.{column.name}"
        for table in SQLModel.metadata.sorted_tables
        for column in table.columns
        if isinstance(column.type, DateTime)  # a TypeDecorator is not its impl
    ]
    typed = [
        column
        for table in SQLModel.metadata.sorted_tables
        for column in table.columns
        if isinstance(column.type, UtcDateTime)
    ]
    assert plain == [] and len(typed) > 30


async def test_a_moment_is_written_as_utc_and_read_back_aware(services):
    at_madrid = datetime(2026, 7, 1, 12, 0, tzinfo=MADRID)  # 10:00 UTC (summer time)
    naive = datetime(2026, 7, 1, 11, 0)  # taken as UTC
    async with services.sessions() as session, session.begin():
        session.add(Timer(kind="t", ref="madrid", guild_id=1, due_at=at_madrid))
        session.add(Timer(kind="t", ref="naive", guild_id=1, due_at=naive))
    async with services.sessions() as session:
        rows = {
            t.ref: t.due_at for t in (await session.exec(select(Timer).order_by(Timer.ref))).all()
        }
        earliest = await session.scalar(select(func.min(Timer.due_at)))
        core = (await session.connection()).execute(
            core_select(Timer.__table__.c.due_at).where(Timer.__table__.c.ref == "naive")  # type: ignore[attr-defined]
        )
        (core_value,) = (await core).one()
        later = (await session.exec(select(Timer.ref).where(Timer.due_at > at_madrid))).all()
    assert rows == {
        "madrid": datetime(2026, 7, 1, 10, 0, tzinfo=UTC),
        "naive": datetime(2026, 7, 1, 11, 0, tzinfo=UTC),
    }
    assert all(value.tzinfo is UTC for value in (*rows.values(), earliest, core_value))
    assert earliest == at_madrid and core_value - earliest == timedelta(hours=1)
    assert list(later) == ["naive"]  # compared as instants, not as wall clocks
