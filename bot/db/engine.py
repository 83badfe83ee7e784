"""The async engine and sessions.

SQLite runs in WAL mode with foreign keys on, through **one** connection: every session waits
its turn for it (``SQLITE_POOL_TIMEOUT``), so two commands never hold SQLite's write lock
against each other and no write is ever lost to "database is locked" (with a pool of 5 + 10
connections, 4 of 1,000 message-link updates under load failed that way, and the overflow
connections were closed and reopened over and over; issue 14).  A SQLite transaction is a
few hundred microseconds, so queueing costs less than contending.  PostgreSQL keeps a pool.
The busy timeout stays for other programs touching the file (a backup, ``sqlite3``).

SQLite serves one process: :func:`lock_sqlite` holds an exclusive OS lock on a file next to
the database for the life of the process, so a second process (a second shard started by
mistake on the same file) is refused with a clear message instead of sharing timers, caches
and write locks it was never designed to share.  Several processes need PostgreSQL.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import PoolResetState
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.config import REPO_ROOT

__all__ = [
    "DatabaseInUse",
    "create_engine",
    "lock_sqlite",
    "resolve_url",
    "session_factory",
    "sqlite_path",
]


class DatabaseInUse(RuntimeError):
    """Another process holds this SQLite database (see :func:`lock_sqlite`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(f"{path} is in use by another process")


def resolve_url(url: str) -> str:
    """Make a relative SQLite path absolute (relative to the repository).

    Folders and the file itself are checked and created by :mod:`bot.db.preflight`.
    """
    parsed = make_url(url)
    if (
        parsed.get_backend_name() != "sqlite"
        or not parsed.database
        or parsed.database == ":memory:"
    ):
        return url
    path = Path(parsed.database)
    if not path.is_absolute():
        path = REPO_ROOT / path
    return parsed.set(database=str(path)).render_as_string(hide_password=False)


def _sqlite_pragmas(dbapi_connection: DBAPIConnection, _record: object) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_reset(dbapi_connection: Any, _record: object, state: PoolResetState) -> None:
    """Roll back a connection returned to the pool only if it is inside a transaction.

    The pool's default reset sends a ``ROLLBACK`` on every return, a hand-off to aiosqlite's
    thread that does nothing after a commit: one of the five or six each transaction paid
    (issue 14 §1).  aiosqlite reads sqlite3's own ``in_transaction`` flag without a hand-off,
    so a connection given back mid-transaction (an error between a write and its commit, a
    raw ``BEGIN``) is still rolled back before anyone else uses it
    (``tests/bot/test_sqlite_writes.py``).
    """
    if state.terminate_only or not state.asyncio_safe:
        return  # the connection is discarded, not reused (a garbage-collected one)
    if dbapi_connection.driver_connection.in_transaction:
        dbapi_connection.rollback()


#: Seconds a session waits for SQLite's one connection before failing (a queue this long
#: means something holds a session across slow work: a bug, not load).
SQLITE_POOL_TIMEOUT = 60.0


def create_engine(url: str, *, pool_size: int = 5, max_overflow: int = 10) -> AsyncEngine:
    """The engine; ``pool_size``/``max_overflow`` bound a PostgreSQL process's connections
    (``DATABASE_POOL_SIZE``/``DATABASE_MAX_OVERFLOW``: the budget in docs/deployment.md).
    SQLite always gets one connection (above)."""
    url = resolve_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        in_memory = parsed.database in (None, "", ":memory:")  # already one connection
        one: dict[str, float] = (
            {}
            if in_memory
            else {"pool_size": 1, "max_overflow": 0, "pool_timeout": SQLITE_POOL_TIMEOUT}
        )
        engine = create_async_engine(url, pool_reset_on_return=None, **one)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        event.listen(engine.sync_engine, "reset", _sqlite_reset)
        return engine
    return create_async_engine(
        url, pool_pre_ping=True, pool_size=pool_size, max_overflow=max_overflow
    )


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (after :func:`resolve_url`), or None (PostgreSQL, memory)."""
    parsed = make_url(resolve_url(url))
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def lock_sqlite(url: str) -> IO[bytes] | None:
    """Hold ``<database>.lock`` exclusively until the returned file is closed (or the process
    ends: the OS drops the lock even after SIGKILL, so a crash never leaves it stuck).

    None for PostgreSQL (which serves many processes) and where the OS has no ``flock``.
    Raises :class:`DatabaseInUse` when another process holds it.
    """
    path = sqlite_path(url)
    if path is None:
        return None
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: one process is the operator's promise
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path.with_name(path.name + ".lock"), "a+b")  # noqa: SIM115 - held for life
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise DatabaseInUse(path) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n".encode())
    handle.flush()
    return handle
