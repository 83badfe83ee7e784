"""``/request check`` and ``/request close`` (``/pedir tirada``, ``/pedir cerrar``): the GM asks
characters for a check; one message, one button per character (:mod:`cogs.ui.request_panel`).

Also registers the GM's Approve/Reject buttons of new characters (:mod:`cogs.ui.approval`),
which live with the other play-by-post pieces of issue 12.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.shared.audience import Reader
from bot.services.shared.context import Sent
from bot.services.table.requests import RequestView, request_for
from cogs.ui.approval import ApprovalButton
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.options import RequestOption, RequestWho
from cogs.ui.request_panel import RequestButton, request_message, table_locale

if TYPE_CHECKING:
    from bot.app import Arbitro

HIDDEN_CHOICES = [
    app_commands.Choice(name="Everyone sees the numbers", value="visible"),
    app_commands.Choice(name="Players see success or failure only", value="outcome"),
    app_commands.Choice(name="Players see nothing of the result", value="nothing"),
]


class RequestCog(
    commands.GroupCog, group_name="request", group_description="The GM's roll requests"
):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="check", description="Ask characters for a check: one button each (GM)"
    )
    @app_commands.describe(
        who="@mentions, character names separated by commas, or “all” for the whole party",
        option="What they roll (suggested from their sheets)",
        difficulty="Difficulty, where the system uses one",
        hidden="What players see of the result (the GM always sees the numbers)",
        modifier="Modifier for everyone",
        circumstances="As in /check: amenaza:veneno (an S&W save), ventaja (Rol por web)…",
    )
    @app_commands.choices(hidden=HIDDEN_CHOICES)
    @app_commands.guild_only()
    @fight()
    async def check(
        self,
        itx: discord.Interaction[Arbitro],
        who: RequestWho,
        option: RequestOption,
        difficulty: app_commands.Range[int, -100, 999] | None = None,
        hidden: app_commands.Choice[str] | None = None,
        modifier: app_commands.Range[int, -50, 50] = 0,
        circumstances: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)

        async def reply(view: RequestView) -> Sent:
            # for the channel: through the audience rule (a hidden NPC's numbers never in it)
            message = request_message(request_for(view, Reader.everyone()), await table_locale(itx))
            # The one deliberate ping: the players asked to roll (never anyone typed text
            # names), not those listed as unable to.
            owners = {
                entry.owner_id for entry in view.entries if entry.owner_id and not entry.unable
            }
            await itx.response.send_message(
                **message,
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(id=owner) for owner in owners]
                ),
            )
            return Sent((await itx.original_response()).id)

        await self.bot.services.requests.create(
            ctx.place,
            ctx.actor,
            who=who,
            option=option,
            difficulty=difficulty,
            modifier=modifier,
            hidden=hidden.value if hidden else "visible",
            circumstances=circumstances,
            reply=reply,
        )

    @app_commands.command(
        name="close", description="Close a roll request: late presses are refused (GM)"
    )
    @app_commands.describe(request="The request's number (default: the newest open one here)")
    @app_commands.guild_only()
    @fight()
    async def close(
        self,
        itx: discord.Interaction[Arbitro],
        request: app_commands.Range[int, 1, 2_000_000_000] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.requests.close(ctx.place, ctx.actor, request)
        # The request message is redrawn (without its roll buttons) at its next press.
        await itx.response.send_message(
            ctx.t(
                "request.closed",
                id=view.id,
                rolled=sum(e.rolled for e in view.entries),
                count=len(view.entries),
            )
        )


async def setup(bot: Arbitro) -> None:
    bot.add_dynamic_items(RequestButton, ApprovalButton)
    await bot.add_cog(RequestCog(bot))


__all__ = ["RequestCog"]
