"""What happens to a guild's data after the bot is removed from it.

Removal (``on_guild_remove``) records a :class:`GuildDeparture` and, in the same transaction,
schedules the durable timer ``guild.purge`` (:mod:`bot.services.shared.timers`, the one
scheduler of the bot) at now + ``ARBITRO_RETENTION_DAYS``: the timer's ``due_at`` is the one
place the purge date is kept, and a restart loses no deadline.  Re-adding the bot before then
(``on_guild_join``, or the guild being present when the bot starts:
:meth:`RetentionService.back_in`) deletes both, and the group finds everything as it was.
When the timer fires, :meth:`RetentionService.on_timer` deletes every row of the guild in one
transaction — or cancels the purge if the bot is in the guild again.

Only the process serving the guild's shard fires its timer (the timer service claims only
its own shards' rows): that process alone knows whether the bot is in the guild again, so
another shard's process can never purge a guild that came back while it was looking
elsewhere.  The purge is claimed by deleting its timer (``DELETE … WHERE kind = 'guild.purge'
AND ref = :g AND due_at <= :now``) in the same transaction as the data: two purges at once,
or a purge racing the bot's return (which deletes the timer too), end with exactly one
outcome, and running it again finds nothing to do.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from datetime import datetime, timedelta

from sqlalchemy import Table, delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

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
        """The bot is in ``guild_id`` again: cancel its purge.  True if one was pending."""
        async with self.sessions() as session, session.begin():
            # the timer first, as the purge claims it: the same lock order, no deadlock
            await cancel(session, PURGE_TIMER, str(guild_id))
            result = await session.exec(
                delete(GuildDeparture).where(col(GuildDeparture.guild_id) == guild_id)
            )
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
        """Delete every row of ``guild_id`` if its purge is due; False if not (or done already)."""
        now = now or utcnow()
        counts: dict[str, int] = {}
        async with self.sessions() as session, session.begin():
            claimed = await session.exec(
                delete(Timer).where(*self._timer_of(guild_id), col(Timer.due_at) <= now)
            )
            if claimed.rowcount != 1:
                return False
            await session.exec(
                delete(GuildDeparture).where(col(GuildDeparture.guild_id) == guild_id)
            )
            for table in guild_tables():
                result = await session.exec(delete(table).where(table.c.guild_id == guild_id))
                counts[table.name] = result.rowcount
        log.info("purged guild %s after its retention period: %s", guild_id, counts)
        return True
