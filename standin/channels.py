"""REST routes for channels, messages, threads, forum posts and webhooks.

Writes check the bot's own permissions in the channel (403, code 50013) and Discord's message
limits (400, code 50035), as Discord would. Interaction follow-ups share the webhook routes with
character webhooks: the application id as webhook id tells them apart.
"""

from __future__ import annotations

import base64
import hashlib
import re
import time
from typing import Any

from aiohttp import web

from .callbacks import Callbacks
from .httputil import discord_error, json_response, no_content, read_body
from .intents import blank_for_rest
from .limits import check_message, status_of
from .messages import create_message, delete_message, edit_message
from .ratelimits import check_webhook_limits
from .state import Channel, Guild, Message, World

__all__ = ["ChannelRoutes"]

NONCE_WINDOW_SECONDS = 300  # Discord: "checked for uniqueness in the past few minutes"

SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
SEND_IN_THREADS = 1 << 38
CREATE_PUBLIC_THREADS, CREATE_PRIVATE_THREADS = 1 << 35, 1 << 36
MANAGE_WEBHOOKS = 1 << 29
MANAGE_CHANNELS, MANAGE_THREADS, PIN_MESSAGES = 1 << 4, 1 << 34, 1 << 51
MAX_PINS = 50  # Discord: "Maximum number of pinned messages reached (50)", code 30003
MAX_AVAILABLE_TAGS, MAX_APPLIED_TAGS, MAX_TAG_NAME = 20, 5, 20


def invalid_form(field: str, message: str) -> web.Response:
    """Discord's 400 "Invalid Form Body" (code 50035) for one field."""
    return json_response(
        {
            "code": 50035,
            "message": "Invalid Form Body",
            "errors": {field: {"_errors": [{"code": "BASE_TYPE_INVALID", "message": message}]}},
        },
        400,
    )


#: Discord refuses webhook names (and per-message usernames) containing these, in any case.
REFUSED_WEBHOOK_WORDS = ("clyde", "discord")
#: Discord: a webhook's name is 1 to 80 characters.
WEBHOOK_NAME_LIMIT = 80
_IMAGE_DATA = re.compile(r"^data:image/(png|jpeg|jpg|gif|webp);base64,([A-Za-z0-9+/=]+)$")


def _form_error(field: str, code: str, message: str) -> web.Response:
    return json_response(
        {
            "code": 50035,
            "message": "Invalid Form Body",
            "errors": {field: {"_errors": [{"code": code, "message": message}]}},
        },
        400,
    )


def webhook_name_problem(field: str, name: Any) -> web.Response | None:
    """Discord's refusal of a webhook name or ``username``: 1-80 characters, and never one
    containing "clyde" or "discord" (400, code 50035)."""
    if not isinstance(name, str) or not 1 <= len(name) <= WEBHOOK_NAME_LIMIT:
        return _form_error(
            field, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {WEBHOOK_NAME_LIMIT} in length."
        )
    folded = name.casefold()
    for word in REFUSED_WEBHOOK_WORDS:
        if word in folded:
            return _form_error(
                field, "USERNAME_INVALID_CONTAINS", f'Username cannot contain "{word}"'
            )
    return None


class ChannelRoutes:
    def __init__(self, world: World, callbacks: Callbacks) -> None:
        self.world = world
        self.cb = callbacks

    # -- helpers ---------------------------------------------------------------------------
    def _channel(self, request: web.Request) -> Channel | None:
        return self.world.channels.get(int(request.match_info["cid"]))

    def _guild(self, request: web.Request) -> Guild | None:
        return self.world.guilds.get(int(request.match_info["gid"]))

    def _bot_perms(self, channel: Channel) -> int:
        guild = self.world.guild_of(channel)
        if guild is None:
            return SEND_MESSAGES
        return guild.permissions_in(guild.members[self.world.bot.id], channel)

    def _refuse(self, what: str, resp: web.Response, body: Any = None) -> web.Response:
        self.world.rejections.append(
            {"request": what, "status": resp.status, "body": body, "error": resp.text}
        )
        return resp

    @staticmethod
    async def ok(request: web.Request) -> web.Response:
        return no_content()

    # -- webhooks (interaction follow-ups and character webhooks) ------------------------------
    async def create_webhook(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await read_body(request)
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        if not self._bot_perms(channel) & MANAGE_WEBHOOKS:
            return self._refuse(
                "create webhook", discord_error(403, 50013, "Missing Permissions"), body
            )
        if problem := webhook_name_problem("name", body.get("name") or "Capitán Hook"):
            return self._refuse("create webhook", problem, body)
        hook_id = self.world.ids.next()
        hook = {
            "id": str(hook_id),
            "type": 1,
            "guild_id": str(channel.guild_id),
            "channel_id": str(channel.id),
            "name": body.get("name") or "Capitán Hook",
            "avatar": None,
            "token": f"hook{hook_id}",
            "application_id": str(self.world.application_id),
            "user": self.world.bot.payload(),
        }
        self.world.webhooks[hook_id] = hook
        return json_response(hook)

    async def channel_webhooks(self, request: web.Request) -> web.Response:
        cid = request.match_info["cid"]
        return json_response([h for h in self.world.webhooks.values() if h["channel_id"] == cid])

    async def guild_webhooks(self, request: web.Request) -> web.Response:
        gid = request.match_info["gid"]
        return json_response([h for h in self.world.webhooks.values() if h["guild_id"] == gid])

    async def get_webhook(self, request: web.Request) -> web.Response:
        hook = self.world.webhooks.get(int(request.match_info["wid"]))
        if hook is None:
            return discord_error(404, 10015, "Unknown Webhook")
        return json_response(hook)

    async def delete_webhook(self, request: web.Request) -> web.Response:
        self.world.webhooks.pop(int(request.match_info["wid"]), None)
        return no_content()

    async def modify_webhook(self, request: web.Request) -> web.Response:
        """PATCH a webhook: its name and its own avatar (Discord "image data": a base64
        ``data:image/...`` URI, stored and named by its hash like Discord's avatar hashes)."""
        hook = self.world.webhooks.get(int(request.match_info["wid"]))
        body, _ = await read_body(request)
        token = request.match_info.get("token")
        if hook is None or (token is not None and hook["token"] != token):
            return self._refuse(
                "modify webhook", discord_error(404, 10015, "Unknown Webhook"), body
            )
        if token is None:
            channel = self.world.channels.get(int(hook["channel_id"]))
            if channel is None or not self._bot_perms(channel) & MANAGE_WEBHOOKS:
                return self._refuse(
                    "modify webhook", discord_error(403, 50013, "Missing Permissions"), body
                )
        if "name" in body and (problem := webhook_name_problem("name", body["name"])):
            return self._refuse("modify webhook", problem, body)
        if "avatar" in body:
            if body["avatar"] is None:
                hook["avatar"] = None
            else:
                found = _IMAGE_DATA.match(str(body["avatar"]))
                if found is None:
                    return self._refuse(
                        "modify webhook",
                        _form_error("avatar", "IMAGE_INVALID", "Invalid image data"),
                        body,
                    )
                data = base64.b64decode(found.group(2))
                digest = hashlib.sha256(data).hexdigest()[:32]
                self.world.avatars[digest] = data
                hook["avatar"] = digest
        if "name" in body:
            hook["name"] = body["name"]
        self.world.touch()
        return json_response(hook)

    async def execute_webhook(self, request: web.Request) -> web.Response:
        token, wid = request.match_info["token"], int(request.match_info["wid"])
        if wid == self.world.application_id:
            rec = self.cb.record_for(token)
            if rec is None:
                return self._refuse("followup", discord_error(404, 10015, "Unknown Webhook"))
            return await self.cb.followup(request, rec)
        hook = self.world.webhooks.get(wid)
        body, files = await read_body(request)
        if hook is None or hook["token"] != token:
            return self._refuse(
                "execute webhook", discord_error(404, 10015, "Unknown Webhook"), body
            )
        if problem := check_message(body, files=files):
            return self._refuse("execute webhook", json_response(problem, status_of(problem)), body)
        if body.get("username") is not None and (
            refused := webhook_name_problem("username", body["username"])
        ):
            return self._refuse("execute webhook", refused, body)
        channel = self.world.channels[int(hook["channel_id"])]
        thread_id = request.query.get("thread_id")
        if thread_id:
            thread = self.world.channels.get(int(thread_id))
            if thread is None or thread.parent_id != int(hook["channel_id"]):
                return self._refuse(
                    "execute webhook", discord_error(400, 10003, "Unknown Channel"), body
                )
            channel = thread
            if thread.locked:
                # Discord: a webhook cannot unarchive (nor post in) a locked thread; only a
                # member with Manage Threads can, and a webhook has no permissions
                return self._refuse(
                    "execute webhook", discord_error(400, 50083, "Thread is archived"), body
                )
        elif channel.type == 15:
            if not body.get("thread_name"):
                err = discord_error(
                    400,
                    220001,
                    "Webhooks posted to forum channels must have a thread_name or thread_id",
                )
                return self._refuse("execute webhook", err, body)
            channel = self._new_thread(channel, body["thread_name"], 11)
            self.world.dispatch("THREAD_CREATE", {**channel.payload(), "newly_created": True})
        limited, limit_headers = check_webhook_limits(self.world, wid, channel.id)
        if limited is not None:
            return limited
        author = {
            "id": hook["id"],
            "username": body.get("username") or hook["name"],
            "avatar": hook.get("avatar"),  # the webhook's own avatar when the message was sent
            "discriminator": "0000",
            "bot": True,
            "global_name": None,
        }
        if body.get("avatar_url"):
            author["avatar_url"] = body["avatar_url"]
        starter_id = channel.id if channel.message_count == 0 and channel.is_thread else None
        msg = create_message(
            self.world,
            channel,
            body,
            files,
            author=author,
            source="webhook",
            extra={"webhook_id": hook["id"]},
            message_id=starter_id if not thread_id else None,
        )
        self.world.touch()
        if request.query.get("wait", "").lower() in ("true", "1"):
            answer = json_response(msg.data)
        else:
            answer = no_content()
        answer.headers.update(limit_headers)
        return answer

    async def webhook_message(self, request: web.Request) -> web.Response:
        token, wid = request.match_info["token"], int(request.match_info["wid"])
        if wid == self.world.application_id:
            rec = self.cb.record_for(token)
            if rec is None:
                return self._refuse("webhook message", discord_error(404, 10015, "Unknown Webhook"))
            return await self.cb.message(request, rec)
        hook = self.world.webhooks.get(wid)
        msg = (
            self.world.messages.get(int(request.match_info["mid"]))
            if request.match_info["mid"].isdigit()
            else None
        )
        if (
            hook is None
            or hook["token"] != token
            or msg is None
            or msg.data.get("webhook_id") != hook["id"]
            or msg.deleted
            or str(msg.channel_id) != request.query.get("thread_id", hook["channel_id"])
        ):
            # Discord looks a webhook's message up in the webhook's channel, or in the thread
            # named by ``thread_id``: a thread's message without it is unknown.
            return self._refuse("webhook message", discord_error(404, 10008, "Unknown Message"))
        return await self._message_op(request, msg)

    # -- channels and messages --------------------------------------------------------------
    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        return json_response(channel.payload())

    async def patch_channel(self, request: web.Request) -> web.Response:
        """PATCH a channel or thread as Discord does: forum tags need Manage Channels (at most
        20, names of 1–20 characters); a post's ``applied_tags`` are ids of its forum's tags
        (at most 5); ``locked`` and unarchiving a locked thread need Manage Threads; an
        archived thread takes no other change until it is unarchived (code 50083)."""
        channel = self._channel(request)
        body, _ = await read_body(request)
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        perms = self._bot_perms(channel)
        if channel.is_thread:
            problem = self._thread_patch_problem(channel, body, perms)
            if problem is not None:
                return self._refuse("edit thread", problem, body)
            if "applied_tags" in body:
                channel.applied_tags = [int(tag) for tag in body["applied_tags"] or []]
        else:
            if not perms & MANAGE_CHANNELS:
                return self._refuse(
                    "edit channel", discord_error(403, 50013, "Missing Permissions"), body
                )
            if "available_tags" in body:
                if channel.type != 15:
                    return self._refuse(
                        "edit channel", invalid_form("available_tags", "Not a forum"), body
                    )
                tags = self._forum_tags(channel, body["available_tags"] or [])
                if isinstance(tags, web.Response):
                    return self._refuse("edit channel", tags, body)
                channel.available_tags = tags
        for key in ("name", "topic", "archived", "locked"):
            if key in body:
                setattr(channel, key, body[key])
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        self.world.dispatch(event, channel.payload())
        self.world.touch()
        return json_response(channel.payload())

    def _thread_patch_problem(
        self, thread: Channel, body: dict[str, Any], perms: int
    ) -> web.Response | None:
        manages = bool(perms & MANAGE_THREADS)
        owns = thread.owner_id == self.world.bot.id
        if not (manages or owns):
            return discord_error(403, 50013, "Missing Permissions")
        if "locked" in body and not manages:
            return discord_error(403, 50013, "Missing Permissions")
        if thread.locked and body.get("archived") is False and not manages:
            return discord_error(403, 50013, "Missing Permissions")
        unarchives = body.get("archived") is False
        others = set(body) - {"archived", "locked", "auto_archive_duration"}
        if thread.archived and not unarchives and others:
            return discord_error(400, 50083, "Thread is archived")
        if "applied_tags" in body:
            parent = self.world.channels.get(thread.parent_id or 0)
            tags = [str(tag) for tag in body["applied_tags"] or []]
            if parent is None or parent.type != 15:
                return invalid_form("applied_tags", "Only forum posts have tags")
            return self._applied_problem(parent, tags)
        return None

    @staticmethod
    def _applied_problem(forum: Channel, tags: list[str]) -> web.Response | None:
        if len(tags) > MAX_APPLIED_TAGS:
            return invalid_form("applied_tags", f"Must be {MAX_APPLIED_TAGS} or fewer in length.")
        known = {str(tag["id"]) for tag in forum.available_tags}
        if any(tag not in known for tag in tags):
            return invalid_form("applied_tags", "Unknown tag")
        return None

    def _forum_tags(self, forum: Channel, given: list[dict[str, Any]]) -> Any:
        """The forum's new tag list: kept ids stay, new tags get ids; limits as Discord's."""
        if len(given) > MAX_AVAILABLE_TAGS:
            return invalid_form(
                "available_tags", f"Must be {MAX_AVAILABLE_TAGS} or fewer in length."
            )
        known = {str(tag["id"]) for tag in forum.available_tags}
        tags = []
        for tag in given:
            name = str(tag.get("name") or "")
            if not 1 <= len(name) <= MAX_TAG_NAME:
                return invalid_form(
                    "available_tags", f"Must be between 1 and {MAX_TAG_NAME} in length."
                )
            tag_id = str(tag["id"]) if tag.get("id") and str(tag["id"]) in known else None
            tags.append(
                {
                    "id": tag_id or str(self.world.ids.next()),
                    "name": name,
                    "moderated": bool(tag.get("moderated", False)),
                    "emoji_id": tag.get("emoji_id"),
                    "emoji_name": tag.get("emoji_name"),
                }
            )
        return tags

    def _visible(self, channel: Channel) -> list[Message]:
        return [
            m
            for m in self.world.messages.values()
            if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        msgs = sorted(self._visible(channel), key=lambda m: m.id, reverse=True)
        if before := request.query.get("before"):
            msgs = [m for m in msgs if m.id < int(before)]
        if after := request.query.get("after"):
            msgs = [m for m in msgs if m.id > int(after)]
        limit = int(request.query.get("limit", 50))
        return json_response([self._as_read(m) for m in msgs[:limit]])

    def _as_read(self, msg: Message) -> dict[str, Any]:
        """A message as the bot reads it over REST: without Message Content, other people's
        messages come with their content emptied (:mod:`standin.intents`)."""
        identified = self.world.identified or {}
        return blank_for_rest(msg.data, int(identified.get("intents") or 0), self.world.bot.id)

    def _find(self, request: web.Request) -> Message | None:
        msg = self.world.messages.get(int(request.match_info["mid"]))
        if (
            msg is None
            or msg.deleted
            or msg.ephemeral
            or str(msg.channel_id) != request.match_info["cid"]
        ):
            return None
        return msg

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, files = await read_body(request)
        if channel is None:
            return self._refuse("post message", discord_error(404, 10003, "Unknown Channel"), body)
        needed = SEND_IN_THREADS if channel.is_thread else SEND_MESSAGES
        perms = self._bot_perms(channel)
        if not perms & needed or (
            channel.is_thread and channel.locked and not perms & MANAGE_THREADS
        ):
            return self._refuse(
                "post message", discord_error(403, 50013, "Missing Permissions"), body
            )
        if channel.type in (4, 15):
            return self._refuse(
                "post message",
                discord_error(400, 50008, "Cannot send messages in a non-text channel"),
                body,
            )
        if problem := check_message(
            body, files=files, upload=self.world.upload_in(channel.guild_id)
        ):
            return self._refuse("post message", json_response(problem, status_of(problem)), body)
        if (earlier := self._nonce_seen(body)) is not None:
            return json_response(earlier.data)  # enforce_nonce: the first message, not a copy
        msg = create_message(self.world, channel, body, files)
        if channel.is_thread and channel.archived:
            channel.archived = False  # Discord: a message unarchives the thread
            self.world.dispatch("THREAD_UPDATE", channel.payload())
        if body.get("nonce") is not None:
            self.world.nonces[(self.world.bot.id, str(body["nonce"]))] = (time.monotonic(), msg.id)
        self.world.touch()
        return json_response(msg.data)

    def _nonce_seen(self, body: dict[str, Any]) -> Message | None:
        """With ``enforce_nonce``, the same author's message with this nonce from the last
        few minutes (Discord returns it instead of creating a new one)."""
        if body.get("nonce") is None or not body.get("enforce_nonce"):
            return None
        seen = self.world.nonces.get((self.world.bot.id, str(body["nonce"])))
        if seen is None or time.monotonic() - seen[0] > NONCE_WINDOW_SECONDS:
            return None
        msg = self.world.messages.get(seen[1])
        return msg if msg is not None and not msg.deleted else None

    async def get_message(self, request: web.Request) -> web.Response:
        msg = self._find(request)
        return (
            json_response(self._as_read(msg))
            if msg
            else discord_error(404, 10008, "Unknown Message")
        )

    async def patch_message(self, request: web.Request) -> web.Response:
        msg = self._find(request)
        if msg is None or msg.data["author"]["id"] != str(self.world.bot.id):
            return discord_error(
                404 if msg is None else 403, 10008 if msg is None else 50005, "Cannot edit"
            )
        return await self._message_op(request, msg)

    async def delete_message(self, request: web.Request) -> web.Response:
        """The bot deletes a message: its own always; anyone else's (a member's, a webhook's)
        only with Manage Messages in the channel (a thread: its parent's), as Discord."""
        msg = self._find(request)
        if msg is None:  # already gone: bots delete defensively, it is no refusal
            return discord_error(404, 10008, "Unknown Message")
        own = str(msg.data["author"]["id"]) == str(self.world.bot.id)
        channel = self.world.channels[msg.channel_id]
        if not own and not self._bot_perms(channel) & MANAGE_MESSAGES:
            return self._refuse("delete message", discord_error(403, 50013, "Missing Permissions"))
        delete_message(self.world, msg)
        self.world.touch()
        return no_content()

    async def _message_op(self, request: web.Request, msg: Message) -> web.Response:
        if request.method == "GET":
            return json_response(msg.data)
        if request.method == "DELETE":
            delete_message(self.world, msg)
            return no_content()
        body, files = await read_body(request)
        if problem := check_message(body, files=files, partial=True):
            return self._refuse("edit message", json_response(problem, status_of(problem)), body)
        edit_message(self.world, msg, body, files)
        self.world.touch()
        return json_response(msg.data)

    async def react(self, request: web.Request) -> web.Response:
        msg = self._find(request)
        if msg is None:
            return discord_error(404, 10008, "Unknown Message")
        emoji = request.match_info["emoji"]
        msg.data["reactions"].append({"count": 1, "me": True, "emoji": {"id": None, "name": emoji}})
        return no_content()

    async def pin(self, request: web.Request) -> web.Response:
        """Pinning needs Pin Messages (split from Manage Messages in 2025) and a channel
        holds at most 50 pins (code 30003)."""
        msg = self._find(request)
        if msg is None:
            return discord_error(404, 10008, "Unknown Message")
        channel = self.world.channels[msg.channel_id]
        if not self._bot_perms(channel) & PIN_MESSAGES:
            return self._refuse("pin", discord_error(403, 50013, "Missing Permissions"))
        if channel.is_thread and channel.archived:
            return self._refuse("pin", discord_error(400, 50083, "Thread is archived"))
        pinned = sum(1 for m in self._visible(channel) if m.data.get("pinned"))
        if not msg.data.get("pinned") and pinned >= MAX_PINS:
            return self._refuse(
                "pin", discord_error(400, 30003, "Maximum number of pins reached (50)")
            )
        msg.data["pinned"] = True
        return no_content()

    async def add_thread_member(self, request: web.Request) -> web.Response:
        """PUT thread-members/{user}: the bot adds a member (a private thread, not invitable,
        needs Manage Threads unless the bot owns it; an archived thread refuses)."""
        thread = self._channel(request)
        if thread is None or not thread.is_thread:
            return discord_error(404, 10003, "Unknown Channel")
        uid = request.match_info["uid"]
        user_id = self.world.bot.id if uid == "@me" else int(uid)
        guild = self.world.guild_of(thread)
        if guild is None or user_id not in guild.members:
            return discord_error(404, 10007, "Unknown Member")
        if thread.archived:
            return self._refuse(
                "add thread member", discord_error(400, 50083, "Thread is archived")
            )
        perms = self._bot_perms(thread)
        if (
            thread.type == 12
            and not thread.invitable
            and thread.owner_id != self.world.bot.id
            and not perms & MANAGE_THREADS
        ):
            return self._refuse(
                "add thread member", discord_error(403, 50013, "Missing Permissions")
            )
        thread.thread_members.add(user_id)
        self.world.touch()
        return no_content()

    # -- threads ------------------------------------------------------------------------
    def _new_thread(
        self, parent: Channel, name: str, kind: int, *, thread_id: int | None = None
    ) -> Channel:
        assert parent.guild_id is not None  # threads open only in a guild's channels
        guild = self.world.guilds[parent.guild_id]
        thread = self.world.add_channel(
            guild, name, kind, parent_id=parent.id, owner_id=self.world.bot.id, channel_id=thread_id
        )
        thread.thread_members.add(self.world.bot.id)
        return thread

    async def create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body, files = await read_body(request)
        if parent is None:
            return self._refuse("create thread", discord_error(404, 10003, "Unknown Channel"), body)
        kind = int(body.get("type") or 11)
        needed = CREATE_PRIVATE_THREADS if kind == 12 else CREATE_PUBLIC_THREADS
        if not self._bot_perms(parent) & needed:
            return self._refuse(
                "create thread", discord_error(403, 50013, "Missing Permissions"), body
            )
        if not body.get("name") or len(body["name"]) > 100:
            return self._refuse(
                "create thread",
                json_response(
                    {
                        "code": 50035,
                        "message": "Invalid Form Body",
                        "errors": {
                            "name": {
                                "_errors": [
                                    {
                                        "code": "BASE_TYPE_BAD_LENGTH",
                                        "message": "Must be between 1 and 100 in length.",
                                    }
                                ]
                            }
                        },
                    },
                    400,
                ),
                body,
            )
        if parent.type == 15:
            starter = body.get("message") or {}
            if problem := check_message(starter, files=files):
                return self._refuse(
                    "create forum post", json_response(problem, status_of(problem)), body
                )
            tags = [str(tag) for tag in body.get("applied_tags") or []]
            if (refused := self._applied_problem(parent, tags)) is not None:
                return self._refuse("create forum post", refused, body)
            thread = self._new_thread(parent, body["name"], 11)
            thread.applied_tags = [int(tag) for tag in tags]
            self.world.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
            msg = create_message(self.world, thread, starter, files, message_id=thread.id)
            self.world.touch()
            return json_response({**thread.payload(), "message": msg.data}, status=201)
        if parent.type not in (0, 5):
            return self._refuse(
                "create thread",
                discord_error(400, 50024, "Cannot execute action on this channel type"),
                body,
            )
        thread = self._new_thread(parent, body["name"], kind)
        if kind == 12:
            thread.invitable = bool(body.get("invitable", True))
        self.world.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        self.world.touch()
        return json_response(thread.payload(), status=201)

    async def thread_from_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        msg = self._find(request)
        body, _ = await read_body(request)
        if parent is None or msg is None:
            return self._refuse(
                "thread from message", discord_error(404, 10008, "Unknown Message"), body
            )
        if not self._bot_perms(parent) & CREATE_PUBLIC_THREADS:
            return self._refuse(
                "thread from message", discord_error(403, 50013, "Missing Permissions"), body
            )
        if any(c.id == msg.id for c in self.world.channels.values()):
            return self._refuse(
                "thread from message",
                discord_error(400, 160004, "A thread has already been created for this message"),
                body,
            )
        thread = self._new_thread(parent, body.get("name") or "hilo", 11, thread_id=msg.id)
        msg.data["thread"] = thread.payload()
        self.world.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        self.world.touch()
        return json_response(thread.payload(), status=201)

    async def archived_threads(self, request: web.Request) -> web.Response:
        cid = int(request.match_info["cid"])
        threads = [
            c.payload()
            for c in self.world.channels.values()
            if c.parent_id == cid and c.is_thread and c.archived
        ]
        return json_response({"threads": threads, "members": [], "has_more": False})

    async def active_threads(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        threads = [c.payload() for c in guild.channels.values() if c.is_thread and not c.archived]
        return json_response({"threads": threads, "members": []})
