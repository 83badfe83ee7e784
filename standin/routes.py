"""The REST routes of discord.com/api/v10 that a bot like ours uses.

Anything not listed here is answered 404 and recorded in ``World.unknown_requests``, so a test can
assert that the bot used only what the stand-in models. Channel, message, thread and webhook
handlers live in ``channels.py``; this module adds users, the application, command sync and guild
reads, and registers every route.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .channels import ChannelRoutes
from .httputil import discord_error, json_response, no_content, read_body
from .state import Channel

__all__ = ["Routes"]


class Routes(ChannelRoutes):
    def add_to(self, app: web.Application, prefix: str = "/api/v10") -> None:
        r = app.router
        get, post, put, patch, delete = r.add_get, r.add_post, r.add_put, r.add_patch, r.add_delete
        p = prefix
        get(f"{p}/users/@me", self.me, allow_head=False)
        get(f"{p}/users/{{uid}}", self.user, allow_head=False)
        post(f"{p}/users/@me/channels", self.open_dm)
        get(f"{p}/oauth2/applications/@me", self.application, allow_head=False)
        get(f"{p}/applications/@me", self.application, allow_head=False)
        for path in (
            f"{p}/applications/{{app}}/commands",
            f"{p}/applications/{{app}}/guilds/{{gid}}/commands",
        ):
            put(path, self.put_commands)
            get(path, self.get_commands, allow_head=False)
            post(path, self.post_command)
            delete(path + "/{cid}", self.delete_command)
            patch(path + "/{cid}", self.patch_command)
        post(f"{p}/interactions/{{iid}}/{{token}}/callback", self.cb.callback)
        post(f"{p}/webhooks/{{wid}}/{{token}}", self.execute_webhook)
        get(f"{p}/webhooks/{{wid}}/{{token}}", self.get_webhook, allow_head=False)
        get(f"{p}/webhooks/{{wid}}", self.get_webhook, allow_head=False)
        delete(f"{p}/webhooks/{{wid}}", self.delete_webhook)
        patch(f"{p}/webhooks/{{wid}}", self.modify_webhook)
        patch(f"{p}/webhooks/{{wid}}/{{token}}", self.modify_webhook)
        for method in ("GET", "PATCH", "DELETE"):
            r.add_route(
                method, f"{p}/webhooks/{{wid}}/{{token}}/messages/{{mid}}", self.webhook_message
            )
        get(f"{p}/channels/{{cid}}", self.get_channel, allow_head=False)
        patch(f"{p}/channels/{{cid}}", self.patch_channel)
        get(f"{p}/channels/{{cid}}/messages", self.list_messages, allow_head=False)
        post(f"{p}/channels/{{cid}}/messages", self.post_message)
        get(f"{p}/channels/{{cid}}/messages/{{mid}}", self.get_message, allow_head=False)
        patch(f"{p}/channels/{{cid}}/messages/{{mid}}", self.patch_message)
        delete(f"{p}/channels/{{cid}}/messages/{{mid}}", self.delete_message)
        put(f"{p}/channels/{{cid}}/messages/{{mid}}/reactions/{{emoji}}/@me", self.react)
        put(f"{p}/channels/{{cid}}/messages/pins/{{mid}}", self.pin)
        put(f"{p}/channels/{{cid}}/pins/{{mid}}", self.pin)
        post(f"{p}/channels/{{cid}}/typing", self.ok)
        post(f"{p}/channels/{{cid}}/threads", self.create_thread)
        post(f"{p}/channels/{{cid}}/messages/{{mid}}/threads", self.thread_from_message)
        put(f"{p}/channels/{{cid}}/thread-members/{{uid}}", self.add_thread_member)
        delete(f"{p}/channels/{{cid}}/thread-members/{{uid}}", self.ok)
        get(
            f"{p}/channels/{{cid}}/threads/archived/public", self.archived_threads, allow_head=False
        )
        post(f"{p}/channels/{{cid}}/webhooks", self.create_webhook)
        get(f"{p}/channels/{{cid}}/webhooks", self.channel_webhooks, allow_head=False)
        get(f"{p}/guilds/{{gid}}", self.get_guild, allow_head=False)
        get(f"{p}/guilds/{{gid}}/channels", self.guild_channels, allow_head=False)
        get(f"{p}/guilds/{{gid}}/roles", self.guild_roles, allow_head=False)
        get(f"{p}/guilds/{{gid}}/members", self.guild_members, allow_head=False)
        get(f"{p}/guilds/{{gid}}/members/search", self.search_members, allow_head=False)
        get(f"{p}/guilds/{{gid}}/members/{{uid}}", self.guild_member, allow_head=False)
        get(f"{p}/guilds/{{gid}}/threads/active", self.active_threads, allow_head=False)
        get(f"{p}/guilds/{{gid}}/webhooks", self.guild_webhooks, allow_head=False)

    # -- users and application -------------------------------------------------------------
    async def me(self, request: web.Request) -> web.Response:
        if not request.headers.get("Authorization", "").startswith("Bot "):
            return discord_error(401, 0, "401: Unauthorized")
        return json_response({**self.world.bot.payload(), "verified": True, "mfa_enabled": False})

    async def user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(int(request.match_info["uid"]))
        return json_response(user.payload()) if user else discord_error(404, 10013, "Unknown User")

    async def open_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user = self.world.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            return discord_error(404, 10013, "Unknown User")
        for ch in self.world.channels.values():
            if ch.type == 1 and ch.recipients and ch.recipients[0].id == user.id:
                return json_response(ch.payload())
        ch = Channel(self.world.ids.next(), user.name, 1, None, recipients=[user])
        self.world.channels[ch.id] = ch
        return json_response(ch.payload())

    async def application(self, request: web.Request) -> web.Response:
        w = self.world
        return json_response(
            {
                "id": str(w.application_id),
                "name": w.bot.name,
                "icon": None,
                "description": "Árbitro (stand-in)",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": w.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": w.bot.payload(),
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
            }
        )

    # -- application commands ----------------------------------------------------------------
    def _command_list(self, request: web.Request) -> list[dict[str, Any]]:
        gid = request.match_info.get("gid")
        if gid is None:
            return self.world.global_commands
        return self.world.guild_commands.setdefault(int(gid), [])

    def _echo(
        self, request: web.Request, cmd: dict[str, Any], existing: dict[str, Any] | None
    ) -> dict[str, Any]:
        gid = request.match_info.get("gid")
        out = {
            "type": 1,
            "description": "",  # context menus send none; Discord answers with ""
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            "name_localizations": None,
            "description_localizations": None,
            "options": [],
            **cmd,
            "id": existing["id"] if existing else str(self.world.ids.next()),
            "application_id": str(self.world.application_id),
            "version": str(self.world.ids.next()),
        }
        if gid is not None:
            out["guild_id"] = gid
        return out

    async def put_commands(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        commands = body.get("_list", [])
        if not isinstance(commands, list) or len(commands) > 100:
            return self._refuse(
                "PUT commands", discord_error(400, 50035, "Invalid Form Body"), body
            )
        current = {(c["name"], c.get("type", 1)): c for c in self._command_list(request)}
        echoed = [
            self._echo(request, c, current.get((c["name"], c.get("type", 1)))) for c in commands
        ]
        target = self._command_list(request)
        target[:] = echoed
        self.world.touch()
        return json_response(echoed)

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(self._command_list(request))

    async def post_command(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        target = self._command_list(request)
        old = next((c for c in target if c["name"] == body.get("name")), None)
        cmd = self._echo(request, body, old)
        target[:] = [c for c in target if c is not old] + [cmd]
        return json_response(cmd, status=200 if old else 201)

    async def patch_command(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        target = self._command_list(request)
        for i, c in enumerate(target):
            if c["id"] == request.match_info["cid"]:
                target[i] = {**c, **body}
                return json_response(target[i])
        return discord_error(404, 10063, "Unknown application command")

    async def delete_command(self, request: web.Request) -> web.Response:
        target = self._command_list(request)
        target[:] = [c for c in target if c["id"] != request.match_info["cid"]]
        return no_content()

    # -- guilds -------------------------------------------------------------------------
    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        data = guild.payload()
        if request.query.get("with_counts") in ("true", "1"):
            data.update(approximate_member_count=len(guild.members), approximate_presence_count=0)
        return json_response(data)

    async def guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        return json_response([c.payload() for c in guild.channels.values() if not c.is_thread])

    async def guild_roles(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        return json_response([r.payload() for r in guild.roles.values()])

    async def guild_members(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        after = int(request.query.get("after", 0))
        limit = int(request.query.get("limit", 1))
        members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)
        return json_response([m.payload() for m in members[:limit]])

    async def search_members(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        query = request.query.get("query", "").lower()
        found = [m.payload() for m in guild.members.values() if m.name.lower().startswith(query)]
        return json_response(found[: int(request.query.get("limit", 1))])

    async def guild_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        member = guild.members.get(int(request.match_info["uid"])) if guild else None
        if member is None:
            return discord_error(404, 10007, "Unknown Member")
        return json_response(member.payload())
