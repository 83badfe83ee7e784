"""The service-level cost of a ``/roll``: ``RollService.roll`` against a bare INSERT.

Run from the repository root::

    .venv/bin/python benchmarks/roll_service_bench.py [--rolls 2000] [--rounds 3] [--profile]

Issue 14 §1: a roll with its audit row must cost at most **5×** a bare aiosqlite INSERT of
the same row (with its own commit), measured in the same run.  Both run on fresh SQLite files
in WAL mode with the bot's PRAGMAs, one after another, interleaved round by round; the roll
goes through ``bot.app.Services`` exactly as the cog calls it (a campaign bound to the
channel; the member's active character is looked up).  Rates are rolls per second of
sequential calls (the event loop does nothing else), by the wall clock and per second of the
process's CPU time (the event loop plus aiosqlite's thread; steadier on a shared machine).  ``--profile`` prints a
cProfile of the roll loop instead.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite  # noqa: E402

from bot.app import Services  # noqa: E402
from bot.db.engine import create_engine  # noqa: E402
from bot.db.migrate import upgrade  # noqa: E402
from bot.services.shared.context import Actor, Place  # noqa: E402
from rules import dice  # noqa: E402

GUILD, CHANNEL = 1_000_000, 2_000_000
GM = Actor(7, "gm", is_admin=True, can_manage_channels=True)
PLAYER = Actor(8, "ana")


async def arbitro(path: Path) -> tuple[Services, Place]:
    engine = create_engine(f"sqlite+aiosqlite:///{path}")
    await upgrade(engine)
    services = Services(engine, rng=random.Random(1))
    place = Place.simple(GUILD, CHANNEL)
    await services.campaigns.create(
        place, GM, name="Mesa", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    return services, place


async def bare(path: Path) -> aiosqlite.Connection:
    """A plain aiosqlite connection on the same migrated schema, with the bot's PRAGMAs."""
    engine = create_engine(f"sqlite+aiosqlite:///{path}")
    await upgrade(engine)
    await engine.dispose()
    conn = await aiosqlite.connect(path)
    for pragma in (
        "journal_mode=WAL",
        "foreign_keys=ON",
        "busy_timeout=5000",
        "synchronous=NORMAL",
    ):
        await conn.execute(f"PRAGMA {pragma}")
    return conn


INSERT = (
    "INSERT INTO roll_log (guild_id, channel_id, campaign_id, user_id, user_name, character_name,"
    " kind, expression, reason, breakdown, detail, total, difficulty, outcome, fumble, private,"
    " created_at) VALUES (?, ?, ?, ?, ?, ?, 'roll', ?, NULL, ?, ?, ?, NULL, NULL, 0, 0, ?)"
)


async def bare_rolls(conn: aiosqlite.Connection, n: int, rng: random.Random) -> tuple[float, float]:
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(n):
        result = dice.roll("1d20+5", rng=rng)
        await conn.execute(
            INSERT,
            (GUILD, CHANNEL, None, PLAYER.user_id, PLAYER.name, None, result.expression,
             str(result), json.dumps({}), result.total, "2026-12-01 00:00:00"),
        )  # fmt: skip
        await conn.commit()
    return n / (time.perf_counter() - started), n / (time.process_time() - cpu)


async def service_rolls(services: Services, place: Place, n: int) -> tuple[float, float]:
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(n):
        await services.rolls.roll(place, PLAYER, "1d20+5")
    return n / (time.perf_counter() - started), n / (time.process_time() - cpu)


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        services, place = await arbitro(Path(tmp) / "bot.db")
        await services.rolls.roll(place, PLAYER, "1d20+5")  # warm up
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            await service_rolls(services, place, args.rolls)
            profiler.disable()
            stats = pstats.Stats(profiler)
            stats.sort_stats("cumulative").print_stats(40)
            stats.sort_stats("tottime").print_stats(25)
            return
        conn = await bare(Path(tmp) / "bare.db")
        ours, floor = [], []
        rng = random.Random(2)
        for _ in range(args.rounds):
            floor.append(await bare_rolls(conn, args.rolls, rng))
            ours.append(await service_rolls(services, place, args.rolls))
        await conn.close()
        print(f"{args.rolls} sequential rolls × {args.rounds} rounds (best round)")
        print("                               wall-clock/s   per CPU second (both threads)")
        for label, rates in (
            ("bare aiosqlite INSERT + commit", floor),
            ("RollService.roll + audit", ours),
        ):
            wall, cpu = max(r[0] for r in rates), max(r[1] for r in rates)
            print(f"{label:30} {wall:12,.0f} {cpu:14,.0f}")
        wall = max(r[0] for r in floor) / max(r[0] for r in ours)
        cpu = max(r[1] for r in floor) / max(r[1] for r in ours)
        print(f"{'ratio (target ≤ 5×)':30} {wall:11.1f}× {cpu:13.1f}×")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    asyncio.run(main_async(parser.parse_args()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
