"""The round of posts read from the database: the facts :func:`.pacing.build_rounds` judges.

Five queries for any number of scenes of one campaign (a watch firing reads every open
scene): the members' active player characters, which of them are NPCized, each one's first
post in each scene's current round, and who is away today.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import func, or_
from sqlalchemy import select as sa_select
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import (
    Absence,
    ActiveCharacter,
    Campaign,
    Character,
    Npcization,
    Post,
    Scene,
    saved_id,
    utcnow,
)
from bot.services.campaigns.service import PACE_DEADLINE, campaign_time_zone, setting_specs
from bot.services.campaigns.settings import resolved_settings
from bot.services.shared.audience import Reader, Secrecy, sight
from bot.services.shared.context import Place
from bot.services.shared.errors import DomainError
from bot.services.table.pacing import Member, RoundView, build_rounds, local_today

__all__ = [
    "EVERYONE",
    "MAX_SCENES",
    "open_rounds",
    "pace_settings",
    "round_of_posts",
    "rounds_of_posts",
    "scene_round",
]

MAX_SCENES = 200  # open scenes read per firing (a bound on the work of one timer)
#: The round's reader in the channel (status, header, reminders): anyone there.
EVERYONE = Reader.everyone()


def pace_settings(campaign: Campaign) -> Mapping[str, Any]:
    return resolved_settings(setting_specs(campaign.system), campaign.settings)


async def _members(session: AsyncSession, campaign_id: int) -> list[Member]:
    """The members' active characters that are player characters, not deleted."""
    rows = (
        await session.exec(
            select(ActiveCharacter.user_id, Character.id, Character.name, Character.owner_user_id)
            .join(Character, col(Character.id) == ActiveCharacter.character_id)
            .where(
                ActiveCharacter.campaign_id == campaign_id,
                col(Character.deleted_at).is_(None),
                col(Character.is_npc).is_(False),
            )
        )
    ).all()
    return [Member(user, cid, name, owner) for user, cid, name, owner in rows if cid is not None]


async def _npcized(session: AsyncSession, ids: list[int]) -> frozenset[int]:
    found = await session.exec(
        select(Npcization.character_id).where(col(Npcization.character_id).in_(ids))
    )
    return frozenset(found.all())


async def _posted(
    session: AsyncSession, scenes: Sequence[Scene], ids: list[int], reader: Reader
) -> dict[tuple[int, int], datetime]:
    """Each character's first post in each scene's current round (the GM's posts aside)
    that ``reader`` may know of (the audience rule: a GM-only post moves nobody in the
    channel, it would tell that a secret post was made)."""
    connection = await session.connection()  # several columns: Core rows (docs/testing.md)
    rows = (
        await connection.execute(
            sa_select(
                col(Post.scene_id),
                col(Post.character_id),
                func.min(Post.created_at),
                col(Post.audience),
                col(Post.audience_user_id),
            )
            .join(Scene, col(Scene.id) == Post.scene_id)
            .where(
                col(Post.scene_id).in_([saved_id(scene) for scene in scenes]),
                col(Post.character_id).in_(ids),
                col(Post.deleted_at).is_(None),
                col(Post.gm_post).is_(False),
                or_(
                    col(Scene.round_started_at).is_(None),
                    col(Post.created_at) > col(Scene.round_started_at),
                ),
            )
            .group_by(
                col(Post.scene_id),
                col(Post.character_id),
                col(Post.audience),
                col(Post.audience_user_id),
            )
        )
    ).all()
    posted: dict[tuple[int, int], datetime] = {}
    for scene_id, character_id, at, audience, audience_user_id in rows:
        if scene_id is None or character_id is None:
            continue
        if sight(Secrecy.of(audience, audience_user_id, {}), reader) is None:
            continue  # a post this reader may not know of moves nobody for him
        key = (scene_id, character_id)
        posted[key] = min(posted.get(key, at), at)
    return posted


async def _absent_until(
    session: AsyncSession, campaign_id: int, users: Iterable[int], today: date
) -> dict[int, date]:
    """Members away today (through which day), among ``users``."""
    ids = sorted(set(users))
    if not ids:
        return {}
    rows = (
        await session.exec(
            select(Absence.user_id, func.max(Absence.ends_on))
            .where(
                Absence.campaign_id == campaign_id,
                col(Absence.user_id).in_(ids),
                col(Absence.cancelled_at).is_(None),
                col(Absence.starts_on) <= today,
                col(Absence.ends_on) >= today,
            )
            .group_by(col(Absence.user_id))
        )
    ).all()
    return {user: until for user, until in rows}


async def round_of_posts(
    session: AsyncSession,
    campaign: Campaign,
    scene: Scene,
    now: datetime | None = None,
    reader: Reader = EVERYONE,
) -> RoundView:
    """The scene's current round: each character, posted (when) or pending (since when).

    The characters are the active characters of ``scene.players`` (of every member when the
    list is empty) that are player characters; an NPCized one is the GM's to post.  A post
    counts where ``reader`` may see it (the audience rule, :func:`_posted`).
    """
    return (await rounds_of_posts(session, campaign, [scene], now, reader))[0]


async def rounds_of_posts(
    session: AsyncSession,
    campaign: Campaign,
    scenes: Sequence[Scene],
    now: datetime | None = None,
    reader: Reader = EVERYONE,
) -> list[RoundView]:
    """:func:`round_of_posts` of several scenes of one campaign in five queries, whatever
    their number (a watch firing reads every open scene of the campaign)."""
    now = now or utcnow()
    if not scenes:
        return []
    campaign_id = saved_id(campaign)
    members = await _members(session, campaign_id)
    ids = [m.character_id for m in members]
    npcized = await _npcized(session, ids) if ids else frozenset()
    posted = await _posted(session, scenes, ids, reader) if ids else {}
    responsible = {
        campaign.gm_user_id if m.character_id in npcized else m.owner_id for m in members
    }
    today = local_today(now, campaign_time_zone(campaign))
    away = await _absent_until(session, campaign_id, responsible, today)
    hours = int(pace_settings(campaign)[PACE_DEADLINE])
    return build_rounds(scenes, members, npcized, posted, away, campaign.gm_user_id, hours)


async def open_rounds(
    session: AsyncSession, campaign: Campaign, now: datetime, reader: Reader = EVERYONE
) -> list[RoundView]:
    """The rounds of the campaign's open scenes (at most :data:`MAX_SCENES`) as ``reader``
    may know them (the GM's digest counts his secret posts; the channel's reminders not)."""
    scenes = (
        await session.exec(
            select(Scene)
            .where(Scene.campaign_id == campaign.id, Scene.status == "open")
            .order_by(col(Scene.id))
            .limit(MAX_SCENES)
        )
    ).all()
    return await rounds_of_posts(session, campaign, scenes, now, reader)


async def scene_round(
    session: AsyncSession, campaign: Campaign, place: Place, now: datetime | None = None
) -> RoundView:
    """The round of posts of the campaign's scene in this channel (``pace.error.no_scene``
    when the channel holds none)."""
    scene = (
        await session.exec(
            select(Scene).where(
                Scene.guild_id == place.guild_id,
                Scene.campaign_id == campaign.id,
                Scene.channel_id == place.channel_id,
            )
        )
    ).first()
    if scene is None:
        raise DomainError("pace.error.no_scene")
    return await round_of_posts(session, campaign, scene, now)
