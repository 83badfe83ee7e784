"""``/npc``: the referee's NPCs and monsters — quick stat blocks, copies, hidden until shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.sheets.npcs import MAX_COPIES
from cogs.ui import render_sheet
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.options import Field, FieldValue, Npc
from cogs.ui.render import name_list
from cogs.ui.slow import acknowledge, reply
from cogs.ui.wizard import wizard_message

if TYPE_CHECKING:
    from bot.app import Arbitro


@app_commands.guild_only()
class NpcCog(commands.GroupCog, group_name="npc", group_description="NPCs and monsters (GM)"):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self.characters = bot.services.characters
        self.npcs = bot.services.npcs
        super().__init__()

    @app_commands.command(name="create", description="Create an NPC or monster stat block")
    @app_commands.describe(name="The NPC's name (copies are numbered after it)")
    @fight()
    async def create(
        self, itx: discord.Interaction[Arbitro], name: app_commands.Range[str, 1, 100]
    ) -> None:
        ctx = await ctx_of(itx)
        draft = await self.bot.services.creation.start(ctx.place, ctx.actor, name, npc=True)
        await itx.response.send_message(**wizard_message(draft, ctx.locale), ephemeral=True)

    @app_commands.command(name="show", description="Show an NPC (hidden ones only to the GM)")
    @app_commands.describe(name="The NPC", private="Only you see it")
    async def show(
        self, itx: discord.Interaction[Arbitro], name: Npc, private: bool = False
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.characters.show(ctx.place, ctx.actor, name)
        await itx.response.send_message(
            **render_sheet.character(view, ctx.locale), ephemeral=private or view.hidden
        )

    @app_commands.command(name="set", description="Change one field of an NPC")
    @app_commands.describe(name="The NPC", field="Which field", value="The new value")
    @fight()
    async def set_(
        self,
        itx: discord.Interaction[Arbitro],
        name: Npc,
        field: Field,
        value: FieldValue,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.characters.set_field(ctx.place, ctx.actor, name, field, value)
        await itx.response.send_message(ctx.t("sheet.updated", name=view.name), ephemeral=True)

    @app_commands.command(name="list", description="NPCs of this campaign")
    async def list_(self, itx: discord.Interaction[Arbitro]) -> None:
        ctx = await ctx_of(itx)
        rows = await self.characters.list(ctx.place, ctx.actor, npcs=True)
        await itx.response.send_message(
            **render_sheet.character_list(rows, ctx.locale, npcs=True, deleted=False)
        )

    @app_commands.command(
        name="copy", description="Make numbered copies of an NPC (e.g. 5 goblins)"
    )
    @app_commands.describe(name="The NPC to copy", count="How many copies")
    @fight()
    async def copy(
        self,
        itx: discord.Interaction[Arbitro],
        name: Npc,
        count: app_commands.Range[int, 1, MAX_COPIES],
    ) -> None:
        ctx = await ctx_of(itx)
        await acknowledge(itx)  # up to 20 rows in one transaction
        made = await self.npcs.copies(ctx.place, ctx.actor, name, count)
        rolled = any(c.hit_points is not None for c in made)
        names = name_list(
            [
                c.name
                if c.hit_points is None
                else ctx.t("flows.copy_hit_points", name=c.name, hp=c.hit_points)
                for c in made
            ],
            ctx.locale,
        )
        key = "flows.copied_rolled" if rolled else "npc.copied"
        await reply(
            itx, ctx.locale, content=ctx.t(key, count=len(made), names=names), ephemeral=True
        )

    @app_commands.command(name="reveal", description="Show or hide an NPC from the players")
    @app_commands.describe(name="The NPC", visible="Whether players can see it (default: yes)")
    @fight()
    async def reveal(
        self, itx: discord.Interaction[Arbitro], name: Npc, visible: bool = True
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.npcs.set_visibility(ctx.place, ctx.actor, name, hidden=not visible)
        await itx.response.send_message(
            ctx.t("npc.visible" if visible else "npc.hidden", name=view.name),
            ephemeral=True,
        )

    @app_commands.command(
        name="delete", description="Delete an NPC (restorable with /sheet restore)"
    )
    @app_commands.describe(name="The NPC")
    @fight()
    async def delete(self, itx: discord.Interaction[Arbitro], name: Npc) -> None:
        ctx = await ctx_of(itx)
        summary = await self.characters.delete(ctx.place, ctx.actor, name)
        await itx.response.send_message(ctx.t("sheet.deleted", name=summary.name), ephemeral=True)


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(NpcCog(bot))
