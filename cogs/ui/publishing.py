"""The Discord side of posting an imported Umbría game (issue 27): each step the durable
timer fires (:mod:`bot.services.chronicle.publication` decides what and records it), and the
button that stops the job."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any, Final, Literal

import discord

from bot.formatting import format_datetime
from bot.i18n import t
from bot.services.chronicle.publication import PostStep, SceneStep, Step
from bot.services.shared.post_text import notes_lines, split_post, webhook_name
from bot.services.shared.timers import Due
from cogs.ui.context import ctx_of
from cogs.ui.keyed_button import KeyedButton
from cogs.ui.webhooks import Destination, webhook_pool

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["Publisher", "StopPublicationButton", "header_text", "post_text"]

log = logging.getLogger(__name__)
WEEK: Final[Literal[10080]] = 10080  # minutes: the longest auto-archive Discord offers
UMBRIA_ZONE = "Europe/Madrid"


def header_text(scene: SceneStep, locale: str) -> str:
    """The thread's first message: the opening text, then where the history is."""
    history = t(
        "umbria.thread.history",
        locale,
        posts=scene.posts,
        first=format_datetime(scene.first, locale, UMBRIA_ZONE) if scene.first else "—",
        last=format_datetime(scene.last, locale, UMBRIA_ZONE) if scene.last else "—",
        file=scene.chronicle_file,
    )
    opening = (scene.opening or "").strip()
    return f"{opening}\n\n{history}" if opening else history


def post_text(post: PostStep, when: str, locale: str) -> str:
    """An imported post as it goes into its thread: text, rolls, notes, and a line saying
    when (and by whom, while unclaimed) it was written on Umbría."""
    lines = [post.text]
    for expression, reason, breakdown in post.rolls:
        lines.append(
            t("umbria.thread.roll", locale, expression=expression, reason=reason or "—",
              breakdown=breakdown)
        )  # fmt: skip
    if post.notes:
        lines.append(notes_lines(post.notes))
    origin = t("umbria.thread.origin", locale, when=when)
    if post.player:
        origin += " · " + t("umbria.thread.player", locale, player=post.player)
    lines.append(f"-# {origin}")
    return "\n".join(line for line in lines if line)


class StopPublicationButton(KeyedButton, kind="pub-stop", style=discord.ButtonStyle.danger):
    publication_id: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            await ctx.services.publication.stop(ctx.place, ctx.actor, self.publication_id)
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error)
            return
        await itx.response.edit_message(view=None)
        await itx.followup.send(t("umbria.publication_stopped", ctx.locale), ephemeral=True)


class Publisher:
    """Runs one step per firing of the job's timer, then sets the timer for the next."""

    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self.service = bot.services.publication
        self.hooks = webhook_pool(bot)  # shared: one avatar per channel webhook at a time

    async def fire(self, due: Due) -> None:
        step = await self.service.next_step(int(due.ref))
        if step is None:
            return
        if step.kind == "done":
            await self.service.finish(step)
            return
        try:
            await self._act(step)
        except (discord.Forbidden, discord.NotFound):
            log.warning("publication %s stopped: Discord refused step %s", step.publication_id,
                        step.kind, exc_info=True)  # fmt: skip
            await self.service.finish(step, "stopped")
            return
        await self.service.again(step.publication_id, step.guild_id)

    async def _channel(self, channel_id: int) -> Any:
        found = self.bot.get_channel(channel_id)
        return found if found is not None else await self.bot.fetch_channel(channel_id)

    async def _act(self, step: Step) -> None:
        locale = step.locale or "es"
        if step.kind == "thread":
            assert step.scene is not None
            thread = await self._thread(step, step.scene, locale)
            await self.service.thread_made(step, thread.id)
        elif step.kind == "post":
            assert step.post is not None and step.thread_id is not None
            sent = await self._post(step, step.post, locale)
            await self.service.post_sent(step, sent)
        elif step.kind == "close":
            assert step.thread_id is not None
            thread = await self._channel(step.thread_id)
            await thread.edit(locked=True, archived=True)
            await self.service.thread_closed(step)

    async def _thread(self, step: Step, scene: SceneStep, locale: str) -> discord.Thread:
        parent = await self._channel(step.parent_id)
        text = header_text(scene, locale)
        none = discord.AllowedMentions.none()
        if isinstance(parent, discord.ForumChannel):
            made = await parent.create_thread(
                name=scene.title[:100], content=split_post(text)[0], auto_archive_duration=WEEK,
                allowed_mentions=none,
            )  # fmt: skip
            return made.thread
        thread: discord.Thread = await parent.create_thread(
            name=scene.title[:100], type=discord.ChannelType.public_thread,
            auto_archive_duration=WEEK,
        )  # fmt: skip
        for part in split_post(text):
            await thread.send(part, allowed_mentions=none)
        return thread

    async def _post(self, step: Step, post: PostStep, locale: str) -> list[int]:
        thread = await self._channel(step.thread_id or 0)
        parent = await self._channel(step.parent_id)
        when = format_datetime(post.posted_at, locale, UMBRIA_ZONE) if post.posted_at else "—"
        text = post_text(post, when, locale)

        def files() -> list[discord.File]:
            return [discord.File(io.BytesIO(data), filename=name) for name, data in post.images]

        sent = await self.hooks.send(
            Destination(parent, thread),
            split_post(text),
            username=webhook_name(post.speaker),
            avatar=post.avatar,
            files=files if post.images else None,
        )
        return [message.id for message in sent]
