"""Posting an imported Umbría game into Discord, paced and resumable (issue 27).

By default (``links``) each imported scene gets a thread in the forum (or the text channel)
where the game was imported: its opening text and where its history is in the chronicle,
then closed (locked and archived).  With ``posts`` the thread also gets every post of the
scene that everyone could read on Umbría, as its character (name and avatar), with its notes,
rolls and images; the director-only posts stay in the chronicle's GM half.  ``none`` leaves
the history in the chronicle alone.

Discord limits how fast a bot may post, so the job is paced: one step (a thread made, a post
sent, a thread closed) every :data:`PACE` seconds, and the import's reply says how long it
will take before the first step, :data:`START_DELAY` later.  The job is a row
(:class:`~bot.db.models.ImportPublication`) and a durable timer (kind :data:`PUBLISH_TIMER`):
each step moves the row's cursor by compare-and-set, so a restart resumes where it stopped.
A crash between a message going out and its step being recorded sends that one message
again on resume (Discord's webhooks take no nonce); nothing is ever skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import (
    Campaign,
    CharacterProfile,
    ImportedPlayer,
    ImportPublication,
    Post,
    PostImage,
    RollLog,
    Scene,
    saved_id,
    utcnow,
)
from bot.services.campaigns.service import is_referee
from bot.services.chronicle.archive import slug
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotReferee
from bot.services.shared.post_text import Avatar
from bot.services.shared.timers import TimerService, cancel, schedule
from bot.services.shared.versioned import update_versioned

__all__ = [
    "MODES",
    "PACE",
    "PUBLISH_TIMER",
    "START_DELAY",
    "PostStep",
    "PublicationService",
    "PublicationView",
    "SceneStep",
    "Step",
    "estimate",
]

PUBLISH_TIMER = "umbria.publish"
MODES = ("links", "posts", "none")
#: Seconds between two steps: well inside Discord's rate limits for one bot in one channel
#: (webhook messages, thread creation and edits), so the job never waits on a 429.
PACE = timedelta(seconds=2.5)
START_DELAY = timedelta(seconds=60)
#: Images attached to one post (Discord: 10 files a message).
MAX_FILES = 10


@dataclass(frozen=True, slots=True)
class PublicationView:
    id: int
    campaign_id: int
    mode: str
    status: str
    scenes: int
    posts: int
    seconds: int  # how long it will take, at the pace
    starts_at: datetime
    version: int


@dataclass(frozen=True, slots=True)
class SceneStep:
    id: int
    number: int  # its place in the chronicle (scenes/NNN-title.html)
    title: str
    opening: str | None
    posts: int  # posts of the scene everyone could read
    first: datetime | None
    last: datetime | None
    chronicle_file: str


@dataclass(frozen=True, slots=True)
class PostStep:
    id: int
    speaker: str
    avatar: Avatar | None
    text: str
    notes: str | None
    rolls: tuple[tuple[str, str | None, str], ...]  # (expression, reason, breakdown)
    images: tuple[tuple[str, bytes], ...]  # (file name, bytes)
    player: str | None  # the Umbría name while unclaimed
    posted_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """What the job does next: ``thread`` (make the scene's thread), ``post`` (send one post
    in it), ``close`` (lock and archive it), ``done``."""

    kind: str
    publication_id: int
    version: int
    guild_id: int
    parent_id: int
    locale: str | None
    thread_id: int | None = None
    scene: SceneStep | None = None
    post: PostStep | None = None
    extra: dict[str, object] = field(default_factory=dict)


def estimate(scenes: int, posts: int, mode: str, pace: timedelta = PACE) -> int:
    """Seconds the job takes: a thread is two steps (made, closed), a post one."""
    if mode == "none":
        return 0
    steps = scenes * 2 + (posts if mode == "posts" else 0)
    return int(steps * pace.total_seconds()) + 1


def _visible() -> tuple[ColumnElement[bool], ...]:
    """Posts that go into a public thread: not the director's only, not deleted."""
    return (col(Post.gm_only).is_(False), col(Post.deleted_at).is_(None))


class PublicationService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        timers: TimerService,
        *,
        pace: timedelta = PACE,
        delay: timedelta = START_DELAY,
    ) -> None:
        self.sessions = sessions
        self.timers = timers
        self.pace = pace  # ARBITRO_PUBLISH_PACE_MS
        self.delay = delay  # ARBITRO_PUBLISH_DELAY_SECONDS

    # -- starting (inside the import's transaction) ----------------------------------------

    async def start(
        self,
        session: AsyncSession,
        campaign: Campaign,
        *,
        parent_id: int,
        mode: str,
        created_by: int,
    ) -> PublicationView:
        scene_ids = list(
            (
                await session.exec(
                    select(Scene.id).where(Scene.campaign_id == campaign.id).order_by(col(Scene.id))
                )
            ).all()
        )
        posts = 0
        if mode == "posts":
            posts = (
                await session.exec(
                    select(func.count()).where(Post.campaign_id == campaign.id, *_visible())
                )
            ).one()
        row = ImportPublication(
            guild_id=campaign.guild_id,
            campaign_id=saved_id(campaign),
            parent_id=parent_id,
            mode=mode,
            scene_ids=[int(i) for i in scene_ids if i is not None],
            posts_total=int(posts),
            created_by=created_by,
        )
        session.add(row)
        await session.flush()
        starts = utcnow() + self.delay
        await schedule(session, PUBLISH_TIMER, str(saved_id(row)), campaign.guild_id, starts)
        return _view(row, starts, self.pace)

    # -- the steps ------------------------------------------------------------------------------

    async def next_step(self, publication_id: int) -> Step | None:
        """What to do next, or None when the job is stopped or gone."""
        async with self.sessions() as session:
            job = await session.get(ImportPublication, publication_id)
            if job is None or job.status != "running":
                return None
            campaign = await session.get(Campaign, job.campaign_id)
            assert campaign is not None  # never deleted
            base = {
                "publication_id": publication_id,
                "version": job.version,
                "guild_id": job.guild_id,
                "parent_id": job.parent_id,
                "locale": campaign.locale,
                "thread_id": job.thread_id,
            }
            if job.scene_index >= len(job.scene_ids):
                return Step("done", **base)  # type: ignore[arg-type]
            scene_id = job.scene_ids[job.scene_index]
            if job.thread_id is None:
                scene = await self._scene(session, scene_id, job.scene_index + 1)
                return Step("thread", scene=scene, **base)  # type: ignore[arg-type]
            if job.mode == "posts":
                post = await self._next_post(session, scene_id, job.post_cursor)
                if post is not None:
                    return Step("post", post=post, **base)  # type: ignore[arg-type]
            return Step("close", **base)  # type: ignore[arg-type]

    async def _scene(self, session: AsyncSession, scene_id: int, number: int) -> SceneStep:
        scene = await session.get(Scene, scene_id)
        assert scene is not None
        count, first, last = (
            await session.exec(
                select(func.count(), func.min(Post.created_at), func.max(Post.created_at)).where(
                    Post.scene_id == scene_id, *_visible()
                )
            )
        ).one()
        return SceneStep(
            id=scene_id,
            number=number,
            title=scene.title,
            opening=scene.opening_text,
            posts=int(count),
            first=first,
            last=last,
            chronicle_file=f"scenes/{number:03d}-{slug(scene.title) or 'escena'}.html",
        )

    async def _next_post(
        self, session: AsyncSession, scene_id: int, cursor: int
    ) -> PostStep | None:
        post = (
            await session.exec(
                select(Post)
                .where(Post.scene_id == scene_id, col(Post.id) > cursor, *_visible())
                .order_by(col(Post.id))
                .limit(1)
            )
        ).first()
        if post is None:
            return None
        profile = (
            await session.get(CharacterProfile, post.character_id) if post.character_id else None
        )
        avatar = None
        if profile is not None and profile.avatar and profile.avatar_type and profile.avatar_hash:
            avatar = Avatar(profile.avatar, profile.avatar_type, profile.avatar_hash)
        number = (post.source_ref or "").partition(":")[2]
        rolls = (
            await session.exec(
                select(RollLog)
                .where(
                    RollLog.campaign_id == post.campaign_id,
                    RollLog.kind == "imported",
                    col(RollLog.detail)["post"].as_string() == number,
                )
                .order_by(col(RollLog.id))
            )
        ).all()
        images = (
            await session.exec(
                select(PostImage)
                .where(PostImage.post_id == post.id)
                .order_by(col(PostImage.position))
            )
        ).all()
        player = None
        if post.imported_player_id is not None and post.author_user_id == 0:
            found = await session.get(ImportedPlayer, post.imported_player_id)
            player = found.name if found is not None else None
        return PostStep(
            id=saved_id(post),
            speaker=post.speaker_name,
            avatar=avatar,
            text=post.text,
            notes=post.notes,
            rolls=tuple((r.expression, r.reason, r.breakdown) for r in rolls),
            images=tuple((i.name, i.data) for i in images[:MAX_FILES]),
            player=player,
            posted_at=post.created_at,
        )

    async def _advance(self, step: Step, **values: Any) -> None:
        """Move the job's cursor, compare-and-set on the version the step was read at."""
        async with self.sessions() as session, session.begin():
            await update_versioned(  # reported: the job moved (stopped, another step) meanwhile
                session,
                ImportPublication,
                col(ImportPublication.id) == step.publication_id,
                step.version,
                **values,
                updated_at=utcnow(),
            )
            if "thread_id" in values and values["thread_id"] is not None and step.scene:
                await self._move_scene(session, step, int(values["thread_id"]))

    @staticmethod
    async def _move_scene(session: AsyncSession, step: Step, thread_id: int) -> None:
        """The scene (and its posts and rolls) now live in the thread made for it."""
        assert step.scene is not None
        scene = await session.get(Scene, step.scene.id)
        assert scene is not None
        old = scene.channel_id
        await session.exec(
            update(Scene)
            .where(col(Scene.id) == scene.id)
            .values(channel_id=thread_id, parent_id=step.parent_id, version=Scene.version + 1)
        )
        await session.exec(
            update(Post).where(col(Post.scene_id) == scene.id).values(channel_id=thread_id)
        )
        await session.exec(
            update(RollLog)
            .where(col(RollLog.campaign_id) == scene.campaign_id, col(RollLog.channel_id) == old)
            .values(channel_id=thread_id)
        )

    async def thread_made(self, step: Step, thread_id: int) -> None:
        await self._advance(step, thread_id=thread_id)

    async def post_sent(self, step: Step, message_ids: list[int]) -> None:
        assert step.post is not None
        await self._advance(
            step, post_cursor=step.post.id, posts_done=ImportPublication.posts_done + 1
        )
        async with self.sessions() as session, session.begin():
            await session.exec(
                update(Post).where(col(Post.id) == step.post.id).values(message_ids=message_ids)
            )

    async def thread_closed(self, step: Step) -> None:
        await self._advance(step, thread_id=None, scene_index=ImportPublication.scene_index + 1)

    async def finish(self, step: Step, status: str = "done") -> None:
        await self._advance(step, status=status)

    async def again(self, publication_id: int, guild_id: int) -> None:
        """The next step's timer (moving it keeps the firing in progress from deleting it)."""
        async with self.sessions() as session, session.begin():
            due = utcnow() + self.pace
            await schedule(session, PUBLISH_TIMER, str(publication_id), guild_id, due)
        self.timers.poke()

    # -- the GM's controls ------------------------------------------------------------------------

    async def stop(self, place: Place, actor: Actor, publication_id: int) -> PublicationView:
        """Stop the job (the GM who imported, or a referee): what was posted stays."""
        async with self.sessions() as session, session.begin():
            job = await session.get(ImportPublication, publication_id)
            if job is None or job.guild_id != place.guild_id:
                raise DomainError("umbria.error.no_publication")
            campaign = await session.get(Campaign, job.campaign_id)
            assert campaign is not None
            if not is_referee(campaign, actor):
                raise NotReferee()
            if job.status != "running":
                raise DomainError("umbria.error.publication_over")
            await update_versioned(  # reported: the GM stops the job as they saw it
                session,
                ImportPublication,
                col(ImportPublication.id) == job.id,
                job.version,
                status="stopped",
                updated_at=utcnow(),
            )
            await cancel(session, PUBLISH_TIMER, str(job.id))
            await session.refresh(job)
            return _view(job, utcnow(), self.pace)


def _view(row: ImportPublication, starts: datetime, pace: timedelta) -> PublicationView:
    scenes = len(row.scene_ids)
    return PublicationView(
        id=saved_id(row),
        campaign_id=row.campaign_id,
        mode=row.mode,
        status=row.status,
        scenes=scenes,
        posts=row.posts_total,
        seconds=estimate(scenes, row.posts_total, row.mode, pace),
        starts_at=starts,
        version=row.version,
    )
