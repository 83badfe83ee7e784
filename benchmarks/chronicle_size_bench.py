"""Export and import of a years-long campaign: time and size (issue 22 §3).

Run from the repository root::

    .venv/bin/python benchmarks/chronicle_size_bench.py [--posts 10000] [--rolls 50000]
        [--characters 12] [--postgres postgresql+asyncpg://…]

It fills a database (a temporary SQLite file, or a database of its own on the PostgreSQL
server given) with one campaign: ``--characters`` player characters, each with a different
192 KiB avatar (within the 256 KiB ``/sheet profile`` allows, random pixels that do not
compress), ``--posts`` posts spread over scenes of 100 posts and over the characters, and
``--rolls`` rolls (one attached to every post, the rest on their own).  Then, in the same run:

* the **floor**: the record alone (every row as JSON lines, deflated) and each avatar's
  bytes once, the least any export could write — the ratios below are against it;
* ``/campaign export`` as one zip (a boost-3 server, 100 MiB) and as parts within 10 MiB
  (an unboosted server) and 50 MiB (boost 2): time, total size, and each part's size;
* the avatars' share: each image is stored once, so the zip holds their bytes once, not once
  per post (the «embedded in every page» size is what the old export would have written);
* ``/campaign import`` of the record part into another server: time.

Not a timed test: nothing here asserts.  docs/play-by-post.md quotes its figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert  # noqa: E402

from bot.app import Services  # noqa: E402
from bot.db.engine import create_engine  # noqa: E402
from bot.db.migrate import upgrade  # noqa: E402
from bot.db.models import Post, RollLog, Scene  # noqa: E402
from bot.services import Actor, Place  # noqa: E402
from bot.services.sheets.profiles import ProfileChange  # noqa: E402
from tests.bot.test_chronicle import png  # noqa: E402
from tests.examples import ARDELIA  # noqa: E402

MIB = 2**20
LIMITS = {"unboosted (10 MiB)": 10 * MIB, "boost 2 (50 MiB)": 50 * MIB}
ONE_ZIP = 100 * MIB
TEXT = (
    "La lluvia golpea los **postigos** mientras {name} escucha tras la puerta; "
    "el posadero cuenta monedas y la vela se apaga. "
)
BATCH = 1000


def _table(model: Any) -> Any:
    return model.__table__


async def fill(services: Services, posts: int, rolls: int, characters: int) -> int:
    here, gm = Place(1, 11, (11,)), Actor(1, "Máster", can_manage_channels=True)
    await services.campaigns.create(
        here, gm, name="Años de partida", system="nucleo", target_id=11, kind="channel"
    )
    ids = []
    for number in range(characters):
        player = Actor(100 + number, f"Jugador {number}")
        name = f"Personaje {number}"
        created = await services.characters.create(
            here, player, dict(json.loads(json.dumps(ARDELIA)), name=name)
        )
        avatar = png(256, 256, seed=number)  # 192 KiB of pixels that do not compress
        await services.profiles.update(here, player, name, ProfileChange(avatar=avatar))
        ids.append((created.id, name, player.user_id))
    campaign_id = (await services.campaigns.show(here)).id
    start = datetime(2024, 1, 1, tzinfo=UTC)
    noise = random.Random(7)
    scene_count = max(1, posts // 100)
    async with services.sessions.kw["bind"].begin() as connection:
        scene_ids = []
        for n in range(scene_count):
            result = await connection.execute(
                insert(_table(Scene)).returning(_table(Scene).c.id),
                [
                    {
                        "guild_id": 1,
                        "campaign_id": campaign_id,
                        "channel_id": 1000 + n,
                        "title": f"Escena {n}",
                        "status": "closed",
                        "private": False,
                        "players": [],
                        "opened_by": 1,
                        "created_at": start + timedelta(days=n),
                        "opening_text": f"Capítulo {n}: la posada.",
                        "version": 1,
                    }
                ],
            )
            scene_ids.append(result.scalar_one())
        roll_rows = []
        for n in range(rolls):
            character_id, name, user_id = ids[n % len(ids)]
            die = noise.randint(1, 20)
            roll_rows.append(
                {
                    "guild_id": 1,
                    "channel_id": 1000 + (n % scene_count),
                    "campaign_id": campaign_id,
                    "user_id": user_id,
                    "user_name": f"Jugador {user_id - 100}",
                    "character_name": name,
                    "kind": "roll",
                    "expression": "1d20+3",
                    "reason": "ataque",
                    "breakdown": f"1d20 ({die}) + 3",
                    "detail": {},
                    "total": die + 3,
                    "fumble": False,
                    "private": False,
                    "created_at": start + timedelta(minutes=n),
                    "audience": "everyone",
                    "secrets": {},
                }
            )
        roll_ids: list[int] = []
        for first in range(0, len(roll_rows), BATCH):
            result = await connection.execute(
                insert(_table(RollLog)).returning(
                    _table(RollLog).c.id, sort_by_parameter_order=True
                ),
                roll_rows[first : first + BATCH],
            )
            roll_ids.extend(result.scalars().all())
        post_rows = []
        for n in range(posts):
            character_id, name, user_id = ids[n % len(ids)]
            scene = n % scene_count
            post_rows.append(
                {
                    "guild_id": 1,
                    "campaign_id": campaign_id,
                    "channel_id": 1000 + scene,
                    "scene_id": scene_ids[scene],
                    "message_ids": [],
                    "author_user_id": user_id,
                    "character_id": character_id,
                    "speaker_name": name,
                    "gm_post": False,
                    "gm_only": False,
                    "text": TEXT.format(name=name) * 3,
                    "notes": None,
                    "notes_private": False,
                    "gm_message_ids": [],
                    "roll_log_id": roll_ids[n] if n < len(roll_ids) else None,
                    "created_at": start + timedelta(minutes=n),
                    "version": 1,
                    "audience": "everyone",
                    "secrets": {},
                }
            )
        for first in range(0, len(post_rows), BATCH):
            await connection.execute(insert(_table(Post)), post_rows[first : first + BATCH])
    return campaign_id


def floor(snapshot_rows: dict[str, list[Any]]) -> tuple[float, int]:
    """The record alone as JSON lines, deflated: what any export must at least write."""
    began = time.perf_counter()
    total = 0
    for rows in snapshot_rows.values():
        text = "".join(json.dumps(row, ensure_ascii=False, default=str) + "\n" for row in rows)
        total += len(zlib.compress(text.encode("utf-8"), 6))
    return time.perf_counter() - began, total


async def main(posts: int, rolls: int, characters: int, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        postgres = url is not None
        url = url or f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        engine = create_engine(url)
        try:
            await upgrade(engine)
            services = Services(engine)
            await services.compute.start()
            began = time.perf_counter()
            campaign_id = await fill(services, posts, rolls, characters)
            print(f"database:                 {'PostgreSQL' if postgres else 'SQLite'}")
            print(
                f"campaign:                 {posts} posts, {rolls} rolls, {characters} characters"
                f" with a 192 KiB avatar each (filled in {time.perf_counter() - began:.1f} s)"
            )
            snapshot = await services.chronicle._snapshot(campaign_id)
            floor_took, floor_size = floor(
                {"posts": snapshot.posts, "rolls": snapshot.rolls, "scenes": snapshot.scenes}
            )
            avatars = sum(len(c["avatar"]["bytes"]) for c in snapshot.characters if "avatar" in c)
            print(f"avatars, once each:       {avatars / MIB:.2f} MB")
            floor_size += avatars
            print(
                f"floor (the record as JSON lines, deflated, and each avatar once): "
                f"{floor_size / MIB:.2f} MB in {floor_took:.2f} s"
            )
            embedded = avatars / characters * posts * 2 * 4 / 3  # base64 on two pages a post
            print(f"avatars embedded in every page (the old export): {embedded / MIB:,.0f} MB")
            here, gm = Place(1, 11, (11,)), Actor(1, "Máster", can_manage_channels=True)
            runs: dict[str, Any] = {}
            for label, limit in {"one zip (boost 3, 100 MiB)": ONE_ZIP, **LIMITS}.items():
                began = time.perf_counter()
                exported = await services.chronicle.export(here, gm, "es", limit)
                took = time.perf_counter() - began
                sizes = [len(payload) for _name, payload in exported.parts]
                runs[label] = exported
                ratio = sum(sizes) / floor_size
                print(
                    f"export, {label}: {took:.1f} s, {len(sizes)} part(s), "
                    f"{sum(sizes) / MIB:.2f} MB ({ratio:.1f}x the floor); "
                    f"parts: {', '.join(f'{s / MIB:.2f}' for s in sizes)} MB; "
                    f"largest within the limit: {max(sizes) <= limit}"
                )
            record = runs["unboosted (10 MiB)"].parts[0][1]
            began = time.perf_counter()
            there = Place(2, 21, (21,))
            summary = await services.chronicle.import_archive(
                there, gm, record, target_id=21, kind="channel"
            )
            took = time.perf_counter() - began
            print(
                f"import of part 1 (the record, {len(record) / MIB:.2f} MB): {took:.1f} s — "
                f"{summary.counts['posts']} posts, {summary.counts['rolls']} rolls, "
                f"{summary.counts['characters']} characters"
            )
            await services.compute.close()
        finally:
            await engine.dispose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=10_000)
    parser.add_argument("--rolls", type=int, default=50_000)
    parser.add_argument("--characters", type=int, default=12)
    parser.add_argument("--postgres", default=None, help="a PostgreSQL server URL (tests' form)")
    arguments = parser.parse_args()
    run = (arguments.posts, arguments.rolls, arguments.characters)
    if arguments.postgres:
        import os

        os.environ["ARBITRO_TEST_POSTGRES_URL"] = arguments.postgres  # read when it loads
        from tests.databases import postgres_database

        with postgres_database() as database:  # a database of its own, dropped afterwards
            asyncio.run(main(*run, database))
    else:
        asyncio.run(main(*run, None))
