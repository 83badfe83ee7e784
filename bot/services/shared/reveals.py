"""Reading a campaign's reveal events (:class:`bot.db.models.Reveal`) for the audience rule."""

from __future__ import annotations

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Reveal
from bot.services.shared.audience import NO_REVEALS, Reveals

__all__ = ["reveals_of"]


async def reveals_of(session: AsyncSession, campaign_id: int | None) -> Reveals:
    """Each revealed NPC of the campaign and its latest reveal (one small grouped query)."""
    if campaign_id is None:
        return NO_REVEALS
    rows = (
        await session.exec(
            select(Reveal.character_id, func.max(Reveal.created_at))
            .where(Reveal.campaign_id == campaign_id)
            .group_by(col(Reveal.character_id))
        )
    ).all()
    return Reveals({character_id: at for character_id, at in rows if at is not None})
