"""``/scene open|close|reopen|list``: the play-by-post table's scenes (issue 12 §1, §2b).

Where a scene opens: a campaign bound to a **forum** gets a new forum post in it (run the
command in any post of the forum); one bound to a **text channel** gets a thread in that
channel; one bound to a **category** gets a thread in the text channel where the command runs
(or in the parent channel of the thread where it runs).  A scene for part of the party
(``private``) is a private thread only its players and the GM see; Discord has no private
forum posts, so a forum campaign is told so and offered the alternatives.

Other features refresh the pinned header with :func:`cogs.ui.scene_header.refresh_header` (a new post, the
round of posts) and find a thread's scene with ``bot.services.table.scenes.scene_for`` (a thread
the GM opened by hand becomes a scene on its first bot use: :meth:`SceneCog.adopt`).
"""

from __future__ import annotations

import io
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.services import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.table.scenes import OpenPlan, SceneView, ThreadFacts
from cogs.ui import render_pace, render_scenes
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight, heavy
from cogs.ui.custom_ids import CustomId, custom_id_of, form_values
from cogs.ui.errors import describe_error, send_error
from cogs.ui.modal_submissions import modal_submissions
from cogs.ui.scene_header import refresh_header

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = ["SceneCog", "OPEN_TAGS", "CLOSED_TAGS"]

#: The forum tags the bot applies, looked up by name (either language) and created in the
#: campaign's language when missing.  Discord: at most 20 tags on a forum, 5 on a post.
OPEN_TAGS: dict[str, str] = {"es": "Abierta", "en": "Open"}
CLOSED_TAGS: dict[str, str] = {"es": "Cerrada", "en": "Closed"}
MAX_APPLIED_TAGS = 5
MAX_FORUM_TAGS = 20
#: The opening form, keyed by a one-time token of the pending opening (kept in memory).
FORM_ID = CustomId.of("scene:open", token=r"[0-9a-f]{16}")
MAX_PENDING = 500  # forms waiting to be submitted, kept in memory (oldest dropped)
WEEK: Final[Literal[10080]] = (
    10080  # minutes: the longest auto-archive Discord offers; a scene is slow
)


@dataclass(frozen=True, slots=True)
class _Pending:
    plan: OpenPlan
    place: Place
    actor: Actor
    parent_id: int
    private: bool


def _tag_names(tags: dict[str, str]) -> set[str]:
    return {name.casefold() for name in tags.values()}


def _find_tag(forum: discord.ForumChannel, names: set[str]) -> discord.ForumTag | None:
    return next((tag for tag in forum.available_tags if tag.name.casefold() in names), None)


async def _ensure_tag(
    forum: discord.ForumChannel, tags: dict[str, str], locale: str, notes: list[str]
) -> discord.ForumTag | None:
    """The forum's tag named in ``tags``, created when missing and the bot may (Manage
    Channels, and the forum has room); otherwise a note for the GM and no tag."""
    found = _find_tag(forum, _tag_names(tags))
    if found is not None:
        return found
    name = tags.get(locale, tags["es"])
    if len(forum.available_tags) >= MAX_FORUM_TAGS:
        notes.append(t("scene.note.forum_tags_full", locale, name=name))
        return None
    if not forum.permissions_for(forum.guild.me).manage_channels:
        notes.append(t("scene.note.cannot_create_tag", locale, name=name))
        return None
    try:
        return await forum.create_tag(name=name)
    except discord.HTTPException:
        log.warning("could not create the forum tag %r in %s", name, forum.id, exc_info=True)
        notes.append(t("scene.note.cannot_create_tag", locale, name=name))
        return None


def _extra_tags(forum: discord.ForumChannel, names: tuple[str, ...]) -> list[discord.ForumTag]:
    """The GM's extra tags, which must exist on the forum (the error lists those that do)."""
    by_name = {tag.name.casefold(): tag for tag in forum.available_tags}
    missing = [name for name in names if name.casefold() not in by_name]
    if missing:
        available = ", ".join(tag.name for tag in forum.available_tags) or "—"
        raise DomainError("scene.error.unknown_tags", tags=", ".join(missing), valid=available)
    if len(names) + 1 > MAX_APPLIED_TAGS:
        raise DomainError("scene.error.too_many_tags", limit=MAX_APPLIED_TAGS - 1)
    return [by_name[name.casefold()] for name in names]


def _parent_of(itx: discord.Interaction[Arbitro]) -> discord.abc.GuildChannel | None:
    channel = itx.channel
    if isinstance(channel, discord.Thread):
        return channel.parent
    return channel if isinstance(channel, discord.abc.GuildChannel) else None


class OpenSceneModal(discord.ui.Modal):
    """The GM's opening text (a long paragraph); answered by :meth:`SceneCog.form_submitted`."""

    def __init__(self, token: str, title: str, locale: str) -> None:
        super().__init__(title=t("scene.form_title", locale)[:45], custom_id=FORM_ID.build(token))
        self.text: discord.ui.TextInput[OpenSceneModal] = discord.ui.TextInput(
            label=t("scene.form_label", locale)[:45],
            custom_id="text",
            placeholder=t("scene.form_placeholder", locale, title=title)[:100],
            style=discord.TextStyle.paragraph,
            max_length=4000,
            required=True,
        )
        self.add_item(self.text)


@app_commands.guild_only()
class SceneCog(
    commands.GroupCog,
    group_name="scene",
    group_description="Play-by-post scenes: open, close, reopen, status, list",
):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self.service = bot.services.scenes
        self.pending: OrderedDict[str, _Pending] = OrderedDict()
        self.known: OrderedDict[int, None] = OrderedDict()  # threads already seen as scenes
        super().__init__()

    async def cog_load(self) -> None:
        modal_submissions(self.bot).add(self.form_submitted)

    async def cog_unload(self) -> None:
        modal_submissions(self.bot).remove(self.form_submitted)

    # -- /scene open ----------------------------------------------------------------------

    @app_commands.command(name="open", description="Open a scene: a forum post or thread (GM)")
    @app_commands.describe(
        title="The scene's title (the post's or thread's name)",
        players="Who plays in it: mention them (@ana @bruno); empty: the whole party",
        tags="Extra forum tags, comma separated (they must exist on the forum)",
        private="Only its players and the GM see it (a private thread; not in forums)",
    )
    @heavy()
    async def open(
        self,
        itx: discord.Interaction[Arbitro],
        title: app_commands.Range[str, 1, 100],
        players: app_commands.Range[str, 1, 1000] | None = None,
        tags: app_commands.Range[str, 1, 200] | None = None,
        private: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        plan = await self.service.plan_open(
            ctx.place, ctx.actor, title=title, players=players, tags=tags
        )
        parent = _parent_of(itx)
        if isinstance(parent, discord.ForumChannel):
            if private:
                raise DomainError("scene.error.private_in_forum")
            _extra_tags(parent, plan.tags)  # refused before the GM types the text
        elif isinstance(parent, discord.TextChannel):
            if plan.tags:
                raise DomainError("scene.error.tags_need_forum")
            if private and not plan.players:
                raise DomainError("scene.error.private_needs_players")
        else:
            raise DomainError("scene.error.bad_parent")
        token = secrets.token_hex(8)
        self.pending[token] = _Pending(plan, ctx.place, ctx.actor, parent.id, private)
        while len(self.pending) > MAX_PENDING:
            self.pending.popitem(last=False)
        await itx.response.send_modal(OpenSceneModal(token, plan.title, ctx.locale))

    async def form_submitted(self, itx: discord.Interaction[Arbitro]) -> None:
        """The opening text arrived (a modal submission: cogs.ui.modal_submissions): create
        the post or thread, the row and the header.

        Any failure answers privately with the GM's text attached, so nothing typed is lost.
        """
        form = FORM_ID.parse(custom_id_of(itx))
        if form is None:
            return
        text = form_values(itx).get("text", "")
        ctx = await ctx_of(itx)
        try:
            pending = self.pending.pop(form["token"], None)
            if pending is None or pending.actor.user_id != itx.user.id:
                raise DomainError("scene.error.form_expired")
            await itx.response.defer(ephemeral=True, thinking=True)
            scene, notes = await self._create(itx, pending, text, ctx.locale)
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self._fail(itx, error, ctx.locale, text)
            return
        await itx.followup.send(render_scenes.opened(scene, ctx.locale, notes), ephemeral=True)

    async def _fail(
        self, itx: discord.Interaction[Arbitro], error: Exception, locale: str, text: str
    ) -> None:
        message = describe_error(error, locale)
        if message is None:
            if isinstance(error, discord.Forbidden):
                message = t("scene.error.missing_permissions", locale)
            else:
                log.error("unexpected error opening a scene", exc_info=error)
                message = t("errors.unexpected", locale, reference=secrets.token_hex(3))
        await send_error(itx, message)
        if text:
            file = discord.File(io.BytesIO(text.encode("utf-8")), filename="escena.txt")
            try:
                await itx.followup.send(t("scene.text_returned", locale), file=file, ephemeral=True)
            except discord.HTTPException:
                log.warning("could not return the scene text", exc_info=True)

    async def _create(
        self, itx: discord.Interaction[Arbitro], pending: _Pending, text: str, locale: str
    ) -> tuple[SceneView, list[str]]:
        guild = itx.guild
        assert guild is not None
        parent = guild.get_channel(pending.parent_id)
        plan, notes = pending.plan, list[str]()
        members = [*plan.players, plan.gm_user_id, pending.actor.user_id]
        if isinstance(parent, discord.ForumChannel):
            applied = _extra_tags(parent, plan.tags)
            open_tag = await _ensure_tag(parent, OPEN_TAGS, locale, notes)
            if open_tag is not None:
                applied.insert(0, open_tag)
            created = await parent.create_thread(
                name=plan.title,
                content=text,
                applied_tags=applied[:MAX_APPLIED_TAGS],
                auto_archive_duration=WEEK,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            thread = created.thread
        elif isinstance(parent, discord.TextChannel):
            thread = await parent.create_thread(
                name=plan.title,
                type=discord.ChannelType.private_thread
                if pending.private
                else discord.ChannelType.public_thread,
                invitable=False,
                auto_archive_duration=WEEK,
            )
            await thread.send(text, allowed_mentions=discord.AllowedMentions.none())
        else:
            raise DomainError("scene.error.bad_parent")
        scene = await self.service.record_open(
            pending.place,
            pending.actor,
            plan,
            channel_id=thread.id,
            parent_id=pending.parent_id,
            private=pending.private,
            opening_text=text,
        )
        self.known[thread.id] = None
        for user_id in dict.fromkeys(members):
            try:
                await thread.add_user(discord.Object(id=user_id))
            except discord.HTTPException:
                log.warning("could not add %s to scene %s", user_id, scene.id, exc_info=True)
        scene = await self._post_header(thread, scene, locale, notes)
        return scene, notes

    async def _post_header(
        self, thread: discord.Thread, scene: SceneView, locale: str, notes: list[str]
    ) -> SceneView:
        view = await self.service.header(scene)
        message = await thread.send(**render_scenes.header(view, locale))
        try:
            await message.pin()
        except discord.HTTPException:
            notes.append(t("scene.note.cannot_pin", locale))
        return await self.service.set_header(scene, message.id)

    # -- /scene close, reopen, list ----------------------------------------------------------

    async def _thread(self, itx: discord.Interaction[Arbitro]) -> discord.Thread:
        channel = itx.channel
        if not isinstance(channel, discord.Thread):
            raise DomainError("scene.error.not_a_scene")
        return channel

    @staticmethod
    def _facts(thread: discord.Thread) -> ThreadFacts:
        """What makes a thread the GM opened by hand a scene (its name, owner, privacy)."""
        private = thread.type is discord.ChannelType.private_thread
        return ThreadFacts(thread.name, thread.owner_id, private)

    @staticmethod
    def _deferring(itx: discord.Interaction[Arbitro]) -> Callable[[], Awaitable[None]]:
        async def defer() -> None:
            await itx.response.defer(ephemeral=True, thinking=True)

        return defer

    async def _tags_for(
        self, thread: discord.Thread, wanted: dict[str, str], dropped: dict[str, str], locale: str
    ) -> list[discord.ForumTag] | None:
        """The post's tags with ``dropped`` swapped for ``wanted`` (``None`` outside forums)."""
        forum = thread.parent
        if not isinstance(forum, discord.ForumChannel):
            return None
        notes: list[str] = []
        tag = await _ensure_tag(forum, wanted, locale, notes)
        gone = _tag_names(dropped) | _tag_names(wanted)
        kept = [tag for tag in thread.applied_tags if tag.name.casefold() not in gone]
        if tag is not None:
            kept.insert(0, tag)
        return kept[:MAX_APPLIED_TAGS]

    @app_commands.command(name="close", description="Close this scene: summary, lock, archive (GM)")
    @fight()
    async def close(self, itx: discord.Interaction[Arbitro]) -> None:
        ctx = await ctx_of(itx)
        thread = await self._thread(itx)
        closed = await self.service.close(
            ctx.place, ctx.actor, self._facts(thread), self._deferring(itx)
        )
        try:
            await thread.send(**render_scenes.summary(closed, ctx.locale))
        except discord.Forbidden:  # closed all the same; the GM learns what is missing
            await itx.followup.send(t("scene.note.cannot_post", ctx.locale), ephemeral=True)
        await refresh_header(self.bot, closed.scene, ctx.locale)
        tags = await self._tags_for(thread, CLOSED_TAGS, OPEN_TAGS, ctx.locale)
        extra: dict[str, Any] = {} if tags is None else {"applied_tags": tags}
        try:
            await thread.edit(locked=True, archived=True, **extra)
        except discord.Forbidden:
            await itx.followup.send(t("scene.note.cannot_lock", ctx.locale), ephemeral=True)
            return
        await itx.followup.send(
            t("scene.closed", ctx.locale, title=closed.scene.title), ephemeral=True
        )

    @app_commands.command(name="reopen", description="Open a closed scene again (GM)")
    @fight()
    async def reopen(self, itx: discord.Interaction[Arbitro]) -> None:
        ctx = await ctx_of(itx)
        thread = await self._thread(itx)
        scene = await self.service.reopen(
            ctx.place, ctx.actor, self._facts(thread), self._deferring(itx)
        )
        tags = await self._tags_for(thread, OPEN_TAGS, CLOSED_TAGS, ctx.locale)
        extra: dict[str, Any] = {} if tags is None else {"applied_tags": tags}
        try:
            await thread.edit(locked=False, archived=False, **extra)
        except discord.Forbidden:
            await itx.followup.send(t("scene.note.cannot_lock", ctx.locale), ephemeral=True)
            return
        await refresh_header(self.bot, scene, ctx.locale)
        try:
            await thread.send(t("scene.reopened", ctx.locale, title=scene.title))
        except discord.Forbidden:
            await itx.followup.send(t("scene.note.cannot_post", ctx.locale), ephemeral=True)
        await itx.followup.send(t("common.done", ctx.locale), ephemeral=True)

    @app_commands.command(name="status", description="Who has posted in this scene and who is due")
    @app_commands.describe(private="Only you see it")
    async def status(self, itx: discord.Interaction[Arbitro], private: bool = False) -> None:
        """The round of posts (:mod:`bot.services.table.pace`): a thread made by hand counts too."""
        ctx = await ctx_of(itx)
        view = await self.service.status(ctx.place)
        await itx.response.send_message(**render_pace.status(view, ctx.locale), ephemeral=private)

    @app_commands.command(name="list", description="The campaign's scenes, open and closed")
    async def list(self, itx: discord.Interaction[Arbitro]) -> None:
        ctx = await ctx_of(itx)
        scenes, total = await self.service.list(ctx.place)
        visible = tuple(s for s in scenes if not s.private or self._may_see(s, ctx.actor, itx))
        await itx.response.send_message(
            **render_scenes.scene_list(visible, total - (len(scenes) - len(visible)), ctx.locale),
            ephemeral=True,
        )

    @staticmethod
    def _may_see(scene: SceneView, actor: Actor, itx: discord.Interaction[Arbitro]) -> bool:
        """A private scene is listed to its players, the GM who opened it, and moderators."""
        perms = itx.permissions
        return (
            actor.user_id in scene.players
            or actor.user_id == scene.opened_by
            or actor.is_admin
            or perms.manage_threads
        )

    # -- threads opened by hand --------------------------------------------------------------

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, itx: discord.Interaction[Arbitro], command: Any
    ) -> None:
        """Any command used in a thread of a campaign makes it a scene (once per thread)."""
        await self.adopt(itx)

    async def adopt(self, itx: discord.Interaction[Arbitro]) -> SceneView | None:
        channel = itx.channel
        if not isinstance(channel, discord.Thread) or channel.id in self.known:
            return None
        try:
            ctx = await ctx_of(itx)
            scene = await self.service.scene_for(
                ctx.place,
                title=channel.name,
                opened_by=channel.owner_id,
                private=channel.type is discord.ChannelType.private_thread,
            )
        except Exception:  # noqa: BLE001 - a bookkeeping failure must not fail the command
            log.warning("could not adopt thread %s as a scene", channel.id, exc_info=True)
            return None
        self.known[channel.id] = None
        while len(self.known) > 10_000:
            self.known.popitem(last=False)
        return scene


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(SceneCog(bot))
