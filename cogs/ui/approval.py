"""The GM's Approve/Reject buttons on a new or imported character that awaits approval.

Where the campaign asks for it (setting ``aprobar_personajes``) the reply that shows a new
player character carries ``arb:1:approve-yes:<character>:0`` and ``…approve-no…`` buttons
(``DynamicItem``s: they work after a restart).  Only referees may press them; the service
(:mod:`bot.services.approvals`) refuses anyone else and a decision already taken, with a
translated private reply.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.i18n import t
from bot.services.sheet_access import CharacterView
from cogs.ui.context import ctx_of
from cogs.ui.errors import describe_error, send_error

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = ["ApprovalButton", "with_approval"]


def with_approval(message: dict[str, Any], view: CharacterView, locale: str) -> dict[str, Any]:
    """``message`` with the waiting note and the GM's buttons when ``view`` awaits approval."""
    if view.approval == "approved" or message.get("ephemeral"):
        return message
    note = t("approval.pending", locale, name=view.name)
    content = message.get("content")
    return {
        **message,
        "content": f"{content}\n{note}" if content else note,
        "view": approval_buttons(view.id, locale, reject=view.approval == "pending"),
    }


def approval_buttons(character_id: int, locale: str, *, reject: bool = True) -> discord.ui.View:
    components = discord.ui.View(timeout=None)
    components.add_item(ApprovalButton("yes", character_id, t("approval.button_approve", locale)))
    if reject:
        components.add_item(ApprovalButton("no", character_id, t("approval.button_reject", locale)))
    return components


class ApprovalButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"arb:1:approve-(?P<choice>yes|no):(?P<character>\d+):0",
):
    def __init__(self, choice: str, character_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or choice,
                style=discord.ButtonStyle.success
                if choice == "yes"
                else discord.ButtonStyle.danger,
                custom_id=f"arb:1:approve-{choice}:{character_id}:0",
            )
        )
        self.choice, self.character_id = choice, character_id

    @classmethod
    async def from_custom_id(
        cls,
        itx: discord.Interaction[Arbitro],  # type: ignore[override]  # discord.py: any Client
        item: discord.ui.Button[discord.ui.View],  # type: ignore[override]  # what we matched
        match: re.Match[str],
    ) -> Self:
        return cls(match["choice"], int(match["character"]), item.label or "")

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            view = await ctx.services.approvals.decide(
                ctx.place, ctx.actor, self.character_id, approve=self.choice == "yes"
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            text = describe_error(error, ctx.locale)
            if text is None:
                log.exception("approval button error", exc_info=error)
                text = t("errors.unexpected", ctx.locale, reference="approval")
            await send_error(itx, text)
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
