"""Sample guilds and the handles tests use to look into and change them.

Handles hold ids and names only; every read or change runs on the stand-in's loop through the
``Sandbox``, and changes are announced to the bot over the gateway as Discord would.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .messages import create_message, delete_message, edit_message
from .replies import Msg, msg_from
from .state import ADMINISTRATOR, Channel, Guild, Member, Role, World

if TYPE_CHECKING:
    from .client import Sandbox

__all__ = ["ChannelRef", "GuildHandle", "MemberRef", "RoleRef", "build_sample_guild", "cref"]
MASTER_PERMISSIONS = (1 << 13) | (1 << 34) | (1 << 40)  # manage messages, manage threads, moderate
SEND_MESSAGES, SEND_IN_THREADS, ATTACH_FILES, MANAGE_THREADS = 1 << 11, 1 << 38, 1 << 15, 1 << 34


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


def cref(ch: Channel) -> ChannelRef:
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
            lambda: cref(self._guild().find_channel(name, types=(0, 5, 15, 11, 12)))
        )

    def category(self, name: str) -> ChannelRef:
        return self._sb._run(lambda: cref(self._guild().find_channel(name, types=(4,))))

    def member(self, name: str) -> MemberRef:
        return self._sb._run(lambda: MemberRef(self._guild().find_member(name).id, name))

    def role(self, name: str) -> RoleRef:
        return self._sb._run(lambda: RoleRef(self._guild().find_role(name).id, name))

    def remove_bot(self) -> None:
        """The server removes the bot (kick, or the owner removes the app): GUILD_DELETE.

        Discord then stops delivering the guild's interactions; the guild itself and its
        channels and members stay, so :meth:`add_bot` can bring the bot back to them.
        """

        def remove() -> None:
            guild, world = self._guild(), self._sb.world
            guild.members.pop(world.bot.id, None)
            world.dispatch("GUILD_DELETE", {"id": str(guild.id)})

        self._sb._run(remove)

    def add_bot(self) -> None:
        """The owner invites the bot again: it is a member with its role, and GUILD_CREATE."""

        def add() -> None:
            guild, world = self._guild(), self._sb.world
            roles = [r.id for r in guild.roles.values() if r.bot_id == world.bot.id]
            guild.members[world.bot.id] = Member(world.bot, roles=roles)
            world.dispatch("GUILD_CREATE", guild.create_payload(joined=True))

        self._sb._run(add)

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
            return cref(channel)

        return self._sb._run(add)

    def thread(self, channel: str, name: str, *, user: str = "gm") -> ChannelRef:
        """A public thread a user opened in a text channel."""

        def add() -> ChannelRef:
            guild, world = self._guild(), self._sb.world
            parent = guild.find_channel(channel, types=(0, 5))
            owner = guild.find_member(user)
            thread = world.add_channel(guild, name, 11, parent_id=parent.id, owner_id=owner.id)
            thread.thread_members.add(owner.id)
            world.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
            return cref(thread)

        return self._sb._run(add)

    def grant_bot(self, permissions: int, *, revoke: bool = False) -> None:
        """Adds (or with ``revoke`` removes) Discord permission bits on the bot's role
        (GUILD_ROLE_UPDATE)."""

        def grant() -> None:
            guild, world = self._guild(), self._sb.world
            role = next(r for r in guild.roles.values() if r.bot_id == world.bot.id)
            if revoke:
                role.permissions &= ~permissions
            else:
                role.permissions |= permissions
            world.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()})

        self._sb._run(grant)

    def deny_bot_in(self, channel: str, permissions: int) -> None:
        """A member overwrite on ``channel`` denying the bot those bits (CHANNEL_UPDATE)."""

        def deny() -> None:
            guild, world = self._guild(), self._sb.world
            target = guild.find_channel(channel)
            target.overwrites.append(
                {"id": str(world.bot.id), "type": 1, "allow": "0", "deny": str(permissions)}
            )
            world.dispatch("CHANNEL_UPDATE", target.payload())

        self._sb._run(deny)

    def add_forum_tag(self, forum: str, name: str) -> str:
        """A moderator adds a tag to a forum (CHANNEL_UPDATE); returns its id."""

        def add() -> str:
            guild, world = self._guild(), self._sb.world
            channel = guild.find_channel(forum, types=(15,))
            tag_id = str(world.ids.next())
            channel.available_tags.append(
                {
                    "id": tag_id,
                    "name": name,
                    "moderated": False,
                    "emoji_id": None,
                    "emoji_name": None,
                }
            )
            world.dispatch("CHANNEL_UPDATE", channel.payload())
            return tag_id

        return self._sb._run(add)

    def forum_tags(self, forum: str) -> dict[str, str]:
        """A forum's tags, id → name."""

        def read() -> dict[str, str]:
            channel = self._guild().find_channel(forum, types=(15,))
            return {str(tag["id"]): str(tag["name"]) for tag in channel.available_tags}

        return self._sb._run(read)

    def thread_state(self, thread_id: int) -> dict[str, object]:
        """A thread as Discord stores it: type, archived, locked, applied tag names, members."""

        def read() -> dict[str, object]:
            world = self._sb.world
            thread = world.channels[thread_id]
            parent = world.channels.get(thread.parent_id or 0)
            names = {str(t["id"]): t["name"] for t in (parent.available_tags if parent else [])}
            return {
                "type": thread.type,
                "name": thread.name,
                "archived": thread.archived,
                "locked": thread.locked,
                "tags": [names.get(str(tag), str(tag)) for tag in thread.applied_tags],
                "members": {world.users[uid].name for uid in thread.thread_members},
                "invitable": thread.invitable,
            }

        return self._sb._run(read)

    def say(self, channel: ChannelRef | str, text: str, *, user: str = "ana") -> bool:
        """A member writes a plain message; ``False`` when Discord would refuse it (no Send
        permission, or a locked thread and no Manage Threads).  See :meth:`write`."""
        return self.write(channel, text, user=user) is not None

    def write(
        self,
        channel: ChannelRef | str,
        text: str,
        *,
        user: str = "ana",
        files: tuple[tuple[str, bytes], ...] | list[tuple[str, bytes]] = (),
        reply_to: Msg | int | None = None,
    ) -> Msg | None:
        """A member writes a message, as the Discord client sends it: MESSAGE_CREATE with
        ``member``, ``mentions`` parsed from the text, ``files`` as attachments (any size: a
        member's upload limit is not the bot's), and for a reply ``message_reference`` with
        the ``referenced_message``.  Returns the message as stored (what the other members
        see), or None when Discord would refuse it.  When the bot received the event (its
        intents ask for messages), waits until the bot has finished what it does about it."""

        written, delivered = self._sb._run(
            lambda: self._create(channel, text, user=user, files=files, reply_to=reply_to)
        )
        if written is not None and delivered:
            self._sb.wait_for_messages([("MESSAGE_CREATE", written.id, 1)])
        return written

    def write_together(
        self, messages: list[tuple[ChannelRef | str, str, str]], *, wait: bool = True
    ) -> list[Msg]:
        """Several members write at the same instant: every (channel, text, user) is created
        in one step of the stand-in's loop, in order, then this waits until the bot has
        finished with all of them (a burst: two players typing at once, a benchmark).  With
        ``wait=False`` it returns at once (the members act on them while the bot works: wait
        with ``sb.wait_for_messages`` and their MESSAGE_CREATE)."""

        def make() -> list[tuple[Msg | None, bool]]:
            return [self._create(c, text, user=user) for c, text, user in messages]

        made = self._sb._run(make)
        if any(m is None for m, _ in made):
            raise PermissionError("Discord would refuse one of these messages")
        if wait:
            self._sb.wait_for_messages(
                [("MESSAGE_CREATE", m.id, 1) for m, ok in made if m is not None and ok]
            )
        return [m for m, _ in made if m is not None]

    def _create(
        self,
        channel: ChannelRef | str,
        text: str,
        *,
        user: str,
        files: tuple[tuple[str, bytes], ...] | list[tuple[str, bytes]] = (),
        reply_to: Msg | int | None = None,
    ) -> tuple[Msg | None, bool]:
        """On the stand-in's loop: the member's message as :meth:`write` describes it, and
        whether a session received its MESSAGE_CREATE."""
        guild, world = self._guild(), self._sb.world
        target = (
            world.channels[channel.id]
            if isinstance(channel, ChannelRef)
            else guild.find_channel(channel)
        )
        member = guild.find_member(user)
        perms = guild.permissions_in(member, target)
        needed = SEND_IN_THREADS if target.is_thread else SEND_MESSAGES
        if not perms & needed or (target.locked and not perms & MANAGE_THREADS):
            return None, False
        if files and not perms & ATTACH_FILES:
            return None, False
        if target.archived:
            target.archived = False
            world.dispatch("THREAD_UPDATE", target.payload())
        body: dict[str, Any] = {"content": text}
        extra: dict[str, Any] = {"member": member.payload(with_user=False)}
        if reply_to is not None:
            ref_id = reply_to if isinstance(reply_to, int) else reply_to.id
            referenced = world.messages[ref_id]
            body["message_reference"] = {
                "type": 0,
                "message_id": str(ref_id),
                "channel_id": str(referenced.channel_id),
                "guild_id": str(guild.id),
            }
            extra["referenced_message"] = dict(referenced.data)
        msg = create_message(
            world,
            target,
            body,
            list(files),
            author={**member.user.payload(), "bot": False},
            source="user",
            extra=extra,
        )
        return msg_from(msg), msg.delivered

    def another_bot_says(self, channel: ChannelRef, text: str, *, webhook: bool = True) -> Msg:
        """Another bot writes in ``channel``: through a webhook of its own (Tupperbox and
        PluralKit post so) or as its bot user; waits for the bot as :meth:`write`."""

        def make() -> tuple[Msg, bool]:
            world, guild = self._sb.world, self._guild()
            target = world.channels[channel.id]
            member = next((m for m in guild.members.values() if m.name == "Tupperbox"), None)
            if member is None:  # a bot member of the server, as an invited bot is
                member = Member(world.add_user("Tupperbox", bot=True))
                guild.members[member.id] = member
            author = {**member.user.payload(), "bot": True}
            extra: dict[str, Any] = {"member": member.payload(with_user=False)}
            if webhook:
                hook_id = str(world.ids.next())
                author = {"id": hook_id, "username": "Ardelia", "bot": True, "discriminator": "0000",
                          "avatar": None, "global_name": None}  # fmt: skip
                extra["webhook_id"] = hook_id
            msg = create_message(
                world, target, {"content": text}, author=author, source="webhook", extra=extra
            )
            return msg_from(msg), msg.delivered

        said, delivered = self._sb._run(make)
        if delivered:
            self._sb.wait_for_messages([("MESSAGE_CREATE", said.id, 1)])
        return said

    def edit(self, message: Msg, text: str, *, user: str = "ana", wait: bool = True) -> Msg:
        """The member edits their message (MESSAGE_UPDATE); waits for the bot as :meth:`write`
        (``wait=False``: not)."""

        def change() -> tuple[Msg, bool, tuple[str, int, int]]:
            world = self._sb.world
            msg = world.messages[message.id]
            member = self._guild().find_member(user)
            if str(msg.data["author"]["id"]) != str(member.id):
                raise PermissionError("a member edits only their own messages")
            expected = self._sb.expect_message_event("MESSAGE_UPDATE", msg.id)
            edit_message(world, msg, {"content": text})
            return msg_from(msg), msg.delivered, expected

        edited, delivered, expected = self._sb._run(change)
        if delivered and wait:
            self._sb.wait_for_messages([expected])
        return edited

    def delete(self, message: Msg, *, user: str = "ana", wait: bool = True) -> None:
        """The member deletes their message (MESSAGE_DELETE; its attachments go with it);
        waits for the bot as :meth:`write` (``wait=False``: not)."""

        def remove() -> tuple[bool, tuple[str, int, int]]:
            world = self._sb.world
            msg = world.messages[message.id]
            member = self._guild().find_member(user)
            if str(msg.data["author"]["id"]) != str(member.id):
                raise PermissionError("a member deletes only their own messages here")
            expected = self._sb.expect_message_event("MESSAGE_DELETE", msg.id)
            return delete_message(world, msg), expected

        delivered, expected = self._sb._run(remove)
        if delivered and wait:
            self._sb.wait_for_messages([expected])

    def attachment(self, url: str) -> bytes | None:
        """What an attachment link serves now (None: deleted with its message)."""
        blob_id = int(url.rstrip("/").split("/")[-2])
        found = self._sb._run(lambda: self._sb.world.blobs.get(blob_id))
        return found[1] if found else None

    def forum_post(
        self, forum: str, title: str, *, user: str = "gm", content: str | None = None
    ) -> ChannelRef:
        """A forum post (a thread whose starter message has the thread's id), by a user."""

        def add() -> ChannelRef:
            guild, world = self._guild(), self._sb.world
            parent = guild.find_channel(forum, types=(15,))
            owner = guild.find_member(user)
            thread = world.add_channel(guild, title, 11, parent_id=parent.id, owner_id=owner.id)
            thread.thread_members.add(owner.id)
            world.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
            author = {**owner.user.payload(), "bot": False}
            create_message(
                world,
                thread,
                {"content": content or title},
                author=author,
                source="user",
                message_id=thread.id,
                extra={"member": owner.payload(with_user=False)},  # as every guild message
            )
            return cref(thread)

        return self._sb._run(add)

    def deny_bot(self, channel: str, permissions: int) -> None:
        """A channel overwrite denying the bot ``permissions`` (Discord's bit field) there,
        e.g. Manage Webhooks (``1 << 29``): CHANNEL_UPDATE."""

        def deny() -> None:
            guild, world = self._guild(), self._sb.world
            target = guild.find_channel(channel)
            target.overwrites = [o for o in target.overwrites if o["id"] != str(world.bot.id)] + [
                {"id": str(world.bot.id), "type": 1, "allow": "0", "deny": str(permissions)}
            ]
            world.dispatch("CHANNEL_UPDATE", target.payload())

        self._sb._run(deny)

    def allow_bot(self, channel: str) -> None:
        """Removes the bot's own overwrite in ``channel`` (undoes :meth:`deny_bot`)."""

        def allow() -> None:
            guild, world = self._guild(), self._sb.world
            target = guild.find_channel(channel)
            target.overwrites = [o for o in target.overwrites if o["id"] != str(world.bot.id)]
            world.dispatch("CHANNEL_UPDATE", target.payload())

        self._sb._run(allow)

    def webhooks(self, channel: str) -> list[dict[str, Any]]:
        """The webhooks of ``channel`` (what Discord's channel settings list)."""

        def collect() -> list[dict[str, Any]]:
            target = self._guild().find_channel(channel)
            hooks = self._sb.world.webhooks.values()
            return [dict(h) for h in hooks if h["channel_id"] == str(target.id)]

        return self._sb._run(collect)

    def delete_webhooks(self, channel: str) -> None:
        """A member deletes the channel's webhooks by hand (channel settings → Integrations)."""

        def remove() -> None:
            target = self._guild().find_channel(channel)
            world = self._sb.world
            for hook_id in [
                i for i, h in world.webhooks.items() if h["channel_id"] == str(target.id)
            ]:
                del world.webhooks[hook_id]

        self._sb._run(remove)

    def avatar(self, avatar_hash: str) -> bytes:
        """The image a webhook avatar hash names (set by PATCH on the webhook)."""
        return self._sb._run(lambda: self._sb.world.avatars[avatar_hash])
