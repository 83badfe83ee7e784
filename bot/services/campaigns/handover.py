"""Handing a campaign to another GM (issue 23 §5): ``/campaign transfer``.

The GM (or an administrator) offers the campaign to a member: ``campaign.offered_to`` records
the offer, in a compare-and-set write that moves the campaign's ``version`` on; the offer's
buttons carry the campaign's id and that version, so they work after a restart, and any
later change (a newer offer, a setting, the campaign archived) leaves them stale.  The
campaign changes hands only when the member named accepts: a compare-and-set on the same
version and on the offer still naming them.  Declining (the member) or withdrawing (the GM)
clears the offer.  What ``/privacy delete`` does with a departing GM's campaigns is in
:mod:`bot.services.privacy.privacy`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import col

from bot.db.models import Campaign, saved_id
from bot.services.campaigns.service import CampaignService
from bot.services.shared.audit import AuditEntry, write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.shared.versioned import update_versioned

__all__ = ["HandoverOffer", "HandoverService"]

#: The offer's buttons are for a campaign that changed since (or the offer is gone).
STALE = "campaign.error.transfer_stale"


@dataclass(frozen=True, slots=True)
class HandoverOffer:
    """An offer of the campaign (``version``: the one its buttons are for), or its outcome."""

    campaign_id: int
    name: str
    version: int
    from_user_id: int
    to_user_id: int
    #: offered | accepted | declined
    status: str = "offered"


class HandoverService:
    def __init__(self, campaigns: CampaignService) -> None:
        self.campaigns = campaigns
        self.sessions = campaigns.sessions

    async def offer(
        self, place: Place, actor: Actor, member_id: int, *, member_is_bot: bool = False
    ) -> HandoverOffer:
        """The campaign's GM (or an administrator) offers it to another member; the GM stays
        the GM until the member accepts."""
        campaign = await self.campaigns.require(place)
        if actor.user_id != campaign.gm_user_id and not actor.is_admin:
            raise NotAllowed("campaign.error.transfer_gm_only", gm=campaign.gm_user_id)
        if member_is_bot:
            raise DomainError("campaign.error.transfer_bot")
        if member_id == campaign.gm_user_id:
            raise DomainError("campaign.error.transfer_same", name=campaign.name)
        try:
            async with self.sessions() as session, session.begin():
                await update_versioned(  # reported: the GM offers the campaign they saw
                    session,
                    Campaign,
                    col(Campaign.id) == campaign.id,
                    campaign.version,
                    col(Campaign.status) == "active",
                    stale=STALE,
                    offered_to=member_id,
                )
        finally:
            self.campaigns.forget(place.guild_id)
        return HandoverOffer(
            saved_id(campaign), campaign.name, campaign.version + 1, campaign.gm_user_id, member_id
        )

    async def answer(
        self, place: Place, actor: Actor, campaign_id: int, version: int, *, accept: bool
    ) -> HandoverOffer:
        """The member the offer names accepts (the campaign is theirs) or declines; the GM
        may withdraw it (declining for them).  Refused once the campaign changed since."""
        async with self.sessions() as session, session.begin():
            campaign = await session.get(Campaign, campaign_id)
            if (
                campaign is None
                or campaign.guild_id != place.guild_id
                or campaign.status != "active"
                or campaign.version != version
                or campaign.offered_to is None
            ):
                raise DomainError(STALE)
            member, previous, name = campaign.offered_to, campaign.gm_user_id, campaign.name
            withdrawing = not accept and (actor.user_id == previous or actor.is_admin)
            if actor.user_id != member and not withdrawing:
                raise NotAllowed("campaign.error.transfer_not_you", member=member)
            values: dict[str, object] = {"offered_to": None}
            if accept:
                values["gm_user_id"] = member
            await update_versioned(  # reported: the buttons are for the offer as it was
                session,
                Campaign,
                col(Campaign.id) == campaign_id,
                version,
                col(Campaign.offered_to) == member,
                stale=STALE,
                **values,
            )
            if accept:
                await write_audit(
                    session,
                    place,
                    actor,
                    campaign_id,
                    None,
                    AuditEntry(
                        kind="campaign_transfer",
                        expression="campaign_transfer",
                        breakdown=f"{previous} → {member}",
                        total=0,
                        detail={"from": previous, "to": member},
                    ),
                )
        self.campaigns.forget(place.guild_id)
        status = "accepted" if accept else "declined"
        return HandoverOffer(campaign_id, name, version + 1, previous, member, status)
