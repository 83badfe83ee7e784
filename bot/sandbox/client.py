"""The driver: a synchronous API over the stand-in and a real bot process.

Tests and the REPL use the same calls. ``Sandbox`` owns the stand-in (on a background thread) and
the bot subprocess; ``command``/``click``/``select``/``submit_modal``/``autocomplete`` act as a
Discord user would and return a ``Reply`` once the bot has answered and gone quiet.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .interactions import CommandRefused, build_command
from .launch import FAKE_TOKEN
from .replies import Msg, Reply, msg_from, reply_from
from .server import Answer, StandInThread
from .state import ADMINISTRATOR, Channel, Guild, Member, Role, World

__all__ = ["ChannelRef", "GuildHandle", "MemberRef", "Sandbox"]

REPO = Path(__file__).resolve().parents[2]
MASTER_PERMISSIONS = (1 << 13) | (1 << 34) | (1 << 40)  # manage messages, manage threads, moderate


@dataclass(frozen=True)
class ChannelRef:
    id: int
    name: str
    type: int
    parent_id: int | None = None


@dataclass(frozen=True)
class MemberRef:
    id: int
    name: str


@dataclass(frozen=True)
class RoleRef:
    id: int
    name: str


def _cref(ch: Channel) -> ChannelRef:
    return ChannelRef(ch.id, ch.name, ch.type, ch.parent_id)


def build_sample_guild(world: World, name: str, ids: dict[str, int] | None = None) -> Guild:
    """The sample table: GM (owner, Administrator), players ana and bruno, dm2 with role Máster;
    #mesa, #foro (forum), #gm (hidden from players), category partida with #escena."""
    ids = ids or {}
    users = {
        n: world.add_user(n, user_id=ids.get(f"user:{n}")) for n in ("gm", "ana", "bruno", "dm2")
    }
    guild = world.add_guild(name, users["gm"], guild_id=ids.get("guild"))
    admin = Role(ids.get("role:Admin") or world.ids.next(), "Admin", ADMINISTRATOR, position=3)
    master = Role(
        ids.get("role:Máster") or world.ids.next(),
        "Máster",
        guild.roles[guild.id].permissions | MASTER_PERMISSIONS,
        position=2,
    )
    guild.roles[admin.id] = admin
    guild.roles[master.id] = master
    guild.members[users["gm"].id] = Member(users["gm"], roles=[admin.id])
    for n in ("ana", "bruno"):
        guild.members[users[n].id] = Member(users[n])
    guild.members[users["dm2"].id] = Member(users["dm2"], roles=[master.id])

    def cid(n: str) -> int | None:
        return ids.get(f"channel:{n}")

    world.add_channel(guild, "mesa", 0, channel_id=cid("mesa"), topic="Mesa de juego")
    world.add_channel(guild, "foro", 15, channel_id=cid("foro"))
    hidden = [
        {"id": str(guild.id), "type": 0, "allow": "0", "deny": str(1 << 10)},
        {"id": str(master.id), "type": 0, "allow": str(1 << 10), "deny": "0"},
        {"id": str(world.bot.id), "type": 1, "allow": str(1 << 10), "deny": "0"},
    ]
    world.add_channel(guild, "gm", 0, channel_id=cid("gm"), overwrites=hidden)
    category = world.add_channel(guild, "partida", 4, channel_id=cid("partida"))
    world.add_channel(guild, "escena", 0, channel_id=cid("escena"), parent_id=category.id)
    return guild


class GuildHandle:
    """A guild as tests see it: names to ids, and ways to add threads and members."""

    def __init__(self, sandbox: Sandbox, guild_id: int, name: str) -> None:
        self._sb, self.id, self.name = sandbox, guild_id, name

    def _guild(self) -> Guild:
        return self._sb.world.guilds[self.id]

    def channel(self, name: str) -> ChannelRef:
        return self._sb._run(
            lambda: _cref(self._guild().find_channel(name, types=(0, 5, 15, 11, 12)))
        )

    def category(self, name: str) -> ChannelRef:
        return self._sb._run(lambda: _cref(self._guild().find_channel(name, types=(4,))))

    def member(self, name: str) -> MemberRef:
        return self._sb._run(lambda: MemberRef(self._guild().find_member(name).id, name))

    def role(self, name: str) -> RoleRef:
        return self._sb._run(lambda: RoleRef(self._guild().find_role(name).id, name))

    def add_member(self, name: str, *, roles: tuple[str, ...] = ()) -> MemberRef:
        def add() -> MemberRef:
            guild, world = self._guild(), self._sb.world
            member = Member(world.add_user(name), roles=[guild.find_role(r).id for r in roles])
            guild.members[member.id] = member
            world.dispatch("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)})
            return MemberRef(member.id, name)

        return self._sb._run(add)

    def add_role(self, name: str, *, permissions: int = 0) -> RoleRef:
        """A new role (GUILD_ROLE_CREATE); ``permissions`` is Discord's bit field."""

        def add() -> RoleRef:
            guild, world = self._guild(), self._sb.world
            role = Role(world.ids.next(), name, permissions, position=len(guild.roles))
            guild.roles[role.id] = role
            world.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
            return RoleRef(role.id, name)

        return self._sb._run(add)

    def set_roles(self, member: str, roles: tuple[str, ...] | list[str]) -> None:
        """Replaces a member's roles (GUILD_MEMBER_UPDATE), e.g. to make a player the Máster."""

        def update() -> None:
            guild = self._guild()
            target = guild.find_member(member)
            target.roles = [guild.find_role(r).id for r in roles]
            event = {**target.payload(), "guild_id": str(guild.id)}
            self._sb.world.dispatch("GUILD_MEMBER_UPDATE", event)

        self._sb._run(update)

    def add_channel(
        self,
        name: str,
        type: int = 0,
        *,
        category: str | None = None,
        visible_to: tuple[str, ...] | None = None,
    ) -> ChannelRef:
        """A new channel (CHANNEL_CREATE). ``visible_to`` names the roles that may see it
        (everyone else is denied View Channel; the bot always sees it)."""

        def add() -> ChannelRef:
            guild, world = self._guild(), self._sb.world
            parent = guild.find_channel(category, types=(4,)).id if category else None
            overwrites = []
            if visible_to is not None:
                view = str(1 << 10)
                overwrites.append({"id": str(guild.id), "type": 0, "allow": "0", "deny": view})
                for role in visible_to:
                    rid = guild.find_role(role).id
                    overwrites.append({"id": str(rid), "type": 0, "allow": view, "deny": "0"})
                overwrites.append({"id": str(world.bot.id), "type": 1, "allow": view, "deny": "0"})
            channel = world.add_channel(guild, name, type, parent_id=parent, overwrites=overwrites)
            world.dispatch("CHANNEL_CREATE", channel.payload())
            return _cref(channel)

        return self._sb._run(add)

    def thread(self, channel: str, name: str, *, user: str = "gm") -> ChannelRef:
        """A public thread a user opened in a text channel."""

        def add() -> ChannelRef:
            guild, world = self._guild(), self._sb.world
            parent = guild.find_channel(channel, types=(0, 5))
            owner = guild.find_member(user)
            thread = world.add_channel(guild, name, 11, parent_id=parent.id, owner_id=owner.id)
            world.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
            return _cref(thread)

        return self._sb._run(add)

    def forum_post(
        self, forum: str, title: str, *, user: str = "gm", content: str | None = None
    ) -> ChannelRef:
        """A forum post (a thread whose starter message has the thread's id), by a user."""
        from .messages import create_message

        def add() -> ChannelRef:
            guild, world = self._guild(), self._sb.world
            parent = guild.find_channel(forum, types=(15,))
            owner = guild.find_member(user)
            thread = world.add_channel(guild, title, 11, parent_id=parent.id, owner_id=owner.id)
            world.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
            author = {**owner.user.payload(), "bot": False}
            create_message(
                world,
                thread,
                {"content": content or title},
                author=author,
                source="user",
                message_id=thread.id,
            )
            return _cref(thread)

        return self._sb._run(add)


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
        self.proc: subprocess.Popen | None = None
        self.log_path: Path | None = None
        self._log_file: Any = None

    @property
    def url(self) -> str:
        return self.server.url

    def _run(self, fn):
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
        """Starts ``python -m bot.sandbox.launch --module MODULE`` and waits for its IDENTIFY."""
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
        self._log_file = open(self.log_path, "ab")  # noqa: SIM115 - lives as long as the process
        cmd = [
            sys.executable,
            "-m",
            "bot.sandbox.launch",
            "--api",
            self.url,
            "--module",
            module,
            "--",
            *args,
        ]
        full_env["ARBITRO_SANDBOX_PARENT"] = str(os.getpid())
        self.proc = subprocess.Popen(
            cmd, env=full_env, cwd=cwd, stdout=self._log_file, stderr=subprocess.STDOUT
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
    def new_guild(self, name: str = "Mesa", *, ids: dict[str, int] | None = None) -> GuildHandle:
        """A fresh sample guild, announced to the bot with GUILD_CREATE."""

        def make() -> int:
            guild = build_sample_guild(self.world, name, ids)
            self.world.dispatch("GUILD_CREATE", guild.create_payload())
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
            uid = self._who(self.world.guilds[guild.id], user).id
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
                _cref(c)
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

    def _who(self, guild: Guild, user: Any) -> Member:
        if isinstance(user, MemberRef):
            return guild.members[user.id]
        return guild.find_member(str(user))

    def _inject(self, prepare) -> Reply:
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

        def prepare():
            g = self.world.guilds[guild.id]
            try:
                ch, member = self._channel(g, channel), self._who(g, user)
                if not g.permissions_in(member, ch):
                    raise CommandRefused(f"{member.name} cannot see #{ch.name}")
                data = build_command(self.world, g, ch, member, path, options or {})
            except (CommandRefused, KeyError) as exc:
                return str(exc).strip("'\"")
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

        def prepare():
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

    def _message_id(self, target: Reply | Msg, predicate) -> tuple[int, dict[str, Any]]:
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

    def _component(self, target, predicate, data_fn, user, locale) -> Reply:
        def prepare():
            try:
                mid, comp = self._message_id(target, predicate)
                msg = self.world.messages[mid]
                ch = self.world.channels[msg.channel_id]
                g = self.world.guild_of(ch)
                member = self._who(g, user)
                if comp.get("disabled"):
                    raise CommandRefused(f"component {comp.get('custom_id')} is disabled")
                data = data_fn(comp, g, ch)
            except (CommandRefused, KeyError) as exc:
                return str(exc)
            return self.server.inject(
                type=3, data=data, guild=g, channel=ch, member=member, locale=locale, message_id=mid
            )

        return self._inject(prepare)

    def click(
        self,
        target: Reply | Msg,
        label_or_custom_id: str,
        *,
        user: str | MemberRef = "ana",
        locale: str = "es-ES",
    ) -> Reply:
        """Presses a button, found by custom_id or label (case-insensitive)."""
        want = label_or_custom_id

        def is_it(comp: dict[str, Any], _msg: Msg) -> bool:
            label = (comp.get("label") or "").lower()
            return comp.get("type") == 2 and (
                comp.get("custom_id") == want or label == want.lower()
            )

        def data(comp: dict[str, Any], g, ch) -> dict[str, Any]:
            if comp.get("style") in (5, 6) or not comp.get("custom_id"):
                raise CommandRefused("link and premium buttons do not send interactions")
            return {
                "custom_id": comp["custom_id"],
                "component_type": 2,
                **({"id": comp["id"]} if "id" in comp else {}),
            }

        return self._component(target, is_it, data, user, locale)

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

        def data(comp: dict[str, Any], g: Guild, ch: Channel) -> dict[str, Any]:
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
                    raise CommandRefused(f"{bad} not among the options {allowed}")
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
        values: dict[str, str],
        *,
        user: str | MemberRef = "ana",
        locale: str = "es-ES",
    ) -> Reply:
        """Fills in and submits the modal the bot opened in ``reply``."""
        if reply.modal is None:
            raise AssertionError("that reply did not open a modal")
        modal = reply.modal

        def prepare():
            try:
                components = _modal_submission(modal, values)
                g = self.world.guilds.get(reply.guild_id) if reply.guild_id else None
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


def _modal_submission(modal: dict[str, Any], values: dict[str, str]) -> list[dict[str, Any]]:
    """Mirrors the modal's layout with the typed values, refusing what the client would."""
    known: set[str] = set()

    def field(comp: dict[str, Any]) -> dict[str, Any]:
        cid = comp.get("custom_id")
        known.add(cid)
        if comp.get("type") == 4:
            value = str(values.get(cid, comp.get("value") or ""))
            lo, hi = comp.get("min_length") or 0, comp.get("max_length") or 4000
            if comp.get("required", True) and not value:
                raise CommandRefused(f"modal field {cid!r} is required")
            if value and not lo <= len(value) <= hi:
                raise CommandRefused(
                    f"modal field {cid!r}: length {len(value)} outside [{lo}, {hi}]"
                )
            return {"type": 4, "custom_id": cid, "value": value}
        chosen = values.get(cid, [])
        chosen = [chosen] if isinstance(chosen, str) else list(chosen)
        return {"type": comp["type"], "custom_id": cid, "values": chosen}

    out = []
    for top in modal.get("components") or []:
        if top.get("type") == 1:
            out.append({"type": 1, "components": [field(c) for c in top.get("components") or []]})
        elif top.get("type") == 18 and isinstance(top.get("component"), dict):
            out.append({"type": 18, "component": field(top["component"])})
    unknown = set(values) - known
    if unknown:
        raise CommandRefused(f"unknown modal field(s) {sorted(unknown)}; fields: {sorted(known)}")
    return out
