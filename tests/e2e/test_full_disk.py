"""A full disk is said as such: «the server's disk is full, nothing was saved».

It answered «Algo ha fallado» with a reference, as for a bug.  SQLite fails for real
(``SQLITE_FULL``, its file frozen at its size: tests/e2e/full_disk_bot.py); PostgreSQL
answers SQLSTATE 53100, raised by the server itself from a trigger, exactly the error a
``could not extend file: No space left on device`` reaches the driver as.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from bot.db.engine import create_engine
from bot.db.models import RollLog
from tests.e2e.helpers import says, start_arbitro

pytestmark = pytest.mark.e2e

DISK_FULL = (
    """CREATE FUNCTION arbitro_test_disk_full() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'could not extend file "base/16384/16385": No space left on device'
    USING ERRCODE = 'disk_full', HINT = 'Check free disk space.';
END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER arbitro_test_disk_full BEFORE INSERT ON roll_log
  FOR EACH STATEMENT EXECUTE FUNCTION arbitro_test_disk_full()""",
)


async def _sql(url: str, statement: str) -> int:
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            if statement == "count":
                return int(
                    (
                        await connection.execute(select(func.count()).select_from(RollLog))
                    ).scalar_one()
                )
            await connection.exec_driver_sql(statement)
            return 0
    finally:
        await engine.dispose()


def test_a_full_disk_says_so_and_that_nothing_was_saved(tmp_path, bot_database_url):
    postgres = bot_database_url.startswith("postgresql")
    module = "bot.__main__" if postgres else "tests.e2e.full_disk_bot"
    sb = start_arbitro(bot_database_url, tmp_path, module=module)
    try:
        g = sb.new_guild(name="Disco lleno")
        if postgres:
            for statement in DISK_FULL:
                asyncio.run(_sql(bot_database_url, statement))
        # SQLite: the rolls fill the pages the file has (a long reason fills them sooner);
        # the first roll that needs a new page fails.  Four members: /roll allows six uses
        # per member in ten seconds.
        users = ("ana", "bruno", "gm", "dm2")
        for attempt in range(24):
            reply = sb.command(
                "roll",
                {"expression": "1d20", "reason": "x" * 200},
                guild=g,
                channel="mesa",
                user=users[attempt % 4],
            )
            if reply.ephemeral:
                break
            assert not postgres, reply.text
        else:
            pytest.fail("the database never filled up")
        assert says(reply, "errors.disk_full"), reply.text
        assert "referencia" not in reply.text
        english = sb.command(
            "roll", {"expression": "1d20"}, guild=g, channel="mesa", user="dm2", locale="en-US"
        )
        assert says(english, "errors.disk_full", "en"), english.text
        if postgres:
            asyncio.run(_sql(bot_database_url, "DROP TRIGGER arbitro_test_disk_full ON roll_log"))
        assert (
            asyncio.run(_sql(bot_database_url, "count")) == attempt
        )  # the refused rolls: not stored
        assert "disk is full" in sb.bot_log(40)
    finally:
        sb.close()
