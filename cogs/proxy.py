"""``/proxy`` (``/etiqueta``): the tags a typed message starts with to post as a character.

Posting by typing (issue 24, docs/play-by-post.md «Escribir como en Umbría»): every
character answers to its name and a colon; ``/proxy add`` gives it other tags, ``/proxy
list`` shows them and who posts what you type without a tag in this scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.shared.typed_text import MAX_TAG
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.options import AnyCharacter
from cogs.ui.render_typing import tag_list

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["ProxyCog"]

TAG = app_commands.Range[str, 1, MAX_TAG + 10]  # «texto» between prefix and suffix


@app_commands.guild_only()
class ProxyCog(
    commands.GroupCog,
    group_name="proxy",
    group_description="Tags to post as a character by typing (e.g. “Ardelia: …”)",
):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="add", description="Add a tag that posts as a character")
    @app_commands.describe(
        tag="What the message starts with (“A:”), or “-text-” with the word text for the message",
        character="Whose (default: your active character; GM: any character or NPC)",
    )
    @fight()
    async def add(
        self, itx: discord.Interaction[Arbitro], tag: TAG, character: AnyCharacter | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        tags = await ctx.services.proxy_tags.add(ctx.place, ctx.actor, character, tag)
        await itx.response.send_message(
            ctx.t("typing.tag_added", name=tags.name),
            embed=tag_list(tags, ctx.locale),
            ephemeral=True,
        )

    @app_commands.command(name="list", description="A character's tags, and who speaks here")
    @app_commands.describe(character="Whose (default: your active character)")
    async def list_(
        self, itx: discord.Interaction[Arbitro], character: AnyCharacter | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        here = await ctx.services.typing.tags_here(ctx.place, ctx.actor, character)
        embed = tag_list(here.tags, ctx.locale, here=here)
        await itx.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="remove", description="Remove a tag you added")
    @app_commands.describe(tag="The tag, as you added it", character="Whose (default: yours)")
    @fight()
    async def remove(
        self, itx: discord.Interaction[Arbitro], tag: TAG, character: AnyCharacter | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        tags = await ctx.services.proxy_tags.remove(ctx.place, ctx.actor, character, tag)
        await itx.response.send_message(
            ctx.t("typing.tag_removed", name=tags.name),
            embed=tag_list(tags, ctx.locale),
            ephemeral=True,
        )


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(ProxyCog(bot))
