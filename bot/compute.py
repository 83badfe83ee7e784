"""The bot's worker processes: CPU-heavy pure work runs there, off the event loop.

Pure-Python work holds the GIL, so a thread would still stall every server's commands while
it runs; a separate process does not.  The work comes in two kinds, each with a **lane** of
its own — one worker process, one queue, one job running at a time:

* :data:`INTERACTIVE`: a member waits for the answer (``/odds``).  Short by construction
  (callers bound each job before submitting it: :func:`rules.dice.odds.check_cost`).
* :data:`BULK`: a whole campaign at once (``/campaign export``, ``/campaign import``).

An import of one server used to hold the only worker for 140 s while every other server's
``/odds`` waited; with a lane each, interactive work never waits behind bulk work.  Within a
lane no server can fill the queue: each has at most ``per_owner`` jobs waiting or running
(``ComputeBusy`` past that, or past the lane's ``max_pending``), and the lane takes the
servers in turn (round robin), so one server's burst waits behind the others' single jobs.

Every job has a **time limit** (the lane's, or the caller's): a job still running at it is
killed with its worker, the caller gets :class:`ComputeTimeout` (a translated refusal that
names the limit) and the next job gets a fresh worker.  A job is handed to its worker only
when the previous one has finished, so killing a worker never takes another job with it.

The pool belongs to the bot: started (the interactive lane warmed up) in ``setup_hook``, shut
down in ``close``.  Jobs are plain module-level functions (picklable, no database, no discord).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.services.shared.errors import DomainError

__all__ = [
    "BULK",
    "BULK_TIME_LIMIT",
    "ComputeBusy",
    "ComputeFailed",
    "ComputePool",
    "ComputeTimeout",
    "INTERACTIVE",
    "INTERACTIVE_TIME_LIMIT",
    "MAX_PENDING",
    "WORKERS",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Worker processes per lane.
WORKERS = 1
#: The lanes.
INTERACTIVE = "interactive"
BULK = "bulk"
#: Interactive jobs accepted at once (running + waiting), across every server, and per server.
MAX_PENDING = 8
INTERACTIVE_PER_OWNER = 4
#: Bulk jobs accepted at once, and per server (one: a server's export waits for nobody's but
#: it cannot queue a second behind its first).
BULK_PENDING = 4
BULK_PER_OWNER = 1
#: Seconds a job may run before it is killed: ``/odds`` is bounded to well under a second;
#: the largest chronicle the limits allow is checked or built in well under a minute
#: (benchmarks/fairness_bench.py), so this is only reached by something gone wrong.
INTERACTIVE_TIME_LIMIT = 15.0
BULK_TIME_LIMIT = 180.0
#: Seconds :meth:`ComputePool.close` waits for running jobs before killing the workers.
CLOSE_GRACE_S = 5.0


class ComputeBusy(DomainError):
    """Too many heavy requests at once (or this server has its share): try again soon."""

    key = "errors.compute_busy"


class ComputeFailed(DomainError):
    """The worker process died (killed from outside); a fresh one serves the next request."""

    key = "errors.compute_failed"


class ComputeTimeout(DomainError):
    """The job ran past its time limit: it was stopped, nothing of it was kept."""

    key = "errors.compute_timeout"


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


@dataclass(eq=False)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    owner: int | None
    time_limit: float
    future: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class _Lane:
    """One worker process, its fair queue and the job running on it."""

    def __init__(
        self, name: str, *, workers: int, max_pending: int, per_owner: int, time_limit: float
    ) -> None:
        self.name = name
        self.workers = workers
        self.max_pending = max_pending
        self.per_owner = per_owner
        self.time_limit = time_limit
        self.waiting: OrderedDict[int | None, deque[_Job]] = OrderedDict()
        self.running: _Job | None = None
        self.executor: ProcessPoolExecutor | None = None
        self.closed = False
        self._runner: asyncio.Task[None] | None = None

    @property
    def pending(self) -> int:
        return sum(len(jobs) for jobs in self.waiting.values()) + (self.running is not None)

    def owned(self, owner: int | None) -> int:
        running = self.running is not None and self.running.owner == owner
        return len(self.waiting.get(owner, ())) + running

    def pool(self) -> ProcessPoolExecutor:
        if self.executor is None:
            # "spawn": forking a process that runs an event loop and threads is unsafe.
            self.executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
            )
        return self.executor

    def _forget_other_loops(self) -> None:
        """Drop what belongs to an event loop that is gone (a test's, or the bot's before a
        restart of its loop): a job whose runner can never finish would block the lane."""
        if self._runner is not None and self._runner.get_loop().is_closed():
            self.running, self._runner = None, None
        for owner in list(self.waiting):
            kept = deque(j for j in self.waiting[owner] if not j.future.get_loop().is_closed())
            if kept:
                self.waiting[owner] = kept
            else:
                del self.waiting[owner]

    def submit(self, job: _Job) -> None:
        self._forget_other_loops()
        if self.closed or self.pending >= self.max_pending:
            raise ComputeBusy(limit=self.max_pending)
        if job.owner is not None and self.owned(job.owner) >= self.per_owner:
            raise ComputeBusy("errors.compute_busy_here", count=self.per_owner)
        self.waiting.setdefault(job.owner, deque()).append(job)
        self._kick()

    def _next(self) -> _Job | None:
        """The first waiting job of the server whose turn it is (then it goes to the back)."""
        while self.waiting:
            owner, jobs = next(iter(self.waiting.items()))
            job = jobs.popleft()
            if jobs:
                self.waiting.move_to_end(owner)
            else:
                del self.waiting[owner]
            if not job.future.done():  # its caller gave up while it waited
                return job
        return None

    def _kick(self) -> None:
        if self.running is not None or self.closed:
            return
        job = self._next()
        if job is None:
            return
        self.running = job
        self._runner = asyncio.ensure_future(self._run(job))

    async def _run(self, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        try:
            try:
                inner = loop.run_in_executor(self.pool(), job.fn, *job.args)
            except BrokenProcessPool:  # the worker died while idle: start a fresh one
                log.error("the %s worker had died; starting a fresh one", self.name)
                self.executor = None
                inner = loop.run_in_executor(self.pool(), job.fn, *job.args)
            done, _ = await asyncio.wait({inner}, timeout=job.time_limit)
            if not done:
                log.error(
                    "a %s job ran past its %.0f s limit: its worker is killed and replaced",
                    self.name,
                    job.time_limit,
                )
                self.kill()
                inner.cancel()
                _settle(job.future, error=ComputeTimeout(limit=round(job.time_limit)))
                return
            try:
                _settle(job.future, result=inner.result())
            except BrokenProcessPool:
                log.error("the %s worker died; starting a fresh one for the next job", self.name)
                self.executor = None
                _settle(job.future, error=ComputeFailed())
            except BaseException as error:  # noqa: BLE001 - the job's own error: its caller's
                _settle(job.future, error=error)
        finally:
            self.running = None
            self._kick()

    def kill(self) -> None:
        """Kill the lane's workers now; the next job starts a fresh one."""
        executor, self.executor = self.executor, None
        if executor is None:
            return
        # ProcessPoolExecutor has no public kill before Python 3.14 (terminate_workers).
        for worker in list(executor._processes.values()):  # noqa: SLF001
            worker.kill()
        executor.shutdown(wait=False, cancel_futures=True)

    async def close(self, grace: float) -> None:
        self.closed = True
        for jobs in self.waiting.values():
            for job in jobs:
                _settle(job.future, error=ComputeBusy(limit=self.max_pending))
        self.waiting.clear()
        executor, self.executor = self.executor, None
        if executor is None:
            return
        workers = list(executor._processes.values())  # noqa: SLF001
        shutdown = asyncio.ensure_future(
            asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
        )
        done, _ = await asyncio.wait({shutdown}, timeout=grace)
        if not done:
            log.warning(
                "the %s worker was still busy %.0f s after closing; killed", self.name, grace
            )
            for worker in workers:
                worker.kill()
        await shutdown
        runner = self._runner
        if runner is not None and runner.get_loop() is asyncio.get_running_loop():
            await asyncio.gather(runner, return_exceptions=True)


def _settle(
    future: asyncio.Future[Any], *, result: Any = None, error: BaseException | None = None
) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class ComputePool:
    """An interactive and a bulk lane (see the module docstring); :meth:`submit` never
    blocks the loop."""

    def __init__(
        self,
        workers: int = WORKERS,
        max_pending: int = MAX_PENDING,
        *,
        per_owner: int = INTERACTIVE_PER_OWNER,
        bulk_pending: int = BULK_PENDING,
        bulk_per_owner: int = BULK_PER_OWNER,
        interactive_limit: float = INTERACTIVE_TIME_LIMIT,
        bulk_limit: float = BULK_TIME_LIMIT,
    ) -> None:
        self.lanes = {
            INTERACTIVE: _Lane(
                INTERACTIVE,
                workers=workers,
                max_pending=max_pending,
                per_owner=per_owner,
                time_limit=interactive_limit,
            ),
            BULK: _Lane(
                BULK,
                workers=workers,
                max_pending=bulk_pending,
                per_owner=bulk_per_owner,
                time_limit=bulk_limit,
            ),
        }

    @property
    def pending(self) -> int:
        """Jobs running or waiting, in every lane."""
        return sum(lane.pending for lane in self.lanes.values())

    def _pool(self, lane: str = INTERACTIVE) -> ProcessPoolExecutor:
        """The lane's executor, started if need be (tests reach its processes)."""
        return self.lanes[lane].pool()

    async def start(self) -> None:
        """Starts the interactive worker now (a spawn takes a moment) rather than on the
        first ``/odds``; the bulk worker starts with the first export or import."""
        await asyncio.get_running_loop().run_in_executor(self._pool(INTERACTIVE), _warm_up)

    def submit(
        self,
        fn: Callable[..., T],
        *args: Any,
        lane: str = INTERACTIVE,
        owner: int | None = None,
        time_limit: float | None = None,
    ) -> asyncio.Future[T]:
        """Queues ``fn(*args)`` on ``lane`` for ``owner`` (a server's id) and returns its
        future, or refuses at once with :class:`ComputeBusy`.

        Refusing here, before the caller acknowledges the interaction, lets the "busy"
        answer be a private error; an accepted job is awaited after deferring.  The future
        fails with :class:`ComputeTimeout` past ``time_limit`` (default: the lane's).
        """
        chosen = self.lanes[lane]
        job = _Job(fn, args, owner, chosen.time_limit if time_limit is None else time_limit)
        chosen.submit(job)
        return job.future

    async def close(self, grace: float = CLOSE_GRACE_S) -> None:
        """Refuses new jobs, drops the queued ones and waits for the running ones, at most
        ``grace`` seconds: then the workers are killed.

        Jobs are bounded before they start, so a running one normally ends well within
        ``grace``; the kill is for a worker that is stuck (or stopped from outside), which
        would otherwise keep the bot alive after SIGTERM until its supervisor kills it.
        """
        await asyncio.gather(*(lane.close(grace) for lane in self.lanes.values()))
