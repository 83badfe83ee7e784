"""The level-up button of an S&W XP grant: the player (or the GM) rolls the new hit die.

Keyed ``arb:1:hitdie:<grant log id>``, persistent; the service refuses a second roll, a
roll after the grant was undone, and anyone but the character's owner or the GM.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.i18n import t
from bot.services.levelup import HitDieView
from bot.services.xp import GrantLine
from cogs.ui.context import ctx_of
from cogs.ui.errors import describe_error, send_error
from cogs.ui.render import COLOUR, truncate
from cogs.ui.undo import with_undo, without_button

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = ["HitDieButton", "hit_die_message", "with_hit_die"]


def with_hit_die(message: dict[str, Any], line: GrantLine, locale: str) -> dict[str, Any]:
    """``message`` with the roll button for ``line``'s new hit dice, when it owes any."""
    if not line.hit_die or line.undo is None or message.get("ephemeral"):
        return message
    view = message.get("view") or discord.ui.View(timeout=None)
    if len(view.children) >= 25:
        return message
    label = t("xp.hit_die_button", locale, name=line.character_name)[:80]
    view.add_item(HitDieButton(line.undo.log_id, label))
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


class HitDieButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"arb:1:hitdie:(?P<log>\d+)",
):
    def __init__(self, grant_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "hit die",
                emoji="🎲",
                style=discord.ButtonStyle.primary,
                custom_id=f"arb:1:hitdie:{grant_id}",
            )
        )
        self.grant_id = grant_id

    @classmethod
    async def from_custom_id(
        cls,
        itx: discord.Interaction[Arbitro],  # type: ignore[override]  # discord.py: any Client
        item: discord.ui.Button[discord.ui.View],  # type: ignore[override]  # what we matched
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["log"]), item.label or "")

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            view = await ctx.services.levelup.roll_hit_die(ctx.place, ctx.actor, self.grant_id)
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            text = describe_error(error, ctx.locale)
            if text is None:
                log.exception("hit die button error", exc_info=error)
                text = t("errors.unexpected", ctx.locale, reference="hitdie")
            await send_error(itx, text)
            return
        await itx.response.edit_message(view=without_button(itx.message, self.custom_id))
        await itx.followup.send(**hit_die_message(view, ctx.locale))
