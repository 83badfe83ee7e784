"""The GM's Approve/Reject buttons on a player's purchase waiting for approval (``/xp spend``
where the campaign asks for it: Núcleo's advancement table, issue 23 §4).

``arb:1:px-yes:<character>:0`` buys it on the sheet as it is then (the PX, the maxima and the
pyramid are checked again), ``…px-no…`` drops it.  Referees only (the service refuses anyone
else); a purchase already decided answers so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.sheets.xp import GrantLine
from cogs.ui import render_xp
from cogs.ui.audience import answer
from cogs.ui.context import ctx_of
from cogs.ui.keyed_button import KeyedButton

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["PurchaseButton", "waiting_message"]

STRIP_ON = ("xp.error.nothing_pending",)


def waiting_message(line: GrantLine, locale: str) -> dict[str, Any]:
    """A player's purchase waiting for the GM, with the GM's two buttons."""
    components = discord.ui.View(timeout=None)
    for action, key in (("yes", "xp.purchase_approve"), ("no", "xp.purchase_reject")):
        components.add_item(PurchaseButton(line.character_id, action=action, label=t(key, locale)))
    content = t("xp.purchase_waiting", locale, name=line.character_name, what=line.waiting)
    return {"content": content, "view": components}


class PurchaseButton(
    KeyedButton,
    kind="px-",
    style={"yes": discord.ButtonStyle.success, "no": discord.ButtonStyle.danger},
    suffix=":0",
    reference="purchase",
):
    character_id: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            line, asked = await ctx.services.xp.decide_purchase(
                ctx.place, ctx.actor, self.character_id, approve=self.action == "yes"
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error, strip_on=STRIP_ON)
            return
        await itx.response.edit_message(view=None)
        if self.action == "yes":  # a player's character: its purchase is everyone's to read
            told = await answer(itx, line.secrecy, lambda _seen: line)
            await itx.followup.send(
                **render_xp.spend(told.reply, asked, ctx.locale), ephemeral=told.ephemeral
            )
        else:
            await itx.followup.send(
                ctx.t("xp.purchase_rejected", name=line.character_name, what=asked)
            )
