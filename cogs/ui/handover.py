"""The buttons of a campaign's handover offer (``/campaign transfer``, issue 23 §5).

``arb:1:gm-take-yes:<campaign>:<version>`` accepts and ``…gm-take-no…`` declines (or, for the
GM, withdraws); the offer's version makes any later change of the campaign leave them stale,
and the service checks who presses (:mod:`bot.services.campaigns.handover`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.campaigns.handover import HandoverOffer
from cogs.ui.context import ctx_of
from cogs.ui.keyed_button import KeyedButton

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["HandoverButton", "offer_message"]

STRIP_ON = ("campaign.error.transfer_stale",)


def offer_message(offer: HandoverOffer, locale: str) -> dict[str, Any]:
    """The offer, pinging the member it names (the one deliberate mention), with its buttons."""
    components = discord.ui.View(timeout=None)
    for action, key in (("yes", "campaign.transfer_accept"), ("no", "campaign.transfer_decline")):
        button = HandoverButton(
            offer.campaign_id, offer.version, action=action, label=t(key, locale)
        )
        components.add_item(button)
    content = t(
        "campaign.transfer_offered",
        locale,
        gm=offer.from_user_id,
        member=offer.to_user_id,
        name=offer.name,
    )
    return {
        "content": content,
        "view": components,
        "allowed_mentions": discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(id=offer.to_user_id)]
        ),
    }


class HandoverButton(
    KeyedButton,
    kind="gm-take-",
    style={"yes": discord.ButtonStyle.success, "no": discord.ButtonStyle.secondary},
    reference="handover",
):
    campaign_id: int
    version: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            done = await ctx.services.handover.answer(
                ctx.place, ctx.actor, self.campaign_id, self.version, accept=self.action == "yes"
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error, strip_on=STRIP_ON)
            return
        await itx.response.edit_message(view=None)
        key = (
            "campaign.transfer_done" if done.status == "accepted" else "campaign.transfer_declined"
        )
        await itx.followup.send(
            ctx.t(key, name=done.name, member=done.to_user_id, gm=done.from_user_id),
            allowed_mentions=discord.AllowedMentions.none(),
        )
