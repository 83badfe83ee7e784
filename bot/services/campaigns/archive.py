"""Archived campaigns: listing a server's campaigns (live and archived) and reopening one.

``/campaign end`` archives without deleting anything; these use cases make that true for
users too: the GM can see what was archived, when, and bring it back.  Reopening restores
the campaign's own bindings, refused when one of its channels now belongs to another live
campaign (the partial unique index ``uq_active_binding`` would refuse it anyway; the check
names the campaign in the way).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from bot.db.models import Campaign, CampaignBinding, saved_id
from bot.services.campaigns.service import ACTIVE_BINDING, CampaignService, CampaignView
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import ConcurrentChange, DomainError, NotAllowed
from bot.services.shared.versioned import update_versioned
from rules.text import fold

__all__ = ["CampaignArchive", "CampaignRow", "MAX_LISTED"]

#: Campaigns one list shows (newest first); a server rarely has more.
MAX_LISTED = 50


@dataclass(frozen=True, slots=True)
class CampaignRow:
    id: int
    name: str
    system: str
    gm_user_id: int
    status: str
    created_at: datetime
    ended_at: datetime | None


class CampaignArchive:
    def __init__(self, campaigns: CampaignService) -> None:
        self.campaigns = campaigns
        self.sessions = campaigns.sessions

    async def list(self, place: Place, *, archived: bool = True) -> tuple[CampaignRow, ...]:
        """The server's campaigns, newest first; archived ones too unless ``archived`` is off."""
        # an import still being written (``importing``) is nobody's campaign yet
        query = select(Campaign).where(
            Campaign.guild_id == place.guild_id, col(Campaign.status).in_(("active", "archived"))
        )
        if not archived:
            query = query.where(Campaign.status == "active")
        async with self.sessions() as session:
            rows = (
                await session.exec(query.order_by(col(Campaign.id).desc()).limit(MAX_LISTED))
            ).all()
        return tuple(
            CampaignRow(
                saved_id(c), c.name, c.system, c.gm_user_id, c.status, c.created_at, c.ended_at
            )
            for c in rows
        )

    async def reopen(self, place: Place, actor: Actor, name: str) -> CampaignView:
        """Reopen the archived campaign called ``name`` (folded) of this server: its GM only
        (or an administrator); its channels must not be bound to another live campaign."""
        async with self.sessions() as session, session.begin():
            archived = [
                c
                for c in (
                    await session.exec(
                        select(Campaign)
                        .where(Campaign.guild_id == place.guild_id, Campaign.status == "archived")
                        .order_by(col(Campaign.id).desc())
                    )
                ).all()
                if fold(c.name) == fold(name)
            ]
            if not archived:
                raise DomainError("flows.reopen_not_found", name=name)
            campaign = archived[0]
            if campaign.gm_user_id != actor.user_id and not actor.is_admin:
                raise NotAllowed("flows.reopen_gm_only", name=campaign.name)
            bindings = (
                await session.exec(
                    select(CampaignBinding).where(CampaignBinding.campaign_id == campaign.id)
                )
            ).all()
            for binding in bindings:
                other = (
                    await session.exec(
                        select(Campaign.name)
                        .join(CampaignBinding, col(CampaignBinding.campaign_id) == Campaign.id)
                        .where(
                            CampaignBinding.guild_id == place.guild_id,
                            CampaignBinding.target_id == binding.target_id,
                            ACTIVE_BINDING,
                        )
                    )
                ).first()
                if other is not None:
                    raise DomainError("flows.reopen_taken", name=campaign.name, other=other)
            await update_versioned(  # reported: the GM reopens the archive they chose
                session,
                Campaign,
                col(Campaign.id) == campaign.id,
                campaign.version,
                col(Campaign.status) == "archived",
                status="active",
                ended_at=None,
            )
            try:
                await session.exec(
                    update(CampaignBinding)
                    .where(col(CampaignBinding.campaign_id) == campaign.id)
                    .values(active=True)
                )
            except IntegrityError:  # a channel was bound to a new campaign meanwhile
                raise ConcurrentChange() from None
        self.campaigns.forget(place.guild_id)
        return await self.campaigns.view(saved_id(campaign), place.guild_id)
