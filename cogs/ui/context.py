"""Turn an interaction into the plain values services take (:class:`Place`, :class:`Actor`).

Commands call ``ctx = await ctx_of(itx)`` once and read ``ctx.locale``, ``ctx.place`` and
``ctx.actor``; the context is built once per interaction and cached on ``itx.extras``, so the
error handler, a button's failure path or a helper asking again get the same values (and the
campaign's language is looked up at most once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import choose_locale, normalize_locale, t
from bot.services import Actor, Place
from bot.services.shared.errors import DomainError

if TYPE_CHECKING:
    from bot.app import Arbitro, Services

__all__ = [
    "Ctx",
    "ctx_of",
    "place_of",
    "place_of_channel",
    "actor_of",
    "actor_of_member",
    "reply_locale",
    "bind_target_of",
]

_EXTRAS_KEY = "arbitro.ctx"


@dataclass(frozen=True, slots=True)
class Ctx:
    """Who acts, where, and in which language they are answered — for one interaction."""

    bot: Arbitro
    locale: str
    actor: Actor
    where: Place | None  # None outside a guild (``/odds`` works in direct messages)

    @property
    def place(self) -> Place:
        """Where the command was used; outside a guild, the translated "guild only" error."""
        if self.where is None:
            raise DomainError("errors.guild_only")
        return self.where

    @property
    def services(self) -> Services:
        return self.bot.services

    def t(self, key: str, /, **params: Any) -> str:
        """The catalogue text for ``key`` in the reply language."""
        return t(key, self.locale, **params)


async def ctx_of(itx: discord.Interaction[Arbitro]) -> Ctx:
    """The interaction's context, built on first use and cached on ``itx.extras``."""
    cached = itx.extras.get(_EXTRAS_KEY)
    if isinstance(cached, Ctx):
        return cached
    where = place_of(itx) if itx.guild_id is not None and itx.channel_id is not None else None
    ctx = Ctx(
        bot=itx.client,
        locale=await _locale(itx.client, itx, where),
        actor=actor_of(itx),
        where=where,
    )
    itx.extras[_EXTRAS_KEY] = ctx
    return ctx


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


def place_of_channel(channel: discord.abc.GuildChannel | discord.Thread) -> Place:
    """Where a message was written (typed posts): the same chain as :func:`place_of`."""
    chain: list[int] = [channel.id]
    if isinstance(channel, discord.Thread):
        chain.append(channel.parent_id)
        category = getattr(channel.parent, "category_id", None)
    else:
        category = channel.category_id
    if category is not None:
        chain.append(category)
    return Place(channel.guild.id, channel.id, tuple(dict.fromkeys(chain)))


def actor_of_member(member: discord.Member) -> Actor:
    """A member who wrote a message, as an :class:`Actor` (their roles and server powers)."""
    permissions = member.guild_permissions
    return Actor(
        user_id=member.id,
        name=member.display_name,
        role_ids=frozenset(role.id for role in member.roles),
        is_admin=permissions.administrator or permissions.manage_guild,
        can_manage_channels=permissions.manage_channels,
    )


def bind_target_of(itx: discord.Interaction, whole_category: bool) -> tuple[int, str]:
    """What ``/campaign create`` binds: this channel or forum (a thread's parent), or its category."""
    channel = itx.channel
    target_id: int | None
    parent: object
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
    if target_id is None:
        raise DomainError("errors.guild_only")  # as place_of: no channel outside a server
    kind = "forum" if isinstance(parent, discord.ForumChannel) else "channel"
    return target_id, kind


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
    cached = itx.extras.get(_EXTRAS_KEY)
    if isinstance(cached, Ctx):
        return cached.locale
    where = place_of(itx) if itx.guild_id is not None and itx.channel_id is not None else None
    return await _locale(bot, itx, where)


async def _locale(bot: Arbitro, itx: discord.Interaction, where: Place | None) -> str:
    user_locale = normalize_locale(itx.locale)
    if user_locale:
        return user_locale
    campaign = await bot.services.campaigns.find(where) if where is not None else None
    campaign_locale = campaign.locale if campaign else None
    return choose_locale(None, campaign_locale, bot.config.default_locale)
