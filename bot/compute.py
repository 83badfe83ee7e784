"""The bot's worker process: CPU-heavy pure work (exact odds) runs there, off the event loop.

Pure-Python work holds the GIL, so a thread would still stall every server's commands while
it runs; a separate process does not.  The machine the bot is sized for has two cores shared
with the database, so there is **one** worker and a bounded queue: past :data:`MAX_PENDING`
jobs a request is refused at once with a translated "busy" reply instead of waiting without
limit.  Callers bound each job before submitting it (e.g. :func:`rules.dice.odds.check_cost`),
so the queue bounds the wait too.

The pool belongs to the bot: started (warmed up) in ``setup_hook``, shut down in ``close``.
Jobs are plain module-level functions of :mod:`rules` (picklable, no database, no discord).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.services.shared.errors import DomainError

__all__ = ["ComputeBusy", "ComputeFailed", "ComputePool", "MAX_PENDING", "WORKERS"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Worker processes (one core for the bot's loop, one for the database and this worker).
WORKERS = 1
#: Jobs accepted at once (running + waiting), across every server.
MAX_PENDING = 8
#: Seconds :meth:`ComputePool.close` waits for a running job before killing the worker.
CLOSE_GRACE_S = 5.0


class ComputeBusy(DomainError):
    """Too many heavy requests at once: try again in a few seconds."""

    key = "errors.compute_busy"


class ComputeFailed(DomainError):
    """The worker process died (killed from outside); a fresh one serves the next request."""

    key = "errors.compute_failed"


def _warm_up() -> None:
    """Imports the dice engine in the worker, so the first real job does not pay for it."""
    import rules.dice.odds  # noqa: F401


def _exit_with_parent() -> None:
    """Ends this worker as soon as the bot process is gone, however it went.

    A worker waits for jobs on a pipe that it also holds open for writing
    (``multiprocessing.Queue`` gives both ends to the child), so the bot's death never
    reaches it as an end of file: after a SIGKILL (the OOM killer, a supervisor's hard stop)
    the worker used to wait forever, one orphan process per kill.  The parent's sentinel is
    a pipe only the parent holds: it becomes readable when the parent dies.
    """
    parent = multiprocessing.parent_process()
    if parent is None:  # not started by multiprocessing: nothing to watch
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _init_worker() -> None:
    _exit_with_parent()
    _warm_up()


class ComputePool:
    """One worker process with a bounded queue; :meth:`submit` never blocks the loop."""

    def __init__(self, workers: int = WORKERS, max_pending: int = MAX_PENDING) -> None:
        self.workers = workers
        self.max_pending = max_pending
        self.pending = 0
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # "spawn": forking a process that runs an event loop and threads is unsafe.
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
            )
        return self._executor

    async def start(self) -> None:
        """Starts the worker now (a spawn takes a moment) rather than on the first request."""
        await asyncio.get_running_loop().run_in_executor(self._pool(), _warm_up)

    def submit(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Starts ``fn(*args)`` in the worker and returns its future, or refuses at once.

        Refusing here, before the caller acknowledges the interaction, lets the "busy"
        answer be a private error; an accepted job is awaited after deferring.
        """
        if self._closed or self.pending >= self.max_pending:
            raise ComputeBusy(limit=self.max_pending)
        loop = asyncio.get_running_loop()
        try:
            inner = loop.run_in_executor(self._pool(), fn, *args)
        except BrokenProcessPool:  # the worker died while idle: start a fresh one
            log.error("the compute worker had died; starting a fresh one")
            self._executor = None
            inner = loop.run_in_executor(self._pool(), fn, *args)
        self.pending += 1
        inner.add_done_callback(self._finished)
        return asyncio.ensure_future(self._result(inner))

    def _finished(self, _future: asyncio.Future[Any]) -> None:
        self.pending -= 1

    async def _result(self, inner: asyncio.Future[T]) -> T:
        try:
            return await inner
        except BrokenProcessPool:
            log.error("the compute worker died; starting a fresh one for the next job")
            self._executor = None
            raise ComputeFailed() from None

    async def close(self, grace: float = CLOSE_GRACE_S) -> None:
        """Refuses new jobs, drops the queued ones and waits for the running one, at most
        ``grace`` seconds: then the worker is killed.

        Jobs are bounded before they start, so the running one normally ends well within
        ``grace``; the kill is for a worker that is stuck (or stopped from outside), which
        would otherwise keep the bot alive after SIGTERM until its supervisor kills it.
        """
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # ProcessPoolExecutor has no public kill before Python 3.14 (terminate_workers).
        workers = list(executor._processes.values())  # noqa: SLF001
        shutdown = asyncio.ensure_future(
            asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
        )
        done, _ = await asyncio.wait({shutdown}, timeout=grace)
        if not done:
            log.warning("the compute worker was still busy %.0f s after closing; killed", grace)
            for worker in workers:
                worker.kill()
        await shutdown
