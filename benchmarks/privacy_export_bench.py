"""Event-loop lag while ``/privacy export`` reads and encodes a long roll history.

Run from the repository root::

    .venv/bin/python benchmarks/privacy_export_bench.py [--rolls 20000]

It fills a temporary SQLite database with one member's rolls, then measures how late a 10 ms
timer fires (the event-loop lag another server's command would feel) first with nothing else
running (the baseline) and then while the export is read (in batches) and encoded (in slices,
compression in a thread).  It prints both worst lags and their ratio; the target is a worst
lag well under Discord's 3-second deadline (under 0.5 s on a loaded 2-core machine).  Not a
timed test: the numbers depend on the machine, so nothing here asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import Services  # noqa: E402
from bot.db.engine import create_engine  # noqa: E402
from bot.db.migrate import upgrade  # noqa: E402
from bot.db.models import RollLog  # noqa: E402

DISCORD_UPLOAD_LIMIT = 10 * 1024 * 1024


async def worst_lag(work, *, idle: float = 0.5) -> tuple[float, float]:
    """(worst lag of a 10 ms timer, seconds ``work`` took); with ``work=None`` it idles."""
    lags: list[float] = []

    async def ticker() -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - start - 0.01)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.05)
    lags.clear()
    start = time.perf_counter()
    if work is None:
        await asyncio.sleep(idle)
    else:
        await work()
    took = time.perf_counter() - start
    task.cancel()
    return max(lags or [0.0]), took


async def main(rolls: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        engine = create_engine(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}")
        await upgrade(engine)
        services = Services(engine)
        async with services.sessions() as session, session.begin():
            for n in range(rolls):
                session.add(
                    RollLog(
                        guild_id=1,
                        channel_id=2,
                        user_id=3,
                        user_name="Ana",
                        expression="1o3d10+2",
                        breakdown=f"1o3d10 [3, 7, 9] → 7 + 2 = 9 (tirada {n})",
                        detail={"dice": [3, 7, 9], "kept": [7], "modifier": 2},
                        total=9,
                        reason="Trepar por la muralla",
                    )
                )

        async def export() -> None:
            document = await services.privacy.export(1, 3)
            await services.privacy.encode(document, DISCORD_UPLOAD_LIMIT)

        baseline, _ = await worst_lag(None)
        loaded, took = await worst_lag(export)
        await engine.dispose()
    print(f"rolls exported:            {rolls}")
    print(f"export + encode took:      {took:.2f} s (the command is deferred first)")
    print(f"worst loop lag, idle:      {baseline * 1000:.0f} ms")
    print(
        f"worst loop lag, exporting: {loaded * 1000:.0f} ms ({loaded / max(baseline, 1e-4):.0f}x idle)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=20000)
    asyncio.run(main(parser.parse_args().rolls))
