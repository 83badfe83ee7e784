"""Check the database before anything touches it: one clear, translated line instead of a traceback.

A typo in ``DATABASE_URL``, a folder that does not exist, a directory where the file should
be, a file that is not a SQLite database or was cut short, a schema written by a newer
Árbitro, a SQLite library older than the statements the bot writes (``RETURNING``, 3.35):
each stops the process (exit status 2) with a sentence saying what to fix.

A damaged file is only ever *read*, through an ``immutable`` connection that takes no lock
and writes nothing (no journal, no WAL switch), so the check cannot make it worse, and the
migration that would write to it never starts.  A missing SQLite file is created here, empty
and private (``0600``: rolls, sheets and GM secrets are nobody else's business); SQLite gives
its ``-wal``/``-shm`` companions the same permissions.  The default ``var/`` folder is created
``0700``; any other missing folder is refused, because a typo in the path would otherwise start
the bot on a new, empty database and the group would think its campaigns were lost.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from bot.config import REPO_ROOT, StartupProblem

__all__ = [
    "DatabaseProblem",
    "check_database",
    "check_sqlite_file",
    "check_sqlite_library",
    "known_revisions",
    "throwaway_sqlite",
    "VAR_DIR",
]

VAR_DIR = REPO_ROOT / "var"
SUPPORTED = {("sqlite", "aiosqlite"), ("postgresql", "asyncpg")}
HEADER = b"SQLite format 3\x00"
#: ``INSERT … RETURNING`` (every audit-log batch, bot/db/roll_log_writes.py) needs SQLite 3.35;
#: ``UPDATE … FROM`` (the message links) 3.33.  Python links whatever its system has: an older
#: distribution's would fail every roll instead of refusing to start.
MIN_SQLITE = (3, 35, 0)


class DatabaseProblem(StartupProblem):
    """The database cannot be used as configured (nothing has been written to it)."""


def parse_url(url: str) -> URL:
    """The parsed URL, or a problem saying what a valid one looks like (never echoing it)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise DatabaseProblem("cli.db.not_a_url") from None
    # drivername as typed: asking SQLAlchemy for the backend or the driver loads the dialect,
    # and an unknown one («redis://») raised NoSuchModuleError with a traceback
    if tuple(parsed.drivername.split("+", 1)) not in SUPPORTED:
        raise DatabaseProblem("cli.db.unsupported", scheme=parsed.drivername[:40])
    if parsed.drivername.startswith("sqlite") and throwaway_sqlite(parsed):
        raise DatabaseProblem("cli.db.in_memory")
    return parsed


def throwaway_sqlite(parsed: URL) -> bool:
    """A SQLite URL with no file (``sqlite+aiosqlite://``, ``…///``, ``…///:memory:``, a
    ``mode=memory`` URI): the bot would start on a database that vanishes when it stops,
    and the group would lose every campaign at the next restart.  Tests build such engines
    directly (:func:`bot.db.engine.create_engine`); a deployment never gets one."""
    database = parsed.database or ""
    return (
        not database.strip()
        or database == ":memory:"
        or (database.startswith("file:") and ":memory:" in database)
        or parsed.query.get("mode") == "memory"
    )


def sqlite_path(parsed: URL) -> Path | None:
    """The absolute file of a SQLite URL (relative paths are relative to the repository)."""
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(parsed.database)
    return path if path.is_absolute() else REPO_ROOT / path


def check_database(url: str) -> list[tuple[str, dict[str, Any]]]:
    """Refuse a database the bot cannot use; create a missing SQLite file privately.

    Returns warnings (catalogue key, parameters), e.g. a database file others can read.
    """
    parsed = parse_url(url)
    if parsed.get_backend_name() == "sqlite":
        check_sqlite_library(sqlite3.sqlite_version_info)
    path = sqlite_path(parsed)
    if path is None:
        return []
    _prepare_folder(path.parent)
    warnings: list[tuple[str, dict[str, Any]]] = []
    if path.is_dir():
        raise DatabaseProblem("cli.db.is_directory", path=str(path))
    if path.exists():
        if not os.access(path, os.R_OK | os.W_OK):
            raise DatabaseProblem("cli.db.file_not_writable", path=str(path))
        check_sqlite_file(path)
        if path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            warnings.append(("cli.db.file_readable", {"path": str(path)}))
    else:
        _create_private(path)
    return warnings


def check_sqlite_library(version: tuple[int, int, int]) -> None:
    """Refuse a SQLite library older than :data:`MIN_SQLITE`, naming both versions."""
    if version < MIN_SQLITE:
        raise DatabaseProblem(
            "cli.db.sqlite_too_old",
            version=".".join(map(str, version)),
            minimum=".".join(map(str, MIN_SQLITE)),
        )


def _prepare_folder(folder: Path) -> None:
    for ancestor in (folder, *folder.parents):
        if ancestor.exists():
            if not ancestor.is_dir():
                raise DatabaseProblem("cli.db.parent_is_file", path=str(ancestor))
            break
    if not folder.exists():
        if folder != VAR_DIR:
            raise DatabaseProblem("cli.db.missing_dir", path=str(folder))
        try:
            folder.mkdir(mode=0o700, parents=True)
        except OSError as error:
            raise DatabaseProblem(
                "cli.db.cannot_create_dir", path=str(folder), reason=error.strerror or error
            ) from None
    if folder == VAR_DIR and folder.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        folder.chmod(0o700)  # the bot's own folder: keep it private
    if not os.access(folder, os.W_OK | os.X_OK):
        # SQLite writes its -wal and -shm files next to the database.
        raise DatabaseProblem("cli.db.dir_not_writable", path=str(folder))


def _create_private(path: Path) -> None:
    """An empty file is an empty SQLite database; creating it ourselves fixes its mode."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return
    except OSError as error:
        raise DatabaseProblem(
            "cli.db.cannot_create", path=str(path), reason=error.strerror or error
        ) from None
    os.close(fd)


def check_sqlite_file(path: Path) -> None:
    """Refuse a file that is not a sound SQLite database, or whose schema is newer than the code.

    Read-only: the header is read directly and the rest through an ``immutable`` connection.
    """
    size = path.stat().st_size
    if size == 0:
        return  # a new database: SQLite writes the header on first use
    with path.open("rb") as handle:
        header = handle.read(100)
    if len(header) < 100 or not header.startswith(HEADER):
        raise DatabaseProblem("cli.db.not_sqlite", path=str(path))
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise DatabaseProblem("cli.db.corrupt", path=str(path))
    pages = int.from_bytes(header[28:32], "big")
    # The page count in the header is trustworthy only when "version-valid-for" matches
    # the change counter (SQLite's file format, section 1.3.7).
    if pages and header[24:28] == header[92:96] and size < pages * page_size:
        raise DatabaseProblem("cli.db.truncated", path=str(path))
    try:
        connection = sqlite3.connect(f"{path.as_uri()}?immutable=1", uri=True)
        try:
            verdict = connection.execute("PRAGMA quick_check").fetchall()
            has_version = connection.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
            ).fetchone()
            stored = (
                [row[0] for row in connection.execute("SELECT version_num FROM alembic_version")]
                if has_version
                else []
            )
        finally:
            connection.close()
    except sqlite3.DatabaseError:
        raise DatabaseProblem("cli.db.corrupt", path=str(path)) from None
    if verdict != [("ok",)]:
        raise DatabaseProblem("cli.db.corrupt", path=str(path))
    check_revisions(stored)


def known_revisions() -> set[str]:
    from alembic.script import ScriptDirectory

    from bot.db.migrate import alembic_config

    script = ScriptDirectory.from_config(alembic_config())
    return {revision.revision for revision in script.walk_revisions()}


def check_revisions(stored: list[str]) -> None:
    """A revision this code does not know was written by a newer Árbitro: never downgrade it."""
    unknown = sorted(set(stored) - known_revisions())
    if unknown:
        raise DatabaseProblem("cli.db.schema_newer", revision=", ".join(unknown))
