"""What happens to a guild's data after the bot is removed from it.

Removal (``on_guild_remove``) records a :class:`GuildDeparture` and, in the same transaction,
schedules the durable timer ``guild.purge`` (:mod:`bot.services.shared.timers`, the one
scheduler of the bot) at now + ``ARBITRO_RETENTION_DAYS``: the timer's ``due_at`` is the one
place the purge date is kept, and a restart loses no deadline.  Re-adding the bot before then
(``on_guild_join``, or the guild being present when the bot starts:
:meth:`RetentionService.back_in`) deletes both, and the group finds everything as it was.
When the timer fires, :meth:`RetentionService.on_timer` deletes every row of the guild — in
batches that leave the database to other servers in between — or cancels the purge if the
bot is in the guild again.

Only the process serving the guild's shard fires its timer (the timer service claims only
its own shards' rows): that process alone knows whether the bot is in the guild again, so
another shard's process can never purge a guild that came back while it was looking
elsewhere.  A purge first marks its departure begun (``purge_begun``, only while its timer is
due), then deletes the data in batches, then deletes the departure and its timer together: a
return before the mark cancels the purge and keeps everything, a return after it no longer
can (the retention had run out), a crash half-way resumes when the timer (still there) fires
again, and of two purges at once only the one that deletes the departure reports it: exactly
one outcome, and running it again finds nothing to do.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from datetime import datetime, timedelta

from sqlalchemy import Table, delete, exists, or_, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.bulk import delete_in_batches
from bot.db.models import GuildDeparture, Timer, utcnow
from bot.services.shared.timers import Due, TimerService, cancel, on_shards, schedule

__all__ = ["PURGE_TIMER", "RetentionService", "guild_tables"]

#: The timer kind of a guild's purge; its ``ref`` is the guild id.
PURGE_TIMER = "guild.purge"

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
        self, sessions: async_sessionmaker[AsyncSession], days: int, timers: TimerService
    ) -> None:
        self.sessions = sessions
        self.days = days
        self.timers = timers  # the purge's durable timer; its shards are this process's

    async def departed(self, guild_id: int, now: datetime | None = None) -> datetime:
        """The bot left ``guild_id``: schedule its purge (an earlier schedule is kept)."""
        now = now or utcnow()
        purge_at = now + timedelta(days=self.days)
        try:
            async with self.sessions() as session, session.begin():
                session.add(GuildDeparture(guild_id=guild_id, left_at=now))
                await session.flush()  # a second removal stops here (IntegrityError)
                await schedule(session, PURGE_TIMER, str(guild_id), guild_id, purge_at)
        except IntegrityError:
            async with self.sessions() as session:
                scheduled = await session.scalar(
                    select(Timer.due_at).where(*self._timer_of(guild_id))
                )
            purge_at = purge_at if scheduled is None else scheduled
        self.timers.poke()
        return purge_at

    async def returned(self, guild_id: int) -> bool:
        """The bot is in ``guild_id`` again: cancel its purge.  True if one was pending;
        a purge already begun (its retention had run out) goes on to the end."""
        async with self.sessions() as session, session.begin():
            # the departure first, then its timer: the purge's lock order, no deadlock
            result = await session.exec(
                delete(GuildDeparture).where(
                    col(GuildDeparture.guild_id) == guild_id,
                    col(GuildDeparture.purge_begun).is_(False),
                )
            )
            if result.rowcount:
                await cancel(session, PURGE_TIMER, str(guild_id))
        if result.rowcount:
            self.timers.poke()
        return bool(result.rowcount)

    async def back_in(self, present: Collection[int]) -> list[int]:
        """At start: cancel the purge of every guild of this process's shards that the bot is
        in again (re-added while it was offline, so no ``on_guild_join`` came); those guilds."""
        kept = [d.guild_id for d in await self.pending() if d.guild_id in present]
        for guild_id in kept:
            await self.returned(guild_id)
        return kept

    async def on_timer(self, due: Due, present: Collection[int]) -> bool:
        """The purge timer of a guild fired: purge it, unless the bot is in it again (then the
        purge is cancelled).  True if the guild was purged.  The purge is due at the timer's
        moment (a timer moved since, by a return and a new removal, is later and is kept)."""
        guild_id = int(due.ref)
        if guild_id in present:
            await self.returned(guild_id)
            return False
        return await self.purge(guild_id, due.due_at)

    @staticmethod
    def _timer_of(guild_id: int) -> list[ColumnElement[bool]]:
        return [col(Timer.kind) == PURGE_TIMER, col(Timer.ref) == str(guild_id)]

    def _mine(self) -> list[ColumnElement[bool]]:
        """Departures of guilds on this process's shards (all of them when unsharded)."""
        owned = on_shards(col(GuildDeparture.guild_id), self.timers.shards)
        return [] if owned is None else [owned]

    async def pending(self) -> list[GuildDeparture]:
        async with self.sessions() as session:
            return list((await session.exec(select(GuildDeparture).where(*self._mine()))).all())

    async def purge(self, guild_id: int, now: datetime | None = None) -> bool:
        """Delete every row of ``guild_id`` if its purge is due; False if not (or done already).

        In batches (:func:`bot.db.bulk.delete_in_batches`): a guild's years of rolls deleted
        in one transaction held the database from every other server.  The first
        transaction marks the purge begun (while its timer is due, or begun already: a purge
        cut by a crash resumes), so a return of the bot no longer cancels it; the last
        deletes the departure and its timer, and whoever deletes the departure purged."""
        now = now or utcnow()
        due = exists().where(*self._timer_of(guild_id), col(Timer.due_at) <= now)
        async with self.sessions() as session, session.begin():
            begun = await session.exec(
                update(GuildDeparture)
                .where(
                    col(GuildDeparture.guild_id) == guild_id,
                    or_(col(GuildDeparture.purge_begun).is_(True), due),
                )
                .values(purge_begun=True)
                .execution_options(synchronize_session=False)
            )
            if begun.rowcount != 1:
                return False
        counts: dict[str, int] = {}
        not_the_purge = or_(col(Timer.kind) != PURGE_TIMER, col(Timer.ref) != str(guild_id))
        for table in guild_tables():
            where = table.c.guild_id == guild_id
            if table.name == Timer.__tablename__:
                where = where & not_the_purge  # kept until the end: a crash resumes by it
            counts[table.name] = await delete_in_batches(self.sessions, table, where)
        async with self.sessions() as session, session.begin():
            claimed = await session.exec(
                delete(GuildDeparture).where(
                    col(GuildDeparture.guild_id) == guild_id,
                    col(GuildDeparture.purge_begun).is_(True),
                )
            )
            if claimed.rowcount == 1:
                await session.exec(delete(Timer).where(*self._timer_of(guild_id)))
        if claimed.rowcount != 1:
            return False  # another purge of this guild, at the same time, finished it
        log.info("purged guild %s after its retention period: %s", guild_id, counts)
        return True
