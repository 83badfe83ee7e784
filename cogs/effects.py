"""``/effect`` (``/efecto``): timed effects and conditions on a character, in or out of a fight.

Thin: parse, call :class:`bot.services.play.effects.EffectService`, render.  The GM may put an
effect on anyone, a player on their own characters (the sheet writer's editor check).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.play.effects import MAX_ROUNDS
from cogs.ui import render_effects
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.options import AnyCharacter, EffectName
from cogs.ui.undo import with_undo

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["EffectCog"]


@app_commands.guild_only()
class EffectCog(
    commands.GroupCog, group_name="effect", group_description="Timed effects and conditions"
):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="add", description="Put an effect on a character")
    @app_commands.describe(
        target="Whose sheet (the GM: anyone; a player: their own)",
        name="The effect (e.g. Niebla, Aturdido)",
        rounds="How many rounds it lasts (empty: until removed)",
        modifier="What it modifies, comma-separated: PER-2, Defence+4, attack+1, damage+1d6, Sigilo+10",
    )
    @fight()
    async def add(
        self,
        itx: discord.Interaction[Arbitro],
        target: AnyCharacter,
        name: EffectName,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
        modifier: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await ctx.services.effects.add(ctx.place, ctx.actor, target, name, rounds, modifier)
        message = with_undo(render_effects.effect_reply(view, ctx.locale), view.undo, ctx.locale)
        await itx.response.send_message(**message)

    @app_commands.command(name="remove", description="Take an effect off a character")
    @app_commands.describe(target="Whose sheet", name="Which effect")
    @fight()
    async def remove(
        self, itx: discord.Interaction[Arbitro], target: AnyCharacter, name: EffectName
    ) -> None:
        ctx = await ctx_of(itx)
        view = await ctx.services.effects.remove(ctx.place, ctx.actor, target, name)
        message = with_undo(render_effects.effect_reply(view, ctx.locale), view.undo, ctx.locale)
        await itx.response.send_message(**message)


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(EffectCog(bot))
