"""One place where errors become translated, ephemeral replies (and nothing is lost).

Domain errors (:class:`DomainError`), dice errors and rules errors carry catalogue keys;
anything unexpected is logged with a short reference the user can quote.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from cogs.ui.context import reply_locale
from cogs.ui.errors import describe_error, send_error

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)


class Errors(commands.Cog):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self._previous = bot.tree.on_error
        bot.tree.error(self.on_app_command_error)  # the documented way to set on_error

    async def cog_unload(self) -> None:
        self.bot.tree.error(self._previous)

    async def on_app_command_error(
        self, itx: discord.Interaction[Arbitro], error: app_commands.AppCommandError
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
