"""Posting by typing, as on Umbría (issue 24): a member's message in a scene becomes a post.

With the campaign setting ``escribir_como_personaje`` on (and a deployment that reads
messages), a message typed in a scene of the campaign is posted as a character, exactly as
``/post`` would post it, and the original is deleted:

* who speaks: :mod:`bot.services.table.speaking` (a tag, else the character that sticks);
  a message marked out of character (``((…))`` or a leading ``//``) stays the member's own,
  and so does anything in a thread that is no scene (the GM's private threads, the off-topic
  channel) or in a closed scene;
* ``[[…]]`` in the text roll as the speaker (:mod:`bot.services.play.inline`: dice as
  ``/roll``, a sheet option as ``/check``), shown under the text and linked from the roll
  log; lines starting with ``-#`` are the post's notes;
* nothing private: a roll or note marked private (``[[privada: 1d20]]``, ``-# gm: …``) is not
  posted — the original is public until deleted —, and its author is told to use ``/post``.

With the setting ``tiradas_en_mensajes``, a ``[[1d20]]`` in any other message of the
campaign (outside a scene, out of character, typing off) is rolled as ``/roll`` and answered;
in a closed scene (the GM may still write in its locked thread) nothing is rolled, and its
author is told the scene is closed, as ``/roll`` would say (issue 22 §5).

Discord is the cog's side, behind :class:`TypedSender`: this service decides and rolls, the
sender posts through the channel's webhook (in the order the messages were written), the post
is recorded like a ``/post`` (round of posts, pace, chronicle, the edit and delete menus), and
only then is the original deleted.  A failure before the post leaves the original untouched
and tells its author why.
"""

from __future__ import annotations

import logging
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign
from bot.services.campaigns.service import (
    INLINE_ROLLS,
    TYPED_POSTS,
    CampaignService,
)
from bot.services.play.inline import InlineRoll, NothingRolled
from bot.services.shared.audience import PUBLIC, Secrecy
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.typed_text import (
    code_marks,
    inline_rolls,
    marked_private,
    out_of_character,
    split_notes,
    with_rolls_marked,
)
from bot.services.sheets.proxy_tags import ProxyTagService, TagList
from bot.services.table.posting import (
    PostDraft,
    PostingService,
    PostView,
    RollsSeen,
    Speaker,
    post_reader,
    rolls_seen,
)
from bot.services.table.scenes import SceneService, SceneView
from bot.services.table.speaking import NARRATOR_ID, SpeakerChooser, own_characters

__all__ = [
    "SentPost",
    "TagsHere",
    "TypedMessage",
    "TypedOutcome",
    "TypedPost",
    "TypedPostService",
    "TypedSender",
    "typing_enabled",
]

log = logging.getLogger(__name__)


def typing_enabled(campaign: Campaign) -> bool:
    """The campaign's setting ``escribir_como_personaje`` (off unless its GM turned it on)."""
    return (campaign.settings or {}).get(TYPED_POSTS) is True


def answers_rolls(campaign: Campaign) -> bool:
    """The campaign's setting ``tiradas_en_mensajes``: a ``[[…]]`` outside scenes rolls."""
    return (campaign.settings or {}).get(INLINE_ROLLS) is True


@dataclass(frozen=True, slots=True)
class TypedMessage:
    """A member's message as the service needs it (no Discord objects)."""

    place: Place
    actor: Actor
    message_id: int
    text: str
    has_files: bool
    channel_name: str  # a thread opened by hand becomes a scene with this title
    in_thread: bool = True


@dataclass(frozen=True, slots=True)
class TypedPost:
    """What a typed message posts: who speaks, the text without its tag, where."""

    campaign_id: int
    locale: str | None  # the campaign's language (None: the deployment's default)
    scene: SceneView
    speaker: Speaker
    text: str  # the ``[[…]]`` shown as what was written in them
    #: posted with a tag as one of the member's own characters: it sticks in this scene
    sticks: bool
    notes: str | None = None
    written: tuple[str, ...] = ()  # what each ``[[…]]`` holds, in order
    rolls: tuple[InlineRoll, ...] = ()  # the same, rolled (before the post is sent)
    #: who the post and its rolls are for (everyone in a scene, its author named)
    audience: Secrecy = PUBLIC

    def seen(self) -> RollsSeen:
        """Its rolls as the readers of the scene see them, through the audience rule (a
        hidden NPC's without numbers; those go to the GM channel's copy)."""
        return rolls_seen(self.rolls, post_reader(self.audience))


@dataclass(frozen=True, slots=True)
class SentPost:
    """What the sender posted: the messages in order, the last one's link (where the rolls
    are), the GM channel's copies, and whether the original keeps files Discord would delete
    with it (too big to carry over): then the original stays."""

    channel_id: int
    message_ids: tuple[int, ...]
    keeps_original: bool = False
    last_url: str = ""
    gm_copy: tuple[int, str] | None = None  # (id, link) of the hidden rolls' GM copy


@dataclass(frozen=True, slots=True)
class TagsHere:
    """What ``/proxy list`` shows."""

    tags: TagList
    typing_on: bool
    in_scene: bool
    sticky: str | None  # the member's character for untagged messages in this scene


class TypedSender(Protocol):
    """The Discord side of one typed message, implemented by the cog."""

    def missing_permissions(self) -> tuple[str, ...]:
        """Catalogue keys of the permissions the bot lacks here to post and delete."""

    def turn(self) -> AbstractAsyncContextManager[None]:
        """This message's turn in its channel: posts go out in the order they were typed."""

    def latest_text(self) -> str | None:
        """The message's text now (its author may have edited it while it waited for its
        turn); None when its author deleted it."""

    async def send(self, post: TypedPost) -> SentPost:
        """Post it through the channel's webhook (text, notes, rolls, carried files, the
        reply's quote), its rolls as :meth:`TypedPost.seen` has them, and the rolls its
        readers may not read copied to the GM channel."""

    async def unsend(self, sent: SentPost) -> None:
        """Take a post back (its record could not be written)."""

    async def delete_original(self) -> bool:
        """Delete the member's message; False when Discord refused."""

    async def tell_author(self, locale: str | None, key: str, /, **params: Any) -> None:
        """Tell the message's author something (a catalogue key, in the campaign's language
        or the deployment's default), privately if possible."""

    async def after_post(self, post: TypedPost, view: PostView) -> None:
        """What follows a post in a scene (its pinned header)."""

    async def redraw(self, view: PostView) -> None:
        """Draw an edited post again in its messages (a kept original was edited)."""

    async def answer_rolls(
        self, locale: str | None, who: str | None, rolls: list[InlineRoll]
    ) -> tuple[int, str] | None:
        """Answer a message's ``[[…]]`` outside a scene, as ``/roll`` would: (id, link)."""


class TypedOutcome:
    """What became of a typed message (tests and logs read it)."""

    IGNORED = "ignored"  # not a post: out of character, no scene, typing off…
    POSTED = "posted"
    ROLLED = "rolled"  # [[…]] outside a scene, answered as /roll
    FAILED = "failed"  # the original stays; its author was told why
    #: as FAILED, but refused before anything was rolled: editing the message tries again
    REFUSED = "refused"
    WITHDRAWN = "withdrawn"  # deleted, or edited out of being a post, before its turn
    EDITED = "edited"  # a kept original was edited: its post follows


class TypedPostService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        campaigns: CampaignService,
        scenes: SceneService,
        posting: PostingService,
        tags: ProxyTagService,
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns
        self.scenes = scenes
        self.posting = posting
        self.tags = tags
        self.speakers = SpeakerChooser(sessions, tags)

    async def handle(self, message: TypedMessage, sender: TypedSender) -> str:
        """Post ``message`` as its character if it is one, and say what became of it."""
        campaign = await self.campaigns.find(message.place)  # the per-process cache
        if campaign is None:
            return TypedOutcome.IGNORED
        rolled = False  # once rolling began, a refusal may come after rolls were logged
        try:
            post = await self.decide(message, campaign) if typing_enabled(campaign) else None
            if post is None:
                if answers_rolls(campaign) and "[[" in message.text:
                    return await self._answer(message, campaign, sender)
                return TypedOutcome.IGNORED
            missing = sender.missing_permissions()
            if missing:
                raise DomainError(missing[0])
            rolled = bool(post.written)
            post = await self._rolled(message, post)
            async with sender.turn():
                now = await self._as_it_reads_now(message, campaign, post, sender)
                if now is None:
                    return TypedOutcome.WITHDRAWN
                rolled = rolled or bool(now.rolls)  # an edit rolled at its turn
                sent = await sender.send(now)
                post = now
        except DomainError as refusal:
            await sender.tell_author(campaign.locale, refusal.key, **refusal.params)
            if rolled and not isinstance(refusal, NothingRolled):
                return TypedOutcome.FAILED  # its rolls are logged: typing it again rolls anew
            return TypedOutcome.REFUSED
        return await self._keep(message, post, sent, sender)

    async def follow_original(self, message: TypedMessage, sender: TypedSender) -> str:
        """An edit of a kept original (its post went out, its files too big to carry stayed
        with it): the post follows the new text and notes.  Its rolls and who speaks stay as
        posted — an edit that changes them is refused and its author told (no second chance
        at the dice); one that makes it out of character leaves the post as it was."""
        view = await self.posting.original_of(message.place, message.message_id)
        if view is None or view.author_user_id != message.actor.user_id:
            return TypedOutcome.IGNORED
        campaign = await self.campaigns.find(message.place)
        if campaign is None or not typing_enabled(campaign):
            return TypedOutcome.IGNORED
        try:
            again = await self.decide(message, campaign)
            if again is None:
                return TypedOutcome.IGNORED
            same_speaker = (again.speaker.character_id, again.speaker.name) == (
                view.character_id,
                view.speaker_name,
            )
            if not same_speaker or code_marks(again.text) != code_marks(view.text):
                raise DomainError("typing.error.edited_original")
            edited = await self.posting.edit(
                message.place, message.actor, view.id, view.version, again.text, again.notes
            )
            await sender.redraw(edited)
        except DomainError as refusal:
            await sender.tell_author(campaign.locale, refusal.key, **refusal.params)
            return TypedOutcome.FAILED
        return TypedOutcome.EDITED

    async def _rolled(self, message: TypedMessage, post: TypedPost) -> TypedPost:
        """The post with its ``[[…]]`` rolled as its speaker (logged before it is shown)."""
        if not post.written:
            return post
        rolls = await self.posting.roll_written(
            message.place, message.actor, post.speaker, post.written, audience=post.audience
        )
        return replace(post, rolls=tuple(rolls))

    async def _as_it_reads_now(
        self, message: TypedMessage, campaign: Campaign, post: TypedPost, sender: TypedSender
    ) -> TypedPost | None:
        """The post as its message reads at its turn: None when its author deleted it, or
        edited it into no post; an edited one decided again, keeping the rolls made when it
        arrived only if the edit left what they roll and who rolls them alone."""
        text = sender.latest_text()
        if text is None:
            return None
        if text == message.text:
            return post
        edited = replace(message, text=text)
        again = await self.decide(edited, campaign)
        if again is None:
            return None
        if not post.rolls:
            return await self._rolled(edited, again)
        same_speaker = (again.speaker.character_id, again.speaker.name) == (
            post.speaker.character_id,
            post.speaker.name,
        )
        if again.written != post.written or not same_speaker:
            raise DomainError(
                "typing.error.edited_rolls", rolls=", ".join(f"#{r.log_id}" for r in post.rolls)
            )
        return replace(again, rolls=post.rolls)

    async def _keep(
        self, message: TypedMessage, post: TypedPost, sent: SentPost, sender: TypedSender
    ) -> str:
        """Record the post sent, then remove the original (never before the post exists)."""
        try:
            view = await self.posting.record(
                message.place,
                message.actor,
                post.speaker,
                PostDraft(
                    channel_id=sent.channel_id,
                    message_ids=sent.message_ids,
                    text=post.text,
                    notes=post.notes,
                    origin_channel_id=message.place.channel_id,
                    gm_message_ids=(sent.gm_copy[0],) if sent.gm_copy else (),
                    roll_log_ids=tuple(roll.log_id for roll in post.rolls),
                ),
            )
        except Exception:
            log.exception("a typed post was sent but could not be recorded: taking it back")
            await sender.unsend(sent)
            await sender.tell_author(post.locale, "typing.error.not_recorded")
            return TypedOutcome.FAILED
        await self._link_rolls(message.place, post, sent)
        if post.sticks and post.speaker.character_id is not None:
            await self.speakers.stick(post.scene, message.actor, post.speaker.character_id)
        if sent.keeps_original:
            # its later edits follow (follow_original), and its message menu edits the post
            await self.posting.link_original(message.place, view.id, message.message_id)
            await sender.tell_author(post.locale, "typing.files_kept")
        elif not await sender.delete_original():
            await sender.tell_author(post.locale, "typing.error.original_stays")
        await sender.after_post(post, view)
        return TypedOutcome.POSTED

    async def _link_rolls(self, place: Place, post: TypedPost, sent: SentPost) -> None:
        """The roll log links each roll to where its numbers are shown: the post, or for
        those its readers may not read (a hidden NPC's) the GM channel's copy."""
        copied = {roll.value.log_id for roll in post.seen().for_gm} if sent.gm_copy else set()
        for roll in post.rolls:
            message_id, url = (
                sent.gm_copy
                if sent.gm_copy is not None and roll.log_id in copied
                else (sent.message_ids[-1], sent.last_url)
            )
            await self.posting.rolls.attach_message(roll.log_id, place.guild_id, message_id, url)

    async def _answer(self, message: TypedMessage, campaign: Campaign, sender: TypedSender) -> str:
        """``[[…]]`` in an ordinary message: rolled as ``/roll`` (and ``/check`` for a sheet
        option) with the member's active character, answered in the channel."""
        if not message.text.strip():
            return TypedOutcome.IGNORED
        spans = inline_rolls(message.text)
        if not spans:
            return TypedOutcome.IGNORED
        if marked_private(spans, None):
            raise DomainError("typing.error.private_roll")
        await self.campaigns.require_open_scene(message.place)  # no roll in a closed scene
        active = self.posting.rolls.active_name
        character = await active(message.place, message.actor) if active is not None else None
        rolls = await self.posting.inline.roll_all(
            message.place,
            message.actor,
            [span.inner for span in spans],
            character=character,
            private=False,
        )
        answered = await sender.answer_rolls(campaign.locale, character, rolls)
        if answered is not None:
            for roll in rolls:
                await self.posting.rolls.attach_message(
                    roll.log_id, message.place.guild_id, answered[0], answered[1]
                )
        return TypedOutcome.ROLLED

    # -- deciding ------------------------------------------------------------------------

    async def decide(self, message: TypedMessage, campaign: Campaign) -> TypedPost | None:
        """The post a typed message makes in ``campaign`` (the message's), or None when it
        is not one (it stays as written).  Refuses, with a reason for its author, brackets it
        cannot read and anything marked private."""
        if out_of_character(message.text) or not (message.text.strip() or message.has_files):
            return None
        if not message.in_thread or await self.posting.is_private_thread(
            message.place.guild_id, message.place.channel_id
        ):
            return None  # scenes are threads; the GM's private threads are no scenes
        scene = await self.scenes.scene_for(message.place, title=message.channel_name)
        if scene is None or not scene.is_open:
            return None
        speaking = await self.speakers.choose(
            campaign, scene, message.actor, message.text, has_files=message.has_files
        )
        if speaking is None:
            return None
        body, notes = split_notes(speaking.text)
        spans = inline_rolls(body)
        if marked_private(spans, notes):
            raise DomainError("typing.error.private")
        if not body and not message.has_files:
            return None  # only notes: the member's own words
        speaker = await self.posting.speaker(
            message.place,
            message.actor,
            None,
            character_id=speaking.character_id or None,
            narrator=speaking.character_id == NARRATOR_ID,
        )
        audience = await self.posting.audience(
            message.place, message.actor, message.place.channel_id
        )
        return TypedPost(
            campaign_id=scene.campaign_id,
            locale=campaign.locale,
            scene=scene,
            speaker=speaker,
            text=with_rolls_marked(body, spans),
            sticks=speaking.sticks,
            notes=notes,
            written=tuple(span.inner for span in spans),
            audience=audience,
        )

    async def tags_here(self, place: Place, actor: Actor, character: str | None) -> TagsHere:
        """``/proxy list``: a character's tags, whether typing is on in this campaign, and who
        the member's untagged messages post as in this scene (if it is one)."""
        tags = await self.tags.list(place, actor, character)
        campaign = await self.campaigns.require(place)
        sticky = None
        scene = await self.scenes.scene_for(place)
        if scene is not None:
            own = own_characters(await self.tags.speakables(campaign, actor), actor)
            found = await self.speakers.sticky(campaign, scene, actor, set(own))
            sticky = own.get(found) if found is not None else None
        return TagsHere(tags, typing_enabled(campaign), scene is not None, sticky)
