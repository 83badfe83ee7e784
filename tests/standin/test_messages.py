"""Messages members write, as Discord sends them to a bot: MESSAGE_CREATE / UPDATE / DELETE
gated by the bot's intents, content emptied without Message Content, the privileged intent
refused by the portal (close code 4014), deleting other people's messages (Manage Messages;
attachments go with the message) and webhook rate limits (429 with ``retry_after``)."""

from __future__ import annotations

import asyncio
import contextlib
import time

import aiohttp
import pytest

from standin.client import Sandbox
from standin.guilds import build_sample_guild
from standin.intents import MESSAGE_CONTENT
from standin.messages import create_message
from standin.server import StandIn

pytestmark = pytest.mark.e2e


@pytest.fixture
def g(tiny_env: Sandbox):
    return tiny_env.new_guild("Mensajes")


def _said(sb: Sandbox, g, channel: str = "mesa") -> list[str]:
    return [m.content for m in sb.channel_messages(g, channel)]


def test_a_member_message_arrives_without_content_when_the_bot_lacks_the_intent(
    tiny_env: Sandbox, g
) -> None:
    written = g.write("mesa", "Ardelia: hola", user="ana", files=[("mapa.png", b"\x89PNG")])
    assert written is not None and written.content == "Ardelia: hola"  # what members see
    assert written.attachments == {"mapa.png": b"\x89PNG"}
    # the tiny bot asks for guild messages but not for their content: Discord empties it
    assert _said(tiny_env, g)[-1] == "vi «» adjuntos=0 respuesta=None"
    # ...except in a message that mentions the bot
    bot_id = tiny_env.world.bot.id
    g.write("mesa", f"<@{bot_id}> ¿me oyes?", user="ana")
    assert _said(tiny_env, g)[-1] == f"vi «<@{bot_id}> ¿me oyes?» adjuntos=0 respuesta=None"


def test_a_reply_carries_its_reference(tiny_env: Sandbox, g) -> None:
    first = g.write("mesa", "primero", user="ana")
    assert first is not None
    g.write("mesa", "segundo", user="bruno", reply_to=first)
    assert _said(tiny_env, g)[-1] == f"vi «» adjuntos=0 respuesta={first.id}"


def test_the_bot_deletes_a_member_message_only_with_manage_messages(tiny_env: Sandbox, g) -> None:
    written = g.write("mesa", "borrame", user="ana", files=[("nota.txt", b"secreto")])
    assert written is not None
    url = written.data["attachments"][0]["url"]
    assert g.attachment(url) == b"secreto"
    g.deny_bot("mesa", 1 << 13)  # Manage Messages
    refused = tiny_env.command("purge", {"message_id": str(written.id)}, guild=g)
    assert refused.content == "prohibido 50013"
    assert not tiny_env.message(written.id).deleted
    g.allow_bot("mesa")
    assert tiny_env.command("purge", {"message_id": str(written.id)}, guild=g).content == "purgado"
    assert tiny_env.message(written.id).deleted
    assert g.attachment(url) is None  # Discord deletes the attachments with the message
    assert f"borrado {written.id}" in _said(tiny_env, g)  # MESSAGE_DELETE reached the bot


def test_a_member_deleting_their_message_reaches_the_bot(tiny_env: Sandbox, g) -> None:
    written = g.write("mesa", "me arrepiento", user="ana")
    assert written is not None
    g.delete(written, user="ana")
    assert _said(tiny_env, g)[-1] == f"borrado {written.id}"


def test_webhook_posts_are_paced_by_the_rate_limit(tiny_env: Sandbox, g) -> None:
    started = time.monotonic()
    done = tiny_env.command("chorus", {"count": 7}, guild=g)
    assert "cantado" in done.all_text
    voices = [m.content for m in tiny_env.channel_messages(g, "mesa") if m.author == "Coro"]
    assert voices == [f"voz {i}" for i in range(7)]  # all of them, in order
    # 5 per 2 s per webhook: the 6th waited for the window (discord.py read the headers)
    assert time.monotonic() - started >= 1.5


def _identify_frame(intents: int) -> dict:
    return {"op": 2, "d": {"token": "x", "intents": intents, "properties": {}}}


@pytest.fixture
async def standin():
    server = StandIn()
    await server.start()
    yield server
    await server.stop()


async def test_a_privileged_intent_the_portal_does_not_allow_closes_with_4014(
    standin: StandIn,
) -> None:
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(standin.gateway_url)
        assert (await ws.receive_json())["op"] == 10
        await ws.send_json(_identify_frame(1 | 1 << 9 | MESSAGE_CONTENT))
        closing = await asyncio.wait_for(ws.receive(), 5)
        assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4014
        assert standin.gateway.refused_identifies == [MESSAGE_CONTENT]
        # enabled in the portal, the same IDENTIFY gets READY
        standin.world.portal_intents |= MESSAGE_CONTENT
        ws = await http.ws_connect(standin.gateway_url)
        assert (await ws.receive_json())["op"] == 10
        await ws.send_json(_identify_frame(1 | 1 << 9 | MESSAGE_CONTENT))
        assert (await asyncio.wait_for(ws.receive_json(), 5))["t"] == "READY"
        await ws.close()


async def test_message_events_follow_intents_and_content(standin: StandIn) -> None:
    """Without GUILD_MESSAGES no message event; with it but without Message Content, an empty
    content; with both, the text."""
    world = standin.world
    world.portal_intents |= MESSAGE_CONTENT
    guild = build_sample_guild(world, "Intents")
    mesa = guild.find_channel("mesa")
    ana = guild.find_member("ana")
    seen: dict[str, list[str]] = {}
    async with aiohttp.ClientSession() as http:
        for name, intents in (
            ("guilds", 1),
            ("messages", 1 | 1 << 9),
            ("content", 1 | 1 << 9 | MESSAGE_CONTENT),
        ):
            # one session at a time: a new IDENTIFY of the shard replaces the previous one
            ws = await http.ws_connect(standin.gateway_url)
            await ws.receive_json()  # HELLO
            await ws.send_json(_identify_frame(intents))
            await ws.receive_json()  # READY
            author = {**ana.user.payload(), "bot": False}
            create_message(world, mesa, {"content": "texto"}, author=author, source="user")
            frames = []
            with contextlib.suppress(TimeoutError):
                while True:
                    frames.append(await asyncio.wait_for(ws.receive_json(), 0.3))
            seen[name] = [f["d"]["content"] for f in frames if f.get("t") == "MESSAGE_CREATE"]
            await ws.close()
    assert seen == {"guilds": [], "messages": [""], "content": ["texto"]}
