"""Event-loop lag while heavy ``/odds`` run: issue 9 asks that another server's ``/roll`` is
answered within 1 s while 8 of the heaviest allowed ``/odds`` run.

Run from the repository root::

    .venv/bin/python benchmarks/loop_lag_bench.py [--odds 8] [--rolls 15]

It starts the stand-in and the real bot process (``python -m bot`` through the launcher, on a
temporary SQLite file, as the end-to-end tests do), then measures the time from a ``/roll``
interaction being sent to the bot's answer reaching the stand-in:

1. baseline: ``--rolls`` rolls one after another, nothing else running;
2. under load: ``--odds`` ``/odds`` of the heaviest expression the budget allows, sent at once
   from as many servers, while rolls keep coming from yet another server.

The heaviest allowed expression is the candidate with the highest estimated cost within
``rules.dice.odds.MAX_COST``.  The burst of ``--odds`` is sent ``--rounds`` times (from fresh
servers each round, so cooldowns do not interfere) to keep the load up while rolls are timed.  It prints both series next
to each other; nothing asserts (the figures depend on the machine: see docs/performance.md).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.dice import odds  # noqa: E402
from standin.client import Sandbox  # noqa: E402
from standin.guilds import GuildHandle  # noqa: E402
from standin.interactions import InteractionRecord, build_command  # noqa: E402

TARGET_S = 1.0
CANDIDATES = [
    "+".join(["1o3d10"] * 4),
    "1o3d10+1o3d10+1o3d10+1o3d10+1d10",
    "50d20ro1",
    "12d20kh6",
    "100d6+100d6",
    "1d1000*1d100",
    "60d10+60d10+60d10",
]


def heaviest_allowed() -> tuple[str, float]:
    """The candidate within the budget with the highest estimated cost, and its time (s)."""
    allowed = [e for e in CANDIDATES if odds.estimate_cost(e) <= odds.MAX_COST]
    expression = max(allowed, key=odds.estimate_cost)
    started = time.perf_counter()
    odds.probabilities_at_least(expression, (20, 30))
    return expression, time.perf_counter() - started


def send(
    sb: Sandbox, guild: GuildHandle, user: str, path: str, options: dict[str, Any]
) -> InteractionRecord:
    """Injects one slash command without waiting; returns the stand-in's record."""

    def prepare() -> InteractionRecord:
        g = sb.world.guilds[guild.id]
        ch, member = sb._channel(g, "mesa"), sb._who(g, user)  # noqa: SLF001
        data = build_command(sb.world, g, ch, member, path, options)
        return sb.server.inject(
            type=2, data=data, guild=g, channel=ch, member=member, locale="es-ES"
        )

    return sb._run(prepare)  # noqa: SLF001


def latency(sb: Sandbox, record: InteractionRecord, timeout: float = 60.0) -> float:
    """Seconds from sending ``record`` to the user seeing an answer (a deferral is not one)."""

    async def wait() -> float:
        limit = time.monotonic() + timeout
        while not record.answered.is_set():
            if any(r.get("code") == 10062 for r in record.rejections):
                return math.inf  # answered after Discord's deadline: the user saw nothing
            if time.monotonic() > limit:
                raise TimeoutError("no answer")
            await asyncio.sleep(0.005)
        return time.monotonic() - record.created

    return sb.standin.call(wait(), timeout=timeout + 5)


def roll_latencies(
    sb: Sandbox, guild: GuildHandle, count: int, stop: threading.Event | None = None
) -> list[float]:
    found: list[float] = []
    for i in range(count):
        if stop is not None and stop.is_set() and i >= 3:
            break
        found.append(latency(sb, send(sb, guild, "ana", "roll", {"expression": "1d20+5"})))
        time.sleep(0.2)
    return found


def _private_answer(record: InteractionRecord) -> bool:
    """Answered at once and privately: how the bot refuses (busy, over the budget)."""
    data = record.callback_data or {}
    return record.callback_type == 4 and bool(int(data.get("flags") or 0) & 64)


def describe(values: list[float]) -> str:
    missed = sum(1 for v in values if math.isinf(v))
    values = [v for v in values if not math.isinf(v)]
    if not values:
        return f"all {missed} past Discord's deadline"
    return (
        (f"{missed} past Discord's deadline, " if missed else "")
        + f"n={len(values):2d}  median {statistics.median(values) * 1000:7.1f} ms"
        f"  max {max(values) * 1000:7.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--odds", type=int, default=8, help="heavy /odds sent at once")
    parser.add_argument("--rolls", type=int, default=15, help="rolls per series")
    parser.add_argument("--rounds", type=int, default=3, help="bursts of --odds, one after another")
    parser.add_argument("--expression", help="the /odds expression (default: heaviest allowed)")
    args = parser.parse_args()

    if args.expression:  # e.g. to run this script against an older checkout
        expression = args.expression
        print(f"/odds load: {expression!r} (given)")
    else:
        expression, alone = heaviest_allowed()
        print(
            f"heaviest allowed /odds: {expression!r}  (cost {odds.estimate_cost(expression):,}"
            f" of {odds.MAX_COST:,}; {alone * 1000:.0f} ms computed alone in this process)"
        )
    with tempfile.TemporaryDirectory() as tmp, Sandbox(timeout=60, deadline=3.0) as sb:
        env = {
            "DATABASE_URL": f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}",
            "LOG_LEVEL": "WARNING",
        }
        sb.start_bot("bot.__main__", env=env, log_path=Path(tmp) / "bot.log")
        roller = sb.new_guild(name="Tiradas")
        heavy = [sb.new_guild(name=f"Probabilidades {i}") for i in range(args.odds * args.rounds)]
        latency(sb, send(sb, roller, "ana", "roll", {"expression": "1d6"}))  # warm up

        baseline = roll_latencies(sb, roller, args.rolls)

        started = time.monotonic()
        records: list = []
        done = threading.Event()
        odds_times: list[float] = []

        def load() -> None:
            for round_ in range(args.rounds):
                batch = [
                    send(sb, g, "bruno", "odds", {"expression": expression, "target": 25})
                    for g in heavy[round_ * args.odds : (round_ + 1) * args.odds]
                ]
                records.extend(batch)
                for record in batch:
                    odds_times.append(latency(sb, record, timeout=120))
            done.set()

        waiter = threading.Thread(target=load)
        waiter.start()
        loaded = roll_latencies(sb, roller, args.rolls * 10, stop=done)
        waiter.join()
        elapsed = time.monotonic() - started
        refused = sum(1 for r in records if _private_answer(r))  # a refusal, e.g. "busy"
        late = sum(1 for r in records if any(x.get("code") == 10062 for x in r.rejections))

    print(f"/roll, no load     : {describe(baseline)}")
    print(f"/roll, {args.odds} /odds load : {describe(loaded)}")
    if baseline and loaded:
        ratio = statistics.median(loaded) / statistics.median(baseline)
        print(
            f"ratio of medians   : {ratio:.1f}x;  worst /roll under load "
            f"{max(loaded):.2f} s (target ≤ {TARGET_S:.0f} s: "
            f"{'met' if max(loaded) <= TARGET_S else 'MISSED'})"
        )
    print(
        f"/odds answers      : {describe(odds_times)}  ({args.rounds} bursts of {args.odds},"
        f" all answered within {elapsed:.1f} s; "
        f"{refused} refused as busy, {late} past Discord's deadline)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
