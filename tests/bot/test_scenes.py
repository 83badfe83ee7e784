"""Scenes on real databases (SQLite and PostgreSQL): open, close, reopen, list, header,
summary, threads opened by hand, the off-topic channel, and concurrent close/reopen."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from sqlmodel import select

from bot.db.models import Character, Post, RollLog, Scene, utcnow
from bot.services import Actor, Place
from bot.services.campaigns.service import SettingsChange
from bot.services.shared.errors import DomainError, InvalidSetting, NotReferee
from bot.services.table.scenes import parse_players
from tests.examples import ARDELIA

GUILD, CHANNEL, CATEGORY = 1000, 11, 90
THREAD, OTHER_THREAD, OFF_TOPIC = 5001, 5002, 12
TABLE = Place(GUILD, CHANNEL, (CHANNEL, CATEGORY))
IN_THREAD = Place(GUILD, THREAD, (THREAD, CHANNEL, CATEGORY))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")
ANA_ID = 200000000000000002


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        TABLE, GM, name="Umbría", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(TABLE, ANA, json.loads(json.dumps(ARDELIA)))
    await services.characters.create(
        TABLE, BRUNO, dict(json.loads(json.dumps(ARDELIA)), name="Bram")
    )
    return services


async def opened(services, *, players="", private=False, thread=THREAD):
    plan = await services.scenes.plan_open(TABLE, GM, title="  La  posada ", players=players)
    return await services.scenes.record_open(
        TABLE, GM, plan, channel_id=thread, parent_id=CHANNEL, private=private
    )


def test_players_are_mentions_or_ids():
    assert parse_players(f"<@{ANA_ID}>, <@!{ANA_ID + 1}> {ANA_ID + 2}") == (
        ANA_ID,
        ANA_ID + 1,
        ANA_ID + 2,
    )
    assert parse_players(None) == () and parse_players("  ") == ()
    with pytest.raises(DomainError) as error:
        parse_players(f"<@{ANA_ID}> ana")
    assert error.value.key == "scene.error.bad_players"
    many = " ".join(f"<@{ANA_ID + i}>" for i in range(26))
    with pytest.raises(DomainError) as error:
        parse_players(many)
    assert error.value.key == "scene.error.too_many_players"


async def test_only_the_referee_opens_and_the_title_is_checked(table):
    with pytest.raises(NotReferee):
        await table.scenes.plan_open(TABLE, ANA, title="Escena")
    with pytest.raises(DomainError) as error:
        await table.scenes.plan_open(TABLE, GM, title="x" * 101)
    assert error.value.key == "scene.error.bad_title"
    with pytest.raises(DomainError) as error:
        await table.scenes.plan_open(TABLE, GM, title="Escena", tags="a" * 21)
    assert error.value.key == "scene.error.bad_tag"


async def test_open_records_the_scene_and_the_header_shows_players(table):
    scene = await opened(table, players=f"<@{ANA_ID}>")
    assert scene.title == "La posada" and scene.is_open and scene.parent_id == CHANNEL
    assert scene.players == (ANA_ID,)
    header = await table.scenes.header(scene)
    assert [(p.user_id, p.character) for p in header.players] == [(ANA_ID, None)]
    # the whole party when no players are named: everyone with an active character
    whole = await opened(table, thread=OTHER_THREAD)
    header = await table.scenes.header(whole)
    assert [(p.user_id, p.character) for p in header.players] == [(2, "Ardelia"), (3, "Bram")]
    assert header.posted == () and header.pending == ("Ardelia", "Bram")
    with_header = await table.scenes.set_header(whole, 777)
    assert with_header.header_message_id == 777 and with_header.version == whole.version + 1
    assert (await table.scenes.scene_for(Place(GUILD, OTHER_THREAD, (OTHER_THREAD, CHANNEL)))) == (
        with_header
    )
    there = Place(GUILD, OTHER_THREAD, (OTHER_THREAD, CHANNEL, CATEGORY))
    refreshed = await table.scenes.refresh_header(there)
    assert refreshed is not None and refreshed.scene == with_header
    assert await table.scenes.refresh_header(IN_THREAD) is None  # no pinned header there


async def test_the_opening_text_is_kept_for_the_chronicle(table):
    plan = await table.scenes.plan_open(TABLE, GM, title="El muelle")
    scene = await table.scenes.record_open(
        TABLE, GM, plan, channel_id=THREAD, parent_id=CHANNEL, opening_text="  Llueve.\n"
    )
    async with table.sessions() as session:
        row = await session.get(Scene, scene.id)
    assert row is not None and row.opening_text == "Llueve."
    blank = await table.scenes.record_open(
        TABLE, GM, plan, channel_id=OTHER_THREAD, parent_id=CHANNEL, opening_text="  "
    )
    async with table.sessions() as session:
        row = await session.get(Scene, blank.id)
    assert row is not None and row.opening_text is None


async def test_the_round_reads_posts_after_the_gms_last_post(table):
    scene = await opened(table)
    start = utcnow()
    async with table.sessions() as session, session.begin():
        ids = dict((await session.exec(select(Character.name, Character.id))).all())
        for offset, (who, name, gm) in enumerate(
            ((2, "Ardelia", False), (1, "Narrador", True), (3, "Bram", False))
        ):
            session.add(
                Post(
                    guild_id=GUILD,
                    campaign_id=scene.campaign_id,
                    channel_id=THREAD,
                    scene_id=scene.id,
                    author_user_id=who,
                    character_id=ids.get(name),  # the narrator is no character
                    speaker_name=name,
                    gm_post=gm,
                    text="…",
                    created_at=start + timedelta(seconds=offset),
                )
            )
    header = await table.scenes.header(scene)
    assert header.posted == ("Ardelia", "Bram") and header.pending == ()
    # the GM posted at start+1: the round since then holds only Bram
    round_started = await table.scenes._change(
        GUILD, scene.id, lambda row: {"round_started_at": start + timedelta(seconds=1)}
    )
    header = await table.scenes.header(round_started)
    assert header.posted == ("Bram",) and header.pending == ("Ardelia",)


async def test_close_sums_up_posts_rolls_and_xp_of_the_thread(table):
    scene = await opened(table)
    async with table.sessions() as session, session.begin():
        for name, who in (("Ardelia", 2), ("Ardelia", 2), ("Bram", 3)):
            session.add(
                Post(
                    guild_id=GUILD,
                    campaign_id=scene.campaign_id,
                    channel_id=THREAD,
                    author_user_id=who,
                    speaker_name=name,
                    text="…",
                )
            )
        session.add(  # a deleted post is not counted
            Post(
                guild_id=GUILD,
                campaign_id=scene.campaign_id,
                channel_id=THREAD,
                author_user_id=3,
                speaker_name="Bram",
                text="…",
                deleted_at=utcnow(),
            )
        )
    await table.rolls.roll(IN_THREAD, ANA, "1d20", character_name="Ardelia")
    async with table.sessions() as session, session.begin():  # damage noted by hand: no roll
        session.add(
            RollLog(
                guild_id=GUILD,
                channel_id=THREAD,
                campaign_id=scene.campaign_id,
                user_id=1,
                user_name="Máster",
                character_name="Ardelia",
                kind="damage",
                expression="-3",
                breakdown="-3",
                total=3,
            )
        )
    await table.rolls.roll(IN_THREAD, ANA, "1d6", private=True, character_name="Ardelia")
    await table.rolls.roll(TABLE, BRUNO, "1d20", character_name="Bram")  # not in the scene
    await table.xp.grant(IN_THREAD, GM, 5, character="Bram")
    grant = await table.xp.grant(IN_THREAD, GM, 3, character="Ardelia")
    undo = grant.lines[0].undo
    assert undo is not None
    await table.undo.undo(IN_THREAD, GM, undo.log_id)  # an undone grant is not counted
    await table.xp.grant(TABLE, GM, 100, character="Ardelia")  # granted elsewhere
    with pytest.raises(NotReferee):
        await table.scenes.close(IN_THREAD, ANA)
    closed = await table.scenes.close(IN_THREAD, GM)
    lines = {line.name: (line.posts, line.rolls, line.xp) for line in closed.lines}
    assert lines == {"Ardelia": (2, 1, 0), "Bram": (1, 0, 5)}
    assert (closed.posts, closed.rolls, closed.xp) == (3, 1, 5)
    assert closed.scene.status == "closed" and closed.scene.closed_at is not None
    with pytest.raises(DomainError) as error:
        await table.scenes.close(IN_THREAD, GM)
    assert error.value.key == "scene.error.already_closed"
    reopened = await table.scenes.reopen(IN_THREAD, GM)
    assert reopened.is_open and reopened.closed_at is None
    assert reopened.version == closed.scene.version + 1
    with pytest.raises(DomainError) as error:
        await table.scenes.reopen(IN_THREAD, GM)
    assert error.value.key == "scene.error.already_open"


async def test_a_thread_opened_by_hand_becomes_a_scene_once(table):
    assert await table.scenes.scene_for(TABLE) is None  # the bound channel is no scene
    outside = Place(GUILD, 9999, (9999, 4242))
    assert await table.scenes.scene_for(outside) is None
    found = await asyncio.gather(
        *(table.scenes.scene_for(IN_THREAD, title="Hilo a mano", opened_by=2) for _ in range(6))
    )
    assert {scene.id for scene in found} == {found[0].id}
    assert found[0].title == "Hilo a mano" and found[0].opened_by == 2
    assert not found[0].private
    hidden = await table.scenes.scene_for(
        Place(GUILD, OTHER_THREAD, (OTHER_THREAD, CHANNEL, CATEGORY)), title="Aparte", private=True
    )
    assert hidden is not None and hidden.private
    scenes, total = await table.scenes.list(TABLE)
    assert total == 2 and {s.channel_id for s in scenes} == {THREAD, OTHER_THREAD}
    with pytest.raises(DomainError) as error:
        await table.scenes.require(TABLE)
    assert error.value.key == "scene.error.not_a_scene"


async def test_category_campaigns_find_threads_two_levels_down(services):
    category = Place(GUILD, 70, (70, CATEGORY))
    await services.campaigns.create(
        category, GM, name="Cat", system="swc", target_id=CATEGORY, kind="category"
    )
    assert await services.scenes.scene_for(category) is None  # a channel of the category
    scene = await services.scenes.scene_for(Place(GUILD, 71, (71, 70, CATEGORY)), title="Hilo")
    assert scene is not None and scene.parent_id == 70


async def test_the_list_puts_open_scenes_first(table):
    first = await opened(table, thread=1)
    await opened(table, thread=2)
    await table.scenes.close(Place(GUILD, 1, (1, CHANNEL, CATEGORY)), GM)
    await opened(table, thread=3)
    scenes, total = await table.scenes.list(TABLE)
    assert total == 3
    assert [s.channel_id for s in scenes] == [3, 2, 1] and scenes[-1].id == first.id
    assert [s.is_open for s in scenes] == [True, True, False]


async def test_off_topic_channel(table):
    off = Place(GUILD, OFF_TOPIC, (OFF_TOPIC, CATEGORY))
    # a channel outside the campaign would change nothing: refused
    with pytest.raises(InvalidSetting) as error:
        await table.campaigns.update_settings(
            TABLE, GM, SettingsChange(off_topic_channel_id=OFF_TOPIC, off_topic_chain=off.chain)
        )
    assert error.value.key == "scene.error.off_topic_outside"
    with pytest.raises(InvalidSetting) as error:
        await table.campaigns.update_settings(
            TABLE, GM, SettingsChange(off_topic_channel_id=CHANNEL, off_topic_chain=TABLE.chain)
        )
    assert error.value.key == "scene.error.off_topic_is_table"
    # a thread of the table as the off-topic place
    chatter = Place(GUILD, OTHER_THREAD, (OTHER_THREAD, CHANNEL, CATEGORY))
    with pytest.raises(NotReferee):
        await table.campaigns.update_settings(
            TABLE,
            ANA,
            SettingsChange(off_topic_channel_id=OTHER_THREAD, off_topic_chain=chatter.chain),
        )
    view = await table.campaigns.update_settings(
        TABLE, GM, SettingsChange(off_topic_channel_id=OTHER_THREAD, off_topic_chain=chatter.chain)
    )
    assert view.off_topic_channel_id == OTHER_THREAD
    assert await table.scenes.is_off_topic(chatter)
    assert not await table.scenes.is_off_topic(IN_THREAD)
    assert not await table.scenes.is_off_topic(TABLE)
    assert await table.scenes.scene_for(chatter) is None  # never a scene
    with pytest.raises(DomainError) as error:
        await table.scenes.require_on_topic(chatter)
    assert error.value.key == "scene.error.off_topic_post"
    await table.scenes.require_on_topic(IN_THREAD)
    with pytest.raises(DomainError) as error:
        await table.scenes.plan_open(chatter, GM, title="Escena")
    assert error.value.key == "scene.error.off_topic_here"
    cleared = await table.campaigns.update_settings(TABLE, GM, SettingsChange(clear_off_topic=True))
    assert cleared.off_topic_channel_id is None
    assert not await table.scenes.is_off_topic(chatter)


async def test_concurrent_close_and_reopen_apply_one_change_each(table):
    """Two GMs press close at once: one closes, the other is told it is already closed; a
    close and a reopen race: each applies on the version the other left, none is lost."""
    await opened(table)
    results = await asyncio.gather(
        *(table.scenes.close(IN_THREAD, GM) for _ in range(4)), return_exceptions=True
    )
    closes = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(closes) == 1 and len(refused) == 3
    assert all(r.key == "scene.error.already_closed" for r in refused)
    version = closes[0].scene.version
    results = await asyncio.gather(
        table.scenes.reopen(IN_THREAD, GM),
        table.scenes.reopen(IN_THREAD, GM),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    final = await table.scenes.scene_for(IN_THREAD)
    assert final is not None and final.is_open and final.version == version + 1
    # alternating writers: every applied change bumps the version exactly once
    ops = [
        (table.scenes.close if i % 2 == 0 else table.scenes.reopen)(IN_THREAD, GM) for i in range(6)
    ]
    results = await asyncio.gather(*ops, return_exceptions=True)
    applied = [r for r in results if not isinstance(r, BaseException)]
    assert all(isinstance(r, DomainError) for r in results if isinstance(r, BaseException))
    assert applied  # the first of them always applies
    after = await table.scenes.scene_for(IN_THREAD)
    assert after is not None and after.version == final.version + len(applied)


async def test_privacy_exports_and_unties_a_members_scenes(table):
    named = await opened(table, players=f"<@{ANA_ID}> <@{ANA_ID + 1}>")
    document = await table.privacy.export(GUILD, ANA_ID)
    assert [s["id"] for s in document["scenes"]] == [named.id]
    assert document["scenes"][0]["opened_by_you"] is False
    assert (await table.privacy.export(GUILD, GM.user_id))["scenes"][0]["opened_by_you"]
    await table.privacy.delete(GUILD, ANA_ID, characters="to_gm")
    await table.privacy.delete(GUILD, GM.user_id, characters="to_gm")
    after = await table.scenes.scene_for(IN_THREAD)
    assert after is not None and after.players == (ANA_ID + 1,) and after.opened_by == 0
    assert after.version == named.version + 2
    assert (await table.privacy.export(GUILD, ANA_ID))["scenes"] == []
