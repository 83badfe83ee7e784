"""Characters handed to the GM ("PNJtizar"): the GM posts for an absent player's character
until a day (its return, on the durable timer ``pace.npc``) or until given back.

Each NPCization is one versioned row per character: handing it again changes its return
day; giving it back (by the GM, or by the timer at that version only) deletes it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, Character, Npcization, saved_id
from bot.grammar import gender_of
from bot.i18n import LOCALES
from bot.services.campaigns.service import campaign_time_zone
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.timers import Due, cancel, schedule
from bot.services.shared.versioned import StaleWrite, delete_versioned, update_versioned
from bot.services.sheets.access import find_character
from bot.services.table.pacing import NpcView, npc_return, parse_day

__all__ = ["NPC_TIMER", "give_back", "npc_due", "npcize", "unnpcize"]

NPC_TIMER = "pace.npc"


async def _hand_over(
    session: AsyncSession,
    campaign: Campaign,
    place: Place,
    actor: Actor,
    character: Character,
    back: datetime | None,
) -> int:
    """The NPCization row of ``character``, new or with its return moved; its version."""
    character_id = saved_id(character)
    existing = await session.get(Npcization, character_id)
    if existing is None:
        row = Npcization(
            character_id=character_id,
            guild_id=place.guild_id,
            campaign_id=saved_id(campaign),
            player_user_id=character.owner_user_id,
            by_user_id=actor.user_id,
            until=back,
        )
        session.add(row)
        await session.flush()
        return 1
    seen = existing.version
    await update_versioned(  # reported: another GM moved it meanwhile
        session,
        Npcization,
        col(Npcization.character_id) == character_id,
        seen,
        until=back,
        by_user_id=actor.user_id,
    )
    return seen + 1


async def npcize(
    sessions: async_sessionmaker[AsyncSession],
    campaign: Campaign,
    place: Place,
    actor: Actor,
    name: str,
    until: str | None,
    locale: str | None,
    now: datetime,
) -> NpcView:
    """The character is the GM's to post until ``until`` (a day typed in ``locale``: it
    comes back at 00:00 that day in the campaign's time zone) or until given back.  Again on
    an NPCized character changes its return date.  The referee check is the caller's."""
    zone, locale = campaign_time_zone(campaign), locale or campaign.locale or LOCALES[0]
    back = npc_return(parse_day(until, locale, zone, now=now), zone, now, locale) if until else None
    async with sessions() as session, session.begin():
        character = await find_character(session, campaign, actor, name)
        if character.is_npc:
            raise DomainError("pace.error.already_npc", name=character.name)
        character_id = saved_id(character)
        version = await _hand_over(session, campaign, place, actor, character, back)
        if back is not None:
            await schedule(session, NPC_TIMER, str(character_id), place.guild_id, back)
        else:
            await cancel(session, NPC_TIMER, str(character_id))
    return NpcView(
        character_id,
        place.guild_id,
        character.name,
        character.owner_user_id,
        back,
        campaign.gm_channel_id,
        campaign.locale,
        version,
        zone,
        genero=gender_of(character.sheet),
    )


async def unnpcize(
    sessions: async_sessionmaker[AsyncSession],
    campaign: Campaign,
    place: Place,
    actor: Actor,
    name: str,
) -> NpcView:
    """Give the character back to its player now (the referee check is the caller's)."""
    async with sessions() as session, session.begin():
        character = await find_character(session, campaign, actor, name)
        character_id = saved_id(character)
        row = await session.get(Npcization, character_id)
        if row is None:
            raise DomainError(
                "pace.error.not_npcized", name=character.name, genero=gender_of(character.sheet)
            )
        player, seen = row.player_user_id, row.version
        await delete_versioned(  # reported: given back or moved meanwhile
            session, Npcization, col(Npcization.character_id) == character_id, seen
        )
        await cancel(session, NPC_TIMER, str(character_id))
    return NpcView(
        character_id,
        place.guild_id,
        character.name,
        player,
        None,
        campaign.gm_channel_id,
        campaign.locale,
        seen,
        campaign_time_zone(campaign),
    )


async def npc_due(
    sessions: async_sessionmaker[AsyncSession], due: Due, now: datetime
) -> NpcView | None:
    """A ``pace.npc`` firing: the NPCization to end now (None: already ended or moved)."""
    async with sessions() as session:
        row = await session.get(Npcization, int(due.ref))
        if row is None or row.until is None or row.until > now:
            return None
        character = await session.get(Character, row.character_id)
        campaign = await session.get(Campaign, row.campaign_id)
    if character is None or campaign is None:
        return None
    return NpcView(
        row.character_id,
        row.guild_id,
        character.name,
        row.player_user_id,
        row.until,
        campaign.gm_channel_id,
        campaign.locale,
        row.version,
        campaign_time_zone(campaign),
    )


async def give_back(sessions: async_sessionmaker[AsyncSession], view: NpcView) -> bool:
    """End the NPCization the timer announced, if it is still that version."""
    try:
        async with sessions() as session, session.begin():
            await delete_versioned(
                session, Npcization, col(Npcization.character_id) == view.character_id, view.version
            )
    except StaleWrite:  # given back by hand or moved since the timer was read: nothing to do
        return False
    return True
