"""Does a command cost more when the bot serves 1,000 guilds than when it serves 10?

Run from the repository root::

    .venv/bin/python benchmarks/scale_bench.py [--guilds 10 1000] [--rolls-per-guild 1000]
        [--repeat 200] [--rounds 3] [--postgres URL] [--backend sqlite postgres]

Issue 14 §1 (scaling).  For each scale, a fresh database is generated with the shape of a busy
deployment: every guild has 5 campaigns (each bound to its channel), 20 characters per campaign
(100 per guild, each the active character of its owner) and ``--rolls-per-guild`` audit rows
(1,000 by default: 1,000,000 rows at 1,000 guilds), interleaved across guilds as real traffic is.
Then a **separate process** (so the generator's memory does not count) builds the bot's
``Services`` on that database exactly as the bot does and measures, in the first guild, the
median wall time and the mean CPU time (the bot process's, both threads) of the hot commands — ``/roll``, ``/history`` with and without a member,
``/sheet show``, character autocomplete and ``/init next`` — and finally touches every guild
once (a ``/roll`` in each, which fills the per-process campaign cache as a day of traffic
would) and reports its resident memory.  The first guild's data is identical at every scale,
so the ratio large/small is the cost of the data the command does not return.  On a shared
machine the CPU ratio is the steadier figure (the wall time includes waiting for other work);
on PostgreSQL the server's work is not in the bot's CPU time, so read the wall ratio there.

Targets: every command at most **1.5×** at 1,000 guilds what it costs at 10; RSS at 1,000
guilds ≤ 150 MB.  It also prints the database's size per 100,000 audit rows.  Runs on SQLite
and, with ``--postgres`` or ``ARBITRO_TEST_POSTGRES_URL``, on a PostgreSQL database of its own
(created and dropped).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CAMPAIGNS_PER_GUILD = 5
CHARACTERS_PER_CAMPAIGN = 20
GUILD_BASE = 10**15  # snowflake-sized ids
GM_USER = 7
COMMANDS = ("roll", "history", "history_user", "sheet_show", "autocomplete", "init_next")


# -- the generator ------------------------------------------------------------------------


def _sheet() -> dict[str, Any]:
    from tests.examples import ARDELIA

    return json.loads(json.dumps(ARDELIA))


def guild_id(index: int) -> int:
    return GUILD_BASE + index * 1000


def channel_id(guild: int, campaign: int) -> int:
    return guild_id(guild) + 100 + campaign


def owner_id(campaign_row: int, character: int) -> int:
    return 10_000 + campaign_row * CHARACTERS_PER_CAMPAIGN + character


def _rows(guilds: int, rolls_per_guild: int) -> dict[str, Iterator[tuple[Any, ...]]]:
    """Every table's rows, ids assigned here so the rows can reference each other."""
    from bot.services.sheets.access import name_key

    now = datetime(2026, 12, 1, tzinfo=UTC).replace(tzinfo=None)
    sheet = json.dumps(_sheet())

    def campaigns() -> Iterator[tuple[Any, ...]]:
        for g in range(guilds):
            for c in range(CAMPAIGNS_PER_GUILD):
                row = g * CAMPAIGNS_PER_GUILD + c + 1
                yield (row, guild_id(g), f"Mesa {c}", "nucleo", GM_USER, "{}", "active", now, 1, 0)

    def bindings() -> Iterator[tuple[Any, ...]]:
        for g in range(guilds):
            for c in range(CAMPAIGNS_PER_GUILD):
                row = g * CAMPAIGNS_PER_GUILD + c + 1
                yield (row, row, guild_id(g), channel_id(g, c), "channel", True, now)

    def characters() -> Iterator[tuple[Any, ...]]:
        for campaign_row in range(guilds * CAMPAIGNS_PER_GUILD):
            g = campaign_row // CAMPAIGNS_PER_GUILD
            for k in range(CHARACTERS_PER_CAMPAIGN):
                row = campaign_row * CHARACTERS_PER_CAMPAIGN + k + 1
                name = f"Personaje {k:02d}"
                yield (
                    row, guild_id(g), campaign_row + 1, owner_id(campaign_row, k), name,
                    name_key(name), "nucleo", sheet, False, False, now, now, 1, 2,
                )  # fmt: skip

    def actives() -> Iterator[tuple[Any, ...]]:
        for campaign_row in range(guilds * CAMPAIGNS_PER_GUILD):
            g = campaign_row // CAMPAIGNS_PER_GUILD
            for k in range(CHARACTERS_PER_CAMPAIGN):
                row = campaign_row * CHARACTERS_PER_CAMPAIGN + k + 1
                yield (campaign_row + 1, owner_id(campaign_row, k), guild_id(g), row)

    def rolls() -> Iterator[tuple[Any, ...]]:
        rng = random.Random(5)
        row = 0
        for n in range(rolls_per_guild):  # round-robin: guilds interleave as traffic does
            for g in range(guilds):
                row += 1
                c = n % CAMPAIGNS_PER_GUILD
                campaign_row = g * CAMPAIGNS_PER_GUILD + c
                k = (n // CAMPAIGNS_PER_GUILD) % CHARACTERS_PER_CAMPAIGN
                total = rng.randint(6, 25)
                yield (
                    row, guild_id(g), channel_id(g, c), campaign_row + 1, owner_id(campaign_row, k),
                    f"jugador {k}", f"Personaje {k:02d}", "roll", "1d20+5",
                    f"1d20 ({total - 5}) + 5 = `{total}`", "{}", total, False, False,
                    now - timedelta(seconds=rolls_per_guild * guilds - row),
                )  # fmt: skip

    return {
        "campaign": campaigns(),
        "campaign_binding": bindings(),
        "character": characters(),
        "active_character": actives(),
        "roll_log": rolls(),
    }


COLUMNS = {
    "campaign": "id guild_id name system gm_user_id settings status created_at version gm_notes_seen",
    "campaign_binding": "id campaign_id guild_id target_id kind active created_at",
    "character": (
        "id guild_id campaign_id owner_user_id name name_key system sheet is_npc hidden"
        " created_at updated_at version sheet_version"
    ),
    "active_character": "campaign_id user_id guild_id character_id",
    "roll_log": (
        "id guild_id channel_id campaign_id user_id user_name character_name kind expression"
        " breakdown detail total fumble private created_at"
    ),
}


def _batches(
    rows: Iterator[tuple[Any, ...]], size: int = 20_000
) -> Iterator[list[tuple[Any, ...]]]:
    batch: list[tuple[Any, ...]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


async def _migrate(url: str) -> None:
    from bot.db.engine import create_engine
    from bot.db.migrate import upgrade

    engine = create_engine(url)
    await upgrade(engine)
    await engine.dispose()


def generate_sqlite(path: Path, guilds: int, rolls_per_guild: int) -> None:
    asyncio.run(_migrate(f"sqlite+aiosqlite:///{path}"))
    with sqlite3.connect(path) as conn:
        for table, rows in _rows(guilds, rolls_per_guild).items():
            columns = COLUMNS[table].split()
            marks = ", ".join("?" for _ in columns)
            insert = f'INSERT INTO "{table}" ({", ".join(columns)}) VALUES ({marks})'
            for batch in _batches(rows):
                conn.executemany(insert, batch)
        conn.commit()
    with sqlite3.connect(path) as conn:
        conn.execute("ANALYZE")


async def generate_postgres(url: str, guilds: int, rolls_per_guild: int) -> None:
    import asyncpg

    await _migrate(url)
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        for table, rows in _rows(guilds, rolls_per_guild).items():
            columns = COLUMNS[table].split()
            for batch in _batches(rows):
                await conn.copy_records_to_table(table, records=batch, columns=columns)
            if "id" in columns:  # the bot's own INSERTs continue after the generated ids
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'),"
                    f' (SELECT max(id) FROM "{table}"))'
                )
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


# -- the measurement (a process of its own) -------------------------------------------------


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def measure(url: str, guilds: int, repeat: int) -> dict[str, Any]:
    from bot.app import Services
    from bot.db.engine import create_engine
    from bot.services.shared.context import Actor, Place

    engine = create_engine(url)
    services = Services(engine, rng=random.Random(1))
    here = Place.simple(guild_id(0), channel_id(0, 0))
    gm = Actor(GM_USER, "Máster", can_manage_channels=True)
    player = Actor(owner_id(0, 0), "jugador 0")
    await services.combat.start(here, gm)
    for k in range(4):
        await services.combat.join(here, Actor(owner_id(0, k), f"jugador {k}"))
    await services.combat.add(here, gm, "Trasgos", initiative=12)
    await services.combat.roll(here, gm)

    commands: dict[str, Callable[[], Awaitable[object]]] = {
        "roll": lambda: services.rolls.roll(here, player, "1d20+5"),
        "history": lambda: services.rolls.history(here, gm),
        "history_user": lambda: services.rolls.history(here, gm, user_id=owner_id(0, 3)),
        "sheet_show": lambda: services.characters.show(here, player),
        "autocomplete": lambda: services.characters.names(here, player, "perso"),
        "init_next": lambda: services.combat.next(here, gm),
    }
    medians: dict[str, float] = {}
    cpu: dict[str, float] = {}
    for name, command in commands.items():
        for _ in range(10):  # warm up: caches, prepared statements
            await command()
        times = []
        cpu_started = time.process_time()
        for _ in range(repeat):
            started = time.perf_counter()
            await command()
            times.append(time.perf_counter() - started)
        cpu[name] = (time.process_time() - cpu_started) / repeat * 1000
        medians[name] = statistics.median(times) * 1000
    for g in range(guilds):  # a day of traffic: every guild's campaign lookup cached
        somewhere = Place.simple(guild_id(g), channel_id(g, g % CAMPAIGNS_PER_GUILD))
        await services.rolls.roll(
            somewhere, Actor(owner_id(g * CAMPAIGNS_PER_GUILD, 0), "x"), "1d6"
        )
    rss = _rss_mb()
    await services.combat.end(here, gm)  # the next round starts its own fight
    await engine.dispose()
    return {"medians_ms": medians, "cpu_ms": cpu, "rss_mb": rss}


def measure_in_child(url: str, guilds: int, repeat: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--measure", url, "--measure-guilds", str(guilds),
         "--repeat", str(repeat)],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    if out.returncode != 0:
        raise SystemExit(f"the measuring process failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# -- the run --------------------------------------------------------------------------------


async def _pg(admin_url: str, sql: str) -> Any:
    import asyncpg

    conn = await asyncpg.connect(admin_url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        return await conn.fetchval(sql)
    finally:
        await conn.close()


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per command, the best of the interleaved rounds (the least disturbed by other load)."""
    best = dict(runs[0])
    for measure in ("medians_ms", "cpu_ms"):
        best[measure] = {name: min(run[measure][name] for run in runs) for name in COMMANDS}
    best["rss_mb"] = max(run["rss_mb"] for run in runs)
    return best


def _measure_rounds(
    databases: list[tuple[int, str, dict[str, Any]]], rounds: int, repeat: int
) -> list[dict[str, Any]]:
    """Rounds interleave the scales (small, large, small, large…) so drift hits both alike."""
    runs: dict[int, list[dict[str, Any]]] = {guilds: [] for guilds, _, _ in databases}
    for _ in range(rounds):
        for guilds, url, _ in databases:
            runs[guilds].append(measure_in_child(url, guilds, repeat))
    return [{**_best(runs[guilds]), **facts} for guilds, _, facts in databases]


def run_sqlite(scales: list[int], rolls: int, repeat: int, rounds: int) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        databases = []
        for guilds in scales:
            path = Path(tmp) / f"scale-{guilds}.db"
            started = time.perf_counter()
            generate_sqlite(path, guilds, rolls)
            generated = time.perf_counter() - started
            with sqlite3.connect(path) as conn:  # the audit table and its indexes (dbstat)
                roll_log = conn.execute(
                    "SELECT sum(pgsize) FROM dbstat WHERE name = 'roll_log'"
                    " OR name IN (SELECT name FROM sqlite_master WHERE tbl_name = 'roll_log')"
                ).fetchone()[0]
            facts = {"guilds": guilds, "rolls": guilds * rolls, "generated_s": generated,
                     "db_bytes": path.stat().st_size, "roll_log_bytes": roll_log}  # fmt: skip
            databases.append((guilds, f"sqlite+aiosqlite:///{path}", facts))
        return _measure_rounds(databases, rounds, repeat)


def run_postgres(
    url: str, scales: list[int], rolls: int, repeat: int, rounds: int
) -> list[dict[str, Any]]:
    base = url.rsplit("/", 1)[0]
    databases = []
    try:
        for guilds in scales:
            db = f"arbitro_scale_{uuid.uuid4().hex[:8]}"
            asyncio.run(_pg(f"{base}/postgres", f'CREATE DATABASE "{db}"'))
            databases.append((guilds, f"{base}/{db}", {}))
            started = time.perf_counter()
            asyncio.run(generate_postgres(f"{base}/{db}", guilds, rolls))
            generated = time.perf_counter() - started
            size = asyncio.run(_pg(f"{base}/{db}", "SELECT pg_database_size(current_database())"))
            roll_log = asyncio.run(_pg(f"{base}/{db}", "SELECT pg_total_relation_size('roll_log')"))
            databases[-1][2].update(
                {"guilds": guilds, "rolls": guilds * rolls, "generated_s": generated,
                 "db_bytes": size, "roll_log_bytes": roll_log}
            )  # fmt: skip
        return _measure_rounds(databases, rounds, repeat)
    finally:
        for _, db_url, _ in databases:
            db = db_url.rsplit("/", 1)[1]
            asyncio.run(_pg(f"{base}/postgres", f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))


def report(backend: str, results: list[dict[str, Any]]) -> None:
    small, large = results[0], results[-1]
    print(f"\n== {backend}")
    head = (
        f"{'command':28}"
        + "".join(f"{r['guilds']:>8,} g" for r in results)
        + f"{'ratio':>9}  (target ≤ 1.5×)"
    )
    print(head)
    for measure, label in (("medians_ms", "median ms"), ("cpu_ms", "CPU ms")):
        for name in COMMANDS:
            figures = "".join(f"{r[measure][name]:>10.2f}" for r in results)
            ratio = large[measure][name] / small[measure][name]
            print(f"{name + ' (' + label + ')':28}{figures}{ratio:>8.2f}×")
    print(f"{'RSS MB (≤ 150)':28}" + "".join(f"{r['rss_mb']:>10.1f}" for r in results))
    print(f"{'audit rows':28}" + "".join(f"{r['rolls']:>10,}" for r in results))
    print(f"{'generated in s':28}" + "".join(f"{r['generated_s']:>10.1f}" for r in results))
    per_100k = large.get("roll_log_bytes", large["db_bytes"]) / (large["rolls"] / 100_000)
    what = "roll_log table+indexes" if "roll_log_bytes" in large else "whole database file"
    print(
        f"size per 100,000 rolls: {per_100k / 2**20:.1f} MB ({what}, at {large['guilds']:,} guilds)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guilds", type=int, nargs="+", default=[10, 1000])
    parser.add_argument("--rolls-per-guild", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", default=os.environ.get("ARBITRO_TEST_POSTGRES_URL"))
    parser.add_argument(
        "--backend", nargs="+", choices=("sqlite", "postgres"), default=["sqlite", "postgres"]
    )
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--measure-guilds", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(asyncio.run(measure(args.measure, args.measure_guilds, args.repeat))))
        return 0
    scales = sorted(args.guilds)
    print(
        f"{CAMPAIGNS_PER_GUILD} campaigns × {CHARACTERS_PER_CAMPAIGN} characters per guild, "
        f"{args.rolls_per_guild:,} audit rows per guild; medians of {args.repeat} calls each,"
        f" best of {args.rounds} interleaved rounds"
    )
    if "sqlite" in args.backend:
        report("SQLite", run_sqlite(scales, args.rolls_per_guild, args.repeat, args.rounds))
    if args.postgres and "postgres" in args.backend:
        results = run_postgres(
            args.postgres, scales, args.rolls_per_guild, args.repeat, args.rounds
        )
        report("PostgreSQL", results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
