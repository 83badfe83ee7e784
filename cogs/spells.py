"""``/spell list|show|cast|rest``: magic through the system's SpellBook (thin: parse, call, render)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.play.spells import MAX_EXTRA_MANA, CastOrder, CastView
from cogs.ui import render_rounds, render_spells, round_panel
from cogs.ui.attack_panel import send_gm_notes
from cogs.ui.audience import answer
from cogs.ui.combat_panel import turn_message
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.gm_copy import send_gm_copy
from cogs.ui.open_scene import in_play
from cogs.ui.options import AnyCharacter, Character, Spell, SpellList

if TYPE_CHECKING:
    from bot.app import Arbitro


@app_commands.guild_only()
class SpellsCog(
    commands.GroupCog, group_name="spell", group_description="Spells: list, show, cast and rest"
):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="list", description="The campaign's spells, and what you have left")
    @app_commands.describe(
        search="Part of the name or the description",
        level="Spell level (S&W) or difficulty band (Núcleo: 1 = difficulty 12 … 7 = difficulty 24)",
        character="Whose mana or prepared spells to show (default: your active character)",
        page="Page of the list",
    )
    async def list_(
        self,
        itx: discord.Interaction[Arbitro],
        search: app_commands.Range[str, 1, 60] | None = None,
        level: app_commands.Range[int, 0, 9] | None = None,
        character: Character | None = None,
        page: app_commands.Range[int, 1, 100] = 1,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.spells.list(
            ctx.place, ctx.actor, search=search, level=level, character=character, page=page
        )
        await itx.response.send_message(**render_spells.listing(view, ctx.locale))

    @app_commands.command(name="show", description="A spell's full entry")
    @app_commands.describe(name="The spell", character="Whose level in it to show")
    async def show(
        self,
        itx: discord.Interaction[Arbitro],
        name: Spell,
        character: Character | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.spells.show(ctx.place, ctx.actor, name, character)
        await itx.response.send_message(**render_spells.spell(view, ctx.locale))

    @app_commands.command(name="cast", description="Cast a spell: roll, spend mana or a slot")
    @app_commands.describe(
        name="The spell (Núcleo; in S&W the campaign's, or free text for the record)",
        level="Spell level whose slot is spent (S&W)",
        spell_list="Which list, when several have that level (S&W Explorador: Clérigo or Mago)",
        character="Who casts (default: your active character)",
        extra_mana="Mana burnt on top of the cost: +1 per 2 points (Núcleo)",
        mana="Mana put into a variable spell (Curación: 1–3)",
        dispel="With Disipar Magia: the spell to cancel",
        modifier="Modifier set by the GM or the situation",
        target="At whom or what (for the record)",
        private="Only you (and the GM channel) see it",
        heal="What a spell the campaign does not define heals (S&W: the caster or the GM says)",
    )
    @fight()
    @in_play()
    async def cast(
        self,
        itx: discord.Interaction[Arbitro],
        name: Spell | None = None,
        level: app_commands.Range[int, 1, 9] | None = None,
        spell_list: SpellList | None = None,
        character: AnyCharacter | None = None,
        extra_mana: app_commands.Range[int, 0, MAX_EXTRA_MANA] = 0,
        mana: app_commands.Range[int, 1, 10] | None = None,
        dispel: Spell | None = None,
        modifier: app_commands.Range[int, -50, 50] = 0,
        target: app_commands.Range[str, 1, 100] | None = None,
        private: bool = False,
        heal: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        order = CastOrder(
            spell=name,
            level=level,
            spell_list=spell_list,
            character=character,
            extra_mana=extra_mana,
            mana=mana,
            dispel=dispel,
            modifier=modifier,
            target=target,
            private=private,
            heal=heal,
        )
        view = await self.bot.services.spells.cast(ctx.place, ctx.actor, order)
        if view.declared is not None:  # a round of declarations: sealed until it resolves
            await self._declared(itx, view, ctx.locale)
            return
        await itx.response.send_message(**render_spells.cast(view, ctx.locale), ephemeral=private)
        if view.touch is not None and (private or view.touch.secret):
            # a touch spell's melee attack: every number to the GM channel, as /attack does
            where = f"<#{itx.channel_id}>"
            await send_gm_copy(
                itx,
                log_id=view.log_id,
                user_name=view.user_name,
                render=lambda gm_locale: render_spells.touch_gm_copy(view, gm_locale, where),
            )
        elif private:
            await send_gm_copy(
                itx,
                log_id=view.log_id,
                user_name=view.user_name,
                render=lambda gm_locale: render_spells.cast(view, gm_locale),
            )
        if view.touch is not None:
            await send_gm_notes(itx)
        if view.fight is not None:  # a combatant healed: the panel, refreshed
            await itx.followup.send(**turn_message(view.fight, ctx.locale))

    async def _declared(
        self, itx: discord.Interaction[Arbitro], view: CastView, locale: str
    ) -> None:
        """A declared spell: privately to its player, a copy to the GM channel, and the
        round's summary when this declaration completed it (issue 25 §1)."""
        note = render_rounds.declared_cast(view, locale)
        await itx.response.send_message(note, ephemeral=True)
        await send_gm_copy(
            itx, log_id=0, user_name=view.user_name,
            render=lambda gm_locale: {"content": render_rounds.declared_cast(view, gm_locale)},
        )  # fmt: skip
        if view.summary is not None:
            summary = view.summary
            for message in round_panel.round_messages(summary, summary.next, locale):
                await itx.followup.send(**message)

    @app_commands.command(name="rest", description="Recover mana or prepared spells")
    @app_commands.describe(character="Who rests (default: your active character)")
    @fight()
    async def rest(
        self, itx: discord.Interaction[Arbitro], character: AnyCharacter | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.spells.rest(ctx.place, ctx.actor, character)
        told = await answer(itx, view.secrecy, lambda _seen: view)
        await itx.response.send_message(
            **render_spells.rest(told.reply, ctx.locale), ephemeral=told.ephemeral
        )


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(SpellsCog(bot))
