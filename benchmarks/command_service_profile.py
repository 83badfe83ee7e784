"""What one command costs inside the bot, without Discord: SQL statements, transactions,
connection checkouts and CPU per call of the service method a cog calls, one at a time.

Run from the repository root::

    .venv/bin/python benchmarks/command_service_profile.py [--calls 200] [--postgres]
                                                           [--only check,attack] [--profile]

Issue 26 §"Where the time goes": the commands' figures of ``command_load_bench.py`` include
Discord's side; this one isolates the service (the cog calls exactly one method).  A campaign
(Núcleo) with 20 characters, an open fight everyone joined against a dragon (``acciones_por_turno`` = ``libre``),
and for ``init_next`` a fight of two.  Counts come from SQLAlchemy's engine events
(``before_cursor_execute``, pool ``checkout``, ``begin``), so they are exact whatever the
driver; CPU is this process's (both threads: aiosqlite's is the database's).  ``--profile``
prints cProfile's cumulative top of each command.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import event  # noqa: E402

from benchmarks.roll_load_bench import _pg  # noqa: E402
from bot.app import Services  # noqa: E402
from bot.db.engine import create_engine  # noqa: E402
from bot.db.migrate import upgrade  # noqa: E402
from bot.services.campaigns.service import SettingsChange  # noqa: E402
from bot.services.play.attack_order import AttackOrder  # noqa: E402
from bot.services.play.checks import CheckOrder  # noqa: E402
from bot.services.shared.context import Actor, Place  # noqa: E402
from tests.examples import ardelia, ardelia_the_mage  # noqa: E402

GUILD, CHANNEL = 1_000_000, 2_000_000
GM = Actor(7, "gm", is_admin=True, can_manage_channels=True)
PLAYERS = [Actor(100 + i, f"p{i}") for i in range(20)]


async def table(services: Services) -> Place:
    place = Place.simple(GUILD, CHANNEL)
    await services.campaigns.create(
        place, GM, name="Mesa", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.campaigns.update_settings(
        place, GM, SettingsChange(system_setting=("acciones_por_turno", "libre"))
    )
    for i, actor in enumerate(PLAYERS):
        sheet = ardelia_the_mage()
        sheet["name"] = f"Pj{i}"
        await services.characters.create(place, actor, sheet)
    dragon = ardelia(name="Dragón", pnj=True, pv_maximo=999)
    await services.characters.create(place, GM, dragon, is_npc=True)  # not hidden
    await services.combat.start(place, GM)
    for i, actor in enumerate(PLAYERS):
        await services.combat.join(place, actor)
        await services.combat.move(place, GM, f"Pj{i}", 30 - i)
    return place


def commands(services: Services, place: Place) -> dict[str, Callable[[int], Awaitable[Any]]]:
    def player(i: int) -> Actor:
        return PLAYERS[i % len(PLAYERS)]

    return {
        "roll": lambda i: services.rolls.roll(place, player(i), "1d20+5"),
        "check": lambda i: services.checks.check(place, player(i), CheckOrder("habilidad:Pilotar")),
        "attack": lambda i: services.attacks.attack(
            place, player(i), AttackOrder(target="Dragón", modifier=10)
        ),
        "sheet_show": lambda i: services.characters.show(place, player(i)),
        "init_show": lambda i: services.combat.show(place, player(i)),
        "history": lambda i: services.rolls.history(place, player(i)),
        "init_next": lambda _i: services.rounds.next(place, GM),
    }


def _attack_order(target: str) -> Any:
    from bot.services.play.attacks import AttackOrder

    return AttackOrder(target=target, modifier=10, damage="1")


class Counts:
    """SQL statements, checkouts and transactions seen by the engine."""

    def __init__(self, engine: Any) -> None:
        self.counts: Counter[str] = Counter()
        sync = engine.sync_engine
        event.listen(sync, "before_cursor_execute", self._statement)
        event.listen(sync.pool, "checkout", lambda *_: self.counts.update(["checkouts"]))
        event.listen(sync, "begin", lambda *_: self.counts.update(["transactions"]))

    def _statement(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        self.counts["statements"] += 1
        self.counts["stmt: " + " ".join(statement.split())[:90]] += 1


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        if args.postgres:
            url = os.environ["ARBITRO_TEST_POSTGRES_URL"]
            base, db = url.rsplit("/", 1)[0], f"arbitro_prof_{uuid.uuid4().hex[:8]}"
            await _pg(f"{base}/postgres", f'CREATE DATABASE "{db}"')
            engine = create_engine(f"{base}/{db}")
        else:
            engine = create_engine(f"sqlite+aiosqlite:///{Path(tmp) / 'bot.db'}")
        try:
            await upgrade(engine)
            services = Services(engine, rng=random.Random(1))
            place = await table(services)
            counts = Counts(engine)
            wanted = commands(services, place)
            for name, call in wanted.items():
                if args.only and name not in args.only:
                    continue
                for i in range(20):  # warm: every player's first call fills the caches
                    await call(i)
                counts.counts.clear()
                profiler = cProfile.Profile() if args.profile else None
                started, cpu = time.perf_counter(), time.process_time()
                if profiler:
                    profiler.enable()
                for i in range(args.calls):
                    await call(i)
                if profiler:
                    profiler.disable()
                wall = (time.perf_counter() - started) / args.calls * 1e3
                used = (time.process_time() - cpu) / args.calls * 1e3
                c, n = counts.counts, args.calls
                print(
                    f"{name:12} {used:6.2f} ms CPU {wall:6.2f} ms wall  "
                    f"{c['statements'] / n:4.1f} statements {c['transactions'] / n:4.1f} "
                    f"transactions {c['checkouts'] / n:4.1f} checkouts"
                )
                if args.statements:
                    for key, value in c.most_common():
                        if key.startswith("stmt: "):
                            print(f"    {value / n:4.1f}× {key[6:]}")
                if profiler:
                    stats = pstats.Stats(profiler)
                    stats.sort_stats(args.sort).print_stats(args.filter, args.top)
        finally:
            await engine.dispose()
            if args.postgres:
                await _pg(f"{base}/postgres", f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--only", type=lambda s: s.split(","), default=None)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", default="cumulative", help="cProfile's order (--profile)")
    parser.add_argument("--filter", default=r"(bot|cogs|rules)/", help="--profile: file regex")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--statements", action="store_true", help="list each statement's count")
    asyncio.run(main_async(parser.parse_args()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
