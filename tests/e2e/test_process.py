"""The bot process itself: no token, migrations on start, clean shutdown on SIGTERM/SIGINT,
and one clear line (exit status 2) for every database it cannot use."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from standin.client import REPO, Sandbox
from tests.e2e.helpers import start_arbitro

pytestmark = pytest.mark.e2e


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID")}
    env.update(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'a.db'}",
            "PYTHONPATH": str(REPO),
            "DISCORD_TOKEN": "",
            **extra,
        }
    )
    return env


@pytest.mark.parametrize(
    ("locale", "needle"), [("es", "applications.commands"), ("en", "How to get one")]
)
def test_without_a_token_it_explains_and_offers_the_sandbox(tmp_path, locale, needle):
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        env=_env(tmp_path, ARBITRO_DEFAULT_LOCALE=locale),
        cwd=tmp_path,  # no .env here
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0  # explained, not failed: make adds no "Error 2"
    assert needle in result.stderr
    assert "make sandbox" in result.stderr  # works from the shell make run was typed in
    assert ("Sin terminal" if locale == "es" else "no terminal") in result.stderr


def test_migrate_command_creates_the_schema_in_wal_mode(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"],
        env=_env(tmp_path),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(tmp_path / "a.db") as db:
        tables = {row[0] for row in db.execute("select name from sqlite_master where type='table'")}
        mode = db.execute("pragma journal_mode").fetchone()[0]
    assert {"campaign", "roll_log", "character", "alembic_version"} <= tables
    assert mode == "wal"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signals_shut_the_bot_down_cleanly(bot_database_url, tmp_path, signum):
    sb = start_arbitro(bot_database_url, tmp_path)
    try:
        deadline = time.monotonic() + 60
        while "ready as" not in sb.bot_log():  # connected and serving (was: sleep 0.5 s)
            assert sb.proc.poll() is None and time.monotonic() < deadline, sb.bot_log()
            time.sleep(0.05)
        sb.proc.send_signal(signum)
        try:
            code = sb.proc.wait(20)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"no exit 20 s after the signal\n{sb.bot_log(60)}") from None
        assert code == 0, sb.bot_log(60)
        assert "shutting down" in sb.bot_log()
    finally:
        sb.close()


def _corrupt(db: Path) -> None:
    data = bytearray(db.read_bytes())
    data[4096 : 4096 + 16] = b"X" * 16
    db.write_bytes(bytes(data))


def _truncate(db: Path) -> None:
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])


def _newer(db: Path) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    connection.close()


def _migrated(tmp_path: Path) -> Path:
    """A real database made by the bot itself, then closed (no -wal left behind)."""
    db = tmp_path / "a.db"
    result = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"],
        env=_env(tmp_path),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return db


BAD_DATABASES = {
    # name: (prepare(tmp_path) -> DATABASE_URL, expected words in es, in en)
    "not a url": (lambda tmp: "esto-no-es-una-url", "no es una URL", "is not a database URL"),
    "missing folder": (
        lambda tmp: f"sqlite+aiosqlite:///{tmp / 'falta' / 'a.db'}",
        "no existe",
        "does not exist",
    ),
    "parent is a file": (
        lambda tmp: (tmp / "f").write_text("x") and f"sqlite+aiosqlite:///{tmp / 'f' / 'a.db'}",
        "es un archivo y no una carpeta",
        "is a file, not a folder",
    ),
    "directory": (
        lambda tmp: (tmp / "d").mkdir() or f"sqlite+aiosqlite:///{tmp / 'd'}",
        "es una carpeta",
        "is a folder",
    ),
    # SQLAlchemy loads the dialect of a scheme without a driver: this one was a traceback
    "unknown scheme": (lambda tmp: "redis://localhost/0", "«redis»", '"redis"'),
    "other driver": (lambda tmp: "mysql+aiomysql://u@h/db", "no admite", "does not support"),
    # a throwaway database: every campaign lost at the next restart
    "in memory": (lambda tmp: "sqlite+aiosqlite:///:memory:", ":memory:", ":memory:"),
    "no path": (lambda tmp: "sqlite+aiosqlite://", "ningún archivo", "no SQLite file"),
    "empty path": (lambda tmp: "sqlite+aiosqlite:///", "ningún archivo", "no SQLite file"),
}
DAMAGED = {
    "corrupt": (_corrupt, "dañada", "damaged"),
    "truncated": (_truncate, "cortada", "cut short"),
    "newer schema": (_newer, "más nueva", "newer version"),
}


def _expect_refusal(tmp_path: Path, url: str, command: list[str], locale: str, words: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", *command],
        env=_env(tmp_path, DATABASE_URL=url, DISCORD_TOKEN="x", ARBITRO_DEFAULT_LOCALE=locale),
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr  # one line, no traceback
    assert words in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [["migrate"], ["run"]])
@pytest.mark.parametrize("case", sorted(BAD_DATABASES))
def test_a_bad_database_url_is_one_clear_line_and_exit_2(tmp_path, case, command):
    prepare, es, en = BAD_DATABASES[case]
    url = prepare(tmp_path)
    _expect_refusal(tmp_path, url, command, "es", es)
    _expect_refusal(tmp_path, url, command, "en", en)


def _as_a_host_gives_it(url: str) -> str:
    """The bot's test URL as hosting providers write it: Heroku's ``postgres://`` with
    libpq's ``sslmode`` (asyncpg calls it ``ssl``), or a bare ``sqlite://``."""
    if url.startswith("postgresql+asyncpg://"):
        return "postgres://" + url.removeprefix("postgresql+asyncpg://") + "?sslmode=disable"
    return "sqlite://" + url.removeprefix("sqlite+aiosqlite://")


def test_the_url_a_host_gives_is_used_with_the_async_driver(tmp_path, bot_database_url):
    """``DATABASE_URL=postgres://…`` (the Procfile's hosts) printed a 27-line traceback and
    exited 1; it now names PostgreSQL through asyncpg (``sqlite://``, SQLite through
    aiosqlite), and the bot migrates and starts on it."""
    url = _as_a_host_gives_it(bot_database_url)
    result = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"],
        env=_env(tmp_path, DATABASE_URL=url),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    sb = start_arbitro(url, tmp_path)
    try:
        g = sb.new_guild(name="Heroku")
        sb.command("roll", {"expression": "1d20"}, guild=g, channel="mesa", user="ana").expect_ok()
    finally:
        sb.close()


@pytest.fixture(scope="module")
def bot_made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database made by ``python -m bot migrate``, for the tests that damage a copy."""
    return _migrated(tmp_path_factory.mktemp("bot-made"))


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_a_damaged_database_is_refused_and_never_modified(tmp_path, case, bot_made):
    damage, es, en = DAMAGED[case]
    db = tmp_path / "a.db"
    shutil.copy2(bot_made, db)  # with its mode (0600)
    damage(db)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    url = f"sqlite+aiosqlite:///{db}"
    _expect_refusal(tmp_path, url, ["run"], "es", es)
    _expect_refusal(tmp_path, url, ["migrate"], "en", en)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert not db.with_name("a.db-wal").exists()


def test_the_database_file_is_created_private(tmp_path):
    db = _migrated(tmp_path)
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    for companion in ("a.db-wal", "a.db-shm"):
        path = db.with_name(companion)
        if path.exists():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_second_process_on_one_sqlite_file_is_refused_until_the_first_dies(tmp_path):
    """SQLite serves one process: a second one (a second shard by mistake) gets one clear
    line and exit status 2; the OS drops the lock even when the first is SIGKILLed."""
    db = f"sqlite+aiosqlite:///{tmp_path / 'c.db'}"
    sb = Sandbox()
    try:
        sb.start_bot("bot.__main__", env={"DATABASE_URL": db}, log_path=tmp_path / "bot.log")
        # it started on no file at all: it created it and migrated it before connecting
        with sqlite3.connect(tmp_path / "c.db") as made:
            tables = {r[0] for r in made.execute("select name from sqlite_master")}
        made.close()
        assert {"campaign", "roll_log", "timer", "alembic_version"} <= tables
        for command, locale, needle in (
            ([], "es", "Otro proceso de Árbitro ya usa la base de datos SQLite"),
            (["migrate"], "en", "Another Árbitro process is already using the SQLite database"),
        ):
            second = subprocess.run(
                [sys.executable, "-m", "bot", *command],
                env=_env(
                    tmp_path,
                    DATABASE_URL=db,
                    DISCORD_TOKEN="x.y.z",
                    ARBITRO_DEFAULT_LOCALE=locale,
                    SHARD_COUNT="2",
                    SHARD_IDS="1",
                ),
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert second.returncode == 2, second.stderr
            assert needle in second.stderr and "PostgreSQL" in second.stderr
            assert len(second.stderr.strip().splitlines()) == 1
        sb.proc.kill()
        sb.proc.wait(10)
        after = subprocess.run(
            [sys.executable, "-m", "bot", "migrate"],
            env=_env(tmp_path, DATABASE_URL=db),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert after.returncode == 0, after.stderr
    finally:
        sb.close()


@pytest.mark.parametrize(
    ("env", "locale", "needle"),
    [
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "es", "SHARD_IDS debe ser una lista"),
        ({"SHARD_IDS": "0"}, "en", "need SHARD_COUNT"),
        ({"SHARD_COUNT": "dos"}, "es", "SHARD_COUNT debe ser un número entero"),
        ({"SHARD_COUNT": "4", "SHARD_INDEX": "2", "SHARDS_PER_PROCESS": "2"}, "en", "beyond"),
    ],
)
def test_bad_shard_settings_get_one_translated_line_and_exit_2(tmp_path, env, locale, needle):
    result = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"],
        env=_env(tmp_path, ARBITRO_DEFAULT_LOCALE=locale, **env),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert needle in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
