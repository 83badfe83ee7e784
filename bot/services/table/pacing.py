"""The pacing rules of the play-by-post table, pure: no database, no Discord, no clock of
their own (``now`` is always given).

A scene's **round of posts** is everything after the GM's last post there; each character
of the scene has posted in it or is pending since the round began (:func:`build_rounds`).
A pending character is reminded once per round when it has kept the scene waiting
``plazo_publicacion`` hours, never while the member who must post is absent, and the watch
looks again at the next deadline, at most :data:`RECHECK` ahead (:func:`due_reminders`).
The GM's digest comes at ``resumen_hora`` o'clock plus whole ``resumen_cada`` intervals of
the campaign's wall clock (:func:`next_slot`).  Absences and an NPCization's return are days
of the campaign's time zone, typed the way :func:`parse_day` reads them; what a member may
declare is :func:`check_absence`, when a character comes back :func:`npc_return`.

:mod:`bot.services.table.pace_rounds` reads the facts these rules need from the database;
``tests/bot/test_pacing.py`` tests the rules without one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from bot.db.models import Absence, Scene, saved_id
from bot.db.types import as_utc
from bot.formatting import (
    DEFAULT_TIME_ZONE,
    BadDateTime,
    format_date,
    parse_user_datetime,
    time_zone,
)
from bot.services.shared.errors import DomainError

__all__ = [
    "MAX_ABSENCE_DAYS",
    "MAX_AHEAD_DAYS",
    "MAX_NOTE",
    "RECHECK",
    "DECLARE",
    "KINDS",
    "POST",
    "ROLL",
    "TURN",
    "AbsenceView",
    "DigestView",
    "Owed",
    "Member",
    "NpcView",
    "ReminderDue",
    "RoundEntry",
    "RoundView",
    "Watch",
    "absence_view",
    "build_rounds",
    "check_absence",
    "due_reminders",
    "local_today",
    "next_slot",
    "npc_return",
    "parse_day",
]

#: The watch looks again at least this often: a round the GM started since is seen in time
#: for any deadline of a whole number of hours.
RECHECK = timedelta(hours=1)
MAX_ABSENCE_DAYS = 366
MAX_NOTE = 200
MAX_AHEAD_DAYS = 3 * 366  # an absence or a return date at most this far ahead


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
    catch_up: bool = False  # a catch-up by private message on return (issue 25 §2)


#: What a member may owe the table (:mod:`bot.services.table.owed`), in the order shown.
POST, ROLL, TURN, DECLARE = "post", "roll", "turn", "declare"
KINDS = (POST, ROLL, TURN, DECLARE)


@dataclass(frozen=True, slots=True)
class Owed:
    """One thing a member owes the table."""

    kind: str  # POST, ROLL, TURN or DECLARE (KINDS)
    user_id: int  # who must act: the player, or the GM (an NPCized character, an NPC's turn)
    character: str  # the character (or NPC) it is owed for
    where: str  # the scene's title, the request's label, or the fight's round
    channel_id: int  # where to act
    since: datetime
    npcized: bool = False
    until: datetime | None = None  # a deadline of its own (a round of declarations)

    def order(self) -> tuple[int, datetime]:
        return KINDS.index(self.kind), self.since


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
    owed: tuple[Owed, ...] = ()  # who owes what, since when (posts, rolls, fight turns)

    @property
    def nonce(self) -> str:
        return _nonce("d", self.campaign_id, _key(self.slot))

    @property
    def empty(self) -> bool:
        return not self.scenes and not self.absences and not self.owed


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


def _key(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


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
    return as_utc(now).astimezone(time_zone(zone)).date()


def next_slot(
    now: datetime, hour: int, every_hours: int, zone: str = DEFAULT_TIME_ZONE
) -> datetime:
    """The first digest time after ``now``: ``hour`` o'clock in the campaign's ``zone`` plus
    whole intervals, counted on the zone's wall clock so that a daily digest stays at 09:00
    across a change of summer time (returned in UTC)."""
    tz = time_zone(zone)
    local = as_utc(now).astimezone(tz).replace(tzinfo=None)
    base = datetime.combine(local.date(), time(hour))
    step = timedelta(hours=every_hours)
    slot = base + ((local - base) // step + 1) * step
    found = slot.replace(tzinfo=tz).astimezone(UTC)
    while found <= as_utc(now):  # the repeated hour when the clocks go back
        slot += step
        found = slot.replace(tzinfo=tz).astimezone(UTC)
    return found


def absence_view(row: Absence) -> AbsenceView:
    return AbsenceView(
        saved_id(row),
        row.user_id,
        row.starts_on,
        row.ends_on,
        row.note,
        row.cancelled_at is not None,
        row.version,
        bool(row.catch_up),
    )


@dataclass(frozen=True, slots=True)
class Member:
    """A member's active player character in the campaign: who plays it (``user_id``, the
    member whose active character it is; ``owner_id``, its owner)."""

    user_id: int
    character_id: int
    name: str
    owner_id: int


def build_rounds(
    scenes: Sequence[Scene],
    members: Sequence[Member],
    npcized: frozenset[int],
    posted: Mapping[tuple[int, int], datetime],
    away: Mapping[int, date],
    gm_user_id: int,
    hours: int,
) -> list[RoundView]:
    """Each scene's current round: its characters — the active characters of its
    ``players`` (of every member when the list is empty) — posted (when: ``posted`` by scene
    and character) or pending since the round began; an NPCized one is the GM's to post,
    and ``away`` says through which day the member who must post is absent."""
    responsible = {
        m.character_id: gm_user_id if m.character_id in npcized else m.owner_id for m in members
    }
    views = []
    for scene in scenes:
        scene_id = saved_id(scene)
        players = set(scene.players)
        entries = sorted(
            (
                RoundEntry(
                    character_id=m.character_id,
                    name=m.name,
                    player_id=m.owner_id,
                    responsible_id=responsible[m.character_id],
                    npcized=m.character_id in npcized,
                    posted_at=posted.get((scene_id, m.character_id)),
                    absent_until=away.get(responsible[m.character_id]),
                )
                for m in members
                if not players or m.user_id in players
            ),
            key=lambda e: (not e.pending, e.name.casefold()),
        )
        views.append(
            RoundView(
                scene_id=scene_id,
                title=scene.title,
                channel_id=scene.channel_id,
                started_at=scene.round_started_at or scene.created_at,
                gm_started=scene.round_started_at is not None,
                entries=tuple(entries),
                deadline_hours=hours,
            )
        )
    return views


def due_reminders(
    rounds: Iterable[RoundView],
    sent: frozenset[tuple[int, int, int]],
    hours: int,
    now: datetime,
) -> tuple[list[tuple[RoundView, RoundEntry]], datetime]:
    """The pending characters to remind now (not reminded in this round yet — ``sent`` holds
    ``(scene, character, round)`` — whose member is not away, waiting ``hours`` or more),
    and when to look again: the next deadline, at most :data:`RECHECK` ahead (an absent
    member's is looked at again after the absence)."""
    deadline = timedelta(hours=hours)
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
    return found, next_at


def check_absence(
    first: date, last: date, today: date, note: str | None, locale: str
) -> str | None:
    """What an absence from ``first`` through ``last`` may be: not backwards, not over,
    not longer than :data:`MAX_ABSENCE_DAYS`, not starting more than :data:`MAX_AHEAD_DAYS`
    ahead; its note (stripped, None when empty) at most :data:`MAX_NOTE` characters."""
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
    return text


def npc_return(day: date, zone: str, now: datetime, locale: str) -> datetime:
    """When an NPCized character comes back: 00:00 of ``day`` in the campaign's ``zone``
    (in UTC), which must be ahead, and not more than :data:`MAX_AHEAD_DAYS` away."""
    back = datetime.combine(day, time(0), tzinfo=time_zone(zone)).astimezone(UTC)
    if back <= now:
        raise DomainError("pace.error.in_the_past", ends=format_date(day, locale))
    if (day - local_today(now, zone)).days > MAX_AHEAD_DAYS:
        raise DomainError("pace.error.too_far", limit=MAX_AHEAD_DAYS)
    return back
