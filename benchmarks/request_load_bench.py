"""A roll request's «Tirar» button under load: Árbitro's real process against a bare bot.

Run from the repository root::

    .venv/bin/python benchmarks/request_load_bench.py [--rounds 3] [--levels 1,20,100]
                                                      [--only floor|sqlite|postgres]
                                                      [--kinds press,roll,check]

Issue 26: at 1, 20 and 100 members pressing at once, a press must cost at most 3× the CPU of
a bare discord.py bot answering a button, its p99 stay within 2× the floor's, and no member
may wait past Discord's 3 s for the **final** answer (the private line with the roll, not a
deferral: a deferred press meets Discord's first deadline but the player still waits).

Method (that of ``roll_load_bench.py``): the stand-in in a thread of this script, then, one
after another in the same run and under the same load, the floor
(``benchmarks/floor_bot.py``: ``/panel`` posts 20 persistent buttons, a press answers its
member privately with a ``1d20+5`` line), Árbitro on a temporary SQLite file and Árbitro on
PostgreSQL (a database of its own on the server of ``--postgres`` or
``ARBITRO_TEST_POSTGRES_URL``, dropped afterwards).  Five servers of 20 members; in Árbitro
each server has a campaign and each member a character, and its GM asks them all with one
``/request check`` (20 characters: ``MAX_TARGETS``).

Levels: **1** — one request's 20 buttons pressed one after another, each press sent when the
previous one was answered; **20** — one server's 20 buttons at the same instant; **100** —
the five servers' 100 buttons at the same instant (one step of the stand-in's loop queues
them).  Each level runs ``--rounds`` rounds on fresh requests (fresh panels for the floor);
the GM's ``/request check`` between rounds is not measured.  Bot CPU is the process's user +
system time from ``/proc`` from just before a round's first press to 1.5 s after its last
answer (so the message edits a round leaves behind are counted), per press.  Latency is
from the press being sent to its final answer: for Árbitro the first follow-up (its answer
after the deferral, or after an edit of the request message, as the code before this
benchmark answered), for the floor its one reply.  A press whose answer comes after 3 s, or
never (Discord's 10062), counts as past 3 s.

``--kinds roll,check,press`` (what ``make bench`` runs) also measures ``/roll 1d20+5`` and
``/check habilidad:Pilotar`` by the same members at the same levels, each against the floor's
``/roll`` (a slash command answered by a bare bot: the same kind of interaction).  The members'
cooldown (6 rolling commands per 10 s) is waited out between levels.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.roll_load_bench import _pg, cpu_seconds  # noqa: E402
from standin.client import Sandbox  # noqa: E402
from standin.guilds import GuildHandle  # noqa: E402
from standin.interactions import InteractionRecord, build_command  # noqa: E402
from tests.e2e.helpers import sheet_file  # noqa: E402
from tests.examples import ardelia  # noqa: E402

DEADLINE_S = 3.0
SERVERS, PER_SERVER = 5, 20
OPTION = "habilidad:Pilotar"
#: After a round: the edits it left behind (coalesced: at most about one a second).
SETTLE_S = 1.5
#: Between two levels of a slash command: the members' cooldown window (6 per 10 s).
COOLDOWN_S = 10.5
#: What each kind sends: a slash command (its options), or the press of a button.
SLASH = {"roll": ("roll", {"expression": "1d20+5"}), "check": ("check", {"option": OPTION})}


@dataclass
class Level:
    """One bot at one level: CPU per press and every press's latency to its final answer."""

    bot: str
    level: int
    kind: str = "press"
    cpu_s: float = 0.0
    latencies: list[float] = field(default_factory=list)

    @property
    def cpu_ms(self) -> float:
        return self.cpu_s / max(len(self.latencies), 1) * 1000

    def pct(self, q: float) -> float:
        values = sorted(v for v in self.latencies if not math.isinf(v))
        return values[min(len(values) - 1, int(q * len(values)))] if values else math.inf

    @property
    def missed(self) -> int:
        return sum(1 for v in self.latencies if v > DEADLINE_S)


def _final(record: InteractionRecord) -> float | None:
    """When the member saw the press's final answer (monotonic), or None while waiting."""
    if record.followup_at is not None:
        return record.followup_at
    if record.callback_type == 4 and record.answered_at is not None:
        return record.answered_at  # a reply in the callback itself: the floor's, a refusal
    return None


def wait_final(sb: Sandbox, records: list[InteractionRecord], timeout: float = 60.0) -> list[float]:
    """Seconds from sending to the final answer, per record (inf: never, or 10062)."""

    async def every() -> list[float]:
        limit = time.monotonic() + timeout
        out: dict[int, float] = {}
        while len(out) < len(records) and time.monotonic() < limit:
            for i, record in enumerate(records):
                if i in out:
                    continue
                if (at := _final(record)) is not None:
                    out[i] = at - record.created
                elif any(r.get("code") == 10062 for r in record.rejections):
                    out[i] = math.inf
            await asyncio.sleep(0.005)
        return [out.get(i, math.inf) for i in range(len(records))]

    return sb.standin.call(every(), timeout=timeout + 5)


def _press(sb: Sandbox, guild: GuildHandle, user: str, message_id: int, custom_id: str):
    """One press of ``custom_id`` on ``message_id`` by ``user``; runs on the stand-in's loop."""
    g = sb.world.guilds[guild.id]
    ch, member = sb._channel(g, "mesa"), sb._who(g, user)  # noqa: SLF001
    data = {"custom_id": custom_id, "component_type": 2}
    return sb.server.inject(
        type=3, data=data, guild=g, channel=ch, member=member, locale="es-ES", message_id=message_id
    )


def _slash(sb: Sandbox, guild: GuildHandle, user: str, path: str, options: dict[str, object]):
    """One slash command by ``user`` in ``#mesa``; runs on the stand-in's loop."""
    g = sb.world.guilds[guild.id]
    ch, member = sb._channel(g, "mesa"), sb._who(g, user)  # noqa: SLF001
    data = build_command(sb.world, g, ch, member, path, options)
    return sb.server.inject(type=2, data=data, guild=g, channel=ch, member=member, locale="es-ES")


def _buttons(sb: Sandbox, message_id: int, prefix: str) -> list[str]:
    return [
        b["custom_id"]
        for b in sb.message(message_id).buttons
        if b.get("custom_id", "").startswith(prefix)
    ]


class Table:
    """The five servers, their members and (for Árbitro) campaigns and characters."""

    def __init__(self, sb: Sandbox, name: str, arbitro: bool) -> None:
        self.sb, self.name, self.arbitro = sb, name, arbitro
        self.servers: list[tuple[GuildHandle, list[str]]] = []

    def server(self, s: int) -> tuple[GuildHandle, list[str]]:
        """Server ``s``, built the first time a level needs it (not measured)."""
        while len(self.servers) <= s:
            n, sb = len(self.servers), self.sb
            g = sb.new_guild(name=f"{self.name} {n}")
            members = [g.add_member(f"p{n}x{m}").name for m in range(PER_SERVER)]
            if self.arbitro:
                sb.command(
                    "campaign create", {"name": f"Campaña {n}", "system": "nucleo"},
                    guild=g, channel="mesa", user="gm", locale="es-ES",
                ).expect_ok()  # fmt: skip
                for m, member in enumerate(members):
                    sheet = ardelia(name=f"Pj{n}x{m}")
                    sb.command(
                        "sheet import", {"file": sheet_file(sheet)},
                        guild=g, channel="mesa", user=member,
                    ).expect_ok()  # fmt: skip
            self.servers.append((g, members))
        return self.servers[s]

    def ask(self, server: int) -> list[tuple[GuildHandle, str, int, str]]:
        """A fresh request (a fresh panel) in ``server``: (guild, member, message, button) for
        each of its 20 members, the button being that member's."""
        g, members = self.server(server)
        if not self.arbitro:
            reply = self.sb.command("panel", {}, guild=g, channel="mesa", user="gm")
            ids = _buttons(self.sb, reply.message.id, "floor:")
            return [(g, m, reply.message.id, ids[i]) for i, m in enumerate(members)]
        who = " ".join(f"<@{g.member(m).id}>" for m in members)
        for _ in range(30):  # the GM's cooldown (6 requests per 10 s)
            reply = self.sb.command(
                "request check", {"who": who, "option": OPTION}, guild=g, channel="mesa", user="gm"
            )
            if reply.ok and not reply.ephemeral:
                break
            time.sleep(1.0)
        else:
            raise AssertionError(f"the request was refused: {reply.all_text}")
        ids = _buttons(self.sb, reply.message.id, "arb:1:req-roll:")
        assert len(ids) == PER_SERVER, ids
        return [(g, m, reply.message.id, ids[i]) for i, m in enumerate(members)]


def _sends(sb: Sandbox, table: Table, kind: str, level: int) -> list[Callable[[], object]]:
    """What one round sends: each a call that queues one interaction (stand-in's loop)."""
    servers = range(SERVERS) if level == 100 else [0]
    if kind == "press":
        presses = [press for server in servers for press in table.ask(server)]
        return [lambda p=press: _press(sb, *p) for press in presses]
    path, options = SLASH[kind]
    if not table.arbitro:
        path, options = SLASH["roll"]  # the floor's slash command
    members = [(table.server(s)[0], m) for s in servers for m in table.server(s)[1]]
    return [lambda g=g, m=m: _slash(sb, g, m, path, options) for g, m in members]


def run_level(sb: Sandbox, table: Table, bot: str, level: int, rounds: int, kind: str) -> Level:
    figures = Level(bot, level, kind)
    pid = sb.proc.pid
    for _ in range(rounds):
        sends = _sends(sb, table, kind, level)
        if level == 1:
            sends = sends[:PER_SERVER]
        time.sleep(0.5)  # the request's own work (its message link) is not the press's
        before = cpu_seconds(pid)
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            if level == 1:
                for send in sends:
                    figures.latencies += wait_final(sb, [sb._run(send)])  # noqa: SLF001
            else:
                records = sb._run(lambda b=sends: [send() for send in b])  # noqa: SLF001
                figures.latencies += wait_final(sb, records)
        finally:
            gc.enable()
            gc.unfreeze()
        time.sleep(SETTLE_S)
        figures.cpu_s += cpu_seconds(pid) - before
    return figures


def run_bot(
    sb: Sandbox, bot: str, module: str, env: dict[str, str], log: Path, args: argparse.Namespace
) -> list[Level]:
    sb.start_bot(module, env=env, log_path=log, ready_timeout=120)
    try:
        table = Table(sb, bot, arbitro=bot != "floor")
        out = []
        for kind in args.kinds:
            for level in args.levels:
                out.append(run_level(sb, table, bot, level, args.rounds, kind))
                if kind != "press":
                    time.sleep(COOLDOWN_S)
        return out
    finally:
        sb.stop_bot()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--levels", default="1,20,100")
    parser.add_argument("--postgres", default=os.environ.get("ARBITRO_TEST_POSTGRES_URL"))
    parser.add_argument("--only", choices=("floor", "sqlite", "postgres"), action="append")
    parser.add_argument("--kinds", default="press", help="press, roll, check (comma-separated)")
    args = parser.parse_args()
    args.kinds = args.kinds.split(",")
    if any(k not in ("press", *SLASH) for k in args.kinds):
        parser.error("--kinds takes press, roll and check")
    args.levels = [int(n) for n in args.levels.split(",")]
    if any(n not in (1, 20, 100) for n in args.levels):
        parser.error("--levels takes 1, 20 and 100")
    only = set(args.only or ("floor", "sqlite", "postgres"))
    results: dict[str, list[Level]] = {}
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp, Sandbox(timeout=60, deadline=DEADLINE_S) as sb:
        common = {"LOG_LEVEL": "WARNING"}
        if "floor" in only:
            results["floor"] = run_bot(
                sb, "floor", "benchmarks.floor_bot", common, Path(tmp) / "floor.log", args
            )
        if "sqlite" in only:
            env = {**common, "DATABASE_URL": f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"}
            results["sqlite"] = run_bot(
                sb, "sqlite", "bot.__main__", env, Path(tmp) / "s.log", args
            )
        if "postgres" in only and args.postgres:
            db = f"arbitro_bench_{uuid.uuid4().hex[:8]}"
            base = args.postgres.rsplit("/", 1)[0]
            asyncio.run(_pg(f"{base}/postgres", f'CREATE DATABASE "{db}"'))
            try:
                env = {**common, "DATABASE_URL": f"{base}/{db}"}
                results["postgres"] = run_bot(
                    sb, "postgres", "bot.__main__", env, Path(tmp) / "pg.log", args
                )
            finally:
                asyncio.run(_pg(f"{base}/postgres", f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
    end = os.getloadavg()
    print(
        f"{', '.join(args.kinds)}, {args.rounds} round(s) per level; load average "
        f"{load[0]:.1f} at the start, {end[0]:.1f} at the end (1 min)"
    )
    print(
        f"{'bot':9} {'kind':6} {'at once':>7} {'presses':>7} {'CPU/press':>10} {'× floor':>8} "
        f"{'p50':>7} {'p99':>7} {'× floor':>8} {'max':>7} {'> 3 s':>6}"
    )
    floors = {(f.kind, f.level): f for f in results.get("floor", [])}
    for levels in results.values():
        for r in levels:
            floor = floors.get((r.kind, r.level))
            cpu_x = f"{r.cpu_ms / floor.cpu_ms:.1f}×" if floor else "-"
            p99_x = f"{r.pct(0.99) / floor.pct(0.99):.2f}×" if floor else "-"
            worst = max(r.latencies) if r.latencies else math.nan
            shown = "never" if math.isinf(worst) else f"{worst * 1000:5.0f}ms"
            print(
                f"{r.bot:9} {r.kind:6} {r.level:7d} {len(r.latencies):7d} {r.cpu_ms:8.2f}ms {cpu_x:>8} "
                f"{r.pct(0.5) * 1000:5.0f}ms {r.pct(0.99) * 1000:5.0f}ms {p99_x:>8} "
                f"{shown:>7} {r.missed:6d}"
            )
    print("targets (issue 26): CPU/press ≤ 3× floor, p99 ≤ 2× floor, none past 3 s")
    print("the floor answers /roll for the slash commands (roll, check), a button for press")
    medians = [statistics.median(r.latencies) for rs in results.values() for r in rs if r.latencies]
    return 0 if medians else 1


if __name__ == "__main__":
    raise SystemExit(main())
