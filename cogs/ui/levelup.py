"""The level-up button of an S&W XP grant: the player (or the GM) rolls the new hit die.

Keyed ``arb:1:hitdie:<grant log id>``, persistent; the service refuses a second roll, a
roll after the grant was undone, and anyone but the character's owner or the GM.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.sheets.levelup import HitDieView
from bot.services.sheets.xp import GrantLine
from cogs.ui.context import ctx_of
from cogs.ui.keyed_button import KeyedButton
from cogs.ui.render import COLOUR, truncate
from cogs.ui.undo import with_undo, without_button

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["HitDieButton", "hit_die_message", "with_hit_die"]


def with_hit_die(message: dict[str, Any], line: GrantLine, locale: str) -> dict[str, Any]:
    """``message`` with the roll button for ``line``'s new hit dice, when it owes any."""
    if not line.hit_die or line.undo is None or message.get("ephemeral"):
        return message
    view = message.get("view") or discord.ui.View(timeout=None)
    if len(view.children) >= 25:
        return message
    label = t("xp.hit_die_button", locale, name=line.character_name)[:80]
    view.add_item(HitDieButton(line.undo.log_id, label=label))
    return {**message, "view": view}


def hit_die_message(view: HitDieView, locale: str) -> dict[str, Any]:
    lines = [
        t(
            "xp.hit_die_rolled",
            locale,
            name=view.character_name,
            gained=view.gained,
            breakdown=view.breakdown,
            current=view.hit_points[0],
            maximum=view.hit_points[1],
        )
    ]
    lines += [t("xp.change", locale, what=w, before=b, after=a) for w, b, a in view.changes]
    embed = discord.Embed(
        title=t("xp.level_title", locale, name=view.character_name),
        description=truncate("\n".join(lines), 4000),
        colour=COLOUR["success"],
    )
    return with_undo({"embed": embed}, view.undo, locale)


class HitDieButton(KeyedButton, kind="hitdie", style=discord.ButtonStyle.primary, emoji="🎲"):
    grant_id: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            view = await ctx.services.levelup.roll_hit_die(ctx.place, ctx.actor, self.grant_id)
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error)
            return
        await itx.response.edit_message(view=without_button(itx.message, self.custom_id))
        await itx.followup.send(**hit_die_message(view, ctx.locale))
