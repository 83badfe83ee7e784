"""Posting by typing under a burst (issue 24): Árbitro's real process against a bare proxy bot.

Run from the repository root::

    .venv/bin/python benchmarks/typing_bench.py [--players 20] [--scenes 5] [--rounds 3]
                                                [--repeats 1] [--postgres URL]

Issue 24's measure: a burst of typed posts — 20 players posting in 5 scenes at once — the CPU
each post costs Árbitro against the bare discord.py floor measured in the same run, and the
order of every scene's posts kept.

The floor is ``benchmarks/floor_bot.py`` with ``FLOOR_PROXY=1``: a bare proxy bot (what any
Tupperbox-like bot pays) that reads the message, reposts ``Name: text`` through the forum's
webhook as Name and deletes the original, in arrival order per thread, with no database.
Árbitro does what issue 24 asks of a typed post: the campaign and its setting, the scene
(its row), the member's characters and tags, the speaker's profile, the webhook post, the
record (the post, its messages, the round), the sticky character, the original's deletion,
the scene's pinned header.

Each bot runs in a fresh process (the floor, then Árbitro on a temporary SQLite file, then on
PostgreSQL when ``--postgres`` or ``ARBITRO_TEST_POSTGRES_URL`` names a server), on a fresh
server of the stand-in: one forum, ``--scenes`` forum posts, ``--players`` members spread over
them, each with a character (Árbitro's campaign has ``escribir_como_personaje`` on).  A warm-up
round (every player's first post: scenes become scenes, caches fill) is not measured; then each
of ``--rounds`` rounds is every player's post written in the same step of the stand-in's loop
(``GuildHandle.write_together``), and the round ends when the bot has finished with all of
them (the launcher's idle report).  CPU is the bot process's user + system time from /proc
over the measured rounds.  All the scenes share the forum's webhook, so Discord's webhook limit
(5 messages per 2 s, modelled by the stand-in) sets the pace of a round for both bots alike:
the wall time per round is shown, and the 429s the stand-in had to answer.

Order: in every scene, the posts the bot made during the measured rounds must carry the texts
in the order their originals were written; a scene where they do not is counted.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import pstats
import signal
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from standin.client import Sandbox  # noqa: E402
from standin.guilds import ChannelRef, GuildHandle  # noqa: E402
from standin.intents import MESSAGE_CONTENT  # noqa: E402
from tests.examples import ARDELIA  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
WORDS = (
    "La lluvia golpea los postigos mientras el posadero cuenta monedas. "
    "Nadie en la sala parece fijarse en la capa empapada que cuelga junto a la puerta. "
)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


@dataclass
class Figures:
    name: str
    posts: int
    cpu_ms: float  # per post
    round_s: list[float]
    scenes_out_of_order: int
    rate_limited: int

    @property
    def round_median(self) -> float:
        return statistics.median(self.round_s)


def _sheet(name: str) -> bytes:
    sheet = copy.deepcopy(ARDELIA)
    sheet["name"] = name
    document = {"format": "arbitro.sheet", "version": 1, "system": "nucleo", "npc": False}
    return json.dumps({**document, "sheet": sheet}).encode()


def _table(
    sb: Sandbox, name: str, players: int, scenes: int, arbitro: bool
) -> tuple[GuildHandle, list[ChannelRef], list[tuple[str, str, ChannelRef]]]:
    """A server with one forum, its scenes, and (player, character, scene) for everyone."""
    g = sb.new_guild(name=name)
    lobby = g.forum_post("foro", "Presentaciones", user="gm")
    if arbitro:
        sb.command(
            "campaign create", {"name": name, "system": "nucleo"}, guild=g, channel=lobby, user="gm"
        ).expect_ok()
        sb.command(
            "campaign settings",
            {"setting": "escribir_como_personaje", "value": "sí"},
            guild=g,
            channel=lobby,
            user="gm",
        ).expect_ok()
    threads = [g.forum_post("foro", f"Escena {i + 1}", user="gm") for i in range(scenes)]
    cast = []
    for i in range(players):
        user = g.add_member(f"p{i:02d}").name
        character = f"Pj{i:02d}"
        if arbitro:
            sb.command(
                "sheet import", {"file": _sheet(character)}, guild=g, channel=lobby, user=user
            ).expect_ok()
        cast.append((user, character, threads[i % scenes]))
    return g, threads, cast


def _burst(
    g: GuildHandle, cast: list[tuple[str, str, ChannelRef]], label: str
) -> list[tuple[ChannelRef, str, str]]:
    return [(scene, f"{character}: {label}. {WORDS}", user) for user, character, scene in cast]


def _out_of_order(sb: Sandbox, g: GuildHandle, threads: list[ChannelRef], mark: int) -> int:
    """Scenes whose posts since ``mark`` do not follow their originals' order."""
    wrong = 0
    for thread in threads:
        messages = [m for m in sb.channel_messages(g, thread, everything=True) if m.id > mark]
        posts = [(m.author, m.content.strip()) for m in messages if m.data.get("webhook_id")]
        written = sorted((sb.message(i) for i in _originals(sb, thread, mark)), key=lambda m: m.id)
        originals = [
            (name, text.strip()) for name, _, text in (m.content.partition(": ") for m in written)
        ]
        if posts != originals:
            wrong += 1
    return wrong


def _originals(sb: Sandbox, thread: ChannelRef, mark: int) -> list[int]:
    def collect() -> list[int]:
        return [
            m.id
            for m in sb.world.messages.values()
            if m.channel_id == thread.id and m.id > mark and m.source == "user"
        ]

    return sb._run(collect)  # noqa: SLF001


def run_one(
    sb: Sandbox, name: str, module: str, env: dict[str, str], args: argparse.Namespace, log: Path
) -> Figures:
    arbitro = module == "bot.__main__"
    profile = Path(log).with_suffix(".prof") if args.profile and arbitro else None
    if profile is not None:  # benchmarks/profiled.py: the measured rounds only
        sb.start_bot(
            "benchmarks.profiled", args=(module, str(profile)), env=env, log_path=log,
            ready_timeout=120,
        )  # fmt: skip
    else:
        sb.start_bot(module, env=env, log_path=log, ready_timeout=120)
    assert sb.proc is not None
    g, threads, cast = _table(sb, f"{name} typing", args.players, args.scenes, arbitro)
    g.write_together(_burst(g, cast, "Calentamiento"))  # scenes, caches: not measured
    time.sleep(1.0)
    limited_before = len(sb.rate_limited)
    mark = sb.mark()
    pid = sb.proc.pid
    if profile is not None:
        os.kill(pid, signal.SIGUSR1)
    before = cpu_seconds(pid)
    rounds: list[float] = []
    for n in range(args.rounds):
        start = time.monotonic()
        g.write_together(_burst(g, cast, f"Ronda {n + 1}"))
        rounds.append(time.monotonic() - start)
    cpu = cpu_seconds(pid) - before
    if profile is not None:
        os.kill(pid, signal.SIGUSR2)
        time.sleep(2.0)
        stats = pstats.Stats(str(profile))
        stats.sort_stats("tottime").print_stats(30)
        stats.sort_stats("cumulative").print_stats(50)
    posts = args.players * args.rounds
    wrong = _out_of_order(sb, g, threads, mark)
    limited = len(sb.rate_limited) - limited_before
    sb.stop_bot()
    return Figures(name, posts, cpu / posts * 1000, rounds, wrong, limited)


async def _pg(url: str, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def run_sequence(sb: Sandbox, tmp: Path, args: argparse.Namespace, repeat: int) -> list[Figures]:
    quiet = {"LOG_LEVEL": "WARNING"}
    out = [
        run_one(
            sb,
            "floor",
            "benchmarks.floor_bot",
            {**quiet, "FLOOR_PROXY": "1"},
            args,
            tmp / f"floor-{repeat}.log",
        ),
        run_one(
            sb,
            "sqlite",
            "bot.__main__",
            {
                **quiet,
                "ARBITRO_MESSAGE_CONTENT": "1",
                "DATABASE_URL": f"sqlite+aiosqlite:///{tmp / f'typing-{repeat}.db'}",
            },
            args,
            tmp / f"sqlite-{repeat}.log",
        ),
    ]
    if args.postgres:
        db = f"arbitro_bench_{uuid.uuid4().hex[:8]}"
        base = args.postgres.rsplit("/", 1)[0]
        asyncio.run(_pg(f"{base}/postgres", f'CREATE DATABASE "{db}"'))
        try:
            env = {**quiet, "ARBITRO_MESSAGE_CONTENT": "1", "DATABASE_URL": f"{base}/{db}"}
            out.append(run_one(sb, "postgres", "bot.__main__", env, args, tmp / f"pg-{repeat}.log"))
        finally:
            asyncio.run(_pg(f"{base}/postgres", f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--scenes", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--postgres", default=os.environ.get("ARBITRO_TEST_POSTGRES_URL"))
    parser.add_argument(
        "--profile", action="store_true", help="cProfile Árbitro's rounds (figures inflated)"
    )
    args = parser.parse_args(argv)
    runs: list[list[Figures]] = []
    with tempfile.TemporaryDirectory() as tmp, Sandbox(timeout=180.0) as sb:
        sb.enable_intents(MESSAGE_CONTENT)
        for repeat in range(args.repeats):
            runs.append(run_sequence(sb, Path(tmp), args, repeat))
    print(
        f"{args.players} players posting by typing in {args.scenes} scenes at once, "
        f"{args.rounds} rounds, {args.repeats} repeat(s)"
    )
    print(f"{'bot':9} {'CPU/post':>9} {'×floor':>8} {'round':>7} {'429s':>5} {'out of order':>13}")
    for run in runs:
        floor = run[0]
        for figures in run:
            ratio = figures.cpu_ms / floor.cpu_ms if floor.cpu_ms else float("inf")
            print(
                f"{figures.name:9} {figures.cpu_ms:7.2f}ms {ratio:7.2f}× "
                f"{figures.round_median:6.1f}s {figures.rate_limited:5d} "
                f"{figures.scenes_out_of_order:6d}/{args.scenes}"
            )
    print("round: median wall time of a round (Discord's webhook limit sets it for both bots)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
