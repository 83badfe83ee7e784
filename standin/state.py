"""The stand-in's world: users, guilds, channels, threads, messages and their Discord payloads.

Everything here is plain data mutated only on the stand-in's event loop, so no locks are needed;
the driver reads it through snapshots taken on that loop. Payload builders follow the shapes that
discord.py 2.7 parses (``Guild._from_data``, ``Member``, ``Thread``, ``Message``), filling every key
it reads without a default.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

__all__ = [
    "ALL_PERMISSIONS",
    "Channel",
    "Guild",
    "Member",
    "Message",
    "Role",
    "User",
    "World",
    "iso_now",
]

DISCORD_EPOCH_MS = 1420070400000
ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
MANAGE_THREADS = discord.Permissions(manage_threads=True).value
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_application_commands=True,
    use_external_emojis=True,
    change_nickname=True,
).value
BOT_PERMISSIONS = (
    EVERYONE_PERMISSIONS
    | discord.Permissions(
        manage_messages=True,
        pin_messages=True,
        manage_threads=True,
        manage_webhooks=True,
        create_private_threads=True,
        mention_everyone=True,
    ).value
)
THREAD_TYPES = (10, 11, 12)
EPHEMERAL = 64
LOADING = 128


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Time-based ids like Discord's, strictly increasing within one stand-in."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last_ms = 0

    def next(self) -> int:
        ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last_ms)
        self._last_ms = ms
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)

    def on_shard(self, shard_id: int, count: int) -> int:
        """An id whose guild Discord routes to ``shard_id`` of ``count``:
        ``(id >> 22) % count == shard_id`` (the timestamp is moved forward a few ms)."""
        if not 0 <= shard_id < count:
            raise ValueError(f"shard {shard_id} is not one of {count}")
        ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last_ms + 1)
        ms += (shard_id - ms) % count
        self._last_ms = ms
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


@dataclass
class User:
    id: int
    name: str
    global_name: str | None = None
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name or self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    bot_id: int | None = None
    color: int = 0

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.bot_id is not None,
            "mentionable": True,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass
class Member:
    user: User
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Channel:
    """A guild channel, a thread (types 11/12) or a DM (type 1)."""

    id: int
    name: str
    type: int
    guild_id: int | None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    message_count: int = 0
    recipients: list[User] = field(default_factory=list)
    created_at: str = field(default_factory=iso_now)
    #: A forum's tags (``{"id", "name", "moderated", "emoji_id", "emoji_name"}``, at most 20)
    available_tags: list[dict[str, Any]] = field(default_factory=list)
    #: A forum post's tags: ids of its forum's ``available_tags`` (at most 5)
    applied_tags: list[int] = field(default_factory=list)
    #: A thread's members (user ids): who sees a private thread besides Manage Threads
    thread_members: set[int] = field(default_factory=set)
    invitable: bool = True  # private threads: whether non-moderators may add members

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self, *, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "flags": 0,
        }
        if self.type == 1:
            data.update(recipients=[u.payload() for u in self.recipients], last_message_id=None)
            data.pop("name")
            return data
        data.update(
            guild_id=str(self.guild_id),
            parent_id=str(self.parent_id) if self.parent_id else None,
            nsfw=False,
            rate_limit_per_user=0,
        )
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                member_count=1,
                message_count=self.message_count,
                total_message_sent=self.message_count,
                applied_tags=[str(tag) for tag in self.applied_tags],
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": self.created_at,
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": self.created_at,
                },
            )
        else:
            data.update(
                position=self.position, permission_overwrites=self.overwrites, topic=self.topic
            )
            if self.type in (0, 15):
                data["last_message_id"] = None
                data["default_auto_archive_duration"] = 1440
            if self.type == 15:
                data.update(
                    available_tags=[dict(tag) for tag in self.available_tags],
                    default_reaction_emoji=None,
                    default_sort_order=None,
                    default_forum_layout=0,
                    default_thread_rate_limit_per_user=0,
                )
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Message:
    """A stored message; ``data`` is exactly what a GET of it returns."""

    id: int
    channel_id: int
    data: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    ephemeral: bool = False
    source: str = "channel"  # interaction | followup | channel | webhook | user
    interaction_id: int | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    #: a session received its last event (MESSAGE_CREATE or _UPDATE): the bot may act on it
    delivered: bool = False


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str = "es-ES"
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    #: the server's boost level (0–3): what a message may upload grows with it
    premium_tier: int = 0

    def find_channel(self, name: str, *, types: tuple[int, ...] | None = None) -> Channel:
        for ch in self.channels.values():
            if ch.name == name and (types is None or ch.type in types):
                return ch
        raise KeyError(f"no channel named {name!r} in guild {self.name!r}")

    def find_member(self, name: str) -> Member:
        for m in self.members.values():
            if m.user.name == name or m.nick == name:
                return m
        raise KeyError(f"no member named {name!r} in guild {self.name!r}")

    def find_role(self, name: str) -> Role:
        for r in self.roles.values():
            if r.name == name:
                return r
        raise KeyError(f"no role named {name!r} in guild {self.name!r}")

    def base_permissions(self, member: Member) -> int:
        if member.id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.roles[self.id].permissions
        for role_id in member.roles:
            perms |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def permissions_in(self, member: Member, channel: Channel | None) -> int:
        """Discord's algorithm: base, then @everyone, role and member overwrites of the channel
        (a thread uses its parent's)."""
        perms = self.base_permissions(member)
        if perms == ALL_PERMISSIONS or channel is None:
            return perms
        if channel.is_thread and channel.parent_id:
            thread = channel
            channel = self.channels[channel.parent_id]
            perms = self.permissions_in(member, channel)
            # A private thread: only its members and those who may manage threads see it.
            if (
                thread.type == 12
                and member.id not in thread.thread_members
                and not perms & MANAGE_THREADS
            ):
                return 0
            return perms
        by_id = {int(o["id"]): o for o in channel.overwrites}
        if (ow := by_id.get(self.id)) is not None:
            perms = (perms & ~int(ow["deny"])) | int(ow["allow"])
        allow = deny = 0
        for role_id in member.roles:
            if (ow := by_id.get(role_id)) is not None:
                allow |= int(ow["allow"])
                deny |= int(ow["deny"])
        perms = (perms & ~deny) | allow
        if (ow := by_id.get(member.id)) is not None:
            perms = (perms & ~int(ow["deny"])) | int(ow["allow"])
        return perms if perms & VIEW_CHANNEL else 0

    def create_payload(self, *, joined: bool = False) -> dict[str, Any]:
        """The GUILD_CREATE body: every member is included, so discord.py sees it as chunked.

        ``joined``: the bot was just added to the guild.  Discord then leaves ``unavailable``
        out (it is ``false`` only for a guild of READY, or one back from an outage), and that is
        how discord.py tells ``on_guild_join`` from ``on_guild_available``."""
        plain = [c for c in self.channels.values() if not c.is_thread]
        threads = [c for c in self.channels.values() if c.is_thread and not c.archived]
        data = self.payload()
        data.update(
            joined_at=iso_now(),
            large=False,
            member_count=len(self.members),
            members=[m.payload() for m in self.members.values()],
            channels=[c.payload() for c in plain],
            threads=[c.payload() for c in threads],
            voice_states=[],
            presences=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
        )
        if not joined:
            data["unavailable"] = False
        return data

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": self.premium_tier,
            "premium_subscription_count": (0, 2, 7, 14)[self.premium_tier],
            "preferred_locale": self.locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "max_members": 500000,
            "features": [],
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
        }


class World:
    """All state of one stand-in, plus the hooks the gateway and the driver listen on."""

    def __init__(self, *, bot_name: str = "Árbitro", bot_id: int | None = None) -> None:
        self.ids = Snowflakes()
        self.bot = User(bot_id or self.ids.next(), bot_name, bot=True)
        self.owner = User(self.ids.next(), "propietaria")
        self.application_id = self.bot.id
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.webhooks: dict[int, dict[str, Any]] = {}
        self.avatars: dict[str, bytes] = {}  # webhook avatars set by PATCH, by hash
        self.blobs: dict[int, tuple[str, bytes]] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.unknown_requests: list[dict[str, Any]] = []
        self.rejections: list[dict[str, Any]] = []
        self.requests: list[tuple[float, str, str]] = []
        self.last_activity = time.monotonic()
        # A bot started through standin.launch reports when all its interaction work is over
        # (``/__standin/idle``); the interactions it names are then finished.
        self.idle_reports = False
        self.listeners: list[Any] = []  # callables (event, data) -> None, e.g. gateway sessions
        self.identified: dict[str, Any] | None = None
        self.base_url = ""
        # (author id, nonce) -> (monotonic time, message id): Discord's enforce_nonce window
        self.nonces: dict[tuple[int, str], tuple[float, int]] = {}
        # The privileged intents enabled in the Developer Portal (Bot → Privileged Gateway
        # Intents; standin.intents): a bot asking for another is disconnected with 4014.
        self.portal_intents = 0
        # Discord's webhook limits (standin.ratelimits): messages per webhook per window, and
        # webhook messages per channel per minute; every 429 answered is recorded.
        self.webhook_limit: tuple[int, float] = (5, 2.0)
        self.channel_webhook_limit: tuple[int, float] = (30, 60.0)
        self.rate_windows: dict[str, list[float]] = {}
        self.rate_limited: list[dict[str, Any]] = []
        # (event, message id) -> how many times the bot finished that event's work
        # (idle reports; standin.launch): a driver waits for the count to grow
        self.handled_messages: Counter[tuple[str, int]] = Counter()

    # -- dispatch ------------------------------------------------------------------------
    def dispatch(self, event: str, data: dict[str, Any]) -> bool:
        """Sends an event to every connected session; whether one of them received it (its
        shard serves the guild and its intents ask for that kind of event)."""
        received = False
        for listener in list(self.listeners):
            received = bool(listener(event, data)) or received
        return received

    def touch(self) -> None:
        self.last_activity = time.monotonic()

    # -- building ------------------------------------------------------------------------
    def add_user(self, name: str, *, user_id: int | None = None, bot: bool = False) -> User:
        user = User(user_id or self.ids.next(), name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, owner: User, *, guild_id: int | None = None) -> Guild:
        guild = Guild(guild_id or self.ids.next(), name, owner.id)
        guild.roles[guild.id] = Role(guild.id, "@everyone", EVERYONE_PERMISSIONS)
        bot_role = Role(
            self.ids.next(), self.bot.name, BOT_PERMISSIONS, position=1, bot_id=self.bot.id
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot.id] = Member(self.bot, roles=[bot_role.id])
        guild.members[owner.id] = Member(owner)
        self.guilds[guild.id] = guild
        return guild

    def add_channel(self, guild: Guild, name: str, type: int = 0, **kw: Any) -> Channel:
        channel_id = kw.pop("channel_id", None) or self.ids.next()
        channel = Channel(channel_id, name, type, guild.id, position=len(guild.channels), **kw)
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def bot_in(self, guild: Guild) -> bool:
        """Whether the bot is a member (a guild that removed it is not in READY)."""
        return self.bot.id in guild.members

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def upload_in(self, guild_id: int | str | None) -> int:
        """What one message may upload in this guild (its boost level; DMs: unboosted)."""
        from standin.limits import upload_limit

        guild = self.guilds.get(int(guild_id)) if guild_id else None
        return upload_limit(guild.premium_tier if guild is not None else 0)

    def blob_url(self, blob_id: int, filename: str) -> str:
        return f"{self.base_url}/attachments/{blob_id}/{filename}"

    def store_blob(self, filename: str, content: bytes) -> dict[str, Any]:
        blob_id = self.ids.next()
        self.blobs[blob_id] = (filename, content)
        url = self.blob_url(blob_id, filename)
        return {
            "id": str(blob_id),
            "filename": filename,
            "size": len(content),
            "url": url,
            "proxy_url": url,
            "content_type": _guess_type(filename),
        }


def _guess_type(filename: str) -> str:
    import mimetypes

    return mimetypes.guess_type(filename)[0] or "application/octet-stream"
