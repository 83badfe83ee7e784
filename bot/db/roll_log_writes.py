"""The audit log's two hot writes, one statement per batch, through the database driver.

Every ``/roll`` appends a row to ``roll_log`` before it is shown and attaches the reply's
message link afterwards; :class:`bot.services.shared.write_batch.WriteBatch` gathers a burst of
them into batches.  This module writes one batch as **one statement**:

* **SQLite** (aiosqlite): through SQLAlchemy's adapter, each statement cost four hand-offs to
  aiosqlite's thread (make a cursor, execute, fetch, close) and the commit a fifth: a batch
  of rows and links paid eight or nine.  Under a burst each hand-off waits a turn of an event
  loop busy with the burst itself, so a batch took 10–40 ms to write and the first replies
  went out only after the whole burst had been read (measured with
  ``benchmarks/roll_load_bench.py``, docs/performance.md).  Here a batch is one
  ``execute_fetchall``: **one** hand-off.  The statement begins with a ``WITH`` clause, and
  Python's sqlite3 opens its implicit transaction only before a statement that begins with
  ``INSERT``, ``UPDATE``, ``DELETE`` or ``REPLACE`` (the documented legacy transaction
  control of Python 3.11): so the statement commits on its own, atomically, as every single
  SQLite statement does.  Should a driver open a transaction for it anyway, it is committed
  (a second hand-off); ``tests/bot/test_write_batch.py`` reads the rows from another
  connection as soon as the call returns.
* **PostgreSQL** (asyncpg): ``BEGIN``, a prepare for every batch size met (a multi-row
  ``VALUES`` is a different text per size), the execute and ``COMMIT`` were four or five
  round trips.  Here the statement takes one array per column (``unnest``), so its text never
  changes and asyncpg prepares it once per connection; it runs on its own, which makes it
  its own transaction: one round trip.

A statement is atomic on both, so a batch that fails wrote nothing and
:class:`~bot.services.shared.write_batch.WriteBatch` may retry it row by row.  Values go through
the columns' own SQLAlchemy bind processors (JSON text, SQLite's datetime text), so the rows
are exactly what the ORM writes and reads.

Each caller gets the id of its own row, and neither database promises the order of
``RETURNING``.  On PostgreSQL the statement draws the ids from the sequence itself, one per
array position, and returns them by position.  On SQLite each returned row is matched to its
row by ``(user_id, created_at)``, the text just written; a batch in which two rows share
that pair (one member, one microsecond: not seen in practice) is refused before anything is
written, and written row by row.  Rows written and not matched (a broken invariant, never
seen) raise :class:`~bot.services.shared.write_batch.AlreadyWritten`: retrying would write them
twice.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.db.models import RollLog
from bot.services.shared.write_batch import AlreadyWritten

__all__ = ["AmbiguousBatch", "MessageLink", "RollLogWriter"]

#: The columns an append writes: everything but the id and the message link (written later).
_LINK_COLUMNS = ("message_id", "message_url")
#: A SQLite statement that begins with ``WITH`` is its own transaction (module docstring).
_OWN_TRANSACTION = "WITH own_transaction AS (SELECT 1)"


class AmbiguousBatch(ValueError):
    """Two rows of one batch share ``(user_id, created_at)``: they go in one by one."""


@dataclass(frozen=True, slots=True)
class MessageLink:
    """The reply's message, attached to its audit row (scoped by guild, as every write)."""

    log_id: int
    guild_id: int
    message_id: int
    url: str


class RollLogWriter:
    """Writes batches of ``roll_log`` rows and message links, one statement each."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.dialect = engine.dialect
        table: Table = RollLog.__table__  # type: ignore[attr-defined]  # set by table=True
        self.columns = [c.name for c in table.c if c.name != "id" and c.name not in _LINK_COLUMNS]
        self._process: list[Callable[[Any], Any] | None] = [
            table.c[name].type.dialect_impl(self.dialect).bind_processor(self.dialect)
            for name in self.columns
        ]
        self._sqlite = self.dialect.name == "sqlite"
        self._held: AsyncConnection | None = None  # :meth:`burst`'s connection
        #: A link longer than its column is cut to fit (PostgreSQL would refuse the batch).
        # sqlmodel's AutoString hands ``length`` (the model's max_length) through to String's
        width = getattr(table.c["message_url"].type, "length", None)
        assert isinstance(width, int), "roll_log.message_url has a max_length"
        self._url_width = width
        # SQLite matches returned rows by these two columns; its statement's fixed parts.
        self._key_at = self.columns.index("user_id"), self.columns.index("created_at")
        self._sqlite_head = f"{_OWN_TRANSACTION} INSERT INTO roll_log ({', '.join(self.columns)}) "
        self._sqlite_group = "(" + ", ".join("?" * len(self.columns)) + ")"
        if not self._sqlite:
            casts = [table.c[name].type.compile(dialect=self.dialect) for name in self.columns]
            arrays = ", ".join(f"${n}::{cast}[]" for n, cast in enumerate(casts, 1))
            names = ", ".join(self.columns)
            # The ids are drawn here, one per position, and returned by position: the
            # CTE is materialised (nextval is volatile), the INSERT always runs in full.
            self._pg_insert = (
                "WITH input AS MATERIALIZED ("
                "SELECT nextval(pg_get_serial_sequence('roll_log', 'id')) AS id, u.* "
                f"FROM unnest({arrays}) WITH ORDINALITY AS u({names}, position)), "
                f"written AS (INSERT INTO roll_log (id, {names}) SELECT id, {names} FROM input) "
                "SELECT id FROM input ORDER BY position"
            )
            self._pg_attach = (
                "UPDATE roll_log SET message_id = v.message_id, message_url = v.message_url "
                f"FROM unnest($1::BIGINT[], $2::VARCHAR({self._url_width})[], $3::INTEGER[], "
                "$4::BIGINT[]) "
                "AS v(message_id, message_url, id, guild_id) "
                "WHERE roll_log.id = v.id AND roll_log.guild_id = v.guild_id"
            )

    async def insert(self, rows: Sequence[Mapping[str, Any]]) -> list[int]:
        """Append ``rows`` (``roll_log_values`` dicts) in one statement; their ids, in order."""
        if not rows:
            return []
        values = [self._bound(row) for row in rows]
        if not self._sqlite:
            columns = [list(column) for column in zip(*values, strict=True)]
            async with self._driver(held=True) as driver:
                return [record[0] for record in await driver.fetch(self._pg_insert, *columns)]
        user_at, created_at = self._key_at
        keys = [(row[user_at], row[created_at]) for row in values]
        if len(set(keys)) != len(keys):
            raise AmbiguousBatch("two rows of one batch share member and time")
        async with self._driver() as driver:
            returned = await driver.execute_fetchall(
                f"{self._sqlite_head}VALUES {', '.join([self._sqlite_group] * len(rows))} "
                "RETURNING id, user_id, created_at",
                [value for row in values for value in row],
            )
            ids = _match(keys, returned)
            if driver.in_transaction:  # a driver that wrapped it after all
                if ids is None:  # rolled back by the pool's reset, then retried row by row
                    raise RuntimeError("the rows written do not match the rows returned")
                await driver.commit()
        if ids is None:
            raise AlreadyWritten("the rows written do not match the rows returned")
        return ids

    async def attach(self, links: Sequence[MessageLink]) -> list[None]:
        """Set each row's message link, in one statement (a row of another guild is untouched)."""
        if not links:
            return []
        urls = [link.url[: self._url_width] for link in links]
        async with self._driver() as driver:
            if self._sqlite:
                await driver.execute_fetchall(
                    f"{_OWN_TRANSACTION} UPDATE roll_log "
                    "SET message_id = v.column1, message_url = v.column2 "
                    f"FROM (VALUES {', '.join(['(?, ?, ?, ?)'] * len(links))}) AS v "
                    "WHERE roll_log.id = v.column3 AND roll_log.guild_id = v.column4",
                    [
                        value
                        for link, url in zip(links, urls, strict=True)
                        for value in (link.message_id, url, link.log_id, link.guild_id)
                    ],
                )
                if driver.in_transaction:
                    await driver.commit()
            else:
                await driver.execute(
                    self._pg_attach,
                    [link.message_id for link in links],
                    urls,
                    [link.log_id for link in links],
                    [link.guild_id for link in links],
                )
        return [None] * len(links)

    def _bound(self, row: Mapping[str, Any]) -> list[Any]:
        """The row's values in column order, as the column types bind them."""
        return [
            process(row[name]) if process else row[name]
            for name, process in zip(self.columns, self._process, strict=True)
        ]

    @asynccontextmanager
    async def burst(self) -> AsyncIterator[None]:
        """One PostgreSQL connection for the row batches of one burst (``WriteBatch``'s
        ``hold``): the pool's ``pre_ping`` round trip is paid once per burst, not once per
        batch.  Given back when the queue is empty; dropped after any error (the next batch
        checks out its own).  Nothing on SQLite: no pre-ping there, and its one connection
        is everybody's (held, it would starve every other command)."""
        if self._sqlite:
            yield
            return
        async with self.engine.connect() as connection:
            self._held = connection
            try:
                yield
            finally:
                self._held = None

    @asynccontextmanager
    async def _driver(self, *, held: bool = False) -> AsyncIterator[Any]:
        """The driver's own connection (aiosqlite's or asyncpg's): :meth:`burst`'s if
        ``held`` and one is held, else one checked out of the pool.

        Outside any SQLAlchemy transaction: each statement here is its own transaction (a
        connection returned inside one would be rolled back by the pool's reset,
        :func:`bot.db.engine._sqlite_reset`).
        """
        connection = self._held if held else None
        if connection is None:
            async with self.engine.connect() as connection:
                raw = await connection.get_raw_connection()
                yield raw.driver_connection
            return
        try:
            yield (await connection.get_raw_connection()).driver_connection
        except BaseException:
            self._held = None  # it may be broken: the burst's next batches check out their own
            raise


def _match(keys: list[tuple[Any, Any]], returned: Any) -> list[int] | None:
    """Each row's id, found by its ``(user_id, created_at)`` among SQLite's returned rows
    (None if they do not match: see the module's docstring)."""
    ids = {(user_id, created_at): log_id for log_id, user_id, created_at in returned}
    if len(ids) != len(keys) or any(key not in ids for key in keys):
        return None
    return [ids[key] for key in keys]
