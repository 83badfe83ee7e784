"""Pace of the play-by-post table: rounds of posts, reminders, digest, absences, NPCizing.

Scenes and posts are written directly (a small helper): only their rows matter here.
"""

from __future__ import annotations

import asyncio
import copy
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, update
from sqlmodel import select

from bot.db.models import (
    Absence,
    Npcization,
    PaceMember,
    PaceReminder,
    Post,
    Scene,
    Timer,
    saved_id,
    utcnow,
)
from bot.services import Actor, Place
from bot.services.campaigns.service import SettingsChange
from bot.services.shared.errors import DomainError, NotReferee
from bot.services.shared.timers import Due, TimerService
from bot.services.table.pace import DIGEST_TIMER, NPC_TIMER, WATCH_TIMER, PaceService
from bot.services.table.pacing import RECHECK, next_slot, parse_day
from tests.examples import ARDELIA

HERE = Place(1000, 11, (11,))
SCENE_CHANNEL = 500
IN_SCENE = Place(1000, SCENE_CHANNEL, (SCENE_CHANNEL, 11))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA, BRUNO = Actor(2, "Ana"), Actor(3, "Bruno")
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def sheet(name: str) -> dict:
    data = copy.deepcopy(ARDELIA)
    data["name"] = name
    return data


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="Sombras", system="nucleo", target_id=11, kind="channel"
    )
    await services.characters.create(HERE, ANA, sheet("Ardelia"))
    await services.characters.create(HERE, BRUNO, sheet("Bertrán"))
    return services


async def setting(services, key: str, value: str) -> None:
    await services.campaigns.update_settings(HERE, GM, SettingsChange(system_setting=(key, value)))


async def new_scene(
    services,
    *,
    channel: int = SCENE_CHANNEL,
    players: list[int] | None = None,
    round_started_at: datetime | None = None,
    created_at: datetime = NOW - timedelta(days=3),
) -> int:
    async with services.sessions() as session, session.begin():
        campaign = await services.campaigns.require(HERE, session)
        scene = Scene(
            guild_id=HERE.guild_id,
            campaign_id=saved_id(campaign),
            channel_id=channel,
            parent_id=11,
            title="La posada",
            opened_by=GM.user_id,
            players=players or [],
            round_started_at=round_started_at,
            created_at=created_at,
        )
        session.add(scene)
        await session.flush()
        return saved_id(scene)


async def character_id(services, name: str) -> int:
    view = await services.characters.show(HERE, GM, name)
    return view.id


async def post(services, scene_id: int, author: Actor, name: str | None, at: datetime) -> None:
    """A post as ``name`` (None: the GM as narrator, which starts a new round)."""
    async with services.sessions() as session, session.begin():
        campaign = await services.campaigns.require(HERE, session)
        cid = await character_id(services, name) if name else None
        session.add(
            Post(
                guild_id=HERE.guild_id,
                campaign_id=saved_id(campaign),
                channel_id=SCENE_CHANNEL,
                scene_id=scene_id,
                author_user_id=author.user_id,
                character_id=cid,
                speaker_name=name or "Narrador",
                gm_post=name is None,
                text="…",
                created_at=at,
            )
        )
        if name is None:
            await session.exec(
                update(Scene).where(Scene.id == scene_id).values(round_started_at=at)
            )


def due_of(kind: str, ref: str, at: datetime, generation: int = 1) -> Due:
    return Due(1, kind, ref, HERE.guild_id, at, generation, 1)


async def campaign_id(services) -> int:
    return saved_id(await services.campaigns.require(HERE))


# -- the round of posts --------------------------------------------------------------------


async def test_the_round_is_who_posted_since_the_gms_last_post(table):
    s = table
    scene = await new_scene(s, round_started_at=NOW - timedelta(hours=10))
    await post(s, scene, ANA, "Ardelia", NOW - timedelta(hours=12))  # the previous round
    view = await s.pace.status(IN_SCENE, NOW)
    assert [(e.name, e.pending) for e in view.entries] == [("Ardelia", True), ("Bertrán", True)]
    assert view.started_at == NOW - timedelta(hours=10) and view.gm_started
    await post(s, scene, ANA, "Ardelia", NOW - timedelta(hours=2))
    view = await s.pace.status(IN_SCENE, NOW)
    assert [(e.name, e.pending) for e in view.entries] == [("Bertrán", True), ("Ardelia", False)]
    assert view.entries[1].posted_at == NOW - timedelta(hours=2)
    assert view.entries[0].responsible_id == BRUNO.user_id
    # the GM posts: a new round, everyone pending again
    await post(s, scene, GM, None, NOW - timedelta(hours=1))
    view = await s.pace.status(IN_SCENE, NOW)
    assert all(e.pending for e in view.entries) and view.started_at == NOW - timedelta(hours=1)


async def test_a_scene_for_some_players_and_a_scene_without_gm_posts(table):
    s = table
    opened = NOW - timedelta(days=1)
    await new_scene(s, players=[BRUNO.user_id], created_at=opened)
    view = await s.pace.status(IN_SCENE, NOW)
    assert [e.name for e in view.entries] == ["Bertrán"]
    assert view.started_at == opened and not view.gm_started


async def test_status_outside_a_scene_is_refused(table):
    with pytest.raises(DomainError) as refused:
        await table.pace.status(HERE, NOW)
    assert refused.value.key == "pace.error.no_scene"


async def test_deleted_posts_and_gm_only_npc_posts_do_not_count(table):
    s = table
    scene = await new_scene(s, round_started_at=NOW - timedelta(hours=5))
    await post(s, scene, ANA, "Ardelia", NOW - timedelta(hours=1))
    async with s.sessions() as session, session.begin():
        await session.exec(update(Post).values(deleted_at=utcnow()))
    view = await s.pace.status(IN_SCENE, NOW)
    assert all(e.pending for e in view.entries)


# -- dates and absences --------------------------------------------------------------------


def test_days_are_read_by_the_shared_parser_in_the_campaigns_zone():
    """One parser for typed dates (bot.formatting): day first in Spanish, month first in
    English, ISO in both; the day is the campaign's, so «mañana» late on 1 December in UTC
    is already 3 December in Madrid."""
    madrid = "Europe/Madrid"
    assert parse_day("25/12/2026", "es", madrid) == date(2026, 12, 25)
    assert parse_day(" 5-1-2027 ", "es", madrid) == date(2027, 1, 5)
    assert parse_day("05.01.2027", "es", madrid) == date(2027, 1, 5)
    assert parse_day("2027-01-05", "es", madrid) == date(2027, 1, 5)
    assert parse_day("2027-01-05", "en", madrid) == date(2027, 1, 5)
    assert parse_day("12/25/2026", "en", madrid) == date(2026, 12, 25)
    late = datetime(2026, 12, 1, 23, 30, tzinfo=UTC)  # 00:30 on 2 December in Madrid
    assert parse_day("mañana", "es", madrid, now=late) == date(2026, 12, 3)
    assert parse_day("mañana", "es", "America/Mexico_City", now=late) == date(2026, 12, 2)
    for bad, key in (
        ("ayer", "formats.date.format"),
        ("12/25/2026", "formats.date.date"),
        ("31/02/2027", "formats.date.date"),
        ("el lunes", "formats.date.format"),
    ):
        with pytest.raises(DomainError) as refused:
            parse_day(bad, "es", madrid)
        assert refused.value.key == key, bad


async def test_absences_are_validated_listed_and_cancelled(table):
    s = table
    for starts, ends, key in (
        ("10/12/2026", "05/12/2026", "pace.error.ends_before"),
        ("01/11/2026", "20/11/2026", "pace.error.in_the_past"),
        ("01/12/2026", "01/12/2028", "pace.error.too_long"),
        ("ayer", "01/12/2026", "formats.date.format"),
        ("01/12/2026", "31/02/2027", "formats.date.date"),
    ):
        with pytest.raises(DomainError) as refused:
            await s.pace.declare_absence(HERE, ANA, starts, ends, now=NOW)
        assert refused.value.key == key
    with pytest.raises(DomainError) as refused:
        await s.pace.declare_absence(HERE, ANA, "02/12/2026", "03/12/2026", "x" * 201, now=NOW)
    assert refused.value.key == "pace.error.note_too_long"
    away = await s.pace.declare_absence(
        HERE, ANA, "02/12/2026", "2026-12-09", " De viaje ", now=NOW
    )
    assert (away.starts_on, away.ends_on, away.note) == (
        date(2026, 12, 2),
        date(2026, 12, 9),
        "De viaje",
    )
    await s.pace.declare_absence(HERE, BRUNO, "01/12/2026", "01/12/2026", now=NOW)
    own, everyone = await s.pace.absences(HERE, ANA, now=NOW)
    assert [a.user_id for a in own] == [ANA.user_id] and not everyone
    every, everyone = await s.pace.absences(HERE, GM, now=NOW)
    assert {a.user_id for a in every} == {ANA.user_id, BRUNO.user_id} and everyone
    with pytest.raises(DomainError) as refused:
        await s.pace.cancel_absence(HERE, BRUNO, away.id)
    assert refused.value.key == "pace.error.not_yours"
    cancelled = await s.pace.cancel_absence(HERE, ANA, away.id)
    assert cancelled.cancelled
    with pytest.raises(DomainError) as refused:
        await s.pace.cancel_absence(HERE, ANA, away.id)
    assert refused.value.key == "pace.error.no_absence"
    assert [a.user_id for a in (await s.pace.absences(HERE, GM, now=NOW))[0]] == [3]


async def test_two_cancels_of_one_absence_at_once_cancel_it_once(table):
    s = table
    away = await s.pace.declare_absence(HERE, ANA, "02/12/2026", "03/12/2026", now=NOW)
    results = await asyncio.gather(
        s.pace.cancel_absence(HERE, ANA, away.id),
        s.pace.cancel_absence(HERE, GM, away.id),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1, results
    failure = next(r for r in results if isinstance(r, Exception))
    assert isinstance(failure, DomainError), failure  # ConcurrentChange, or already cancelled
    async with s.sessions() as session:
        row = await session.get(Absence, away.id)
        assert row is not None and row.version == 2


async def test_an_absence_cap_per_member(table):
    s = table
    for _ in range(20):
        await s.pace.declare_absence(HERE, ANA, "02/12/2026", "03/12/2026", now=NOW)
    with pytest.raises(DomainError) as refused:
        await s.pace.declare_absence(HERE, ANA, "02/12/2026", "03/12/2026", now=NOW)
    assert refused.value.key == "pace.error.too_many"


async def test_the_reminder_preference_is_stored_per_member(table):
    s = table
    assert await s.pace.set_remind_by(HERE, ANA, "dm") == "dm"
    assert await s.pace.set_remind_by(HERE, ANA, "scene") == "scene"
    await s.pace.set_remind_by(HERE, ANA, "dm")
    with pytest.raises(DomainError):
        await s.pace.set_remind_by(HERE, ANA, "paloma")
    async with s.sessions() as session:
        rows = (await session.exec(select(PaceMember))).all()
    assert [(r.user_id, r.remind_by, r.version) for r in rows] == [(ANA.user_id, "dm", 3)]


# -- timers: watch, reminders, digest --------------------------------------------------------


async def timers_of(services) -> dict[str, Timer]:
    async with services.sessions() as session:
        return {t.kind: t for t in (await session.exec(select(Timer))).all()}


async def test_the_deadline_setting_starts_and_stops_the_campaigns_timers(table):
    s = table
    await s.pace.sync_campaign(HERE, NOW)
    assert await timers_of(s) == {}, "no deadline: no timers"
    await setting(s, "plazo_publicacion", "24")
    await s.pace.sync_campaign(HERE, NOW)
    found = await timers_of(s)
    assert set(found) == {WATCH_TIMER, DIGEST_TIMER}
    slot = found[DIGEST_TIMER].due_at.replace(tzinfo=UTC)
    assert slot == datetime(2026, 12, 2, 8, 0, tzinfo=UTC), "09:00 in Madrid by default, daily"
    await setting(s, "resumen_cada", "0")
    await s.pace.sync_campaign(HERE, NOW)
    assert set(await timers_of(s)) == {WATCH_TIMER}
    # start-up finds it and leaves it alone
    assert await s.pace.ensure_timers(NOW + timedelta(hours=5)) == 1
    assert (await timers_of(s))[WATCH_TIMER].due_at.replace(tzinfo=UTC) == NOW
    await setting(s, "plazo_publicacion", "0")
    await s.pace.sync_campaign(HERE, NOW)
    assert await timers_of(s) == {}


def test_digest_slots():
    assert next_slot(NOW, 9, 24, "UTC") == datetime(2026, 12, 2, 9, tzinfo=UTC)
    assert next_slot(NOW, 13, 24, "UTC") == datetime(2026, 12, 1, 13, tzinfo=UTC)
    assert next_slot(NOW, 9, 12, "UTC") == datetime(2026, 12, 1, 21, tzinfo=UTC)
    assert next_slot(NOW, 12, 6, "UTC") == datetime(2026, 12, 1, 18, tzinfo=UTC), "strictly after"


def test_digest_slots_are_hours_of_the_campaigns_zone_across_summer_time():
    """``resumen_hora`` 9 is 09:00 on the campaign's clock: 08:00 UTC in a Madrid winter,
    07:00 UTC in its summer (clocks go forward on 29 March 2026, back on 25 October), and
    15:00 UTC in Mexico City (no summer time since 2022)."""
    madrid = "Europe/Madrid"
    assert next_slot(NOW, 9, 24, madrid) == datetime(2026, 12, 2, 8, tzinfo=UTC)
    before = datetime(2026, 3, 28, 10, tzinfo=UTC)  # Saturday, after that day's digest
    assert next_slot(before, 9, 24, madrid) == datetime(2026, 3, 29, 7, tzinfo=UTC)
    autumn = datetime(2026, 10, 24, 10, tzinfo=UTC)
    assert next_slot(autumn, 9, 24, madrid) == datetime(2026, 10, 25, 8, tzinfo=UTC)
    assert next_slot(NOW, 9, 24, "America/Mexico_City") == datetime(2026, 12, 1, 15, tzinfo=UTC)
    # every 12 h from 09:00 on the wall clock: 21:00 and 09:00 local, whatever the offset
    assert next_slot(before, 9, 12, madrid) == datetime(2026, 3, 28, 20, tzinfo=UTC)
    # the repeated hour when clocks go back: the slot is still strictly after now
    repeated = datetime(2026, 10, 25, 1, 30, tzinfo=UTC)  # 02:30 CET, the second time
    assert next_slot(repeated, 2, 24, madrid) > repeated


async def test_the_watch_reminds_each_pending_character_once_per_round(table):
    s = table
    await setting(s, "plazo_publicacion", "24")
    scene = await new_scene(s, round_started_at=NOW - timedelta(hours=30))
    await post(s, scene, BRUNO, "Bertrán", NOW - timedelta(hours=29))
    cid = await campaign_id(s)
    watch = await s.pace.watch(due_of(WATCH_TIMER, str(cid), NOW), NOW)
    assert [(r.name, r.user_id, r.by_dm) for r in watch.reminders] == [
        ("Ardelia", ANA.user_id, False)
    ]
    reminder = watch.reminders[0]
    assert reminder.hours == 24 and reminder.channel_id == SCENE_CHANNEL
    assert len(reminder.nonce) <= 25
    assert watch.next_at == NOW + RECHECK
    assert await s.pace.record_reminder(reminder) is True
    assert await s.pace.record_reminder(reminder) is False, "recording is idempotent"
    again = await s.pace.watch(due_of(WATCH_TIMER, str(cid), NOW, generation=2), NOW)
    assert again.reminders == (), "once per round"
    # a new round: the deadline counts from the GM's post
    await post(s, scene, GM, None, NOW - timedelta(hours=2))
    later = await s.pace.watch(due_of(WATCH_TIMER, str(cid), NOW), NOW)
    assert later.reminders == ()
    at = NOW + timedelta(hours=22)
    assert (await s.pace.watch(due_of(WATCH_TIMER, str(cid), at), at - RECHECK / 2)).next_at == at
    fired = await s.pace.watch(due_of(WATCH_TIMER, str(cid), at), at)
    assert sorted(r.name for r in fired.reminders) == ["Ardelia", "Bertrán"]
    assert fired.reminders[0].nonce != reminder.nonce, "a new round, a new message"
    for due in fired.reminders:
        await s.pace.record_reminder(due)
    async with s.sessions() as session:
        kept = (await session.exec(select(PaceReminder))).all()
    assert sorted(r.round_key for r in kept) == [fired.reminders[0].round_key] * 2, (
        "the previous round's record is dropped: one row per character and scene"
    )


async def test_an_absent_member_is_skipped_and_the_dm_preference_kept(table):
    s = table
    await setting(s, "plazo_publicacion", "12")
    await new_scene(s, round_started_at=NOW - timedelta(hours=13))
    await s.pace.declare_absence(HERE, ANA, "30/11/2026", "02/12/2026", now=NOW)
    await s.pace.set_remind_by(HERE, BRUNO, "dm")
    cid = await campaign_id(s)
    watch = await s.pace.watch(due_of(WATCH_TIMER, str(cid), NOW), NOW)
    assert [(r.name, r.by_dm) for r in watch.reminders] == [("Bertrán", True)]
    view = await s.pace.status(IN_SCENE, NOW)
    assert {e.name: e.absent_until for e in view.entries} == {
        "Ardelia": date(2026, 12, 2),
        "Bertrán": None,
    }
    # after the absence, still pending: reminded then
    back = NOW + timedelta(days=2)
    watch = await s.pace.watch(due_of(WATCH_TIMER, str(cid), back), back)
    assert sorted(r.name for r in watch.reminders) == ["Ardelia", "Bertrán"]


async def test_an_npcized_character_is_the_gms_to_post(table):
    s = table
    await setting(s, "plazo_publicacion", "12")
    await new_scene(s, round_started_at=NOW - timedelta(hours=13))
    with pytest.raises(NotReferee):
        await s.pace.npcize(HERE, ANA, "Ardelia", now=NOW)
    for bad in ("30/11/2026", "ayer"):
        with pytest.raises(DomainError):
            await s.pace.npcize(HERE, GM, "Ardelia", bad, now=NOW)
    npc = await s.pace.npcize(HERE, GM, "Ardelia", "05/12/2026", now=NOW)
    # 00:00 on 5 December in the campaign's zone (Europe/Madrid by default): 23:00 UTC
    assert npc.until == datetime(2026, 12, 4, 23, tzinfo=UTC) and npc.player_user_id == ANA.user_id
    assert NPC_TIMER in await timers_of(s)
    cid = await campaign_id(s)
    watch = await s.pace.watch(due_of(WATCH_TIMER, str(cid), NOW), NOW)
    assert {r.name: (r.user_id, r.npcized) for r in watch.reminders} == {
        "Ardelia": (GM.user_id, True),
        "Bertrán": (BRUNO.user_id, False),
    }
    # the GM's absence does not silence the player's own reminder
    view = await s.pace.status(IN_SCENE, NOW)
    assert [e.npcized for e in view.entries if e.name == "Ardelia"] == [True]
    # the timer gives it back, once, at the date
    due = due_of(NPC_TIMER, str(npc.character_id), npc.until)  # type: ignore[arg-type]
    assert await s.pace.npc_due(due, NOW) is None, "not yet"
    back = await s.pace.npc_due(due, npc.until + timedelta(seconds=1))  # type: ignore[operator]
    assert back is not None and back.name == "Ardelia"
    assert await s.pace.give_back(back) is True
    assert await s.pace.give_back(back) is False, "given back once"
    with pytest.raises(DomainError) as refused:
        await s.pace.unnpcize(HERE, GM, "Ardelia")
    assert refused.value.key == "pace.error.not_npcized"


async def test_unnpcize_gives_it_back_and_cancels_the_timer(table):
    s = table
    await s.pace.npcize(HERE, GM, "Bertrán", "2026-12-20", now=NOW)
    moved = await s.pace.npcize(HERE, GM, "Bertrán", "2026-12-24", now=NOW)
    assert moved.version == 2
    assert (await timers_of(s))[NPC_TIMER].due_at.replace(tzinfo=UTC) == datetime(
        2026, 12, 23, 23, tzinfo=UTC
    )
    await s.pace.unnpcize(HERE, GM, "Bertrán")
    assert NPC_TIMER not in await timers_of(s)
    async with s.sessions() as session:
        assert (await session.exec(select(func.count()).select_from(Npcization))).one() == 0


async def test_the_digest_lists_waiting_scenes_and_absences(table):
    s = table
    await setting(s, "plazo_publicacion", "24")
    scene = await new_scene(s, round_started_at=NOW - timedelta(hours=5))
    await new_scene(s, channel=501)  # a scene nobody posted in either
    await post(s, scene, ANA, "Ardelia", NOW - timedelta(hours=1))
    await s.pace.declare_absence(HERE, BRUNO, "03/12/2026", "04/12/2026", now=NOW)
    cid = await campaign_id(s)
    slot = datetime(2026, 12, 1, 8, tzinfo=UTC)
    view = await s.pace.digest(due_of(DIGEST_TIMER, str(cid), slot), NOW)
    assert view is not None
    assert [[e.name for e in r.pending] for r in view.scenes] == [
        ["Bertrán"],
        ["Ardelia", "Bertrán"],
    ]
    assert [a.user_id for a in view.absences] == [BRUNO.user_id]
    assert (
        view.next_at == datetime(2026, 12, 2, 8, tzinfo=UTC) and view.time_zone == "Europe/Madrid"
    )
    again = await s.pace.digest(due_of(DIGEST_TIMER, str(cid), slot, generation=7), NOW)
    assert again is not None and again.nonce == view.nonce, "a repeat of the slot: one message"
    await setting(s, "plazo_publicacion", "0")
    assert await s.pace.digest(due_of(DIGEST_TIMER, str(cid), slot), NOW) is None


async def test_two_dispatchers_racing_for_one_reminder_fire_it_once(table, engine):
    """Two processes (two TimerServices on one database) fire the due watch at once."""
    s = table
    await setting(s, "plazo_publicacion", "1")
    await new_scene(s, round_started_at=NOW - timedelta(hours=2))
    await s.pace.sync_campaign(HERE, NOW)
    sent: list[tuple[str, str, str]] = []

    def dispatcher(owner: str) -> TimerService:
        timers = TimerService(s.sessions, owner=owner)

        async def fire(due: Due) -> None:
            watch = await s.pace.watch(due)
            for reminder in watch.reminders:
                await asyncio.sleep(0)  # the post
                sent.append((owner, reminder.name, reminder.nonce))
                await s.pace.record_reminder(reminder)
            await s.pace.watch_again(watch)

        timers.register(WATCH_TIMER, fire)
        return timers

    first, second = dispatcher("a"), dispatcher("b")
    await asyncio.gather(first.fire(), second.fire())
    assert sorted(name for _, name, _ in sent) == ["Ardelia", "Bertrán"], sent
    assert len({owner for owner, _, _ in sent}) == 1, "one process claimed the watch"
    # the watch was moved (not deleted) to its next look, an hour on at most
    watch = (await timers_of(s))[WATCH_TIMER]
    assert watch.due_at.replace(tzinfo=UTC) <= utcnow() + RECHECK
    # both fire again later: nothing more (the reminders are recorded)
    later = utcnow() + RECHECK + timedelta(minutes=1)
    await asyncio.gather(first.fire(later), second.fire(later))
    assert len(sent) == 2


async def test_a_crash_between_post_and_record_repeats_with_the_same_nonce(table):
    """The first process posts and dies before recording: its successor's attempt carries
    the same nonce (Discord's enforce_nonce returns the first message)."""
    s = table
    await setting(s, "plazo_publicacion", "1")
    await new_scene(s, round_started_at=NOW - timedelta(hours=2))
    await s.pace.sync_campaign(HERE, NOW)
    cid = str(await campaign_id(s))
    first = await s.pace.watch(due_of(WATCH_TIMER, cid, NOW, generation=1), NOW)
    # nothing recorded; the timer was moved meanwhile (another generation fires it)
    second = await s.pace.watch(due_of(WATCH_TIMER, cid, NOW + timedelta(minutes=2), 2), NOW)
    assert [r.nonce for r in first.reminders] == [r.nonce for r in second.reminders]
    assert len(first.reminders) == 2


async def test_privacy_exports_and_erases_absences_and_preferences(table):
    s = table
    await s.pace.declare_absence(HERE, ANA, "02/12/2026", "03/12/2026", "boda", now=NOW)
    await s.pace.set_remind_by(HERE, ANA, "dm")
    await s.pace.npcize(HERE, GM, "Ardelia", now=NOW)
    document = await s.privacy.export(HERE.guild_id, ANA.user_id)
    assert [a["note"] for a in document["absences"]] == ["boda"]
    assert [p["remind_by"] for p in document["pace_preferences"]] == ["dm"]
    assert [n["character_id"] for n in document["npcized_characters"]] == [
        await character_id(s, "Ardelia")
    ]
    await s.privacy.delete(HERE.guild_id, ANA.user_id, characters="delete")
    async with s.sessions() as session:
        for model in (Absence, PaceMember, Npcization):
            count = (await session.exec(select(func.count()).select_from(model))).one()
            assert count == 0, model


def test_a_reminder_pings_its_member_only_and_the_digest_nobody():
    from bot.services.table.pacing import DigestView, ReminderDue
    from cogs.ui import render_pace

    due = ReminderDue(
        guild_id=1,
        scene_id=2,
        channel_id=3,
        title="@everyone <@&9>",
        character_id=4,
        name="<@5>",
        user_id=6,
        npcized=False,
        round_key=7,
        since=NOW,
        hours=24,
        by_dm=False,
        locale="es",
    )
    message = render_pace.reminder_scene(due, "es")
    allowed = message["allowed_mentions"].to_dict()
    assert allowed["parse"] == [] and allowed["users"] == [6]
    assert message["content"].startswith("⏰ <@6>")
    dm = render_pace.reminder_dm(due, "en")
    assert dm["allowed_mentions"].to_dict()["parse"] == []
    assert "https://discord.com/channels/1/3" in dm["content"]
    digest = render_pace.digest(DigestView(1, 1, "Sombras", 3, "es", (), (), NOW, None), "es")
    assert digest["allowed_mentions"].to_dict()["parse"] == []


async def test_the_pace_settings_show_their_names_in_spanish_and_english(table):
    """Names, never ids (issue 13): «Plazo para publicar (horas)», not ``plazo_publicacion``."""
    from bot.words import setting_name
    from cogs.ui import render

    assert setting_name("nucleo", "plazo_publicacion", "es") == "Plazo para publicar (horas)"
    assert setting_name("nucleo", "plazo_publicacion", "en") == "Posting deadline (hours)"
    await setting(table, "plazo_publicacion", "48")
    view = await table.campaigns.show(HERE)
    shown = render.campaign(view, "es")["embeds"][1].to_dict()["description"]
    assert "**Plazo para publicar (horas)**: 48 — cambiado; por defecto: 0" in shown
    assert "plazo_publicacion" not in shown
    with pytest.raises(DomainError):
        await setting(table, "plazo_publicacion", "721")


async def test_the_cog_falls_back_to_the_scene_when_a_dm_is_refused(table):
    """A member who chose DMs but closed them is reminded in the scene (same nonce)."""
    from types import SimpleNamespace

    import discord

    from bot.config import Shards
    from cogs.pace import PaceCog

    s = table
    await setting(s, "plazo_publicacion", "1")
    await new_scene(s, players=[BRUNO.user_id], round_started_at=NOW - timedelta(hours=2))
    await s.pace.set_remind_by(HERE, BRUNO, "dm")
    sent: list[tuple[str, str, dict]] = []

    class Place_:
        def __init__(self, where: str, refuse: bool = False) -> None:
            self.where, self.refuse = where, refuse

        async def send(self, content: str, *, allowed_mentions, nonce=None) -> None:
            if self.refuse:
                raise discord.Forbidden(SimpleNamespace(status=403, reason="closed"), "DMs closed")
            sent.append((self.where, nonce, allowed_mentions.to_dict()))

    async def fetch_user(user_id: int):
        return Place_("dm", refuse=True)

    bot = SimpleNamespace(
        services=s,
        config=SimpleNamespace(default_locale="es"),
        get_user=lambda user_id: None,
        fetch_user=fetch_user,
        get_channel=lambda channel_id: Place_("scene") if channel_id == SCENE_CHANNEL else None,
    )
    cog = PaceCog(bot)  # type: ignore[arg-type]
    cid = await campaign_id(s)
    watch = await s.pace.watch(due_of(WATCH_TIMER, str(cid), NOW), NOW)
    assert [r.by_dm for r in watch.reminders] == [True]
    await cog._watch(due_of(WATCH_TIMER, str(cid), utcnow()))
    assert [(where, nonce) for where, nonce, _ in sent] == [("scene", watch.reminders[0].nonce)]
    assert sent[0][2]["users"] == [BRUNO.user_id] and sent[0][2]["parse"] == []
    # recorded, and the watch moved on (not deleted)
    await cog._watch(due_of(WATCH_TIMER, str(cid), utcnow()))
    assert len(sent) == 1
    assert WATCH_TIMER in await timers_of(s)
    # a process serving other shards ensures nothing for this guild
    other = TimerService(s.sessions, Shards(count=2, ids=(1 - (HERE.guild_id >> 22) % 2,)))
    assert await PaceService(s.sessions, s.campaigns, other).ensure_timers() == 0
    assert await s.pace.ensure_timers() == 1


# -- the campaign's time zone (zona_horaria) --------------------------------------------------


async def test_the_digest_hour_follows_the_campaigns_zone_and_its_summer_time(table):
    """``resumen_hora`` is an hour of the campaign's clock: a Mexico City campaign gets its
    09:00 digest at 15:00 UTC; a Madrid one at 08:00 UTC in winter and, after the clocks go
    forward on 29 March 2026, at 07:00 UTC; changing the zone moves the timer."""
    s = table
    await setting(s, "plazo_publicacion", "24")
    await setting(s, "zona_horaria", "America/Mexico_City")
    await s.pace.sync_campaign(HERE, NOW)
    due = (await timers_of(s))[DIGEST_TIMER].due_at.replace(tzinfo=UTC)
    assert due == datetime(2026, 12, 1, 15, tzinfo=UTC)
    await setting(s, "zona_horaria", "Europe/Madrid")
    spring = datetime(2026, 3, 28, 10, tzinfo=UTC)
    await s.pace.sync_campaign(HERE, spring)
    due = (await timers_of(s))[DIGEST_TIMER].due_at.replace(tzinfo=UTC)
    assert due == datetime(2026, 3, 29, 7, tzinfo=UTC), "09:00 CEST"
    cid = await campaign_id(s)
    view = await s.pace.digest(due_of(DIGEST_TIMER, str(cid), due), due)
    assert view is not None and view.next_at == datetime(2026, 3, 30, 7, tzinfo=UTC)


async def test_absences_are_days_of_the_campaigns_zone(table):
    """At 03:00 UTC on 2 December it is still 1 December in Mexico City: an absence that
    ended on the 1st is not in the past there, and it is current (reminders stop)."""
    s = table
    await setting(s, "zona_horaria", "America/Mexico_City")
    early = datetime(2026, 12, 2, 3, tzinfo=UTC)  # 21:00 on 1 December in Mexico City
    away = await s.pace.declare_absence(HERE, ANA, "30/11/2026", "01/12/2026", now=early)
    assert (away.starts_on, away.ends_on) == (date(2026, 11, 30), date(2026, 12, 1))
    own, _everyone = await s.pace.absences(HERE, ANA, now=early)
    assert [a.id for a in own] == [away.id]
    await new_scene(s)
    view = await s.pace.status(IN_SCENE, early)
    assert [e.absent_until for e in view.entries if e.name == "Ardelia"] == [date(2026, 12, 1)]
    # in Madrid it is already 2 December: the same absence is over
    await setting(s, "zona_horaria", "Europe/Madrid")
    assert (await s.pace.absences(HERE, ANA, now=early))[0] == ()
    with pytest.raises(DomainError) as refused:
        await s.pace.declare_absence(HERE, ANA, "30/11/2026", "01/12/2026", now=early)
    assert refused.value.key == "pace.error.in_the_past"
    assert refused.value.params["ends"] == "01/12/2026"
    # English readers type month first; errors show their dates the same way
    with pytest.raises(DomainError) as refused:
        await s.pace.declare_absence(HERE, ANA, "12/10/2026", "12/05/2026", locale="en", now=NOW)
    assert refused.value.key == "pace.error.ends_before"
    assert (refused.value.params["starts"], refused.value.params["ends"]) == (
        "12/10/2026",
        "12/05/2026",
    )


async def test_an_npcized_character_comes_back_at_midnight_of_the_campaigns_zone(table):
    """«hasta 05/12/2026» is 00:00 on the 5th on the campaign's clock (06:00 UTC in Mexico
    City); the reply is a Discord timestamp of that moment, which each reader's client shows in
    their own zone (issue 23 §6): 00:00 in Mexico City, 07:00 in Madrid."""
    from cogs.ui import render_pace

    s = table
    await setting(s, "zona_horaria", "America/Mexico_City")
    npc = await s.pace.npcize(HERE, GM, "Ardelia", "05/12/2026", now=NOW)
    assert npc.until == datetime(2026, 12, 5, 6, tzinfo=UTC)
    assert (await timers_of(s))[NPC_TIMER].due_at.replace(tzinfo=UTC) == npc.until
    shown = render_pace.npcized(npc, "es")
    stamp = f"<t:{int(npc.until.timestamp())}:f>"
    assert f"(el {stamp})" in shown and "UTC" not in shown
    assert f"(on {stamp})" in render_pace.npcized(npc, "en")
    # across summer time in Madrid: 00:00 CEST on 1 April is 22:00 UTC on 31 March
    await setting(s, "zona_horaria", "Europe/Madrid")
    spring = datetime(2027, 3, 20, 12, tzinfo=UTC)
    moved = await s.pace.npcize(HERE, GM, "Ardelia", "2027-04-01", now=spring)
    assert moved.until == datetime(2027, 3, 31, 22, tzinfo=UTC)
    # a day already begun in the campaign's zone is refused, shown the reader's way
    with pytest.raises(DomainError) as refused:
        await s.pace.npcize(HERE, GM, "Ardelia", "2027-03-20", locale="en", now=spring)
    assert refused.value.key == "pace.error.in_the_past"
    assert refused.value.params["ends"] == "03/20/2027"
