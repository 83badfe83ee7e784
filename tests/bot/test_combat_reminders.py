"""Turn reminders through the durable timers: the cog registers, the dispatcher posts once."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace

import discord
from sqlalchemy import update

from bot.db.models import Timer, utcnow
from bot.services import Actor, Place
from cogs.combat import CombatCog

HERE = Place(1000, 11, (11,))
GM = Actor(1, "Máster", can_manage_channels=True)


class Channel:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.pinged: list[list[int]] = []
        self.nonces: list[str | None] = []
        self.arrived = asyncio.Event()

    async def send(
        self,
        content: str,
        *,
        allowed_mentions: discord.AllowedMentions,
        nonce: str | None = None,
    ) -> None:
        self.sent.append(content)
        self.pinged.append(allowed_mentions.to_dict().get("users", []))
        self.nonces.append(nonce)
        assert allowed_mentions.to_dict()["parse"] == []  # nobody else, whatever the names say
        self.arrived.set()


async def test_a_due_turn_is_posted_once_in_its_channel(services):
    await services.campaigns.create(
        HERE, GM, name="E", system="nucleo", target_id=11, kind="channel"
    )
    await services.combat.start(HERE, GM)
    await services.combat.add(HERE, GM, "Trasgos", initiative=5)
    await services.combat.set_deadline(HERE, GM, 6)
    await services.combat.next(HERE, GM)
    channel = Channel()

    async def ready() -> None:
        return None

    bot = SimpleNamespace(
        services=services,
        config=SimpleNamespace(default_locale="es"),
        wait_until_ready=ready,
        get_channel=lambda channel_id: channel if channel_id == 11 else None,
    )
    cog = CombatCog(bot)  # type: ignore[arg-type]
    await cog.cog_load()
    dispatcher = asyncio.create_task(services.timers.run())
    try:
        await asyncio.sleep(0.05)
        assert channel.sent == [], "six hours are not up"
        async with services.sessions() as session, session.begin():
            await session.exec(update(Timer).values(due_at=utcnow() - timedelta(minutes=1)))
        services.timers.poke()
        await asyncio.wait_for(channel.arrived.wait(), timeout=5)
        await asyncio.sleep(0.05)
        assert len(channel.sent) == 1
        assert "<@1>" in channel.sent[0] and "**Trasgos**" in channel.sent[0]
        assert channel.pinged == [[1]]  # the reminder pings exactly its member
        assert "más de 6 h" in channel.sent[0]
        assert channel.nonces[0], "posted with the firing's nonce (enforce_nonce)"
        # recorded after the post: wait for it (a loaded machine may take a while), then
        # nothing is left to fire
        for _ in range(100):
            if await services.timers.next_wake() is None:
                break
            await asyncio.sleep(0.05)
        assert await services.timers.next_wake() is None, "recorded: nothing left to fire"
        assert len(channel.sent) == 1
    finally:
        dispatcher.cancel()
        await cog.cog_unload()
