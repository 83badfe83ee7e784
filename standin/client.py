"""The driver: a synchronous API over the stand-in and a real bot process.

Tests and the REPL use the same calls. ``Sandbox`` owns the stand-in (on a background thread) and
the bot subprocess; ``command``/``click``/``select``/``submit_modal``/``autocomplete`` act as a
Discord user would and return a ``Reply`` once the bot has answered and gone quiet.
"""

from __future__ import annotations

import asyncio
import atexit
import copy
import os
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from .forkserver import ForkedProcess, ForkServer
from .guilds import ChannelRef, GuildHandle, MemberRef, build_sample_guild, cref
from .interactions import (
    CommandRefused,
    InteractionRecord,
    build_command,
    build_context_menu,
    modal_submission,
)
from .launch import FAKE_TOKEN
from .replies import Msg, Reply, msg_from, reply_from
from .server import Answer, StandInThread
from .state import Channel, Guild, Member, World

__all__ = ["ChannelRef", "GuildHandle", "MemberRef", "Sandbox"]

REPO = Path(__file__).resolve().parents[1]
T = TypeVar("T")
#: Whether a component (as the bot sent it) on a message is the one to use
Predicate = Callable[[dict[str, Any], Msg], bool]


_fork_server: ForkServer | None = None
_forked_modules: frozenset[str] = frozenset()


def use_fork_server(modules: Sequence[str] = ("bot.__main__",)) -> None:
    """Start this process's bots of ``modules`` (run from the repository) by forking a server
    that has already imported Árbitro and discord.py (:mod:`standin.forkserver`): about 1.5 s
    of CPU less per Árbitro, for a test run that starts dozens.  The pytest run turns it on;
    ``()`` turns it off."""
    global _forked_modules
    _forked_modules = frozenset(modules)


def _forked(module: str, cwd: Path) -> ForkServer | None:
    global _fork_server
    if module not in _forked_modules or cwd.resolve() != REPO:
        return None
    if _fork_server is None:
        _fork_server = ForkServer()
        atexit.register(_fork_server.close)
    return _fork_server


class Sandbox:
    """A stand-in plus (optionally) one bot process. Synchronous and thread-safe."""

    def __init__(
        self,
        *,
        timeout: float = 10.0,
        quiet: float = 0.1,
        deadline: float = 3.0,
        world: World | None = None,
    ) -> None:
        self.timeout, self.quiet = timeout, quiet
        self.standin = StandInThread(world, deadline=deadline)
        self.server = self.standin.server
        self.world = self.server.world
        self.proc: subprocess.Popen[bytes] | ForkedProcess | None = None
        self.log_path: Path | None = None
        self._log_file: Any = None
        self._shards: list[subprocess.Popen[bytes]] = []  # processes of start_shard

    @property
    def url(self) -> str:
        return self.server.url

    def _run(self, fn: Callable[[], T]) -> T:
        return self.standin.run(fn)

    # -- the bot process ------------------------------------------------------------------
    def start_bot(
        self,
        module: str = "bot.__main__",
        *,
        args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        log_path: str | Path | None = None,
        ready_timeout: float = 45.0,
        cwd: str | Path = REPO,
    ) -> None:
        """Starts ``python -m standin.launch --module MODULE`` and waits for its IDENTIFY."""
        self._run(self.server.gateway.identified.clear)
        inherited = {
            k: v for k, v in os.environ.items() if k not in ("DEV_GUILD_ID", "DATABASE_URL")
        }
        full_env = {
            **inherited,
            "DISCORD_TOKEN": FAKE_TOKEN,
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        full_env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(cwd), full_env.get("PYTHONPATH")])
        )
        self.log_path = Path(log_path) if log_path else Path(cwd) / "var" / "sandbox-bot.log"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        argv = ["--api", self.url, "--module", module, "--", *args]
        full_env["ARBITRO_SANDBOX_PARENT"] = str(os.getpid())
        if (server := _forked(module, Path(cwd))) is not None:
            self.proc = server.start(argv, full_env, Path(cwd), self.log_path)
        else:
            self._log_file = open(self.log_path, "ab")  # noqa: SIM115 - lives as long as the process
            # Its own session: Ctrl-C at the sandbox prompt must not reach the bot.
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "standin.launch", *argv],
                env=full_env,
                cwd=cwd,
                stdout=self._log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + ready_timeout
        while not self.server.gateway.identified.is_set():
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"the bot exited with {self.proc.returncode}:\n{self.bot_log(60)}"
                )
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the bot did not connect within {ready_timeout} s:\n{self.bot_log(60)}"
                )
            time.sleep(0.05)

    def start_shard(
        self,
        shard_id: int,
        shard_count: int,
        *,
        env: dict[str, str],
        log_path: str | Path,
        module: str = "bot.__main__",
        ready_timeout: float = 60.0,
    ) -> subprocess.Popen[bytes]:
        """Starts one more bot process serving shard ``shard_id`` of ``shard_count``
        (``SHARD_COUNT``/``SHARD_IDS``) and waits for that shard's IDENTIFY. The caller owns
        the returned process (kill, wait); :meth:`close` stops it too."""
        key = (shard_id, shard_count)
        before = self._run(lambda: self.server.gateway.identifies.get(key, 0))
        inherited = {
            k: v for k, v in os.environ.items() if k not in ("DEV_GUILD_ID", "DATABASE_URL")
        }
        full_env = {
            **inherited,
            "DISCORD_TOKEN": FAKE_TOKEN,
            "PYTHONUNBUFFERED": "1",
            **env,
            "SHARD_COUNT": str(shard_count),
            "SHARD_IDS": str(shard_id),
            "ARBITRO_SANDBOX_PARENT": str(os.getpid()),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        }
        log = open(log_path, "ab")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            [sys.executable, "-m", "standin.launch", "--api", self.url, "--module", module],
            env=full_env,
            cwd=REPO,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()  # the child holds its own descriptor
        self._shards.append(proc)
        deadline = time.monotonic() + ready_timeout
        while self._run(lambda: self.server.gateway.identifies.get(key, 0)) <= before:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                text = Path(log_path).read_text(errors="replace").splitlines()[-40:]
                raise RuntimeError(f"shard {key} did not connect:\n" + "\n".join(text))
            time.sleep(0.05)
        return proc

    def stop_bot(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def close(self) -> None:
        for proc in self._shards:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        self.stop_bot()
        self.standin.close()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def bot_log(self, tail: int | None = None) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        lines = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(lines[-tail:] if tail else lines)

    # -- world ----------------------------------------------------------------------------
    def new_guild(
        self,
        name: str = "Mesa",
        *,
        ids: dict[str, int] | None = None,
        shard: tuple[int, int] | None = None,
        boost: int = 0,
    ) -> GuildHandle:
        """A fresh sample guild, announced to the bot with GUILD_CREATE.

        ``shard=(id, count)`` picks a guild id that Discord routes to that shard; ``boost``
        is its boost level (0–3), which sets what a message may upload there (10 MiB;
        50 MiB at level 2, 100 MiB at level 3), as the bot reads it and as this server
        enforces it."""

        def make() -> int:
            chosen = dict(ids or {})
            if shard is not None and "guild" not in chosen:
                chosen["guild"] = self.world.ids.on_shard(*shard)
            guild = build_sample_guild(self.world, name, chosen)
            guild.premium_tier = boost
            self.world.dispatch("GUILD_CREATE", guild.create_payload(joined=True))
            return guild.id

        return GuildHandle(self, self._run(make), name)

    @property
    def unknown_requests(self) -> list[dict[str, Any]]:
        return self._run(lambda: copy.deepcopy(self.world.unknown_requests))

    @property
    def rejections(self) -> list[dict[str, Any]]:
        """Every bot request the stand-in refused (limits, permissions, double answers)."""
        return self._run(lambda: copy.deepcopy(self.world.rejections))

    @property
    def commands(self) -> list[dict[str, Any]]:
        """Synced command payloads: global ones, then each guild's."""

        def collect() -> list[dict[str, Any]]:
            found = list(self.world.global_commands)
            for cmds in self.world.guild_commands.values():
                found += cmds
            return copy.deepcopy(found)

        return self._run(collect)

    def channel_messages(
        self, guild: GuildHandle, channel: str | ChannelRef, *, everything: bool = False
    ) -> list[Msg]:
        """Messages in a channel: by default only those posted outside interaction responses."""

        def collect() -> list[Msg]:
            ch = self._channel(self.world.guilds[guild.id], channel)
            return [
                msg_from(m)
                for m in sorted(self.world.messages.values(), key=lambda m: m.id)
                if m.channel_id == ch.id
                and not m.deleted
                and not m.ephemeral
                and (everything or m.source in ("channel", "webhook"))
            ]

        return self._run(collect)

    def direct_messages(self, guild: GuildHandle, user: str | MemberRef) -> list[Msg]:
        """What the bot sent to a member of ``guild`` by DM."""

        def collect() -> list[Msg]:
            members = self.world.guilds[guild.id]
            uid = user.id if isinstance(user, MemberRef) else members.find_member(str(user)).id
            dms = {
                c.id
                for c in self.world.channels.values()
                if c.type == 1 and c.recipients[0].id == uid
            }
            return [
                msg_from(m)
                for m in sorted(self.world.messages.values(), key=lambda m: m.id)
                if m.channel_id in dms and not m.deleted
            ]

        return self._run(collect)

    def threads(self, guild: GuildHandle, parent: str | None = None) -> list[ChannelRef]:
        def collect() -> list[ChannelRef]:
            g = self.world.guilds[guild.id]
            parent_id = self._channel(g, parent).id if parent else None
            return [
                cref(c)
                for c in g.channels.values()
                if c.is_thread and (parent_id is None or c.parent_id == parent_id)
            ]

        return self._run(collect)

    def mark(self) -> int:
        """A bookmark for ``posted_since``: the newest message id so far."""
        return self._run(lambda: max(self.world.messages, default=0))

    def posted_since(self, mark: int) -> list[tuple[str, Msg]]:
        """(channel name, message) for what the bot posted outside responses after ``mark``."""

        def collect() -> list[tuple[str, Msg]]:
            found = []
            for mid in sorted(m for m in self.world.messages if m > mark):
                msg = self.world.messages[mid]
                if msg.source in ("channel", "webhook") and not msg.deleted:
                    found.append((self.world.channels[msg.channel_id].name, msg_from(msg)))
            return found

        return self._run(collect)

    def message(self, message_id: int) -> Msg:
        """The current state of a stored message."""
        return self._run(lambda: msg_from(self.world.messages[message_id]))

    def channel_names(self, guild: GuildHandle) -> list[str]:
        def collect() -> list[str]:
            chans = self.world.guilds[guild.id].channels.values()
            return [c.name for c in chans if c.type != 4]

        return self._run(collect)

    def name_of(self, snowflake: int) -> str | None:
        """A user, role or channel name for rendering mentions."""

        def find() -> str | None:
            if snowflake in self.world.users:
                return self.world.users[snowflake].name
            if snowflake in self.world.channels:
                return self.world.channels[snowflake].name
            for guild in self.world.guilds.values():
                if snowflake in guild.roles:
                    return guild.roles[snowflake].name
            return None

        return self._run(find)

    def expect_message_event(self, event: str, message_id: int) -> tuple[str, int, int]:
        """Call on the stand-in's loop right before sending a message event: what to pass to
        :meth:`wait_for_messages` afterwards (the count of that event's finished work to wait
        for)."""
        key = (event, message_id)
        return (event, message_id, self.world.handled_messages[key] + 1)

    def wait_for_messages(self, expected: list[tuple[str, int, int]]) -> None:
        """Waits until the bot has finished the work its message events started (typed posts):
        ``expected`` comes from :meth:`expect_message_event`."""
        wanted = {(event, message_id): count for event, message_id, count in expected}
        try:
            self.standin.call(
                self.server.settle_messages(wanted, timeout=self.timeout, quiet=self.quiet),
                timeout=self.timeout + 30,
            )
        except Answer as exc:
            raise AssertionError(f"{exc}\n--- bot log (tail) ---\n{self.bot_log(40)}") from None

    def enable_intents(self, intents: int) -> None:
        """The Developer Portal enables these privileged intents for the application (Bot →
        Privileged Gateway Intents; Message Content is ``1 << 15``).  Without them an
        IDENTIFY asking for one is closed with 4014."""

        def enable() -> None:
            self.world.portal_intents |= intents

        self._run(enable)

    @property
    def refused_identifies(self) -> list[int]:
        """The disallowed intents of every IDENTIFY closed with 4014, in order."""
        return self._run(lambda: list(self.server.gateway.refused_identifies))

    @property
    def rate_limited(self) -> list[dict[str, Any]]:
        """Every 429 the stand-in answered the bot's webhook messages with."""
        return self._run(lambda: copy.deepcopy(self.world.rate_limited))

    def set_webhook_limit(self, limit: tuple[int, float]) -> tuple[int, float]:
        """Messages per webhook per window (seconds) from now on, Discord's being (5, 2.0);
        returns the one before, to put back (a test holds posts in their queue with a tight
        one)."""

        def change() -> tuple[int, float]:
            before, self.world.webhook_limit = self.world.webhook_limit, limit
            self.world.rate_windows.clear()
            return before

        return self._run(change)

    def wait_until(self, condition: Callable[[], bool], what: str) -> None:
        """Polls ``condition`` (a test's look at the stand-in) until it holds, for at most the
        stand-in's timeout: a test that acts while the bot is in the middle of something."""
        deadline = time.monotonic() + self.timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"never true in time: {what}")
            time.sleep(0.01)

    def reconnect(self) -> None:
        """Sends op 7 RECONNECT; the bot should come back with RESUME."""
        self.standin.call(self.server.gateway.reconnect())

    # -- acting as a user -----------------------------------------------------------------
    @staticmethod
    def _channel(guild: Guild, channel: Any) -> Channel:
        if isinstance(channel, ChannelRef | Channel):
            return guild.channels[channel.id]
        if isinstance(channel, int):
            return guild.channels[channel]
        return guild.find_channel(str(channel).lstrip("#"), types=(0, 5, 11, 12, 15))

    def _who(self, guild: Guild | None, user: Any) -> Member:
        if guild is None:
            raise CommandRefused("fuera de un servidor / not in a server")
        if not self.world.bot_in(guild):
            # Discord delivers no interaction of a server that removed the bot
            raise CommandRefused(f"el bot no está en / the bot is not in {guild.name}")
        if isinstance(user, MemberRef):
            return guild.members[user.id]
        return guild.find_member(str(user))

    def _inject(self, prepare: Callable[[], InteractionRecord | str]) -> Reply:
        if self.proc is not None and self.proc.poll() is not None:
            raise AssertionError(
                f"the bot process exited ({self.proc.returncode}):\n{self.bot_log(40)}"
            )
        record_or_error = self._run(prepare)
        if isinstance(record_or_error, str):
            return Reply(ok=False, error=record_or_error)
        record = record_or_error
        try:
            self.standin.call(
                self.server.settle(record, timeout=self.timeout, quiet=self.quiet),
                timeout=self.timeout + 30,
            )
        except Answer as exc:
            raise AssertionError(f"{exc}\n--- bot log (tail) ---\n{self.bot_log(40)}") from None
        return self._run(lambda: reply_from(self.world, record))

    def command(
        self,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        guild: GuildHandle,
        channel: str | ChannelRef = "mesa",
        user: str | MemberRef = "ana",
        locale: str = "es-ES",
    ) -> Reply:
        """Runs a slash command as ``user``; options by canonical (or localized) name."""

        def prepare() -> InteractionRecord | str:
            g = self.world.guilds[guild.id]
            try:
                ch, member = self._channel(g, channel), self._who(g, user)
                if not g.permissions_in(member, ch):
                    raise CommandRefused(f"{member.name} no ve / cannot see #{ch.name}")
                data = build_command(self.world, g, ch, member, path, options or {})
            except (CommandRefused, KeyError) as exc:
                return str(exc).strip("'\"")
            return self.server.inject(
                type=2, data=data, guild=g, channel=ch, member=member, locale=locale
            )

        return self._inject(prepare)

    def context_menu(
        self,
        name: str,
        target: Any,
        *,
        guild: GuildHandle,
        channel: str | ChannelRef = "mesa",
        user: str | MemberRef = "ana",
        locale: str = "es-ES",
    ) -> Reply:
        """Runs a context-menu command: on a member (name or handle) or on a message (``Msg``)."""

        def prepare() -> InteractionRecord | str:
            g = self.world.guilds[guild.id]
            try:
                member = self._who(g, user)
                msg = getattr(target, "id", None) and self.world.messages.get(target.id)
                ch = self.world.channels[msg.channel_id] if msg else self._channel(g, channel)
                data = build_context_menu(self.world, g, ch, member, name, target)
            except (CommandRefused, KeyError) as exc:
                return str(exc)
            return self.server.inject(
                type=2, data=data, guild=g, channel=ch, member=member, locale=locale
            )

        return self._inject(prepare)

    def autocomplete(
        self,
        path: str,
        option: str,
        typed: str,
        *,
        guild: GuildHandle,
        channel: str | ChannelRef = "mesa",
        user: str | MemberRef = "ana",
        locale: str = "es-ES",
        options: dict[str, Any] | None = None,
    ) -> list[dict[str, Any]]:
        """What the bot suggests while ``user`` types ``typed`` into ``option``."""

        def prepare() -> InteractionRecord | str:
            g = self.world.guilds[guild.id]
            try:
                ch, member = self._channel(g, channel), self._who(g, user)
                given = {**(options or {}), option: typed}
                data = build_command(self.world, g, ch, member, path, given, focused=option)
            except (CommandRefused, KeyError) as exc:
                return str(exc)
            return self.server.inject(
                type=4, data=data, guild=g, channel=ch, member=member, locale=locale
            )

        reply = self._inject(prepare)
        if not reply.ok:
            raise AssertionError(f"autocomplete refused: {reply.error}")
        return reply.choices

    def _message_id(self, target: Reply | Msg, predicate: Predicate) -> tuple[int, dict[str, Any]]:
        """Finds the component in the target's current state (the latest edit counts)."""
        candidates = target.messages if isinstance(target, Reply) else [target]
        for snap in reversed(candidates):
            msg = self.world.messages.get(snap.id)
            if msg is None or msg.deleted:
                continue
            for comp in msg_from(msg).buttons + msg_from(msg).selects:
                if predicate(comp, msg_from(msg)):
                    return msg.id, comp
        raise CommandRefused("no such component on the message")

    def _component(
        self,
        target: Reply | Msg,
        predicate: Predicate,
        data_fn: Callable[[dict[str, Any], Guild | None, Channel], dict[str, Any]],
        user: str | MemberRef,
        locale: str,
    ) -> Reply:
        return self._inject(self._component_press(target, predicate, data_fn, user, locale))

    def _component_press(
        self,
        target: Reply | Msg,
        predicate: Predicate,
        data_fn: Callable[[dict[str, Any], Guild | None, Channel], dict[str, Any]],
        user: str | MemberRef,
        locale: str,
    ) -> Callable[[], InteractionRecord | str]:
        """What queues one component interaction, to run on the stand-in's loop."""

        def prepare() -> InteractionRecord | str:
            try:
                mid, comp = self._message_id(target, predicate)
                msg = self.world.messages[mid]
                ch = self.world.channels[msg.channel_id]
                g = self.world.guild_of(ch)
                member = self._who(g, user)
                if comp.get("disabled"):
                    raise CommandRefused(
                        f"desactivado / component {comp.get('custom_id')} is disabled"
                    )
                data = data_fn(comp, g, ch)
            except (CommandRefused, KeyError) as exc:
                return str(exc)
            return self.server.inject(
                type=3, data=data, guild=g, channel=ch, member=member, locale=locale, message_id=mid
            )

        return prepare

    def click(
        self,
        target: Reply | Msg,
        label_or_custom_id: str,
        *,
        user: str | MemberRef = "ana",
        locale: str = "es-ES",
    ) -> Reply:
        """Presses a button, found by custom_id or label (case-insensitive)."""
        return self._component(target, _button(label_or_custom_id), _button_data, user, locale)

    def click_together(
        self, presses: Sequence[tuple[Reply | Msg, str, str | MemberRef]], *, locale: str = "es-ES"
    ) -> list[Reply]:
        """Presses several buttons in the same instant — ``(message, button, member)`` each, the
        button as :meth:`click` finds it: one step of the stand-in's loop queues them all to
        the gateway, as a whole table pressing at once.  Each ``Reply`` once the bot is done
        with its press (all of them settled together)."""
        prepares = [
            self._component_press(target, _button(want), _button_data, user, locale)
            for target, want, user in presses
        ]
        if self.proc is not None and self.proc.poll() is not None:
            raise AssertionError(f"the bot process exited ({self.proc.returncode})")
        queued = self._run(lambda: [prepare() for prepare in prepares])
        records = [r for r in queued if not isinstance(r, str)]

        async def settle_all() -> None:
            await asyncio.gather(
                *(self.server.settle(r, timeout=self.timeout, quiet=self.quiet) for r in records)
            )

        try:
            self.standin.call(settle_all(), timeout=self.timeout + 30)
        except Answer as exc:
            raise AssertionError(f"{exc}\n--- bot log (tail) ---\n{self.bot_log(40)}") from None
        return self._run(
            lambda: [
                Reply(ok=False, error=r) if isinstance(r, str) else reply_from(self.world, r)
                for r in queued
            ]
        )

    def select(
        self,
        target: Reply | Msg,
        custom_id_or_index: str | int,
        values: list[Any],
        *,
        user: str | MemberRef = "ana",
        locale: str = "es-ES",
    ) -> Reply:
        """Chooses ``values`` in a select, found by custom_id or by index among the message's selects."""

        def is_it(comp: dict[str, Any], msg: Msg) -> bool:
            if isinstance(custom_id_or_index, int):
                return comp in msg.selects and msg.selects.index(comp) == custom_id_or_index
            return (
                comp.get("type") in (3, 5, 6, 7, 8) and comp.get("custom_id") == custom_id_or_index
            )

        def data(comp: dict[str, Any], g: Guild | None, ch: Channel) -> dict[str, Any]:
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not lo <= len(values) <= hi:
                raise CommandRefused(
                    f"select {comp['custom_id']} takes {lo}..{hi} values, got {len(values)}"
                )
            out: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
            if comp["type"] == 3:
                allowed = [o["value"] for o in comp.get("options") or []]
                bad = [v for v in values if v not in allowed]
                if bad:
                    raise CommandRefused(
                        f"no está entre las opciones / {bad} not among the options {allowed}"
                    )
                out["values"] = list(values)
                return out
            from .interactions import build_options

            kind = {5: 6, 6: 8, 7: 9, 8: 7}[comp["type"]]
            defs = [
                {"name": f"v{i}", "type": kind, "channel_types": comp.get("channel_types")}
                for i in range(len(values))
            ]
            opts, resolved = build_options(
                self.world, g, ch, defs, {f"v{i}": v for i, v in enumerate(values)}
            )
            out.update(values=[o["value"] for o in opts], resolved=resolved)
            return out

        return self._component(target, is_it, data, user, locale)

    def submit_modal(
        self,
        reply: Reply,
        values: Mapping[str, str | Sequence[str]],
        *,
        user: str | MemberRef = "ana",
        locale: str = "es-ES",
    ) -> Reply:
        """Fills in and submits the modal the bot opened in ``reply``."""
        if reply.modal is None:
            raise AssertionError("that reply did not open a modal")
        modal = reply.modal

        def prepare() -> InteractionRecord | str:
            try:
                components = modal_submission(modal, values)
                g = self.world.guilds.get(reply.guild_id) if reply.guild_id else None
                if reply.channel_id is None:
                    raise CommandRefused("sin canal / that reply has no channel")
                ch = self.world.channels[reply.channel_id]
                member = self._who(g, user)
            except (CommandRefused, KeyError) as exc:
                return str(exc)
            data = {"custom_id": modal["custom_id"], "components": components}
            source = modal.get("_source_message_id")
            return self.server.inject(
                type=5,
                data=data,
                guild=g,
                channel=ch,
                member=member,
                locale=locale,
                message_id=source,
            )

        return self._inject(prepare)


def _button(want: str) -> Predicate:
    """Finds a button by custom id or label (case-insensitive)."""

    def is_it(comp: dict[str, Any], _msg: Msg) -> bool:
        label = (comp.get("label") or "").lower()
        return comp.get("type") == 2 and (comp.get("custom_id") == want or label == want.lower())

    return is_it


def _button_data(comp: dict[str, Any], g: Guild | None, ch: Channel) -> dict[str, Any]:
    """The interaction data of a button press."""
    if comp.get("style") in (5, 6) or not comp.get("custom_id"):
        raise CommandRefused("link and premium buttons do not send interactions")
    return {
        "custom_id": comp["custom_id"],
        "component_type": 2,
        **({"id": comp["id"]} if "id" in comp else {}),
    }
