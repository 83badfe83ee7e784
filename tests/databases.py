"""Test databases: which backends a run covers, and PostgreSQL databases made for one use.

``ARBITRO_TEST_POSTGRES_URL`` (``postgresql+asyncpg://postgres@127.0.0.1:55432/arbitro_test``)
names a *server*; the suite never writes to the database that URL names.  Every user of
PostgreSQL — the service tests of a run, each end-to-end bot process — gets a database of
its own, created with a unique name (``arbitro_t_<pid>_<hex>``) and dropped when done, so
two runs (two developers, or CI beside a developer) can share one server.  Only databases
this process created may have their schema reset (:func:`reset_schema` refuses the others):
a mistyped URL pointing at real data must never lose it.

A plain module (not a conftest) so that every conftest imports the same registry.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

POSTGRES_URL = os.environ.get("ARBITRO_TEST_POSTGRES_URL") or None
#: the backends every database test runs on, in this order
BACKENDS = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])
#: names of the databases this process created and has not dropped yet
CREATED: set[str] = set()
PREFIX = "arbitro_t_"

ENABLE_HINT = (
    "export ARBITRO_TEST_POSTGRES_URL=postgresql+asyncpg://postgres@127.0.0.1:55432/arbitro_test "
    "(bash scripts/postgres-for-tests.sh starts a throwaway server and prints the URL)"
)


def status_line() -> str:
    """One line for the test report: whether PostgreSQL runs, and how to enable it if not."""
    if POSTGRES_URL:
        server = make_url(POSTGRES_URL)
        return (
            f"PostgreSQL tests: ON (server {server.host}:{server.port}; "
            f"services and end-to-end run on SQLite and PostgreSQL)"
        )
    return f"PostgreSQL tests: SKIPPED (SQLite only). To run them: {ENABLE_HINT}"


def _admin(sql: str) -> list[tuple]:
    """Run one statement on the server's ``postgres`` database (outside any transaction)."""
    import asyncpg

    assert POSTGRES_URL, "no PostgreSQL server configured"
    url = make_url(POSTGRES_URL).set(drivername="postgresql", database="postgres")

    async def run() -> list[tuple]:
        connection = await asyncpg.connect(url.render_as_string(hide_password=False))
        try:
            return [tuple(row) for row in await connection.fetch(sql)]
        finally:
            await connection.close()

    return asyncio.run(run())


def database_exists(name: str) -> bool:
    return bool(_admin(f"SELECT 1 FROM pg_database WHERE datname = '{name}'"))


@contextmanager
def postgres_database() -> Iterator[str]:
    """The URL of a new, empty database on the test server, dropped afterwards."""
    name = f"{PREFIX}{os.getpid()}_{uuid.uuid4().hex[:8]}"
    _admin(f'CREATE DATABASE "{name}"')
    CREATED.add(name)
    try:
        yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        CREATED.discard(name)
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def bot_database(backend: str, directory: Path) -> Iterator[str]:
    """A ``DATABASE_URL`` for one bot process (or one series of restarts) on ``backend``:
    a new SQLite file in ``directory``, or a new PostgreSQL database dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{directory / 'arbitro.db'}"
    elif backend == "postgresql":
        with postgres_database() as url:
            yield url
    else:
        raise ValueError(f"unknown backend {backend!r}")


async def reset_schema(engine: AsyncEngine) -> None:
    """Empty a PostgreSQL database this run created (refuses any other: never lose data)."""
    name = engine.url.database
    if name not in CREATED:
        raise RuntimeError(
            f"refusing to drop the schema of database {name!r}: this test run did not create it"
        )
    async with engine.begin() as connection:
        await connection.execute(text("DROP SCHEMA public CASCADE"))
        await connection.execute(text("CREATE SCHEMA public"))


def _head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    from bot.db.migrate import alembic_config

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def empty_database(engine: AsyncEngine) -> None:
    """Bring a PostgreSQL database this run created back to an empty, migrated state.

    When it is already at the latest migration, emptying every table (``TRUNCATE … RESTART
    IDENTITY``: ids start again at 1, as in a new database) is several times faster than
    dropping the schema and migrating again; anything else (a first use, a test that
    migrated up or down) gets the full :func:`reset_schema`.  The caller migrates afterwards.
    """
    if engine.url.database not in CREATED:
        await reset_schema(engine)  # refuses, with the reason
    async with engine.begin() as connection:
        tables = [
            row[0]
            for row in await connection.execute(
                text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            )
        ]
        version = None
        if "alembic_version" in tables:
            version = (
                await connection.execute(text("SELECT version_num FROM alembic_version"))
            ).scalar_one_or_none()
        data = [t for t in tables if t != "alembic_version"]
        if version is not None and version == _head_revision() and data:
            listed = ", ".join(f'"{t}"' for t in data)
            await connection.execute(text(f"TRUNCATE {listed} RESTART IDENTITY CASCADE"))
            return
    await reset_schema(engine)
