"""``/rest days|breath`` and ``/heal`` (``/descanso``, ``/curar``): healing between fights
(issue 23 §3).  Thin: parse, call one :class:`bot.services.play.recovery.RecoveryService`
method, render through the audience rule; a healed combatant's fight panel is shown again."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.play.recovery import MAX_DAYS, MAX_HEAL, RecoveryView
from cogs.ui import render_recovery
from cogs.ui.audience import answer
from cogs.ui.combat_panel import turn_message
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.open_scene import in_play
from cogs.ui.options import AnyCharacter, Character
from cogs.ui.undo import with_undo

if TYPE_CHECKING:
    from bot.app import Arbitro


@app_commands.guild_only()
class RecoveryCog(commands.Cog):
    rest = app_commands.Group(
        name="rest", description="Rest between fights: days of game time, catching breath"
    )

    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        super().__init__()

    async def _reply(self, itx: discord.Interaction[Arbitro], view: RecoveryView) -> None:
        ctx = await ctx_of(itx)
        told = await answer(itx, view.secrecy, lambda _seen: view)
        message = render_recovery.recovered(told.reply, ctx.locale)
        if len(view.lines) == 1:
            message = with_undo(message, view.lines[0].undo, ctx.locale)
        await itx.response.send_message(**message, ephemeral=told.ephemeral)
        if view.fight is not None:  # a combatant healed: the panel, refreshed
            await itx.followup.send(**turn_message(view.fight, ctx.locale))

    @rest.command(
        name="days", description="The GM advances days of rest: natural healing, a new day"
    )
    @app_commands.describe(
        days="How many days of game time",
        character="Who rests (or party:true)",
        party="Every player's character",
    )
    @fight()
    @in_play()
    async def days(
        self,
        itx: discord.Interaction[Arbitro],
        days: app_commands.Range[int, 1, MAX_DAYS],
        character: AnyCharacter | None = None,
        party: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.recovery.rest(
            ctx.place, ctx.actor, days, character=character, party=party
        )
        await self._reply(itx, view)

    @rest.command(name="breath", description="Catch your breath after a fight (Núcleo)")
    @app_commands.describe(character="Who (default: your active character)")
    @fight()
    @in_play()
    async def breath(
        self, itx: discord.Interaction[Arbitro], character: Character | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.recovery.breath(ctx.place, ctx.actor, character)
        await self._reply(itx, view)

    @app_commands.command(name="heal", description="The GM heals a character, in or out of a fight")
    @app_commands.describe(
        target="Who",
        amount="Points healed",
        force="Heal even the dead (a resurrection)",
    )
    @fight()
    @in_play()
    async def heal(
        self,
        itx: discord.Interaction[Arbitro],
        target: AnyCharacter,
        amount: app_commands.Range[int, 1, MAX_HEAL],
        force: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.recovery.heal(
            ctx.place, ctx.actor, target, amount, force=force
        )
        await self._reply(itx, view)


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(RecoveryCog(bot))
