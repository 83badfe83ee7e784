"""``/roll`` under load through the stand-in: Árbitro's real process against a bare bot.

Run from the repository root::

    .venv/bin/python benchmarks/roll_load_bench.py [--users 100] [--rounds 10] [--repeats 3]
                                                   [--postgres URL] [--inject sequential]
    .venv/bin/python benchmarks/roll_load_bench.py --profile    # cProfile: Árbitro (SQLite) vs floor

Issue 14 §1: at 100 users rolling at once, Árbitro's CPU per ``/roll`` must stay within 3×
the floor's, its p99 within 1.5× the floor's, and no answer may miss Discord's 3 s deadline.

The floor is ``benchmarks/floor_bot.py``: a bare discord.py bot with the same ``/roll``
(same options, same dice engine, same Markdown line) and no database.  The script starts
the stand-in, then, one after another in the same run and under the same load, the floor,
Árbitro on a temporary SQLite file, and Árbitro on PostgreSQL (a database of its own created
on the server of ``--postgres`` or ``ARBITRO_TEST_POSTGRES_URL``, dropped afterwards).
That sequence runs ``--repeats`` times (fresh processes and databases each time) and the
script prints each repeat, then the medians: a ratio is taken within its repeat, against the
floor measured a minute earlier under the same load, and its median and range are shown.  One
sequence alone was at the mercy of the machine: the floor's own p99 moved between 88 and
127 ms from one run to the next on a quiet machine, and a ratio inherited that noise.

Load: ``--users`` members (10 per server, each server with a campaign bound to ``#mesa``)
each send one ``/roll 1d20+5`` at the same instant; when all are answered the next round
starts.  "The same instant" is one step of the stand-in's loop queueing every interaction of
the round to the gateway (``--inject burst``, the default since 2 December 2026).  Before,
the script sent them one cross-thread call at a time (``--inject sequential``): a round then
took 30–120 ms to send, and how long depended on how busy the stand-in's thread was with the
bot's answers, so the load generator was coupled to the bot it measured and the two bots of
a comparison did not get the same load.  The ``sent over`` column shows it.

Each member rolls once per round; after every 5 rounds the script waits out the per-member
cooldown (6 rolls per 10 s) before going on.  Bot CPU is the process's user +
system time read from ``/proc`` before the first round and after the last answer (and its
message-link write) has settled.

Two columns of latency: ``p99`` over every round, and ``p99 warm`` over the rounds after the
first.  The first round is every member's first ``/roll`` (each bot meets 100 new members:
discord.py builds them, the cooldowns open their windows), and it was the slowest round of
either bot in most runs, so it set the pooled p99 of both.  The stand-in runs in a thread of
this script: its garbage collector is frozen and disabled during the rounds (measured with
``gc.callbacks``, its full collections took 30–170 ms, growing with what it had recorded,
and landed on whichever bot was being measured).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import os
import pstats
import signal
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from standin.client import Sandbox  # noqa: E402
from standin.guilds import GuildHandle  # noqa: E402
from standin.interactions import InteractionRecord, build_command  # noqa: E402

DEADLINE_S = 3.0
PER_GUILD = 10
#: The per-member cooldown of ``/roll`` allows 6 per 10 s: 5 rounds, then the rest of the window.
ROUNDS_PER_WINDOW, WINDOW_S = 5, 10.5
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def thread_cpu(pid: int) -> dict[int, float]:
    """CPU seconds per thread of ``pid`` (the main thread's id is ``pid``)."""
    out: dict[int, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended
            continue
        out[int(task.name)] = (int(fields[11]) + int(fields[12])) / TICK
    return out


def _inject(sb: Sandbox, guild: GuildHandle, user: str, expression: str) -> InteractionRecord:
    """One ``/roll`` from ``user`` in ``#mesa``; runs on the stand-in's loop."""
    g = sb.world.guilds[guild.id]
    ch, member = sb._channel(g, "mesa"), sb._who(g, user)  # noqa: SLF001
    data = build_command(sb.world, g, ch, member, "roll", {"expression": expression})
    return sb.server.inject(type=2, data=data, guild=g, channel=ch, member=member, locale="es-ES")


def send(sb: Sandbox, guild: GuildHandle, user: str, expression: str) -> InteractionRecord:
    """One interaction, this thread waiting for the stand-in to have queued it."""
    return sb._run(lambda: _inject(sb, guild, user, expression))  # noqa: SLF001


def send_round(
    sb: Sandbox, members: list[tuple[GuildHandle, str]], expression: str, inject: str
) -> list[InteractionRecord]:
    """Every member's ``/roll`` of one round.

    ``burst``: all queued to the gateway in one step of the stand-in's loop, so they reach
    the bot together, as when 100 members press Enter in the same instant.  ``sequential``:
    one cross-thread call each (0.3–1.2 ms apart, depending on what the stand-in's thread is
    doing meanwhile), the script's way before 2 December 2026."""
    if inject == "burst":
        return sb._run(lambda: [_inject(sb, g, m, expression) for g, m in members])  # noqa: SLF001
    return [send(sb, g, m, expression) for g, m in members]


def wait_all(sb: Sandbox, records: list[InteractionRecord], timeout: float = 120.0) -> list[float]:
    """Seconds from sending to the answer, per record (inf: past Discord's deadline)."""

    async def one(record: InteractionRecord) -> float:
        limit = time.monotonic() + timeout
        while not record.answered.is_set():
            if any(r.get("code") == 10062 for r in record.rejections):
                return math.inf
            if time.monotonic() > limit:
                raise TimeoutError("no answer")
            await asyncio.sleep(0.05)  # the stand-in stamps the answer; polling is only the wait
        assert record.answered_at is not None  # stamped before ``answered`` is set
        return record.answered_at - record.created

    async def every() -> list[float]:
        return list(await asyncio.gather(*(one(r) for r in records)))

    return sb.standin.call(every(), timeout=timeout + 5)


@dataclass
class Figures:
    name: str
    cpu_ms: float
    latencies: list[float]
    main_ms: float = 0.0  # of which the main (event-loop) thread
    first_round: int = 0  # how many of ``latencies`` are the first round's
    sent_over_ms: float = 0.0  # median time between a round's first and last interaction

    @property
    def answered(self) -> list[float]:
        return sorted(v for v in self.latencies if not math.isinf(v))

    def pct(self, q: float, *, warm: bool = False) -> float:
        """The ``q`` quantile of the answered interactions (``warm``: after the first round)."""
        pool = self.latencies[self.first_round :] if warm else self.latencies
        values = sorted(v for v in pool if not math.isinf(v))
        return values[min(len(values) - 1, int(q * len(values)))] if values else math.inf

    @property
    def missed(self) -> int:
        return sum(1 for v in self.latencies if v > DEADLINE_S)


#: ``--pin``: the cores the bots run on (the stand-in and this script get the others).
BOT_CPUS: set[int] | None = None


def pin(pid: int, cpus: set[int]) -> None:
    """Every thread of ``pid`` onto ``cpus`` (threads started later inherit it)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that just ended
            os.sched_setaffinity(int(task.name), cpus)


def run_one(sb: Sandbox, name: str, module: str, args: tuple, env: dict, users: int,
            rounds: int, log: Path, arbitro: bool, profile: bool = False,
            inject: str = "burst") -> Figures:  # fmt: skip
    sb.start_bot(module, args=args, env=env, log_path=log, ready_timeout=120)
    if BOT_CPUS is not None:
        pin(sb.proc.pid, BOT_CPUS)
    guilds = []
    members = []
    for gi in range(math.ceil(users / PER_GUILD)):
        g = sb.new_guild(name=f"{name} {gi}")
        if arbitro:
            sb.command(
                "campaign create",
                {"name": f"Campaña {gi}", "system": "nucleo"},
                guild=g, channel="mesa", user="gm", locale="es-ES",
            ).expect_ok()  # fmt: skip
        for mi in range(PER_GUILD):
            if len(members) < users:
                members.append((g, g.add_member(f"p{gi}x{mi}").name))
        guilds.append(g)
    wait_all(sb, [send(sb, g, "ana", "1d6") for g in guilds])  # warm up every server
    time.sleep(1.0)
    pid = sb.proc.pid
    if BOT_CPUS is not None:
        pin(pid, BOT_CPUS)  # threads started since (the database's)
    before = cpu_seconds(pid)
    threads_before = thread_cpu(pid)
    if profile:
        os.kill(pid, signal.SIGUSR1)  # benchmarks/profiled.py: profile the rounds only
    latencies: list[float] = []
    spans: list[float] = []  # per round: from its first interaction sent to its last
    gc.collect()  # the stand-in's collector: not the bot's pauses (module docstring)
    gc.freeze()
    gc.disable()
    try:
        window = time.monotonic()
        for n in range(rounds):
            if n and n % ROUNDS_PER_WINDOW == 0:  # the members' cooldown
                time.sleep(max(0.0, window + WINDOW_S - time.monotonic()))
                window = time.monotonic()
            records = send_round(sb, members, "1d20+5", inject)
            spans.append(max(r.created for r in records) - min(r.created for r in records))
            latencies += wait_all(sb, records)
    finally:
        gc.enable()
        gc.unfreeze()
    time.sleep(1.0)  # the message-link writes after each answer
    if profile:
        os.kill(pid, signal.SIGUSR2)
        time.sleep(2.0)  # the statistics are written
    cpu = cpu_seconds(pid) - before
    main = thread_cpu(pid).get(pid, 0.0) - threads_before.get(pid, 0.0)
    sb.stop_bot()
    n = len(latencies)
    return Figures(
        name, cpu / n * 1000, latencies, main / n * 1000, first_round=len(members),
        sent_over_ms=statistics.median(spans) * 1000,
    )  # fmt: skip


def print_by_package(stats: pstats.Stats) -> None:
    """Own time (tottime) summed per top-level package: where the rounds' CPU went."""
    totals: dict[str, float] = {}
    for (filename, _line, _name), row in stats.stats.items():  # type: ignore[attr-defined]
        path = filename.replace("\\", "/")
        if "site-packages/" in path:
            key = path.split("site-packages/", 1)[1].split("/", 1)[0]
        elif "/lib/python3" in path:
            key = "stdlib:" + path.rsplit("/", 1)[-1]
        elif filename.startswith("~") or filename.startswith("<"):
            key = "builtins"
        else:
            key = "own:" + path.rsplit("/", 2)[-2]
        totals[key] = totals.get(key, 0.0) + row[2]
    total = sum(totals.values())
    print(f"own time by package, {total:.2f} s in all:")
    for key, value in sorted(totals.items(), key=lambda kv: -kv[1])[:20]:
        print(f"  {key:40} {value:7.3f} s {value / total:6.1%}")


def print_difference(floor: pstats.Stats, ours: pstats.Stats, rolls: int) -> None:
    """Where Árbitro's main thread spends more than the floor's, per roll: own time by
    function, both profiled the same way over the same rounds (cProfile's overhead inflates
    both alike; compare the two columns, not either with the unprofiled figures)."""

    def own(stats: pstats.Stats) -> dict[str, float]:
        out: dict[str, float] = {}
        for (filename, line, name), row in stats.stats.items():  # type: ignore[attr-defined]
            if name == "<method 'poll' of 'select.epoll' objects>":
                continue  # waiting, not working
            key = f"{filename.rsplit('site-packages/', 1)[-1]}:{line}({name})"
            out[key] = out.get(key, 0.0) + row[2] / rolls * 1e6
        return out

    base, mine = own(floor), own(ours)
    total_base, total_mine = sum(base.values()), sum(mine.values())
    print(f"own time per roll, waiting excluded: floor {total_base:.0f} µs, Árbitro "
          f"{total_mine:.0f} µs (profiled); the largest differences:")  # fmt: skip
    keys = sorted(set(base) | set(mine), key=lambda k: base.get(k, 0.0) - mine.get(k, 0.0))
    for key in keys[:30]:
        print(f"  {mine.get(key, 0.0):7.1f} {base.get(key, 0.0):7.1f} µs  {key[-110:]}")


async def _pg(admin_url: str, sql: str) -> None:
    import asyncpg

    dsn = admin_url.replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument(
        "--repeats", type=int, default=3,
        help="run floor, SQLite and PostgreSQL this many times, interleaved; report medians",
    )  # fmt: skip
    parser.add_argument("--postgres", default=os.environ.get("ARBITRO_TEST_POSTGRES_URL"))
    parser.add_argument("--profile", action="store_true", help="cProfile Árbitro on SQLite")
    parser.add_argument(
        "--pin", action="store_true",
        help="bots on half the cores, the stand-in and this script on the other half",
    )  # fmt: skip
    parser.add_argument("--only", choices=("floor", "sqlite", "postgres"), action="append")
    parser.add_argument(
        "--inject", choices=("burst", "sequential"), default="burst",
        help="a round's interactions reach the bot together (default) or one by one",
    )  # fmt: skip
    args = parser.parse_args()
    if args.rounds < 2:
        parser.error("--rounds at least 2 (the first round is every member's first roll)")
    only = set(args.only or ("floor", "sqlite", "postgres"))
    if args.profile:
        only = {"floor", "sqlite"}
    repeats = 1 if args.profile else args.repeats
    runs: list[dict[str, Figures]] = []
    with tempfile.TemporaryDirectory() as tmp, Sandbox(timeout=60, deadline=DEADLINE_S) as sb:
        if args.pin:
            global BOT_CPUS
            cpus = sorted(os.sched_getaffinity(0))
            if len(cpus) < 2:
                parser.error("--pin needs two cores at least")
            BOT_CPUS = set(cpus[len(cpus) // 2 :])
            pin(os.getpid(), set(cpus[: len(cpus) // 2]))  # this script and the stand-in
        for repeat in range(repeats):
            runs.append(run_sequence(sb, Path(tmp), only, args, repeat))
    pinned = f", bots pinned to cores {sorted(BOT_CPUS)}" if BOT_CPUS else ""
    print(
        f"{args.users} users at once ({args.inject}), {args.rounds} rounds, /roll 1d20+5, "
        f"{repeats} repeat(s)" + pinned
    )
    if repeats > 1:
        print("each repeat (floor, then Árbitro, fresh processes and databases):")
        print(HEADER)
        for repeat, run in enumerate(runs, 1):
            for figures in run.values():
                print_row(f"  #{repeat} {figures.name}", figures, run.get("floor"))
        print(f"median of the {repeats} repeats (ratios: median of each repeat's own, and range):")
    print(HEADER)
    for name in ("floor", "sqlite", "postgres"):
        series = [run[name] for run in runs if name in run]
        if series:
            floors = [run.get("floor") for run in runs if name in run]
            print_summary(name, series, floors)
    print("targets: CPU/roll ≤ 3× floor, p99 ≤ 1.5× floor, none over 3 s")
    print("p99 warm: the rounds after the first (every member's first roll)")
    print("sent over: median time from a round's first interaction sent to its last")
    return 0


def run_sequence(
    sb: Sandbox, tmpdir: Path, only: set[str], args: argparse.Namespace, repeat: int
) -> dict[str, Figures]:
    """One repeat: the floor, then Árbitro on SQLite and on PostgreSQL, one after another
    under the same load, each a fresh process on a fresh database."""
    results: dict[str, Figures] = {}
    common = {"LOG_LEVEL": "WARNING"}
    tag = f"{repeat}"
    if "floor" in only:
        module, extra = "benchmarks.floor_bot", ()
        if args.profile:
            module, extra = (
                "benchmarks.profiled",
                ("benchmarks.floor_bot", str(tmpdir / "floor.prof")),
            )
        results["floor"] = run_one(
            sb, "floor", module, extra, common, args.users, args.rounds,
            tmpdir / f"floor-{tag}.log", arbitro=False, profile=args.profile,
            inject=args.inject,
        )  # fmt: skip
    if "sqlite" in only:
        env = {**common, "DATABASE_URL": f"sqlite+aiosqlite:///{tmpdir / f'bench-{tag}.db'}"}
        module, extra = "bot.__main__", ()
        if args.profile:
            module, extra = "benchmarks.profiled", ("bot.__main__", str(tmpdir / "prof"))
        results["sqlite"] = run_one(
            sb, "sqlite", module, extra, env, args.users, args.rounds,
            tmpdir / f"sqlite-{tag}.log", arbitro=True, profile=args.profile,
            inject=args.inject,
        )  # fmt: skip
        if args.profile:
            stats = pstats.Stats(str(tmpdir / "prof"))
            stats.sort_stats("cumulative").print_stats(45)
            stats.sort_stats("tottime").print_stats(25)
            print_by_package(stats)
            if "floor" in results:
                rolls = args.users * args.rounds
                print_difference(pstats.Stats(str(tmpdir / "floor.prof")), stats, rolls)
    if "postgres" in only and args.postgres:
        db = f"arbitro_bench_{uuid.uuid4().hex[:8]}"
        base = args.postgres.rsplit("/", 1)[0]
        asyncio.run(_pg(f"{base}/postgres", f'CREATE DATABASE "{db}"'))
        try:
            env = {**common, "DATABASE_URL": f"{base}/{db}"}
            results["postgres"] = run_one(
                sb, "postgres", "bot.__main__", (), env, args.users, args.rounds,
                tmpdir / f"pg-{tag}.log", arbitro=True, inject=args.inject,
            )  # fmt: skip
        finally:
            asyncio.run(_pg(f"{base}/postgres", f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
    return results


HEADER = (
    f"{'bot':13} {'CPU/roll':>9} {'×floor':>19} {'p50':>7} {'p99':>7} {'×floor':>19} "
    f"{'p99 warm':>8} {'×floor':>19} {'max':>7} {'>3 s':>5} {'main thread':>12} "
    f"{'sent over':>9}"
)


def print_row(label: str, r: Figures, floor: Figures | None) -> None:
    """One bot in one repeat, its ratios against the floor of the same repeat."""
    cpu_x = f"{r.cpu_ms / floor.cpu_ms:.1f}×" if floor else "-"
    p99_x = f"{r.pct(0.99) / floor.pct(0.99):.2f}×" if floor else "-"
    warm = r.pct(0.99, warm=True)
    warm_x = f"{warm / floor.pct(0.99, warm=True):.2f}×" if floor else "-"
    print(
        f"{label:13} {r.cpu_ms:7.2f}ms {cpu_x:>19} {r.pct(0.5) * 1000:5.0f}ms "
        f"{r.pct(0.99) * 1000:5.0f}ms {p99_x:>19} {warm * 1000:6.0f}ms {warm_x:>19} "
        f"{max(r.latencies) * 1000:5.0f}ms {r.missed:5d} {r.main_ms:10.2f}ms "
        f"{r.sent_over_ms:7.1f}ms"
    )


def print_summary(name: str, series: list[Figures], floors: list[Figures | None]) -> None:
    """Medians over the repeats; each ratio is taken within its repeat (the floor measured
    minutes apart under other load would not be a fair baseline), then its median and range."""

    def ratios(value: Callable[[Figures], float]) -> str:
        pairs = [(value(r), value(f)) for r, f in zip(series, floors, strict=True) if f]
        if not pairs:
            return "-"
        each = sorted(ours / base for ours, base in pairs)
        if len(each) == 1:
            return f"{each[0]:.2f}×"
        return f"{statistics.median(each):.2f}× ({each[0]:.2f}–{each[-1]:.2f})"

    def median(value: Callable[[Figures], float]) -> float:
        return statistics.median(value(r) for r in series)

    print(
        f"{name:13} {median(lambda r: r.cpu_ms):7.2f}ms {ratios(lambda r: r.cpu_ms):>19} "
        f"{median(lambda r: r.pct(0.5)) * 1000:5.0f}ms {median(lambda r: r.pct(0.99)) * 1000:5.0f}ms "
        f"{ratios(lambda r: r.pct(0.99)):>19} "
        f"{median(lambda r: r.pct(0.99, warm=True)) * 1000:6.0f}ms "
        f"{ratios(lambda r: r.pct(0.99, warm=True)):>19} "
        f"{max(max(r.latencies) for r in series) * 1000:5.0f}ms "
        f"{sum(r.missed for r in series):5d} {median(lambda r: r.main_ms):10.2f}ms "
        f"{median(lambda r: r.sent_over_ms):7.1f}ms"
    )


if __name__ == "__main__":
    raise SystemExit(main())
