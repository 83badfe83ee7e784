"""Group commit: appends that arrive together share one statement.

Under a burst (a hundred players rolling at once) each ``/roll`` paid a transaction of its
own: on SQLite four or five hand-offs to aiosqlite's thread and a commit, every one waiting
its turn on the single connection (issue 14 §1).  A :class:`WriteBatch` gathers the writes
submitted while its previous batch is being written and hands them to its ``flush`` together
(for the audit log, one statement: :mod:`bot.db.roll_log_writes`), so a burst costs a few
commits instead of a hundred.  A write that arrives alone goes out on the next turn of the
event loop: no timer, nothing added to its wait.

Each caller still gets its own answer (its row's id) and its own error: a batch that fails is
retried row by row, so one bad row fails alone and the others land.  That needs a ``flush``
that writes all of its batch or nothing (one statement, or one transaction).

Only appends and updates that depend on nothing they read belong here (the audit log's rows,
a message link on an audit row).  A versioned compare-and-set needs the answer of its own
transaction and stays out.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Generic, TypeVar

__all__ = ["AlreadyWritten", "WriteBatch", "MAX_BATCH"]

P = TypeVar("P")
R = TypeVar("R")

#: Rows per batch: a burst larger than this is written in several statements.
MAX_BATCH = 200

Flush = Callable[[Sequence[P]], Awaitable[Sequence[R]]]


class AlreadyWritten(RuntimeError):
    """A flush wrote its batch but cannot give each caller its answer: every caller gets
    this error, and the batch is not retried (that would write it twice)."""


class WriteBatch(Generic[P, R]):
    """Coalesces concurrent :meth:`submit` calls into one ``flush`` per batch.

    ``flush(items)`` writes all of ``items`` or none of them and returns one result per item,
    in order.  It is called with one item when the batch is retried row by row after an
    error.  ``hold()``, if given, is entered when a run of batches starts and left when the
    queue is empty: what the flushes of one burst share (a database connection).
    """

    def __init__(
        self,
        flush: Flush[P, R],
        *,
        limit: int = MAX_BATCH,
        hold: Callable[[], AbstractAsyncContextManager[object]] | None = None,
    ) -> None:
        self.flush = flush
        self.limit = limit
        self.hold = hold
        self._pending: list[tuple[P, asyncio.Future[R]]] = []
        self._task: asyncio.Task[None] | None = None
        #: writes submitted and batches written so far (tests read them)
        self.submitted = 0
        self.batches = 0

    async def submit(self, item: P) -> R:
        """Write ``item`` with whatever else is waiting; its result once committed."""
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        self.submitted += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())
        # A caller that gives up (its interaction cancelled) cancels only its future: the
        # row is in the batch and is written with the others, and nobody reads the result
        # (:func:`_settle` skips a future already done).  No ``shield``: it would add a
        # turn of the event loop between the write and every caller (issue 14 §1).
        return await future

    async def drain(self) -> None:
        """Wait until everything submitted so far is written (at shutdown)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def _drain(self) -> None:
        try:
            while self._pending:  # again if a write arrived while ``hold`` was being left
                try:
                    async with self.hold() if self.hold else contextlib.nullcontext():
                        await self._batches()
                except Exception as error:  # noqa: BLE001 - ``hold`` failed: its callers get it
                    failed, self._pending = self._pending, []
                    for _, future in failed:
                        _settle(future, error=error)
        finally:  # cancelled at shutdown: nobody waits forever
            for _, future in self._pending:
                if not future.done():
                    future.cancel()

    async def _batches(self) -> None:
        batch: list[tuple[P, asyncio.Future[R]]] = []
        try:
            while self._pending:
                batch, self._pending = self._pending[: self.limit], self._pending[self.limit :]
                try:
                    results = await self._write([item for item, _ in batch])
                except Exception as error:  # noqa: BLE001 - handed to the callers below
                    if len(batch) == 1 or isinstance(error, AlreadyWritten):
                        for _, future in batch:
                            _settle(future, error=error)
                    else:  # one bad row must not fail the others: each alone
                        for item, future in batch:
                            await self._one(item, future)
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    _settle(future, result=result)
        finally:  # cancelled at shutdown: nobody waits forever
            for _, future in batch:
                if not future.done():
                    future.cancel()

    async def _one(self, item: P, future: asyncio.Future[R]) -> None:
        try:
            (result,) = await self._write([item])
        except Exception as error:  # noqa: BLE001 - handed to the caller who submitted it
            _settle(future, error=error)
        else:
            _settle(future, result=result)

    async def _write(self, items: Sequence[P]) -> Sequence[R]:
        results = await self.flush(items)
        self.batches += 1
        if len(results) != len(items):  # a flush that lost track of a row is a bug, loudly;
            # it returned, so it wrote: not retried
            raise AlreadyWritten(f"{len(items)} rows written, {len(results)} results")
        return results


def _settle(
    future: asyncio.Future[R], *, result: R | None = None, error: BaseException | None = None
) -> None:
    """Answer a caller (unless it is already answered: a cancelled shutdown)."""
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)  # type: ignore[arg-type]  # R when no error
