"""The reads every roll from a sheet makes, answered from the per-process cache.

A ``/roll`` is signed with the roller's active character; a ``/check``, a roll request's
button and ``/sheet show`` read that character's sheet (or one known by id).  The campaign
cache (:mod:`bot.services.campaigns.cache`) keeps each campaign's active characters (names
and ids by member, one query per campaign shared by every lookup that arrives while it runs)
and the characters read, cleared on any write to a character; every write still reads and
compares the version it writes (:mod:`.writes`).  Issue 26: a whole table's checks at once
cost no query but their batched audit rows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import ActiveCharacter, Campaign, Character, saved_id
from bot.services.campaigns.service import CampaignService
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.sheets.access import find_character

__all__ = ["CachedReads"]

#: A campaign's active characters: names and ids, by member.
_Actives = tuple[Mapping[int, str], Mapping[int, int]]


class CachedReads:
    """Active characters and sheets, from the cache when it has them."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], campaigns: CampaignService
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns
        #: ``(campaign id, cache generation)`` → the read of its active characters in flight
        self._active_loads: dict[tuple[int, int], asyncio.Future[_Actives]] = {}

    async def active_name(self, place: Place, actor: Actor) -> str | None:
        """The name of the actor's active character where this campaign is played, if any.

        Answered from the per-process cache (:mod:`bot.services.campaigns.cache`, cleared on
        every write to characters or active characters); otherwise one indexed query reads
        the active characters of the whole campaign, shared by every lookup that arrives
        while it runs: a table's first rolls after a start cost one query, not one per player.
        """
        campaign = await self.campaigns.find(place)
        if campaign is None:
            return None
        campaign_id = saved_id(campaign)
        known = self.campaigns.cache.actives.get(campaign_id)
        if known is not None:
            return known.get(actor.user_id)
        return (await self._actives(campaign_id))[0].get(actor.user_id)

    async def _actives(self, campaign_id: int) -> _Actives:
        """The campaign's active characters (names, ids by member), one read shared by every
        lookup that arrives while it runs."""
        # only a read begun since the last write is joined: one begun before may be stale
        key = (campaign_id, self.campaigns.cache.generation)
        loading = self._active_loads.get(key)
        if loading is None:
            loading = asyncio.ensure_future(self._load_actives(*key))
            self._active_loads[key] = loading
            loading.add_done_callback(lambda _: self._active_loads.pop(key, None))
        return await asyncio.shield(loading)

    async def _load_actives(self, campaign_id: int, generation: int) -> _Actives:
        cache = self.campaigns.cache
        query = (
            select(ActiveCharacter.user_id, Character.id, Character.name)
            .join(Character, col(ActiveCharacter.character_id) == col(Character.id))
            .where(
                ActiveCharacter.campaign_id == campaign_id,
                col(Character.deleted_at).is_(None),
            )
        )
        async with self.sessions() as session:
            rows = (await session.exec(query)).all()
        names = {user_id: name for user_id, _id, name in rows}
        ids = {user_id: int(character_id or 0) for user_id, character_id, _name in rows}
        cache.store_actives(campaign_id, generation, names)
        cache.store_active_ids(campaign_id, generation, ids)
        return names, ids

    async def character(self, campaign: Campaign, actor: Actor, name: str | None) -> Character:
        """:func:`find_character` for the two reads every roll from a sheet makes — the
        actor's active character, or one known by id — answered from the per-process cache
        (:mod:`bot.services.campaigns.cache`) when it has them; a name is looked up as before."""
        if name is not None:
            async with self.sessions() as session:
                return await find_character(session, campaign, actor, name)
        cache, campaign_id = self.campaigns.cache, saved_id(campaign)
        ids = cache.active_ids.get(campaign_id)
        if ids is None:
            ids = (await self._actives(campaign_id))[1]
        character_id = ids.get(actor.user_id)
        if character_id is None:
            raise DomainError("sheet.error.no_active")
        return await self.by_id(campaign, character_id, "sheet.error.no_active", {})

    async def by_id(
        self, campaign: Campaign, character_id: int, missing: str, params: Mapping[str, Any]
    ) -> Character:
        """The campaign's character ``character_id``, from the cache or read and kept;
        ``missing`` (with ``params``) when it is not the campaign's or was deleted."""
        cache = self.campaigns.cache
        character = cache.character(character_id)
        if character is None:
            generation = cache.generation
            async with self.sessions() as session:
                character = await session.get(Character, character_id)
            if character is not None:
                cache.store_character(generation, character)
        if (
            character is None
            or character.campaign_id != campaign.id
            or character.deleted_at is not None
        ):
            raise DomainError(missing, **params)
        return character
