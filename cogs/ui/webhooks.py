"""The channel webhooks ``/post`` speaks through: one per channel, reused, recreated if deleted.

A post in a forum post or a thread goes through the webhook of its parent channel with the
thread's id (Discord's ``thread_id``): webhooks belong to channels, not threads.  The webhook's
*own* avatar is set from the speaker's stored image just before the post (Discord refuses its
CDN links as ``avatar_url`` and attachment links expire, see docs/play-by-post.md); a lock per
channel keeps two speakers' avatar-then-post steps from interleaving.  A channel is served by
one process (its guild's shard), so the lock and the cache are per process.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import discord

from bot.services.shared.errors import DomainError
from bot.services.shared.post_text import Avatar

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["Destination", "WebhookPool", "destination_of", "webhook_pool"]

log = logging.getLogger(__name__)

HOOK_NAME = "Árbitro"
UNKNOWN_WEBHOOK = 10015
#: The avatar state of a webhook found (not created) by this process: unknown, so set it.
_UNKNOWN = "?"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a post goes: the channel owning the webhook, and the thread inside it if any."""

    channel: discord.TextChannel | discord.ForumChannel
    thread: discord.Thread | None

    @property
    def message_channel_id(self) -> int:
        return self.thread.id if self.thread is not None else self.channel.id

    @property
    def thread_arg(self) -> discord.abc.Snowflake:
        return self.thread if self.thread is not None else discord.utils.MISSING


def destination_of(channel: object) -> Destination:
    """The webhook channel (and thread) for a channel where ``/post`` was used."""
    if isinstance(channel, discord.Thread):
        parent = channel.parent
        if isinstance(parent, discord.TextChannel | discord.ForumChannel):
            return Destination(parent, channel)
    elif isinstance(channel, discord.TextChannel):
        return Destination(channel, None)
    raise DomainError("post.error.bad_channel")


def webhook_pool(bot: Arbitro) -> WebhookPool:
    """The bot's one pool, shared by ``/post``, typed posts and the imported games' posts:
    one lock and one avatar per channel webhook, or two speakers' avatars would cross."""
    pool: WebhookPool | None = getattr(bot, "_webhook_pool", None)
    if pool is None:
        pool = WebhookPool(lambda: bot.user.id if bot.user else None)
        bot._webhook_pool = pool  # type: ignore[attr-defined]  # one per bot, set here
    return pool


class WebhookPool:
    """The bot's webhook per channel (cache keyed by channel id) and what avatar it wears."""

    def __init__(self, bot_user_id: Callable[[], int | None]) -> None:
        self._bot_user_id = bot_user_id
        self._hooks: dict[int, discord.Webhook] = {}
        self._avatars: dict[int, str | None] = {}  # webhook id -> sha256 of the avatar set
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    async def hook(self, channel: discord.TextChannel | discord.ForumChannel) -> discord.Webhook:
        """The channel's webhook: cached, else the one the bot made earlier, else a new one."""
        cached = self._hooks.get(channel.id)
        if cached is not None:
            return cached
        me = self._bot_user_id()
        try:
            found = [
                h
                for h in await channel.webhooks()
                if h.token and h.user is not None and h.user.id == me
            ]
            if found:
                hook = found[0]
                self._avatars[hook.id] = _UNKNOWN
            else:
                hook = await channel.create_webhook(name=HOOK_NAME)
                self._avatars[hook.id] = None
        except discord.Forbidden:
            raise DomainError("post.error.no_manage_webhooks", channel=channel.mention) from None
        self._hooks[channel.id] = hook
        return hook

    def forget(self, channel_id: int) -> None:
        hook = self._hooks.pop(channel_id, None)
        if hook is not None:
            self._avatars.pop(hook.id, None)

    async def _with_hook(
        self,
        channel: discord.TextChannel | discord.ForumChannel,
        act: Callable[[discord.Webhook], Awaitable[T]],
    ) -> T:
        """``act`` with the channel's webhook; if someone deleted it (Unknown Webhook), make a
        new one once and try again."""
        hook = await self.hook(channel)
        try:
            return await act(hook)
        except discord.NotFound as error:
            if error.code != UNKNOWN_WEBHOOK:
                raise
            log.info("webhook of channel %s was deleted: making a new one", channel.id)
            self.forget(channel.id)
            return await act(await self.hook(channel))

    async def _wear(self, hook: discord.Webhook, avatar: Avatar | None) -> None:
        wanted = avatar.sha256 if avatar is not None else None
        if self._avatars.get(hook.id) == wanted:
            return
        try:
            await hook.edit(avatar=avatar.data if avatar is not None else None)
        except discord.Forbidden:
            raise DomainError(
                "post.error.no_manage_webhooks", channel=f"<#{hook.channel_id}>"
            ) from None
        self._avatars[hook.id] = wanted

    async def send(
        self,
        where: Destination,
        parts: list[str],
        *,
        username: str,
        avatar: Avatar | None,
        files: Callable[[], list[discord.File]] | None = None,
    ) -> list[discord.WebhookMessage]:
        """Post ``parts`` in order under ``username`` with ``avatar`` (``files`` made fresh
        for each try, on the last part); returns the messages."""

        async def act(hook: discord.Webhook) -> list[discord.WebhookMessage]:
            await self._wear(hook, avatar)
            sent: list[discord.WebhookMessage] = []
            for index, part in enumerate(parts):
                attached = files() if files is not None and index == len(parts) - 1 else []
                sent.append(
                    await hook.send(
                        part,
                        username=username,
                        thread=where.thread_arg,
                        wait=True,
                        allowed_mentions=discord.AllowedMentions.none(),
                        files=attached or discord.utils.MISSING,
                    )
                )
            return sent

        async with self.lock(where.channel.id):
            return await self._with_hook(where.channel, act)

    async def edit(
        self, where: Destination, message_ids: list[int], parts: list[str], *, username: str
    ) -> list[int]:
        """Show ``parts`` in the post's messages: edits the ones it has, sends more if the new
        text needs more, deletes the ones it no longer needs; returns the ids now in use."""

        async def act(hook: discord.Webhook) -> list[int]:
            kept: list[int] = []
            for index, part in enumerate(parts):
                if index < len(message_ids):
                    await hook.edit_message(
                        message_ids[index],
                        content=part,
                        thread=where.thread_arg,
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                    kept.append(message_ids[index])
                else:
                    sent = await hook.send(
                        part,
                        username=username,
                        thread=where.thread_arg,
                        wait=True,
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                    kept.append(sent.id)
            for extra in message_ids[len(parts) :]:
                await hook.delete_message(extra, thread=where.thread_arg)
            return kept

        async with self.lock(where.channel.id):
            return await self._with_hook(where.channel, act)

    async def delete(self, where: Destination, message_ids: list[int]) -> None:
        """Delete the post's messages (already gone ones are fine): through the webhook that
        sent them, which needs no permission; messages of a webhook someone deleted since
        through the channel (that needs Manage Messages)."""
        holder = where.thread if where.thread is not None else where.channel
        try:
            hook: discord.Webhook | None = await self.hook(where.channel)
        except DomainError:  # no Manage Webhooks any more: the channel route may still work
            hook = None
        for message_id in message_ids:
            try:
                if hook is not None:
                    try:
                        await hook.delete_message(message_id, thread=where.thread_arg)
                        continue
                    except discord.NotFound:
                        pass  # sent by an earlier webhook of the channel: ask the channel
                if isinstance(holder, discord.ForumChannel):
                    continue  # no message lives in a forum itself
                await holder.get_partial_message(message_id).delete()
            except discord.NotFound:
                continue
