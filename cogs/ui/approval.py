"""The GM's Approve/Reject buttons on a new or imported character that awaits approval.

Where the campaign asks for it (setting ``aprobar_personajes``) the reply that shows a new
player character carries ``arb:1:approve-yes:<character>:0`` and ``…approve-no…`` buttons
(``DynamicItem``s: they work after a restart).  Only referees may press them; the service
(:mod:`bot.services.sheets.approvals`) refuses anyone else and a decision already taken, with a
translated private reply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.sheets.access import CharacterView
from cogs.ui.context import ctx_of
from cogs.ui.keyed_button import KeyedButton

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["ApprovalButton", "with_approval"]


def with_approval(message: dict[str, Any], view: CharacterView, locale: str) -> dict[str, Any]:
    """``message`` with the waiting note and the GM's buttons when ``view`` awaits approval."""
    if view.approval == "approved" or message.get("ephemeral"):
        return message
    note = t("approval.pending", locale, name=view.name)
    if view.referee_fields:  # a player's import that sets what only the GM sets
        note += "\n" + t("approval.referee_fields", locale, fields=", ".join(view.referee_fields))
    content = message.get("content")
    return {
        **message,
        "content": f"{content}\n{note}" if content else note,
        "view": approval_buttons(view.id, locale, reject=view.approval == "pending"),
    }


def approval_buttons(character_id: int, locale: str, *, reject: bool = True) -> discord.ui.View:
    components = discord.ui.View(timeout=None)
    label = t("approval.button_approve", locale)
    components.add_item(ApprovalButton(character_id, action="yes", label=label))
    if reject:
        label = t("approval.button_reject", locale)
        components.add_item(ApprovalButton(character_id, action="no", label=label))
    return components


class ApprovalButton(
    KeyedButton,
    kind="approve-",
    style={"yes": discord.ButtonStyle.success, "no": discord.ButtonStyle.danger},
    suffix=":0",
    reference="approval",
):
    character_id: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            view = await ctx.services.approvals.decide(
                ctx.place, ctx.actor, self.character_id, approve=self.action == "yes"
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error)
            return
        if view.approval == "approved":
            await itx.response.edit_message(view=None)
            key = "approval.approved_active" if view.made_active else "approval.approved"
        else:  # rejected: the GM may still change their mind
            await itx.response.edit_message(
                view=approval_buttons(view.character_id, ctx.locale, reject=False)
            )
            key = "approval.rejected"
        await itx.followup.send(ctx.t(key, name=view.name, owner=view.owner_user_id))
