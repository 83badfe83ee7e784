"""The table most service tests play at: a guild, its channel and three members (the GM, Ana
and Bruno), and the Núcleo campaign «Estrellas» with Ana's Ardelia (tests/examples.py)."""

from __future__ import annotations

import json
from typing import Any

from bot.services import Actor, Place
from tests.examples import ARDELIA

__all__ = ["ANA", "BRUNO", "CHANNEL", "GM", "GUILD", "HERE", "estrellas"]

GUILD, CHANNEL = 1000, 11
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")


async def estrellas(services: Any) -> Any:
    """The Núcleo campaign «Estrellas» in ``HERE``, run by the GM, with Ana's Ardelia."""
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    return services
