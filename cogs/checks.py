"""``/check`` and ``/save``: roll from a sheet through the game-system interface."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.play.checks import CheckOrder, CheckView
from cogs.ui import render_sheet
from cogs.ui.audience import answer, send
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.open_scene import in_play
from cogs.ui.options import AnyCharacter, CheckOption

if TYPE_CHECKING:
    from bot.app import Arbitro


class ChecksCog(commands.Cog):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot

    async def _send(self, itx: discord.Interaction[Arbitro], view: CheckView, locale: str) -> None:
        """The roller's reply through the audience rule (a hidden NPC's numbers stay out of
        the channel), then the GM's copy of a private check or of the sealed numbers."""
        told = await answer(
            itx, view.secrecy, lambda _seen: view, private=view.private, written_at=view.written_at
        )
        await send(
            itx,
            told,
            render_sheet.check,
            log_id=view.log_id,
            user_name=view.user_name,
            headline_key="roll.gm_copy" if view.private else "check.gm_copy_hidden",
        )

    @app_commands.command(
        name="check", description="Roll a check from your sheet (attribute, skill, save…)"
    )
    @app_commands.describe(
        option="What to roll (suggested from the sheet)",
        character="Who rolls (default: your active character)",
        modifier="Modifier set by the GM or the situation",
        difficulty="Difficulty, where the system uses one",
        circumstances="Comma-separated keywords: token (Núcleo), ventaja (Rol por web), amenaza:veneno (S&W)…",
        against="Opposed check against this character or NPC",
        against_option="What the opponent rolls (default: the same)",
        private="Only you (and the GM channel) see it",
        reason="What the check is for (shown and kept in the log)",
    )
    @app_commands.guild_only()
    @fight()
    @in_play()
    async def check(
        self,
        itx: discord.Interaction[Arbitro],
        option: CheckOption,
        character: AnyCharacter | None = None,
        modifier: app_commands.Range[int, -50, 50] = 0,
        difficulty: app_commands.Range[int, -100, 999] | None = None,
        circumstances: app_commands.Range[str, 1, 200] | None = None,
        against: AnyCharacter | None = None,
        against_option: app_commands.Range[str, 1, 100] | None = None,
        private: bool = False,
        reason: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        order = CheckOrder(
            option,
            character=character,
            modifier=modifier,
            difficulty=difficulty,
            circumstances=circumstances,
            against=against,
            against_option=against_option,
            private=private,
            reason=reason,
        )
        view = await self.bot.services.checks.check(ctx.place, ctx.actor, order)
        await self._send(itx, view, ctx.locale)

    @app_commands.command(name="save", description="Saving throw (Swords & Wizardry)")
    @app_commands.describe(
        threat="Kind of threat, for class and race bonuses: veneno, conjuro, varita, aliento, petrificación…",
        character="Who saves (default: your active character)",
        modifier="Modifier set by the GM",
        private="Only you (and the GM channel) see it",
    )
    @app_commands.guild_only()
    @fight()
    @in_play()
    async def save(
        self,
        itx: discord.Interaction[Arbitro],
        threat: app_commands.Range[str, 1, 40] | None = None,
        character: AnyCharacter | None = None,
        modifier: app_commands.Range[int, -20, 20] = 0,
        private: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.checks.save(
            ctx.place,
            ctx.actor,
            threat=threat,
            character=character,
            modifier=modifier,
            private=private,
        )
        await self._send(itx, view, ctx.locale)


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(ChecksCog(bot))
