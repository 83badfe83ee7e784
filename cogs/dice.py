"""``/roll``, ``/history`` and ``/odds``.

``/roll`` stays a single command (a command with subcommands cannot itself be invoked), so
the history and the odds are commands of their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.play.inline import NamedRolls
from bot.services.play.rolls import RollView
from bot.services.shared.audience import Shown
from bot.services.shared.context import Sent
from cogs.ui import render, render_post
from cogs.ui.audience import Answer, answer
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight, heavy
from cogs.ui.gm_copy import send_gm_copy
from cogs.ui.open_scene import in_play

if TYPE_CHECKING:
    from bot.app import Arbitro


def jump_url(guild_id: int | None, channel_id: int | None, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


class DiceCog(commands.Cog):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self.rolls = bot.services.rolls

    @app_commands.command(
        name="roll", description="Roll dice: 3d6, 1d20+4, 4d6kh3, 1o3d10+5, 2d6!…"
    )
    @app_commands.describe(
        expression="Dice (1o3d10+7, 4d6kh3, 1d20<=12, 2d6!+1 [damage]) or a /macro's name",
        reason="What the roll is for (shown and kept in the log)",
        private="Only you (and the GM channel, if set) see it",
        difficulty="Difficulty: success if the total reaches it; a critical if it beats it by 10 or more",
    )
    @app_commands.guild_only()
    @fight()
    @in_play()
    async def roll(
        self,
        itx: discord.Interaction[Arbitro],
        expression: app_commands.Range[str, 1, 200],
        reason: app_commands.Range[str, 1, 200] | None = None,
        private: bool = False,
        difficulty: app_commands.Range[int, -999, 9999] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        answered: list[Answer[RollView | NamedRolls]] = []

        def shown(told: Shown[RollView | NamedRolls], locale: str) -> dict[str, Any]:
            if isinstance(told.value, NamedRolls):  # a macro, or a sheet option: [[…]]'s
                return render_post.named_rolls(told.value, ctx.actor.name, locale)
            return render.roll(cast("Shown[RollView]", told), locale)

        async def reply(view: RollView | NamedRolls) -> Sent | None:
            # through the audience rule like every reply: the channel's, or the roller's alone
            told = await answer(itx, view.secrecy, lambda _seen: view, private=private)
            answered.append(told)
            response = await itx.response.send_message(
                **shown(told.reply, ctx.locale), ephemeral=told.ephemeral
            )
            message_id = getattr(response, "message_id", None)
            if not message_id or told.ephemeral:
                return None
            return Sent(message_id, jump_url(itx.guild_id, itx.channel_id, message_id))

        view = await self.bot.services.inline.roll_command(
            ctx.place,
            ctx.actor,
            expression,
            reason=reason,
            private=private,
            difficulty=difficulty,
            reply=reply,
        )
        gm = answered[0].gm if answered else None
        if gm is not None:  # a private roll: the GM channel's copy
            await send_gm_copy(
                itx,
                log_id=view.rolls[0].log_id if isinstance(view, NamedRolls) else view.log_id,
                user_name=ctx.actor.name,
                render=lambda gm_locale: shown(gm, gm_locale),
            )

    @app_commands.command(name="history", description="Recent rolls in this campaign")
    @app_commands.describe(user="Only this member's rolls", limit="How many (1–25; default 10)")
    @app_commands.guild_only()
    async def history(
        self,
        itx: discord.Interaction[Arbitro],
        user: discord.Member | discord.User | None = None,
        limit: app_commands.Range[int, 1, 25] = 10,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.rolls.history(
            ctx.place, ctx.actor, user_id=user.id if user else None, limit=limit
        )
        await itx.response.send_message(**render.history(view, ctx.locale))

    @app_commands.command(
        name="odds", description="Exact chance of reaching a target with an expression"
    )
    @app_commands.describe(
        expression="Dice notation, e.g. 1o3d10+7, 3d6 or a test such as 1d20<=13",
        target="The total to reach (a test such as 1d20<=13 needs none)",
        at_most="The chance of rolling the target or less (default: or more)",
    )
    @heavy()
    async def odds(
        self,
        itx: discord.Interaction[Arbitro],
        expression: app_commands.Range[str, 1, 200],
        target: app_commands.Range[int, -9999, 9999] | None = None,
        at_most: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        # refuses before anything is sent
        job = self.rolls.start_odds(expression, target, at_most=at_most, owner=itx.guild_id)
        await itx.response.defer(thinking=True)  # the worker may take a second or queue
        view = await job
        await itx.followup.send(**render.odds(view, ctx.locale))


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(DiceCog(bot))
