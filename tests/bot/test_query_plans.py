"""The hot queries use indexes: no full scan of ``roll_log``, ``character`` or ``combat``.

Issue 14 §1.  Every statement the hot commands run (``/roll``, ``/history`` with and without a
member, ``/sheet show``, character autocomplete, ``/init next``, the campaign lookup) is
captured as the database receives it and explained with its own parameters: on SQLite with
``EXPLAIN QUERY PLAN`` (a ``SCAN`` of a hot table fails), on PostgreSQL with ``EXPLAIN`` and
sequential scans disabled (a ``Seq Scan`` of a hot table then means no index can serve it;
PostgreSQL would rightly choose one on tables this small).  Where the test names the index a
query must use, the log first gets a realistic spread of rolls and ``ANALYZE``
(:func:`analysed_roll_log`), so the plan follows from that data and not from statistics an
earlier test left behind.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from sqlalchemy import event, insert, text

from bot.db.models import RollLog
from bot.services import Actor, Place
from tests.examples import ARDELIA

GUILD, CHANNEL = 4242, 77
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
HOT = ("roll_log", "character", "combat", "campaign_binding", "creation_draft")
_TABLE = re.compile(r'(?:FROM|JOIN|UPDATE)\s+"?(\w+)"?', re.IGNORECASE)


async def analysed_roll_log(
    services, engine, place: Place, gm: Actor, members: list[int]
) -> list[int]:  # noqa: ANN001
    """A guild's roll log as play fills it, with fresh planner statistics; the campaign ids.

    Twelve campaigns (the first bound to ``place``) whose rolls interleave, as tables that play
    at the same time write them, by six members (``members`` first), one in seven private:
    2,400 rolls, one campaign's share small enough that walking the whole log newest first
    (``roll_log_pkey`` backwards) costs far more than its index.  ``ANALYZE`` then makes the
    plan depend on this data alone: ``TRUNCATE`` between tests keeps the statistics of whatever
    ran before, and on a near-empty table PostgreSQL's choice between those two plans followed
    them (the history test failed now and then on the primary key).
    """
    campaigns = []
    for n in range(12):
        channel = place.channel_id if n == 0 else 900_000 + n
        view = await services.campaigns.create(
            Place(place.guild_id, channel, (channel,)),
            gm,
            name=f"Mesa {n}",
            system="nucleo",
            target_id=channel,
            kind="channel",
        )
        campaigns.append(view.id)
    users = [*members, *range(900_000, 900_006)][:6]
    now = datetime.now(UTC)
    rolls = [
        {
            "guild_id": place.guild_id,
            "channel_id": place.channel_id if n % 12 == 0 else 900_000 + n % 12,
            "campaign_id": campaigns[n % 12],
            "user_id": users[n // 12 % 6],
            "user_name": "Jugador",
            "expression": "1d20",
            "breakdown": "[7]",
            "detail": {},
            "total": 7,
            "private": n % 7 == 0,
            "created_at": now,
        }
        for n in range(2400)
    ]
    async with engine.begin() as connection:
        await connection.execute(insert(RollLog), rolls)
        await connection.exec_driver_sql("ANALYZE roll_log")
    return campaigns


async def _capture(engine, work) -> list[tuple[str, object]]:  # noqa: ANN001
    seen: list[tuple[str, object]] = []

    def record(_conn, _cursor, statement, parameters, _context, executemany) -> None:  # noqa: ANN001
        head = statement.lstrip().split(None, 1)[0].upper()
        hot = set(_TABLE.findall(statement)) & set(HOT)
        if not executemany and head in ("SELECT", "UPDATE", "DELETE") and hot:
            seen.append((statement, parameters))

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        await work()
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", record)
    return seen


async def _full_scans(engine, statement: str, parameters) -> list[str]:  # noqa: ANN001
    async with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            rows = await conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters)
            plan = [row[-1] for row in rows]
            return [line for line in plan if re.match(rf"SCAN ({'|'.join(HOT)})\b", line)]
        await conn.execute(text("SET enable_seqscan = off"))
        rows = await conn.exec_driver_sql("EXPLAIN " + statement, tuple(parameters))
        plan = [row[0] for row in rows]
        await conn.rollback()
        return [line for line in plan if re.search(rf"Seq Scan on \"?({'|'.join(HOT)})\b", line)]


async def test_hot_queries_never_scan_a_whole_table(services, engine):
    await services.campaigns.create(
        HERE, GM, name="Planes", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    sheet = dict(json.loads(json.dumps(ARDELIA)), name="Ardelia")
    await services.characters.create(HERE, ANA, sheet)
    await services.characters.create(HERE, GM, dict(sheet, name="Capitán"), is_npc=True)
    await services.combat.start(HERE, GM)
    await services.combat.join(HERE, ANA)
    await services.combat.add(HERE, GM, "Trasgos", initiative=12)
    await services.combat.roll(HERE, ANA)
    await services.rolls.roll(HERE, ANA, "1d20")

    async def hot() -> None:
        services.campaigns.cache.clear()  # the lookups themselves are hot on a cold cache
        view = await services.rolls.roll(HERE, ANA, "1d20+5")
        await services.rolls.attach_message(view.log_id, GUILD, 999, "https://x/1")
        await services.rolls.history(HERE, ANA)
        await services.rolls.history(HERE, ANA, user_id=ANA.user_id)
        await services.rolls.history(HERE, GM, user_id=ANA.user_id)
        await services.characters.show(HERE, ANA)
        await services.characters.show(HERE, GM, "Capitán")
        await services.characters.names(HERE, ANA, "ard")
        await services.characters.names(HERE, GM, "", npcs=True)
        await services.combat.next(HERE, GM)
        await services.combat.show(HERE, ANA)

    statements = await _capture(engine, hot)
    assert len(statements) >= 8  # the capture works: every command above queried
    scans = {}
    for statement, parameters in statements:
        found = await _full_scans(engine, statement, parameters)
        if found:
            scans[statement] = found
    assert not scans, "\n\n".join(f"{s}\n  -> {f}" for s, f in scans.items())


async def _plan(engine, statement: str, parameters) -> str:  # noqa: ANN001
    async with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            rows = await conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters)
            return "\n".join(str(row[-1]) for row in rows)
        await conn.execute(text("SET enable_seqscan = off"))
        rows = await conn.exec_driver_sql("EXPLAIN " + statement, tuple(parameters))
        plan = "\n".join(row[0] for row in rows)
        await conn.rollback()
        return plan


async def test_the_lookups_use_the_index_made_for_them(services, engine):
    """The campaign lookup uses the partial index ``uq_active_binding`` (SQLite matches it
    only when the query says ``active`` as the index does, not ``active = 1``), and
    ``/history user:X`` seeks the member's rolls instead of walking the campaign's log."""
    await analysed_roll_log(services, engine, HERE, GM, [ANA.user_id, GM.user_id])

    async def hot() -> None:
        services.campaigns.cache.clear()
        await services.rolls.history(HERE, GM, user_id=ANA.user_id)

    statements = await _capture(engine, hot)
    lookup = next(s for s in statements if "campaign_binding" in s[0])
    history = next(s for s in statements if "roll_log" in s[0])
    lookup_plan, history_plan = await _plan(engine, *lookup), await _plan(engine, *history)
    if engine.dialect.name == "sqlite":
        assert "uq_active_binding" in lookup_plan, lookup_plan
        assert "user_id=?" in history_plan, history_plan
    else:
        assert "Seq Scan" not in lookup_plan, lookup_plan
        assert re.search(r"Index Cond: .*user_id", history_plan), history_plan
