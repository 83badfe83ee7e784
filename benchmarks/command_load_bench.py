"""Every command players use during play, under load: Árbitro's real process against a bare bot.

Run from the repository root::

    .venv/bin/python benchmarks/command_load_bench.py [--kinds check,attack,...|all]
        [--levels 1,20,100] [--rounds 2] [--only floor|sqlite|postgres] [--postgres URL]
    .venv/bin/python benchmarks/command_load_bench.py --startup [--servers 1,1000]
    .venv/bin/python benchmarks/command_load_bench.py --kinds check --profile OUT   # cProfile

Issue 26: for every command, CPU per command at most **3×** a bare discord.py bot answering
the same kind of interaction (a slash command, a modal, a button) in the same run; at 100
members at once **no final answer past 3 s** and **p99 within 2× the floor's**, on SQLite and
PostgreSQL; start to READY within 2× the floor's time and the bot's and its worker's RSS
together within 2× the floor's, with 1 and 1,000 servers.

**Method** (``roll_load_bench.py``'s): the stand-in in a thread of this script, then, one
after another in the same run and under the same load, the floor (``benchmarks/floor_bot.py``:
``/roll`` for slash commands and context menus, ``/form`` — a modal whose submission is posted
through the channel's webhook — for modals, ``/panel``'s buttons for buttons), Árbitro on a
temporary SQLite file and Árbitro on PostgreSQL (a database of its own on the server of
``--postgres`` or ``ARBITRO_TEST_POSTGRES_URL``, dropped afterwards).

**Tables.**  Five servers of 20 members.  In *party* servers (Núcleo) the GM runs one campaign
in ``#mesa`` and every member plays a character there (Ardelia with a spell), with an open
scene and a fight everyone has joined against a dragon (an NPC of 999 PV that the whole
table attacks at once: every hit is a versioned write of the same sheet), with
``acciones_por_turno`` = ``libre`` so a whole table can act at once (with the default only the
combatant whose turn it is may).  In *solo* servers
(rolweb) every member is the GM of a campaign of their own in a channel of their own, with
their character and an orc in a fight: the commands only a GM gives (``/init next``,
``/xp grant``) and the buttons a GM's act puts in front of a player (the defence) are then
20 and 100 independent ones, as on 100 tables.

**Levels**: **1** — 20 commands one after another, each sent when the previous one was
answered; **20** — one server's 20 members at the same instant; **100** — the five servers'
100 at the same instant (one step of the stand-in's loop queues them).  Each level runs
``--rounds`` rounds.  What a round needs first (a fresh request, the form a modal answers, an
attack to defend from, a post to edit or delete) is prepared before it and not measured.

**What is measured.**  Bot CPU: the process's user + system time from ``/proc``, from just
before a round's first interaction to 1.5 s after its last answer (so the work an answer
leaves behind — message links, coalesced edits, a scene header — is counted), per command.
Latency: from the interaction being sent to the **final** answer the member sees (the last
reply, follow-up or edit the bot makes with the interaction's token, once the bot reports
that it has finished with it); a deferral alone is not an answer.  A command whose final
answer comes after 3 s, or never (Discord's 10062), counts as past 3 s.

``--startup``: the time from starting the process to its first answered ``/roll`` (READY:
the bot has received its servers and answers) and to its IDENTIFY, and the resident memory
of the bot and every process it started (the worker), with 1 and 1,000 servers in the
stand-in (servers without a campaign: the default configuration, nothing optional used).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import pstats
import signal
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.roll_load_bench import _pg, cpu_seconds, print_by_package  # noqa: E402
from rules import systems  # noqa: E402
from standin.client import Sandbox  # noqa: E402
from standin.guilds import GuildHandle  # noqa: E402
from standin.interactions import (  # noqa: E402
    InteractionRecord,
    build_command,
    build_context_menu,
    modal_submission,
)
from standin.replies import Msg, Reply, reply_from  # noqa: E402
from tests.e2e.helpers import sheet_file  # noqa: E402
from tests.examples import ardelia, ardelia_the_mage  # noqa: E402
from tests.rules.rolweb.test_fight import orc as rolweb_orc  # noqa: E402

DEADLINE_S = 3.0
SERVERS, PER_SERVER = 5, 20
OPTION = "habilidad:Pilotar"
#: After a round: the work its answers leave behind (coalesced edits: about one a second).
SETTLE_S = 1.5
#: The members' cooldown window: 6 uses of a command per 10 s.
COOLDOWN_USES, COOLDOWN_S = 6, 10.5
MANAGE_CHANNELS = 1 << 4
#: Messages per webhook, and per channel, per second while measuring.  Discord allows 5 per 2 s
#: per webhook and 30 a minute per channel: twenty posts at once in one scene wait up to 8 s in
#: its queue whatever the bot (``typing_bench.py`` measures that pacing); lifted here so the
#: figures are the bot's cost (``--discord-webhook-limit`` keeps Discord's).
WEBHOOK_LIMIT = (10_000, 1.0)
ROLL = "arb:1:req-roll:"
DEFEND = "arb:1:defend:"

#: A prepared interaction: a call that queues it on the stand-in's loop and returns its record.
Send = Callable[[], InteractionRecord | str]


@dataclass(frozen=True)
class Kind:
    """One command of the table: what kind of interaction it is (the floor answering the same
    kind), which tables it runs on, and how a round's interactions are prepared."""

    name: str
    floor: str  # "slash" | "modal" | "button"
    layout: str  # "party" | "solo"
    label: str


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("check", "slash", "party", "/check"),
        Kind("attack", "slash", "party", "/attack"),
        Kind("init_next", "slash", "solo", "/init next"),
        Kind("sheet_show", "slash", "party", "/sheet show"),
        Kind("post", "modal", "party", "/post (modal → webhook)"),
        Kind("press", "button", "party", "request «Tirar»"),
        Kind("scene_status", "slash", "party", "/scene status"),
        Kind("spell", "slash", "party", "/spell cast"),
        Kind("effect", "slash", "party", "/effect add"),
        Kind("ability", "slash", "solo", "/ability use"),
        Kind("init_show", "slash", "party", "/init show"),
        Kind("history", "slash", "party", "/history"),
        Kind("xp_grant", "slash", "solo", "/xp grant"),
        Kind("defence", "button", "solo", "defence button"),
        Kind("post_edit", "modal", "party", "edit post (modal)"),
        Kind("post_delete", "slash", "party", "delete post (menu)"),
    )
}
FLOOR_KINDS = {"slash": "roll", "modal": "form", "button": "panel"}


@dataclass
class Level:
    """One bot, one command, one level: CPU per command and each command's latency."""

    bot: str
    kind: str
    level: int
    cpu_s: float = 0.0
    latencies: list[float] = field(default_factory=list)

    @property
    def cpu_ms(self) -> float:
        return self.cpu_s / max(len(self.latencies), 1) * 1000

    def pct(self, q: float) -> float:
        values = sorted(self.latencies)
        return values[min(len(values) - 1, int(q * len(values)))] if values else math.inf

    @property
    def missed(self) -> int:
        return sum(1 for v in self.latencies if v > DEADLINE_S)


def _final(record: InteractionRecord) -> float | None:
    """When the member saw the final answer (monotonic), or None while they wait."""
    if not record.finished.is_set():
        return None
    return record.last_answer_at


def wait_final(sb: Sandbox, records: list[InteractionRecord], timeout: float = 60.0) -> list[float]:
    """Seconds from sending to the final answer, per record (inf: never, or 10062).

    The bot reports when it has finished all its interaction work (``standin.launch``); until
    then a later follow-up or edit may still come, so the final answer is read after it."""

    async def every() -> list[float]:
        limit = time.monotonic() + timeout
        out: dict[int, float] = {}
        while len(out) < len(records) and time.monotonic() < limit:
            for i, record in enumerate(records):
                if i in out:
                    continue
                if any(r.get("code") == 10062 for r in record.rejections):
                    out[i] = math.inf
                elif (at := _final(record)) is not None:
                    out[i] = at - record.created
                elif record.finished.is_set() and record.callback_type is not None:
                    out[i] = math.inf  # finished without an answer (a bare deferral)
            await asyncio.sleep(0.005)
        return [out.get(i, math.inf) for i in range(len(records))]

    return sb.standin.call(every(), timeout=timeout + 5)


class World:
    """Queues interactions straight to the stand-in's gateway, as a member's client would."""

    def __init__(self, sb: Sandbox) -> None:
        self.sb = sb

    def slash(self, g: GuildHandle, user: str, path: str, options: dict[str, Any], channel: Any = "mesa") -> Send:  # fmt: skip
        sb = self.sb

        def send() -> InteractionRecord | str:
            guild = sb.world.guilds[g.id]
            ch, member = sb._channel(guild, channel), sb._who(guild, user)  # noqa: SLF001
            data = build_command(sb.world, guild, ch, member, path, options)
            return sb.server.inject(
                type=2, data=data, guild=guild, channel=ch, member=member, locale="es-ES"
            )

        return send

    def menu(self, g: GuildHandle, user: str, name: str, target: Msg) -> Send:
        sb = self.sb

        def send() -> InteractionRecord | str:
            guild = sb.world.guilds[g.id]
            member = sb._who(guild, user)  # noqa: SLF001
            ch = sb.world.channels[sb.world.messages[target.id].channel_id]
            data = build_context_menu(sb.world, guild, ch, member, name, target)
            return sb.server.inject(
                type=2, data=data, guild=guild, channel=ch, member=member, locale="es-ES"
            )

        return send

    def button(self, g: GuildHandle, user: str, message_id: int, custom_id: str) -> Send:
        sb = self.sb

        def send() -> InteractionRecord | str:
            guild = sb.world.guilds[g.id]
            msg = sb.world.messages[message_id]
            ch, member = sb.world.channels[msg.channel_id], sb._who(guild, user)  # noqa: SLF001
            data = {"custom_id": custom_id, "component_type": 2}
            return sb.server.inject(
                type=3, data=data, guild=guild, channel=ch, member=member, locale="es-ES",
                message_id=message_id,
            )  # fmt: skip

        return send

    def modal(self, g: GuildHandle, user: str, opened: Reply, values: dict[str, str]) -> Send:
        sb = self.sb
        assert opened.modal is not None, opened.all_text
        modal = opened.modal

        def send() -> InteractionRecord | str:
            guild = sb.world.guilds[g.id]
            assert opened.channel_id is not None
            ch, member = sb.world.channels[opened.channel_id], sb._who(guild, user)  # noqa: SLF001
            data = {"custom_id": modal["custom_id"], "components": modal_submission(modal, values)}
            return sb.server.inject(
                type=5, data=data, guild=guild, channel=ch, member=member, locale="es-ES",
                message_id=modal.get("_source_message_id"),
            )  # fmt: skip

        return send


def _buttons(sb: Sandbox, message: Msg | int, prefix: str) -> list[dict[str, Any]]:
    mid = message if isinstance(message, int) else message.id
    return [b for b in sb.message(mid).buttons if b.get("custom_id", "").startswith(prefix)]


def _ok(reply: Reply, what: str) -> Reply:
    """A setup step's reply; a refusal (an error, or a private answer when ``public``) stops
    the benchmark with what was said."""
    if not reply.ok or reply.rejections:
        raise AssertionError(f"{what} refused: {reply.error or reply.rejections}")
    return reply


class Tables:
    """The servers of one bot: built the first time a level needs them (not measured)."""

    def __init__(self, sb: Sandbox, bot: str) -> None:
        self.sb, self.bot, self.world = sb, bot, World(sb)
        self.arbitro = bot != "floor"
        self.profile = False  # benchmarks/profiled.py runs the bot: signal its rounds
        self._servers: dict[str, list[tuple[GuildHandle, list[str]]]] = {}
        self.ready: set[tuple[str, int]] = set()  # (what, server) already set up
        self.posts: dict[tuple[int, str], Msg] = {}  # (guild, member) -> their post to edit
        self.scenes: dict[int, Any] = {}

    def cmd(self, g: GuildHandle, user: str, path: str, options: dict[str, Any] | None = None, channel: Any = "mesa") -> Reply:  # fmt: skip
        for _ in range(30):  # a member's cooldown: wait for the window, never skip the step
            reply = self.sb.command(path, options or {}, guild=g, channel=channel, user=user)
            if not (reply.ephemeral and "vuelve a intentarlo" in reply.all_text.lower()):
                return reply
            time.sleep(1.0)
        return reply

    def server(self, layout: str, s: int) -> tuple[GuildHandle, list[str]]:
        servers = self._servers.setdefault(layout, [])
        while len(servers) <= s:
            n, sb = len(servers), self.sb
            g = sb.new_guild(name=f"{self.bot} {layout} {n}")
            if layout == "solo":
                g.add_role("dj", permissions=MANAGE_CHANNELS)
            roles = ("dj",) if layout == "solo" else ()
            members = [g.add_member(f"{layout[0]}{n}x{m}", roles=roles).name for m in range(PER_SERVER)]  # fmt: skip
            if self.arbitro:
                (self._party if layout == "party" else self._solo)(g, n, members)
            elif layout == "solo":
                for m in range(PER_SERVER):
                    g.add_channel(f"t{m}")
            servers.append((g, members))
        return servers[s]

    # -- Árbitro's tables --------------------------------------------------------------------
    def _party(self, g: GuildHandle, n: int, members: list[str]) -> None:
        _ok(self.cmd(g, "gm", "campaign create", {"name": f"Campaña {n}", "system": "nucleo"}), "campaign")  # fmt: skip
        self.cmd(g, "gm", "campaign settings", {"setting": "acciones_por_turno", "value": "libre"})
        for m, member in enumerate(members):
            sheet = ardelia_the_mage()
            sheet["name"] = f"Pj{n}x{m}"
            _ok(self.cmd(g, member, "sheet import", {"file": sheet_file(sheet)}), "sheet import")

    def party_fight(self, s: int) -> None:
        if ("fight", s) in self.ready or not self.arbitro:
            return
        g, members = self.server("party", s)
        dragon = ardelia(name="Dragón", pnj=True, pv_maximo=999)
        _ok(self.cmd(g, "gm", "sheet import", {"file": sheet_file(dragon, npc=True)}), "dragon")
        _ok(self.cmd(g, "gm", "npc reveal", {"name": "Dragón"}), "reveal")
        _ok(self.cmd(g, "gm", "init start"), "init start")
        for member in members:
            _ok(self.cmd(g, member, "init join"), "init join")
        self.ready.add(("fight", s))

    def party_scene(self, s: int) -> Any:
        g, _ = self.server("party", s)
        if s in self.scenes:
            return self.scenes[s]
        if not self.arbitro:
            self.scenes[s] = "mesa"
            return "mesa"
        form = self.cmd(g, "gm", "scene open", {"title": "La bodega"})
        assert form.modal is not None, form.all_text
        _ok(self.sb.submit_modal(form, {"text": "Bajáis a la bodega."}, user="gm"), "scene open")
        (scene,) = [t for t in self.sb.threads(g, "mesa") if t.name == "La bodega"]
        self.scenes[s] = scene
        return scene

    def _solo(self, g: GuildHandle, n: int, members: list[str]) -> None:
        rolweb = systems.get("rolweb")
        for m, member in enumerate(members):
            where = g.add_channel(f"t{m}")
            _ok(self.cmd(g, member, "campaign create", {"name": f"Solo {n}x{m}", "system": "rolweb"}, where), "campaign")  # fmt: skip
            pc = rolweb.new_sheet(f"Eira{n}x{m}", {})
            pc["habilidades"] = {"Medicus": "adepto"}
            _ok(self.cmd(g, member, "sheet import", {"file": sheet_file(pc)}, where), "pc")
            orc = rolweb_orc()
            orc["resistencia"] = {"actual": 60, "maxima": 60}
            _ok(self.cmd(g, member, "sheet import", {"file": sheet_file(orc, npc=True)}, where), "npc")  # fmt: skip
            self.cmd(g, member, "campaign settings", {"setting": "acciones_por_turno", "value": "libre"}, where)  # fmt: skip
            _ok(self.cmd(g, member, "init start", {}, where), "init start")
            _ok(self.cmd(g, member, "init join", {}, where), "init join")
            _ok(self.cmd(g, member, "init add", {"name": "Orco", "initiative": 3}, where), "init add")  # fmt: skip
            _ok(self.cmd(g, member, "init move", {"combatant": f"Eira{n}x{m}", "initiative": 15}, where), "init move")  # fmt: skip

    # -- a round ---------------------------------------------------------------------------
    def sends(self, kind: Kind, level: int) -> list[Send]:
        servers = range(SERVERS) if level == 100 else [0]
        out: list[Send] = []
        for s in servers:
            out += self._round(kind, s)
        return out[:PER_SERVER] if level == 1 else out

    def _round(self, kind: Kind, s: int) -> list[Send]:
        if not self.arbitro:
            return self._floor_round(kind, s)
        w, name = self.world, kind.name
        g, members = self.server(kind.layout, s)
        n = s
        if name in ("attack", "init_show", "effect"):
            self.party_fight(s)
        if name == "check":
            return [w.slash(g, m, "check", {"option": OPTION}) for m in members]
        if name == "sheet_show":
            return [w.slash(g, m, "sheet show", {}) for m in members]
        if name == "history":
            return [w.slash(g, m, "history", {}) for m in members]
        if name == "init_show":
            return [w.slash(g, m, "init show", {}) for m in members]
        if name == "attack":  # the whole table at the server's dragon
            return [w.slash(g, m, "attack", {"target": "Dragón", "modifier": 10}) for m in members]
        if name == "effect":
            return [
                w.slash(
                    g, m, "effect add", {"target": f"Pj{n}x{i}", "name": "Aturdido", "rounds": 1}
                )
                for i, m in enumerate(members)
            ]
        if name == "spell":
            return [w.slash(g, m, "spell cast", {"name": "Proyectil mágico"}) for m in members]
        if name == "scene_status":
            scene = self.party_scene(s)
            return [w.slash(g, m, "scene status", {}, scene) for m in members]
        if name == "post":
            scene = self.party_scene(s)
            forms = [(m, self.cmd(g, m, "post", {}, scene)) for m in members]
            return [w.modal(g, m, f, {"text": f"{m} avanza."}) for m, f in forms]
        if name == "post_edit":
            scene = self.party_scene(s)
            sends = []
            for m in members:
                post = self._post_of(g, m, scene)
                form = self.sb.context_menu("Editar publicación", post, guild=g, user=m)
                sends.append(w.modal(g, m, form, {"text": f"{m} avanza, mejor."}))
            return sends
        if name == "post_delete":
            scene = self.party_scene(s)
            return [
                w.menu(g, m, "Borrar publicación", self._new_post(g, m, scene)) for m in members
            ]
        if name == "press":
            return self._request(g, members)
        if name == "init_next":
            return [w.slash(g, m, "init next", {}, f"t{i}") for i, m in enumerate(members)]
        if name == "xp_grant":
            return [
                w.slash(g, m, "xp grant", {"amount": 1, "character": f"Eira{n}x{i}"}, f"t{i}")
                for i, m in enumerate(members)
            ]
        if name == "ability":
            return [
                w.slash(g, m, "ability use", {"name": "Medicus", "target": f"Eira{n}x{i}"}, f"t{i}")
                for i, m in enumerate(members)
            ]
        if name == "defence":
            sends = []
            for i, m in enumerate(members):
                blow = {"target": f"Eira{n}x{i}", "character": "Orco", "damage": "1"}
                asked = self.cmd(g, m, "attack", blow, f"t{i}")
                found = [
                    (msg.id, b) for msg in asked.messages for b in _buttons(self.sb, msg, DEFEND)
                ]
                assert len(found) == 1, asked.all_text
                mid, button = found[0]
                sends.append(w.button(g, m, mid, button["custom_id"]))
            return sends
        raise ValueError(name)

    def _new_post(self, g: GuildHandle, m: str, scene: Any) -> Msg:
        form = self.cmd(g, m, "post", {}, scene)
        mark = self.sb.mark()
        _ok(self.sb.submit_modal(form, {"text": f"{m} dice algo."}, user=m), "post")
        return next(msg for _, msg in self.sb.posted_since(mark) if msg.data.get("webhook_id"))

    def _post_of(self, g: GuildHandle, m: str, scene: Any) -> Msg:
        key = (g.id, m)
        if key not in self.posts:
            self.posts[key] = self._new_post(g, m, scene)
        return self.posts[key]

    def _request(self, g: GuildHandle, members: list[str]) -> list[Send]:
        who = " ".join(f"<@{g.member(m).id}>" for m in members)
        reply = self.cmd(g, "gm", "request check", {"who": who, "option": OPTION})
        _ok(reply, "request")
        ids = [b["custom_id"] for b in _buttons(self.sb, reply.message, ROLL)]
        assert len(ids) == PER_SERVER, ids
        return [self.world.button(g, m, reply.message.id, ids[i]) for i, m in enumerate(members)]

    # -- the floor -------------------------------------------------------------------------
    def _floor_round(self, kind: Kind, s: int) -> list[Send]:
        w = self.world
        g, members = self.server("party", s)
        if kind.name == "roll":
            return [w.slash(g, m, "roll", {"expression": "1d20+5"}) for m in members]
        if kind.name == "form":
            forms = [(m, self.cmd(g, m, "form", {})) for m in members]
            return [w.modal(g, m, f, {"text": f"{m} avanza."}) for m, f in forms]
        reply = self.cmd(g, "gm", "panel", {})
        ids = [b["custom_id"] for b in _buttons(self.sb, reply.message, "floor:")]
        return [w.button(g, m, reply.message.id, ids[i]) for i, m in enumerate(members)]


def run_level(sb: Sandbox, tables: Tables, kind: Kind, level: int, rounds: int, show: bool = False) -> Level:  # fmt: skip
    figures = Level(tables.bot, kind.name, level)
    seen: list[InteractionRecord] = []
    pid = sb.proc.pid
    for _ in range(rounds):
        sends = tables.sends(kind, level)
        time.sleep(0.5)  # what preparing left behind (message links) is not the command's
        before = cpu_seconds(pid)
        if tables.profile:
            os.kill(pid, signal.SIGUSR1)  # benchmarks/profiled.py: the rounds only
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            if level == 1:
                for send in sends:
                    record = sb._run(send)  # noqa: SLF001
                    assert not isinstance(record, str), record
                    figures.latencies += wait_final(sb, [record])
                    seen.append(record)
            else:
                records = sb._run(lambda b=sends: [send() for send in b])  # noqa: SLF001
                bad = [r for r in records if isinstance(r, str)]
                assert not bad, bad
                figures.latencies += wait_final(sb, records)
                seen += records
        finally:
            gc.enable()
            gc.unfreeze()
        time.sleep(SETTLE_S)
        figures.cpu_s += cpu_seconds(pid) - before
        if tables.profile:
            os.kill(pid, signal.SIGUSR2)  # pauses the profile and writes it so far
    if show and seen:  # what the member read: a refusal would measure something else
        text = sb._run(lambda: reply_from(sb.world, seen[-1]).all_text)  # noqa: SLF001
        print(f"    {kind.name} answered: {text[:300]!r}")
        late = [r for r in seen if r.last_answer_at is None or not r.finished.is_set()]
        if late:
            r = late[0]
            print(
                f"    {len(late)} without a final answer; the first: callback {r.callback_type}, "
                f"answered {r.answered_at and r.answered_at - r.created}, finished "
                f"{r.finished.is_set()}, rejections {r.rejections[:2]}"
            )
    return figures


def run_bot(sb: Sandbox, bot: str, module: str, env: dict[str, str], log: Path, args: argparse.Namespace) -> list[Level]:  # fmt: skip
    extra: tuple[str, ...] = ()
    if args.profile:
        extra = (module, str(Path(args.profile) / f"{bot}.prof"))
        module = "benchmarks.profiled"
    sb.start_bot(module, args=extra, env=env, log_path=log, ready_timeout=120)
    try:
        tables = Tables(sb, bot)
        tables.profile = bool(args.profile)
        if bot == "floor":
            floors = sorted({k.floor for k in args.kinds})
            wanted = [Kind(FLOOR_KINDS[f], f, "party", f"floor {f}") for f in floors]
        else:
            wanted = args.kinds
        out = []
        for kind in wanted:
            used = 0
            for level in args.levels:
                if used + args.rounds > COOLDOWN_USES - 1:  # the prepare step may use one more
                    time.sleep(COOLDOWN_S)
                    used = 0
                started = time.monotonic()
                out.append(run_level(sb, tables, kind, level, args.rounds, args.show))
                used += args.rounds
                r = out[-1]
                print(
                    f"  {bot:8} {kind.name:12} {level:3d}: {r.cpu_ms:7.2f} ms/cmd, p99 "
                    f"{r.pct(0.99) * 1000:6.0f} ms, {r.missed} past 3 s "
                    f"({time.monotonic() - started:.0f} s)",
                    flush=True,
                )
            time.sleep(1.0)
        if args.profile:
            time.sleep(2.0)  # the statistics are written
            print_profile(Path(args.profile) / f"{bot}.prof", sum(len(r.latencies) for r in out))
        return out
    finally:
        sb.stop_bot()


#: Functions whose calls count what a command costs besides Python: SQL statements sent
#: (SQLAlchemy's execution, whatever the driver), sessions opened, Discord requests.
COUNTED = {
    "_execute_context": "SQL statements",
    "begin": "transactions (Session.begin)",
    "__aenter__": "async context entries",
    "request": "Discord HTTP requests (discord.http)",
}


def print_profile(path: Path, commands: int) -> None:
    """What one command costs, from cProfile over the measured rounds: own time by package,
    the functions of the project and of SQLAlchemy that cost most, and counts per command."""
    stats = pstats.Stats(str(path))
    print_by_package(stats)
    rows = stats.stats  # type: ignore[attr-defined]
    print(f"per command ({commands} commands):")
    for (filename, _line, name), row in sorted(rows.items(), key=lambda kv: -kv[1][3])[:45]:
        where = filename.rsplit("/", 2)
        short = "/".join(where[-2:]) if len(where) > 1 else filename
        print(f"  {row[3] / commands * 1e6:8.0f} µs cum {row[2] / commands * 1e6:7.0f} µs own {row[1] / commands:6.1f} calls  {short}:{name}")  # fmt: skip
    for (filename, _line, name), row in rows.items():
        if name == "_execute_context" and "sqlalchemy/engine/base.py" in filename:
            print(f"  SQL statements per command: {row[1] / commands:.1f}")
        if name == "request" and filename.endswith("discord/http.py"):
            print(f"  Discord requests per command: {row[1] / commands:.1f}")
        if name == "__call__" and filename.endswith("sqlalchemy/ext/asyncio/session.py"):
            print(f"  sessions made per command: {row[1] / commands:.1f}")


# -- start-up: READY and memory -----------------------------------------------------------


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and every process under it (the worker), in MB."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))

    def tree(p: int) -> Iterator[int]:
        yield p
        for c in children.get(p, []):
            yield from tree(c)

    total = 0
    for p in tree(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def startup(sb: Sandbox, bot: str, module: str, env: dict[str, str], log: Path) -> tuple[float, float, float]:  # fmt: skip
    """(seconds to IDENTIFY, seconds to the first answered /roll, RSS MB) of a cold start."""
    g = next(iter(sb.world.guilds.values()))
    handle = GuildHandle(sb, g.id, g.name)
    started = time.monotonic()
    sb.start_bot(module, env=env, log_path=log, ready_timeout=300)
    identified = time.monotonic() - started
    try:
        while True:
            reply = sb.command("roll", {"expression": "1d20"}, guild=handle, user="ana")
            if reply.ok and reply.message is not None:
                break
            time.sleep(0.05)
        ready = time.monotonic() - started
        time.sleep(3.0)  # what start-up does after READY (the worker's spawn) counts too
        return identified, ready, rss_mb(sb.proc.pid)
    finally:
        sb.stop_bot()


def run_startup(args: argparse.Namespace, bots: list[tuple[str, str, dict[str, str]]]) -> None:
    print(
        f"{'servers':>7} {'bot':9} {'IDENTIFY':>9} {'READY':>8} {'× floor':>8} {'RSS':>8} {'× floor':>8}"
    )
    for count in args.servers:
        with tempfile.TemporaryDirectory() as tmp, Sandbox(timeout=120, deadline=DEADLINE_S) as sb:
            for n in range(count):
                sb.new_guild(name=f"Servidor {n}")
            floor: tuple[float, float, float] | None = None
            for bot, module, env in bots:
                env = {**env}
                if "DATABASE_URL" in env and "sqlite" in env["DATABASE_URL"]:
                    env["DATABASE_URL"] = f"sqlite+aiosqlite:///{Path(tmp) / f'{bot}-{count}.db'}"
                got = startup(sb, bot, module, env, Path(tmp) / f"{bot}.log")
                floor = floor or got
                print(
                    f"{count:7d} {bot:9} {got[0]:8.2f}s {got[1]:7.2f}s {got[1] / floor[1]:7.1f}× "
                    f"{got[2]:6.0f}MB {got[2] / floor[2]:7.1f}×",
                    flush=True,
                )


def print_table(results: dict[str, list[Level]], kinds: list[Kind]) -> None:
    floors = {(r.kind, r.level): r for r in results.get("floor", [])}
    print(
        f"{'command':28} {'bot':8} {'at once':>7} {'n':>4} {'CPU/cmd':>9} {'× floor':>8} "
        f"{'p50':>7} {'p99':>7} {'× floor':>8} {'max':>7} {'> 3 s':>6}"
    )
    rows = [(k, r) for k in kinds for bot, levels in results.items() if bot != "floor" for r in levels if r.kind == k.name]  # fmt: skip
    floor_rows = [(Kind(r.kind, "", "", f"floor ({r.kind})"), r) for r in results.get("floor", [])]
    for kind, r in floor_rows + rows:
        floor = floors.get((FLOOR_KINDS.get(kind.floor, ""), r.level)) if kind.floor else None
        cpu_x = f"{r.cpu_ms / floor.cpu_ms:.1f}×" if floor else "-"
        p99_x = f"{r.pct(0.99) / floor.pct(0.99):.2f}×" if floor else "-"
        worst = max(r.latencies) if r.latencies else math.nan
        shown = "never" if math.isinf(worst) else f"{worst * 1000:5.0f}ms"
        print(
            f"{kind.label:28} {r.bot:8} {r.level:7d} {len(r.latencies):4d} {r.cpu_ms:7.2f}ms "
            f"{cpu_x:>8} {r.pct(0.5) * 1000:5.0f}ms {r.pct(0.99) * 1000:5.0f}ms {p99_x:>8} "
            f"{shown:>7} {r.missed:6d}"
        )
    print("targets (issue 26): CPU/cmd ≤ 3× floor, p99 ≤ 2× floor, none past 3 s (at 100)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default="all", help=f"all, or some of: {', '.join(KINDS)}")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--levels", default="1,20,100")
    parser.add_argument("--postgres", default=os.environ.get("ARBITRO_TEST_POSTGRES_URL"))
    parser.add_argument("--only", choices=("floor", "sqlite", "postgres"), action="append")
    parser.add_argument(
        "--discord-webhook-limit", action="store_true",
        help="keep Discord's 5 messages per webhook per 2 s (lifted by default: it paces both bots alike)",
    )  # fmt: skip
    parser.add_argument("--profile", metavar="DIR", help="cProfile Árbitro's rounds into DIR")
    parser.add_argument("--show", action="store_true", help="print one answer per level")
    parser.add_argument("--startup", action="store_true", help="start-to-READY and RSS instead")
    parser.add_argument("--servers", default="1,1000", help="--startup: servers in the stand-in")
    args = parser.parse_args()
    names = list(KINDS) if args.kinds == "all" else args.kinds.split(",")
    if unknown := [k for k in names if k not in KINDS]:
        parser.error(f"unknown kinds {unknown}; known: {', '.join(KINDS)}")
    args.kinds = [KINDS[k] for k in names]
    args.levels = [int(n) for n in args.levels.split(",")]
    if any(n not in (1, 20, 100) for n in args.levels):
        parser.error("--levels takes 1, 20 and 100")
    args.servers = [int(n) for n in args.servers.split(",")]
    only = set(args.only or ("floor", "sqlite", "postgres"))
    common = {"LOG_LEVEL": "WARNING"}
    start_load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        bots: list[tuple[str, str, dict[str, str]]] = []
        if "floor" in only:
            bots.append(("floor", "benchmarks.floor_bot", common))
        if "sqlite" in only:
            bots.append(("sqlite", "bot.__main__", {**common, "DATABASE_URL": f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"}))  # fmt: skip
        db = f"arbitro_bench_{uuid.uuid4().hex[:8]}"
        base = args.postgres.rsplit("/", 1)[0] if args.postgres else None
        if "postgres" in only and base:
            asyncio.run(_pg(f"{base}/postgres", f'CREATE DATABASE "{db}"'))
            bots.append(("postgres", "bot.__main__", {**common, "DATABASE_URL": f"{base}/{db}"}))
        try:
            if args.startup:
                run_startup(args, bots)
                return 0
            results: dict[str, list[Level]] = {}
            with Sandbox(timeout=60, deadline=DEADLINE_S) as sb:
                if not args.discord_webhook_limit:  # and the channel's 30 a minute
                    sb.set_webhook_limit(WEBHOOK_LIMIT)
                    sb._run(lambda: setattr(sb.world, "channel_webhook_limit", WEBHOOK_LIMIT))  # noqa: SLF001
                for bot, module, env in bots:
                    results[bot] = run_bot(sb, bot, module, env, Path(tmp) / f"{bot}.log", args)
        finally:
            if "postgres" in only and base:
                asyncio.run(_pg(f"{base}/postgres", f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
    end = os.getloadavg()
    print(
        f"\n{args.rounds} round(s) per level; load average {start_load[0]:.1f} at the start, "
        f"{end[0]:.1f} at the end (1 min); {os.cpu_count()} cores"
    )
    print_table(results, args.kinds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
