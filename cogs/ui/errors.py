"""Errors become translated, ephemeral replies: the text for a known error, and how it is sent.

Used by the tree's error handler (the ``cogs.errors`` extension) and by the buttons and modals
that answer their own failures (the creation wizard, the turn panel).
"""

from __future__ import annotations

import logging
import math

import discord
from discord import app_commands

from bot.i18n import t
from bot.services.shared.errors import DomainError, disk_full
from bot.words import problem_text
from cogs.ui.open_scene import Refused
from rules.dice import DiceError
from rules.systems.base import RulesError
from rules.text import visible

log = logging.getLogger(__name__)

__all__ = ["describe_error", "send_error"]


def describe_error(error: BaseException, locale: str) -> str | None:
    """The translated text for a known error, or None for a bug."""
    if isinstance(error, DomainError):
        return problem_text(error.key, error.params, locale)
    if isinstance(error, DiceError):
        # The params echo what was typed: a zero-width space, a NUL or a right-to-left
        # override would be invisible or turn the message around.
        params = {k: visible(v) if isinstance(v, str) else v for k, v in error.params.items()}
        params.setdefault("column", error.column if error.column is not None else "?")
        return t(f"dice.error.{error.code}", locale, **params)
    if isinstance(error, RulesError):
        return "\n".join(problem_text(p.key, p.params, locale) for p in error.problems)
    if isinstance(error, app_commands.MissingPermissions):
        return t(
            "errors.missing_permissions", locale, permissions=", ".join(error.missing_permissions)
        )
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("errors.guild_only", locale)
    if isinstance(error, app_commands.CommandOnCooldown):
        # whole seconds, rounded up: "wait 3 s" must never be too early
        return t("errors.cooldown", locale, seconds=max(1, math.ceil(error.retry_after)))
    if isinstance(error, Refused):  # a check that says why
        return describe_error(error.error, locale)
    if isinstance(error, app_commands.CheckFailure):
        return t("errors.not_allowed", locale)
    if disk_full(error):
        # the administrator must free space: in the log, without a reference to quote
        log.error("the database's disk is full; the request was not saved: %s", error)
        return t("errors.disk_full", locale)
    return None


async def send_error(itx: discord.Interaction, text: str) -> None:
    if len(text) > 4000:  # many problems at once: whole lines only, never a cut word
        text = text[:3990].rsplit("\n", 1)[0] + "\n…"
    embed = discord.Embed(description=text, colour=discord.Colour.red())
    try:
        if itx.response.is_done():
            await itx.followup.send(embed=embed, ephemeral=True)
        else:
            await itx.response.send_message(embed=embed, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not send an error reply")
