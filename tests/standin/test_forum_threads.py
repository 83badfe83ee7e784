"""The stand-in's forum tags, thread locking and archiving, pins and private threads, on the
wire (raw HTTP, no bot), with Discord's documented limits and refusals."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from standin.guilds import build_sample_guild
from standin.server import StandIn
from standin.state import MANAGE_THREADS, Guild

pytestmark = pytest.mark.e2e


@pytest.fixture
async def standin():
    server = StandIn()
    await server.start()
    yield server
    await server.stop()


class Api:
    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http, self.base = http, base + "/api/v10"

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        async with self.http.request(
            method, self.base + path, json=body, headers={"Authorization": "Bot x"}
        ) as resp:
            data = await resp.json() if resp.content_type == "application/json" else None
            return resp.status, data


def grant_bot(world: Any, guild: Guild, bits: int) -> None:
    role = next(r for r in guild.roles.values() if r.bot_id == world.bot.id)
    role.permissions |= bits


async def test_forum_tags_applied_tags_and_their_limits(standin: StandIn) -> None:
    world = standin.world
    guild = build_sample_guild(world, "Tags")
    forum = guild.find_channel("foro")
    async with aiohttp.ClientSession() as http:
        api = Api(http, standin.url)
        # editing a forum's tags needs Manage Channels (the bot role lacks it by default)
        status, _ = await api.call("PATCH", f"/channels/{forum.id}", {"available_tags": []})
        assert status == 403
        grant_bot(world, guild, 1 << 4)
        status, data = await api.call(
            "PATCH", f"/channels/{forum.id}", {"available_tags": [{"name": "Abierta"}]}
        )
        assert status == 200 and [t["name"] for t in data["available_tags"]] == ["Abierta"]
        open_id = data["available_tags"][0]["id"]
        # existing ids are kept, new tags get one; more than 20 or a 21-character name: 50035
        status, data = await api.call(
            "PATCH",
            f"/channels/{forum.id}",
            {"available_tags": [{"id": open_id, "name": "Abierta"}, {"name": "Cerrada"}]},
        )
        assert status == 200 and data["available_tags"][0]["id"] == open_id
        closed_id = data["available_tags"][1]["id"]
        too_many = [{"name": f"t{i}"} for i in range(21)]
        status, data = await api.call(
            "PATCH", f"/channels/{forum.id}", {"available_tags": too_many}
        )
        assert status == 400 and data["code"] == 50035
        status, data = await api.call(
            "PATCH", f"/channels/{forum.id}", {"available_tags": [{"name": "x" * 21}]}
        )
        assert status == 400 and data["code"] == 50035
        # a post takes tags of its forum only, at most 5
        status, data = await api.call(
            "POST",
            f"/channels/{forum.id}/threads",
            {"name": "Escena", "message": {"content": "hola"}, "applied_tags": ["123"]},
        )
        assert status == 400 and data["code"] == 50035
        status, post = await api.call(
            "POST",
            f"/channels/{forum.id}/threads",
            {"name": "Escena", "message": {"content": "hola"}, "applied_tags": [open_id]},
        )
        assert status == 201 and post["applied_tags"] == [open_id]
        status, data = await api.call(
            "PATCH", f"/channels/{post['id']}", {"applied_tags": [open_id] * 6}
        )
        assert status == 400 and data["code"] == 50035
        status, data = await api.call(
            "PATCH", f"/channels/{post['id']}", {"applied_tags": [closed_id]}
        )
        assert status == 200 and data["applied_tags"] == [closed_id]
        # a thread of a text channel has no tags
        mesa = guild.find_channel("mesa")
        status, thread = await api.call(
            "POST", f"/channels/{mesa.id}/threads", {"name": "Hilo", "type": 11}
        )
        status, data = await api.call(
            "PATCH", f"/channels/{thread['id']}", {"applied_tags": [open_id]}
        )
        assert status == 400 and data["code"] == 50035


async def test_locking_archiving_and_messages_in_a_locked_thread(standin: StandIn) -> None:
    world = standin.world
    guild = build_sample_guild(world, "Lock")
    mesa = guild.find_channel("mesa")
    async with aiohttp.ClientSession() as http:
        api = Api(http, standin.url)
        status, thread = await api.call(
            "POST", f"/channels/{mesa.id}/threads", {"name": "Escena", "type": 11}
        )
        tid = thread["id"]
        status, data = await api.call(
            "PATCH", f"/channels/{tid}", {"locked": True, "archived": True}
        )
        assert status == 200 and data["thread_metadata"]["locked"]
        assert data["thread_metadata"]["archived"]
        # an archived thread takes no other change until it is unarchived
        status, data = await api.call("PATCH", f"/channels/{tid}", {"name": "Otra"})
        assert status == 400 and data["code"] == 50083
        # the bot has Manage Threads: it may still post (and the post unarchives the thread)
        status, _ = await api.call("POST", f"/channels/{tid}/messages", {"content": "resumen"})
        assert status == 200 and not world.channels[int(tid)].archived
        # without Manage Threads a locked thread refuses the bot's messages and unlocking
        role = next(r for r in guild.roles.values() if r.bot_id == world.bot.id)
        role.permissions &= ~MANAGE_THREADS
        status, _ = await api.call("POST", f"/channels/{tid}/messages", {"content": "más"})
        assert status == 403
        status, _ = await api.call("PATCH", f"/channels/{tid}", {"locked": False})
        assert status == 403


async def test_a_webhook_cannot_post_in_a_locked_thread(standin: StandIn) -> None:
    """Discord: a message unarchives an archived thread, but a locked one only for a member
    with Manage Threads, which a webhook never is: 400, code 50083 (a closed scene's
    thread; the stand-in let it through, so /post in a closed scene looked fine)."""
    world = standin.world
    guild = build_sample_guild(world, "Hook")
    mesa = guild.find_channel("mesa")
    grant_bot(world, guild, 1 << 29)  # Manage Webhooks
    async with aiohttp.ClientSession() as http:
        api = Api(http, standin.url)
        _, hook = await api.call("POST", f"/channels/{mesa.id}/webhooks", {"name": "Voces"})
        execute = f"/webhooks/{hook['id']}/{hook['token']}?wait=true&thread_id="
        _, thread = await api.call(
            "POST", f"/channels/{mesa.id}/threads", {"name": "Escena", "type": 11}
        )
        tid = thread["id"]
        await api.call("PATCH", f"/channels/{tid}", {"archived": True})
        status, _ = await api.call("POST", execute + tid, {"content": "vuelve", "username": "Ana"})
        assert status == 200 and not world.channels[int(tid)].archived
        await api.call("PATCH", f"/channels/{tid}", {"locked": True, "archived": True})
        status, data = await api.call("POST", execute + tid, {"content": "x", "username": "Ana"})
        assert status == 400 and data["code"] == 50083
        assert world.channels[int(tid)].archived and world.channels[int(tid)].locked
        await api.call("PATCH", f"/channels/{tid}", {"archived": False})  # locked, not archived
        status, data = await api.call("POST", execute + tid, {"content": "x", "username": "Ana"})
        assert status == 400 and data["code"] == 50083


async def test_pins_need_pin_messages_and_stop_at_fifty(standin: StandIn) -> None:
    world = standin.world
    guild = build_sample_guild(world, "Pins")
    mesa = guild.find_channel("mesa")
    async with aiohttp.ClientSession() as http:
        api = Api(http, standin.url)
        ids = []
        for i in range(51):
            status, msg = await api.call(
                "POST", f"/channels/{mesa.id}/messages", {"content": f"{i}"}
            )
            ids.append(msg["id"])
        for mid in ids[:50]:
            status, _ = await api.call("PUT", f"/channels/{mesa.id}/messages/pins/{mid}")
            assert status == 204
        status, data = await api.call("PUT", f"/channels/{mesa.id}/messages/pins/{ids[50]}")
        assert status == 400 and data["code"] == 30003
        role = next(r for r in guild.roles.values() if r.bot_id == world.bot.id)
        role.permissions &= ~(1 << 51)
        status, _ = await api.call("PUT", f"/channels/{mesa.id}/pins/{ids[0]}")
        assert status == 403


async def test_private_threads_are_seen_by_members_and_moderators(standin: StandIn) -> None:
    world = standin.world
    guild = build_sample_guild(world, "Privado")
    mesa = guild.find_channel("mesa")
    ana, bruno, dm2 = (guild.find_member(n) for n in ("ana", "bruno", "dm2"))
    async with aiohttp.ClientSession() as http:
        api = Api(http, standin.url)
        status, thread = await api.call(
            "POST",
            f"/channels/{mesa.id}/threads",
            {"name": "Aparte", "type": 12, "invitable": False},
        )
        assert status == 201 and thread["type"] == 12
        assert thread["thread_metadata"]["invitable"] is False
        tid = int(thread["id"])
        status, _ = await api.call("PUT", f"/channels/{tid}/thread-members/{ana.id}")
        assert status == 204
        private = world.channels[tid]
        assert guild.permissions_in(ana, private) and not guild.permissions_in(bruno, private)
        assert guild.permissions_in(dm2, private)  # the Máster role has Manage Threads
        # an archived thread refuses new members
        await api.call("PATCH", f"/channels/{tid}", {"archived": True})
        status, data = await api.call("PUT", f"/channels/{tid}/thread-members/{bruno.id}")
        assert status == 400 and data["code"] == 50083
