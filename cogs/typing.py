"""Posting by typing, as on Umbría (issue 24): members' messages in scenes become posts.

The listener reads each message the gateway sends (only with ``ARBITRO_MESSAGE_CONTENT``:
``bot.app``), drops at once what can never be a post (bots, webhooks — other proxy bots such
as Tupperbox or PluralKit among them —, system messages, anything outside a thread), takes the
message's ticket in its channel's queue before anything else, and hands the rest to
:meth:`bot.services.table.typing.TypedPostService.handle` with the Discord side
(:class:`cogs.ui.typed_sender.MessageSender`).

While a message is being handled (waiting for its turn, its files downloading), its author
may edit or delete it: the raw edit and delete events (they come whether or not the message is
in discord.py's cache) update :class:`Pending`, and the service reads it at the message's turn.
A message refused before anything was rolled (a private mark, a mistyped roll, a missing
permission: :attr:`TypedOutcome.REFUSED`) is handled again when its author edits it within
:data:`RETRY_WINDOW` — the fix its author was told to make; one refused after its rolls were
logged is not (typing it again rolls anew, in the open).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.services.table.typing import TypedMessage, TypedOutcome
from cogs.ui.channel_queue import ChannelQueue
from cogs.ui.context import actor_of_member, place_of_channel
from cogs.ui.typed_sender import FILES_IN_FLIGHT, ByteBudget, MessageSender, Pending

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["TypingCog"]

log = logging.getLogger(__name__)

#: Messages a member writes (a reply too); joins, pins and other system messages are not.
MEMBER_MESSAGES = (discord.MessageType.default, discord.MessageType.reply)
#: How long an edit of a refused message tries it again (seconds), and how many such
#: messages are remembered at most (the oldest forgotten first): memory bounded by design.
RETRY_WINDOW = 600.0
RETRY_KEPT = 1000


def may_be_a_post(message: discord.Message) -> bool:
    """What can be decided without a lookup: a member's own message in a thread (scenes are
    threads: forum posts or threads of the campaign's channels), or with ``[[`` anywhere (a
    roll outside a scene, with the setting ``tiradas_en_mensajes``).  Never a forum post's
    opening message (its id is the thread's): deleting it would leave the post without it."""
    return (
        message.guild is not None
        and isinstance(message.author, discord.Member)
        and not message.author.bot
        and message.webhook_id is None
        and message.type in MEMBER_MESSAGES
        and message.id != message.channel.id
        and (
            isinstance(message.channel, discord.Thread)
            or (isinstance(message.channel, discord.TextChannel) and "[[" in message.content)
        )
    )


def typed_message(message: discord.Message) -> TypedMessage:
    assert isinstance(message.author, discord.Member)  # may_be_a_post checked it
    assert isinstance(message.channel, discord.Thread | discord.TextChannel)
    return TypedMessage(
        place=place_of_channel(message.channel),
        actor=actor_of_member(message.author),
        message_id=message.id,
        text=message.content,
        has_files=bool(message.attachments),
        channel_name=message.channel.name,
        in_thread=isinstance(message.channel, discord.Thread),
    )


class TypingCog(commands.Cog):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self.queue = ChannelQueue()
        self.budget = ByteBudget(FILES_IN_FLIGHT)
        #: the messages being handled, by id: what their authors did to them meanwhile
        self.pending: dict[int, Pending] = {}
        #: messages refused with nothing rolled, by id: when (an edit tries them again)
        self.refused: dict[int, float] = {}

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if not self.bot.reads_messages or not may_be_a_post(message):
            return
        ticket = self.queue.ticket(message.channel.id)  # before any await: arrival order
        pending = self.pending[message.id] = Pending(message.content)
        try:
            sender = MessageSender(self.bot, message, ticket, self.budget, pending)
            outcome = await self.bot.services.typing.handle(typed_message(message), sender)
            if outcome == TypedOutcome.REFUSED:
                self._keep_refused(message.id)
        except Exception:
            log.exception("typed message %s could not be handled", message.id)
        finally:
            ticket.finish()
            del self.pending[message.id]

    def _keep_refused(self, message_id: int) -> None:
        self.refused[message_id] = time.monotonic()
        while len(self.refused) > RETRY_KEPT:  # the oldest go first (insertion order)
            del self.refused[next(iter(self.refused))]

    @commands.Cog.listener()
    async def on_raw_message_edit(self, event: discord.RawMessageUpdateEvent) -> None:
        content: object = event.data.get("content")
        if not isinstance(content, str):  # an embed unfurled: no content
            return
        pending = self.pending.get(event.message_id)
        if pending is not None:
            pending.text = content
            return
        refused_at = self.refused.pop(event.message_id, None)
        if refused_at is not None and time.monotonic() - refused_at <= RETRY_WINDOW:
            # tried again as it reads now (Discord sends the whole message, its author a member)
            await self.on_message(event.message)
            return
        message = event.message
        if not self.bot.reads_messages or not may_be_a_post(message):
            return
        # a kept original (its files stayed with it) edited: its post follows
        sender = MessageSender(
            self.bot, message, self.queue.ticket(message.channel.id), self.budget
        )
        try:
            await self.bot.services.typing.follow_original(typed_message(message), sender)
        except Exception:
            log.exception("the edit of message %s could not be followed", message.id)
        finally:
            sender.ticket.finish()

    @commands.Cog.listener()
    async def on_raw_message_delete(self, event: discord.RawMessageDeleteEvent) -> None:
        if (pending := self.pending.get(event.message_id)) is not None:
            pending.deleted = True

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, event: discord.RawBulkMessageDeleteEvent) -> None:
        for message_id in event.message_ids:
            if (pending := self.pending.get(message_id)) is not None:
                pending.deleted = True


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(TypingCog(bot))
