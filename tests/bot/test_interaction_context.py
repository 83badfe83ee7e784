"""One context per interaction: locale, place and actor computed once, cached on ``extras``."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.services import Actor, Place
from bot.services.campaigns.service import SettingsChange
from bot.services.shared.errors import DomainError
from cogs.ui.context import Ctx, ctx_of, reply_locale

HERE = Place(2000, 21, (21,))
GM = Actor(1, "Máster", can_manage_channels=True)


def interaction(services, *, locale: discord.Locale, guild: bool = True) -> SimpleNamespace:
    """The parts of ``discord.Interaction`` the context reads (a user outside a guild member)."""
    return SimpleNamespace(
        client=SimpleNamespace(services=services, config=SimpleNamespace(default_locale="es")),
        extras={},
        locale=locale,
        guild_id=HERE.guild_id if guild else None,
        channel_id=HERE.channel_id if guild else None,
        guild=None,
        channel=SimpleNamespace(parent_id=None, category_id=None),
        user=SimpleNamespace(id=7, name="ana", display_name="Ana"),
        permissions=discord.Permissions.none(),
    )


async def test_a_language_we_do_not_speak_falls_back_to_the_campaigns_once(services):
    await services.campaigns.create(
        HERE, GM, name="Mesa", system="nucleo", target_id=21, kind="channel"
    )
    await services.campaigns.update_settings(HERE, GM, SettingsChange(locale="en"))
    itx = interaction(services, locale=discord.Locale.french)

    ctx = await ctx_of(itx)

    assert (ctx.locale, ctx.place, ctx.actor.user_id, ctx.actor.name) == ("en", HERE, 7, "Ana")
    assert ctx.t("common.done") == "Done."  # en catalogue
    # the campaign's language changes, but this interaction keeps the context it built
    await services.campaigns.update_settings(HERE, GM, SettingsChange(locale="es"))
    assert await ctx_of(itx) is ctx
    assert await reply_locale(itx.client, itx) == "en"
    # a new interaction reads it again
    assert (await ctx_of(interaction(services, locale=discord.Locale.french))).locale == "es"


async def test_the_users_own_language_wins(services):
    itx = interaction(services, locale=discord.Locale.american_english)
    assert (await ctx_of(itx)).locale == "en"


async def test_outside_a_guild_only_the_place_is_refused(services):
    ctx = await ctx_of(interaction(services, locale=discord.Locale.french, guild=False))
    assert ctx.locale == "es"  # the configured default
    assert isinstance(ctx, Ctx) and ctx.where is None
    with pytest.raises(DomainError) as refused:
        _ = ctx.place
    assert refused.value.key == "errors.guild_only"
