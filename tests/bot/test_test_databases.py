"""The test suite's own databases (tests/databases.py): made for one use, dropped after it,
and no schema reset on a database the run did not create — a mistyped
``ARBITRO_TEST_POSTGRES_URL`` pointing at real data must never lose it."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from bot.db.engine import create_engine
from tests import databases
from tests.databases import (
    bot_database,
    database_exists,
    empty_database,
    postgres_database,
    reset_schema,
)

needs_postgres = pytest.mark.skipif(
    "postgresql" not in databases.BACKENDS, reason="ARBITRO_TEST_POSTGRES_URL is not set"
)


def _refused(url: str) -> str:
    async def attempt() -> None:
        engine = create_engine(url)
        try:
            await reset_schema(engine)
        finally:
            await engine.dispose()

    with pytest.raises(RuntimeError) as refused:
        asyncio.run(attempt())
    return str(refused.value)


def test_the_schema_of_a_database_the_run_did_not_create_is_never_dropped() -> None:
    # Refused before any connection is made: no server is needed to prove it.
    url = databases.POSTGRES_URL or "postgresql+asyncpg://postgres@127.0.0.1:9/arbitro_test"
    assert "did not create it" in _refused(url)
    assert "did not create it" in _refused("postgresql+asyncpg://postgres@127.0.0.1:9/produccion")


@needs_postgres
def test_each_use_gets_a_new_database_that_is_dropped_afterwards() -> None:
    with postgres_database() as first, postgres_database() as second:
        names = [url.rsplit("/", 1)[1] for url in (first, second)]
        assert names[0] != names[1] and all(n.startswith(databases.PREFIX) for n in names)
        assert all(database_exists(n) for n in names)
        assert set(names) <= databases.CREATED
    assert not any(database_exists(n) for n in names)
    assert not set(names) & databases.CREATED
    # once dropped, it is no longer ours to reset either
    assert "did not create it" in _refused(first)


@needs_postgres
def test_the_database_is_dropped_even_when_the_test_fails() -> None:
    with pytest.raises(ZeroDivisionError), postgres_database() as url:
        name = url.rsplit("/", 1)[1]
        1 / 0  # noqa: B018 - the failure under test
    assert not database_exists(name)


def test_a_bot_on_sqlite_gets_a_file_in_its_own_directory(tmp_path) -> None:
    with bot_database("sqlite", tmp_path) as url:
        assert url == f"sqlite+aiosqlite:///{tmp_path / 'arbitro.db'}"
    with pytest.raises(ValueError), bot_database("mysql", tmp_path):
        pass


@needs_postgres
def test_between_tests_the_database_is_emptied_and_ids_start_again() -> None:
    from bot.app import Services
    from bot.db.migrate import upgrade
    from bot.services import Actor, Place

    here, gm = Place(1000, 11, (11,)), Actor(1, "Máster", can_manage_channels=True)

    async def one_test(url: str) -> list[tuple]:
        engine = create_engine(url)
        try:
            await empty_database(engine)
            await upgrade(engine)
            services = Services(engine)
            await services.campaigns.create(
                here, gm, name="Mesa", system="nucleo", target_id=11, kind="channel"
            )
            async with engine.connect() as connection:
                return [tuple(r) for r in await connection.execute(text("SELECT id FROM campaign"))]
        finally:
            await engine.dispose()

    with postgres_database() as url:
        assert asyncio.run(one_test(url)) == [(1,)]  # first use: schema created
        assert asyncio.run(one_test(url)) == [(1,)]  # emptied, not dropped: same as new
