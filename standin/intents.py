"""Gateway intents as Discord applies them: which events a session receives, what the
Developer Portal must allow, and what a message looks like to a bot without Message Content.

Discord's rules, modelled here:

* an IDENTIFY asking for a *privileged* intent (Server Members, Presence, Message Content)
  the application has not enabled in the Developer Portal is closed with code 4014
  ("Disallowed intent(s)"), before READY;
* MESSAGE_CREATE, MESSAGE_UPDATE and MESSAGE_DELETE reach a session only with
  GUILD_MESSAGES (messages in a server) or DIRECT_MESSAGES (in a DM);
* without MESSAGE_CONTENT a message's ``content``, ``embeds``, ``attachments``,
  ``components`` and ``poll`` arrive empty, except in the bot's own messages, in DMs and in
  messages that mention the bot (the same holds for messages read over REST).
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = [
    "DIRECT_MESSAGES",
    "GUILD_MESSAGES",
    "MESSAGE_CONTENT",
    "MESSAGE_EVENTS",
    "PRIVILEGED",
    "as_seen",
    "disallowed",
]

GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
MESSAGE_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE")
#: What a bot without Message Content gets instead of each field.
_BLANKED: dict[str, Any] = {"content": "", "embeds": [], "attachments": [], "components": []}


def disallowed(requested: int, enabled_in_portal: int) -> int:
    """The privileged intents of ``requested`` the portal does not allow (0: none)."""
    return requested & PRIVILEGED & ~enabled_in_portal


def _content_visible(data: dict[str, Any], intents: int, bot_id: int) -> bool:
    if intents & MESSAGE_CONTENT or not data.get("guild_id"):
        return True
    if str((data.get("author") or {}).get("id")) == str(bot_id):
        return True
    return any(str(user.get("id")) == str(bot_id) for user in data.get("mentions") or [])


def as_seen(event: str, data: dict[str, Any], intents: int, bot_id: int) -> dict[str, Any] | None:
    """The message event as a session with ``intents`` receives it, or None when it does not.

    Other events pass through unchanged (their own filtering is the gateway's)."""
    if event not in MESSAGE_EVENTS:
        return data
    needed = GUILD_MESSAGES if data.get("guild_id") else DIRECT_MESSAGES
    if not intents & needed:
        return None
    if event == "MESSAGE_DELETE" or _content_visible(data, intents, bot_id):
        return data
    seen = copy.deepcopy(data)
    seen.update(copy.deepcopy(_BLANKED))
    seen.pop("poll", None)
    referenced = seen.get("referenced_message")
    if isinstance(referenced, dict) and not _content_visible(referenced, intents, bot_id):
        seen["referenced_message"] = {**referenced, **copy.deepcopy(_BLANKED)}
    return seen


def blank_for_rest(data: dict[str, Any], intents: int, bot_id: int) -> dict[str, Any]:
    """A message read over REST by a bot with ``intents`` (the same fields are emptied)."""
    seen = as_seen("MESSAGE_CREATE", data, intents | GUILD_MESSAGES | DIRECT_MESSAGES, bot_id)
    assert seen is not None  # the message intents were added: it is always seen
    return seen
