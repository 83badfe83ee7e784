"""Building interactions the way the Discord client would, and refusing what it would refuse.

The client only lets a person send a slash command that the application synced: known names,
every required option, a value of the right type, inside the declared choices, ranges and lengths.
These checks run against the payloads the bot itself uploaded, so a test that passes here uses
the command exactly as a user could.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .state import Channel, Guild, Member, World

__all__ = [
    "CommandRefused",
    "InteractionRecord",
    "build_command",
    "build_context_menu",
    "interaction_payload",
    "modal_submission",
]

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
TYPE_NAMES = {
    STRING: "string",
    INTEGER: "integer",
    BOOLEAN: "boolean",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "mentionable",
    NUMBER: "number",
    ATTACHMENT: "attachment",
}


class CommandRefused(Exception):
    """What the Discord client would not let the user send."""


@dataclass
class InteractionRecord:
    """One injected interaction and everything the bot did in answer to it."""

    id: int
    token: str
    type: int
    payload: dict[str, Any]
    created: float = field(default_factory=time.monotonic)
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    message_id: int | None = None  # the original response message
    source_message_id: int | None = None  # the message whose component was used
    followups: list[int] = field(default_factory=list)
    edits: list[dict[str, Any]] = field(default_factory=list)
    rejections: list[dict[str, Any]] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    #: Set when the bot process reports that all its interaction work is over, this one's
    #: included (``standin.launch`` tracks it); a bot started some other way never sets it.
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    answered_at: float | None = None  # time.monotonic() when the user first saw an answer
    #: time.monotonic() of the first follow-up message (after a deferral or an edit of the
    #: clicked message, the member's own answer: what a benchmark times to)
    followup_at: float | None = None
    #: time.monotonic() of the latest answer the user saw (a reply, a follow-up, an edit of
    #: the response): with ``finished``, when the member had the command's final answer
    last_answer_at: float | None = None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    def check_answered(self) -> None:
        """Sets ``answered`` once the user would see an answer (a deferral alone is not one)."""
        if self.callback_type is None:
            return
        if self.callback_type not in (5, 6) or self.followups or self.edits:
            now = time.monotonic()
            if self.answered_at is None:
                self.answered_at = now
            self.last_answer_at = now
            self.answered.set()


def _matches(defn: dict[str, Any], word: str) -> bool:
    names = {defn["name"], *(defn.get("name_localizations") or {}).values()}
    return word in names or word.lower() in {n.lower() for n in names}


def available_commands(
    world: World, guild_id: int | None
) -> list[tuple[dict[str, Any], int | None]]:
    """Commands the client offers in this guild: its own, then global ones not shadowed."""
    found: list[tuple[dict[str, Any], int | None]] = (
        [(c, guild_id) for c in world.guild_commands.get(guild_id, [])] if guild_id else []
    )
    names = {c["name"] for c, _ in found}
    found += [(c, None) for c in world.global_commands if c["name"] not in names]
    return [(c, g) for c, g in found if c.get("type", 1) == 1]


def resolve_path(
    world: World, guild_id: int | None, path: str
) -> tuple[dict[str, Any], int | None, list[str], list[dict[str, Any]]]:
    """Finds the command for "campaign create": (command, command guild id, names, leaf options)."""
    words = path.strip().lstrip("/").split()
    if not words:
        raise CommandRefused("empty command")
    found = next(
        (pair for pair in available_commands(world, guild_id) if _matches(pair[0], words[0])), None
    )
    if found is None:
        raise CommandRefused(f"unknown command /{words[0]}")
    cmd, cmd_guild = found
    names = [cmd["name"]]
    defs = cmd.get("options") or []
    for word in words[1:]:
        subs = [o for o in defs if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        sub = next((o for o in subs if _matches(o, word)), None)
        if sub is None:
            raise CommandRefused(f"unknown subcommand {word!r} of /{' '.join(names)}")
        names.append(sub["name"])
        defs = sub.get("options") or []
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in defs):
        choices = ", ".join(o["name"] for o in defs)
        raise CommandRefused(f"/{' '.join(names)} needs a subcommand: {choices}")
    return cmd, cmd_guild, names, defs


def _id_of(value: Any) -> int | None:
    if hasattr(value, "id"):
        return int(value.id)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip("<@#&!>").isdigit():
        return int(value.strip("<@#&!>"))
    return None


class _Resolver:
    """Turns driver values (names, handles, ids, bytes) into option values and ``resolved``."""

    def __init__(self, world: World, guild: Guild | None, channel: Channel | None) -> None:
        self.world, self.guild, self.channel = world, guild, channel
        self.resolved: dict[str, dict[str, Any]] = {}

    def _add(self, kind: str, key: int, data: dict[str, Any]) -> str:
        self.resolved.setdefault(kind, {})[str(key)] = data
        return str(key)

    def member(self, value: Any) -> Member | None:
        if self.guild is None:
            return None
        uid = _id_of(value)
        if uid is not None:
            return self.guild.members.get(uid)
        try:
            return self.guild.find_member(str(value).lstrip("@"))
        except KeyError:
            return None

    def user(self, value: Any) -> str:
        member = self.member(value)
        if member is None or self.guild is None:  # a member is found only in a guild
            uid = _id_of(value)
            if uid is None or uid not in self.world.users:
                raise CommandRefused(f"unknown user {value!r}")
            return self._add("users", uid, self.world.users[uid].payload())
        self._add("users", member.id, member.user.payload())
        perms = self.guild.permissions_in(member, self.channel)
        return self._add("members", member.id, member.payload(with_user=False, permissions=perms))

    def role(self, value: Any) -> str:
        rid = _id_of(value)
        if self.guild is None:  # no roles outside a guild
            raise CommandRefused(f"unknown role {value!r}")
        try:
            role = (
                self.guild.roles[rid]
                if rid is not None
                else self.guild.find_role(str(value).lstrip("@"))
            )
        except (KeyError, AttributeError):
            raise CommandRefused(f"unknown role {value!r}") from None
        return self._add("roles", role.id, role.payload())

    def channel_value(self, value: Any, allowed: list[int] | None) -> str:
        cid = _id_of(value)
        ch = self.world.channels.get(cid) if cid is not None else None
        if ch is None and self.guild is not None:
            name = str(value).lstrip("#")
            ch = next((c for c in self.guild.channels.values() if c.name == name), None)
        if ch is None or ch.guild_id != (self.guild.id if self.guild else None):
            raise CommandRefused(f"unknown channel {value!r}")
        if allowed and ch.type not in allowed:
            raise CommandRefused(f"channel {ch.name!r} has type {ch.type}, not one of {allowed}")
        perms = 0
        bot_member = self.guild.members.get(self.world.bot.id) if self.guild else None
        if bot_member is not None and self.guild is not None:
            perms = self.guild.permissions_in(bot_member, ch)
        return self._add("channels", ch.id, ch.payload(permissions=perms))

    def mentionable(self, value: Any) -> str:
        if self.member(value) is not None:
            return self.user(value)
        return self.role(value)

    def attachment(self, value: Any) -> str:
        if isinstance(value, bytes):
            filename, content = "archivo.bin", value
        elif isinstance(value, tuple) and len(value) == 2:
            filename, content = value
        else:
            raise CommandRefused("an attachment option takes bytes or (filename, bytes)")
        data = self.world.store_blob(filename, content)
        return self._add("attachments", int(data["id"]), data)


#: ``@name`` or ``#name`` typed in a text option, as a word of its own (an e-mail's ``a@b`` or
#: a mention already written ``<@123>`` is left alone).
_TYPED = re.compile(r"(?<![\w<@#&])([@#])([\w][\w.\-]*)")


def typed_mentions(text: str, guild: Guild) -> str:
    """What Discord's client sends for ``@ana @bruno`` typed in a text option: each name the
    member picks from the client's pop-up becomes ``<@id>`` (a role ``<@&id>``, a channel
    ``#mesa`` ``<#id>``).  Names match a member's username or nickname, a role's or channel's
    name, ignoring case; anything else (``@everyone``, a name nobody has) stays as typed."""

    def mention(m: re.Match[str]) -> str:
        sigil, name = m.group(1), m.group(2)
        wanted = name.casefold()
        if sigil == "#":
            found = next((c for c in guild.channels.values() if c.name.casefold() == wanted), None)
            return f"<#{found.id}>" if found is not None else m.group(0)
        if wanted in ("everyone", "here"):
            return m.group(0)
        member = next(
            (
                x
                for x in guild.members.values()
                if wanted in (x.user.name.casefold(), (x.nick or "").casefold())
            ),
            None,
        )
        if member is not None:
            return f"<@{member.id}>"
        role = next((r for r in guild.roles.values() if r.name.casefold() == wanted), None)
        return f"<@&{role.id}>" if role is not None else m.group(0)

    return _TYPED.sub(mention, text)


def _check_scalar(defn: dict[str, Any], value: Any, label: str) -> Any:
    kind = defn["type"]
    if kind == STRING:
        if not isinstance(value, str):
            raise CommandRefused(f"{label} must be a string, not {value!r}")
        lo, hi = defn.get("min_length"), defn.get("max_length", 6000)
        if lo is not None and len(value) < lo or hi is not None and len(value) > hi:
            raise CommandRefused(f"{label}: longitud / length {len(value)} outside [{lo}, {hi}]")
    elif kind == INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise CommandRefused(f"{label} must be an integer, not {value!r}")
        if abs(value) > 2**53:
            raise CommandRefused(f"{label}: {value} is too large")
    elif kind == NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise CommandRefused(f"{label} must be a number, not {value!r}")
    elif kind == BOOLEAN and not isinstance(value, bool):
        raise CommandRefused(f"{label} must be true or false, not {value!r}")
    if kind in (INTEGER, NUMBER):
        lo, hi = defn.get("min_value"), defn.get("max_value")
        if lo is not None and value < lo or hi is not None and value > hi:
            raise CommandRefused(f"{label}: fuera de rango / {value} outside [{lo}, {hi}]")
    choices = defn.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        allowed = ", ".join(repr(c["value"]) for c in choices)
        raise CommandRefused(
            f"{label}: no es una opción / {value!r} is not one of the choices {allowed}"
        )
    return value


def build_options(
    world: World,
    guild: Guild | None,
    channel: Channel | None,
    defs: list[dict[str, Any]],
    given: dict[str, Any],
    *,
    focused: str | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Validates ``given`` against ``defs``; returns (options payload, resolved)."""
    resolver = _Resolver(world, guild, channel)
    by_name = {d["name"]: d for d in defs}
    for name in given:
        if name not in by_name and not any(_matches(d, name) for d in defs):
            raise CommandRefused(
                f"unknown option {name!r}; options: {', '.join(by_name) or 'none'}"
            )
    canonical = {}
    for name, value in given.items():
        defn = by_name.get(name) or next(d for d in defs if _matches(d, name))
        canonical[defn["name"]] = value
    if focused is None:
        missing = [d["name"] for d in defs if d.get("required") and d["name"] not in canonical]
        if missing:
            raise CommandRefused(f"falta / missing required option(s): {', '.join(missing)}")
    options = []
    for defn in defs:
        if defn["name"] not in canonical:
            continue
        value, label, kind = canonical[defn["name"]], f"option {defn['name']!r}", defn["type"]
        if defn["name"] == focused:
            if not defn.get("autocomplete"):
                raise CommandRefused(f"{label} has no autocomplete")
            options.append(
                {"name": defn["name"], "type": kind, "value": str(value), "focused": True}
            )
            continue
        if kind == STRING and isinstance(value, str) and guild is not None:
            value = typed_mentions(value, guild)
        if kind in (STRING, INTEGER, NUMBER, BOOLEAN):
            value = _check_scalar(defn, value, label)
        elif kind == USER:
            value = resolver.user(value)
        elif kind == ROLE:
            value = resolver.role(value)
        elif kind == CHANNEL:
            value = resolver.channel_value(value, defn.get("channel_types"))
        elif kind == MENTIONABLE:
            value = resolver.mentionable(value)
        elif kind == ATTACHMENT:
            value = resolver.attachment(value)
        else:
            raise CommandRefused(f"{label}: unsupported option type {kind}")
        options.append({"name": defn["name"], "type": kind, "value": value})
    return options, resolver.resolved


def build_command(
    world: World,
    guild: Guild | None,
    channel: Channel | None,
    member: Member | None,
    path: str,
    given: dict[str, Any],
    *,
    focused: str | None = None,
) -> dict[str, Any]:
    """The ``data`` of an application-command (or autocomplete) interaction."""
    cmd, cmd_guild, names, defs = resolve_path(world, guild.id if guild else None, path)
    if guild is not None and member is not None:
        needed = cmd.get("default_member_permissions")
        perms = guild.permissions_in(member, channel)
        if needed not in (None, "") and int(needed) & perms != int(needed):
            raise CommandRefused(
                f"/{names[0]} is hidden from {member.name}: missing permissions {needed}"
            )
    elif guild is None and cmd.get("contexts") is not None and 1 not in cmd["contexts"]:
        raise CommandRefused(f"/{names[0]} is not available in DMs")
    options, resolved = build_options(world, guild, channel, defs, given, focused=focused)
    for depth in range(len(names) - 1, 0, -1):
        defn = _walk(cmd, names[1 : depth + 1])
        options = [{"name": names[depth], "type": defn["type"], "options": options}]
    data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": options}
    if resolved:
        data["resolved"] = resolved
    if cmd_guild:
        data["guild_id"] = str(cmd_guild)
    return data


def build_context_menu(
    world: World,
    guild: Guild,
    channel: Channel,
    member: Member,
    name: str,
    target: Any,
) -> dict[str, Any]:
    """The ``data`` of a user (type 2) or message (type 3) context-menu command.

    ``target`` is a member (name, id or handle) for a user command, or a stored message
    (anything with ``id`` that names a message) for a message command."""
    message = world.messages.get(getattr(target, "id", None) or -1)
    kind = 3 if message is not None else 2
    found = [
        (c, g)
        for c, g in _all_commands(world, guild.id)
        if c.get("type") == kind and _matches(c, name)
    ]
    if not found:
        what = "message" if kind == 3 else "user"
        raise CommandRefused(f"no hay / no {what} context-menu command named {name!r}")
    cmd, cmd_guild = found[0]
    needed = cmd.get("default_member_permissions")
    perms = guild.permissions_in(member, channel)
    if needed not in (None, "") and int(needed) & perms != int(needed):
        raise CommandRefused(
            f"{cmd['name']} is hidden from {member.name}: missing permissions {needed}"
        )
    resolver = _Resolver(world, guild, channel)
    if message is not None:  # kind 3
        if message.deleted or message.ephemeral:
            raise CommandRefused("that message cannot be targeted")
        target_id = str(message.id)
        resolver.resolved["messages"] = {target_id: message.data}
    else:
        target_id = resolver.user(target)
    data: dict[str, Any] = {
        "id": cmd["id"],
        "name": cmd["name"],
        "type": kind,
        "target_id": target_id,
        "resolved": resolver.resolved,
    }
    if cmd_guild:
        data["guild_id"] = str(cmd_guild)
    return data


def _all_commands(world: World, guild_id: int) -> list[tuple[dict[str, Any], int | None]]:
    found = [(c, guild_id) for c in world.guild_commands.get(guild_id, [])]
    return found + [(c, None) for c in world.global_commands]


def _walk(cmd: dict[str, Any], names: list[str]) -> dict[str, Any]:
    node = cmd
    for name in names:
        node = next(o for o in node.get("options") or [] if o["name"] == name)
    return node


def interaction_payload(
    world: World,
    *,
    type: int,
    data: dict[str, Any],
    guild: Guild | None,
    channel: Channel,
    member: Member,
    locale: str,
    message: dict[str, Any] | None = None,
) -> tuple[int, str, dict[str, Any]]:
    """A full INTERACTION_CREATE body; returns (id, token, payload)."""
    interaction_id, token = world.ids.next(), "itx." + secrets.token_urlsafe(24)
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(world.application_id),
        "type": type,
        "data": data,
        "token": token,
        "version": 1,
        "locale": locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": 10 * 1024 * 1024,
        "channel_id": str(channel.id),
    }
    if guild is not None:
        perms = guild.permissions_in(member, channel)
        bot_perms = guild.permissions_in(guild.members[world.bot.id], channel)
        payload.update(
            guild_id=str(guild.id),
            guild={"id": str(guild.id), "locale": guild.locale, "features": []},
            guild_locale=guild.locale,
            member=member.payload(permissions=perms),
            app_permissions=str(bot_perms),
            channel=channel.payload(permissions=perms),
            authorizing_integration_owners={"0": str(guild.id)},
            context=0,
        )
    else:
        payload.update(
            user=member.user.payload(),
            channel=channel.payload(),
            app_permissions="0",
            authorizing_integration_owners={"0": str(member.id)},
            context=1,
        )
    if message is not None:
        payload["message"] = message
    return interaction_id, token, payload


def modal_submission(
    modal: dict[str, Any], values: Mapping[str, str | Sequence[str]]
) -> list[dict[str, Any]]:
    """Mirrors the modal's layout with the typed values, refusing what the client would."""
    known: set[str] = set()

    def field(comp: dict[str, Any]) -> dict[str, Any]:
        cid: str = comp.get("custom_id") or ""
        known.add(cid)
        if comp.get("type") == 4:
            value = str(values.get(cid, comp.get("value") or ""))
            lo, hi = comp.get("min_length") or 0, comp.get("max_length") or 4000
            if comp.get("required", True) and not value:
                raise CommandRefused(f"campo obligatorio / modal field {cid!r} is required")
            if value and not lo <= len(value) <= hi:
                raise CommandRefused(
                    f"modal field {cid!r}: length {len(value)} outside [{lo}, {hi}]"
                )
            return {"type": 4, "custom_id": cid, "value": value}
        given = values.get(cid, [])
        chosen = [given] if isinstance(given, str) else list(given)
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
