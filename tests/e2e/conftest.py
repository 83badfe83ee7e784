"""Fixtures that start the stand-in and a real bot process.

``discord_env`` is Árbitro (``python -m bot`` through the launcher) connected to the
stand-in: **one process per test session and backend** — on SQLite, and again on PostgreSQL
when ``ARBITRO_TEST_POSTGRES_URL`` names a server (tests/databases.py), each on a database
created for it and dropped afterwards.  Tests share it and isolate from each other with
``sb.new_guild()``: never assume an empty database, a first roll number or a quiet stand-in.
A test that needs a process of its own (a restart, a signal, other settings) takes
``bot_database_url`` (a fresh database on the same backend) and starts one with
``tests.e2e.helpers.start_arbitro``.  When a test fails, the bot's log tail is added to the report.
"""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.db.engine import sqlite_path
from standin.client import REPO, Sandbox
from tests.databases import BACKENDS, bot_database
from tests.e2e.helpers import start_arbitro

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session", params=BACKENDS)
def discord_env(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path
) -> Iterator[Sandbox]:
    """The stand-in with Árbitro connected, shared by the session, on a fresh database."""
    if not (REPO / "bot" / "__main__.py").exists():
        pytest.skip("bot/__main__.py does not exist yet")
    tmp = tmp_path_factory.mktemp(f"arbitro-{request.param}")
    with bot_database(request.param, tmp) as url:
        _start_migrated(url, migrated_sqlite)
        sb = start_arbitro(url, tmp)
        try:
            yield sb
            unknown = sb.unknown_requests
        finally:
            sb.close()  # before the database is dropped
    if unknown:
        # Not a failure (a test may probe on purpose), but nobody should miss it.
        seen = sorted({f"{r['method']} {r['path']}" for r in unknown})
        warnings.warn(f"the bot made requests the stand-in does not model: {seen}", stacklevel=1)


@pytest.fixture(params=BACKENDS)
def bot_database_url(
    request: pytest.FixtureRequest, tmp_path: Path, migrated_sqlite: Path
) -> Iterator[str]:
    """A ``DATABASE_URL`` of a database of this test's own, on each backend, dropped afterwards:
    for tests that start (and restart) their own bot process."""
    with bot_database(request.param, tmp_path) as url:
        _start_migrated(url, migrated_sqlite)
        yield url


def _start_migrated(url: str, migrated_sqlite: Path) -> None:
    """A SQLite bot starts on a copy of a file already at the latest schema, made private as
    the bot makes its own (``0600``): on an empty file it would run every migration first
    (~0.5 s of CPU a bot).  Migrations themselves are proved by tests/bot/test_migrations.py,
    and a bot that creates and migrates its file at start by
    ``test_a_second_process_on_one_sqlite_file_is_refused_until_the_first_dies``,
    ``test_migrate_command_creates_the_schema_in_wal_mode`` and the sandbox tests.
    PostgreSQL databases start empty: the bot migrates them."""
    if (path := sqlite_path(url)) is not None:
        shutil.copyfile(migrated_sqlite, path)
        path.chmod(0o600)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.failed and report.when == "call":
        for name, value in getattr(item, "funcargs", {}).items():
            if isinstance(value, Sandbox) and value.proc is not None:
                report.sections.append((f"bot log ({name}, tail)", value.bot_log(80)))
