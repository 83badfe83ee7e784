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

The rules are pure, in :mod:`bot.services.table.pacing` (tested without a database); the
round of posts is read by :mod:`bot.services.table.pace_rounds`; absences are
:mod:`bot.services.table.absences` and NPCizations :mod:`bot.services.table.npcization`.
:class:`PaceService` is the one entry point the cogs call.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import (
    Absence,
    Campaign,
    PaceMember,
    PaceReminder,
    Timer,
    saved_id,
    utcnow,
)
from bot.i18n import LOCALES
from bot.services.campaigns.service import (
    DIGEST_EVERY,
    DIGEST_HOUR,
    PACE_DEADLINE,
    CampaignService,
    campaign_time_zone,
    is_referee,
)
from bot.services.shared.audience import Reader
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotReferee
from bot.services.shared.timers import Due, TimerService, cancel, schedule
from bot.services.table import absences, npcization
from bot.services.table.absences import BACK_TIMER
from bot.services.table.catch_up import CatchUpView, catch_up
from bot.services.table.npcization import NPC_TIMER
from bot.services.table.owed import owed_in_campaign
from bot.services.table.pace_rounds import open_rounds, pace_settings, scene_round
from bot.services.table.pacing import (
    AbsenceView,
    DigestView,
    NpcView,
    ReminderDue,
    RoundView,
    Watch,
    absence_view,
    due_reminders,
    local_today,
    next_slot,
)

__all__ = ["BACK_TIMER", "DIGEST_TIMER", "NPC_TIMER", "WATCH_TIMER", "PaceService"]

WATCH_TIMER = "pace.watch"
DIGEST_TIMER = "pace.digest"
REMIND_BY = ("scene", "dm")


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


class PaceService:
    """The pace of the table (see the module docstring)."""

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
            return await scene_round(session, campaign, place, now)

    # -- campaign timers -------------------------------------------------------------------

    async def sync_campaign(self, place: Place, now: datetime | None = None) -> None:
        """After the campaign's settings changed: start, move or stop its pace timers.

        The watch looks at once (reminders already sent are recorded, so looking again sends
        none twice); the digest moves to its next slot under the new hour and interval.
        """
        await self.follow(await self.campaigns.require(place), now)

    async def follow(self, campaign: Campaign, now: datetime | None = None) -> None:
        """The campaign's pace timers follow its settings as written (:meth:`sync_campaign`;
        called by :meth:`CampaignService.update_settings` through ``follow_settings``)."""
        await self._sync(campaign, now or utcnow(), move=True)
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
            rounds = await open_rounds(session, campaign, now)
            sent = await self._sent(session, rounds)
            found, next_at = due_reminders(rounds, sent, hours, now)
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
    async def _sent(
        session: AsyncSession, rounds: list[RoundView]
    ) -> frozenset[tuple[int, int, int]]:
        """The reminders already recorded for these rounds: (scene, character, round)."""
        if not rounds:
            return frozenset()
        rows = await session.exec(
            select(PaceReminder).where(
                col(PaceReminder.scene_id).in_([r.scene_id for r in rounds]),
                col(PaceReminder.round_key).in_({r.round_key for r in rounds}),
            )
        )
        return frozenset((r.scene_id, r.character_id, r.round_key) for r in rows.all())

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
                r for r in await open_rounds(session, campaign, now, Reader.gm()) if r.pending
            ]
            owed = await owed_in_campaign(session, campaign, now, rounds)
            found = (
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
            absences=tuple(absence_view(a) for a in found),
            slot=due.due_at,
            next_at=next_slot(max(now, due.due_at), int(settings[DIGEST_HOUR]), every, zone),
            time_zone=zone,
            owed=owed,
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

    # -- absences (bot.services.table.absences) ---------------------------------------------

    async def declare_absence(
        self,
        place: Place,
        actor: Actor,
        starts: str,
        ends: str,
        note: str | None = None,
        *,
        catch_up: bool = False,
        locale: str | None = None,
        now: datetime | None = None,
    ) -> AbsenceView:
        """The member is away from ``starts`` through ``ends`` (:func:`.absences.declare_absence`);
        ``catch_up``: their catch-up by private message when they are back."""
        campaign = await self.campaigns.require(place)
        view = await absences.declare_absence(
            self.sessions,
            campaign,
            place,
            actor,
            (starts, ends),
            note,
            locale,
            now or utcnow(),
            catch_up,
        )
        if catch_up:
            self.timers.poke()
        return view

    async def absences(
        self, place: Place, actor: Actor, *, now: datetime | None = None
    ) -> tuple[tuple[AbsenceView, ...], bool]:
        """Current and upcoming absences: the actor's own, or everyone's for a referee (the
        flag says which)."""
        campaign = await self.campaigns.require(place)
        return await absences.list_absences(self.sessions, campaign, actor, now or utcnow())

    async def cancel_absence(self, place: Place, actor: Actor, absence_id: int) -> AbsenceView:
        """Cancel one absence: the member's own, or anyone's for a referee (versioned)."""
        campaign = await self.campaigns.require(place)
        return await absences.cancel_absence(self.sessions, campaign, actor, absence_id)

    async def absence_choices(self, place: Place, actor: Actor) -> tuple[AbsenceView, ...]:
        """For autocomplete: what this member may cancel."""
        try:
            views, _everyone = await self.absences(place, actor)
        except DomainError:
            return ()
        return views

    # -- catching up (bot.services.table.catch_up) -------------------------------------------

    async def catch_up(
        self,
        place: Place,
        actor: Actor,
        since: str | None = None,
        *,
        locale: str | None = None,
        now: datetime | None = None,
    ) -> CatchUpView:
        """``/catch-up``: what happened since the member's last post (or the day ``since``)."""
        campaign = await self.campaigns.require(place)
        async with self.sessions() as session:
            return await catch_up(
                session,
                campaign,
                actor.user_id,
                now or utcnow(),
                since_text=since,
                locale=locale or campaign.locale or LOCALES[0],
            )

    async def back(self, due: Due, now: datetime | None = None) -> CatchUpView | None:
        """A ``pace.back`` firing: the member's catch-up, if the absence still wants one."""
        async with self.sessions() as session:
            absence = await session.get(Absence, int(due.ref))
            if absence is None or absence.cancelled_at is not None or not absence.catch_up:
                return None
            campaign = await session.get(Campaign, absence.campaign_id)
            if campaign is None or campaign.status != "active":
                return None
            return await catch_up(session, campaign, absence.user_id, now or utcnow())

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

    # -- NPCizing (bot.services.table.npcization) --------------------------------------------

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
        """GM: the character is the GM's to post until ``until`` or until ``/sheet
        unnpcize`` (:func:`.npcization.npcize`)."""
        campaign = await self._referees(place, actor)
        view = await npcization.npcize(
            self.sessions, campaign, place, actor, name, until, locale, now or utcnow()
        )
        self.timers.poke()
        return view

    async def unnpcize(self, place: Place, actor: Actor, name: str) -> NpcView:
        """GM: give the character back to its player now."""
        campaign = await self._referees(place, actor)
        return await npcization.unnpcize(self.sessions, campaign, place, actor, name)

    async def npc_due(self, due: Due, now: datetime | None = None) -> NpcView | None:
        """A ``pace.npc`` firing: the NPCization to end now (None: already ended or moved)."""
        return await npcization.npc_due(self.sessions, due, now or utcnow())

    async def give_back(self, view: NpcView) -> bool:
        """End the NPCization the timer announced, if it is still that version."""
        return await npcization.give_back(self.sessions, view)

    async def _referees(self, place: Place, actor: Actor) -> Campaign:
        campaign = await self.campaigns.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()
        return campaign
