"""``/campaign stats``: the table's activity at a glance (issue 25 §3).

What it shows: posts per player and per week, the median time each player takes to answer
the GM (:mod:`bot.services.table.stats_data`), the scenes waiting and on whom (the pace's
rounds, :mod:`bot.services.table.pace_rounds`), and each character's dice luck — the mean
percentile of its rolls, each within its own expression's distribution
(:mod:`rules.dice.luck`) — as a PNG chart drawn in the worker process
(:mod:`bot.services.table.stats_chart`) plus the same facts as text for screen readers.

Who sees what: the GM reads everything.  With the campaign setting
``estadisticas_jugadores`` a player reads the **players' version**, and the GM can post that
version in the channel (``public``): every post and roll-log row goes through the one audience
rule (:mod:`bot.services.shared.audience`) with everyone in the campaign as the reader — no
GM-only post, no private roll, no roll whose total a hidden NPC or a hidden request seals
(until the NPC is revealed) — and no post of a private scene nor any roll of a hidden NPC.

Bounds, fixed before any work starts: the last :data:`~.stats_data.MAX_WEEKS` weeks, at
most :data:`MAX_POSTS` posts and :data:`MAX_ROLLS` rolls read (the newest), the luck's
distinct expressions within :func:`rules.dice.luck.affordable`'s budget, one job in the
worker's bounded queue (``ComputeBusy`` when it is full).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.compute import ComputePool
from bot.db.models import Campaign, Character, Post, RollLog, Scene, saved_id, utcnow
from bot.formatting import time_zone
from bot.i18n import t
from bot.services.campaigns.service import (
    PLAYER_STATS,
    CampaignService,
    campaign_time_zone,
    is_referee,
)
from bot.services.shared.audience import Part, Reader, Reveals, Secrecy, sight
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import NotReferee
from bot.services.shared.reveals import reveals_of
from bot.services.table.pace_rounds import open_rounds, pace_settings
from bot.services.table.pacing import RoundView
from bot.services.table.stats_chart import ChartInput, StatsResult, stats_job
from bot.services.table.stats_data import (
    MAX_WEEKS,
    PlayerActivity,
    PostFact,
    activity,
    weeks_until,
)
from rules import systems
from rules.dice.luck import Luck, LuckRoll, affordable
from rules.systems.base import capabilities

__all__ = ["MAX_POSTS", "MAX_ROLLS", "StatsService", "StatsView"]

MAX_POSTS = 20_000
MAX_ROLLS = 5_000
#: Audit kinds that are not dice rolls (grants, undos, a GM's damage typed by hand…).
_NOT_ROLLS = ("xp", "undo", "damage", "heal", "effect", "approval", "transfer", "claim")


@dataclass(frozen=True, slots=True)
class StatsView:
    """What ``/campaign stats`` shows one reader (``for_players``: the players' version)."""

    campaign_name: str
    for_players: bool
    since: datetime
    weeks: tuple[datetime, ...]  # each week's Monday at 00:00 in the campaign's zone
    players: tuple[PlayerActivity, ...]
    names: Mapping[int, str]  # player id → the name the chart and the summary use
    waiting: tuple[RoundView, ...]
    luck: tuple[Luck, ...]
    chart: bytes
    time_zone: str


class StatsService:
    """``/campaign stats`` (module docstring)."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        campaigns: CampaignService,
        compute: ComputePool,
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns
        self.compute = compute

    async def campaign_stats(
        self,
        place: Place,
        actor: Actor,
        *,
        locale: str,
        public: bool = False,
        names: Mapping[int, str] | None = None,
        started: Callable[[], Awaitable[None]] | None = None,
        now: datetime | None = None,
    ) -> StatsView:
        """The stats for this member: the GM's (all of it), or the players' version when the
        member is a player (and the campaign allows it) or the GM asks for the public one.
        ``names``: display names the caller knows (the guild's cached members); ``started``
        is awaited once the request is accepted, before the slow part."""
        now = now or utcnow()
        campaign = await self.campaigns.require(place)
        referee = is_referee(campaign, actor)
        if not referee and not pace_settings(campaign).get(PLAYER_STATS):
            raise NotReferee()
        for_players = public or not referee
        zone = campaign_time_zone(campaign)
        weeks = weeks_until(now, zone)
        since = datetime.combine(weeks[0], time(), time_zone(zone))
        async with self.sessions() as session:
            facts = await _read(session, campaign, since, now, for_players)
        players = activity(facts.posts, weeks, zone)
        known = {**facts.names, **(names or {})}
        chosen = {p.user_id: known.get(p.user_id) or p.speakers[0] for p in players}
        expressions = affordable(roll.expression for roll in facts.rolls)
        chart = _chart_input(campaign, players, chosen, weeks, locale)
        if started is not None:
            await started()
        job = self.compute.submit(stats_job, facts.rolls, expressions, chart)
        result: StatsResult = await job
        return StatsView(
            campaign_name=campaign.name,
            for_players=for_players,
            since=since,
            weeks=tuple(datetime.combine(w, time(), time_zone(zone)) for w in weeks),
            players=players,
            names=chosen,
            waiting=facts.waiting,
            luck=result.luck,
            chart=result.png,
            time_zone=zone,
        )


@dataclass(frozen=True, slots=True)
class _Facts:
    posts: tuple[PostFact, ...]
    rolls: tuple[LuckRoll, ...]
    names: dict[int, str]
    waiting: tuple[RoundView, ...]


async def _read(
    session: AsyncSession, campaign: Campaign, since: datetime, now: datetime, for_players: bool
) -> _Facts:
    """The rows the stats are made of, as their reader may see them (module docstring)."""
    reader = Reader.everyone() if for_players else Reader.gm()
    private = await _private_scenes(session, campaign) if for_players else frozenset()
    hidden = await _hidden_npcs(session, campaign) if for_players else frozenset()
    reveals = await reveals_of(session, saved_id(campaign))
    rounds = [r for r in await open_rounds(session, campaign, now, reader) if r.pending]
    return _Facts(
        posts=await _posts(session, campaign, since, _Sight(reader, reveals), private),
        rolls=await _rolls(session, campaign, since, _Sight(reader, reveals), hidden),
        names=await _user_names(session, campaign),
        waiting=tuple(r for r in rounds if r.scene_id not in private),
    )


@dataclass(frozen=True, slots=True)
class _Sight:
    """The reader and the campaign's reveals: what :func:`sight` needs for each row."""

    reader: Reader
    reveals: Reveals

    def of(self, row: Post | RollLog) -> Part | None:
        """``None``: the reader may not see the row; else a part the row shows (its
        total for a roll, the record for a post) or ``Part.RECORD`` when that is sealed."""
        seen = sight(
            Secrecy.of_row(row), self.reader, written_at=row.created_at, reveals=self.reveals
        )
        if seen is None:
            return None
        return Part.TOTAL if seen.shows(Part.TOTAL) else Part.RECORD


async def _private_scenes(session: AsyncSession, campaign: Campaign) -> frozenset[int]:
    found = await session.exec(
        select(Scene.id).where(Scene.campaign_id == campaign.id, col(Scene.private).is_(True))
    )
    return frozenset(i for i in found.all() if i is not None)


async def _hidden_npcs(session: AsyncSession, campaign: Campaign) -> frozenset[str]:
    found = await session.exec(
        select(Character.name).where(
            Character.campaign_id == campaign.id,
            col(Character.is_npc).is_(True),
            col(Character.hidden).is_(True),
        )
    )
    return frozenset(found.all())


async def _posts(
    session: AsyncSession,
    campaign: Campaign,
    since: datetime,
    seen: _Sight,
    private: frozenset[int],
) -> tuple[PostFact, ...]:
    """The newest :data:`MAX_POSTS` posts since ``since`` the reader may see, oldest first."""
    query = select(Post).where(
        Post.campaign_id == campaign.id,
        col(Post.deleted_at).is_(None),
        col(Post.created_at) >= since,
    )
    rows = (await session.exec(query.order_by(col(Post.created_at).desc()).limit(MAX_POSTS))).all()
    return tuple(
        PostFact(p.author_user_id, p.scene_id, p.created_at, p.gm_post, p.speaker_name)
        for p in reversed(rows)
        if p.scene_id not in private
        and (p.gm_post or p.character_id is not None)
        and seen.of(p) is not None
    )


async def _rolls(
    session: AsyncSession,
    campaign: Campaign,
    since: datetime,
    seen: _Sight,
    hidden: frozenset[str],
) -> tuple[LuckRoll, ...]:
    """The newest :data:`MAX_ROLLS` dice rolls of characters the reader may see, with a
    total the reader may read (a sealed total is not placed: it would bound the secret)."""
    query = select(RollLog).where(
        RollLog.campaign_id == campaign.id,
        col(RollLog.created_at) >= since,
        col(RollLog.character_name).is_not(None),
        col(RollLog.kind).not_in(_NOT_ROLLS),
    )
    rows = (await session.exec(query.order_by(col(RollLog.id).desc()).limit(MAX_ROLLS))).all()
    under = capabilities(systems.get(campaign.system)).roll_under is not None
    return tuple(
        LuckRoll(
            str(row.character_name),
            row.expression,
            row.total,
            under and row.difficulty is not None,
        )
        for row in reversed(rows)
        if row.character_name and row.character_name not in hidden and seen.of(row) is Part.TOTAL
    )


async def _user_names(session: AsyncSession, campaign: Campaign) -> dict[int, str]:
    """Each member's name as last seen by the bot (the roll log keeps it with every roll)."""
    rows = await session.exec(
        select(RollLog.user_id, RollLog.user_name)
        .where(RollLog.campaign_id == campaign.id)
        .order_by(col(RollLog.id).desc())
        .limit(MAX_ROLLS)
    )
    names: dict[int, str] = {}
    for user_id, name in rows.all():
        names.setdefault(user_id, name)
    return names


def _chart_input(
    campaign: Campaign,
    players: Sequence[PlayerActivity],
    names: Mapping[int, str],
    weeks: Sequence[date],
    locale: str,
) -> ChartInput:
    """The chart's data and labels, in the reader's language."""
    return ChartInput(
        title=t("stats.chart.title", locale, campaign=campaign.name),
        weeks=tuple(_week_label(week, locale) for week in weeks),
        players=tuple((names[p.user_id], p.per_week) for p in players),
        answers=tuple(
            (names[p.user_id], p.median_answer / timedelta(hours=1))
            for p in players
            if p.median_answer is not None
        ),
        posts_title=t("stats.chart.posts", locale, weeks=MAX_WEEKS),
        answers_title=t("stats.chart.answers", locale),
        answers_axis=t("stats.chart.hours", locale),
        luck_title=t("stats.chart.luck", locale),
        luck_axis=t("stats.chart.percentile", locale),
        nothing=t("stats.chart.nothing", locale),
    )


def _week_label(week: date, locale: str) -> str:
    """A week by its Monday, day first in Spanish (``07/12``), month first in English."""
    if locale == "es":
        return f"{week.day:02d}/{week.month:02d}"
    return f"{week.month:02d}/{week.day:02d}"
