"""Scenes of the play-by-post table (issue 12 §1, §2b): open, close, reopen, list, header.

A scene is one forum post or thread of a campaign (:class:`bot.db.models.Scene`).  The cog
creates the Discord thread and this service keeps the row: who it is for, its pinned header,
whether it is open.  Every change to a scene is a versioned compare-and-set on its row, so a
close and a reopen pressed at once leave exactly one of them applied.

Other features call three functions of :class:`SceneService`:

* :meth:`SceneService.scene_for` — the scene of a thread of a campaign, created on the first
  bot use in a thread the GM opened by hand (``None`` outside threads and off-topic).
* :meth:`SceneService.refresh_header` / :meth:`SceneService.header` — what the pinned header
  shows now (``cogs.scenes.refresh_header(bot, place_or_scene)`` edits the message from it).
* :meth:`SceneService.is_off_topic` / :meth:`SceneService.require_on_topic` — whether
  characters may not be posted in a place (the latter raises the translated refusal).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import (
    ActiveCharacter,
    Campaign,
    CampaignBinding,
    Character,
    Post,
    RollLog,
    Scene,
    saved_id,
    utcnow,
)
from bot.services.campaigns.service import ACTIVE_BINDING, CampaignService, is_referee
from bot.services.shared.audience import Part, Reader, Secrecy, show_all
from bot.services.shared.audit import undo_record
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import ConcurrentChange, DomainError, NoCampaign, NotReferee
from bot.services.shared.retry import retrying
from bot.services.shared.reveals import reveals_of
from bot.services.shared.versioned import update_versioned
from bot.services.table.pace_rounds import round_of_posts, scene_round
from bot.services.table.pacing import RoundView
from rules.text import name_problem, plain_spaces

__all__ = [
    "ThreadFacts",
    "MAX_PLAYERS",
    "MAX_TITLE",
    "ClosedView",
    "HeaderView",
    "OpenPlan",
    "PlayerLine",
    "SceneService",
    "SceneView",
    "SummaryLine",
    "parse_players",
]

MAX_TITLE = 100  # Discord's thread name limit, and the column's
MAX_PLAYERS = 25
MAX_OPENING_TEXT = 4000  # a form paragraph's limit on Discord: the opening text as typed
MAX_LISTED = 200  # /scene list reads at most this many (newest first); the reply summarises
#: Audit kinds that are not rolls: grants (counted as XP), undos, and the damage, healing and
#: effects a GM notes by hand in a fight (``/init damage|heal``, effects: no dice).
_NOT_ROLLS = ("xp", "undo", "damage", "heal", "effect")
#: The closing summary and the pinned header are read by anyone in the scene.
EVERYONE = Reader.everyone()
_MENTION = re.compile(r"<@!?(\d{15,21})>|\b(\d{15,21})\b")


@dataclass(frozen=True, slots=True)
class SceneView:
    id: int
    campaign_id: int
    guild_id: int
    channel_id: int
    parent_id: int | None
    title: str
    status: str
    private: bool
    players: tuple[int, ...]
    header_message_id: int | None
    opened_by: int
    created_at: datetime
    closed_at: datetime | None
    round_started_at: datetime | None
    version: int

    @property
    def is_open(self) -> bool:
        return self.status == "open"


@dataclass(frozen=True, slots=True)
class OpenPlan:
    """What ``/scene open`` may do here, checked before Discord is asked for a thread."""

    campaign_id: int
    campaign_name: str
    locale: str | None
    gm_user_id: int
    title: str
    players: tuple[int, ...]
    tags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayerLine:
    user_id: int
    character: str | None  # the player's active character, if any


@dataclass(frozen=True, slots=True)
class HeaderView:
    """The pinned header: the scene, who is in it, and the current round of posts."""

    scene: SceneView
    players: tuple[PlayerLine, ...]
    round_since: datetime | None  # the GM's last post (None: since the scene opened)
    posted: tuple[str, ...]  # who has posted in this round (speaker names, first post order)
    pending: tuple[str, ...]  # the players' active characters that have not


@dataclass(frozen=True, slots=True)
class SummaryLine:
    name: str
    posts: int
    rolls: int
    xp: int


@dataclass(frozen=True, slots=True)
class ClosedView:
    scene: SceneView
    lines: tuple[SummaryLine, ...]

    @property
    def posts(self) -> int:
        return sum(line.posts for line in self.lines)

    @property
    def rolls(self) -> int:
        return sum(line.rolls for line in self.lines)

    @property
    def xp(self) -> int:
        return sum(line.xp for line in self.lines)


def parse_players(raw: str | None) -> tuple[int, ...]:
    """Member ids from ``/scene open``'s ``players``: mentions (``<@123…>``) or bare ids.

    Anything else in the text is refused (a name could match nobody, or the wrong member).
    """
    if raw is None or not raw.strip():
        return ()
    found: list[int] = []
    rest = raw
    for match in _MENTION.finditer(raw):
        found.append(int(match.group(1) or match.group(2)))
        rest = rest.replace(match.group(0), " ", 1)
    if rest.replace(",", " ").split():
        raise DomainError("scene.error.bad_players")
    players = tuple(dict.fromkeys(found))
    if len(players) > MAX_PLAYERS:
        raise DomainError("scene.error.too_many_players", limit=MAX_PLAYERS)
    return players


def parse_tags(raw: str | None) -> tuple[str, ...]:
    """Extra forum tags named in ``/scene open``'s ``tags`` (comma separated)."""
    if raw is None:
        return ()
    tags = tuple(dict.fromkeys(part.strip() for part in raw.split(",") if part.strip()))
    if any(len(tag) > 20 for tag in tags):  # Discord: a tag name is at most 20 characters
        raise DomainError("scene.error.bad_tag", limit=20)
    return tags


def _view(scene: Scene) -> SceneView:
    return SceneView(
        id=saved_id(scene),
        campaign_id=scene.campaign_id,
        guild_id=scene.guild_id,
        channel_id=scene.channel_id,
        parent_id=scene.parent_id,
        title=scene.title,
        status=scene.status,
        private=scene.private,
        players=tuple(int(p) for p in scene.players or ()),
        header_message_id=scene.header_message_id,
        opened_by=scene.opened_by,
        created_at=scene.created_at,
        closed_at=scene.closed_at,
        round_started_at=scene.round_started_at,
        version=scene.version,
    )


@dataclass(frozen=True, slots=True)
class ThreadFacts:
    """What the cog knows of the thread a command is used in: a thread the GM opened by hand
    becomes a scene with its name, its owner and its privacy."""

    title: str
    opened_by: int | None
    private: bool


class SceneService:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], campaigns: CampaignService
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns

    # -- where are we --------------------------------------------------------------------

    async def _thread_of(self, place: Place, session: AsyncSession) -> Campaign | None:
        """The campaign when ``place`` is a thread (or forum post) under it, else ``None``.

        The binding that matched tells: a thread sits one level below a bound channel or
        forum (chain ``thread, channel``), two below a bound category (``thread, channel,
        category``); the bound channel itself, or a channel of a bound category, is no thread.
        """
        campaign = await self.campaigns.find(place, session)
        if campaign is None:
            return None
        bindings = (
            await session.exec(
                select(CampaignBinding.target_id, CampaignBinding.kind).where(
                    CampaignBinding.campaign_id == campaign.id,
                    col(CampaignBinding.target_id).in_(place.chain),
                    ACTIVE_BINDING,
                )
            )
        ).all()
        kinds = dict(bindings)
        for depth, target in enumerate(place.chain):
            if target in kinds:
                thread_depth = 2 if kinds[target] == "category" else 1
                return campaign if depth == thread_depth else None
        return None

    async def is_off_topic(self, place: Place) -> bool:
        """Whether ``place`` is the campaign's off-topic channel (or a thread in it).

        Posting as a character refuses there, and pace reminders never look there.
        """
        campaign = await self.campaigns.find(place)
        return bool(
            campaign is not None
            and campaign.off_topic_channel_id is not None
            and campaign.off_topic_channel_id in place.chain[:2]
        )

    async def require_on_topic(self, place: Place) -> None:
        """Refuses posting as a character in the off-topic channel (for ``/post``)."""
        if await self.is_off_topic(place):
            raise DomainError("scene.error.off_topic_post")

    async def refresh_header(self, place: Place) -> HeaderView | None:
        """What the pinned header of the scene at ``place`` must show now, or ``None`` when
        there is no scene there or it has no pinned header (a thread opened by hand).

        The Discord side (editing the pinned message) is ``cogs.scenes.refresh_header``.
        """
        scene = await self.scene_for(place)
        if scene is None or scene.header_message_id is None:
            return None
        return await self.header(scene)

    async def scene_for(
        self,
        place: Place,
        *,
        title: str | None = None,
        opened_by: int | None = None,
        private: bool = False,
    ) -> SceneView | None:
        """The scene held by this thread, created on first use; ``None`` if it cannot be one.

        A thread (or forum post) under an active campaign is a scene: one opened with
        ``/scene open`` has its row already; one the GM opened by hand gets it here, on the
        first bot use in it, titled ``title`` (the thread's name, as the cog knows it).  Not
        a thread, no campaign, or off-topic: ``None``.  Two first uses at once create one row
        (the unique index on the thread decides; the loser reads the winner's).
        """
        if await self.is_off_topic(place):
            return None
        existing = await self._get(place)
        if existing is not None:
            return _view(existing)
        for _ in range(2):  # the second read finds the winner's row
            async with self.sessions() as session:
                campaign = await self._thread_of(place, session)
                if campaign is None:
                    return None
            try:
                async with self.sessions() as session, session.begin():
                    scene = Scene(
                        guild_id=place.guild_id,
                        campaign_id=saved_id(campaign),
                        channel_id=place.channel_id,
                        parent_id=place.chain[1] if len(place.chain) > 1 else None,
                        title=(title or "").strip()[:MAX_TITLE] or str(place.channel_id),
                        opened_by=opened_by if opened_by is not None else campaign.gm_user_id,
                        private=private,  # a private thread: listed only to who may see it
                    )
                    session.add(scene)
                return _view(scene)
            except IntegrityError:
                found = await self._get(place)
                if found is not None:
                    return _view(found)
        raise ConcurrentChange()

    async def _get(self, place: Place) -> Scene | None:
        async with self.sessions() as session:
            return (
                await session.exec(
                    select(Scene).where(
                        Scene.guild_id == place.guild_id, Scene.channel_id == place.channel_id
                    )
                )
            ).first()

    async def require(self, place: Place, thread: ThreadFacts | None = None) -> SceneView:
        """The scene of this thread (created on first use, from what the cog knows of the
        ``thread``: its name, its owner, whether it is private), or the translated refusal."""
        if thread is None:
            scene = await self.scene_for(place)
        else:
            scene = await self.scene_for(
                place, title=thread.title, opened_by=thread.opened_by, private=thread.private
            )
        if scene is None:
            if await self.campaigns.find(place) is None:
                raise NoCampaign()
            raise DomainError("scene.error.not_a_scene")
        return scene

    async def status(self, place: Place) -> RoundView:
        """``/scene status``: the round of posts of this thread's scene (a thread the GM made by
        hand becomes a scene here, as at any first use)."""
        await self.scene_for(place)
        campaign = await self.campaigns.require(place)
        async with self.sessions() as session:
            return await scene_round(session, campaign, place)

    async def get(self, guild_id: int, scene_id: int) -> SceneView | None:
        async with self.sessions() as session:
            scene = await session.get(Scene, scene_id)
            return _view(scene) if scene is not None and scene.guild_id == guild_id else None

    # -- use cases -----------------------------------------------------------------------

    async def plan_open(
        self,
        place: Place,
        actor: Actor,
        *,
        title: str,
        players: str | None = None,
        tags: str | None = None,
    ) -> OpenPlan:
        """Checks ``/scene open`` before anything is created on Discord (GM only)."""
        campaign = await self.campaigns.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()
        if await self.is_off_topic(place):
            raise DomainError("scene.error.off_topic_here")
        title = " ".join(plain_spaces(title).split())
        if not title or len(title) > MAX_TITLE:
            raise DomainError("scene.error.bad_title", limit=MAX_TITLE)
        if (problem := name_problem(title)) is not None:
            raise DomainError(f"sheet.error.name_{problem}")
        return OpenPlan(
            campaign_id=saved_id(campaign),
            campaign_name=campaign.name,
            locale=campaign.locale,
            gm_user_id=campaign.gm_user_id,
            title=title,
            players=parse_players(players),
            tags=parse_tags(tags),
        )

    async def record_open(
        self,
        place: Place,
        actor: Actor,
        plan: OpenPlan,
        *,
        channel_id: int,
        parent_id: int,
        private: bool = False,
        opening_text: str | None = None,
    ) -> SceneView:
        """Stores the scene the cog just created on Discord (thread ``channel_id``), with the
        GM's opening text: the chronicle exports it as the scene's opening, as an Umbría
        scene's presentation is kept (issue 27)."""
        async with self.sessions() as session, session.begin():
            scene = Scene(
                guild_id=place.guild_id,
                campaign_id=plan.campaign_id,
                channel_id=channel_id,
                parent_id=parent_id,
                title=plan.title,
                private=private,
                players=list(plan.players),
                opened_by=actor.user_id,
                opening_text=(opening_text or "").strip()[:MAX_OPENING_TEXT] or None,
            )
            session.add(scene)
        return _view(scene)

    async def set_header(self, scene: SceneView, message_id: int) -> SceneView:
        """Records the pinned header message (versioned; retried on the current row)."""
        return await self._change(
            scene.guild_id, scene.id, lambda row: {"header_message_id": message_id}
        )

    async def close(
        self,
        place: Place,
        actor: Actor,
        thread: ThreadFacts | None = None,
        started: Callable[[], Awaitable[None]] | None = None,
    ) -> ClosedView:
        """Closes the scene of this thread and sums it up (GM only); ``started`` tells the
        cog the checks passed and the slow part begins."""
        scene = await self.require(place, thread)
        await self._require_referee(place, actor)
        if started is not None:
            await started()

        def closing(row: Scene) -> dict[str, Any]:
            if row.status == "closed":
                raise DomainError("scene.error.already_closed", title=row.title)
            return {"status": "closed", "closed_at": utcnow()}

        closed = await self._change(place.guild_id, scene.id, closing)
        return ClosedView(closed, await self.summary(closed))

    async def reopen(
        self,
        place: Place,
        actor: Actor,
        thread: ThreadFacts | None = None,
        started: Callable[[], Awaitable[None]] | None = None,
    ) -> SceneView:
        """Opens a closed scene again (GM only); ``started`` as in :meth:`close`."""
        scene = await self.require(place, thread)
        await self._require_referee(place, actor)
        if started is not None:
            await started()

        def reopening(row: Scene) -> dict[str, Any]:
            if row.status == "open":
                raise DomainError("scene.error.already_open", title=row.title)
            return {"status": "open", "closed_at": None}

        return await self._change(place.guild_id, scene.id, reopening)

    async def list(self, place: Place) -> tuple[tuple[SceneView, ...], int]:
        """The campaign's scenes, open ones first, newest first; and how many there are."""
        campaign = await self.campaigns.require(place)
        async with self.sessions() as session:
            rows = (
                await session.exec(
                    select(Scene)
                    .where(Scene.campaign_id == campaign.id, Scene.guild_id == place.guild_id)
                    .order_by(col(Scene.id).desc())
                    .limit(MAX_LISTED)
                )
            ).all()
            total = (
                await session.exec(
                    select(func.count())
                    .select_from(Scene)
                    .where(Scene.campaign_id == campaign.id, Scene.guild_id == place.guild_id)
                )
            ).one()
        views = sorted((_view(row) for row in rows), key=lambda s: (not s.is_open, -s.id))
        return tuple(views), int(total)

    # -- what the header and the summary show ----------------------------------------------

    async def header(self, scene: SceneView) -> HeaderView:
        """The pinned header's content, read now (posting and pace call the refresh)."""
        async with self.sessions() as session:
            active = dict(
                (
                    await session.exec(
                        select(ActiveCharacter.user_id, Character.name)
                        .join(Character, col(Character.id) == ActiveCharacter.character_id)
                        .where(
                            ActiveCharacter.campaign_id == scene.campaign_id,
                            col(Character.deleted_at).is_(None),
                            col(Character.is_npc).is_(False),  # the party, not the GM's NPCs
                        )
                    )
                ).all()
            )
            campaign, row = (
                await session.get(Campaign, scene.campaign_id),
                await session.get(Scene, scene.id),
            )
            if campaign is None or row is None:
                raise DomainError("scene.error.not_a_scene")
            # One definition of the round for the header, /scene status and the reminders.
            round_view = await round_of_posts(session, campaign, row)
        since = scene.round_started_at
        users = scene.players or tuple(sorted(active))
        players = tuple(PlayerLine(user, active.get(user)) for user in users)
        posted_at = {e.name: e.posted_at for e in round_view.entries if e.posted_at is not None}
        posted = tuple(sorted(posted_at, key=posted_at.__getitem__))
        pending = tuple(e.name for e in round_view.pending)
        return HeaderView(scene, players, since, posted, pending)

    async def summary(self, scene: SceneView) -> tuple[SummaryLine, ...]:
        """Posts per speaker (``Post`` rows), rolls per character and the XP granted in the
        thread (audit rows of kind ``xp`` written there, minus undone grants) — what anyone
        in the channel may know of (the audience rule: no GM-only post, no private roll, no
        hidden NPC's XP)."""
        async with self.sessions() as session:
            post_rows = (
                await session.exec(
                    select(Post).where(
                        Post.guild_id == scene.guild_id,
                        Post.channel_id == scene.channel_id,
                        col(Post.deleted_at).is_(None),
                    )
                )
            ).all()
            logged = (
                await session.exec(
                    select(RollLog).where(
                        RollLog.guild_id == scene.guild_id,
                        RollLog.channel_id == scene.channel_id,
                    )
                )
            ).all()
            reveals = await reveals_of(session, scene.campaign_id)
        posts = Counter(
            shown.value
            for shown in show_all(
                post_rows,
                EVERYONE,
                Secrecy.of_row,
                lambda post, _seen: post.speaker_name,
                written_at=lambda post: post.created_at,
                reveals=reveals,
            )
        )
        rolls: Counter[str] = Counter()
        xp: Counter[str] = Counter()
        for shown_row in show_all(
            logged,
            EVERYONE,
            Secrecy.of_row,
            lambda row, seen: (row, seen),
            written_at=lambda row: row.created_at,
            reveals=reveals,
        ):
            row, seen = shown_row.value
            name = row.character_name or row.user_name
            if row.kind == "xp":
                record = undo_record(row)
                if not (record and record.undone_by) and seen.shows(Part.TOTAL):
                    xp[name] += row.total
            elif row.kind not in _NOT_ROLLS:
                rolls[name] += 1
        names: Iterable[str] = dict.fromkeys([*posts, *rolls, *xp])
        return tuple(SummaryLine(name, posts[name], rolls[name], xp[name]) for name in names)

    # -- helpers -------------------------------------------------------------------------

    async def _require_referee(self, place: Place, actor: Actor) -> None:
        campaign = await self.campaigns.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()

    async def _change(
        self, guild_id: int, scene_id: int, changes: Callable[[Scene], dict[str, Any]]
    ) -> SceneView:
        """``UPDATE scene SET … , version = version + 1 WHERE id AND version = :seen``,
        computed by ``changes(row)`` on the current row; retried on a clash (the one policy),
        then refused."""

        async def attempt() -> SceneView:
            async with self.sessions() as session, session.begin():
                row = await session.get(Scene, scene_id)
                if row is None or row.guild_id != guild_id:
                    raise DomainError("scene.error.not_a_scene")
                values = changes(row)
                seen = row.model_dump()  # before the update (it refreshes ``row`` in place)
                await update_versioned(
                    session, Scene, col(Scene.id) == scene_id, seen["version"], **values
                )
                return _view(Scene(**{**seen, **values, "version": seen["version"] + 1}))

        return await retrying(attempt)
