"""``/ability use`` and ``/ability list`` (``/habilidad``): rolweb abilities from chat."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.ui import render_abilities, render_rounds, round_panel
from cogs.ui.combat_panel import turn_message
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.open_scene import in_play
from cogs.ui.options import Ability, AnyCharacter, Character
from cogs.ui.undo import with_undo

if TYPE_CHECKING:
    from bot.app import Arbitro

LEVELS = [
    app_commands.Choice(name="principiante", value="principiante"),
    app_commands.Choice(name="adepto", value="adepto"),
    app_commands.Choice(name="maestro", value="maestro"),
]


@app_commands.guild_only()
class AbilityCog(
    commands.GroupCog,
    group_name="ability",
    group_description="Abilities (Rol por web) and class powers that heal (S&W)",
):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="use", description="Use an ability, healing herbs or a class power of your character"
    )
    @app_commands.describe(
        name="The ability (suggested from the sheet, with its level)",
        target="Whom it is used on (default: your character)",
        level="A lower level than the one you have",
        herbs="Medicus with healing herbs (spends one from the backpack)",
        character="Who uses it (default: yours; the GM may name any)",
        amount="How much it heals, where the power lets you choose (Lay on hands: up to 2 per level)",
    )
    @app_commands.choices(level=LEVELS)
    @fight()
    @in_play()
    async def use(
        self,
        itx: discord.Interaction[Arbitro],
        name: Ability,
        target: AnyCharacter | None = None,
        level: app_commands.Choice[str] | None = None,
        herbs: bool = False,
        character: Character | None = None,
        amount: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.abilities.use(
            ctx.place,
            ctx.actor,
            name,
            target=target,
            character=character,
            level=level.value if level else None,
            herbs=herbs,
            amount=amount,
        )
        if view.declared is not None:  # a round of declarations: sealed until it resolves
            message = render_abilities.used(view, ctx.locale)
            message["content"] = render_rounds.declared_ability(view, ctx.locale)
            await itx.response.send_message(**message, ephemeral=True)
            if view.summary is not None:  # this declaration completed its round
                summary = view.summary
                for posted in round_panel.round_messages(summary, summary.next, ctx.locale):
                    await itx.followup.send(**posted)
            return
        message = with_undo(render_abilities.used(view, ctx.locale), view.undo, ctx.locale)
        await itx.response.send_message(**message)
        if view.fight is not None:  # a combatant healed: the panel, refreshed
            await itx.followup.send(**turn_message(view.fight, ctx.locale))

    @app_commands.command(name="list", description="Your character's abilities and levels")
    @app_commands.describe(character="Whose (default: yours)")
    async def list(
        self, itx: discord.Interaction[Arbitro], character: Character | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        name, lines = await self.bot.services.abilities.list(ctx.place, ctx.actor, character)
        await itx.response.send_message(**render_abilities.listing(name, lines, ctx.locale))


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(AbilityCog(bot))
