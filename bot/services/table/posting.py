"""``/post``: posting as a character, an NPC or the narrator, and editing or deleting it.

The cog sends the messages (through the channel's webhook); this service decides who may
speak as whom, rolls what the post attaches (through the dice and check services, so the roll
is in the audit log), and records the :class:`~bot.db.models.Post` with who really wrote it.
Every write is one transaction: a post by the GM in a scene also moves the scene's
``round_started_at`` (compare-and-set on the scene's version) in the transaction that records
it; edits and deletions are compare-and-set on the post's version.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import (
    Campaign,
    Character,
    CharacterProfile,
    Post,
    PostMessage,
    PrivateThread,
    RollLog,
    Scene,
    saved_id,
    utcnow,
)
from bot.services.campaigns.service import CampaignService, is_referee
from bot.services.play.checks import CheckService
from bot.services.play.inline import InlineRoll, InlineRollService, RollerOf
from bot.services.play.rolls import RollService
from bot.services.shared.audience import (
    NO_REVEALS,
    PUBLIC,
    Audience,
    Part,
    Reader,
    Reveals,
    Secrecy,
    Shown,
    Sight,
    show,
)
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from bot.services.shared.post_text import Avatar, webhook_name
from bot.services.shared.retry import retrying
from bot.services.shared.reveals import reveals_of
from bot.services.shared.versioned import update_versioned
from bot.services.sheets.access import find_character, name_key, require_actor
from bot.services.table.scenes import SceneService

__all__ = [
    "MAX_NOTES",
    "MAX_TEXT",
    "NARRATOR",
    "PostDraft",
    "PostRoll",
    "PostView",
    "PostingService",
    "REPROXY_WINDOW",
    "Reposter",
    "RollsSeen",
    "Speaker",
    "post_reader",
    "rolls_seen",
]

#: Discord's modal text field holds at most 4000 characters.
MAX_TEXT = 4000
#: A post's speaker may be changed (``/reproxy``) this long after it was posted.
REPROXY_WINDOW = timedelta(minutes=5)
MAX_NOTES = 1000
MAX_ROLL = 200
#: The narrator's name (``/post as:Narrador``), in Spanish and English.
NARRATOR = "Narrador"
_NARRATOR_KEYS = {"narrador", "narrator"}
_DICE = re.compile(r"\d")


@dataclass(frozen=True, slots=True)
class Speaker:
    """Who a post is shown as, and what the post may do as it."""

    campaign_id: int
    gm_channel_id: int | None
    name: str  # the real name, kept in the post's record
    webhook_name: str  # as Discord accepts it for a webhook
    character_id: int | None  # None: the narrator
    gm_post: bool  # the referee is posting (a new round of posts)
    hidden: bool  # a hidden NPC: its numbers are never shown to players
    avatar: Avatar | None
    concept: str | None


#: The roll attached to a post, as shown under its text (the one kind every roll of a post
#: has: the modal's roll field, the ``[[…]]`` of typed text, a macro's rolls).
PostRoll = InlineRoll


class Reposter(Protocol):
    """The Discord side of a reproxy, implemented by the cog: post the post again as another
    speaker (in the campaign's language, None: the deployment's), and delete messages."""

    async def send(
        self,
        post: PostView,
        speaker: Speaker,
        rolls: Sequence[Shown[PostRoll | None]],
        locale: str | None,
    ) -> tuple[int, ...]: ...

    async def delete(self, channel_id: int, message_ids: tuple[int, ...]) -> None: ...


@dataclass(frozen=True, slots=True)
class PostDraft:
    """A post as sent: where its messages are and what they say."""

    channel_id: int
    message_ids: tuple[int, ...]
    text: str
    notes: str | None
    gm_only: bool = False
    notes_private: bool = False
    gm_message_ids: tuple[int, ...] = ()
    roll_log_id: int | None = None
    #: where /post was used (its scene, for a GM-only post sent to the GM channel)
    origin_channel_id: int | None = None
    #: every roll of the post in order (``roll_log_id`` is the first): typed ``[[…]]``
    roll_log_ids: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PostView:
    id: int
    version: int
    campaign_id: int
    channel_id: int
    scene_id: int | None
    message_ids: tuple[int, ...]
    gm_message_ids: tuple[int, ...]
    author_user_id: int
    character_id: int | None
    speaker_name: str
    webhook_name: str
    gm_post: bool
    gm_only: bool
    notes_private: bool
    origin_channel_id: int | None
    text: str
    notes: str | None
    roll_log_id: int | None
    created_at: datetime
    edited_at: datetime | None
    deleted_at: datetime | None
    roll_log_ids: tuple[int, ...] = ()
    guild_id: int = 0
    #: who may see it, as recorded (its messages are read by :meth:`Reader.where_shown`)
    secrecy: Secrecy = PUBLIC


def post_view(post: Post) -> PostView:
    return PostView(
        id=saved_id(post),
        version=post.version,
        campaign_id=post.campaign_id,
        channel_id=post.channel_id,
        scene_id=post.scene_id,
        message_ids=tuple(post.message_ids),
        gm_message_ids=tuple(post.gm_message_ids),
        author_user_id=post.author_user_id,
        character_id=post.character_id,
        speaker_name=post.speaker_name,
        webhook_name=post.webhook_name or webhook_name(post.speaker_name),
        gm_post=post.gm_post,
        gm_only=post.gm_only,
        notes_private=post.notes_private,
        origin_channel_id=post.origin_channel_id,
        text=post.text,
        notes=post.notes,
        roll_log_id=post.roll_log_id,
        roll_log_ids=tuple(post.roll_log_ids or ([post.roll_log_id] if post.roll_log_id else [])),
        created_at=post.created_at,
        edited_at=post.edited_at,
        deleted_at=post.deleted_at,
        guild_id=post.guild_id,
        secrecy=Secrecy.of_row(post),
    )


def check_text(text: str, notes: str | None) -> tuple[str, str | None]:
    """The post's text and notes, stripped; refused when blank or too long (nothing is lost:
    the cog hands the text back)."""
    text = text.strip()
    if not text:
        raise DomainError("post.error.empty")
    if len(text) > MAX_TEXT:
        raise DomainError("post.error.too_long", limit=MAX_TEXT)
    notes = (notes or "").strip() or None
    if notes is not None and len(notes) > MAX_NOTES:
        raise DomainError("post.error.notes_too_long", limit=MAX_NOTES)
    return text, notes


async def _post_secrecy(
    session: AsyncSession, guild_id: int, actor: Actor, draft: PostDraft
) -> Secrecy:
    """Who may see a post (issue 22 §1), decided as it is recorded: :func:`_audience`, and
    private notes sealed (only the GM and their author read them)."""
    secrecy = await _audience(session, guild_id, actor, draft.channel_id, gm_only=draft.gm_only)
    if draft.notes_private and draft.notes:
        secrecy = secrecy.written_by(actor.user_id).sealing(Part.NOTES)  # he reads his own
    return secrecy


async def _audience(
    session: AsyncSession, guild_id: int, actor: Actor, channel_id: int, *, gm_only: bool
) -> Secrecy:
    """Who a post sent to ``channel_id`` is for, and so its rolls: a GM-only post is its
    author's and the GM's; a post in a GM ↔ player private thread, that player's and the
    GM's; in a whisper (``/post to:`` several members, issue 24), every member it was
    addressed to; anywhere else everyone's (its author named: he wrote it)."""
    if gm_only:
        return Secrecy.private(actor.user_id)
    thread = (
        await session.exec(
            select(PrivateThread).where(
                PrivateThread.guild_id == guild_id,
                PrivateThread.thread_id == channel_id,
            )
        )
    ).first()
    if thread is None:
        return PUBLIC.written_by(actor.user_id)
    if len(thread.members) > 2:
        return Secrecy.addressed(actor.user_id, thread.members)
    return Secrecy.private(thread.player_user_id)


def _whole(roll: PostRoll) -> Callable[[Sight], PostRoll]:
    return lambda _seen: roll


def post_reader(audience: Secrecy, *, gm_only: bool = False) -> Reader:
    """Who reads a post's messages: the GM in his channel (a GM-only post), else those of
    its audience (:meth:`Reader.where_shown`: everyone in a scene, the thread's members)."""
    return Reader.gm() if gm_only else Reader.where_shown(audience)


@dataclass(frozen=True, slots=True)
class RollsSeen:
    """A post's rolls as the readers of its messages see them (the one rule,
    :func:`rolls_seen`): the lines under the post — a roll whose numbers they may not read
    shows only that it was rolled — and the rolls the GM channel's copy shows him (those,
    and every roll of a post not everyone reads)."""

    shown: tuple[Shown[PostRoll | None], ...]
    for_gm: tuple[Shown[PostRoll], ...]


def rolls_seen(
    rolls: Sequence[PostRoll],
    reader: Reader,
    *,
    reveals: Reveals = NO_REVEALS,
) -> RollsSeen:
    """What ``reader`` (who reads the post's messages: :meth:`Reader.where_shown` of the
    post's audience, or the GM in his channel) sees of each roll of a post, decided by the
    audience rule from each roll's stored secrecy (a hidden NPC's numbers are sealed; a
    reveal after the roll lifts them)."""
    shown: list[Shown[PostRoll | None]] = []
    for_gm: list[Shown[PostRoll]] = []
    for roll in rolls:

        def numbers(seen: Sight, roll: PostRoll = roll) -> PostRoll | None:
            return roll if seen.shows(Part.TOTAL) and seen.shows(Part.OUTCOME) else None

        one = show(roll.secrecy, reader, numbers, written_at=roll.written_at, reveals=reveals)
        if one is None:  # not even that it exists: the text's mark says a roll was made
            one = show(PUBLIC, reader, lambda _seen: None)
            assert one is not None
        shown.append(one)
        # the GM channel keeps what the readers may not read, and every roll made out of
        # everyone's sight (a private thread's: his one place for secret rolls)
        if not reader.is_gm and (one.value is None or reader != Reader.everyone()):
            gm = show(roll.secrecy, Reader.gm(), _whole(roll))
            assert gm is not None  # the GM reads everything
            for_gm.append(gm)
    return RollsSeen(tuple(shown), tuple(for_gm))


class PostingService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        campaigns: CampaignService,
        rolls: RollService,
        checks: CheckService,
        scenes: SceneService,
        inline: InlineRollService | None = None,
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns
        self.rolls = rolls
        self.checks = checks
        self.scenes = scenes
        self.inline = inline or InlineRollService(rolls, checks)

    # -- who speaks ----------------------------------------------------------------------

    async def speaker(
        self,
        place: Place,
        actor: Actor,
        name: str | None,
        *,
        character_id: int | None = None,
        narrator: bool = False,
        here: bool = True,
    ) -> Speaker:
        """Who ``actor`` posts as: the named character (its owner or a referee), any NPC or
        the narrator (referees only), or without a name the actor's active character.

        ``character_id`` names the character by id (a modal submitted later checks again
        who may speak as it); ``narrator`` asks for the narrator whatever ``name`` says.
        ``here``: the post belongs to ``place`` (not to a GM↔player thread elsewhere), which
        must then be neither the campaign's off-topic channel nor a closed scene; asked both
        when ``/post`` is used and when its form is submitted (the scene may close between)."""
        campaign = await self.campaigns.require(place)
        if here:
            await self.scenes.require_on_topic(place)
            await self.campaigns.require_open_scene(place)
        referee = is_referee(campaign, actor)
        if narrator or (name is not None and name.strip().casefold() in _NARRATOR_KEYS):
            if not referee:
                raise NotReferee("post.error.narrator_gm_only")
            return Speaker(
                saved_id(campaign),
                campaign.gm_channel_id,
                NARRATOR,
                NARRATOR,
                None,
                True,
                False,
                None,
                None,
            )
        async with self.sessions() as session:
            character = await self._character(session, campaign, actor, name, character_id)
            require_actor(campaign, character, actor)
            profile = await session.get(CharacterProfile, saved_id(character))
        avatar = None
        if profile is not None and profile.avatar and profile.avatar_type and profile.avatar_hash:
            avatar = Avatar(profile.avatar, profile.avatar_type, profile.avatar_hash)
        return Speaker(
            saved_id(campaign),
            campaign.gm_channel_id,
            character.name,
            webhook_name(character.name),
            saved_id(character),
            referee and (character.is_npc or character.owner_user_id != actor.user_id),
            character.is_npc and character.hidden,
            avatar,
            profile.concept if profile else None,
        )

    @staticmethod
    async def _character(
        session: AsyncSession,
        campaign: Campaign,
        actor: Actor,
        name: str | None,
        character_id: int | None,
    ) -> Character:
        if character_id is not None:
            found = await session.get(Character, character_id)
            if found is None or found.campaign_id != campaign.id or found.deleted_at is not None:
                raise DomainError("post.error.speaker_gone")
            return found
        try:
            return await find_character(session, campaign, actor, name.strip() if name else None)
        except DomainError as error:
            if name is None and is_referee(campaign, actor):
                raise DomainError("post.error.gm_needs_as") from error
            raise

    async def speakers(self, place: Place, actor: Actor, prefix: str) -> list[str]:
        """Autocomplete of ``as``: the actor's own characters; for a referee every character
        and NPC of the campaign and the narrator."""
        campaign = await self.campaigns.find(place)
        if campaign is None:
            return []
        referee = is_referee(campaign, actor)
        query = select(Character.name, Character.name_key).where(
            Character.guild_id == campaign.guild_id,
            Character.campaign_id == campaign.id,
            col(Character.deleted_at).is_(None),
        )
        if not referee:
            query = query.where(
                Character.owner_user_id == actor.user_id, col(Character.is_npc).is_(False)
            )
        key = name_key(prefix) if prefix.strip() else ""
        async with self.sessions() as session:
            rows = (await session.exec(query.order_by(col(Character.name_key)).limit(200))).all()
        names = [name for name, k in rows if key in k]
        if referee and (not key or key in NARRATOR.casefold()):
            names.insert(0, NARRATOR)
        return names[:25]

    # -- the attached roll ---------------------------------------------------------------

    async def audience(
        self, place: Place, actor: Actor, channel_id: int, *, gm_only: bool = False
    ) -> Secrecy:
        """Who a post of ``actor`` sent to ``channel_id`` is for (:func:`_audience`): what
        its rolls carry, and who reads its messages (:meth:`Reader.where_shown`)."""
        async with self.sessions() as session:
            return await _audience(session, place.guild_id, actor, channel_id, gm_only=gm_only)

    async def roll(
        self,
        place: Place,
        actor: Actor,
        speaker: Speaker,
        expression: str,
        *,
        audience: Secrecy = PUBLIC,
    ) -> list[PostRoll]:
        """Roll what the post attaches: dice notation (``2d6+1``), a macro (``ataque``: what
        it holds, maybe several rolls) or a check from the speaker's sheet (``Pilotar``,
        ``Fuerza +2``), resolved as ``[[…]]`` in typed text (:mod:`bot.services.play.inline`).
        Logged like ``/roll`` and ``/check``, for the post's ``audience``
        (:meth:`roll_written`)."""
        expression = expression.strip()
        if len(expression) > MAX_ROLL:
            raise DomainError("post.error.roll_too_long", limit=MAX_ROLL)
        return await self.roll_written(place, actor, speaker, [expression], audience=audience)

    async def roll_written(
        self,
        place: Place,
        actor: Actor,
        speaker: Speaker,
        written: Sequence[str],
        *,
        audience: Secrecy = PUBLIC,
    ) -> list[PostRoll]:
        """The ``[[…]]`` of a typed post (or the modal's roll), rolled in order as its
        speaker: the speaker's macros, then the campaign's, then its sheet.

        Each roll carries who may see it, decided here once (issue 22 §1): the post's
        ``audience`` (everyone, a private thread's, a whisper's, a GM-only post's), with a
        hidden NPC's numbers sealed until the GM reveals it; every output renders the roll
        through that (:func:`rolls_seen`)."""
        character = speaker.name if speaker.character_id is not None else None
        secrecy = audience.written_by(actor.user_id)
        if speaker.hidden and speaker.character_id is not None:
            secrecy = secrecy.hiding_npc(speaker.character_id)
        return await self.inline.roll_all(
            place,
            actor,
            written,
            character=character,
            private=secrecy.audience is not Audience.EVERYONE,
            roller=RollerOf(character, speaker.character_id, speaker.campaign_id),
            audience=secrecy,
        )

    async def rolls_seen(self, post: PostView, reader: Reader) -> RollsSeen:
        """A recorded post's rolls as ``reader`` sees them now (an edit, a reproxy): through
        the audience rule, with the campaign's reveals since they were rolled."""
        rolls = await self.rolls_of(post.guild_id, post.roll_log_ids)
        async with self.sessions() as session:
            reveals = await reveals_of(session, post.campaign_id)
        return rolls_seen(rolls, reader, reveals=reveals)

    async def rolls_of(self, guild_id: int, log_ids: Sequence[int]) -> list[PostRoll]:
        """Every roll a post carries, as logged, in order (an edit shows them unchanged)."""
        found = [await self.roll_of(guild_id, log_id) for log_id in log_ids]
        return [roll for roll in found if roll is not None]

    async def roll_of(self, guild_id: int, log_id: int | None) -> PostRoll | None:
        """The roll a post attached, as logged (an edit shows it unchanged)."""
        if log_id is None:
            return None
        async with self.sessions() as session:
            row = await session.get(RollLog, log_id)
        if row is None or row.guild_id != guild_id:
            return None
        return PostRoll(
            saved_id(row),
            row.reason if row.kind == "check" else None,
            row.expression,
            row.breakdown,
            row.total,
            row.outcome,
            row.private,
            sheet=row.kind != "roll",
            secrecy=Secrecy.of_row(row),
            written_at=row.created_at,
        )

    # -- recording -----------------------------------------------------------------------

    async def record(
        self, place: Place, actor: Actor, speaker: Speaker, draft: PostDraft
    ) -> PostView:
        """Record a sent post; a GM post in a scene starts its new round of posts (the scene's
        ``round_started_at``, compare-and-set on its version, in the same transaction)."""
        now = utcnow()

        async def attempt() -> PostView:
            async with self.sessions() as session, session.begin():
                scene = await _post_scene(session, place.guild_id, draft)
                if speaker.gm_post and scene is not None and not draft.gm_only:
                    # retried: the scene changed under us, read it again
                    await update_versioned(
                        session,
                        Scene,
                        col(Scene.id) == scene.id,
                        scene.version,
                        round_started_at=now,
                    )
                secrecy = await _post_secrecy(session, place.guild_id, actor, draft)
                post = Post(
                    **secrecy.columns(),
                    guild_id=place.guild_id,
                    campaign_id=speaker.campaign_id,
                    channel_id=draft.channel_id,
                    scene_id=scene.id if scene is not None else None,
                    message_ids=list(draft.message_ids),
                    gm_message_ids=list(draft.gm_message_ids),
                    author_user_id=actor.user_id,
                    character_id=speaker.character_id,
                    speaker_name=speaker.name,
                    webhook_name=speaker.webhook_name,
                    gm_post=speaker.gm_post,
                    gm_only=draft.gm_only,
                    notes_private=draft.notes_private,
                    origin_channel_id=draft.origin_channel_id,
                    text=draft.text,
                    notes=draft.notes,
                    **_roll_columns(draft),
                    created_at=now,
                )
                session.add(post)
                await session.flush()
                for message_id in (*draft.message_ids, *draft.gm_message_ids):
                    session.add(
                        PostMessage(
                            message_id=message_id, guild_id=place.guild_id, post_id=saved_id(post)
                        )
                    )
                return post_view(post)

        return await retrying(attempt)

    # -- edit and delete -----------------------------------------------------------------

    async def find(self, place: Place, actor: Actor, message_id: int) -> PostView:
        """The post a message belongs to, if ``actor`` may change it: its author or a referee.

        Found by the message, not by the channel's campaign: a GM-only post lives in the GM
        channel, which need not be bound to the campaign."""
        async with self.sessions() as session:
            link = await session.get(PostMessage, message_id)
            post = await session.get(Post, link.post_id) if link is not None else None
            if post is None or post.deleted_at is not None or post.guild_id != place.guild_id:
                raise DomainError("post.error.not_a_post")
            campaign = await session.get(Campaign, post.campaign_id)
        if campaign is None or campaign.status != "active":
            raise DomainError("post.error.not_a_post")
        if post.author_user_id != actor.user_id and not is_referee(campaign, actor):
            raise NotAllowed("post.error.not_yours")
        # its messages are in a locked thread: Discord would refuse the edit
        await self.campaigns.require_open_scene(Place.simple(post.guild_id, post.channel_id))
        return post_view(post)

    async def link_original(self, place: Place, post_id: int, message_id: int) -> None:
        """A typed post whose original stays (files too big to carry over): the original is
        linked to it, so its author's later edits follow (:meth:`original_of`) and its
        message menu edits the post."""
        async with self.sessions() as session, session.begin():
            session.add(
                PostMessage(message_id=message_id, guild_id=place.guild_id, post_id=post_id)
            )

    async def original_of(self, place: Place, message_id: int) -> PostView | None:
        """The post a kept original (:meth:`link_original`) was posted as, if it still
        stands: None for any other message (one primary-key read)."""
        async with self.sessions() as session:
            link = await session.get(PostMessage, message_id)
            if link is None or link.guild_id != place.guild_id:
                return None
            post = await session.get(Post, link.post_id)
        if post is None or post.deleted_at is not None:
            return None
        if message_id in (*post.message_ids, *post.gm_message_ids):
            return None  # one of the post's own messages, not an original
        return post_view(post)

    async def campaign_of(self, post: PostView) -> Campaign:
        """The campaign a post belongs to (its language, its GM channel)."""
        async with self.sessions() as session:
            campaign = await session.get(Campaign, post.campaign_id)
        if campaign is None:
            raise DomainError("post.error.not_a_post")
        return campaign

    async def edit(
        self,
        place: Place,
        actor: Actor,
        post_id: int,
        seen_version: int,
        text: str,
        notes: str | None,
    ) -> PostView:
        """Change a post's text and notes (the attached roll stays as rolled), compare-and-set
        on the version the editor saw: a concurrent edit wins once, the other is refused."""
        text, notes = check_text(text, notes)
        async with self.sessions() as session, session.begin():
            post = await self._owned(session, place, actor, post_id)
            await update_versioned(  # reported: the edit is of the post its author saw
                session,
                Post,
                col(Post.id) == post_id,
                seen_version,
                col(Post.deleted_at).is_(None),
                text=text,
                notes=notes,
                edited_at=utcnow(),
                stale="post.error.changed_meanwhile",
            )
            await session.refresh(post)
            return post_view(post)

    async def set_messages(
        self,
        place: Place,
        post_id: int,
        seen_version: int,
        message_ids: tuple[int, ...],
    ) -> PostView:
        """After an edit changed how many parts the post needs: its messages now (CAS)."""
        async with self.sessions() as session, session.begin():
            post = await session.get(Post, post_id)
            if post is None or post.guild_id != place.guild_id:
                raise DomainError("post.error.not_a_post")
            await update_versioned(
                session,
                Post,
                col(Post.id) == post_id,
                seen_version,
                message_ids=list(message_ids),
                stale="post.error.changed_meanwhile",
            )
            await session.exec(
                delete(PostMessage).where(
                    col(PostMessage.post_id) == post_id,
                    # the old parts only: its GM copies and a kept original stay linked
                    col(PostMessage.message_id).in_(list(post.message_ids)),
                )
            )
            for message_id in message_ids:
                session.add(
                    PostMessage(message_id=message_id, guild_id=place.guild_id, post_id=post_id)
                )
            await session.refresh(post)
            return post_view(post)

    async def delete(self, place: Place, actor: Actor, post_id: int, seen_version: int) -> PostView:
        """Soft-delete a post (the record stays for the chronicle's GM section); CAS."""
        async with self.sessions() as session, session.begin():
            post = await self._owned(session, place, actor, post_id)
            await update_versioned(
                session,
                Post,
                col(Post.id) == post_id,
                seen_version,
                col(Post.deleted_at).is_(None),
                deleted_at=utcnow(),
                stale="post.error.changed_meanwhile",
            )
            await session.refresh(post)
            return post_view(post)

    async def _owned(self, session: AsyncSession, place: Place, actor: Actor, post_id: int) -> Post:
        post = await session.get(Post, post_id)
        if post is None or post.guild_id != place.guild_id or post.deleted_at is not None:
            raise DomainError("post.error.not_a_post")
        campaign = await session.get(Campaign, post.campaign_id)
        if campaign is None:
            raise DomainError("post.error.not_a_post")
        if post.author_user_id != actor.user_id and not is_referee(campaign, actor):
            raise NotAllowed("post.error.not_yours")
        return post

    # -- reproxy: another speaker for one's last post ----------------------------------

    async def reproxy(
        self, place: Place, actor: Actor, name: str | None, sender: Reposter
    ) -> PostView:
        """``/reproxy``: the actor's last post in this channel, posted within
        :data:`REPROXY_WINDOW`, as another speaker.  A webhook message cannot change its name
        or avatar, so the post goes out again and the old messages are deleted once the record
        (compare-and-set on its version) names the new speaker and messages; a roll from the
        old speaker's sheet keeps the post where it is (it was that character's)."""
        campaign = await self.campaigns.require(place)
        post = await self._last_post(place, actor)
        speaker = await self.speaker(place, actor, name)
        if speaker.character_id == post.character_id and speaker.name == post.speaker_name:
            raise DomainError("post.error.reproxy_same", name=speaker.name)
        rolls = await self.rolls_of(place.guild_id, post.roll_log_ids)
        if any(roll.sheet for roll in rolls):
            raise DomainError("post.error.reproxy_check", name=post.speaker_name)
        seen = await self.rolls_seen(post, post_reader(post.secrecy, gm_only=post.gm_only))
        sent = await sender.send(post, speaker, seen.shown, campaign.locale)
        try:
            view = await self._respeak(place, post, speaker, sent)
        except Exception:
            await sender.delete(post.channel_id, sent)  # the old post stands
            raise
        await sender.delete(post.channel_id, post.message_ids)
        return view

    async def _last_post(self, place: Place, actor: Actor) -> PostView:
        since = utcnow() - REPROXY_WINDOW
        async with self.sessions() as session:
            post = (
                await session.exec(
                    select(Post)
                    .where(
                        Post.guild_id == place.guild_id,
                        Post.channel_id == place.channel_id,
                        Post.author_user_id == actor.user_id,
                        col(Post.deleted_at).is_(None),
                        col(Post.gm_only).is_(False),
                    )
                    .order_by(col(Post.id).desc())
                    .limit(1)
                )
            ).first()
        created = post.created_at if post is not None else None  # stored moments are aware
        if post is None or created is None or created < since:
            minutes = int(REPROXY_WINDOW.total_seconds() // 60)
            raise DomainError("post.error.reproxy_none", minutes=minutes)
        return post_view(post)

    async def _respeak(
        self, place: Place, post: PostView, speaker: Speaker, message_ids: tuple[int, ...]
    ) -> PostView:
        async with self.sessions() as session, session.begin():
            await update_versioned(  # reported: the post as its author saw it
                session,
                Post,
                col(Post.id) == post.id,
                post.version,
                col(Post.deleted_at).is_(None),
                stale="post.error.changed_meanwhile",
                speaker_name=speaker.name,
                webhook_name=speaker.webhook_name,
                character_id=speaker.character_id,
                message_ids=list(message_ids),
            )
            await session.exec(
                delete(PostMessage).where(col(PostMessage.message_id).in_(list(post.message_ids)))
            )
            for message_id in message_ids:
                session.add(
                    PostMessage(message_id=message_id, guild_id=place.guild_id, post_id=post.id)
                )
            return post_view(await session.get_one(Post, post.id))

    # -- private threads: GM ↔ player, and a player's whisper to other players ----------

    #: Members a player may address in one private post (besides themselves and the GM).
    MAX_RECIPIENTS = 4

    async def thread_members(
        self, place: Place, actor: Actor, recipients: tuple[int, ...]
    ) -> tuple[int, ...]:
        """Everyone in the private thread a ``/post to:`` of ``actor`` goes to, the GM
        included: a referee and the players named (the referee is the thread's GM), or a
        player, the players named and the campaign's GM (a whisper, a split party)."""
        campaign = await self.campaigns.require(place)
        named = set(recipients)
        if not named or actor.user_id in named or len(named) > self.MAX_RECIPIENTS:
            raise DomainError("post.error.bad_player", limit=self.MAX_RECIPIENTS)
        gm = actor.user_id if is_referee(campaign, actor) else campaign.gm_user_id
        return tuple(sorted(named | {actor.user_id, gm}))

    async def private_thread(
        self, place: Place, actor: Actor, recipients: tuple[int, ...]
    ) -> int | None:
        """The thread of exactly these members (:meth:`thread_members`), if any."""
        campaign = await self.campaigns.require(place)
        members = await self.thread_members(place, actor, recipients)
        async with self.sessions() as session:
            row = (
                await session.exec(
                    select(PrivateThread).where(
                        PrivateThread.campaign_id == campaign.id,
                        PrivateThread.member_key == _member_key(members),
                    )
                )
            ).first()
        return row.thread_id if row is not None else None

    async def keep_private_thread(
        self,
        place: Place,
        actor: Actor,
        recipients: tuple[int, ...],
        parent_id: int,
        thread_id: int,
    ) -> int:
        """Record the thread just created for these members; when another first use won the
        race, the thread already recorded (the caller deletes its own)."""
        campaign = await self.campaigns.require(place)
        members = await self.thread_members(place, actor, recipients)
        referee = is_referee(campaign, actor)
        try:
            async with self.sessions() as session, session.begin():
                session.add(
                    PrivateThread(
                        guild_id=place.guild_id,
                        campaign_id=saved_id(campaign),
                        player_user_id=recipients[0] if referee else actor.user_id,
                        gm_user_id=actor.user_id if referee else campaign.gm_user_id,
                        parent_id=parent_id,
                        thread_id=thread_id,
                        members=list(members),
                        member_key=_member_key(members),
                    )
                )
            return thread_id
        except IntegrityError:
            existing = await self.private_thread(place, actor, recipients)
            if existing is None:
                raise
            return existing

    async def forget_private_thread(self, place: Place, thread_id: int) -> None:
        """The recorded thread is gone from Discord (deleted by hand): the next use makes one."""
        async with self.sessions() as session, session.begin():
            await session.exec(
                delete(PrivateThread).where(
                    col(PrivateThread.guild_id) == place.guild_id,
                    col(PrivateThread.thread_id) == thread_id,
                )
            )

    async def is_private_thread(self, guild_id: int, channel_id: int) -> bool:
        async with self.sessions() as session:
            row = (
                await session.exec(
                    select(PrivateThread.id).where(
                        PrivateThread.guild_id == guild_id, PrivateThread.thread_id == channel_id
                    )
                )
            ).first()
        return row is not None


async def _post_scene(session: AsyncSession, guild_id: int, draft: PostDraft) -> Scene | None:
    """The scene a post belongs to: where it was sent, or for a GM-only post the scene it
    was written from."""
    channel_id = draft.origin_channel_id if draft.gm_only else draft.channel_id
    return (
        await session.exec(
            select(Scene).where(Scene.guild_id == guild_id, Scene.channel_id == channel_id)
        )
    ).first()


def _roll_columns(draft: PostDraft) -> dict[str, Any]:
    """The post's rolls: every one it carries (a typed post's several ``[[…]]``), and the
    first as ``roll_log_id`` (what readers of one roll take)."""
    ids = list(draft.roll_log_ids or ([draft.roll_log_id] if draft.roll_log_id else []))
    return {"roll_log_id": draft.roll_log_id or next(iter(ids), None), "roll_log_ids": ids}


def _member_key(members: tuple[int, ...]) -> str:
    return ",".join(str(member) for member in sorted(members))
