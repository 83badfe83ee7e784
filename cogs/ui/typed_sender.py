"""The Discord side of one typed post (:class:`bot.services.table.typing.TypedSender`).

It posts through the channel's webhook (the pool ``/post`` uses, so avatars never cross),
carries the message's files over within the server's upload limit, quotes the message it
replies to, deletes the original once the post is recorded, and tells the author privately (a
direct message; if their DMs are closed, a reply that mentions only them) why a message stayed
as written.  Files are downloaded within a budget shared by the whole process: a burst of
large attachments waits instead of filling the memory.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.play.inline import InlineRoll
from bot.services.shared.audience import Shown
from bot.services.shared.errors import DomainError
from bot.services.table.posting import PostView
from bot.services.table.typing import SentPost, TypedPost
from cogs.ui.channel_queue import Ticket
from cogs.ui.post_redraw import redraw_post
from cogs.ui.render_post import post_parts, roll_line
from cogs.ui.scene_header import refresh_header
from cogs.ui.webhooks import destination_of, webhook_pool

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["ByteBudget", "MessageSender", "Pending", "reply_quote"]

log = logging.getLogger(__name__)

#: Discord: at most 10 files per message.
MAX_FILES = 10
#: Attachment bytes held in memory at once by the whole process.
FILES_IN_FLIGHT = 64 * 1024 * 1024
QUOTE_CHARS = 80


class Pending:
    """A message being handled, as its author left it: its text now, or deleted."""

    __slots__ = ("deleted", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.deleted = False


class ByteBudget:
    """At most ``limit`` bytes of downloads in memory at once; a bigger request waits."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.free = limit
        self._changed = asyncio.Condition()

    async def take(self, size: int) -> None:
        size = min(size, self.limit)
        async with self._changed:
            await self._changed.wait_for(lambda: self.free >= size)
            self.free -= size

    async def give(self, size: int) -> None:
        async with self._changed:
            self.free = min(self.limit, self.free + min(size, self.limit))
            self._changed.notify_all()


def reply_quote(message: discord.Message, locale: str) -> str | None:
    """The line quoting the message this one replies to: its author and its first words,
    linked (a webhook's name is the character's)."""
    reference = message.reference
    if reference is None or reference.message_id is None or message.guild is None:
        return None
    target = reference.resolved if isinstance(reference.resolved, discord.Message) else None
    link = (
        f"https://discord.com/channels/{message.guild.id}/"
        f"{reference.channel_id}/{reference.message_id}"
    )
    name = target.author.display_name if target is not None else "…"
    words = " ".join(
        line
        for line in (target.content if target else "").splitlines()
        if not line.startswith("-#")
    ).strip()
    if len(words) > QUOTE_CHARS:
        words = words[: QUOTE_CHARS - 1].rstrip() + "…"
    return t(
        "typing.reply_quote",
        locale,
        name=discord.utils.escape_markdown(name).replace("[", "").replace("]", ""),
        link=link,
        words=discord.utils.escape_markdown(words) or "…",
    )


class MessageSender:
    """One typed message's way out: everything Discord does for its post."""

    def __init__(
        self,
        bot: Arbitro,
        message: discord.Message,
        ticket: Ticket,
        budget: ByteBudget,
        pending: Pending | None = None,
    ) -> None:
        self.bot = bot
        self.message = message
        self.ticket = ticket
        self.budget = budget
        self.pending = pending or Pending(message.content)
        self.pool = webhook_pool(bot)

    def missing_permissions(self) -> tuple[str, ...]:
        channel, guild = self.message.channel, self.message.guild
        if guild is None or not isinstance(channel, discord.Thread | discord.TextChannel):
            return ("post.error.bad_channel",)
        permissions = channel.permissions_for(guild.me)
        missing = []
        if not permissions.manage_webhooks:
            missing.append("typing.error.no_manage_webhooks")
        if not permissions.manage_messages:
            missing.append("typing.error.no_manage_messages")
        return tuple(missing)

    def turn(self) -> AbstractAsyncContextManager[None]:
        return self.ticket.turn()

    def latest_text(self) -> str | None:
        return None if self.pending.deleted else self.pending.text

    def _locale(self, locale: str | None) -> str:
        return locale or self.bot.config.default_locale

    async def send(self, post: TypedPost) -> SentPost:
        locale = self._locale(post.locale)
        where = destination_of(self.message.channel)
        carried, left_behind, held = await self._files()

        def files() -> list[discord.File]:  # fresh for each try (a recreated webhook)
            return [
                discord.File(
                    io.BytesIO(data), filename=name, spoiler=spoiler, description=description
                )
                for name, data, spoiler, description in carried
            ]

        seen = post.seen()  # the audience rule: what the scene's readers see of each roll
        try:
            parts = post_parts(
                post.text,
                locale,
                notes=post.notes,
                rolls=seen.shown,
                header=reply_quote(self.message, locale),
            )
            sent = await self.pool.send(
                where,
                parts,
                username=post.speaker.webhook_name,
                avatar=post.speaker.avatar,
                files=files if carried else None,
            )
        except discord.HTTPException as error:
            raise _refusal(error) from None
        finally:
            await self.budget.give(held)
        gm_copy = None
        if seen.for_gm:
            gm_copy = await self._gm_copy(post, seen.for_gm, sent[0].jump_url, locale)
        return SentPost(
            where.message_channel_id,
            tuple(m.id for m in sent),
            left_behind,
            sent[-1].jump_url,
            gm_copy,
        )

    async def _gm_copy(
        self, post: TypedPost, rolls: Sequence[Shown[InlineRoll]], link: str, locale: str
    ) -> tuple[int, str] | None:
        """The rolls the post's readers may not read (a hidden NPC's), with their numbers,
        in the GM channel (the GM reads everything)."""
        channel_id = post.speaker.gm_channel_id
        channel = self.bot.get_channel(channel_id) if channel_id else None
        if not isinstance(channel, discord.TextChannel):
            return None
        author = getattr(self.message.author, "display_name", self.message.author.name)
        head = t("post.gm_copy", locale, user=author, name=post.speaker.name, link=link)
        lines = [roll_line(roll.value, locale) for roll in rolls]
        try:
            copy = await channel.send(
                "\n".join([head, *lines]), allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:
            log.warning("could not copy a hidden NPC's rolls to the GM channel %s", channel_id)
            return None
        return copy.id, copy.jump_url

    async def answer_rolls(
        self, locale: str | None, who: str | None, rolls: list[InlineRoll]
    ) -> tuple[int, str] | None:
        words = self._locale(locale)
        author = getattr(self.message.author, "display_name", self.message.author.name)
        head = t("typing.rolled", words, user=author, character=f" ({who})" if who else "")
        lines = [roll_line(roll, words) for roll in rolls]
        try:
            answer = await self.message.reply(
                "\n".join([head, *lines])[:2000],
                mention_author=False,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("could not answer the rolls of message %s", self.message.id)
            return None
        return answer.id, answer.jump_url

    async def _files(self) -> tuple[list[tuple[str, bytes, bool, str | None]], bool, int]:
        """The message's files that fit the server's upload limit (all of them or the first
        ones: name, bytes, spoiler, description), whether some stay behind in the original,
        and the bytes held for them."""
        guild = self.message.guild
        limit = (
            guild.filesize_limit
            if guild is not None
            else discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES
        )
        files: list[tuple[str, bytes, bool, str | None]] = []
        total, left_behind = 0, len(self.message.attachments) > MAX_FILES
        for attachment in self.message.attachments[:MAX_FILES]:
            if total + attachment.size > limit:
                left_behind = True
                continue
            await self.budget.take(attachment.size)
            total += attachment.size
            try:
                data = await attachment.read()
                files.append(
                    (attachment.filename, data, attachment.is_spoiler(), attachment.description)
                )
            except discord.HTTPException:
                await self.budget.give(total)
                raise _refusal_files() from None
        return files, left_behind, total

    async def unsend(self, sent: SentPost) -> None:
        try:
            await self.pool.delete(destination_of(self.message.channel), list(sent.message_ids))
        except discord.HTTPException:
            log.exception("could not take back the unrecorded post %s", sent.message_ids)

    async def delete_original(self) -> bool:
        try:
            await self.message.delete()
        except discord.NotFound:
            return True  # its author deleted it already
        except discord.HTTPException:
            return False
        return True

    async def tell_author(self, locale: str | None, key: str, /, **params: Any) -> None:
        words = self._locale(locale)
        channel = self.message.channel
        reason = t(key, words, channel=getattr(channel, "mention", ""), **params)
        text = t("typing.notice", words, reason=reason, link=self.message.jump_url)
        try:
            await self.message.author.send(text)
            return
        except discord.HTTPException:
            pass  # DMs closed: a reply that mentions only the author
        try:
            await self.message.reply(
                text,
                mention_author=True,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[self.message.author], replied_user=True
                ),
            )
        except discord.HTTPException:
            log.warning("could not tell %s why their message was not posted", self.message.author)

    async def after_post(self, post: TypedPost, view: PostView) -> None:
        await refresh_header(self.bot, post.scene, self._locale(post.locale))

    async def redraw(self, view: PostView) -> None:
        try:
            await redraw_post(self.bot, view.guild_id, view)
        except discord.HTTPException as error:
            raise _refusal(error) from None


def _refusal(error: discord.HTTPException) -> DomainError:
    return DomainError("typing.error.send_failed", status=error.status)


def _refusal_files() -> DomainError:
    return DomainError("typing.error.files_gone")
