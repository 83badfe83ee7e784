"""``/post`` (``/publicar``) and the message menus ``Edit post`` / ``Delete post``.

``/post`` checks who may speak as whom, then opens a modal (text, notes, roll).  Its
submission is answered by one listener that reads everything again from the modal's
``custom_id`` and the database, so a form submitted after a restart is still posted.  Every
failure after the modal hands the typed text back to its author (nothing is lost).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.i18n import t
from bot.services import Actor, Place
from bot.services.campaigns.service import is_referee
from bot.services.shared.audience import Shown
from bot.services.shared.errors import DomainError
from bot.services.table.posting import (
    MAX_NOTES,
    MAX_ROLL,
    MAX_TEXT,
    PostDraft,
    PostingService,
    PostRoll,
    PostView,
    Speaker,
    check_text,
    post_reader,
    rolls_seen,
)
from bot.services.table.scenes import parse_players
from cogs.ui.context import ctx_of, reply_locale
from cogs.ui.cooldowns import fight
from cogs.ui.custom_ids import INT, CustomId, custom_id_of, form_values
from cogs.ui.errors import describe_error
from cogs.ui.modal_submissions import modal_submissions
from cogs.ui.options import Speaker as SpeakerOption
from cogs.ui.post_redraw import redraw_post
from cogs.ui.render_post import post_parts, returned_text, roll_line
from cogs.ui.scene_header import refresh_header
from cogs.ui.webhooks import Destination, destination_of, webhook_pool

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["PostCog"]

log = logging.getLogger(__name__)

#: /post's form: who speaks, the mode, the private thread's recipients and the channel for a
#: new thread.  Action ``2`` (``arb:1:post2:``): the recipients in base 36, dot separated
#: (``0`` none), and the channel in base 36; the older form (no action: one recipient, both
#: in decimal) is still read, a form open across a deploy.
POST_ID = CustomId.of(
    "post",
    actions=("", "2"),
    who=r"a|n|\d+",
    mode=r"[pgn]",
    to=r"[0-9a-z]+(?:\.[0-9a-z]+)*",
    chan=r"[0-9a-z]+",
)
EDIT_ID = CustomId.of("postedit", post=INT, version=INT)
#: modes: a public post, the whole post for the GM only, or only the notes for the GM
PUBLIC, GM_ONLY, PRIVATE_NOTES = "p", "g", "n"


class PostModal(discord.ui.Modal):
    """In-character text, notes and an optional roll (or, editing, text and notes only)."""

    def __init__(
        self,
        title: str,
        custom_id: str,
        locale: str,
        *,
        text: str | None = None,
        notes: str | None = None,
        with_roll: bool = True,
    ) -> None:
        super().__init__(title=title[:45], custom_id=custom_id)
        self.add_item(
            discord.ui.TextInput(
                label=t("post.modal.text", locale)[:45],
                custom_id="text",
                style=discord.TextStyle.paragraph,
                max_length=MAX_TEXT,
                default=text,
                required=True,
            )
        )
        self.add_item(
            discord.ui.TextInput(
                label=t("post.modal.notes", locale)[:45],
                custom_id="notes",
                style=discord.TextStyle.paragraph,
                max_length=MAX_NOTES,
                default=notes,
                required=False,
            )
        )
        if with_roll:
            self.add_item(
                discord.ui.TextInput(
                    label=t("post.modal.roll", locale)[:45],
                    custom_id="roll",
                    placeholder=t("post.modal.roll_placeholder", locale)[:100],
                    max_length=MAX_ROLL,
                    required=False,
                )
            )

    async def send(self, itx: discord.Interaction[Arbitro]) -> None:
        await itx.response.send_modal(self)
        self.stop()  # the cog's listener answers the submission, before or after a restart


class PostCog(commands.Cog):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self.posting = bot.services.posting
        self.hooks = webhook_pool(bot)
        self.edit_menu = app_commands.ContextMenu(
            name=locale_str("Edit post", key="commands.post_edit.name"), callback=self.edit_post
        )
        self.delete_menu = app_commands.ContextMenu(
            name=locale_str("Delete post", key="commands.post_delete.name"),
            callback=self.delete_post,
        )

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.edit_menu)
        self.bot.tree.add_command(self.delete_menu)
        modal_submissions(self.bot).add(self.on_post_modal)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.edit_menu.name, type=self.edit_menu.type)
        self.bot.tree.remove_command(self.delete_menu.name, type=self.delete_menu.type)
        modal_submissions(self.bot).remove(self.on_post_modal)

    # -- /post ---------------------------------------------------------------------------

    @app_commands.command(
        name="post", description="Post as your character (GM: as an NPC or the narrator)"
    )
    @app_commands.rename(as_="as")
    @app_commands.describe(
        as_="Who speaks (default: your active character; GM: any NPC or the Narrador)",
        private="For the GM only: goes to the GM channel with a link here",
        private_notes="Only the notes (out of character) go to the GM channel",
        to="Post in a private thread with this member and the GM (GM: with this player)",
        others="More members for that private thread: mention them (@carla @dani)",
        thread_channel="The text channel for that private thread (the first time)",
    )
    @app_commands.guild_only()
    @fight()
    async def post(
        self,
        itx: discord.Interaction[Arbitro],
        as_: SpeakerOption | None = None,
        private: bool = False,
        private_notes: bool = False,
        to: discord.Member | None = None,
        others: app_commands.Range[str, 1, 300] | None = None,
        thread_channel: discord.TextChannel | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        if (to is not None or thread_channel is not None) and (private or private_notes):
            raise DomainError("post.error.private_and_to")
        if private and private_notes:
            raise DomainError("post.error.private_twice")
        campaign = await ctx.services.campaigns.require(ctx.place)
        recipients = _recipients(itx, to, others)
        if recipients:
            # who may be in it (a GM's private thread, or a player's whisper with the GM)
            await self.posting.thread_members(ctx.place, ctx.actor, recipients)
            if await self.posting.private_thread(ctx.place, ctx.actor, recipients) is None:
                # the first time: refuse a channel that cannot hold the thread before typing
                await self._thread_parent(itx, thread_channel.id if thread_channel else 0)
        elif thread_channel is not None or others is not None:
            raise DomainError("post.error.thread_channel_alone")
        if (private or private_notes) and not campaign.gm_channel_id:
            raise DomainError("post.error.no_gm_channel")
        destination_of(itx.channel)  # refuse a channel that cannot hold a post before typing
        referee = is_referee(campaign, ctx.actor)
        narrator_default = bool(recipients) and as_ is None and referee
        speaker = await self.posting.speaker(
            ctx.place, ctx.actor, as_, narrator=narrator_default, here=not recipients
        )
        who = "n" if speaker.character_id is None else str(speaker.character_id)
        mode = GM_ONLY if private else PRIVATE_NOTES if private_notes else PUBLIC
        to_part = ".".join(_b36(r) for r in recipients) or "0"
        chan = _b36(thread_channel.id) if thread_channel else "0"
        custom_id = POST_ID.build(who, mode, to_part, chan, action="2")
        title = ctx.t("post.modal.title", name=speaker.name)
        await PostModal(title, custom_id, ctx.locale).send(itx)

    # -- /reproxy --------------------------------------------------------------------------

    @app_commands.command(
        name="reproxy", description="Change who speaks in your last post here (within minutes)"
    )
    @app_commands.rename(as_="as")
    @app_commands.describe(as_="Who speaks now (GM: any NPC or the Narrador)")
    @app_commands.guild_only()
    @fight()
    async def reproxy(self, itx: discord.Interaction[Arbitro], as_: SpeakerOption) -> None:
        ctx = await ctx_of(itx)
        await itx.response.defer(ephemeral=True, thinking=True)
        view = await self.posting.reproxy(ctx.place, ctx.actor, as_, WebhookReposter(self, itx))
        await itx.followup.send(ctx.t("post.reproxied", name=view.speaker_name), ephemeral=True)
        if view.scene_id is not None:
            await refresh_header(self.bot, ctx.place, ctx.locale)

    # -- the modals' answers -------------------------------------------------------------

    async def on_post_modal(self, itx: discord.Interaction[Arbitro]) -> None:
        """A modal submission (cogs.ui.modal_submissions): a post or an edit, else not ours."""
        custom_id = custom_id_of(itx)
        values = form_values(itx)
        text, notes = values.get("text", ""), values.get("notes") or None
        if (found := POST_ID.parse(custom_id)) is not None:
            work = self._submit_post(itx, found, text, notes, values.get("roll", "").strip())
        elif (found := EDIT_ID.parse(custom_id)) is not None:
            work = self._submit_edit(itx, int(found["post"]), int(found["version"]), text, notes)
        else:
            return
        try:
            await itx.response.defer(ephemeral=True, thinking=True)
            await work
        except Exception as error:  # noqa: BLE001 - every failure hands the text back
            work.close()
            await self._give_back(itx, error, text, notes)

    async def _give_back(
        self, itx: discord.Interaction[Arbitro], error: BaseException, text: str, notes: str | None
    ) -> None:
        locale = await reply_locale(self.bot, itx)
        reason = describe_error(error, locale)
        if reason is None:
            if isinstance(error, discord.HTTPException):
                reason = t("post.error.discord", locale, status=error.status)
            else:
                log.error("unexpected error posting", exc_info=error)
                reason = t("errors.unexpected", locale, reference="post")
        try:
            await itx.followup.send(**returned_text(locale, reason, text, notes), ephemeral=True)
        except discord.HTTPException:
            log.exception("could not hand a post's text back to its author")

    async def _submit_post(
        self,
        itx: discord.Interaction[Arbitro],
        found: Mapping[str, str],
        text: str,
        notes: str | None,
        roll_text: str,
    ) -> None:
        ctx = await ctx_of(itx)
        text, notes = check_text(text, notes)
        who, mode = found["who"], found["mode"]
        if mode == PRIVATE_NOTES and notes is None:
            mode = PUBLIC  # no notes to keep private: an ordinary post
        speaker = await self.posting.speaker(
            ctx.place,
            ctx.actor,
            None,
            character_id=int(who) if who.isdigit() else None,
            narrator=who == "n",
            here=found["to"] == "0",  # a post to a private thread goes elsewhere
        )
        campaign = await ctx.services.campaigns.require(ctx.place)
        locale = campaign.locale or self.bot.config.default_locale
        base = 36 if found["action"] == "2" else 10
        recipients = tuple(int(r, base) for r in found["to"].split(".") if int(r, base))
        chan_id = int(found["chan"], base)
        gm_channel = await self._gm_channel(itx, campaign.gm_channel_id, needed=mode != PUBLIC)
        header = None
        if recipients:
            thread = await self._private_thread(itx, ctx.place, ctx.actor, recipients, chan_id)
            where = destination_of(thread)
        elif mode == GM_ONLY:
            assert gm_channel is not None  # _gm_channel refused it otherwise
            where = destination_of(gm_channel)
            # a mention shows the author's current name and pings nobody (allowed mentions)
            header = t(
                "post.gm_only_header", locale, author=f"<@{ctx.actor.user_id}>", link=_here(itx)
            )
        else:
            where = destination_of(itx.channel)
        # who the post and its rolls are for, decided once: what its readers see of each roll
        audience = await self.posting.audience(
            ctx.place, ctx.actor, where.message_channel_id, gm_only=mode == GM_ONLY
        )
        rolls: list[PostRoll] = []
        if roll_text:  # dice, a macro (maybe several rolls) or a sheet option
            rolls = await self.posting.roll(
                ctx.place, ctx.actor, speaker, roll_text, audience=audience
            )
        seen = rolls_seen(rolls, post_reader(audience, gm_only=mode == GM_ONLY))
        parts = post_parts(
            text,
            locale,
            notes=notes if mode != PRIVATE_NOTES else None,
            rolls=seen.shown,
            header=header,
        )
        sent = await self.hooks.send(
            where, parts, username=speaker.webhook_name, avatar=speaker.avatar
        )
        gm_ids: list[int] = []
        if mode == PRIVATE_NOTES and notes and gm_channel is not None:
            gm_ids += await self._notes_copy(gm_channel, speaker, notes, sent[0].jump_url, locale)
        copy = None
        if seen.for_gm and gm_channel is not None:
            copy = await self._roll_copy(
                gm_channel, ctx.actor, speaker, seen.for_gm, sent[0], locale
            )
            gm_ids.append(copy.id)
        view = await self.posting.record(
            ctx.place,
            ctx.actor,
            speaker,
            PostDraft(
                channel_id=where.message_channel_id,
                message_ids=tuple(m.id for m in sent),
                text=text,
                notes=notes,
                gm_only=mode == GM_ONLY,
                notes_private=mode == PRIVATE_NOTES,
                gm_message_ids=tuple(gm_ids),
                roll_log_ids=tuple(roll.log_id for roll in rolls),
                origin_channel_id=ctx.place.channel_id,
            ),
        )
        copied = {shown.value.log_id for shown in seen.for_gm}
        for roll in rolls:
            linked = copy if copy is not None and roll.log_id in copied else sent[-1]
            await ctx.services.rolls.attach_message(
                roll.log_id, ctx.place.guild_id, linked.id, linked.jump_url
            )
        await itx.followup.send(
            ctx.t("post.done", name=view.speaker_name, link=sent[0].jump_url), ephemeral=True
        )
        if view.scene_id is not None:  # the round moved: the pinned header says who is due
            await refresh_header(self.bot, ctx.place, ctx.locale)

    async def _gm_channel(
        self, itx: discord.Interaction[Arbitro], channel_id: int | None, *, needed: bool
    ) -> discord.TextChannel | None:
        """The campaign's GM channel (text), or None; ``needed``: refuse when there is none."""
        channel: Any = None
        if channel_id and itx.guild is not None:
            channel = itx.guild.get_channel(channel_id)
            if channel is None:
                try:
                    channel = await self.bot.fetch_channel(channel_id)
                except discord.HTTPException:
                    channel = None
        if not isinstance(channel, discord.TextChannel):
            if needed:
                raise DomainError("post.error.no_gm_channel")
            return None
        return channel

    async def _notes_copy(
        self,
        gm_channel: discord.TextChannel,
        speaker: Speaker,
        notes: str,
        link: str,
        locale: str,
    ) -> list[int]:
        header = t("post.private_notes_header", locale, name=speaker.name, link=link)
        parts = post_parts(notes, locale, header=header)
        sent = await self.hooks.send(
            destination_of(gm_channel), parts, username=speaker.webhook_name, avatar=speaker.avatar
        )
        return [m.id for m in sent]

    async def _roll_copy(
        self,
        gm_channel: discord.TextChannel,
        actor: Actor,
        speaker: Speaker,
        rolls: Sequence[Shown[PostRoll]],
        post: discord.WebhookMessage,
        locale: str,
    ) -> discord.Message:
        """The GM-channel copy of the rolls a post's readers may not read (a hidden NPC's
        numbers), as the GM reads them (:func:`rolls_seen`)."""
        content = "\n".join(
            (
                t("post.gm_copy", locale, user=actor.name, name=speaker.name, link=post.jump_url),
                *(roll_line(roll.value, locale) for roll in rolls),
            )
        )
        return await gm_channel.send(content, allowed_mentions=discord.AllowedMentions.none())

    async def _private_thread(
        self,
        itx: discord.Interaction[Arbitro],
        place: Place,
        actor: Actor,
        recipients: tuple[int, ...],
        parent_id: int,
    ) -> discord.Thread:
        """The private thread of these members and the GM: the recorded one, or a new one."""
        guild = itx.guild
        assert guild is not None  # /post is guild-only
        existing = await self.posting.private_thread(place, actor, recipients)
        if existing is not None:
            thread = guild.get_thread(existing)
            if thread is None:
                try:
                    fetched = await self.bot.fetch_channel(existing)
                    thread = fetched if isinstance(fetched, discord.Thread) else None
                except discord.NotFound:
                    thread = None
            if thread is not None:
                return thread
            await self.posting.forget_private_thread(place, existing)  # deleted by hand
        parent = await self._thread_parent(itx, parent_id)
        members = await self.posting.thread_members(place, actor, recipients)
        name = await self._thread_name(itx, guild, actor, members)
        try:
            thread = await parent.create_thread(
                name=name[:100], type=discord.ChannelType.private_thread, invitable=False
            )
            for member_id in members:
                await thread.add_user(discord.Object(member_id))
        except discord.Forbidden:
            raise DomainError("post.error.no_thread_permission", channel=parent.mention) from None
        kept = await self.posting.keep_private_thread(
            place, actor, recipients, parent.id, thread.id
        )
        if kept != thread.id:  # another first use won: use its thread, drop ours
            try:
                await thread.delete()
            except discord.HTTPException:
                log.warning("could not delete the extra private thread %s", thread.id)
            winner = await self.bot.fetch_channel(kept)
            assert isinstance(winner, discord.Thread)
            return winner
        return thread

    async def _thread_name(
        self,
        itx: discord.Interaction[Arbitro],
        guild: discord.Guild,
        actor: Actor,
        members: tuple[int, ...],
    ) -> str:
        """«Privado: Ana ↔ Máster» for a GM and a player; «Privado: Ana, Bruno, Máster» for more."""
        names = []
        for member_id in members:
            member = guild.get_member(member_id)
            if member is None:
                try:
                    member = await guild.fetch_member(member_id)
                except discord.HTTPException:
                    member = None
            names.append(member.display_name if member is not None else str(member_id))
        locale = await reply_locale(self.bot, itx)
        if len(members) == 2:
            others = [n for m, n in zip(members, names, strict=True) if m != actor.user_id]
            return t("post.private_thread_name", locale, player=others[0], gm=actor.name)
        return t("post.private_thread_group", locale, names=", ".join(names))

    async def _thread_parent(
        self, itx: discord.Interaction[Arbitro], parent_id: int
    ) -> discord.TextChannel:
        """The text channel for a new private thread: the one the GM chose, else this one;
        it must belong to this campaign (the player's ``/post`` there must find it)."""
        guild = itx.guild
        assert guild is not None
        channel: Any = guild.get_channel(parent_id) if parent_id else itx.channel
        if isinstance(channel, discord.Thread):
            channel = channel.parent
        if not isinstance(channel, discord.TextChannel):
            raise DomainError("post.error.thread_channel_needed")
        here = await self.bot.services.campaigns.find(
            Place(guild.id, itx.channel_id or 0, _chain(itx))
        )
        there = await self.bot.services.campaigns.find(
            Place(guild.id, channel.id, tuple(i for i in (channel.id, channel.category_id) if i))
        )
        if here is None or there is None or here.id != there.id:
            raise DomainError("post.error.thread_channel_outside", channel=channel.mention)
        return channel

    # -- edit and delete -----------------------------------------------------------------

    @app_commands.guild_only()
    @fight()
    async def edit_post(self, itx: discord.Interaction[Arbitro], message: discord.Message) -> None:
        ctx = await ctx_of(itx)
        view = await self.posting.find(ctx.place, ctx.actor, message.id)
        modal = PostModal(
            ctx.t("post.modal.edit_title", name=view.speaker_name),
            EDIT_ID.build(view.id, view.version),
            ctx.locale,
            text=view.text,
            notes=view.notes,
            with_roll=False,
        )
        await modal.send(itx)

    async def _submit_edit(
        self,
        itx: discord.Interaction[Arbitro],
        post_id: int,
        version: int,
        text: str,
        notes: str | None,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.posting.edit(ctx.place, ctx.actor, post_id, version, text, notes)
        await redraw_post(self.bot, ctx.place.guild_id, view)
        await itx.followup.send(ctx.t("post.edited_done"), ephemeral=True)

    async def _where(self, itx: discord.Interaction[Arbitro], channel_id: int) -> Destination:
        channel: Any = itx.guild.get_channel_or_thread(channel_id) if itx.guild else None
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return destination_of(channel)

    @app_commands.guild_only()
    @fight()
    async def delete_post(
        self, itx: discord.Interaction[Arbitro], message: discord.Message
    ) -> None:
        ctx = await ctx_of(itx)
        found = await self.posting.find(ctx.place, ctx.actor, message.id)
        await itx.response.defer(ephemeral=True, thinking=True)
        view = await self.posting.delete(ctx.place, ctx.actor, found.id, found.version)
        await self._remove_messages(itx, view)
        deleted = ctx.t("post.deleted", name=view.speaker_name)
        body = returned_text(ctx.locale, deleted, view.text, view.notes, kind="deleted_copy")
        await itx.followup.send(**body, ephemeral=True)
        if view.scene_id is not None:  # a deleted post leaves the round: its author is due again
            await refresh_header(self.bot, ctx.place, ctx.locale)

    async def _remove_messages(self, itx: discord.Interaction[Arbitro], view: PostView) -> None:
        """The post's messages, and its GM-channel copies, leave Discord (the record stays)."""
        where = await self._where(itx, view.channel_id)
        await self.hooks.delete(where, list(view.message_ids))
        if view.gm_message_ids:
            campaign = await self.posting.campaign_of(view)
            if campaign.gm_channel_id:
                gm = await self._where(itx, campaign.gm_channel_id)
                await self.hooks.delete(gm, list(view.gm_message_ids))


class WebhookReposter:
    """``/reproxy``'s Discord side: the post again under the new speaker, then deletions."""

    def __init__(self, cog: PostCog, itx: discord.Interaction[Arbitro]) -> None:
        self.cog, self.itx = cog, itx

    async def send(
        self,
        post: PostView,
        speaker: Speaker,
        rolls: Sequence[Shown[PostRoll | None]],
        locale: str | None,
    ) -> tuple[int, ...]:
        parts = post_parts(
            post.text,
            locale or self.cog.bot.config.default_locale,
            notes=post.notes if not post.notes_private else None,
            rolls=rolls,
            edited=post.edited_at is not None,
        )
        where = await self.cog._where(self.itx, post.channel_id)
        sent = await self.cog.hooks.send(
            where, parts, username=speaker.webhook_name, avatar=speaker.avatar
        )
        return tuple(m.id for m in sent)

    async def delete(self, channel_id: int, message_ids: tuple[int, ...]) -> None:
        where = await self.cog._where(self.itx, channel_id)
        await self.cog.hooks.delete(where, list(message_ids))


def _b36(number: int) -> str:
    """A snowflake in base 36: four of them fit a modal's custom id (100 characters)."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def _recipients(
    itx: discord.Interaction[Arbitro], to: discord.Member | None, others: str | None
) -> tuple[int, ...]:
    """The members a private post goes to: ``to`` and those mentioned in ``others`` (never a
    bot; unknown ids are refused by Discord when the thread adds them)."""
    named = [to.id] if to is not None else []
    named += [m for m in parse_players(others) if m not in named]
    for member_id in named:
        member = itx.guild.get_member(member_id) if itx.guild else None
        if (member is not None and member.bot) or (to is not None and to.bot):
            raise DomainError("post.error.bad_player", limit=PostingService.MAX_RECIPIENTS)
    return tuple(named)


def _here(itx: discord.Interaction[Arbitro]) -> str:
    return f"https://discord.com/channels/{itx.guild_id}/{itx.channel_id}"


def _chain(itx: discord.Interaction[Arbitro]) -> tuple[int, ...]:
    from cogs.ui.context import place_of

    return place_of(itx).chain


async def setup(bot: Arbitro) -> None:
    await bot.add_cog(PostCog(bot))
