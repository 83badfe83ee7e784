"""No job starves the others (issue 22 §2): another server's /roll and /odds while the largest
chronicle the import allows is imported, on SQLite and PostgreSQL.

Run from the repository root (PostgreSQL too when ``ARBITRO_TEST_POSTGRES_URL`` names a
server, as for the tests)::

    .venv/bin/python benchmarks/fairness_bench.py [--scale 1.0] [--rate 50]

It builds one campaign at the import's row budgets (``--scale`` 1.0: 40,000 posts, 191,000
rolls, 15,000 XP rows, 4,000 scenes — 250,000 rows, ``MAX_RECORD_ROWS``), exports it with the
bot's own exporter, then, on each database:

1. **/roll of another server**: ``RollService.roll`` fired at a fixed rate (``--rate`` per
   second, each on its own: a slow answer does not delay the next request), idle first and
   then while the archive is imported into a third server; it prints p50, p99 and the
   worst, and the ratio of the p99s (the target: at most 2×).
2. **/odds of another server** (on SQLite, idle and during a second import): an exact-odds
   query that needs the worker, once a second (one takes 0.2–0.6 s of a core: faster would
   fill the interactive lane by itself); it prints the slowest answer (target: under 1 s)
   and the **bulk worker's peak memory** (``VmHWM`` of its process) with the bot process's.

Latencies are the service's (the database and the worker), the part an import can take
from other servers; Discord's own round trip is the same either way.  Nothing here asserts:
it prints, and docs/performance.md keeps the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert  # noqa: E402

from bot.app import Services  # noqa: E402
from bot.compute import BULK  # noqa: E402
from bot.db.engine import create_engine  # noqa: E402
from bot.db.migrate import upgrade  # noqa: E402
from bot.db.models import Post, RollLog, Scene, XpAward  # noqa: E402
from bot.services import Actor, Place  # noqa: E402
from bot.services.chronicle import service as chronicle_service  # noqa: E402
from bot.services.chronicle.archive import GM_POSTS, GM_ROLLS, GM_SCENES, GM_XP  # noqa: E402
from bot.services.chronicle.service import SQLITE_BATCH  # noqa: E402
from tests.examples import ARDELIA  # noqa: E402

GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
SOURCE = Place(1, 11, (11,))  # the campaign exported
PLAYER = Place(2, 21, (21,))  # another server, rolling all along
TARGET_GUILD = 3  # where the archive is imported (a new channel each time)
LIMIT = 1024 * 1024 * 1024  # no upload limit for the bench's own export
TEXT = (
    "La lluvia golpea los **postigos** mientras Ardelia escucha tras la puerta: pasos, "
    "una voz grave, el tintineo de unas llaves. *No me fío de este trato*, piensa. "
) * 6
ODDS = "+".join(["1o3d10"] * 4)  # heavy enough for the worker, well within the budget


async def fill(services: Services, scale: float) -> dict[str, int]:
    """The source campaign at ``scale`` × the import's budgets, written straight as rows."""
    await services.campaigns.create(
        SOURCE, GM, name="La campaña más larga", system="nucleo", target_id=11, kind="channel"
    )
    ardelia = await services.characters.create(SOURCE, ANA, json.loads(json.dumps(ARDELIA)))
    campaign = (await services.campaigns.show(SOURCE)).id
    counts = {
        GM_SCENES: int(4_000 * scale),
        GM_POSTS: int(40_000 * scale),
        GM_ROLLS: int(191_000 * scale),
        GM_XP: int(15_000 * scale),
    }
    start = datetime(2024, 1, 1, tzinfo=UTC)
    rng = random.Random(7)
    async with services.sessions() as session, session.begin():
        connection = await session.connection()
        scenes = [
            {
                "guild_id": 1,
                "campaign_id": campaign,
                "channel_id": 1000 + n,
                "parent_id": 11,
                "title": f"Escena {n}",
                "status": "closed",
                "private": False,
                "players": [],
                "opened_by": 1,
                "created_at": start,
                "version": 1,
            }
            for n in range(counts[GM_SCENES])
        ]
        scene_ids = (
            (
                await connection.execute(
                    insert(Scene.__table__).returning(
                        Scene.__table__.c.id, sort_by_parameter_order=True
                    ),  # type: ignore[attr-defined]
                    scenes,
                )
            )
            .scalars()
            .all()
        )
        for first in range(0, counts[GM_ROLLS], 10_000):
            rows = [
                {
                    "guild_id": 1,
                    "channel_id": 1000 + n % counts[GM_SCENES],
                    "campaign_id": campaign,
                    "user_id": 2,
                    "user_name": "Ana",
                    "character_name": "Ardelia",
                    "kind": "check",
                    "expression": "1o3d10+5",
                    "reason": "Percepción",
                    "breakdown": f"[{rng.randint(1, 10)}, 7, 9] → 7 + 5",
                    "total": rng.randint(6, 15),
                    "difficulty": 10,
                    "outcome": "success",
                    "fumble": False,
                    "private": False,
                    "detail": {"dice": [3, 7, 9]},
                    "created_at": start + timedelta(minutes=n),
                }
                for n in range(first, min(first + 10_000, counts[GM_ROLLS]))
            ]
            await connection.execute(insert(RollLog.__table__), rows)  # type: ignore[attr-defined]
        for first in range(0, counts[GM_POSTS], 5_000):
            rows = [
                {
                    "guild_id": 1,
                    "campaign_id": campaign,
                    "channel_id": 1000 + n % counts[GM_SCENES],
                    "scene_id": scene_ids[n % counts[GM_SCENES]],
                    "message_ids": [],
                    "gm_message_ids": [],
                    "author_user_id": 2,
                    "character_id": ardelia.id,
                    "speaker_name": "Ardelia",
                    "gm_post": False,
                    "gm_only": False,
                    "notes_private": False,
                    "text": TEXT,
                    "notes": "OOC: mañana no puedo",
                    "created_at": start + timedelta(minutes=n),
                    "version": 1,
                }
                for n in range(first, min(first + 5_000, counts[GM_POSTS]))
            ]
            await connection.execute(insert(Post.__table__), rows)  # type: ignore[attr-defined]
        awards = [
            {
                "guild_id": 1,
                "campaign_id": campaign,
                "character_id": ardelia.id,
                "character_name": "Ardelia",
                "granted_by": 1,
                "amount": 1,
                "xp_before": n,
                "xp_after": n + 1,
                "created_at": start + timedelta(hours=n),
            }
            for n in range(counts[GM_XP])
        ]
        await connection.execute(insert(XpAward.__table__), awards)  # type: ignore[attr-defined]
    return counts


class Load:
    """A request every ``1/rate`` s, each timed on its own (an open loop: a slow answer
    never delays the next request, as with many members at once)."""

    def __init__(self, request: Callable[[], Awaitable[Any]], rate: float) -> None:
        self.request, self.period = request, 1 / rate
        self.latencies: list[float] = []
        self.failures = 0
        self._task: asyncio.Task[None] | None = None
        self._inflight: set[asyncio.Task[None]] = set()

    async def _one(self) -> None:
        start = time.perf_counter()
        try:
            await self.request()
        except Exception:  # noqa: BLE001 - counted, not raised: the load goes on
            self.failures += 1
            return
        self.latencies.append(time.perf_counter() - start)

    async def _run(self) -> None:
        while True:
            task = asyncio.ensure_future(self._one())
            self._inflight.add(task)
            task.add_done_callback(self._inflight.discard)
            await asyncio.sleep(self.period)

    def start(self) -> None:
        self.latencies.clear()
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        await asyncio.gather(self._task, *self._inflight, return_exceptions=True)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def describe(values: list[float]) -> str:
    return (
        f"{len(values):5d} answered, p50 {statistics.median(values) * 1000:7.1f} ms, "
        f"p99 {percentile(values, 0.99) * 1000:7.1f} ms, worst {max(values) * 1000:7.1f} ms"
    )


def peak_mb(pid: int) -> float:
    """A process's peak resident memory (Linux ``VmHWM``), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def importing(services: Services, payload: bytes, channel: int) -> float:
    place = Place(TARGET_GUILD, channel, (channel,))
    start = time.perf_counter()
    summary = await services.chronicle.import_archive(
        place, GM, payload, target_id=channel, kind="channel"
    )
    assert sum(summary.counts.values()) > 0
    return time.perf_counter() - start


async def rolls_while_importing(
    name: str, services: Services, payload: bytes, rate: float, channel: int
) -> None:
    """Another server's /roll idle, then while ``payload`` is imported into ``channel``."""
    rolls = Load(lambda: services.rolls.roll(PLAYER, ANA, "1d20+3"), rate)
    rolls.start()
    await asyncio.sleep(10)
    await rolls.stop()
    idle = list(rolls.latencies)
    rolls.start()
    took = await importing(services, payload, channel)
    await rolls.stop()
    busy = list(rolls.latencies)
    print(f"\n[{name}] another server's /roll, {rate:.0f} a second")
    print(f"  idle:                {describe(idle)}")
    print(f"  while importing:     {describe(busy)}  (import {took:.1f} s)")
    ratio = percentile(busy, 0.99) / percentile(idle, 0.99)
    print(f"  p99 ratio:           {ratio:.2f}× idle (target: at most 2×)")
    if rolls.failures:
        print(f"  failed rolls:        {rolls.failures}")


async def on_database(
    name: str, url: str, payload: bytes, rate: float, odds: bool, batches: list[int]
) -> None:
    engine = create_engine(url)
    await upgrade(engine)
    services = Services(engine)
    await services.compute.start()
    try:
        await services.campaigns.create(
            PLAYER, GM, name="Otra mesa", system="nucleo", target_id=21, kind="channel"
        )
        if name == "SQLite" and batches:
            # the same run, each restore batch size in turn (the shared machine's load drifts)
            for index, size in enumerate(batches):
                chronicle_service.SQLITE_BATCH = size
                label = f"{name}, {size} rows a batch"
                await rolls_while_importing(label, services, payload, rate, 41 + index)
            chronicle_service.SQLITE_BATCH = SQLITE_BATCH
        else:
            await rolls_while_importing(name, services, payload, rate, 31)
        if not odds:
            return
        queries = Load(lambda: services.rolls.odds(ODDS, 25, owner=PLAYER.guild_id), 1)
        queries.start()
        await asyncio.sleep(10)
        await queries.stop()
        quiet = list(queries.latencies)
        queries.start()
        took = await importing(services, payload, 32)
        await queries.stop()
        worker = services.compute.lanes[BULK].executor
        pids = list(worker._processes) if worker is not None else []  # noqa: SLF001
        print(f"\n[{name}] another server's /odds (needs the worker), 1 a second")
        print(f"  idle:                {describe(quiet)}")
        print(f"  while importing:     {describe(queries.latencies)}  (import {took:.1f} s)")
        print("  target:              every answer under 1 s")
        for pid in pids:
            print(f"  bulk worker peak:    {peak_mb(pid):.0f} MB (VmHWM of pid {pid})")
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"  bot process peak:    {own:.0f} MB (this process, the source campaign included)")
    finally:
        await services.compute.close()
        await engine.dispose()


async def run(
    folder: Path,
    databases: list[tuple[str, str]],
    scale: float,
    rate: float,
    odds: bool,
    batches: list[int],
) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{folder / 'source.db'}")
    await upgrade(engine)
    services = Services(engine)
    await services.compute.start()
    start = time.perf_counter()
    counts = await fill(services, scale)
    print(f"source campaign: {counts} ({time.perf_counter() - start:.1f} s)")
    start = time.perf_counter()
    chronicle = await services.chronicle.export(SOURCE, GM, "es", LIMIT)
    payload = chronicle.payload
    print(
        f"exported:        {len(payload) / 2**20:.1f} MB zip, "
        f"{sum(chronicle.counts.values())} rows ({time.perf_counter() - start:.1f} s)"
    )
    await services.compute.close()
    await engine.dispose()
    for name, url in databases:
        await on_database(name, url, payload, rate, odds and name == "SQLite", batches)


def main(scale: float, rate: float, *, odds: bool = True, batches: list[int] | None = None) -> None:
    """The databases are made outside the event loop (tests/databases.py runs its own)."""
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        databases = [("SQLite", f"sqlite+aiosqlite:///{folder / 'bench.db'}")]
        if os.environ.get("ARBITRO_TEST_POSTGRES_URL") and not batches:
            from tests.databases import postgres_database

            databases.append(("PostgreSQL", stack.enter_context(postgres_database())))
        asyncio.run(run(folder, databases, scale, rate, odds, batches or []))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="share of the budgets")
    parser.add_argument("--rate", type=float, default=50.0, help="/roll requests per second")
    parser.add_argument(
        "--sqlite-batches",
        default="",
        help="compare restore batch sizes on SQLite in one run (e.g. 100,25): /roll only",
    )
    parser.add_argument("--no-odds", action="store_true", help="skip the /odds part")
    arguments = parser.parse_args()
    sizes = [int(size) for size in arguments.sqlite_batches.split(",") if size.strip()]
    main(arguments.scale, arguments.rate, odds=not arguments.no_odds, batches=sizes)
