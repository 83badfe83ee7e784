"""Turn an interaction into the plain values services take (:class:`Place`, :class:`Actor`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import choose_locale, normalize_locale
from bot.services import Actor, Place
from bot.services.errors import DomainError

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["place_of", "actor_of", "reply_locale", "bind_target_of"]


def _category_of(guild: discord.Guild | None, channel_id: int | None) -> int | None:
    if guild is None or channel_id is None:
        return None
    channel = guild.get_channel(channel_id)
    return getattr(channel, "category_id", None)


def place_of(itx: discord.Interaction) -> Place:
    """Where the command was used, with the chain of ids a campaign may be bound to."""
    if itx.guild_id is None or itx.channel_id is None:
        raise DomainError("errors.guild_only")
    channel = itx.channel
    chain: list[int] = [itx.channel_id]
    parent_id = getattr(channel, "parent_id", None)
    if isinstance(channel, discord.Thread) or (
        parent_id is not None and not isinstance(channel, discord.abc.GuildChannel)
    ):
        if parent_id is not None:
            chain.append(parent_id)
            category = _category_of(itx.guild, parent_id)
            if category is not None:
                chain.append(category)
    else:
        category = getattr(channel, "category_id", None)
        if category is not None:
            chain.append(category)
    return Place(itx.guild_id, itx.channel_id, tuple(dict.fromkeys(chain)))


def bind_target_of(itx: discord.Interaction, whole_category: bool) -> tuple[int, str]:
    """What ``/campaign create`` binds: this channel or forum (a thread's parent), or its category."""
    channel = itx.channel
    if isinstance(channel, discord.Thread):
        target_id = channel.parent_id
        parent = channel.parent
    else:
        target_id = itx.channel_id
        parent = channel
    if whole_category:
        category = getattr(parent, "category_id", None)
        if category is None:
            raise DomainError("campaign.error.no_category")
        return category, "category"
    kind = "forum" if isinstance(parent, discord.ForumChannel) else "channel"
    return int(target_id), kind


def actor_of(itx: discord.Interaction) -> Actor:
    user = itx.user
    roles: frozenset[int] = frozenset()
    is_admin = can_manage_channels = False
    if isinstance(user, discord.Member):
        roles = frozenset(role.id for role in user.roles)
        permissions = user.guild_permissions if itx.guild else itx.permissions
        is_admin = permissions.administrator or permissions.manage_guild
        can_manage_channels = permissions.manage_channels
    perms = itx.permissions
    is_admin = is_admin or perms.administrator or perms.manage_guild
    can_manage_channels = can_manage_channels or perms.manage_channels
    return Actor(
        user_id=user.id,
        name=getattr(user, "display_name", user.name),
        role_ids=roles,
        is_admin=is_admin,
        can_manage_channels=can_manage_channels,
    )


async def reply_locale(bot: Arbitro, itx: discord.Interaction) -> str:
    """The user's language if we speak it, else the campaign's, else the configured default."""
    user_locale = normalize_locale(itx.locale)
    if user_locale:
        return user_locale
    campaign_locale = None
    if itx.guild_id is not None and itx.channel_id is not None:
        campaign = await bot.services.campaigns.find(place_of(itx))
        campaign_locale = campaign.locale if campaign else None
    return choose_locale(None, campaign_locale, bot.config.default_locale)
