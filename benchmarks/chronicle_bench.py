"""Event-loop lag while ``/campaign export`` and ``/campaign import`` run on a long campaign.

Run from the repository root::

    .venv/bin/python benchmarks/chronicle_bench.py [--posts 5000]

It fills a temporary SQLite database with one campaign (a scene per 100 posts, a roll
attached to every post), then measures how late a 10 ms timer fires (the lag another server's
command would feel): idle (the baseline), while the chronicle is exported (rows read in
batches on the loop, the zip built in the worker process), and while it is imported into
another server (checked in the worker process, written in batches).  It prints the worst lags
and their ratio to the baseline.  Not a timed test: nothing here asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.privacy_export_bench import worst_lag  # noqa: E402
from bot.app import Services  # noqa: E402
from bot.db.engine import create_engine  # noqa: E402
from bot.db.migrate import upgrade  # noqa: E402
from bot.db.models import Post, RollLog, Scene  # noqa: E402
from bot.services import Actor, Place  # noqa: E402
from tests.examples import ARDELIA  # noqa: E402

LIMIT = 100 * 1024 * 1024
TEXT = ("La lluvia golpea los **postigos** mientras Ardelia escucha tras la puerta. " * 8).strip()


async def main(posts: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        engine = create_engine(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}")
        await upgrade(engine)
        services = Services(engine)
        await services.compute.start()
        here, gm = Place(1, 11, (11,)), Actor(1, "Máster", can_manage_channels=True)
        await services.campaigns.create(
            here, gm, name="Larga", system="nucleo", target_id=11, kind="channel"
        )
        await services.characters.create(here, Actor(2, "Ana"), json.loads(json.dumps(ARDELIA)))
        campaign_id = (await services.campaigns.show(here)).id
        start = datetime(2026, 1, 1, tzinfo=UTC)
        async with services.sessions() as session, session.begin():
            scenes = [
                Scene(
                    guild_id=1,
                    campaign_id=campaign_id,
                    channel_id=100 + n,
                    title=f"Escena {n}",
                    status="closed",
                    opened_by=1,
                    created_at=start,
                )
                for n in range(max(1, posts // 100))
            ]
            session.add_all(scenes)
            await session.flush()
            for n in range(posts):
                scene = scenes[n % len(scenes)]
                roll = RollLog(
                    guild_id=1,
                    channel_id=scene.channel_id,
                    campaign_id=campaign_id,
                    user_id=2,
                    user_name="Ana",
                    expression="1o3d10+5",
                    breakdown="[3, 7, 9] → 7 + 5",
                    total=12,
                    created_at=start,
                )
                session.add(roll)
                await session.flush()
                session.add(
                    Post(
                        guild_id=1,
                        campaign_id=campaign_id,
                        channel_id=scene.channel_id,
                        scene_id=scene.id,
                        author_user_id=2,
                        speaker_name="Ardelia",
                        text=TEXT,
                        notes="OOC: mañana no puedo",
                        roll_log_id=roll.id,
                        created_at=start + timedelta(minutes=n),
                    )
                )
        chronicle = None

        async def export() -> None:
            nonlocal chronicle
            chronicle = await services.chronicle.export(here, gm, "es", LIMIT)

        async def import_() -> None:
            assert chronicle is not None
            there = Place(2, 21, (21,))
            await services.chronicle.import_archive(
                there, gm, chronicle.payload, target_id=21, kind="channel"
            )

        baseline, _ = await worst_lag(None)
        exporting, export_took = await worst_lag(export)
        importing, import_took = await worst_lag(import_)
        await services.compute.close()
        await engine.dispose()
    assert chronicle is not None
    size = len(chronicle.payload) / 2**20
    print(f"posts (each with a roll):  {posts}")
    print(f"zip:                       {size:.2f} MB")
    print(f"export took:               {export_took:.2f} s (the command is deferred first)")
    print(f"import took:               {import_took:.2f} s")
    print(f"worst loop lag, idle:      {baseline * 1000:.0f} ms")
    for label, lag in (("exporting", exporting), ("importing", importing)):
        ratio = lag / max(baseline, 1e-4)
        print(f"worst loop lag, {label}: {lag * 1000:.0f} ms ({ratio:.0f}x idle)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=5000)
    asyncio.run(main(parser.parse_args().posts))
