"""``/xp grant`` and ``/xp log``: the referee's experience awards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.services.xp import MAX_GRANT, AwardEntry, GrantLine, GrantView
from cogs.sheets import character_autocomplete
from cogs.ui.context import actor_of, place_of, reply_locale
from cogs.ui.cooldowns import fight
from cogs.ui.render import COLOUR, truncate
from cogs.ui.slow import acknowledge, reply

if TYPE_CHECKING:
    from bot.app import Arbitro


def render_grant(view: GrantView, locale: str) -> dict[str, Any]:
    lines = []
    for line in view.lines:
        text = t(
            "xp.line", locale, name=line.character_name, before=line.xp_before, after=line.xp_after
        )
        for track, before, after in line.levels:
            text += "\n" + t("xp.level", locale, track=track, before=before, after=after)
        for note in line.notes:
            text += "\n" + t("xp.note", locale, note=t(note, locale))
        lines.append(text)
    title = t("xp.granted" if view.amount > 0 else "xp.removed", locale, amount=abs(view.amount))
    embed = discord.Embed(
        title=title, description=truncate("\n\n".join(lines), 4000), colour=COLOUR["success"]
    )
    if view.reason:
        embed.add_field(
            name=t("roll.reason", locale), value=truncate(view.reason, 1024), inline=False
        )
    return {"embed": embed}


def render_log(entries: tuple[AwardEntry, ...], locale: str) -> dict[str, Any]:
    if not entries:
        return {"content": t("xp.log_empty", locale), "ephemeral": True}
    lines = [
        t(
            "xp.log_line",
            locale,
            name=entry.character_name,
            amount=f"{entry.amount:+d}",
            after=entry.xp_after,
            reason=f" — {truncate(entry.reason, 80)}" if entry.reason else "",
            when=discord.utils.format_dt(
                entry.created_at.replace(tzinfo=discord.utils.utcnow().tzinfo), "d"
            ),
        )
        for entry in entries
    ]
    embed = discord.Embed(
        title=t("xp.log_title", locale),
        description=truncate("\n".join(lines), 4000),
        colour=COLOUR[None],
    )
    return {"embed": embed, "ephemeral": True}


def render_spend(line: GrantLine, what: str, locale: str) -> dict[str, Any]:
    text = t(
        "xp.line", locale, name=line.character_name, before=line.xp_before, after=line.xp_after
    )
    for track, before, after in line.levels:
        text += "\n" + t("xp.level", locale, track=track, before=before, after=after)
    embed = discord.Embed(
        title=t("xp.spent", locale, what=what), description=text, colour=COLOUR["success"]
    )
    return {"embed": embed}


async def purchase_autocomplete(
    itx: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    bot: Arbitro = itx.client  # type: ignore[assignment]
    character = getattr(itx.namespace, "character", None)
    options = await bot.services.xp.purchases(place_of(itx), actor_of(itx), character)
    needle = current.casefold()
    return [
        app_commands.Choice(name=o.label[:100], value=o.value[:100])
        for o in options
        if needle in o.label.casefold()
    ][:25]


@app_commands.guild_only()
class XpCog(commands.GroupCog, group_name="xp", group_description="Experience (the GM grants it)"):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="grant", description="Grant experience to a character or to the whole party (GM)"
    )
    @app_commands.describe(
        amount="Experience points (negative to correct a mistake)",
        character="Who receives it",
        party="Every player character of the campaign",
        reason="Why (kept in the campaign's record)",
    )
    @app_commands.autocomplete(character=character_autocomplete)
    @fight()
    async def grant(
        self,
        itx: discord.Interaction,
        amount: app_commands.Range[int, -MAX_GRANT, MAX_GRANT],
        character: str | None = None,
        party: bool = False,
        reason: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        locale = await reply_locale(self.bot, itx)
        if party:
            await acknowledge(itx)  # one write per character of the party
        view = await self.bot.services.xp.grant(
            place_of(itx), actor_of(itx), amount, character=character, party=party, reason=reason
        )
        await reply(itx, locale, **render_grant(view, locale))

    @app_commands.command(
        name="spend", description="Spend experience on an ability's next level (rolweb)"
    )
    @app_commands.describe(
        what="What to buy (suggested from the sheet, with its cost)",
        character="Whose experience (default: yours)",
    )
    @app_commands.autocomplete(what=purchase_autocomplete, character=character_autocomplete)
    @fight()
    async def spend(
        self,
        itx: discord.Interaction,
        what: app_commands.Range[str, 1, 100],
        character: str | None = None,
    ) -> None:
        locale = await reply_locale(self.bot, itx)
        line = await self.bot.services.xp.spend(
            place_of(itx), actor_of(itx), what, character=character
        )
        await itx.response.send_message(**render_spend(line, what, locale))

    @app_commands.command(name="log", description="The campaign's experience awards")
    @app_commands.describe(character="Only this character's awards")
    @app_commands.autocomplete(character=character_autocomplete)
    async def log(self, itx: discord.Interaction, character: str | None = None) -> None:
        locale = await reply_locale(self.bot, itx)
        entries = await self.bot.services.xp.log(place_of(itx), actor_of(itx), character=character)
        await itx.response.send_message(**render_log(entries, locale))


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(XpCog(bot))
