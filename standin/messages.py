"""Creating, editing and deleting stored messages, and telling the gateway about it.

One place builds message payloads so that interaction responses, follow-ups, channel messages,
webhook posts and forum starters all look the same to discord.py and to the driver.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import Any

from .state import EPHEMERAL, Channel, Message, World, iso_now

__all__ = ["create_message", "delete_message", "edit_message", "message_event"]

_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
_EVERYONE = re.compile(r"@(?:everyone|here)\b")


def _attachments(
    world: World, body: dict[str, Any], files: Sequence[tuple[str, bytes]]
) -> tuple[list[dict[str, Any]], dict[str, bytes]]:
    """Pairs uploaded files with the ``attachments`` entries (by index) the body declares."""
    declared = {str(a.get("id")): a for a in body.get("attachments") or []}
    out: list[dict[str, Any]] = []
    stored: dict[str, bytes] = {}
    for index, (filename, content) in enumerate(files):
        meta = declared.get(str(index), {})
        name = meta.get("filename") or filename
        data = world.store_blob(name, content)
        if meta.get("description"):
            data["description"] = meta["description"]
        out.append(data)
        stored[name] = content
    return out, stored


def _mentions(
    world: World, channel: Channel, content: str, allowed: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``mentions``, ``mention_roles`` and ``mention_everyone`` as Discord computes them: from
    the content only (never embeds), filtered by the request's ``allowed_mentions``.

    Without ``allowed_mentions`` Discord parses everything; with it, a user (role) is
    mentioned only if ``parse`` has ``"users"`` (``"roles"``) or its id is listed, and
    ``@everyone``/``@here`` only if ``parse`` has ``"everyone"``.  What is not mentioned
    notifies nobody: this is what tests of pings look at.
    """
    if allowed is None:
        parse, users, roles = {"users", "roles", "everyone"}, set(), set()
    else:
        parse = set(allowed.get("parse") or ())
        users = {int(u) for u in allowed.get("users") or ()}
        roles = {int(r) for r in allowed.get("roles") or ()}
    guild = world.guild_of(channel)
    found = []
    for uid in dict.fromkeys(int(m) for m in _MENTION.findall(content or "")):
        if "users" not in parse and uid not in users:
            continue
        if guild is not None and uid in guild.members:
            member = guild.members[uid]
            found.append({**member.user.payload(), "member": member.payload(with_user=False)})
        elif uid in world.users:
            found.append(world.users[uid].payload())
    mention_roles = [
        str(rid)
        for rid in dict.fromkeys(int(m) for m in _ROLE_MENTION.findall(content or ""))
        if guild is not None and rid in guild.roles and ("roles" in parse or rid in roles)
    ]
    return {
        "mentions": found,
        "mention_roles": mention_roles,
        "mention_everyone": "everyone" in parse and bool(_EVERYONE.search(content or "")),
    }


def message_event(world: World, msg: Message, event: str) -> bool:
    """Sends MESSAGE_CREATE/UPDATE to the sessions whose intents ask for it, as each may see
    it (:mod:`standin.intents`), never for ephemerals; whether one received it."""
    if msg.ephemeral:
        return False
    return world.dispatch(event, copy.deepcopy(msg.data))


def create_message(
    world: World,
    channel: Channel,
    body: dict[str, Any],
    files: Sequence[tuple[str, bytes]] = (),
    *,
    author: dict[str, Any] | None = None,
    source: str = "channel",
    interaction: Any = None,
    message_id: int | None = None,
    extra_flags: int = 0,
    extra: dict[str, Any] | None = None,
) -> Message:
    attachments, stored = _attachments(world, body, list(files))
    flags = int(body.get("flags") or 0) | extra_flags
    msg_id = message_id or world.ids.next()
    data: dict[str, Any] = {
        "id": str(msg_id),
        "channel_id": str(channel.id),
        "author": author or world.bot.payload(),
        "content": body.get("content") or "",
        "timestamp": iso_now(),
        "edited_timestamp": None,
        "tts": bool(body.get("tts")),
        **_mentions(world, channel, body.get("content") or "", body.get("allowed_mentions")),
        "mention_channels": [],
        "attachments": attachments,
        "embeds": body.get("embeds") or [],
        "reactions": [],
        "pinned": False,
        "type": 0,
        "flags": flags,
        "components": body.get("components") or [],
    }
    if channel.guild_id:
        data["guild_id"] = str(channel.guild_id)
    if interaction is not None:
        data["application_id"] = str(world.application_id)
        data["webhook_id"] = str(world.application_id)
        payload = interaction.payload
        user = (payload.get("member") or {}).get("user") or payload.get("user")
        data["type"] = 20 if interaction.type == 2 and source == "interaction" else 0
        data["interaction_metadata"] = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": user,
            "authorizing_integration_owners": payload.get("authorizing_integration_owners", {}),
        }
    data.update(extra or {})
    if body.get("message_reference"):
        # Discord answers with snowflakes as strings, whatever type the request used
        reference = dict(body["message_reference"])
        for key in ("message_id", "channel_id", "guild_id"):
            if reference.get(key) is not None:
                reference[key] = str(reference[key])
        data["message_reference"] = reference
        data["type"] = 19
    msg = Message(
        msg_id,
        channel.id,
        data,
        files=stored,
        ephemeral=bool(flags & EPHEMERAL),
        source=source,
        interaction_id=interaction.id if interaction is not None else None,
    )
    world.messages[msg_id] = msg
    if channel.is_thread:
        channel.message_count += 1
        channel.archived = False
    msg.delivered = message_event(world, msg, "MESSAGE_CREATE")
    return msg


def edit_message(
    world: World, msg: Message, body: dict[str, Any], files: Sequence[tuple[str, bytes]] = ()
) -> Message:
    """Applies a PATCH: present keys replace, ``attachments`` lists the ones to keep."""
    msg.history.append(copy.deepcopy(msg.data))
    data = msg.data
    for key in ("content", "embeds", "components"):
        if key in body:
            data[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
    if "content" in body:
        channel = world.channels[msg.channel_id]
        data.update(_mentions(world, channel, data["content"], body.get("allowed_mentions")))
    if "flags" in body and body["flags"] is not None:
        editable = 4 | (1 << 15)  # SUPPRESS_EMBEDS, IS_COMPONENTS_V2: the rest is fixed at creation
        data["flags"] = (int(data["flags"]) & ~editable) | (int(body["flags"]) & editable)
    if "attachments" in body or files:
        keep = {str(a.get("id")) for a in body.get("attachments") or []}
        kept = (
            [a for a in data["attachments"] if a["id"] in keep]
            if "attachments" in body
            else data["attachments"]
        )
        msg.files = {a["filename"]: msg.files.get(a["filename"], b"") for a in kept}
        new, stored = _attachments(world, body, list(files))
        data["attachments"] = kept + new
        msg.files.update(stored)
    data["edited_timestamp"] = iso_now()
    msg.delivered = message_event(world, msg, "MESSAGE_UPDATE")
    return msg


def delete_message(world: World, msg: Message) -> bool:
    """Deletes a message and, as Discord does, its attachments (their links stop working);
    MESSAGE_DELETE goes to the sessions that receive message events.  Whether one did."""
    msg.deleted = True
    for attachment in msg.data.get("attachments") or []:
        world.blobs.pop(int(attachment["id"]), None)
    if msg.ephemeral:
        return False
    event = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
    if msg.data.get("guild_id"):
        event["guild_id"] = msg.data["guild_id"]
    return world.dispatch("MESSAGE_DELETE", event)
