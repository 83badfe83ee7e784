"""Pace of the play-by-post table: rounds of posts, posting reminders, the GM's digest,
absences and characters handed to the GM ("PNJtizar").

A scene's **round of posts** is everything after the GM's last post there
(``Scene.round_started_at``, set by the posting service; the scene's opening when the GM has
not posted yet).  Each character of the scene — its players' active characters, or the whole
party's when the scene names no players — has posted in it or is pending since the round began.

With the campaign setting ``plazo_publicacion`` (hours, 0 = off) a pending character is
reminded once per round when it has kept the scene waiting that long: its player, or the GM
while the character is NPCized; in the scene (a deliberate ping of that member only) or by
private message, as the member chose (``/pace reminders``); never while that member is absent.
The GM channel gets a digest of the scenes waiting and on whom every ``resumen_cada`` hours
from ``resumen_hora`` o'clock in the campaign's time zone (``zona_horaria``); absences'
days and an NPCization's return day are days of that zone too, typed through the shared
:func:`bot.formatting.parse_user_datetime` (stored times stay UTC).

Everything runs on durable timers (:mod:`bot.services.shared.timers`), so a restart loses nothing and
several processes never double a reminder:

* ``pace.watch`` (ref: campaign id) looks at the campaign's open scenes and returns the
  reminders due; the cog posts each with a nonce derived from *(scene, character, round)* —
  whichever process or attempt repeats it, Discord's ``enforce_nonce`` returns the first
  message — then :meth:`PaceService.record_reminder` writes the idempotent record that stops
  any later repeat, and the watch is moved to the next deadline (at most :data:`RECHECK`
  ahead: posts made meanwhile need no hook into this module);
* ``pace.digest`` (ref: campaign id) posts the digest, then moves itself to the next slot;
* ``pace.npc`` (ref: character id) gives an NPCized character back at its ``until``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, update
from sqlalchemy import select as sa_select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import (
    Absence,
    ActiveCharacter,
    Campaign,
    Character,
    Npcization,
    PaceMember,
    PaceReminder,
    Post,
    Scene,
    Timer,
    saved_id,
    utcnow,
)
from bot.formatting import (
    DEFAULT_TIME_ZONE,
    BadDateTime,
    format_date,
    parse_user_datetime,
    time_zone,
)
from bot.grammar import gender_of
from bot.i18n import LOCALES
from bot.services.campaigns.service import (
    DIGEST_EVERY,
    DIGEST_HOUR,
    PACE_DEADLINE,
    CampaignService,
    campaign_time_zone,
    is_referee,
    setting_specs,
)
from bot.services.campaigns.settings import resolved_settings
from bot.services.shared.audience import Reader, Secrecy, sight
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import ConcurrentChange, DomainError, NotReferee
from bot.services.shared.timers import Due, TimerService, cancel, schedule
from bot.services.sheets.access import find_character

__all__ = [
    "DIGEST_TIMER",
    "NPC_TIMER",
    "RECHECK",
    "WATCH_TIMER",
    "AbsenceView",
    "DigestView",
    "NpcView",
    "PaceService",
    "ReminderDue",
    "RoundEntry",
    "RoundView",
    "Watch",
    "parse_day",
    "round_of_posts",
    "rounds_of_posts",
]

WATCH_TIMER = "pace.watch"
DIGEST_TIMER = "pace.digest"
NPC_TIMER = "pace.npc"
#: The watch looks again at least this often: a round the GM started since is seen in time
#: for any deadline of a whole number of hours.
RECHECK = timedelta(hours=1)
REMIND_BY = ("scene", "dm")
MAX_ABSENCE_DAYS = 366
MAX_OPEN_ABSENCES = 20  # per member and campaign: a script cannot fill the table
MAX_NOTE = 200
MAX_AHEAD_DAYS = 3 * 366  # an absence or a return date at most this far ahead
MAX_SCENES = 200  # open scenes read per firing (a bound on the work of one timer)
#: The round's reader in the channel (status, header, reminders): anyone there.
EVERYONE = Reader.everyone()


# -- views ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One character of a scene in the current round of posts."""

    character_id: int
    name: str
    player_id: int  # who plays it
    responsible_id: int  # who must post: the player, or the GM while it is NPCized
    npcized: bool
    posted_at: datetime | None  # first post in this round; None: pending
    absent_until: date | None  # the responsible member is away (through this day)

    @property
    def pending(self) -> bool:
        return self.posted_at is None


@dataclass(frozen=True, slots=True)
class RoundView:
    scene_id: int
    title: str
    channel_id: int
    started_at: datetime  # the GM's last post, or the scene's opening
    gm_started: bool  # False: the GM has not posted in the scene yet
    entries: tuple[RoundEntry, ...]
    deadline_hours: int

    @property
    def pending(self) -> tuple[RoundEntry, ...]:
        return tuple(e for e in self.entries if e.pending)

    @property
    def round_key(self) -> int:
        return _key(self.started_at)


@dataclass(frozen=True, slots=True)
class ReminderDue:
    """A posting reminder to send now (and then record with :meth:`PaceService.record_reminder`)."""

    guild_id: int
    scene_id: int
    channel_id: int
    title: str
    character_id: int
    name: str
    user_id: int  # whom to ping or message
    npcized: bool
    round_key: int
    since: datetime
    hours: int
    by_dm: bool
    locale: str | None

    @property
    def nonce(self) -> str:
        """The same for every attempt at this reminder, whoever fires it (≤ 25 chars)."""
        return _nonce("r", self.scene_id, self.character_id, self.round_key)


@dataclass(frozen=True, slots=True)
class Watch:
    """What a ``pace.watch`` firing found: reminders to send, when to look again."""

    campaign_id: int
    guild_id: int
    reminders: tuple[ReminderDue, ...]
    next_at: datetime | None  # None: the campaign has no deadline any more


@dataclass(frozen=True, slots=True)
class AbsenceView:
    id: int
    user_id: int
    starts_on: date
    ends_on: date
    note: str | None
    cancelled: bool
    version: int


@dataclass(frozen=True, slots=True)
class DigestView:
    campaign_id: int
    guild_id: int
    campaign_name: str
    channel_id: int | None  # the GM channel (None: nowhere to post)
    locale: str | None
    scenes: tuple[RoundView, ...]  # open scenes with someone pending
    absences: tuple[AbsenceView, ...]  # current and upcoming
    slot: datetime  # this digest's time (names its nonce)
    next_at: datetime | None
    time_zone: str = DEFAULT_TIME_ZONE  # the campaign's: dates are shown in it

    @property
    def nonce(self) -> str:
        return _nonce("d", self.campaign_id, _key(self.slot))

    @property
    def empty(self) -> bool:
        return not self.scenes and not self.absences


@dataclass(frozen=True, slots=True)
class NpcView:
    """A character handed to the GM (or, from the timer, given back)."""

    character_id: int
    guild_id: int
    name: str
    player_user_id: int
    until: datetime | None
    gm_channel_id: int | None
    locale: str | None
    version: int
    time_zone: str = DEFAULT_TIME_ZONE  # the campaign's: the return is shown in it
    #: the character's grammatical gender: «queda PNJtizada» (neutral wording when unset)
    genero: str | None = None

    @property
    def nonce(self) -> str:
        return _nonce("n", self.character_id, self.version)


# -- helpers -------------------------------------------------------------------------------


def _aware(value: datetime) -> datetime:
    """Stored datetimes come back naive (UTC) from SQLite and ``timestamp`` columns."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _key(moment: datetime) -> int:
    return int(_aware(moment).timestamp() * 1000)


def _nonce(kind: str, *parts: int) -> str:
    """A Discord nonce (≤ 25 characters) naming one message whoever sends it."""
    digest = hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=10).hexdigest()
    return f"p{kind}{digest}"[:25]


def parse_day(text: str, locale: str, zone: str, *, now: datetime | None = None) -> date:
    """The day a member typed, in the campaign's ``zone``: whatever
    :func:`bot.formatting.parse_user_datetime` reads (``25/12/2026`` day first in Spanish,
    ``2026-12-25`` in both languages, ``mañana``…); a time typed with it is ignored.
    Anything else is refused with the shared translated error (``formats.date.*``)."""
    try:
        moment = parse_user_datetime(text, locale, zone, now=now)
    except BadDateTime as bad:
        raise DomainError(f"formats.date.{bad.reason}", text=text.strip()[:40]) from None
    return moment.astimezone(time_zone(zone)).date()


def local_today(now: datetime, zone: str) -> date:
    """The campaign's calendar day at ``now`` (absences are days of the campaign's zone)."""
    return _aware(now).astimezone(time_zone(zone)).date()


def pace_settings(campaign: Campaign) -> Mapping[str, Any]:
    return resolved_settings(setting_specs(campaign.system), campaign.settings)


def next_slot(
    now: datetime, hour: int, every_hours: int, zone: str = DEFAULT_TIME_ZONE
) -> datetime:
    """The first digest time after ``now``: ``hour`` o'clock in the campaign's ``zone`` plus
    whole intervals, counted on the zone's wall clock so that a daily digest stays at 09:00
    across a change of summer time (returned in UTC)."""
    tz = time_zone(zone)
    local = _aware(now).astimezone(tz).replace(tzinfo=None)
    base = datetime.combine(local.date(), time(hour))
    step = timedelta(hours=every_hours)
    slot = base + ((local - base) // step + 1) * step
    found = slot.replace(tzinfo=tz).astimezone(UTC)
    while found <= _aware(now):  # the repeated hour when the clocks go back
        slot += step
        found = slot.replace(tzinfo=tz).astimezone(UTC)
    return found


def _insert(session: AsyncSession) -> Any:
    return postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert


async def _ensure_timer(
    session: AsyncSession, kind: str, ref: str, guild_id: int, due_at: datetime
) -> None:
    """Create the ``(kind, ref)`` timer unless it exists (then it keeps its time and lease)."""
    statement = _insert(session)(Timer).values(
        kind=kind, ref=ref, guild_id=guild_id, due_at=due_at, generation=1, attempts=0
    )
    await session.exec(statement.on_conflict_do_nothing(index_elements=["kind", "ref"]))


def _absence_view(row: Absence) -> AbsenceView:
    return AbsenceView(
        saved_id(row),
        row.user_id,
        row.starts_on,
        row.ends_on,
        row.note,
        row.cancelled_at is not None,
        row.version,
    )


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
    counts where ``reader`` may see it (the audience rule): in the channel's status, header
    and reminders a GM-only post moves nobody (it would tell that a secret post was made).
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
    members = (
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
    ids = [character_id for _user, character_id, _name, _owner in members if character_id]
    npcized: set[int] = set()
    posted: dict[tuple[int, int], datetime] = {}
    if ids:
        npcized = set(
            (
                await session.exec(
                    select(Npcization.character_id).where(col(Npcization.character_id).in_(ids))
                )
            ).all()
        )
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
        for scene_id, character_id, at, audience, audience_user_id in rows:
            if scene_id is None or character_id is None:
                continue
            if sight(Secrecy.of(audience, audience_user_id, {}), reader) is None:
                continue  # a post this reader may not know of moves nobody for him
            key = (scene_id, character_id)
            posted[key] = min(posted.get(key, _aware(at)), _aware(at))
    responsible = {
        character_id: campaign.gm_user_id if character_id in npcized else owner
        for _user, character_id, _name, owner in members
        if character_id is not None
    }
    today = local_today(now, campaign_time_zone(campaign))
    away = await _absent_until(session, campaign_id, responsible.values(), today)
    hours = int(pace_settings(campaign)[PACE_DEADLINE])
    views = []
    for scene in scenes:
        scene_id = saved_id(scene)
        players = set(scene.players)
        entries = sorted(
            (
                RoundEntry(
                    character_id=character_id,
                    name=name,
                    player_id=owner,
                    responsible_id=responsible[character_id],
                    npcized=character_id in npcized,
                    posted_at=posted.get((scene_id, character_id)),
                    absent_until=away.get(responsible[character_id]),
                )
                for user, character_id, name, owner in members
                if character_id is not None and (not players or user in players)
            ),
            key=lambda e: (not e.pending, e.name.casefold()),
        )
        views.append(
            RoundView(
                scene_id=scene_id,
                title=scene.title,
                channel_id=scene.channel_id,
                started_at=_aware(scene.round_started_at or scene.created_at),
                gm_started=scene.round_started_at is not None,
                entries=tuple(entries),
                deadline_hours=hours,
            )
        )
    return views


# -- the service ---------------------------------------------------------------------------


class PaceService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        campaigns: CampaignService,
        timers: TimerService,
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns
        self.timers = timers

    # -- the round of posts ----------------------------------------------------------------

    async def status(self, place: Place, now: datetime | None = None) -> RoundView:
        """The round of posts of the scene this command was used in."""
        campaign = await self.campaigns.require(place)
        async with self.sessions() as session:
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

    # -- campaign timers -------------------------------------------------------------------

    async def sync_campaign(self, place: Place, now: datetime | None = None) -> None:
        """After the campaign's settings changed: start, move or stop its pace timers.

        The watch looks at once (reminders already sent are recorded, so looking again sends
        none twice); the digest moves to its next slot under the new hour and interval.
        """
        campaign = await self.campaigns.require(place)
        now = now or utcnow()
        await self._sync(campaign, now, move=True)
        self.timers.poke()

    async def _sync(self, campaign: Campaign, now: datetime, *, move: bool) -> None:
        settings = pace_settings(campaign)
        ref, guild = str(saved_id(campaign)), campaign.guild_id
        hours, every = int(settings[PACE_DEADLINE]), int(settings[DIGEST_EVERY])
        put = schedule if move else _ensure_timer
        async with self.sessions() as session, session.begin():
            if hours and campaign.status == "active":
                await put(session, WATCH_TIMER, ref, guild, now)
                if every:
                    zone = campaign_time_zone(campaign)
                    slot = next_slot(now, int(settings[DIGEST_HOUR]), every, zone)
                    await put(session, DIGEST_TIMER, ref, guild, slot)
                else:
                    await cancel(session, DIGEST_TIMER, ref)
            elif move:
                await cancel(session, WATCH_TIMER, ref)
                await cancel(session, DIGEST_TIMER, ref)

    async def ensure_timers(self, now: datetime | None = None) -> int:
        """At start-up: every active campaign with a deadline, in this process's guilds, has
        its watch and digest (a timer dropped after too many failures comes back); existing
        timers are left alone."""
        now = now or utcnow()
        async with self.sessions() as session:
            campaigns = (
                await session.exec(select(Campaign).where(Campaign.status == "active"))
            ).all()
        count = 0
        for campaign in campaigns:
            if not self.timers.shards.owns(campaign.guild_id):
                continue  # another process's guild: it ensures its own
            if int(pace_settings(campaign)[PACE_DEADLINE]):
                await self._sync(campaign, now, move=False)
                count += 1
        if count:
            self.timers.poke()
        return count

    async def _open_rounds(
        self, session: AsyncSession, campaign: Campaign, now: datetime, reader: Reader = EVERYONE
    ) -> list[RoundView]:
        scenes = (
            await session.exec(
                select(Scene)
                .where(Scene.campaign_id == campaign.id, Scene.status == "open")
                .order_by(col(Scene.id))
                .limit(MAX_SCENES)
            )
        ).all()
        return await rounds_of_posts(session, campaign, scenes, now, reader)

    async def watch(self, due: Due, now: datetime | None = None) -> Watch:
        """A ``pace.watch`` firing: the reminders due now, and when to look again."""
        now = now or utcnow()
        campaign_id = int(due.ref)
        async with self.sessions() as session:
            campaign = await session.get(Campaign, campaign_id)
            if campaign is None or campaign.status != "active":
                return Watch(campaign_id, due.guild_id, (), None)
            hours = int(pace_settings(campaign)[PACE_DEADLINE])
            if not hours:
                return Watch(campaign_id, due.guild_id, (), None)
            deadline = timedelta(hours=hours)
            rounds = await self._open_rounds(session, campaign, now)
            sent = set()
            if rounds:
                sent = {
                    (r.scene_id, r.character_id, r.round_key)
                    for r in (
                        await session.exec(
                            select(PaceReminder).where(
                                col(PaceReminder.scene_id).in_([r.scene_id for r in rounds]),
                                col(PaceReminder.round_key).in_({r.round_key for r in rounds}),
                            )
                        )
                    ).all()
                }
            found: list[tuple[RoundView, RoundEntry]] = []
            next_at = now + RECHECK
            for view in rounds:
                for entry in view.pending:
                    if (view.scene_id, entry.character_id, view.round_key) in sent:
                        continue
                    if entry.absent_until is not None:
                        continue  # looked at again after the absence (RECHECK)
                    at = view.started_at + deadline
                    if at <= now:
                        found.append((view, entry))
                    else:
                        next_at = min(next_at, at)
            prefs = await self._remind_by(
                session, campaign_id, [e.responsible_id for _, e in found]
            )
        reminders = tuple(
            ReminderDue(
                guild_id=campaign.guild_id,
                scene_id=view.scene_id,
                channel_id=view.channel_id,
                title=view.title,
                character_id=entry.character_id,
                name=entry.name,
                user_id=entry.responsible_id,
                npcized=entry.npcized,
                round_key=view.round_key,
                since=view.started_at,
                hours=hours,
                by_dm=prefs.get(entry.responsible_id) == "dm",
                locale=campaign.locale,
            )
            for view, entry in found
        )
        return Watch(campaign_id, campaign.guild_id, reminders, next_at)

    @staticmethod
    async def _remind_by(
        session: AsyncSession, campaign_id: int, users: list[int]
    ) -> dict[int, str]:
        if not users:
            return {}
        rows = (
            await session.exec(
                select(PaceMember).where(
                    PaceMember.campaign_id == campaign_id, col(PaceMember.user_id).in_(users)
                )
            )
        ).all()
        return {row.user_id: row.remind_by for row in rows}

    async def record_reminder(self, reminder: ReminderDue) -> bool:
        """The reminder went out: record it (idempotent; True if this call recorded it).

        Records of the character's earlier rounds in the scene go: only the current round's
        matters, so the table holds at most one row per character and scene.
        """
        async with self.sessions() as session, session.begin():
            await session.exec(
                delete(PaceReminder).where(
                    col(PaceReminder.scene_id) == reminder.scene_id,
                    col(PaceReminder.character_id) == reminder.character_id,
                    col(PaceReminder.round_key) < reminder.round_key,
                )
            )
            statement = _insert(session)(PaceReminder).values(
                guild_id=reminder.guild_id,
                scene_id=reminder.scene_id,
                character_id=reminder.character_id,
                round_key=reminder.round_key,
                user_id=reminder.user_id,
                sent_at=utcnow(),
            )
            result = await session.exec(
                statement.on_conflict_do_nothing(
                    index_elements=["scene_id", "character_id", "round_key"]
                )
            )
        return bool(result.rowcount)

    async def watch_again(self, watch: Watch) -> None:
        """Move the campaign's watch to its next look (after the firing's reminders)."""
        if watch.next_at is None:
            return  # the firing's record deletes the timer
        async with self.sessions() as session, session.begin():
            await schedule(
                session, WATCH_TIMER, str(watch.campaign_id), watch.guild_id, watch.next_at
            )
        self.timers.poke()

    async def digest(self, due: Due, now: datetime | None = None) -> DigestView | None:
        """A ``pace.digest`` firing: the open scenes waiting on someone, and the absences."""
        now = now or utcnow()
        async with self.sessions() as session:
            campaign = await session.get(Campaign, int(due.ref))
            if campaign is None or campaign.status != "active":
                return None
            settings = pace_settings(campaign)
            zone = campaign_time_zone(campaign)
            every = int(settings[DIGEST_EVERY])
            if not int(settings[PACE_DEADLINE]) or not every:
                return None
            rounds = [
                r for r in await self._open_rounds(session, campaign, now, Reader.gm()) if r.pending
            ]
            absences = (
                await session.exec(
                    select(Absence)
                    .where(
                        Absence.campaign_id == campaign.id,
                        col(Absence.cancelled_at).is_(None),
                        col(Absence.ends_on) >= local_today(now, zone),
                    )
                    .order_by(col(Absence.starts_on), col(Absence.id))
                    .limit(25)
                )
            ).all()
        return DigestView(
            campaign_id=saved_id(campaign),
            guild_id=campaign.guild_id,
            campaign_name=campaign.name,
            channel_id=campaign.gm_channel_id,
            locale=campaign.locale,
            scenes=tuple(rounds),
            absences=tuple(_absence_view(a) for a in absences),
            slot=_aware(due.due_at),
            next_at=next_slot(
                max(now, _aware(due.due_at)), int(settings[DIGEST_HOUR]), every, zone
            ),
            time_zone=zone,
        )

    async def digest_again(self, view: DigestView) -> None:
        """The digest went out (or had nothing to say): move the timer to the next slot."""
        if view.next_at is None:
            return
        async with self.sessions() as session, session.begin():
            await schedule(
                session, DIGEST_TIMER, str(view.campaign_id), view.guild_id, view.next_at
            )
        self.timers.poke()

    # -- absences ----------------------------------------------------------------------------

    async def declare_absence(
        self,
        place: Place,
        actor: Actor,
        starts: str,
        ends: str,
        note: str | None = None,
        *,
        locale: str | None = None,
        now: datetime | None = None,
    ) -> AbsenceView:
        """The member is away from ``starts`` through ``ends``: days typed in ``locale``
        (the member's; else the campaign's, else Spanish), days of the campaign's time zone."""
        campaign = await self.campaigns.require(place)
        now = now or utcnow()
        zone, locale = campaign_time_zone(campaign), locale or campaign.locale or LOCALES[0]
        today = local_today(now, zone)
        first = parse_day(starts, locale, zone, now=now)
        last = parse_day(ends, locale, zone, now=now)
        if last < first:
            raise DomainError(
                "pace.error.ends_before",
                starts=format_date(first, locale),
                ends=format_date(last, locale),
            )
        if last < today:
            raise DomainError("pace.error.in_the_past", ends=format_date(last, locale))
        if (last - first).days + 1 > MAX_ABSENCE_DAYS:
            raise DomainError("pace.error.too_long", limit=MAX_ABSENCE_DAYS)
        if (first - today).days > MAX_AHEAD_DAYS:
            raise DomainError("pace.error.too_far", limit=MAX_AHEAD_DAYS)
        text = (note or "").strip() or None
        if text is not None and len(text) > MAX_NOTE:
            raise DomainError("pace.error.note_too_long", limit=MAX_NOTE)
        async with self.sessions() as session, session.begin():
            open_count = (
                await session.exec(
                    select(func.count())
                    .select_from(Absence)
                    .where(
                        Absence.campaign_id == campaign.id,
                        Absence.user_id == actor.user_id,
                        col(Absence.cancelled_at).is_(None),
                        col(Absence.ends_on) >= today,
                    )
                )
            ).one()
            if open_count >= MAX_OPEN_ABSENCES:
                raise DomainError("pace.error.too_many", limit=MAX_OPEN_ABSENCES)
            row = Absence(
                guild_id=place.guild_id,
                campaign_id=saved_id(campaign),
                user_id=actor.user_id,
                starts_on=first,
                ends_on=last,
                note=text,
            )
            session.add(row)
            await session.flush()
            return _absence_view(row)

    async def absences(
        self, place: Place, actor: Actor, *, now: datetime | None = None
    ) -> tuple[tuple[AbsenceView, ...], bool]:
        """Current and upcoming absences (today: the campaign's day): the actor's own, or
        everyone's for a referee.  The flag says which (True: the whole campaign's)."""
        campaign = await self.campaigns.require(place)
        today = local_today(now or utcnow(), campaign_time_zone(campaign))
        everyone = is_referee(campaign, actor)
        query = select(Absence).where(
            Absence.campaign_id == campaign.id,
            col(Absence.cancelled_at).is_(None),
            col(Absence.ends_on) >= today,
        )
        if not everyone:
            query = query.where(Absence.user_id == actor.user_id)
        async with self.sessions() as session:
            rows = (
                await session.exec(
                    query.order_by(col(Absence.starts_on), col(Absence.id)).limit(25)
                )
            ).all()
        return tuple(_absence_view(r) for r in rows), everyone

    async def cancel_absence(self, place: Place, actor: Actor, absence_id: int) -> AbsenceView:
        """Cancel one absence: the member's own, or anyone's for a referee (versioned)."""
        campaign = await self.campaigns.require(place)
        async with self.sessions() as session, session.begin():
            row = await session.get(Absence, absence_id)
            if row is None or row.campaign_id != campaign.id or row.cancelled_at is not None:
                raise DomainError("pace.error.no_absence", id=absence_id)
            if row.user_id != actor.user_id and not is_referee(campaign, actor):
                raise DomainError("pace.error.not_yours")
            view = _absence_view(row)
            result = await session.exec(
                update(Absence)
                .where(col(Absence.id) == absence_id, col(Absence.version) == view.version)
                .values(cancelled_at=utcnow(), version=view.version + 1)
            )
            if result.rowcount != 1:
                raise ConcurrentChange()
        return AbsenceView(
            view.id, view.user_id, view.starts_on, view.ends_on, view.note, True, view.version + 1
        )

    async def absence_choices(self, place: Place, actor: Actor) -> tuple[AbsenceView, ...]:
        """For autocomplete: what this member may cancel."""
        try:
            views, _everyone = await self.absences(place, actor)
        except DomainError:
            return ()
        return views

    # -- reminder preference ----------------------------------------------------------------

    async def set_remind_by(self, place: Place, actor: Actor, where: str) -> str:
        """Where this member's posting reminders go in this campaign: the scene or a DM."""
        if where not in REMIND_BY:
            raise DomainError("pace.error.bad_where", value=where[:20])
        campaign = await self.campaigns.require(place)
        async with self.sessions() as session, session.begin():
            statement = _insert(session)(PaceMember).values(
                campaign_id=saved_id(campaign),
                user_id=actor.user_id,
                guild_id=place.guild_id,
                remind_by=where,
                version=1,
            )
            await session.exec(
                statement.on_conflict_do_update(
                    index_elements=["campaign_id", "user_id"],
                    set_={"remind_by": where, "version": PaceMember.version + 1},
                )
            )
        return where

    # -- NPCizing ----------------------------------------------------------------------------

    async def npcize(
        self,
        place: Place,
        actor: Actor,
        name: str,
        until: str | None = None,
        *,
        locale: str | None = None,
        now: datetime | None = None,
    ) -> NpcView:
        """GM: the character is the GM's to post until ``until`` (a day typed in ``locale``:
        it comes back at 00:00 that day in the campaign's time zone) or until
        ``/sheet unnpcize``.  Again on an NPCized character changes its return date."""
        campaign = await self.campaigns.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()
        now = now or utcnow()
        zone, locale = campaign_time_zone(campaign), locale or campaign.locale or LOCALES[0]
        back: datetime | None = None
        if until:
            day = parse_day(until, locale, zone, now=now)
            back = datetime.combine(day, time(0), tzinfo=time_zone(zone)).astimezone(UTC)
            if back <= now:
                raise DomainError("pace.error.in_the_past", ends=format_date(day, locale))
            if (day - local_today(now, zone)).days > MAX_AHEAD_DAYS:
                raise DomainError("pace.error.too_far", limit=MAX_AHEAD_DAYS)
        async with self.sessions() as session, session.begin():
            character = await find_character(session, campaign, actor, name)
            if character.is_npc:
                raise DomainError("pace.error.already_npc", name=character.name)
            character_id = saved_id(character)
            existing = await session.get(Npcization, character_id)
            if existing is None:
                row = Npcization(
                    character_id=character_id,
                    guild_id=place.guild_id,
                    campaign_id=saved_id(campaign),
                    player_user_id=character.owner_user_id,
                    by_user_id=actor.user_id,
                    until=back,
                )
                session.add(row)
                await session.flush()
                version = 1
            else:
                seen = existing.version
                result = await session.exec(
                    update(Npcization)
                    .where(
                        col(Npcization.character_id) == character_id,
                        col(Npcization.version) == seen,
                    )
                    .values(until=back, by_user_id=actor.user_id, version=seen + 1)
                )
                if result.rowcount != 1:
                    raise ConcurrentChange()
                version = seen + 1
            if back is not None:
                await schedule(session, NPC_TIMER, str(character_id), place.guild_id, back)
            else:
                await cancel(session, NPC_TIMER, str(character_id))
        self.timers.poke()
        return NpcView(
            character_id,
            place.guild_id,
            character.name,
            character.owner_user_id,
            back,
            campaign.gm_channel_id,
            campaign.locale,
            version,
            zone,
            genero=gender_of(character.sheet),
        )

    async def unnpcize(self, place: Place, actor: Actor, name: str) -> NpcView:
        """GM: give the character back to its player now."""
        campaign = await self.campaigns.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()
        async with self.sessions() as session, session.begin():
            character = await find_character(session, campaign, actor, name)
            character_id = saved_id(character)
            row = await session.get(Npcization, character_id)
            if row is None:
                raise DomainError(
                    "pace.error.not_npcized", name=character.name, genero=gender_of(character.sheet)
                )
            player, seen = row.player_user_id, row.version
            result = await session.exec(
                delete(Npcization).where(
                    col(Npcization.character_id) == character_id,
                    col(Npcization.version) == seen,
                )
            )
            if result.rowcount != 1:
                raise ConcurrentChange()
            await cancel(session, NPC_TIMER, str(character_id))
        return NpcView(
            character_id,
            place.guild_id,
            character.name,
            player,
            None,
            campaign.gm_channel_id,
            campaign.locale,
            seen,
            campaign_time_zone(campaign),
        )

    async def npc_due(self, due: Due, now: datetime | None = None) -> NpcView | None:
        """A ``pace.npc`` firing: the NPCization to end now (None: already ended or moved)."""
        now = now or utcnow()
        async with self.sessions() as session:
            row = await session.get(Npcization, int(due.ref))
            if row is None or row.until is None or _aware(row.until) > now:
                return None
            character = await session.get(Character, row.character_id)
            campaign = await session.get(Campaign, row.campaign_id)
        if character is None or campaign is None:
            return None
        return NpcView(
            row.character_id,
            row.guild_id,
            character.name,
            row.player_user_id,
            _aware(row.until),
            campaign.gm_channel_id,
            campaign.locale,
            row.version,
            campaign_time_zone(campaign),
        )

    async def give_back(self, view: NpcView) -> bool:
        """End the NPCization the timer announced, if it is still that version."""
        async with self.sessions() as session, session.begin():
            result = await session.exec(
                delete(Npcization).where(
                    col(Npcization.character_id) == view.character_id,
                    col(Npcization.version) == view.version,
                )
            )
        return bool(result.rowcount)
