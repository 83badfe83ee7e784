"""Absences: a member declares the days they are away, and is not reminded meanwhile.

The days are typed in the member's language (``parse_day``) and are days of the campaign's
time zone; what a member may declare is :func:`.pacing.check_absence`.  A member has at
most :data:`MAX_OPEN_ABSENCES` current or upcoming absences per campaign (counted in the
transaction that inserts, so a script cannot fill the table); cancelling one is versioned.
A member who asks for it (``catch_up``) gets ``/catch-up`` by private message when the
absence ends: the durable :data:`BACK_TIMER` fires at 00:00 of the day after its last day
(the campaign's zone), and cancelling the absence cancels it.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from sqlalchemy import func
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Absence, Campaign, saved_id, utcnow
from bot.formatting import time_zone
from bot.i18n import LOCALES
from bot.services.campaigns.service import campaign_time_zone, is_referee
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.timers import cancel, schedule
from bot.services.shared.versioned import update_versioned
from bot.services.table.pacing import (
    AbsenceView,
    absence_view,
    check_absence,
    local_today,
    parse_day,
)

__all__ = [
    "BACK_TIMER",
    "MAX_OPEN_ABSENCES",
    "back_at",
    "cancel_absence",
    "declare_absence",
    "list_absences",
]

MAX_OPEN_ABSENCES = 20  # per member and campaign: a script cannot fill the table
BACK_TIMER = "pace.back"  # ref: the absence's id


def back_at(absence: Absence, zone: str) -> datetime:
    """When the member is back: 00:00 of the day after the absence's last day, in the
    campaign's zone."""
    day = absence.ends_on + timedelta(days=1)
    return datetime.combine(day, time(0), tzinfo=time_zone(zone))


async def declare_absence(
    sessions: async_sessionmaker[AsyncSession],
    campaign: Campaign,
    place: Place,
    actor: Actor,
    days: tuple[str, str],
    note: str | None,
    locale: str | None,
    now: datetime,
    catch_up: bool = False,
) -> AbsenceView:
    """The member is away from ``days[0]`` through ``days[1]``: days typed in ``locale``
    (the member's; else the campaign's, else Spanish), days of the campaign's time zone;
    ``catch_up``: a catch-up by private message on return (:data:`BACK_TIMER`)."""
    zone, locale = campaign_time_zone(campaign), locale or campaign.locale or LOCALES[0]
    today = local_today(now, zone)
    first = parse_day(days[0], locale, zone, now=now)
    last = parse_day(days[1], locale, zone, now=now)
    text = check_absence(first, last, today, note, locale)
    async with sessions() as session, session.begin():
        open_count = (
            await session.exec(
                select(func.count())
                .select_from(Absence)
                .where(
                    Absence.campaign_id == campaign.id,
                    Absence.user_id == actor.user_id,
                    col(Absence.cancelled_at).is_(None),
                    col(Absence.ends_on) >= today,
                )
            )
        ).one()
        if open_count >= MAX_OPEN_ABSENCES:
            raise DomainError("pace.error.too_many", limit=MAX_OPEN_ABSENCES)
        row = Absence(
            guild_id=place.guild_id,
            campaign_id=saved_id(campaign),
            user_id=actor.user_id,
            starts_on=first,
            ends_on=last,
            note=text,
            catch_up=catch_up,
        )
        session.add(row)
        await session.flush()
        if catch_up:
            await schedule(session, BACK_TIMER, str(row.id), place.guild_id, back_at(row, zone))
        return absence_view(row)


async def list_absences(
    sessions: async_sessionmaker[AsyncSession], campaign: Campaign, actor: Actor, now: datetime
) -> tuple[tuple[AbsenceView, ...], bool]:
    """Current and upcoming absences (today: the campaign's day): the actor's own, or
    everyone's for a referee.  The flag says which (True: the whole campaign's)."""
    today = local_today(now, campaign_time_zone(campaign))
    everyone = is_referee(campaign, actor)
    query = select(Absence).where(
        Absence.campaign_id == campaign.id,
        col(Absence.cancelled_at).is_(None),
        col(Absence.ends_on) >= today,
    )
    if not everyone:
        query = query.where(Absence.user_id == actor.user_id)
    async with sessions() as session:
        rows = (
            await session.exec(query.order_by(col(Absence.starts_on), col(Absence.id)).limit(25))
        ).all()
    return tuple(absence_view(r) for r in rows), everyone


async def cancel_absence(
    sessions: async_sessionmaker[AsyncSession], campaign: Campaign, actor: Actor, absence_id: int
) -> AbsenceView:
    """Cancel one absence: the member's own, or anyone's for a referee (versioned)."""
    async with sessions() as session, session.begin():
        row = await session.get(Absence, absence_id)
        if row is None or row.campaign_id != campaign.id or row.cancelled_at is not None:
            raise DomainError("pace.error.no_absence", id=absence_id)
        if row.user_id != actor.user_id and not is_referee(campaign, actor):
            raise DomainError("pace.error.not_yours")
        view = absence_view(row)
        await update_versioned(  # reported: the absence as its owner saw it
            session, Absence, col(Absence.id) == absence_id, view.version, cancelled_at=utcnow()
        )
        await cancel(session, BACK_TIMER, str(absence_id))
    return AbsenceView(
        view.id,
        view.user_id,
        view.starts_on,
        view.ends_on,
        view.note,
        True,
        view.version + 1,
        view.catch_up,
    )
