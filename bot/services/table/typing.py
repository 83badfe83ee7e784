"""Posting by typing, as on Umbría (issue 24): a member's message in a scene becomes a post.

With the campaign setting ``escribir_como_personaje`` on (and a deployment that reads
messages), a message typed in a scene of the campaign is posted as a character, exactly as
``/post`` would post it, and the original is deleted:

* the character whose proxy tag the message starts with (``Ardelia: …``, or a tag added with
  ``/proxy``: :mod:`bot.services.sheets.proxy_tags`); a referee also speaks as any NPC by its
  tag and as the narrator (``Narrador:``);
* without a tag, the character that sticks to the member in that scene: the last of their
  own characters they posted as there with a tag, else their active character in the campaign;
* a message marked out of character (``((…))`` or a leading ``//``) stays the member's own,
  and so does anything in a thread that is no scene (private GM threads, the off-topic channel)
  or in a closed scene.

Discord is the cog's side, behind :class:`TypedSender`: this service decides, the sender posts
through the channel's webhook (in the order the messages were written), the post is recorded
like a ``/post`` (round of posts, pace, chronicle, the edit and delete menus), and only then
is the original deleted.  Any failure before the post leaves the original untouched and tells
its author why.
"""

from __future__ import annotations

import logging
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import ActiveCharacter, Campaign, SceneSpeaker, utcnow
from bot.services.campaigns.service import TYPED_POSTS, CampaignService, is_referee
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.typed_text import TagPattern, match_tag, out_of_character
from bot.services.sheets.proxy_tags import ProxyTagService, Speakable, TagList
from bot.services.table.posting import PostDraft, PostingService, PostView, Speaker
from bot.services.table.scenes import SceneService, SceneView

__all__ = [
    "NARRATOR_TAGS",
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

#: The narrator's tags (referees only), in Spanish and English.
NARRATOR_TAGS = (TagPattern("Narrador:"), TagPattern("Narrator:"))
_NARRATOR = 0  # the narrator's key among the candidates (no character has id 0)


def typing_enabled(campaign: Campaign) -> bool:
    """The campaign's setting ``escribir_como_personaje`` (off unless its GM turned it on)."""
    return (campaign.settings or {}).get(TYPED_POSTS) is True


@dataclass(frozen=True, slots=True)
class TypedMessage:
    """A member's message as the service needs it (no Discord objects)."""

    place: Place
    actor: Actor
    message_id: int
    text: str
    has_files: bool
    channel_name: str  # a thread opened by hand becomes a scene with this title


@dataclass(frozen=True, slots=True)
class TypedPost:
    """What a typed message posts: who speaks, the text without its tag, where."""

    campaign_id: int
    locale: str | None  # the campaign's language (None: the deployment's default)
    scene: SceneView
    speaker: Speaker
    text: str
    #: posted with a tag as one of the member's own characters: it sticks in this scene
    sticks: bool


@dataclass(frozen=True, slots=True)
class SentPost:
    """What the sender posted: the messages in order, and whether the original keeps files
    Discord would delete with it (too big to carry over): then the original stays."""

    channel_id: int
    message_ids: tuple[int, ...]
    keeps_original: bool = False


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

    async def send(self, post: TypedPost) -> SentPost:
        """Post it through the channel's webhook (text, carried files, the reply's quote)."""

    async def unsend(self, sent: SentPost) -> None:
        """Take a post back (its record could not be written)."""

    async def delete_original(self) -> bool:
        """Delete the member's message; False when Discord refused."""

    async def tell_author(self, locale: str | None, key: str, /, **params: Any) -> None:
        """Tell the message's author something (a catalogue key, in the campaign's language
        or the deployment's default), privately if possible."""

    async def after_post(self, post: TypedPost, view: PostView) -> None:
        """What follows a post in a scene (its pinned header)."""


class TypedOutcome:
    """What became of a typed message (tests and logs read it)."""

    IGNORED = "ignored"  # not a post: out of character, no scene, typing off…
    POSTED = "posted"
    FAILED = "failed"  # the original stays; its author was told why


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

    async def handle(self, message: TypedMessage, sender: TypedSender) -> str:
        """Post ``message`` as its character if it is one, and say what became of it."""
        campaign = await self.campaigns.find(message.place)  # the per-process cache
        if campaign is None or not typing_enabled(campaign):
            return TypedOutcome.IGNORED
        locale = campaign.locale
        try:
            post = await self.decide(message, campaign)
            if post is None:
                return TypedOutcome.IGNORED
            missing = sender.missing_permissions()
            if missing:
                raise DomainError(missing[0])
            async with sender.turn():
                sent = await sender.send(post)
        except DomainError as refusal:
            await sender.tell_author(locale, refusal.key, **refusal.params)
            return TypedOutcome.FAILED
        return await self._keep(message, post, sent, sender)

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
                    notes=None,
                    origin_channel_id=message.place.channel_id,
                ),
            )
        except Exception:
            log.exception("a typed post was sent but could not be recorded: taking it back")
            await sender.unsend(sent)
            await sender.tell_author(post.locale, "typing.error.not_recorded")
            return TypedOutcome.FAILED
        if post.sticks and post.speaker.character_id is not None:
            await self._stick(post.scene, message.actor, post.speaker.character_id)
        if sent.keeps_original:
            await sender.tell_author(post.locale, "typing.files_kept")
        elif not await sender.delete_original():
            await sender.tell_author(post.locale, "typing.error.original_stays")
        await sender.after_post(post, view)
        return TypedOutcome.POSTED

    # -- deciding ------------------------------------------------------------------------

    async def decide(self, message: TypedMessage, campaign: Campaign) -> TypedPost | None:
        """The post a typed message makes in ``campaign`` (the message's), or None when it
        is not one (it stays as written)."""
        if out_of_character(message.text) or not (message.text.strip() or message.has_files):
            return None
        if await self.posting.is_private_thread(message.place.guild_id, message.place.channel_id):
            return None  # the GM's private threads are no scenes: /post there
        scene = await self.scenes.scene_for(message.place, title=message.channel_name)
        if scene is None or not scene.is_open:
            return None
        speaking = await self._speaker(campaign, scene, message)
        if speaking is None:
            return None
        character_id, text, sticks = speaking
        speaker = await self.posting.speaker(
            message.place,
            message.actor,
            None,
            character_id=character_id or None,
            narrator=character_id == _NARRATOR,
        )
        return TypedPost(
            campaign_id=scene.campaign_id,
            locale=campaign.locale,
            scene=scene,
            speaker=speaker,
            text=text,
            sticks=sticks,
        )

    async def _speaker(
        self, campaign: Campaign, scene: SceneView, message: TypedMessage
    ) -> tuple[int, str, bool] | None:
        """(character id or the narrator's 0, the text without its tag, whether it sticks)."""
        actor = message.actor
        speakables = await self.tags.speakables(campaign, actor)
        candidates: list[tuple[TagPattern, int]] = [
            (tag, s.character_id) for s in speakables for tag in s.tags
        ]
        if is_referee(campaign, actor):
            candidates += [(tag, _NARRATOR) for tag in NARRATOR_TAGS]
        matched = match_tag(message.text, candidates, has_files=message.has_files)
        own = {s.character_id for s in speakables if _own(s, actor)}
        if matched is not None:
            character_id, text = matched
            return character_id, text, character_id in own
        sticky = await self._sticky(campaign, scene, actor, own)
        if sticky is None:
            return None  # nobody to speak as: the member's own message
        return sticky, message.text.strip(), False

    async def _sticky(
        self, campaign: Campaign, scene: SceneView, actor: Actor, own: set[int]
    ) -> int | None:
        """The member's character in this scene: the one that stuck, else the active one."""
        async with self.sessions() as session:
            stuck = await session.get(SceneSpeaker, (scene.id, actor.user_id))
            if stuck is not None and stuck.character_id in own:
                return stuck.character_id
            active = await session.get(ActiveCharacter, (campaign.id, actor.user_id))
        if active is not None and active.character_id in own:
            return active.character_id
        return None

    async def _stick(self, scene: SceneView, actor: Actor, character_id: int) -> None:
        """The character a member just posted as with a tag sticks to them in the scene
        (compare-and-set on the row's version; a first row raced by another is read again)."""
        for _attempt in range(3):
            try:
                if await self._stick_once(scene, actor, character_id):
                    return
            except IntegrityError:
                continue
        log.warning("could not record the sticky character of %s in scene %s", actor, scene.id)

    async def _stick_once(self, scene: SceneView, actor: Actor, character_id: int) -> bool:
        async with self.sessions() as session, session.begin():
            row = await session.get(SceneSpeaker, (scene.id, actor.user_id))
            if row is None:
                session.add(
                    SceneSpeaker(
                        scene_id=scene.id,
                        user_id=actor.user_id,
                        guild_id=scene.guild_id,
                        character_id=character_id,
                    )
                )
                return True
            if row.character_id == character_id:
                return True
            moved = await session.exec(
                update(SceneSpeaker)
                .where(
                    col(SceneSpeaker.scene_id) == scene.id,
                    col(SceneSpeaker.user_id) == actor.user_id,
                    col(SceneSpeaker.version) == row.version,
                )
                .values(character_id=character_id, updated_at=utcnow(), version=row.version + 1)
            )
            return moved.rowcount == 1

    async def tags_here(self, place: Place, actor: Actor, character: str | None) -> TagsHere:
        """``/proxy list``: a character's tags, whether typing is on in this campaign, and who
        the member's untagged messages post as in this scene (if it is one)."""
        tags = await self.tags.list(place, actor, character)
        campaign = await self.campaigns.require(place)
        sticky = None
        scene = await self.scenes.scene_for(place)
        if scene is not None:
            speakables = await self.tags.speakables(campaign, actor)
            own = {s.character_id: s.name for s in speakables if _own(s, actor)}
            found = await self._sticky(campaign, scene, actor, set(own))
            sticky = own.get(found) if found is not None else None
        return TagsHere(tags, typing_enabled(campaign), scene is not None, sticky)


def _own(speakable: Speakable, actor: Actor) -> bool:
    return speakable.owner_user_id == actor.user_id and not speakable.is_npc
