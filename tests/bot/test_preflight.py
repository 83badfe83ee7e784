"""The database check before start: each bad ``DATABASE_URL`` is one clear error, nothing written.

Permission failures (an unwritable folder or file) cannot happen when the tests run as root;
they are listed as manual checks in docs/deployment.md.  Everything else is tested here and,
through the real process, in tests/e2e/test_process.py.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import stat

import pytest
from sqlalchemy import text

from bot.db import preflight
from bot.db.migrate import upgrade
from bot.db.preflight import DatabaseProblem, check_database


def _url(path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _problem(url: str) -> DatabaseProblem:
    with pytest.raises(DatabaseProblem) as caught:
        check_database(url)
    return caught.value


@pytest.fixture
def good_db(tmp_path, migrated_sqlite):
    """A real, migrated database file (a copy of the one the bot's own migrations built for
    this test process: tests/conftest.py), with rows enough for several pages."""
    import asyncio

    from bot.db.engine import create_engine

    path = tmp_path / "good.db"
    shutil.copyfile(migrated_sqlite, path)

    async def build() -> None:
        engine = create_engine(_url(path))
        async with engine.begin() as connection:
            for n in range(200):  # enough rows for several pages
                await connection.execute(
                    text(
                        "INSERT INTO roll_log (guild_id, channel_id, user_id, user_name, kind,"
                        " expression, breakdown, detail, total, fumble, private, created_at)"
                        " VALUES (1, 2, 3, 'ana', 'roll', '1d20', :b, '{}', 7, 0, 0,"
                        " CURRENT_TIMESTAMP)"
                    ),
                    {"b": f"tirada número {n} " * 10},
                )
        await engine.dispose()

    asyncio.run(build())
    for extra in ("-wal", "-shm"):
        (tmp_path / f"good.db{extra}").unlink(missing_ok=True)
    return path


@pytest.mark.parametrize("url", ["esto no es una url", "://", "mysql://u@h/db", "sqlite:///x.db"])
def test_not_a_usable_url(url):
    assert _problem(url).key in ("cli.db.not_a_url", "cli.db.unsupported")


def test_the_error_never_echoes_a_password():
    problem = _problem("mysql://usuario:clave-secreta@host/db")
    for locale in ("es", "en"):
        assert "clave-secreta" not in problem.render(locale)


def test_missing_folder_is_refused_not_created(tmp_path):
    problem = _problem(_url(tmp_path / "typo" / "arbitro.db"))
    assert problem.key == "cli.db.missing_dir"
    assert not (tmp_path / "typo").exists()


def test_parent_that_is_a_file(tmp_path):
    (tmp_path / "notes.txt").write_text("hola")
    problem = _problem(_url(tmp_path / "notes.txt" / "sub" / "arbitro.db"))
    assert problem.key == "cli.db.parent_is_file"
    assert problem.params["path"] == str(tmp_path / "notes.txt")


def test_directory_where_the_file_should_be(tmp_path):
    (tmp_path / "arbitro.db").mkdir()
    assert _problem(_url(tmp_path / "arbitro.db")).key == "cli.db.is_directory"


def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path):
    path = tmp_path / "arbitro.db"
    path.write_text("DISCORD_TOKEN=esto no es una base de datos\n" * 10)
    before = _digest(path)
    assert _problem(_url(path)).key == "cli.db.not_sqlite"
    assert _digest(path) == before


def test_truncated_file_is_refused_untouched(good_db):
    data = good_db.read_bytes()
    good_db.write_bytes(data[: len(data) // 2])
    before = _digest(good_db)
    assert _problem(_url(good_db)).key == "cli.db.truncated"
    assert _digest(good_db) == before
    assert not good_db.with_name("good.db-wal").exists()


@pytest.mark.parametrize("offset", [4096, 8192, 100])
def test_corrupted_file_is_refused_untouched(good_db, offset):
    data = bytearray(good_db.read_bytes())
    data[offset : offset + 16] = b"X" * 16
    good_db.write_bytes(bytes(data))
    before = _digest(good_db)
    assert _problem(_url(good_db)).key == "cli.db.corrupt"
    assert _digest(good_db) == before
    assert not good_db.with_name("good.db-wal").exists()


def test_schema_newer_than_the_code_is_refused_untouched(good_db):
    with sqlite3.connect(good_db) as db:
        db.execute("UPDATE alembic_version SET version_num = '9999'")
    db.close()
    before = _digest(good_db)
    problem = _problem(_url(good_db))
    assert problem.key == "cli.db.schema_newer"
    assert problem.params["revision"] == "9999"
    assert _digest(good_db) == before


async def test_upgrade_refuses_a_newer_schema_on_every_backend(engine):
    async with engine.begin() as connection:
        await connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(DatabaseProblem) as caught:
        await upgrade(engine)
    assert caught.value.key == "cli.db.schema_newer"
    async with engine.connect() as connection:
        stored = (await connection.execute(text("SELECT version_num FROM alembic_version"))).all()
    assert [row[0] for row in stored] == ["9999"]


def test_a_good_database_passes_and_a_new_one_is_created_private(good_db, tmp_path):
    good_db.chmod(0o600)
    assert check_database(_url(good_db)) == []
    fresh = tmp_path / "fresh.db"
    assert check_database(_url(fresh)) == []
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600


def test_a_database_readable_by_others_is_a_warning(good_db):
    good_db.chmod(0o644)
    assert check_database(_url(good_db)) == [("cli.db.file_readable", {"path": str(good_db)})]


def test_the_default_var_folder_is_created_private(tmp_path, monkeypatch):
    var = tmp_path / "var"
    monkeypatch.setattr(preflight, "VAR_DIR", var)
    check_database(_url(var / "arbitro.db"))
    assert stat.S_IMODE(var.stat().st_mode) == 0o700
    assert stat.S_IMODE((var / "arbitro.db").stat().st_mode) == 0o600
    var.chmod(0o755)  # an older checkout made it world-readable: tightened at start
    check_database(_url(var / "arbitro.db"))
    assert stat.S_IMODE(var.stat().st_mode) == 0o700


def test_postgresql_urls_need_no_file():
    assert check_database("postgresql+asyncpg://u:p@127.0.0.1:1/x") == []


@pytest.mark.parametrize(
    "url",
    [
        "sqlite+aiosqlite:///:memory:",
        "sqlite+aiosqlite://",
        "sqlite+aiosqlite:///",
        "sqlite+aiosqlite:///file::memory:?uri=true",
        "sqlite+aiosqlite:///file:x?mode=memory&uri=true",
    ],
)
def test_a_database_without_a_file_is_refused(url, tmp_path):
    """It started silently on a database that vanished at the next restart, with every
    campaign in it."""
    assert _problem(url).key == "cli.db.in_memory"


@pytest.mark.parametrize("url", ["redis://localhost/0", "postgres+asyncpg://u@h/db", "mysql://x"])
def test_an_unknown_scheme_is_named_without_loading_it(url):
    """SQLAlchemy loads a driverless scheme's dialect to name its driver: «redis://» was a
    NoSuchModuleError traceback."""
    problem = _problem(url)
    assert problem.key == "cli.db.unsupported"
    assert problem.params["scheme"] == url.split("://")[0]


@pytest.mark.parametrize("locale", ["es", "en"])
def test_every_problem_is_one_translated_line(locale):
    from bot.i18n import catalogue

    keys = [k for k in catalogue().messages[locale] if k.startswith("cli.db.")]
    assert len(keys) >= 15
    for key in keys:
        line = DatabaseProblem(
            key,
            path="/srv/x.db",
            reason="r",
            scheme="s",
            module="m",
            revision="9",
            version="3.31.1",
            minimum="3.35.0",
        ).render(locale)
        assert "\n" not in line and "{" not in line


def test_a_sqlite_library_too_old_for_returning_is_refused(tmp_path):
    """Python links the system's SQLite: one older than 3.35 cannot run the audit log's
    ``INSERT … RETURNING``, and is refused at start, naming both versions, nothing created."""
    with pytest.raises(DatabaseProblem) as caught:
        preflight.check_sqlite_library((3, 31, 1))
    problem = caught.value
    assert problem.key == "cli.db.sqlite_too_old"
    assert problem.params == {"version": "3.31.1", "minimum": "3.35.0"}
    assert "3.31.1" in problem.render("es") and "3.35.0" in problem.render("en")
    preflight.check_sqlite_library(preflight.MIN_SQLITE)  # the minimum itself is enough
    preflight.check_sqlite_library(sqlite3.sqlite_version_info)  # and this machine's


def test_check_database_asks_the_library_version_for_sqlite_only(tmp_path, monkeypatch):
    monkeypatch.setattr(preflight.sqlite3, "sqlite_version_info", (3, 34, 0))
    path = tmp_path / "arbitro.db"
    assert _problem(_url(path)).key == "cli.db.sqlite_too_old"
    assert not path.exists()
    assert check_database("postgresql+asyncpg://u@127.0.0.1/db") == []
