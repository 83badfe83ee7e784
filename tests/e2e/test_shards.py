"""Two bot processes (two shards) on one PostgreSQL, one of them SIGKILLed mid-burst.

Runs whenever ``ARBITRO_TEST_POSTGRES_URL`` names a server (the run's own database, from the
``postgres_url`` fixture). Checks: each process answers only its guilds; the survivor keeps
answering while the other is dead; every roll that got a reply is in the database; a turn
reminder claimed by the killed process is posted once by its successor after the lease; a
reminder repeated after a crash between posting and recording is absorbed by the nonce.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import pytest
from sqlalchemy import text

from bot.db.engine import create_engine
from standin.client import Sandbox

pytestmark = pytest.mark.e2e

REMINDER = "más de 1 h"  # the Spanish reminder says the turn waited "más de 1 h"


def sql(url: str, statement: str, **params):
    async def run():
        engine = create_engine(url)
        try:
            async with engine.begin() as connection:
                result = await connection.execute(text(statement), params)
                return result.fetchall() if result.returns_rows else None
        finally:
            await engine.dispose()

    return asyncio.run(run())


def wait_for(check, what: str, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def reminders(sb: Sandbox, guild) -> list[str]:
    return [m.content for m in sb.channel_messages(guild, "mesa") if REMINDER in m.content]


def timer_of(url: str, guild) -> tuple | None:
    rows = sql(
        url,
        "SELECT id, kind, ref, guild_id, due_at, generation FROM timer WHERE guild_id = :g",
        g=guild.id,
    )
    return tuple(rows[0]) if rows else None


def test_two_shards_share_one_postgresql_and_survive_a_sigkill(postgres_url, tmp_path):
    if postgres_url is None:
        pytest.skip("needs ARBITRO_TEST_POSTGRES_URL: several processes need one PostgreSQL")
    sql(postgres_url, "DROP SCHEMA public CASCADE")
    sql(postgres_url, "CREATE SCHEMA public")
    sb = Sandbox(
        timeout=float(os.environ.get("ARBITRO_E2E_TIMEOUT", "10")),
        deadline=float(os.environ.get("ARBITRO_E2E_DEADLINE", "3")),
    )
    env = {
        "DATABASE_URL": postgres_url,
        "ARBITRO_DEFAULT_LOCALE": "es",
        "ARBITRO_TIMER_LEASE_SECONDS": "5",
        "ARBITRO_TIMER_POLL_SECONDS": "1",
    }
    logs = {k: tmp_path / f"shard{k}.log" for k in (0, 1)}
    try:
        # both start together: the advisory lock lets one migrate while the other waits
        with ThreadPoolExecutor(2) as pool:
            started = [pool.submit(sb.start_shard, k, 2, env=env, log_path=logs[k]) for k in (0, 1)]
            procs = {k: f.result() for k, f in zip((0, 1), started, strict=True)}
        guilds = {k: sb.new_guild(f"Mesa {k}", shard=(k, 2)) for k in (0, 1)}
        for g in guilds.values():

            def run(path, options=None, g=g):
                return sb.command(path, options or {}, guild=g, channel="mesa", user="gm")

            run("campaign create", {"name": "Sombras", "system": "nucleo"}).expect_ok()
            run("init start").expect_ok()
            run("init add", {"name": "Trasgos", "initiative": 5}).expect_ok()
            run("init add", {"name": "Orcos", "initiative": 3}).expect_ok()
            run("init deadline", {"hours": 1}).expect_ok()
            run("init next").expect_ok()  # the turn clock starts: one durable timer
            assert timer_of(postgres_url, g) is not None

        players = itertools.cycle(("ana", "bruno", "dm2", "gm"))  # within each one's cooldown

        def roll(k: int) -> bool:
            """True when the roll was confirmed (its public result posted); False otherwise."""
            try:
                r = sb.command("roll", {"expression": "1d20"}, guild=guilds[k], user=next(players))
            except AssertionError:  # the driver's "the bot never answered"
                return False
            return r.ok and not r.ephemeral and "Total" in r.all_text

        # a burst in both guilds; shard 1 is SIGKILLed in the middle of it
        with ThreadPoolExecutor(8) as pool:
            burst1 = [pool.submit(roll, 1) for _ in range(16)]
            # Kill as soon as the first roll is answered: the rest are queued or in flight, on
            # a fast machine as on a slow one (a fixed sleep let all 16 finish on a quiet one).
            wait(burst1, return_when=FIRST_COMPLETED)
            procs[1].kill()
            procs[1].wait(10)
            burst0 = [pool.submit(roll, 0) for _ in range(8)]
            answered0 = [f.result() for f in burst0]
            answered1 = [f.result() for f in burst1]
        assert all(answered0), "the other shard keeps answering while one is dead"
        assert roll(0)
        confirmed1 = sum(answered1)
        assert confirmed1 < len(answered1), "the kill landed mid-burst"

        # shard 1 had claimed its reminder when it died: leased, never posted or recorded
        g0, g1 = guilds[0], guilds[1]
        sql(
            postgres_url,
            "UPDATE timer SET due_at = LOCALTIMESTAMP - interval '1 second', "
            "lease_owner = 'killed', lease_until = LOCALTIMESTAMP + interval '3 seconds', "
            "attempts = 1 WHERE guild_id = :g",
            g=g1.id,
        )
        # shard 0's reminder comes due: the live process posts it once and records it
        sql(
            postgres_url,
            "UPDATE timer SET due_at = LOCALTIMESTAMP - interval '1 second' WHERE guild_id = :g",
            g=g0.id,
        )
        fired = timer_of(postgres_url, g0)
        wait_for(lambda: reminders(sb, g0), "shard 0's reminder")
        wait_for(lambda: timer_of(postgres_url, g0) is None, "shard 0's record")
        # a crash between posting and recording: the same firing comes back unrecorded
        sql(
            postgres_url,
            "INSERT INTO timer (id, kind, ref, guild_id, due_at, generation, attempts) "
            "VALUES (:i, :k, :r, :g, :d, :n, 1)",
            i=fired[0],
            k=fired[1],
            r=fired[2],
            g=fired[3],
            d=fired[4],
            n=fired[5],
        )
        wait_for(lambda: timer_of(postgres_url, g0) is None, "the repeated firing")
        assert len(reminders(sb, g0)) == 1, "the nonce absorbed the repeat"
        assert reminders(sb, g1) == [], "nobody fires a dead shard's guild"

        procs[1] = sb.start_shard(1, 2, env=env, log_path=logs[1])
        assert sb.command("roll", {"expression": "2d6"}, guild=g1, user="bruno").ok
        wait_for(lambda: reminders(sb, g1), "the successor's reminder")
        wait_for(lambda: timer_of(postgres_url, g1) is None, "shard 1's record")
        time.sleep(2)  # two more poll rounds: nothing fires again
        assert len(reminders(sb, g1)) == 1 and len(reminders(sb, g0)) == 1
        assert "**Trasgos**" in reminders(sb, g1)[0]

        logged = {
            guild: count
            for guild, count in sql(
                postgres_url, "SELECT guild_id, count(*) FROM roll_log GROUP BY guild_id"
            )
        }
        assert logged[g1.id] >= confirmed1 + 1, "every confirmed roll of the killed shard"
        assert logged[g0.id] >= len(answered0) + 1
        assert "Traceback" not in logs[0].read_text(errors="replace")
    except Exception:
        for k, path in logs.items():
            if path.exists():
                print(f"--- shard {k} log ---\n" + path.read_text(errors="replace")[-4000:])
        raise
    finally:
        sb.close()
