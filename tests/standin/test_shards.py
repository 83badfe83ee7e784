"""The stand-in routes guilds to shards as Discord does, and honours ``enforce_nonce``."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from standin.guilds import build_sample_guild
from standin.server import StandIn


@pytest.fixture
async def standin():
    server = StandIn()
    await server.start()
    yield server
    await server.stop()


async def _identify(http: aiohttp.ClientSession, standin: StandIn, shard: list[int]):
    ws = await http.ws_connect(standin.gateway_url)
    assert (await ws.receive_json())["op"] == 10
    # guilds and direct messages: the DM below reaches only a session that asks for DMs
    intents = 1 | 1 << 12
    await ws.send_json(
        {"op": 2, "d": {"token": "x", "intents": intents, "properties": {}, "shard": shard}}
    )
    return ws


async def _events(ws, count: int) -> list[dict]:
    return [await asyncio.wait_for(ws.receive_json(), 5) for _ in range(count)]


async def _nothing_more(ws) -> None:
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(ws.receive_json(), 0.3)


def test_snowflakes_can_be_chosen_on_a_shard() -> None:
    from standin.state import Snowflakes

    ids = Snowflakes()
    made = [ids.on_shard(k % 3, 3) for k in range(9)] + [ids.next()]
    assert [(i >> 22) % 3 for i in made[:9]] == [0, 1, 2] * 3
    assert made == sorted(made) and len(set(made)) == len(made), "still strictly increasing"
    with pytest.raises(ValueError):
        ids.on_shard(3, 3)


async def test_each_shard_session_gets_only_its_guilds(standin: StandIn) -> None:
    world = standin.world
    zero = build_sample_guild(world, "Cero", {"guild": world.ids.on_shard(0, 2)})
    one = build_sample_guild(world, "Uno", {"guild": world.ids.on_shard(1, 2)})
    async with aiohttp.ClientSession() as http:
        ws0 = await _identify(http, standin, [0, 2])
        ready0, create0 = await _events(ws0, 2)
        ws1 = await _identify(http, standin, [1, 2])
        ready1, create1 = await _events(ws1, 2)
        assert ready0["d"]["shard"] == [0, 2] and ready1["d"]["shard"] == [1, 2]
        assert [g["id"] for g in ready0["d"]["guilds"]] == [str(zero.id)]
        assert [g["id"] for g in ready1["d"]["guilds"]] == [str(one.id)]
        assert (create0["d"]["id"], create1["d"]["id"]) == (str(zero.id), str(one.id))
        # live events follow the guild: shard 0 never sees shard 1's, and the reverse
        world.dispatch("CHANNEL_UPDATE", {"id": "5", "guild_id": str(one.id)})
        world.dispatch("CHANNEL_UPDATE", {"id": "6", "guild_id": str(zero.id)})
        world.dispatch("MESSAGE_CREATE", {"id": "7", "channel_id": "8"})  # a DM: shard 0
        assert [e["d"]["id"] for e in await _events(ws1, 1)] == ["5"]
        assert [e["d"]["id"] for e in await _events(ws0, 2)] == ["6", "7"]
        await _nothing_more(ws0)
        await _nothing_more(ws1)
        # a new guild on shard 1 is announced to shard 1 only
        later = build_sample_guild(world, "Tarde", {"guild": world.ids.on_shard(1, 2)})
        world.dispatch("GUILD_CREATE", later.create_payload())
        assert (await _events(ws1, 1))[0]["d"]["id"] == str(later.id)
        await _nothing_more(ws0)
        # shard 1 reconnects (a restarted process): it replaces the old session, shard 0 stays
        await ws1.close()
        ws1b = await _identify(http, standin, [1, 2])
        ready1b, *creates = await _events(ws1b, 3)
        assert {c["d"]["id"] for c in creates} == {str(one.id), str(later.id)}
        world.dispatch("CHANNEL_UPDATE", {"id": "9", "guild_id": str(zero.id)})
        assert (await _events(ws0, 1))[0]["d"]["id"] == "9"
        await _nothing_more(ws1b)
        await ws0.close()
        await ws1b.close()


async def test_a_repeated_nonce_returns_the_first_message(standin: StandIn) -> None:
    world = standin.world
    guild = build_sample_guild(world, "Mesa")
    channel = guild.find_channel("mesa")
    url = f"{standin.url}/api/v10/channels/{channel.id}/messages"
    headers = {"Authorization": "Bot x"}
    async with aiohttp.ClientSession() as http:

        async def post(body: dict) -> dict:
            async with http.post(url, json=body, headers=headers) as resp:
                assert resp.status == 200
                return await resp.json()

        first = await post({"content": "¡Tu turno!", "nonce": "t1", "enforce_nonce": True})
        again = await post({"content": "¡Tu turno!", "nonce": "t1", "enforce_nonce": True})
        other = await post({"content": "¡Tu turno!", "nonce": "t2", "enforce_nonce": True})
        loose = await post({"content": "¡Tu turno!", "nonce": "t1"})  # not enforced: a new one
    assert again["id"] == first["id"]
    assert len({first["id"], other["id"], loose["id"]}) == 3
    posted = [m for m in world.messages.values() if m.channel_id == channel.id]
    assert len(posted) == 3
