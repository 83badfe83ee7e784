"""Durable timers: things to do for a guild at a given time, fired once across processes.

Every timer is a row of ``timer`` (:class:`bot.db.models.Timer`), written in the same
transaction as the change that makes it due (a turn passed, a bot removed from a guild…), so
a restart loses none.  Firing is claim → act → record:

1. **claim**: one statement sets a lease (``lease_owner`` until ``lease_until``) on due rows
   whose guild lives on this process's shards (``(guild_id >> 22) % count``), skipping rows
   another process holds (``FOR UPDATE SKIP LOCKED`` on PostgreSQL; SQLite has one process).
2. **act**: the handler registered for the row's ``kind`` runs; a Discord post passes
   :attr:`Due.nonce` with ``enforce_nonce`` so that repeating it returns the first message.
3. **record**: the row is deleted if it is still the generation that was claimed (a timer
   moved meanwhile is kept, with its new time).

A process killed between 1 and 3 leaves a lease that runs out after :attr:`TimerService.lease`;
the guild's shard (the restarted process, or whoever serves it now) claims it again and fires
it; if the first post did go out, Discord's nonce check returns it instead of posting twice.
A handler that fails is retried after its lease, up to :data:`MAX_ATTEMPTS` times.

Callers schedule with :func:`schedule` / :func:`cancel` inside their own transaction, then
call :meth:`TimerService.poke` after the commit so a sleeping dispatcher looks again.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import BigInteger, case, delete, func, literal_column, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.orm import Mapped
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.config import Shards
from bot.db.models import Timer, utcnow

__all__ = [
    "DEFAULT_LEASE",
    "Due",
    "Handler",
    "MAX_ATTEMPTS",
    "TimerService",
    "cancel",
    "on_shards",
    "schedule",
]

log = logging.getLogger(__name__)

# Short enough that a successor fires within Discord's nonce window (a few minutes), long
# enough that a live process always finishes its post and record within it.
DEFAULT_LEASE = timedelta(seconds=60)
MAX_ATTEMPTS = 10  # then the timer is dropped (a channel deleted, permissions gone…)
IDLE_CHECK = 300.0  # seconds: look again even without a poke (another process's writes)
BATCH = 50


@dataclass(frozen=True, slots=True)
class Due:
    """A claimed timer, as the handler of its ``kind`` receives it."""

    id: int
    kind: str
    ref: str
    guild_id: int
    due_at: datetime
    generation: int
    attempts: int

    @property
    def nonce(self) -> str:
        """The same for every attempt at this firing, different for any other (≤ 25 chars)."""
        ms = int(self.due_at.timestamp() * 1000) & 0xFFFFFFFFFFF
        return f"{self.id:x}.{self.generation & 0xFFFF:x}.{ms:x}"[:25]


Handler = Callable[[Due], Awaitable[None]]


def _insert(dialect: str) -> Callable[[type[Timer]], postgresql.Insert | sqlite.Insert]:
    """The dialect's INSERT construct (both have ``on_conflict_do_update``)."""
    if dialect == "postgresql":
        return postgresql.insert
    return sqlite.insert


async def schedule(
    session: AsyncSession, kind: str, ref: str, guild_id: int, due_at: datetime
) -> None:
    """Set (or move) the ``(kind, ref)`` timer to ``due_at``, in the caller's transaction.

    Moving it bumps the generation and drops any lease: the firing in progress, if any,
    will find its generation gone and leave the new one alone.
    """
    insert = _insert(session.get_bind().dialect.name)(Timer).values(
        kind=kind, ref=ref, guild_id=guild_id, due_at=due_at, generation=1, attempts=0
    )
    await session.exec(
        insert.on_conflict_do_update(
            index_elements=["kind", "ref"],
            set_={
                "due_at": due_at,
                "guild_id": guild_id,
                "generation": Timer.generation + 1,
                "lease_owner": None,
                "lease_until": None,
                "attempts": 0,
            },
        )
    )


async def cancel(session: AsyncSession, kind: str, ref: str) -> None:
    """Remove the ``(kind, ref)`` timer, in the caller's transaction (no-op if none)."""
    await session.exec(delete(Timer).where(col(Timer.kind) == kind, col(Timer.ref) == ref))


def on_shards(guild_id: Mapped[int], shards: Shards) -> ColumnElement[bool] | None:
    """SQL for "this guild lives on one of ``shards``" (None: one process serves every guild).

    Discord's routing, ``(guild_id >> 22) % count``, with the constants inline (PostgreSQL has
    no ``bigint >> bigint`` operator, which a bound parameter would ask for).
    """
    if shards.count <= 1:
        return None
    shifted = guild_id.op(">>", return_type=BigInteger)(literal_column("22"))
    shard = shifted.op("%", return_type=BigInteger)(literal_column(str(int(shards.count))))
    return shard.in_(shards.ids)


class TimerService:
    """Claims, fires and records the timers of this process's shards."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        shards: Shards | None = None,
        *,
        lease: timedelta = DEFAULT_LEASE,
        owner: str | None = None,
        poll: float = IDLE_CHECK,
    ) -> None:
        self.sessions = sessions
        self.shards = shards or Shards()
        self.lease = lease
        self.poll = poll  # look again this often even without a poke (rows edited elsewhere)
        self.owner = (owner or f"{socket.gethostname()}:{os.getpid()}")[:80]
        self.handlers: dict[str, Handler] = {}
        self.changed = asyncio.Event()

    def register(self, kind: str, handler: Handler) -> None:
        """Fire ``kind`` timers with ``handler`` (only registered kinds are ever claimed)."""
        self.handlers[kind] = handler
        self.changed.set()

    def poke(self) -> None:
        """A timer was scheduled or moved: the dispatcher re-reads the earliest one."""
        self.changed.set()

    def _owned(self, kinds: list[str]) -> list[ColumnElement[bool]]:
        """Rows this process may fire: a registered kind, a guild on one of its shards."""
        conditions: list[ColumnElement[bool]] = [col(Timer.kind).in_(kinds)]
        if (owned := on_shards(col(Timer.guild_id), self.shards)) is not None:
            conditions.append(owned)
        return conditions

    async def next_wake(self) -> datetime | None:
        """When the earliest timer of this process becomes claimable (due and unleased)."""
        kinds = list(self.handlers)
        if not kinds:
            return None
        ready_at = case(
            (col(Timer.lease_until) > col(Timer.due_at), col(Timer.lease_until)),
            else_=col(Timer.due_at),
        )
        async with self.sessions() as session:
            value: datetime | None = await session.scalar(
                select(func.min(ready_at)).where(*self._owned(kinds))
            )
        return value

    async def claim(self, now: datetime | None = None, limit: int = BATCH) -> list[Due]:
        """Lease up to ``limit`` due timers of this process's shards, atomically.

        One statement: ``UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING``,
        so two processes (or two overlapping claims) never get the same row.
        """
        kinds = list(self.handlers)
        if not kinds:
            return []
        now = now or utcnow()
        due = (
            select(col(Timer.id))
            .where(
                col(Timer.due_at) <= now,
                or_(col(Timer.lease_until).is_(None), col(Timer.lease_until) <= now),
                *self._owned(kinds),
            )
            .order_by(col(Timer.due_at))
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        statement = (
            update(Timer)
            .where(col(Timer.id).in_(due.scalar_subquery()))
            .values(
                lease_owner=self.owner, lease_until=now + self.lease, attempts=Timer.attempts + 1
            )
            .returning(
                col(Timer.id),
                col(Timer.kind),
                col(Timer.ref),
                col(Timer.guild_id),
                col(Timer.due_at),
                col(Timer.generation),
                col(Timer.attempts),
            )
        )
        async with self.sessions() as session, session.begin():
            rows = (await session.exec(statement)).all()
        return sorted((Due(*row) for row in rows), key=lambda d: (d.due_at, d.id))

    async def done(self, due: Due) -> bool:
        """Record a firing: delete the row if it is still the claimed generation."""
        async with self.sessions() as session, session.begin():
            result = await session.exec(
                delete(Timer).where(
                    col(Timer.id) == due.id, col(Timer.generation) == due.generation
                )
            )
        return result.rowcount == 1

    async def fire(self, now: datetime | None = None) -> int:
        """Claim what is due and run each handler; returns how many were recorded as done."""
        fired = 0
        for due in await self.claim(now):
            handler = self.handlers.get(due.kind)
            try:
                if handler is not None:
                    await handler(due)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - one bad timer must not stop the others
                log.exception("timer %s %s (attempt %d)", due.kind, due.ref, due.attempts)
                if due.attempts < MAX_ATTEMPTS:
                    continue  # the lease runs out and it is claimed again
                log.error("timer %s %s dropped after %d attempts", due.kind, due.ref, due.attempts)
            if await self.done(due):
                fired += 1
        return fired

    async def run(self) -> None:
        """Sleep until the earliest claimable timer (or a poke), fire, repeat; forever."""
        while True:
            try:
                wake = await self.next_wake()
                delay = self.poll
                if wake is not None:
                    delay = max(0.0, min(delay, (wake - utcnow()).total_seconds()))
                self.changed.clear()
                if delay > 0:
                    try:
                        await asyncio.wait_for(self.changed.wait(), timeout=delay)
                        continue  # something moved: read the earliest again
                    except TimeoutError:
                        pass
                await self.fire()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the loop must outlive a database hiccup
                log.exception("timer dispatcher")
                await asyncio.sleep(30)
