"""Shared fixtures: a real, migrated SQLite file per test (never a mock of the database)."""

from __future__ import annotations

import random

import pytest

from bot.db.engine import create_engine
from bot.db.migrate import upgrade


@pytest.fixture
async def engine(tmp_path):
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'arbitro.db'}")
    await upgrade(engine)
    yield engine
    await engine.dispose()


@pytest.fixture
async def services(engine):
    from bot.app import Services

    return Services(engine, rng=random.Random(1234))
