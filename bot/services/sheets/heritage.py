"""A dead character's experience passed to its player's next character (rolweb, seed 001,
MUERTE DE UN PERSONAJE JUGADOR), for both ways a character comes in: the creation wizard
(:mod:`bot.services.sheets.creation`) and an imported sheet (:mod:`bot.services.sheets.exchange`).

The heir is the player's last character in the campaign (deleted or not) when it is dead; it
passes its experience on once: when the new character is stored, behind the campaign's lock
(taken by the character's insert), the dead one must still be the player's last before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, Character, saved_id
from bot.services.shared.errors import DomainError
from bot.services.sheets.schema import upgraded_sheet
from rules.systems.base import GameSystem, capabilities

__all__ = ["heir_of", "still_heir"]


async def heir_of(
    sessions: async_sessionmaker[AsyncSession],
    campaign: Campaign,
    system: GameSystem,
    settings: Mapping[str, Any],
    user_id: int,
) -> dict[str, Any] | None:
    """``{"id", "name", "xp"}`` of the dead character whose experience ``user_id``'s next
    character takes over, or None (no such rule, no previous character, or it is alive)."""
    inheritance = capabilities(system).xp_inheritance
    if inheritance is None:
        return None
    async with sessions() as session:
        previous = (
            await session.exec(
                select(Character)
                .where(
                    Character.campaign_id == campaign.id,
                    Character.owner_user_id == user_id,
                    col(Character.is_npc).is_(False),
                )
                .order_by(col(Character.id).desc())
                .limit(1)
            )
        ).first()
    if previous is None:
        return None
    xp = inheritance.inherited_xp(upgraded_sheet(previous), settings)
    if xp is None:
        return None
    return {"id": saved_id(previous), "name": previous.name, "xp": xp}


async def still_heir(
    session: AsyncSession, campaign_id: int, user_id: int, heir: Mapping[str, Any]
) -> None:
    """Inside the transaction that stores the new character (after its insert): the dead
    character must still be the player's last before it, so two new characters cannot both
    take over the same experience."""
    rows = (
        await session.exec(
            select(Character.id)
            .where(
                Character.campaign_id == campaign_id,
                Character.owner_user_id == user_id,
                col(Character.is_npc).is_(False),
            )
            .order_by(col(Character.id).desc())
            .limit(2)
        )
    ).all()
    if len(rows) < 2 or rows[1] != heir.get("id"):
        raise DomainError("heritage.error.already_used", name=heir.get("name", "?"))
