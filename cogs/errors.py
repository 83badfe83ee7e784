"""One place where errors become translated, ephemeral replies (and nothing is lost).

Domain errors (:class:`DomainError`), dice errors and rules errors carry catalogue keys;
anything unexpected is logged with a short reference the user can quote.
"""

from __future__ import annotations

import logging
import math
import secrets
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.services.errors import DomainError
from cogs.ui.context import reply_locale
from rules.dice import DiceError
from rules.systems.base import RulesError

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = ["describe_error", "send_error"]


def describe_error(error: BaseException, locale: str) -> str | None:
    """The translated text for a known error, or None for a bug."""
    if isinstance(error, DomainError):
        return t(error.key, locale, **error.params)
    if isinstance(error, DiceError):
        params = dict(error.params or {})
        params.setdefault("column", error.column if error.column is not None else "?")
        return t(f"dice.error.{error.code}", locale, **params)
    if isinstance(error, RulesError):
        return "\n".join(t(p.key, locale, **dict(p.params)) for p in error.problems)
    if isinstance(error, app_commands.MissingPermissions):
        return t(
            "errors.missing_permissions", locale, permissions=", ".join(error.missing_permissions)
        )
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("errors.guild_only", locale)
    if isinstance(error, app_commands.CommandOnCooldown):
        # whole seconds, rounded up: "wait 3 s" must never be too early
        return t("errors.cooldown", locale, seconds=max(1, math.ceil(error.retry_after)))
    if isinstance(error, app_commands.CheckFailure):
        return t("errors.not_allowed", locale)
    return None


async def send_error(itx: discord.Interaction, text: str) -> None:
    embed = discord.Embed(description=text[:4000], colour=discord.Colour.red())
    try:
        if itx.response.is_done():
            await itx.followup.send(embed=embed, ephemeral=True)
        else:
            await itx.response.send_message(embed=embed, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not send an error reply")


class Errors(commands.Cog):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self._previous = bot.tree.on_error
        bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        self.bot.tree.on_error = self._previous  # type: ignore[method-assign]

    async def on_app_command_error(
        self, itx: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        try:
            locale = await reply_locale(self.bot, itx)
        except Exception:
            locale = self.bot.config.default_locale
        text = describe_error(original, locale)
        if text is None:
            reference = secrets.token_hex(3)
            command = itx.command.qualified_name if itx.command else "?"
            log.error(
                "unexpected error %s in /%s (namespace %r)",
                reference,
                command,
                itx.namespace,
                exc_info=original,
            )
            text = t("errors.unexpected", locale, reference=reference)
        await send_error(itx, text)


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(Errors(bot))
