"""``/privacy export`` and ``/privacy delete``; a guild's data after the bot is removed.

Thin: the member's data is read and changed by :class:`bot.services.privacy.PrivacyService`.
Guild departures go to :class:`bot.services.retention.RetentionService`; one task sleeps until
the earliest purge date in the database (like the combat turn reminders), so a restart loses
no deadline and a guild the bot is back in is never purged.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.db.models import utcnow
from bot.i18n import t
from bot.services.errors import DomainError
from bot.services.privacy import DeletionPreview, DeletionSummary
from cogs.ui.context import reply_locale
from cogs.ui.views import ask_confirmation

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = ["PrivacyCog", "IDLE_CHECK_SECONDS", "names"]

# With no purge pending the task still looks again now and then (belt and braces).
IDLE_CHECK_SECONDS = 3600
# Discord's smallest upload limit for a bot's message (a server without boosts).
DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024


def names(items: tuple[str, ...], locale: str, limit: int = 15) -> str:
    """«Ardelia», «Bram» y 3 más — for a confirmation that must stay short."""
    if not items:
        return t("common.none", locale)
    shown = ", ".join(f"«{n}»" for n in items[:limit])
    if len(items) > limit:
        shown += " " + t("privacy.and_more", locale, count=len(items) - limit)
    return shown


def render_preview(preview: DeletionPreview, choice: str, locale: str) -> str:
    lines = [t("privacy.confirm_title", locale)]
    if preview.characters:
        key = "privacy.confirm_delete_characters" if choice == "delete" else "privacy.confirm_hand"
        lines.append(t(key, locale, names=names(preview.characters, locale)))
    lines.append(t("privacy.confirm_rolls", locale, count=preview.rolls))
    lines.append(t("privacy.confirm_drafts", locale, count=preview.drafts))
    if preview.campaigns_as_gm:
        lines.append(t("privacy.confirm_gm", locale, names=names(preview.campaigns_as_gm, locale)))
    lines.append(t("privacy.confirm_final", locale))
    return "\n".join(lines)[:2000]


def render_summary(summary: DeletionSummary, locale: str) -> str:
    lines = [t("privacy.deleted_title", locale)]
    if summary.deleted_characters:
        lines.append(
            t("privacy.deleted_characters", locale, names=names(summary.deleted_characters, locale))
        )
    if summary.handed_characters:
        lines.append(
            t("privacy.handed_characters", locale, names=names(summary.handed_characters, locale))
        )
    lines.append(t("privacy.rolls_anonymised", locale, count=summary.rolls_anonymised))
    lines.append(t("privacy.drafts_deleted", locale, count=summary.drafts_deleted))
    if summary.campaigns_without_gm:
        lines.append(
            t(
                "privacy.campaigns_without_gm",
                locale,
                names=names(summary.campaigns_without_gm, locale),
            )
        )
    return "\n".join(lines)[:2000]


@app_commands.guild_only()
class PrivacyCog(
    commands.GroupCog, group_name="privacy", group_description="Your data in this server"
):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self._purger: asyncio.Task[None] | None = None
        super().__init__()

    @property
    def privacy(self):  # noqa: ANN201
        return self.bot.services.privacy

    @property
    def retention(self):  # noqa: ANN201
        return self.bot.services.retention

    # -- the member's own data ---------------------------------------------------------

    @app_commands.command(
        name="export", description="Download everything the bot stores about you in this server"
    )
    @app_commands.checks.cooldown(1, 60, key=lambda itx: (itx.guild_id, itx.user.id))
    async def export(self, itx: discord.Interaction) -> None:
        await itx.response.defer(ephemeral=True, thinking=True)
        locale = await reply_locale(self.bot, itx)
        document = await self.privacy.export(itx.guild_id, itx.user.id)  # type: ignore[arg-type]
        limit = itx.guild.filesize_limit if itx.guild else DEFAULT_UPLOAD_LIMIT
        filename, payload = await self.privacy.encode(document, limit)
        await itx.followup.send(
            t("privacy.exported", locale),
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
    async def delete(self, itx: discord.Interaction, characters: app_commands.Choice[str]) -> None:
        locale = await reply_locale(self.bot, itx)
        guild_id, user_id = itx.guild_id, itx.user.id
        if guild_id is None:
            raise DomainError("errors.guild_only")
        preview = await self.privacy.preview(guild_id, user_id)
        if preview.empty:
            await itx.response.send_message(t("privacy.nothing", locale), ephemeral=True)
            return
        click = await ask_confirmation(
            itx,
            locale,
            question=render_preview(preview, characters.value, locale),
            confirm_key="privacy.delete_button",
        )
        if click is None:
            return
        summary = await self.privacy.delete(guild_id, user_id, characters=characters.value)  # type: ignore[arg-type]
        await click.edit_original_response(content=render_summary(summary, locale))

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

    async def cog_load(self) -> None:
        self._purger = asyncio.create_task(self._purge_loop(), name="guild-purge")

    async def cog_unload(self) -> None:
        if self._purger is not None:
            self._purger.cancel()

    def _present(self) -> set[int]:
        return {guild.id for guild in self.bot.guilds}

    async def _purge_loop(self) -> None:
        """Sleep until the earliest purge date (or until a departure moves one), then purge.

        At start, a guild the bot is in again (re-added while it was offline) is taken off
        the list before anything is purged.
        """
        service = self.retention
        await self.bot.wait_until_ready()
        while True:
            try:
                # cleared before reading, so a departure recorded meanwhile wakes us again
                service.timers_changed.clear()
                for departure in await service.pending():
                    if departure.guild_id in self._present():
                        await service.returned(departure.guild_id)
                due = await service.next_due()
                delay = IDLE_CHECK_SECONDS
                if due is not None:
                    delay = max(0.0, min(delay, (due - utcnow()).total_seconds()))
                if delay > 0:
                    try:
                        await asyncio.wait_for(service.timers_changed.wait(), timeout=delay)
                        continue  # a departure moved: read the earliest again
                    except TimeoutError:
                        pass
                for guild_id in await service.purge_due(present=self._present()):
                    log.info("guild %s purged", guild_id)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the loop must outlive one bad purge
                log.exception("guild purge task")
                await asyncio.sleep(60)


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(PrivacyCog(bot))
