"""``/macro``: named rolls per character and per campaign (issue 24 §4).

``/macro add name:ataque roll:[[1d20+5]] daño [[1d8+2]]`` (Spanish ``/macro añadir``), then
``[[ataque]]`` in typed text, ``/roll ataque`` or ``ataque`` in ``/post``'s roll field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.sheets.macros import MAX_BODY, MAX_NAME
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.options import AnyCharacter
from cogs.ui.render_typing import macro_book, macro_saved

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["MacroCog"]


@app_commands.guild_only()
class MacroCog(
    commands.GroupCog,
    group_name="macro",
    group_description="Named rolls: [[name]] in a typed post, /roll name, /post's roll",
):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="add", description="Add or change a named roll")
    @app_commands.describe(
        name="Its name, used as [[name]] (a letter first; letters, digits, spaces, - and _)",
        roll="What it rolls: 1d20+5, Pilotar +2, or [[1d20+5]] daño [[1d8+2]]",
        character="Whose (default: your active character; GM: any character or NPC)",
        campaign="GM: a macro of the whole campaign (for NPCs), not of one character",
    )
    @fight()
    async def add(
        self,
        itx: discord.Interaction[Arbitro],
        name: app_commands.Range[str, 1, MAX_NAME],
        roll: app_commands.Range[str, 1, MAX_BODY],
        character: AnyCharacter | None = None,
        campaign: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        macro, replaced = await ctx.services.macros.add(
            ctx.place, ctx.actor, name, roll, character=character, campaign_wide=campaign
        )
        await itx.response.send_message(**macro_saved(macro, replaced, ctx.locale), ephemeral=True)

    @app_commands.command(name="list", description="The macros a character can use here")
    @app_commands.describe(character="Whose (default: your active character)")
    async def list_(
        self, itx: discord.Interaction[Arbitro], character: AnyCharacter | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        book = await ctx.services.macros.book(ctx.place, ctx.actor, character)
        await itx.response.send_message(embed=macro_book(book, ctx.locale), ephemeral=True)

    @app_commands.command(name="remove", description="Remove a macro")
    @app_commands.describe(
        name="The macro's name",
        character="Whose (default: your active character)",
        campaign="GM: the campaign's macro of that name",
    )
    @fight()
    async def remove(
        self,
        itx: discord.Interaction[Arbitro],
        name: app_commands.Range[str, 1, MAX_NAME],
        character: AnyCharacter | None = None,
        campaign: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        gone = await ctx.services.macros.remove(
            ctx.place, ctx.actor, name, character=character, campaign_wide=campaign
        )
        await itx.response.send_message(ctx.t("macro.removed", name=gone.name), ephemeral=True)


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(MacroCog(bot))
