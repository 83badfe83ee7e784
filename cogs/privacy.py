"""``/privacy export`` and ``/privacy delete``; a guild's data after the bot is removed.

Thin: the member's data is read and changed by :class:`bot.services.privacy.privacy.PrivacyService`.
Guild departures go to :class:`bot.services.privacy.retention.RetentionService`, which puts each
purge on the durable timers (like the combat turn reminders and the pace digests), so a
restart loses no deadline; this cog answers the timer with the guilds the bot is in, so a
guild the bot is back in is never purged.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.privacy.retention import PURGE_TIMER
from cogs.ui import render_privacy
from cogs.ui.context import ctx_of
from cogs.ui.views import ask_confirmation

if TYPE_CHECKING:
    from bot.app import Arbitro
    from bot.services.privacy.privacy import CharacterChoice, DeletionPreview, PrivacyService
    from bot.services.privacy.retention import RetentionService
    from bot.services.shared.timers import Due

log = logging.getLogger(__name__)

__all__ = ["PrivacyCog"]

# Discord's smallest upload limit for a bot's message (a server without boosts).
DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024


@app_commands.guild_only()
class PrivacyCog(
    commands.GroupCog, group_name="privacy", group_description="Your data in this server"
):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        super().__init__()

    @property
    def privacy(self) -> PrivacyService:
        return self.bot.services.privacy

    @property
    def retention(self) -> RetentionService:
        return self.bot.services.retention

    # -- the member's own data ---------------------------------------------------------

    @app_commands.command(
        name="export", description="Download everything the bot stores about you in this server"
    )
    @app_commands.checks.cooldown(1, 60, key=lambda itx: (itx.guild_id, itx.user.id))
    async def export(self, itx: discord.Interaction[Arbitro]) -> None:
        await itx.response.defer(ephemeral=True, thinking=True)
        ctx = await ctx_of(itx)
        limit = itx.guild.filesize_limit if itx.guild else DEFAULT_UPLOAD_LIMIT
        filename, payload = await self.privacy.export_file(
            ctx.place.guild_id, ctx.actor.user_id, limit
        )
        await itx.followup.send(
            ctx.t("privacy.exported"),
            file=discord.File(io.BytesIO(payload), filename=filename),
            ephemeral=True,
        )

    @app_commands.command(
        name="delete", description="Delete what the bot stores about you in this server"
    )
    @app_commands.describe(characters="What happens to your characters")
    @app_commands.choices(
        characters=[
            app_commands.Choice(name="Delete them", value="delete"),
            app_commands.Choice(name="Give them to the campaign's GM", value="to_gm"),
        ]
    )
    async def delete(
        self, itx: discord.Interaction[Arbitro], characters: app_commands.Choice[str]
    ) -> None:
        ctx = await ctx_of(itx)
        guild_id, user_id = ctx.place.guild_id, ctx.actor.user_id  # guild only, as before
        click: discord.Interaction | None = None
        successors: dict[int, int] = {}  # filled while asking; the service reads it after

        async def confirm(**params: Any) -> bool:
            nonlocal click
            preview: DeletionPreview = params["preview"]  # what would go
            if preview.empty:
                await itx.response.send_message(ctx.t("privacy.nothing"), ephemeral=True)
                return False
            successors.update(await _co_gms(itx.guild, user_id, preview))
            question = render_privacy.preview(preview, characters.value, ctx.locale, successors)
            click = await ask_confirmation(
                itx, ctx.locale, question=question, confirm_key="privacy.delete_button"
            )
            return click is not None

        # as the service reads it: anything but "delete" hands the characters over
        choice: CharacterChoice = "delete" if characters.value == "delete" else "to_gm"
        summary = await self.privacy.delete(
            guild_id, user_id, characters=choice, confirm=confirm, successors=successors
        )
        if summary is None or click is None:
            return
        await click.edit_original_response(content=render_privacy.summary(summary, ctx.locale))
        # the erased posts' messages (sent through webhooks) leave the channels too, with the
        # bot's copies of them in the GM channel (private notes, private rolls' copies)
        kept = 0
        for channel_id, message_id in summary.erased_messages:
            partial = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
            try:
                await partial.get_partial_message(message_id).delete()
            except discord.NotFound:
                continue  # already gone: deleted by hand, or with its channel
            except discord.HTTPException:
                kept += 1
                log.info("could not delete message %s of an erased post", message_id)
        if kept:
            await click.followup.send(ctx.t("privacy.messages_kept", count=kept), ephemeral=True)

    # -- the guild's data after the bot is removed -------------------------------------

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        purge_at = await self.retention.departed(guild.id)
        log.info(
            "removed from guild %s: its data is purged at %s unless re-added", guild.id, purge_at
        )

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        if await self.retention.returned(guild.id):
            log.info("re-added to guild %s within the retention period: data kept", guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Guilds that re-added the bot while it was offline sent no ``on_guild_join``."""
        for guild_id in await self.retention.back_in(self._present()):
            log.info("back in guild %s within the retention period: data kept", guild_id)

    async def cog_load(self) -> None:
        self.bot.services.timers.register(PURGE_TIMER, self._purge)

    def _present(self) -> set[int]:
        return {guild.id for guild in self.bot.guilds}

    async def _purge(self, due: Due) -> None:
        """A guild's retention ran out: purged, unless the bot is in it again."""
        if await self.retention.on_timer(due, self._present()):
            log.info("guild %s purged", due.ref)


async def _co_gms(
    guild: discord.Guild | None, leaving: int, preview: DeletionPreview
) -> dict[int, int]:
    """Who takes over each campaign a departing GM runs: a member holding its GM role among
    those who played in it lately (each one looked up: the bot does not keep the member
    list), never a bot nor the member leaving.  A campaign without one is archived by the
    service."""
    found: dict[int, int] = {}
    if guild is None:
        return found
    for campaign_id, _name, role_id in preview.gm_campaigns:
        if role_id is None:
            continue
        for user_id in preview.participants.get(campaign_id, ()):
            member = guild.get_member(user_id)
            if member is None:
                try:
                    member = await guild.fetch_member(user_id)
                except discord.HTTPException:  # left the server
                    continue
            if not member.bot and any(role.id == role_id for role in member.roles):
                found[campaign_id] = user_id
                break
    return found


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(PrivacyCog(bot))
