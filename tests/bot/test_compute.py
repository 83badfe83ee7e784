"""The worker process: heavy odds run off the event loop, bounded before and while queued.

No timing here (see benchmarks/loop_lag_bench.py): the loop is shown to be free by counting
the turns it takes while a job runs, and refusals by what was (not) started.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from bot.compute import BULK, ComputeBusy, ComputeFailed, ComputePool, ComputeTimeout
from rules.dice import DiceError, odds

REPO = Path(__file__).resolve().parents[2]
HEAVY = "+".join(["1o3d10"] * 4)  # within the budget, far above the inline threshold


@pytest.fixture
async def pool():
    pool = ComputePool(workers=1, max_pending=2)
    await pool.start()
    yield pool
    await pool.close()


async def _turns_while(job: asyncio.Future) -> int:
    turns = 0
    while not job.done():
        await asyncio.sleep(0)
        turns += 1
    return turns


async def test_heavy_odds_run_in_the_worker_while_the_loop_keeps_turning(services):
    from bot.services.play.rolls import INLINE_COST

    assert odds.estimate_cost(HEAVY) > INLINE_COST
    job = asyncio.ensure_future(services.rolls.odds(HEAVY, 20))
    await asyncio.sleep(0)
    assert services.compute.pending == 1
    assert await _turns_while(job) > 0  # inline, the job would be done before the first turn
    view = job.result()
    assert view.probability == odds.probabilities_at_least(HEAVY, (20,))[0]
    assert view.critical_target == 30 and 0 < view.critical_probability < view.probability


async def test_queries_over_the_budget_are_refused_before_anything_starts(services):
    with pytest.raises(DiceError) as refused:
        services.rolls.start_odds("+".join(["1o3d10"] * 7), 40)
    assert refused.value.code == "odds_too_complex"
    assert services.compute.pending == 0


async def test_a_full_queue_refuses_at_once_and_frees_up(pool):
    jobs = [pool.submit(odds.probabilities_at_least, HEAVY, (t,)) for t in (10, 20)]
    with pytest.raises(ComputeBusy) as busy:
        pool.submit(odds.probabilities_at_least, HEAVY, (30,))
    assert busy.value.params == {"limit": 2}
    results = await asyncio.gather(*jobs)
    assert all(0 < r[0] <= 1 for r in results)
    assert pool.pending == 0
    assert await pool.submit(odds.probabilities_at_least, "2d6", (7,)) == (Fraction(21, 36),)


async def test_a_killed_worker_fails_one_job_clearly_and_the_next_gets_a_fresh_one(pool):
    for pid in list(pool._pool()._processes):  # noqa: SLF001 - simulating an outside kill
        os.kill(pid, signal.SIGKILL)
    try:  # depending on when the pool notices, this job fails clearly or gets a new worker
        first = await pool.submit(odds.probabilities_at_least, "2d6", (2,))
    except ComputeFailed:
        pass
    else:
        assert first == (Fraction(1),)
    assert await pool.submit(odds.probabilities_at_least, "2d6", (12,)) == (Fraction(1, 36),)


async def test_a_closed_pool_refuses_new_jobs(pool):
    await pool.close()
    with pytest.raises(ComputeBusy):
        pool.submit(odds.probabilities_at_least, "2d6", (7,))


async def test_closing_stops_the_worker_process(pool):
    pids = list(pool._pool()._processes)  # noqa: SLF001
    assert pids
    await pool.close()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_closing_kills_a_worker_still_busy_after_the_grace(pool):
    """A stuck job must not keep a stopping bot alive: close() kills the worker after its
    grace instead of waiting for the job (here 60 s of sleep; the old close waited for it)."""
    executor = pool._pool()  # noqa: SLF001
    pids = list(executor._processes)  # noqa: SLF001
    stuck = pool.submit(time.sleep, 60)
    # Running: handed to the worker's queue, where closing can no longer cancel it.
    limit = time.monotonic() + 20
    while not any(i.future.running() for i in executor._pending_work_items.values()):  # noqa: SLF001
        assert time.monotonic() < limit, "the job never started"
        await asyncio.sleep(0.01)
    await asyncio.wait_for(pool.close(grace=0.5), timeout=20)  # a hang guard, not a timing
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    with pytest.raises(ComputeFailed):
        await stuck


def _gone(pid: int) -> bool:
    """No such process, or a zombie waiting for whoever adopted it to reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state in ("Z", "X")


OWNER = """
import asyncio, time
from bot.compute import ComputePool

async def main():
    pool = ComputePool()
    await pool.start()
    print(*pool._pool()._processes, flush=True)
    time.sleep(600)

asyncio.run(main())
"""


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads process states from /proc")
def test_the_worker_ends_when_the_bot_is_killed():
    """A SIGKILLed bot (OOM killer, a supervisor's hard stop) must not leave its worker
    behind: it used to wait for jobs forever, one orphan process per kill."""
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True, cwd=REPO
    )
    try:
        assert owner.stdout is not None
        pids = [int(pid) for pid in owner.stdout.readline().split()]
        assert pids, "the owner process did not start its worker"
        assert not any(_gone(pid) for pid in pids)
    finally:
        owner.kill()
        owner.wait()
    limit = time.monotonic() + 20  # a hang guard: the worker goes at once
    while not all(_gone(pid) for pid in pids):
        if time.monotonic() > limit:
            for pid in pids:  # leave no orphan behind for the next run
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            pytest.fail(f"the worker outlived the killed bot: {pids}")
        time.sleep(0.05)


# -- lanes, fairness and time limits (issue 22 §2) ----------------------------------------


@pytest.fixture
async def lanes():
    pool = ComputePool(max_pending=6, per_owner=2, bulk_pending=2, bulk_per_owner=1)
    await pool.start()
    yield pool
    await pool.close(grace=0.5)


async def _started(pool: ComputePool, lane: str) -> None:
    """Wait until ``lane``'s job is in its worker (a hang guard, not a timing)."""
    executor = pool._pool(lane)  # noqa: SLF001
    limit = time.monotonic() + 20
    while not any(i.future.running() for i in executor._pending_work_items.values()):  # noqa: SLF001
        assert time.monotonic() < limit, "the job never started"
        await asyncio.sleep(0.01)


async def test_interactive_work_never_waits_behind_another_servers_bulk_work(lanes):
    """An import held the only worker for 140 s and every other server's /odds waited."""
    bulk = lanes.submit(time.sleep, 5, lane=BULK, owner=1)
    await _started(lanes, BULK)
    odds_job = lanes.submit(odds.probabilities_at_least, HEAVY, (20,), owner=2)
    assert 0 < (await odds_job)[0] < 1
    assert not bulk.done()  # answered while the bulk job still runs
    bulk.cancel()


async def test_one_server_cannot_fill_a_lane(lanes):
    blocker = lanes.submit(time.sleep, 2, owner=1)
    second = lanes.submit(abs, -1, owner=1)
    with pytest.raises(ComputeBusy) as busy:
        lanes.submit(abs, -2, owner=1)
    assert (busy.value.key, busy.value.params) == ("errors.compute_busy_here", {"count": 2})
    other = lanes.submit(abs, -3, owner=2)  # another server still gets in
    exports = lanes.submit(time.sleep, 0, lane=BULK, owner=1)
    with pytest.raises(ComputeBusy) as busy:  # one bulk job per server
        lanes.submit(time.sleep, 0, lane=BULK, owner=1)
    assert busy.value.params == {"count": 1}
    assert await asyncio.gather(second, other, exports) == [1, 3, None]
    await blocker


async def test_servers_take_turns_in_a_lane(lanes):
    """One server's burst waits behind another server's single job (round robin)."""
    finished: list[int] = []
    blocker = lanes.submit(time.sleep, 1, owner=1)
    jobs = [
        lanes.submit(abs, -2, owner=1),
        lanes.submit(abs, -3, owner=3),
        lanes.submit(abs, -10, owner=2),
    ]
    jobs.append(lanes.submit(abs, -4, owner=3))
    for job in jobs:
        job.add_done_callback(lambda f: finished.append(f.result()))
    await asyncio.gather(blocker, *jobs)
    assert finished == [2, 3, 10, 4]  # server 3's second job after server 2's first


async def test_a_job_past_its_time_limit_is_killed_and_its_worker_replaced(lanes):
    first = lanes.submit(time.sleep, 60, lane=BULK, owner=1, time_limit=1)
    await _started(lanes, BULK)
    pids = list(lanes._pool(BULK)._processes)  # noqa: SLF001
    with pytest.raises(ComputeTimeout) as stopped:
        await asyncio.wait_for(first, timeout=30)  # a hang guard
    assert (stopped.value.key, stopped.value.params) == ("errors.compute_timeout", {"limit": 1})
    for pid in pids:
        limit = time.monotonic() + 10
        while not _gone(pid):
            assert time.monotonic() < limit, "the worker past its limit was not killed"
            await asyncio.sleep(0.05)
    # the same server's next job runs on a fresh worker; the other lane never noticed
    assert await lanes.submit(abs, -7, lane=BULK, owner=1) == 7
    assert await lanes.submit(odds.probabilities_at_least, "2d6", (7,)) == (Fraction(21, 36),)
