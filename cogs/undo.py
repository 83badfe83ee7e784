"""``/undo``: the GM takes back an audited change by its id (shown by ``/history``).

The same undo as the button on the change's reply (:mod:`cogs.ui.undo`); the rules for
what may be undone live in :mod:`bot.services.sheets.undo`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.undo import UndoButton, undone

if TYPE_CHECKING:
    from bot.app import Arbitro


class UndoCog(commands.Cog):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot

    @app_commands.command(
        name="undo", description="Undo an attack, damage, heal, effect or XP grant (GM)"
    )
    @app_commands.describe(entry="The entry's number, as /history shows it (#123)")
    @app_commands.guild_only()
    @fight()
    async def undo(
        self, itx: discord.Interaction[Arbitro], entry: app_commands.Range[int, 1]
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.undo.undo(ctx.place, ctx.actor, entry)
        await itx.response.send_message(undone(view, ctx.locale))


async def setup(bot: Arbitro) -> None:
    bot.add_dynamic_items(UndoButton)
    await bot.add_cog(UndoCog(bot))
