"""The one compare-and-set of versioned rows.

Every row several commands may change carries ``version``.  A write is

    UPDATE … SET <values>, version = version + 1
    WHERE <key> AND version = :seen [AND <what must still hold>]

(or the same ``DELETE``), and it must change exactly one row: otherwise someone wrote first
(or the row is gone, or no longer in the state the caller asked for) and :class:`StaleWrite`
is raised, which rolls the caller's transaction back.  What a clash means is the caller's
decision, one of two (docs/architecture.md, «Versioned writes»):

* **retried**: the service read the version itself, so it reads again and recomputes, under
  the one retry policy :func:`bot.services.shared.retry.retrying`;
* **reported**: the version is one the user saw (a button, a form, a post being edited), so
  acting on the newer state would do something they did not ask for: the clash reaches
  them as :class:`ConcurrentChange` (``stale`` names the message when a general «changed
  meanwhile» would not say enough).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, inspect, update
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import SQLModel
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.services.shared.errors import ConcurrentChange

__all__ = ["StaleWrite", "delete_versioned", "update_versioned"]


class StaleWrite(ConcurrentChange):
    """A compare-and-set found its row changed since it was read: nothing was written."""


async def update_versioned(
    session: AsyncSession,
    model: type[SQLModel],
    key: ColumnElement[bool],
    seen: int,
    /,
    *still: ColumnElement[bool],
    stale: str | None = None,
    **values: Any,
) -> None:
    """Write ``values`` to the ``model`` row ``key`` if it is still at version ``seen`` (and
    every condition of ``still`` holds), bumping its version; else :class:`StaleWrite`."""
    version = inspect(model).columns["version"]
    result = await session.exec(
        update(model).where(key, version == seen, *still).values(**values, version=version + 1)
    )
    if result.rowcount != 1:
        raise StaleWrite(stale)


async def delete_versioned(
    session: AsyncSession,
    model: type[SQLModel],
    key: ColumnElement[bool],
    seen: int,
    /,
    *still: ColumnElement[bool],
    stale: str | None = None,
) -> None:
    """Delete the ``model`` row ``key`` if it is still at version ``seen``; else
    :class:`StaleWrite`."""
    version = inspect(model).columns["version"]
    result = await session.exec(delete(model).where(key, version == seen, *still))
    if result.rowcount != 1:
        raise StaleWrite(stale)
