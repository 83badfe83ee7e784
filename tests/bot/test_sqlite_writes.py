"""Concurrent writes never fail on SQLite, and the campaign cache follows every write.

Issue 14 §1: with a pool of 5 + 10 connections, a few of 1,000 message-link updates under
load failed with "database is locked" after the busy timeout.  SQLite now has one connection
that every session waits for; these tests fire many writers at once (on PostgreSQL too,
which keeps its pool).
"""

from __future__ import annotations

import asyncio
import json

import pytest
from sqlalchemy import event, text
from sqlmodel import select

from bot.db.models import RollLog
from bot.services import Actor, Place
from bot.services.campaigns.service import SettingsChange
from tests.examples import ARDELIA

GUILD, CHANNEL = 5151, 88
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
PLAYERS = [Actor(100 + i, f"p{i}") for i in range(40)]


async def test_many_concurrent_rolls_and_links_all_land(services, engine):
    await services.campaigns.create(
        HERE, GM, name="Carga", system="nucleo", target_id=CHANNEL, kind="channel"
    )

    async def one(actor: Actor, n: int) -> None:
        view = await services.rolls.roll(HERE, actor, "1d20+5")
        await services.rolls.attach_message(view.log_id, GUILD, 10_000 + n, f"https://x/{n}")

    results = await asyncio.gather(
        *(one(actor, i * 10 + k) for i, actor in enumerate(PLAYERS) for k in range(10)),
        return_exceptions=True,
    )
    assert [r for r in results if isinstance(r, BaseException)] == []
    async with services.sessions() as session:
        rows = (await session.exec(select(RollLog).where(RollLog.guild_id == GUILD))).all()
    assert len(rows) == 400
    assert all(row.message_id is not None for row in rows)
    assert all(row.campaign_id is not None for row in rows)
    if engine.dialect.name == "sqlite":
        assert engine.pool.size() == 1 and engine.pool.overflow() <= 0


async def test_the_cached_campaign_follows_every_write(services):
    await services.campaigns.create(
        HERE, GM, name="Caché", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    assert (await services.rolls.roll(HERE, PLAYERS[0], "1d6")).campaign_name == "Caché"
    await services.campaigns.update_settings(HERE, GM, SettingsChange(locale="en"))
    assert (await services.campaigns.find(HERE)).locale == "en"
    await services.campaigns.end(HERE, GM)
    assert (await services.rolls.roll(HERE, PLAYERS[0], "1d6")).campaign_name is None
    await services.campaigns.create(
        HERE, GM, name="Otra", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    assert (await services.rolls.roll(HERE, PLAYERS[0], "1d6")).campaign_name == "Otra"


async def test_a_lookup_in_flight_during_a_write_does_not_store_stale_data(services):
    await services.campaigns.create(
        HERE, GM, name="Vieja", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    cache = services.campaigns.cache
    cache.clear()
    generation = cache.generation
    await services.campaigns.update_settings(
        HERE, GM, SettingsChange(locale="en")
    )  # commits, clears
    cache.store(GUILD, generation, {})  # what a lookup begun before the write would store
    assert cache.get(GUILD) is None
    assert (await services.campaigns.find(HERE)).locale == "en"


async def test_the_cached_signature_follows_character_writes(services):
    """The roll's signature (cached per member) changes as soon as the character does."""
    await services.campaigns.create(
        HERE, GM, name="Firmas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    ana = PLAYERS[0]
    assert (await services.rolls.roll(HERE, ana, "1d6")).character_name is None
    await services.characters.create(HERE, ana, json.loads(json.dumps(ARDELIA)))
    assert (await services.rolls.roll(HERE, ana, "1d6")).character_name == "Ardelia"
    await services.characters.delete(HERE, ana, "Ardelia")
    assert (await services.rolls.roll(HERE, ana, "1d6")).character_name is None
    await services.characters.restore(HERE, GM, "Ardelia")
    await services.characters.use(HERE, ana, "Ardelia")
    assert (await services.rolls.roll(HERE, ana, "1d6")).character_name == "Ardelia"


async def test_a_campaigns_signatures_are_read_in_one_query(services, engine):
    """The first rolls of a table (after a start, or after any character write) read the
    active characters of the whole campaign once, not once per player."""
    await services.campaigns.create(
        HERE, GM, name="Firmas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    ana, others = PLAYERS[0], PLAYERS[1:10]
    await services.characters.create(HERE, ana, json.loads(json.dumps(ARDELIA)))
    lookups: list[str] = []

    def count(_conn, _cursor, statement: str, *_args) -> None:
        if "active_character" in statement and statement.lstrip().upper().startswith("SELECT"):
            lookups.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", count)
    try:
        views = await asyncio.gather(
            *(services.rolls.roll(HERE, actor, "1d6") for actor in [ana, *others])
        )
        views += [await services.rolls.roll(HERE, actor, "1d6") for actor in [ana, *others]]
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", count)
    assert [view.character_name for view in views] == (["Ardelia"] + [None] * 9) * 2
    assert len(lookups) == 1  # the concurrent first rolls share one read; then the cache


async def test_a_connection_given_back_mid_transaction_is_rolled_back(engine):
    """SQLite's pool skips the blanket ROLLBACK on every return (bot/db/engine.py) but still
    rolls back a connection returned inside a transaction: its write must not be committed by
    the next user of the one connection."""
    if engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL's pool keeps SQLAlchemy's own reset")
    async with engine.connect() as connection:
        driver = (await connection.get_raw_connection()).driver_connection
        await driver.execute("BEGIN")
        await driver.execute(
            "INSERT INTO roll_log (guild_id, channel_id, user_id, user_name, kind, expression,"
            " breakdown, detail, total, fumble, private, created_at)"
            " VALUES (?, ?, 1, 'x', 'roll', '1d6', '4', '{}', 4, 0, 0, '2026-01-01')",
            (GUILD, CHANNEL),
        )
        assert driver.in_transaction
    # The next user of the one connection commits at once (no session rolling back first).
    async with engine.begin() as connection:
        await connection.execute(text("SELECT 1"))
    async with engine.connect() as connection:
        count = (
            await connection.execute(
                text("SELECT count(*) FROM roll_log WHERE guild_id = :g"), {"g": GUILD}
            )
        ).scalar()
    assert count == 0
