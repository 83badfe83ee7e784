"""Where a roll request's presses are stored: one row per character asked (issue 26).

A press was a compare-and-set on the whole request row, so presses for different characters
at once conflicted and each loser was rolled again from the start (5.3 attempts per press
at 20–100 at once).  Now each character's roll is a compare-and-set on its own
:class:`~bot.db.models.RollRequestEntry` (its ``version``, its ``log_id`` still empty) in the
roll's own transaction, after a shared lock on the request row that a concurrent close
waits for: a double press stores one roll, a press after the close stores none, and presses
for different characters never wait for each other.

The request is then read from its rows: the asked characters from ``roll_request.entries``
(written once), each roll's numbers and who pressed from its audit row.  Requests stored
before this table existed keep their numbers in ``entries`` as well, used when the audit row is
gone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import func
from sqlalchemy import select as core_select
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import RollLog, RollRequest, RollRequestEntry, utcnow
from bot.services.shared.errors import DomainError
from bot.services.shared.retry import retrying
from bot.services.shared.versioned import StaleWrite, update_versioned

__all__ = ["Asked", "Rolled", "claim_completion", "claim_entry", "entry_rows", "rolls_of"]


@dataclass(frozen=True, slots=True)
class Rolled:
    """A stored press: its audit row and, when that row is still there, what it says."""

    log_id: int
    total: int | None
    outcome: str | None
    by: int | None
    #: the audit row's secrecy columns (``audience``, ``audience_user_id``, ``secrets``)
    secrecy: Mapping[str, Any] = field(default_factory=dict)
    rolled_at: datetime | None = None


class Asked(Protocol):
    """A character a request asks (its entry), and why it cannot roll, if it cannot."""

    @property
    def character_id(self) -> int: ...
    @property
    def unable(self) -> Sequence[object]: ...


def entry_rows(request_id: int, guild_id: int, asked: Iterable[Asked]) -> list[RollRequestEntry]:
    """The rows of a new request: one per character who can roll."""
    return [
        RollRequestEntry(request_id=request_id, character_id=entry.character_id, guild_id=guild_id)
        for entry in asked
        if not entry.unable
    ]


async def rolls_of(
    session: AsyncSession, guild_id: int, request_id: int
) -> dict[int, Rolled | None]:
    """Each asked character's roll (``None``: not yet), by character id; one query."""
    entry, log = RollRequestEntry.__table__.c, RollLog.__table__.c  # type: ignore[attr-defined]
    query = (
        core_select(
            entry.character_id,
            entry.log_id,
            log.total,
            log.outcome,
            log.user_id,
            log.audience,
            log.audience_user_id,
            log.secrets,
            log.created_at,
        )  # fmt: skip
        .select_from(RollRequestEntry.__table__)  # type: ignore[attr-defined]
        .outerjoin(RollLog.__table__, log.id == entry.log_id)  # type: ignore[attr-defined]
        .where(entry.request_id == request_id, entry.guild_id == guild_id)
    )
    # a Core query of nine columns (session.exec's stubs stop at four): on the session's
    # connection, rows as named tuples
    connection = await session.connection()
    found: dict[int, Rolled | None] = {}
    for row in (await connection.execute(query)).all():
        found[row.character_id] = (
            None
            if row.log_id is None
            else Rolled(
                row.log_id, row.total, row.outcome, row.user_id,
                {
                    "audience": row.audience,
                    "audience_user_id": row.audience_user_id,
                    "secrets": row.secrets,
                },
                row.created_at,
            )
        )  # fmt: skip
    return found


async def claim_entry(
    session: AsyncSession, guild_id: int, request_id: int, character_id: int, seen: int,
    log_id: int, name: str,
) -> None:  # fmt: skip
    """Store ``log_id`` as the character's roll, in the roll's transaction: refused (and the
    roll rolled back) when the request is no longer open or the character already rolled.

    The shared lock (PostgreSQL's ``FOR SHARE``; SQLite writes one transaction at a time) makes
    a close wait for the presses under way, and a press wait for a close under way, so a
    roll is either stored before the close or refused."""
    status = (
        await session.exec(
            select(RollRequest.status)
            .where(col(RollRequest.id) == request_id)
            .with_for_update(read=True)
        )
    ).first()
    if status != "open":
        raise DomainError("request.error.closed")
    try:
        await update_versioned(
            session,
            RollRequestEntry,
            (col(RollRequestEntry.request_id) == request_id)
            & (col(RollRequestEntry.character_id) == character_id)
            & (col(RollRequestEntry.guild_id) == guild_id),
            seen,
            col(RollRequestEntry.log_id).is_(None),
            log_id=log_id,
        )
    except StaleWrite:  # reported: only a roll changes the row, another press stored one
        raise DomainError("request.error.already_rolled", name=name) from None


async def claim_completion(
    sessions: async_sessionmaker[AsyncSession], guild_id: int, request_id: int
) -> bool:
    """After a press is stored: whether it was the one that completed the request (nobody
    left to roll), claimed once by a compare-and-set on the request's version.  Each press
    looks after its own commit, so the last one to commit sees every roll; the claim makes
    exactly one of those that see it tell the GM."""
    pending = (
        select(func.count())
        .select_from(RollRequestEntry)
        .where(
            RollRequestEntry.request_id == request_id,
            RollRequestEntry.guild_id == guild_id,
            col(RollRequestEntry.log_id).is_(None),
        )
    )
    async with sessions() as session:  # one read, no transaction: most presses stop here
        if (await session.exec(pending)).one():
            return False

    async def attempt() -> bool:  # retried: a close or another claim moved the version
        async with sessions() as session, session.begin():
            if (await session.exec(pending)).one():
                return False
            current = (
                await session.exec(
                    select(RollRequest.version, RollRequest.completed_at).where(
                        col(RollRequest.id) == request_id
                    )
                )
            ).one()
            if current[1] is not None:
                return False
            await update_versioned(
                session, RollRequest, col(RollRequest.id) == request_id, current[0],
                completed_at=utcnow(),
            )  # fmt: skip
            return True

    return await retrying(attempt)
