"""Column types of our own.

:class:`UtcDateTime`: every moment the bot stores is UTC.  The columns are plain
``TIMESTAMP`` (naive) on SQLite and PostgreSQL alike, as every migration created them; this
type is the one place that knows it: it writes any aware datetime as its naive UTC wall
clock (a naive one is taken as UTC already) and reads every value back **aware**
(``tzinfo=UTC``).  Code above the database never sees a naive datetime, so it compares and
subtracts moments without the ``value if value.tzinfo else value.replace(tzinfo=UTC)``
copies it needed when rows came back naive.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

__all__ = ["UtcDateTime", "as_utc"]


def as_utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC datetime (a naive one is taken as UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """A moment: stored as naive UTC, always read back aware (see the module)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value).replace(tzinfo=None)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value)
