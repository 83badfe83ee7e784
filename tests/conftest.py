"""Shared fixtures: a real, migrated database per test (never a mock of the database).

SQLite files always; PostgreSQL too when ``ARBITRO_TEST_POSTGRES_URL`` names a server
(``postgresql+asyncpg://postgres@127.0.0.1:55432/arbitro_test``): every service test then
runs on both, each from an empty schema.  The suite never touches the database that URL
names: each run creates a database of its own with a unique name (``arbitro_t_<pid>_<hex>``)
on that server, resets only that one between tests, and drops it at the end, so two runs
(two developers, or CI beside a developer) can share one server.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

# Imported now, at collection: otherwise hypothesis's pytest plugin imports it in its terminal
# summary when no selected test did, deep inside pytest's hooks, where CPython 3.11.7's
# ast.parse (pytest's assertion rewriting) can fail with "SystemError: AST constructor
# recursion depth mismatch" — after every test passed, losing the summary line and exit 0.
import hypothesis  # noqa: F401
import pytest

from bot.compute import ComputePool
from bot.db.engine import create_engine
from bot.db.migrate import upgrade
from tests.browser import browser_status
from tests.databases import BACKENDS, empty_database, postgres_database, status_line


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Work units for ``pytest -n … --dist loadgroup`` (``make test``): every test is in a group.

    * The end-to-end tests on ``discord_env`` (one bot process per backend and worker) go
      to one group per backend and *shard*: the modules, in name order, dealt round-robin
      into as many shards as there are workers, so the bot start-ups stay few (at most one
      per group) while the end-to-end suite still spreads over every worker.  A whole module
      stays in one shard, which keeps its module-scoped fixtures (``table``) set up once.
    * Every other test is grouped with its module: module-scoped fixtures (``tiny_env``, the
      retention ``bot``) start once, and a worker gets a module at a time.  Left ungrouped,
      each test would be a unit of its own, sent and acknowledged one by one: on a loaded
      machine that round trip made the run several times slower than without xdist.

    Without xdist the marks change nothing.
    """
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    e2e_modules = sorted({_module(item) for item in items if "discord_env" in item.fixturenames})  # type: ignore[attr-defined]
    shard_of = {name: index % workers for index, name in enumerate(e2e_modules)}
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "discord_env" in callspec.params:
            backend = callspec.params["discord_env"]
            group = f"e2e-{backend}-{shard_of[_module(item)]}"
        else:
            group = _module(item)
        item.add_marker(pytest.mark.xdist_group(group))


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def pytest_configure(config: pytest.Config) -> None:
    """The bots this test process starts (Árbitro, and the stand-in's own tiny discord.py bot)
    are forked from one that has imported Árbitro and discord.py already
    (standin/forkserver.py): a run starts dozens, ~1.5 s of CPU each saved."""
    from standin.client import use_fork_server

    use_fork_server(("bot.__main__", "tests.standin.tiny_bot"))


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [status_line(), browser_status()]


def pytest_unconfigure(config: pytest.Config) -> None:
    """Repeat the PostgreSQL and browser status as the very last lines, where a reader of
    ``make test`` looks."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        for line in (status_line(), browser_status()):
            reporter.write_line(line, yellow="SKIPPED" in line, green="SKIPPED" not in line)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str | None]:
    """A database created for this run's service tests, dropped when the run ends (None
    without a server); see tests/databases.py."""
    if "postgresql" not in BACKENDS:
        yield None
        return
    with postgres_database() as url:
        yield url


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file at the latest schema, migrated once per test process: each test gets a
    copy (a few milliseconds) instead of running every migration again (~0.5 s a test).
    ``tests/bot/test_migrations.py`` runs the migrations themselves on fresh files."""
    path = tmp_path_factory.mktemp("migrated") / "arbitro.db"

    async def migrate() -> None:
        engine = create_engine(f"sqlite+aiosqlite:///{path}")
        await upgrade(engine)
        await engine.dispose()  # the last connection checkpoints the WAL into the file

    asyncio.run(migrate())
    return path


@pytest.fixture(params=BACKENDS)
async def engine(request, tmp_path, postgres_url, migrated_sqlite):
    if request.param == "sqlite":
        shutil.copyfile(migrated_sqlite, tmp_path / "arbitro.db")
        engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'arbitro.db'}")
    else:
        engine = create_engine(postgres_url)
        await empty_database(engine)
        await upgrade(engine)
    yield engine
    await engine.dispose()


@pytest.fixture(scope="session")
def shared_compute() -> Iterator[ComputePool]:
    """One worker process for every service test of this test process: spawning one per test
    (the chronicle's zips, exact odds) cost about a second each."""
    pool = ComputePool()
    yield pool
    asyncio.run(pool.close())


@pytest.fixture
async def services(engine, shared_compute):
    from bot.app import Services

    return Services(engine, rng=random.Random(1234), compute=shared_compute)


@pytest.fixture
async def loaded_bot():
    """The real bot with every extension loaded (its command tree, its registered buttons),
    never connected; no database is opened."""
    from bot.app import EXTENSIONS, Arbitro
    from bot.config import load_config
    from bot.translator import CatalogueTranslator

    bot = Arbitro(load_config({}), create_engine("sqlite+aiosqlite:///:memory:"))
    await bot.tree.set_translator(CatalogueTranslator())
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    yield bot
    # unloading stops the combat cog's reminder task (it cannot start without a login); left
    # alone, its error is logged at garbage collection, and 3.11's traceback then calls
    # ast.parse inside whatever ast.parse is running ("AST constructor recursion depth mismatch")
    for extension in reversed(EXTENSIONS):
        await bot.unload_extension(extension)
    await bot.engine.dispose()
