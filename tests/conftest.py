"""Shared fixtures: a real, migrated database per test (never a mock of the database).

SQLite files always; PostgreSQL too when ``ARBITRO_TEST_POSTGRES_URL`` names a server
(``postgresql+asyncpg://postgres@127.0.0.1:55432/arbitro_test``): every service test then
runs on both, each from an empty schema.  The suite never touches the database that URL
names: each run creates a database of its own with a unique name (``arbitro_t_<pid>_<hex>``)
on that server, resets only that one between tests, and drops it at the end, so two runs
(two developers, or CI beside a developer) can share one server.
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.db.engine import create_engine
from bot.db.migrate import upgrade

POSTGRES_URL = os.environ.get("ARBITRO_TEST_POSTGRES_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])


def _admin(sql: str) -> None:
    """Run one statement on the server's ``postgres`` database (outside any transaction)."""
    import asyncio

    import asyncpg

    url = make_url(POSTGRES_URL).set(drivername="postgresql", database="postgres")

    async def run() -> None:
        connection = await asyncpg.connect(url.render_as_string(hide_password=False))
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    asyncio.run(run())


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str | None]:
    """A database created for this run only, dropped when the run ends (None without a server)."""
    if not POSTGRES_URL:
        yield None
        return
    name = f"arbitro_t_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    _admin(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=BACKENDS)
async def engine(request, tmp_path, postgres_url):
    if request.param == "sqlite":
        engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'arbitro.db'}")
    else:
        engine = create_engine(postgres_url)
        async with engine.begin() as connection:
            await connection.execute(text("DROP SCHEMA public CASCADE"))
            await connection.execute(text("CREATE SCHEMA public"))
    await upgrade(engine)
    yield engine
    await engine.dispose()


@pytest.fixture
async def services(engine):
    from bot.app import Services

    services = Services(engine, rng=random.Random(1234))
    yield services
    await services.compute.close()  # the worker process, if a test started it
