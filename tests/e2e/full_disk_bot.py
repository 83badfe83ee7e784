"""Árbitro on a SQLite database that cannot grow: SQLite's own "database or disk is full".

A full disk is hard to arrange on a shared machine (a tmpfs needs privileges CI may not have),
so this fixes the one thing a full disk does to SQLite — no page can be added to the file —
with ``PRAGMA max_page_count`` set to the file's size when the bot's connection opens.  The
driver then fails exactly as on a full disk (``SQLITE_FULL``, "database or disk is full"),
from the first write that needs a new page; nothing in the bot is replaced.

Run as the bot's module (``Sandbox.start_bot("tests.e2e.full_disk_bot", …)``).
"""

from __future__ import annotations

from typing import Any

from bot.db import engine

_pragmas = engine._sqlite_pragmas  # noqa: SLF001 - the connect hook this wraps


def _frozen_size(dbapi_connection: Any, record: object) -> None:
    _pragmas(dbapi_connection, record)
    cursor = dbapi_connection.cursor()
    # No spare room either: free pages (a migration that rebuilt a table leaves some) would
    # take the first rows as a full disk would not.
    cursor.execute("PRAGMA freelist_count")
    if cursor.fetchone()[0]:
        cursor.execute("VACUUM")
    cursor.execute("PRAGMA page_count")
    pages = cursor.fetchone()[0]
    cursor.execute(f"PRAGMA max_page_count = {int(pages)}")
    cursor.close()


engine._sqlite_pragmas = _frozen_size  # noqa: SLF001 - read by create_engine when it runs


def main(argv: list[str] | None = None) -> int:
    from bot.__main__ import main as bot_main

    return bot_main(argv)
