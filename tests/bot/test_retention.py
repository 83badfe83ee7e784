"""After the bot leaves a guild: data kept for the retention period, then purged, durably."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, inspect, select, text
from sqlmodel import SQLModel

from bot.config import Shards
from bot.db.models import (
    Character,
    GuildDeparture,
    PaceReminder,
    Post,
    PostMessage,
    PrivateThread,
    Reveal,
    Scene,
    SceneSpeaker,
    saved_id,
    utcnow,
)
from bot.services import Actor, Place
from bot.services.privacy.retention import PURGE_TIMER, RetentionService, guild_tables
from bot.services.shared.timers import Due, TimerService
from bot.services.sheets.profiles import ProfileChange
from tests.examples import ARDELIA
from tests.umbria_fixture import fixture_zip

GUILD, OTHER = 1000, 2000
HERE, THERE = Place(GUILD, 11, (11,)), Place(OTHER, 21, (21,))
GM, ANA = Actor(1, "Máster", can_manage_channels=True), Actor(2, "Ana")


@pytest.fixture
async def two_guilds(services):
    for place in (HERE, THERE):
        await services.campaigns.create(
            place, GM, name="Mesa", system="nucleo", target_id=place.channel_id, kind="channel"
        )
        await services.characters.create(place, ANA, json.loads(json.dumps(ARDELIA)))
        await services.xp.grant(place, GM, 2, character="Ardelia")
        await services.rolls.roll(place, ANA, "1o3d10")
        await services.creation.start(place, ANA, "Otra")
        await services.combat.start(place, GM)
        await services.combat.join(place, ANA)
        await services.combat.roll(place, GM)
        await services.combat.next(place, GM)
        await services.combat.set_deadline(place, GM, 24)  # a durable turn-reminder timer
        await _scene_with_a_post(services, place)
        await services.requests.create(place, GM, who="<@2>", option="habilidad:Pilotar")
        await _pace_rows(services, place)
        await _umbria_game(services, place)
    return services


async def _umbria_game(services, place: Place) -> None:
    """A Comunidad Umbría game imported beside the campaign, posted into Discord: its
    players, GM notes, post images and the posting job (issue 27)."""
    forum = place.channel_id + 500
    await services.chronicle.import_archive(
        Place(place.guild_id, forum, (forum,)),
        GM,
        fixture_zip(),
        target_id=forum,
        kind="forum",
        system="nucleo",
        publish="posts",
        parent_id=forum,
    )


async def _scene_with_a_post(services, place: Place) -> None:
    """Rows of the play-by-post tables (written directly: only their presence matters here)."""
    async with services.sessions() as session, session.begin():
        campaign_id = saved_id(await services.campaigns.require(place, session))
        scene = Scene(
            guild_id=place.guild_id,
            campaign_id=campaign_id,
            channel_id=place.channel_id + 1000,
            parent_id=place.channel_id,
            title="La posada",
            opened_by=GM.user_id,
        )
        session.add(scene)
        await session.flush()
        post = Post(
            guild_id=place.guild_id,
            campaign_id=campaign_id,
            channel_id=scene.channel_id,
            scene_id=saved_id(scene),
            author_user_id=ANA.user_id,
            speaker_name="Ardelia",
            text="Entro en la posada.",
            message_ids=[place.channel_id + 2000],
        )
        session.add(post)
        await session.flush()
        session.add(
            PostMessage(
                message_id=place.channel_id + 2000, guild_id=place.guild_id, post_id=saved_id(post)
            )
        )
        session.add(
            PrivateThread(
                guild_id=place.guild_id,
                campaign_id=campaign_id,
                player_user_id=ANA.user_id,
                gm_user_id=GM.user_id,
                parent_id=place.channel_id,
                thread_id=place.channel_id + 3000,
                members=sorted((ANA.user_id, GM.user_id)),
                member_key=",".join(map(str, sorted((ANA.user_id, GM.user_id)))),
            )
        )
    await services.profiles.update(place, ANA, "Ardelia", ProfileChange(concept="Piloto"))
    await services.proxy_tags.add(place, ANA, "Ardelia", "A:")  # typing mode (issue 24)
    await services.macros.add(place, ANA, "ataque", "1d20+5", character="Ardelia")
    async with services.sessions() as session, session.begin():
        character = (
            await session.exec(select(Character).where(Character.guild_id == place.guild_id))
        ).first()
        session.add(
            SceneSpeaker(
                scene_id=saved_id(scene),
                user_id=ANA.user_id,
                guild_id=place.guild_id,
                character_id=saved_id(character[0]),
            )
        )


async def _pace_rows(services, place: Place) -> None:
    """An absence, a reminder preference, an NPCized character and a reminder sent."""
    soon = (utcnow() + timedelta(days=7)).date().isoformat()
    await services.pace.declare_absence(place, ANA, soon, soon, "viaje")
    await services.pace.set_remind_by(place, ANA, "dm")
    await services.pace.npcize(place, GM, "Ardelia")
    async with services.sessions() as session, session.begin():
        scene = (await session.exec(select(Scene).where(Scene.guild_id == place.guild_id))).one()
        character = (
            await session.exec(select(Character).where(Character.guild_id == place.guild_id))
        ).first()
        session.add(
            PaceReminder(
                guild_id=place.guild_id,
                scene_id=saved_id(scene[0]),
                character_id=saved_id(character[0]),
                round_key=1,
                user_id=ANA.user_id,
            )
        )
        session.add(  # a revealed NPC (issue 22 §1): an event of the guild's too
            Reveal(
                guild_id=place.guild_id,
                campaign_id=character[0].campaign_id,
                character_id=saved_id(character[0]),
                by_user_id=GM.user_id,
            )
        )


async def rows_of(services, guild_id: int) -> dict[str, int]:
    async with services.sessions() as session:
        counts = {}
        for table in guild_tables():
            query = select(func.count()).select_from(table).where(table.c.guild_id == guild_id)
            counts[table.name] = (await session.exec(query)).one()[0]
        return counts


async def purge_due(retention: RetentionService, now=None, *, present=frozenset()) -> list[int]:
    """What the bot does when purge timers come due (cogs/privacy.py answers each with the
    guilds it is in): fire them on ``retention``'s timer service; the guilds purged."""
    purged: list[int] = []

    async def answer(due: Due) -> None:
        if await retention.on_timer(due, present):
            purged.append(int(due.ref))

    retention.timers.register(PURGE_TIMER, answer)
    await retention.timers.fire(now)
    return purged


def test_every_table_but_the_bookkeeping_is_scoped_by_guild():
    """A new table without guild_id would survive a purge: this test makes that a decision."""
    names = {t.name for t in guild_tables()}
    assert set(SQLModel.metadata.tables) - names == {"guild_departure"}
    assert {"campaign", "roll_log", "character", "xp_award", "combat"} <= names


async def test_the_retention_period_keeps_everything_and_a_return_cancels(two_guilds):
    s = two_guilds
    before = await rows_of(s, GUILD)
    assert all(before.values()), before
    purge_at = await s.retention.departed(GUILD)
    assert timedelta(days=29.9) < purge_at - utcnow() <= timedelta(days=30)
    assert await purge_due(s.retention) == []  # thirty days are not up
    # everything kept, plus the purge's own timer
    assert await rows_of(s, GUILD) == {**before, "timer": before["timer"] + 1}
    assert await s.retention.returned(GUILD) is True
    assert await purge_due(s.retention, utcnow() + timedelta(days=31)) == []
    assert await rows_of(s, GUILD) == before
    assert await s.retention.returned(GUILD) is False


async def test_after_the_period_the_guild_is_purged_and_only_that_guild(two_guilds):
    s = two_guilds
    other = await rows_of(s, OTHER)
    await s.retention.departed(GUILD)
    assert await purge_due(s.retention, utcnow() + timedelta(days=30, minutes=1)) == [GUILD]
    assert set((await rows_of(s, GUILD)).values()) == {0}
    assert await rows_of(s, OTHER) == other
    assert await s.retention.pending() == []
    # idempotent: again finds nothing to do
    assert await purge_due(s.retention, utcnow() + timedelta(days=60)) == []
    assert await s.retention.purge(GUILD, utcnow() + timedelta(days=60)) is False


async def test_a_second_removal_keeps_the_first_date(two_guilds):
    first = await two_guilds.retention.departed(GUILD, utcnow() - timedelta(days=10))
    again = await two_guilds.retention.departed(GUILD)
    assert again == first or abs((again - first).total_seconds()) < 1


async def test_a_guild_the_bot_is_in_is_never_purged(two_guilds):
    s = two_guilds
    before = await rows_of(s, GUILD)
    await s.retention.departed(GUILD, utcnow() - timedelta(days=40))
    assert await purge_due(s.retention, present={GUILD}) == []
    assert await rows_of(s, GUILD) == before
    assert await s.retention.pending() == []


async def test_the_departure_survives_a_restart(two_guilds, engine):
    from bot.app import Services

    await two_guilds.retention.departed(GUILD, utcnow() - timedelta(days=31))
    restarted = Services(engine, retention_days=30)  # a new process on the same database
    restarted.timers.register(PURGE_TIMER, lambda due: asyncio.sleep(0))
    assert await restarted.timers.next_wake() is not None
    assert await purge_due(restarted.retention) == [GUILD]
    assert set((await rows_of(restarted, GUILD)).values()) == {0}


async def test_two_purges_at_once_delete_once(two_guilds):
    s = two_guilds
    await s.retention.departed(GUILD, utcnow() - timedelta(days=31))
    other = RetentionService(s.sessions, 30, TimerService(s.sessions))
    results = await asyncio.gather(*(svc.purge(GUILD) for svc in (s.retention, other) * 3))
    assert results.count(True) == 1
    assert set((await rows_of(s, GUILD)).values()) == {0}


async def test_a_return_racing_the_purge_has_one_outcome(two_guilds):
    s = two_guilds
    await s.retention.departed(GUILD, utcnow() - timedelta(days=31))
    purged, returned = await asyncio.gather(s.retention.purge(GUILD), s.retention.returned(GUILD))
    assert purged != returned  # either purged, or the return cancelled it first
    counts = set((await rows_of(s, GUILD)).values())
    if purged:
        assert counts == {0}
    else:
        assert 0 not in counts  # everything kept
    assert await s.retention.pending() == []


async def test_zero_days_purges_at_once(services, engine):
    from bot.app import Services

    s = Services(engine, retention_days=0)
    await s.campaigns.create(HERE, GM, name="Mesa", system="nucleo", target_id=11, kind="channel")
    await s.retention.departed(GUILD)
    assert await purge_due(s.retention) == [GUILD]


async def test_the_departure_table_matches_the_model(engine):
    async with engine.connect() as connection:
        columns = await connection.run_sync(
            lambda c: {col["name"] for col in inspect(c).get_columns("guild_departure")}
        )
    assert columns == set(GuildDeparture.__table__.columns.keys())


async def test_the_purge_runs_on_the_timers_and_keeps_the_guilds_the_bot_is_in(two_guilds, engine):
    """The cog on the one scheduler: at start (``on_ready``) a guild the bot is back in loses
    its purge; a removal schedules a timer that the dispatcher fires, and the guild is purged."""
    from types import SimpleNamespace

    from bot.app import Services
    from cogs.privacy import PrivacyCog

    s = Services(engine, retention_days=0)
    await s.retention.departed(OTHER, utcnow() - timedelta(days=1))  # back while offline
    purged = asyncio.Event()
    original = s.retention.purge

    async def watched(guild_id, now=None):
        done = await original(guild_id, now)
        if done:
            purged.set()
        return done

    s.retention.purge = watched  # type: ignore[method-assign]
    bot = SimpleNamespace(services=s, guilds=[SimpleNamespace(id=OTHER)])
    cog = PrivacyCog(bot)  # type: ignore[arg-type]
    await cog.cog_load()
    await cog.on_ready()
    assert await s.retention.pending() == [] and await s.timers.next_wake() is None
    dispatcher = asyncio.create_task(s.timers.run())
    try:
        await cog.on_guild_remove(SimpleNamespace(id=GUILD))  # retention 0: due at once
        await asyncio.wait_for(purged.wait(), timeout=60)  # bounded; a loaded machine is slow
    finally:
        dispatcher.cancel()
    assert set((await rows_of(s, GUILD)).values()) == {0}
    assert 0 not in set((await rows_of(s, OTHER)).values())
    assert await s.retention.pending() == []


async def test_departures_before_the_timers_get_their_timer(engine):
    """Migration 0027: a departure recorded by the old purge loop is purged by a timer."""
    from alembic import command

    from bot.app import Services
    from bot.db.migrate import alembic_config, upgrade

    def downgrade(connection) -> None:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.downgrade(config, "0026")

    async with engine.begin() as connection:
        await connection.run_sync(downgrade)
    long_ago = (utcnow() - timedelta(days=40)).replace(tzinfo=None)  # a naive UTC column
    async with engine.begin() as connection:  # the table as revision 0026 has it
        await connection.execute(
            text("INSERT INTO guild_departure (guild_id, left_at, purge_at) VALUES (:g, :l, :p)"),
            {"g": GUILD, "l": long_ago, "p": long_ago + timedelta(days=30)},
        )
        await connection.execute(  # a purge main's batched loop had begun (its 1970 mark)
            text("INSERT INTO guild_departure (guild_id, left_at, purge_at) VALUES (:g, :l, :p)"),
            {"g": OTHER, "l": long_ago, "p": datetime(1970, 1, 1)},
        )
    await upgrade(engine)
    s = Services(engine, retention_days=30)
    begun = {d.guild_id: d.purge_begun for d in await s.retention.pending()}
    assert begun == {GUILD: False, OTHER: True}
    assert await s.retention.returned(OTHER) is False  # begun: a return no longer cancels it
    assert sorted(await purge_due(s.retention)) == sorted([GUILD, OTHER])
    assert await s.retention.pending() == []


async def test_each_shard_purges_only_its_own_guilds(services):
    """With several processes, only the one serving a guild's shard may decide its purge: it
    alone knows whether the bot is in the guild again (``present``)."""

    on_0, on_1 = 0 << 22, 1 << 22  # (guild_id >> 22) % 2: shard 0 and shard 1
    long_ago = utcnow() - timedelta(days=31)
    for guild_id in (on_0, on_1):
        await services.retention.departed(guild_id, long_ago)
    first = RetentionService(
        services.sessions, 30, TimerService(services.sessions, Shards(count=2, ids=(0,)))
    )
    second = RetentionService(
        services.sessions, 30, TimerService(services.sessions, Shards(count=2, ids=(1,)))
    )

    assert [d.guild_id for d in await first.pending()] == [on_0]
    assert [d.guild_id for d in await second.pending()] == [on_1]
    # shard 1's guild came back: the first process does not see it, and must not purge it
    assert await purge_due(first, present=set()) == [on_0]
    assert await purge_due(second, present={on_1}) == []
    async with services.sessions() as session:
        kept = (await session.exec(select(GuildDeparture.guild_id))).all()
    assert list(kept) == []  # on_1's departure was cancelled by its own process
    assert await first.timers.next_wake() is None and await second.timers.next_wake() is None


# -- in batches (issue 22 §2) --------------------------------------------------------------


async def test_a_purge_goes_in_batches_and_resumes_after_a_crash(two_guilds, monkeypatch):
    """A guild's rows are deleted a batch per transaction, never all in one that would hold
    the database from every other server; a purge cut half-way (here: a failure after the
    first tables) is finished by the next look, and the other guild is never touched."""
    from bot.services.privacy import retention

    s = two_guilds
    capitan = dict(json.loads(json.dumps(ARDELIA)), name="Capitán")
    await s.characters.create(HERE, GM, capitan, is_npc=True)
    await s.npcs.copies(HERE, GM, "Capitán", 3)  # copies point at their template
    await s.retention.departed(GUILD, utcnow() - timedelta(days=31))
    before = await rows_of(s, OTHER)
    real = retention.delete_in_batches
    calls = 0

    async def crashing(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        nonlocal calls
        calls += 1
        if calls == 4:
            raise RuntimeError("the process was killed")
        return await real(*args, **kwargs, batch=1)  # a row per transaction

    monkeypatch.setattr(retention, "delete_in_batches", crashing)
    with pytest.raises(RuntimeError):
        await s.retention.purge(GUILD)
    assert any(await rows_of(s, GUILD))  # half done
    # the bot comes back now: too late, the retention had run out and the purge had begun
    assert await s.retention.returned(GUILD) is False
    monkeypatch.setattr(retention, "delete_in_batches", real)
    assert await purge_due(s.retention) == [GUILD]
    assert set((await rows_of(s, GUILD)).values()) == {0}
    assert await rows_of(s, OTHER) == before
    assert await s.retention.pending() == []
