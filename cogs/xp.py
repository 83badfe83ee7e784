"""``/xp grant`` and ``/xp log``: the referee's experience awards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.shared.audience import Reader, Shown
from bot.services.sheets.xp import MAX_GRANT, GrantView, grant_for
from cogs.ui import render_xp
from cogs.ui.audience import answer, reader_of
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.levelup import HitDieButton, with_hit_die
from cogs.ui.options import Character, Purchase
from cogs.ui.purchase import PurchaseButton, waiting_message
from cogs.ui.slow import acknowledge, reply
from cogs.ui.undo import with_undo

if TYPE_CHECKING:
    from bot.app import Arbitro


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
        session="A game session's award: per-session race bonuses apply (default: yes for the party)",
    )
    @fight()
    async def grant(
        self,
        itx: discord.Interaction[Arbitro],
        amount: app_commands.Range[int, -MAX_GRANT, MAX_GRANT],
        character: Character | None = None,
        party: bool = False,
        reason: app_commands.Range[str, 1, 200] | None = None,
        session: bool | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        if party:
            await acknowledge(itx)  # one write per character of the party
        view = await self.bot.services.xp.grant(
            ctx.place,
            ctx.actor,
            amount,
            character=character,
            party=party,
            reason=reason,
            session=session,
        )
        # the channel reads only the awards it may (an award to a hidden NPC is the GM's);
        # the GM reads the rest privately
        public = grant_for(view, Reader.everyone())
        kept = grant_for(view, await reader_of(itx), kept_from=Reader.everyone())
        if public is not None:
            await reply(itx, ctx.locale, **self._message(public, ctx.locale))
        if kept is not None:
            message = self._message(kept, ctx.locale)
            if public is None:
                await reply(itx, ctx.locale, **message, ephemeral=True)
            else:
                await itx.followup.send(**message, ephemeral=True)

    @staticmethod
    def _message(shown: Shown[GrantView], locale: str) -> dict[str, Any]:
        message = render_xp.grant(shown, locale)
        several = len(shown.value.lines) > 1
        for line in shown.value.lines:
            name = line.character_name if several else None
            message = with_hit_die(message, line, locale)
            message = with_undo(message, line.undo, locale, name=name)
        return message

    @app_commands.command(
        name="spend",
        description="Spend experience: an ability (Rol por web), a skill or attribute (Núcleo)",
    )
    @app_commands.describe(
        what="What to buy (suggested from the sheet, with its cost)",
        character="Whose experience (default: yours)",
    )
    @fight()
    async def spend(
        self,
        itx: discord.Interaction[Arbitro],
        what: Purchase,
        character: Character | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        line = await self.bot.services.xp.spend(ctx.place, ctx.actor, what, character=character)
        if line.waiting is not None:  # the GM approves it (Núcleo: mejoras_con_aprobacion)
            await itx.response.send_message(**waiting_message(line, ctx.locale))
            return
        told = await answer(itx, line.secrecy, lambda _seen: line)
        await itx.response.send_message(
            **render_xp.spend(told.reply, what, ctx.locale), ephemeral=told.ephemeral
        )

    @app_commands.command(name="log", description="The campaign's experience awards")
    @app_commands.describe(character="Only this character's awards")
    async def log(
        self, itx: discord.Interaction[Arbitro], character: Character | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        entries = await self.bot.services.xp.log(ctx.place, ctx.actor, character=character)
        await itx.response.send_message(**render_xp.log(entries, ctx.locale))


async def setup(bot: Arbitro) -> None:
    bot.add_dynamic_items(HitDieButton, PurchaseButton)
    await bot.add_cog(XpCog(bot))
