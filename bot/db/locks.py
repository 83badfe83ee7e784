"""Serialising writers that must count rows before adding one (caps per member).

A cap such as "at most ten characters per member" is a check over *several* rows, so no
single row's version can guard it.  The inserting transaction therefore counts after its own
insert, and concurrent inserters of one campaign are made to take turns:

- PostgreSQL: a row lock on the campaign (``SELECT … FOR UPDATE``).  It changes nothing in
  the row — no version bump — so campaign settings and cached campaign rows are undisturbed;
  the next inserter waits for the lock and, under READ COMMITTED, its count sees the rows the
  previous one committed.
- SQLite: one writer at a time is the engine's own rule.  The caller's first statement in the
  transaction must be the insert, so the transaction's snapshot starts when it holds the write
  lock, after any earlier writer has committed; the count that follows sees that writer's rows.
"""

from __future__ import annotations

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign

__all__ = ["lock_campaign"]


async def lock_campaign(session: AsyncSession, campaign_id: int) -> None:
    """Take the campaign's row lock for this transaction (PostgreSQL; see the module doc)."""
    if session.bind is not None and session.bind.dialect.name == "postgresql":
        await session.exec(select(Campaign.id).where(Campaign.id == campaign_id).with_for_update())
