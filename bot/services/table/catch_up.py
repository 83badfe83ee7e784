"""``/catch-up``: what happened in the campaign since the member last posted (issue 25 §2).

Privately, for one member: per open scene they take part in, the posts they have not answered
(everything others posted there after their own last post in it, or since the date they
give), with links; the rolls and state changes that concern their characters (a roll of
theirs, or a change written on their sheet: damage, healing, effects, experience); and what
they owe (:mod:`bot.services.table.owed`: the scenes waiting for them, the roll requests
and the fight turn).  Returning from an absence, a member who chose so gets it by private
message (the ``pace.back`` timer, :meth:`bot.services.table.pace.PaceService.back`).

Only what this member may see: never a GM-only post, nor a post of a private scene they are
not in, nor another member's private roll, nor the numbers a record keeps from them (a total
sealed because of a hidden NPC, a hidden request's) — every post and roll-log row is read
through the one audience rule (:mod:`bot.services.shared.audience`: the record's stored
audience and sealed parts, lifted by a later reveal of its NPC) for this member.

Bounded: at most :data:`MAX_LOOKBACK` back, :data:`MAX_POSTS` posts and :data:`MAX_ROLLS`
rolls read, :data:`PER_SCENE` posts and :data:`MAX_ROLL_LINES` rolls listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, Character, Post, RollLog, Scene, saved_id
from bot.formatting import time_zone
from bot.services.campaigns.service import campaign_time_zone
from bot.services.shared.audience import (
    Audience,
    Part,
    Reader,
    Reveals,
    Secrecy,
    Sight,
    show_all,
)
from bot.services.shared.reveals import reveals_of
from bot.services.table.owed import Owed, owed_in_campaign
from bot.services.table.pace_rounds import MAX_SCENES
from bot.services.table.pacing import parse_day

__all__ = [
    "MAX_LOOKBACK",
    "CatchUpView",
    "PostLine",
    "RollLine",
    "SceneCatchUp",
    "catch_up",
]

#: Without a post of theirs, the catch-up starts this long ago.
DEFAULT_LOOKBACK = timedelta(days=14)
#: Never further back than this, whatever date is typed (a bound on the rows read).
MAX_LOOKBACK = timedelta(days=90)
MAX_POSTS = 2_000
MAX_ROLLS = 2_000
PER_SCENE = 10
MAX_ROLL_LINES = 15
EXCERPT = 120


@dataclass(frozen=True, slots=True)
class PostLine:
    speaker: str
    created_at: datetime
    channel_id: int
    message_id: int | None
    excerpt: str


@dataclass(frozen=True, slots=True)
class SceneCatchUp:
    scene_id: int
    title: str
    channel_id: int
    posts: tuple[PostLine, ...]  # the newest PER_SCENE, oldest first
    unanswered: int  # how many in all


@dataclass(frozen=True, slots=True)
class RollLine:
    character: str  # whose roll (or change) it is
    about: str  # the member's character it concerns
    kind: str
    expression: str
    reason: str | None
    total: int | None  # None: a number this member may not read
    outcome: str | None
    created_at: datetime
    url: str | None


@dataclass(frozen=True, slots=True)
class CatchUpView:
    campaign_name: str
    guild_id: int
    user_id: int
    since: datetime
    scenes: tuple[SceneCatchUp, ...]
    rolls: tuple[RollLine, ...]
    owed: tuple[Owed, ...]
    time_zone: str
    locale: str | None
    #: private threads with posts addressed to the member (whispers, the GM's): by thread,
    #: ``scene_id`` 0 and no title (the renderer names them)
    whispers: tuple[SceneCatchUp, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.scenes and not self.rolls and not self.owed and not self.whispers


async def catch_up(
    session: AsyncSession,
    campaign: Campaign,
    user_id: int,
    now: datetime,
    *,
    since_text: str | None = None,
    locale: str = "es",
) -> CatchUpView:
    """The member's catch-up (module docstring); ``since_text`` is a day they typed."""
    zone = campaign_time_zone(campaign)
    floor = now - MAX_LOOKBACK
    typed = None
    if since_text:
        day = parse_day(since_text, locale, zone, now=now)
        typed = max(datetime.combine(day, time(0), tzinfo=time_zone(zone)), floor)
    mine = await _characters(session, campaign, user_id)
    last = await _last_posts(session, campaign, user_id)
    default = max(last.get(None) or now - DEFAULT_LOOKBACK, floor)
    since = typed or default
    reveals = await reveals_of(session, saved_id(campaign))
    scenes = await _scenes(session, campaign, user_id, typed, last, default, reveals)
    owed = await owed_in_campaign(session, campaign, now)
    return CatchUpView(
        campaign_name=campaign.name,
        guild_id=campaign.guild_id,
        user_id=user_id,
        since=since,
        scenes=scenes,
        rolls=await _rolls(session, campaign, user_id, mine, since, reveals),
        owed=tuple(debt for debt in owed if debt.user_id == user_id),
        time_zone=zone,
        locale=campaign.locale,
        whispers=await _whispers(session, campaign, user_id, since, reveals),
    )


async def _whispers(
    session: AsyncSession,
    campaign: Campaign,
    user_id: int,
    since: datetime,
    reveals: Reveals,
) -> tuple[SceneCatchUp, ...]:
    """Posts others addressed to the member since ``since`` outside the scenes — a players'
    whisper he is one of, the GM's in his private thread (issue 24) —, by thread, as the
    audience rule lets him read them."""
    posts = (
        await session.exec(
            select(Post)
            .where(
                Post.campaign_id == campaign.id,
                col(Post.scene_id).is_(None),
                col(Post.created_at) > since,
                col(Post.audience).in_([Audience.MEMBERS.value, Audience.PLAYER.value]),
            )
            .order_by(col(Post.created_at).desc())
            .limit(MAX_POSTS)
        )
    ).all()
    others = [p for p in reversed(posts) if p.deleted_at is None and p.author_user_id != user_id]
    by_thread: dict[int, list[PostLine]] = {}
    for shown in show_all(
        others,
        Reader.member(user_id),
        Secrecy.of_row,
        lambda post, _seen: _post_line(post),
        written_at=lambda post: post.created_at,
        reveals=reveals,
    ):
        by_thread.setdefault(shown.value.channel_id, []).append(shown.value)
    return tuple(
        SceneCatchUp(0, "", thread, tuple(lines[-PER_SCENE:]), len(lines))
        for thread, lines in by_thread.items()
    )


async def _characters(session: AsyncSession, campaign: Campaign, user_id: int) -> dict[int, str]:
    """The member's own characters in the campaign (their ids and names)."""
    rows = await session.exec(
        select(Character.id, Character.name).where(
            Character.campaign_id == campaign.id,
            Character.owner_user_id == user_id,
            col(Character.deleted_at).is_(None),
            col(Character.is_npc).is_(False),
        )
    )
    return {cid: name for cid, name in rows.all() if cid is not None}


async def _last_posts(
    session: AsyncSession, campaign: Campaign, user_id: int
) -> dict[int | None, datetime]:
    """The member's last post in each scene (key None: anywhere in the campaign)."""
    rows = (
        await session.exec(
            select(Post.scene_id, func.max(Post.created_at))
            .where(
                Post.campaign_id == campaign.id,
                Post.author_user_id == user_id,
                col(Post.deleted_at).is_(None),
            )
            .group_by(col(Post.scene_id))
        )
    ).all()
    last: dict[int | None, datetime] = {}
    for scene_id, at in rows:
        if scene_id is not None:
            last[scene_id] = at
        last[None] = max(last.get(None, at), at)
    return last


def _posts_seen(
    posts: list[Post], user_id: int, reveals: Reveals
) -> dict[int, tuple[PostLine, ...]]:
    """The posts this member did not write and may see, by scene, oldest first: through the
    audience rule as the member reads it (a GM-only post, a private thread's post for
    someone else, is never shown; a deleted one is left out as well)."""
    others = [p for p in reversed(posts) if p.deleted_at is None and p.author_user_id != user_id]
    by_scene: dict[int, list[PostLine]] = {}
    for shown in show_all(
        others,
        Reader.member(user_id),
        Secrecy.of_row,
        lambda post, _seen: (post.scene_id, _post_line(post)),
        written_at=lambda post: post.created_at,
        reveals=reveals,
    ):
        scene_id, line = shown.value
        if scene_id is not None:
            by_scene.setdefault(scene_id, []).append(line)
    return {scene_id: tuple(lines) for scene_id, lines in by_scene.items()}


async def _scenes(
    session: AsyncSession,
    campaign: Campaign,
    user_id: int,
    typed: datetime | None,
    last: Mapping[int | None, datetime],
    default: datetime,
    reveals: Reveals,
) -> tuple[SceneCatchUp, ...]:
    """Each open scene the member plays in, with the posts they have not answered."""
    scenes = [
        scene
        for scene in (
            await session.exec(
                select(Scene)
                .where(Scene.campaign_id == campaign.id, Scene.status == "open")
                .order_by(col(Scene.id))
                .limit(MAX_SCENES)
            )
        ).all()
        if not scene.players or user_id in scene.players
    ]
    cutoffs = {saved_id(s): typed or last.get(saved_id(s)) or default for s in scenes}
    if not cutoffs:
        return ()
    posts = (
        await session.exec(
            select(Post)
            .where(
                col(Post.scene_id).in_(list(cutoffs)),
                col(Post.created_at) > min(cutoffs.values()),
            )
            .order_by(col(Post.created_at).desc())
            .limit(MAX_POSTS)
        )
    ).all()
    seen = _posts_seen(list(posts), user_id, reveals)
    found = []
    for scene in scenes:
        cutoff = cutoffs[saved_id(scene)]
        mine = [line for line in seen.get(saved_id(scene), ()) if line.created_at > cutoff]
        if mine:
            found.append(
                SceneCatchUp(
                    saved_id(scene),
                    scene.title,
                    scene.channel_id,
                    tuple(mine[-PER_SCENE:]),
                    len(mine),
                )
            )
    return tuple(found)


def _post_line(post: Post) -> PostLine:
    text = " ".join(post.text.split())
    excerpt = text if len(text) <= EXCERPT else text[: EXCERPT - 1].rstrip() + "…"
    first = post.message_ids[0] if post.message_ids else None
    return PostLine(post.speaker_name, post.created_at, post.channel_id, first, excerpt)


def _about(row: RollLog, mine: Mapping[int, str]) -> str | None:
    """Which of the member's characters the row concerns: the roller, or the sheet it
    changed."""
    names = {name.casefold(): name for name in mine.values()}
    if row.character_name and row.character_name.casefold() in names:
        return names[row.character_name.casefold()]
    detail = row.detail if isinstance(row.detail, dict) else {}
    undo = detail.get("undo")
    target = undo.get("character_id") if isinstance(undo, dict) else None
    return mine.get(target) if isinstance(target, int) else None


async def _rolls(
    session: AsyncSession,
    campaign: Campaign,
    user_id: int,
    mine: Mapping[int, str],
    since: datetime,
    reveals: Reveals,
) -> tuple[RollLine, ...]:
    """The newest rolls and changes since ``since`` that concern the member's characters,
    as the audience rule lets this member read them (another member's private roll is left
    out; a total sealed from him — a hidden NPC's, a hidden request's — is blanked)."""
    if not mine:
        return ()
    rows = (
        await session.exec(
            select(RollLog)
            .where(RollLog.campaign_id == campaign.id, col(RollLog.created_at) > since)
            .order_by(col(RollLog.id).desc())
            .limit(MAX_ROLLS)
        )
    ).all()
    concerning = [(row, about) for row in rows if (about := _about(row, mine)) is not None]
    shown = show_all(
        concerning,
        Reader.member(user_id),
        lambda pair: Secrecy.of_row(pair[0]),
        lambda pair, seen: _roll_line(pair[0], pair[1], seen),
        written_at=lambda pair: pair[0].created_at,
        reveals=reveals,
    )
    return tuple(reversed([line.value for line in shown[:MAX_ROLL_LINES]]))


def _roll_line(row: RollLog, about: str, seen: Sight) -> RollLine:
    """The row as this member may read it: what the rule seals blanked (the total with the
    expression whose dice bound a stat, the outcome)."""
    numbers = seen.shows(Part.TOTAL)
    return RollLine(
        character=row.character_name or row.user_name,
        about=about,
        kind=row.kind,
        expression=row.expression if numbers else "",
        reason=row.reason,
        total=row.total if numbers else None,
        outcome=seen.value(Part.OUTCOME, row.outcome),
        created_at=row.created_at,
        url=row.message_url,
    )
