"""Shared fixtures: a real, migrated database per test (never a mock of the database).

SQLite files always; PostgreSQL too when ``ARBITRO_TEST_POSTGRES_URL`` names a server
(``postgresql+asyncpg://postgres@127.0.0.1:55432/arbitro_test``): every service test then
runs on both, each from an empty schema.
"""

from __future__ import annotations

import os
import random

import pytest
from sqlalchemy import text

from bot.db.engine import create_engine
from bot.db.migrate import upgrade

POSTGRES_URL = os.environ.get("ARBITRO_TEST_POSTGRES_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])


@pytest.fixture(params=BACKENDS)
async def engine(request, tmp_path):
    if request.param == "sqlite":
        engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'arbitro.db'}")
    else:
        engine = create_engine(POSTGRES_URL)
        async with engine.begin() as connection:
            await connection.execute(text("DROP SCHEMA public CASCADE"))
            await connection.execute(text("CREATE SCHEMA public"))
    await upgrade(engine)
    yield engine
    await engine.dispose()


@pytest.fixture
async def services(engine):
    from bot.app import Services

    return Services(engine, rng=random.Random(1234))
