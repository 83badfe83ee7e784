"""The migrations build exactly the schema the models describe, and re-running is harmless."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

import bot.db.models  # noqa: F401
from bot.db.migrate import upgrade


async def test_models_and_migrations_agree(engine):
    def diff(connection):
        context = MigrationContext.configure(connection)
        return compare_metadata(context, SQLModel.metadata)

    async with engine.connect() as connection:
        differences = await connection.run_sync(diff)
    # SQLite cannot tell BigInteger from Integer apart in reflection; ignore type-only noise.
    meaningful = [
        d for d in differences if not (isinstance(d, list) and d and d[0][0] == "modify_type")
    ]
    assert meaningful == []


async def test_upgrade_is_idempotent(engine):
    await upgrade(engine)
    await upgrade(engine)
    async with engine.connect() as connection:
        version = (
            await connection.exec_driver_sql("select version_num from alembic_version")
        ).scalar()
        if engine.dialect.name == "sqlite":
            mode = (await connection.exec_driver_sql("pragma journal_mode")).scalar()
            assert mode == "wal"
    assert version == _head()


def _head() -> str:
    from alembic.script import ScriptDirectory

    from bot.db.migrate import alembic_config

    (head,) = ScriptDirectory.from_config(alembic_config()).get_heads()
    return head


async def test_two_processes_starting_together_migrate_once(postgres_url):
    """Two engines (two shards) upgrade an empty PostgreSQL at once: the advisory lock makes
    one migrate and the other wait and find the schema current (no duplicate-table error)."""
    import asyncio

    import pytest
    from sqlalchemy import text

    from bot.db.engine import create_engine

    if postgres_url is None:
        pytest.skip("needs ARBITRO_TEST_POSTGRES_URL (advisory locks are PostgreSQL's)")
    first, second = create_engine(postgres_url), create_engine(postgres_url)
    try:
        async with first.begin() as connection:
            await connection.execute(text("DROP SCHEMA public CASCADE"))
            await connection.execute(text("CREATE SCHEMA public"))
        # without the lock the concurrent DDL deadlocks or fails: bounded, so it fails here
        await asyncio.wait_for(
            asyncio.gather(upgrade(first), upgrade(second), upgrade(first)), timeout=120
        )
        async with second.connect() as connection:
            versions = (
                (await connection.exec_driver_sql("select version_num from alembic_version"))
                .scalars()
                .all()
            )
        assert versions == [_head()]
    finally:
        await first.dispose()
        await second.dispose()
