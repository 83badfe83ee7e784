"""What happens to a guild's data after the bot is removed from it.

Removal (``on_guild_remove``) records a :class:`GuildDeparture` with ``purge_at`` =
now + ``ARBITRO_RETENTION_DAYS``; re-adding the bot before then (``on_guild_join``, or the
guild being present at start) deletes that row and the group finds everything as it was.
When ``purge_at`` passes, :meth:`RetentionService.purge_due` deletes every row of the guild,
in batches that leave the database to other servers in between.

The departure row is the purge's durable timer (a restart loses no deadline).  Only the
process serving the guild's shard looks at it (:attr:`RetentionService.shards`): that process
alone knows whether the bot is in the guild again, so another shard's process can never
purge a guild that came back while it was looking elsewhere.  A purge first marks the row
begun (``purge_at`` = :data:`PURGING`, only while it is due), then deletes the data in
batches, then deletes the row: a return before the mark cancels the purge and keeps
everything, a return after it no longer can (the retention had run out), a crash half-way
resumes at the next look, and of two purges at once only the one that deletes the row
reports it: exactly one outcome, and running it again finds nothing to do.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from datetime import UTC, datetime, timedelta

from sqlalchemy import Table, delete, func, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.config import Shards
from bot.db.bulk import delete_in_batches
from bot.db.models import GuildDeparture, utcnow
from bot.services.shared.timers import on_shards

__all__ = ["PURGING", "RetentionService", "guild_tables"]

#: ``purge_at`` of a departure whose purge has begun (see :meth:`RetentionService.purge`).
PURGING = datetime(1970, 1, 1, tzinfo=UTC)

log = logging.getLogger(__name__)


def guild_tables() -> list[Table]:
    """Every table holding a guild's data, children before parents (foreign keys)."""
    return [
        table
        for table in reversed(SQLModel.metadata.sorted_tables)
        if "guild_id" in table.columns and table.name != GuildDeparture.__tablename__
    ]


class RetentionService:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], days: int, shards: Shards | None = None
    ) -> None:
        self.sessions = sessions
        self.days = days
        self.shards = shards or Shards()
        # set whenever a purge date may have moved: the purge task re-reads then
        self.timers_changed = asyncio.Event()

    async def departed(self, guild_id: int, now: datetime | None = None) -> datetime:
        """The bot left ``guild_id``: schedule its purge (an earlier schedule is kept)."""
        now = now or utcnow()
        purge_at = now + timedelta(days=self.days)
        try:
            async with self.sessions() as session, session.begin():
                session.add(GuildDeparture(guild_id=guild_id, left_at=now, purge_at=purge_at))
        except IntegrityError:
            async with self.sessions() as session:
                existing = await session.get(GuildDeparture, guild_id)
            if existing is not None:
                purge_at = existing.purge_at
        self.timers_changed.set()
        return purge_at

    async def returned(self, guild_id: int) -> bool:
        """The bot is in ``guild_id`` again: cancel its purge.  True if one was pending;
        a purge already begun (its retention had run out) goes on to the end."""
        async with self.sessions() as session, session.begin():
            result = await session.exec(
                delete(GuildDeparture).where(
                    col(GuildDeparture.guild_id) == guild_id,
                    col(GuildDeparture.purge_at) > PURGING,
                )
            )
        if result.rowcount:
            self.timers_changed.set()
        return bool(result.rowcount)

    def _mine(self) -> list[ColumnElement[bool]]:
        """Departures of guilds on this process's shards (all of them when unsharded)."""
        owned = on_shards(col(GuildDeparture.guild_id), self.shards)
        return [] if owned is None else [owned]

    async def pending(self) -> list[GuildDeparture]:
        async with self.sessions() as session:
            return list((await session.exec(select(GuildDeparture).where(*self._mine()))).all())

    async def next_due(self) -> datetime | None:
        async with self.sessions() as session:
            query = select(func.min(GuildDeparture.purge_at)).where(*self._mine())
            return (await session.exec(query)).one()

    async def purge_due(
        self, now: datetime | None = None, *, present: Collection[int] = ()
    ) -> list[int]:
        """Purge every guild whose retention ran out; a guild in ``present`` is kept instead."""
        now = now or utcnow()
        async with self.sessions() as session:
            due = (
                await session.exec(
                    select(GuildDeparture.guild_id).where(
                        GuildDeparture.purge_at <= now, *self._mine()
                    )
                )
            ).all()
        purged = []
        for guild_id in due:
            if guild_id in present:
                await self.returned(guild_id)
                continue
            if await self.purge(guild_id, now):
                purged.append(guild_id)
        return purged

    async def purge(self, guild_id: int, now: datetime | None = None) -> bool:
        """Delete every row of ``guild_id`` if its purge is due; False if not (or done already).

        In batches (:func:`bot.db.bulk.delete_in_batches`): a guild's years of rolls deleted
        in one transaction held the database from every other server.  The first
        transaction marks the purge begun (``purge_at`` = :data:`PURGING`), so a return of
        the bot no longer cancels it and one cut by a crash resumes with the next look; the
        last deletes the departure row, and whoever deletes it is the one that purged."""
        now = now or utcnow()
        async with self.sessions() as session, session.begin():
            begun = await session.exec(
                update(GuildDeparture)
                .where(
                    col(GuildDeparture.guild_id) == guild_id,
                    col(GuildDeparture.purge_at) <= now,
                )
                .values(purge_at=PURGING)
                .execution_options(synchronize_session=False)
            )
            if begun.rowcount != 1:
                return False
        counts: dict[str, int] = {}
        for table in guild_tables():
            counts[table.name] = await delete_in_batches(
                self.sessions, table, table.c.guild_id == guild_id
            )
        async with self.sessions() as session, session.begin():
            claimed = await session.exec(
                delete(GuildDeparture).where(
                    col(GuildDeparture.guild_id) == guild_id,
                    col(GuildDeparture.purge_at) == PURGING,
                )
            )
        if claimed.rowcount != 1:
            return False  # another purge of this guild, at the same time, finished it
        log.info("purged guild %s after its retention period: %s", guild_id, counts)
        return True
