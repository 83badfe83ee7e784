"""Pace of the play-by-post table: ``/pace reminders`` (the round itself: ``/scene status``), ``/absence add|list|cancel``,
``/catch-up``, and the durable timers behind posting reminders, the GM's digest, NPCized
characters' return and a catch-up on return from an absence (:mod:`bot.services.table.pace`).

Thin: parse, call the service, render.  Every timer post is claim → post → record: the
timer is claimed in the database by :class:`bot.services.shared.timers.TimerService`, the message
carries a nonce naming that one reminder (Discord's ``enforce_nonce`` returns the first
message to any repeat), and the record comes after the post.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.shared.errors import DomainError
from bot.services.shared.timers import Due
from bot.services.table.pace import BACK_TIMER, DIGEST_TIMER, NPC_TIMER, WATCH_TIMER, PaceService
from bot.services.table.pacing import ReminderDue
from cogs.ui import render_catch_up, render_pace
from cogs.ui.context import actor_of, ctx_of, place_of, reply_locale
from cogs.ui.cooldowns import fight
from cogs.ui.options import Suggested

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = ["PaceCog"]


@runtime_checkable
class _Postable(Protocol):
    """Text channels, threads and DM channels: where a timer's message can go."""

    async def send(self, *args: Any, **kwargs: Any) -> object: ...


async def absence_autocomplete(
    itx: discord.Interaction[Arbitro], current: str
) -> list[app_commands.Choice[str]]:
    """The absences this member may cancel (the GM: everyone's), by number and dates."""
    views = await itx.client.services.pace.absence_choices(place_of(itx), actor_of(itx))
    locale = await reply_locale(itx.client, itx)
    choices = []
    for view in views:
        days = f"{render_pace.day(view.starts_on, locale)}–{render_pace.day(view.ends_on, locale)}"
        label = f"{view.id} · {days}" + (f" · {view.note}" if view.note else "")
        if current.strip() in label:
            choices.append(app_commands.Choice(name=label[:100], value=str(view.id)))
    return choices[:25]


class AbsenceTransformer(Suggested):
    """An absence's number, suggested from the ones the member may cancel."""

    suggest = staticmethod(absence_autocomplete)


AbsenceNumber = app_commands.Transform[str, AbsenceTransformer(1, 12)]


def _option(option: str, part: str, text: str) -> app_commands.locale_str:
    """An ``/absence add`` option text with its catalogue key spelled out."""
    return app_commands.locale_str(text, key=f"commands.absence.add.options.{option}.{part}")


class PaceCog(commands.Cog):
    pace_group = app_commands.Group(
        name="pace", description="Pace of the play-by-post table", guild_only=True
    )
    absence_group = app_commands.Group(
        name="absence", description="Say when you will be away", guild_only=True
    )

    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self._ensure: asyncio.Task[None] | None = None

    @property
    def pace(self) -> PaceService:
        return self.bot.services.pace

    # -- timers ------------------------------------------------------------------------------

    async def cog_load(self) -> None:
        timers = self.bot.services.timers
        timers.register(WATCH_TIMER, self._watch)
        timers.register(DIGEST_TIMER, self._digest)
        timers.register(NPC_TIMER, self._npc)
        timers.register(BACK_TIMER, self._back)
        self._ensure = asyncio.create_task(self._ensure_timers(), name="pace-timers")

    async def cog_unload(self) -> None:
        if self._ensure is not None:
            self._ensure.cancel()

    async def _ensure_timers(self) -> None:
        """Once connected: every campaign with a deadline has its watch and digest timers
        (one dropped after too many failed attempts comes back at each start)."""
        await self.bot.wait_until_ready()
        try:
            await self.pace.ensure_timers()
        except Exception:  # noqa: BLE001 - a database hiccup must not stop the bot
            log.exception("pace: could not check the campaigns' timers at start-up")

    def _locale(self, locale: str | None) -> str:
        return locale or self.bot.config.default_locale

    async def _channel(self, channel_id: int) -> _Postable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                log.warning("pace: channel %s is gone", channel_id)
                return None
        if not isinstance(channel, _Postable):  # a category or a forum
            log.warning("pace: channel %s takes no messages", channel_id)
            return None
        return channel

    async def _watch(self, due: Due) -> None:
        """Post each due reminder, record it, then move the watch to its next look."""
        watch = await self.pace.watch(due)
        for reminder in watch.reminders:
            await self._remind(reminder)
            await self.pace.record_reminder(reminder)
        await self.pace.watch_again(watch)

    async def _remind(self, reminder: ReminderDue) -> None:
        locale = self._locale(reminder.locale)
        if reminder.by_dm:
            try:
                user = self.bot.get_user(reminder.user_id) or await self.bot.fetch_user(
                    reminder.user_id
                )
                await user.send(**render_pace.reminder_dm(reminder, locale), nonce=reminder.nonce)
                return
            except (discord.NotFound, discord.Forbidden):
                log.info("pace: no DM to %s, reminding in the scene", reminder.user_id)
        channel = await self._channel(reminder.channel_id)
        if channel is None:
            return  # recorded all the same: a deleted scene reminds nobody, ever
        try:
            await channel.send(**render_pace.reminder_scene(reminder, locale), nonce=reminder.nonce)
        except discord.Forbidden:
            log.warning("pace: may not post in %s", reminder.channel_id)

    async def _digest(self, due: Due) -> None:
        view = await self.pace.digest(due)
        if view is None:
            return  # no deadline or digest any more: the firing's record deletes the timer
        if not view.empty and view.channel_id is not None:
            channel = await self._channel(view.channel_id)
            if channel is not None:
                await channel.send(
                    **render_pace.digest(view, self._locale(view.locale)), nonce=view.nonce
                )
        await self.pace.digest_again(view)

    async def _npc(self, due: Due) -> None:
        view = await self.pace.npc_due(due)
        if view is None:
            return
        if view.gm_channel_id is not None:
            channel = await self._channel(view.gm_channel_id)
            if channel is not None:
                await channel.send(
                    **render_pace.npc_returned(view, self._locale(view.locale)), nonce=view.nonce
                )
        await self.pace.give_back(view)

    async def _back(self, due: Due) -> None:
        """Back from an absence: the member's catch-up by private message (their choice)."""
        view = await self.pace.back(due)
        if view is None:
            return
        message = render_catch_up.catch_up(view, self._locale(view.locale), returning=True)
        try:
            user = self.bot.get_user(view.user_id) or await self.bot.fetch_user(view.user_id)
            await user.send(**message, nonce=render_catch_up.back_nonce(due.ref))
        except (discord.NotFound, discord.Forbidden):
            log.info("pace: no DM to %s for their catch-up", view.user_id)

    # -- /catch-up ---------------------------------------------------------------------------

    @app_commands.command(
        name="catch-up", description="What happened since your last post, privately"
    )
    @app_commands.describe(since="From this day instead (dd/mm/yyyy, yyyy-mm-dd, yesterday…)")
    @app_commands.guild_only()
    @fight()
    async def catch_up(
        self, itx: discord.Interaction[Arbitro], since: app_commands.Range[str, 1, 40] | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.pace.catch_up(ctx.place, ctx.actor, since, locale=ctx.locale)
        await itx.response.send_message(
            **render_catch_up.catch_up(view, ctx.locale), ephemeral=True
        )

    # -- /pace -------------------------------------------------------------------------------

    @pace_group.command(name="reminders", description="Where your posting reminders reach you")
    @app_commands.describe(where="In the scene (with a mention) or by direct message")
    @app_commands.choices(
        where=[
            app_commands.Choice(name="In the scene", value="scene"),
            app_commands.Choice(name="By direct message", value="dm"),
        ]
    )
    @fight()
    async def reminders(self, itx: discord.Interaction[Arbitro], where: str) -> None:
        ctx = await ctx_of(itx)
        chosen = await self.pace.set_remind_by(ctx.place, ctx.actor, where)
        await itx.response.send_message(ctx.t(f"pace.remind_by_{chosen}"), ephemeral=True)

    # -- /absence ----------------------------------------------------------------------------

    @absence_group.command(name="add", description="Declare an absence: no posting reminders")
    # "from" is a Python keyword: renamed options name their catalogue keys themselves
    @app_commands.rename(start=_option("from", "name", "from"), end=_option("to", "name", "to"))
    @app_commands.describe(
        start=_option("from", "description", "First day away: mm/dd/yyyy or yyyy-mm-dd"),
        end=_option("to", "description", "Last day away, included (same format)"),
        note="A note for the GM (optional)",
        catch_up="On your return, what you missed by private message (default: yes)",
    )
    @fight()
    async def absence_add(
        self,
        itx: discord.Interaction[Arbitro],
        start: app_commands.Range[str, 1, 40],
        end: app_commands.Range[str, 1, 40],
        note: app_commands.Range[str, 1, 200] | None = None,
        catch_up: bool = True,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.pace.declare_absence(
            ctx.place, ctx.actor, start, end, note, catch_up=catch_up, locale=ctx.locale
        )
        await itx.response.send_message(
            render_pace.absence_declared(view, ctx.locale), ephemeral=True
        )

    @absence_group.command(name="list", description="Current and upcoming absences")
    async def absence_list(self, itx: discord.Interaction[Arbitro]) -> None:
        ctx = await ctx_of(itx)
        views, everyone = await self.pace.absences(ctx.place, ctx.actor)
        await itx.response.send_message(
            **render_pace.absences(views, everyone, ctx.locale), ephemeral=True
        )

    @absence_group.command(name="cancel", description="Cancel an absence")
    @app_commands.describe(absence="Which absence (its number)")
    @fight()
    async def absence_cancel(
        self, itx: discord.Interaction[Arbitro], absence: AbsenceNumber
    ) -> None:
        ctx = await ctx_of(itx)
        number = absence.strip().lstrip("#").split(" ")[0]
        if not number.isdigit():
            raise DomainError("pace.error.no_absence", id=absence[:12])
        view = await self.pace.cancel_absence(ctx.place, ctx.actor, int(number))
        await itx.response.send_message(ctx.t("pace.absence_cancelled", id=view.id), ephemeral=True)


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(PaceCog(bot))
