"""``/sheet profile``: a character's public face (avatar, concept, public description).

The profile is what everyone sees on each post and on ``/sheet show`` of someone else's
character; the full sheet stays for its owner and the GM.  The avatar is stored as bytes
(validated by magic bytes, at most :data:`~bot.services.shared.post_text.AVATAR_MAX_BYTES`): a
Discord attachment link expires in about a day and Discord refuses its own CDN links as a
webhook ``avatar_url``, so a link would not last a campaign of years (docs/play-by-post.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import (
    Campaign,
    Character,
    CharacterNote,
    CharacterProfile,
    saved_id,
    utcnow,
)
from bot.services.campaigns.service import CampaignService, is_referee
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.post_text import Avatar, checked_avatar
from bot.services.shared.retry import retrying
from bot.services.shared.versioned import StaleWrite, update_versioned
from bot.services.sheets.access import CharacterView, find_character, require_editor
from bot.services.sheets.characters import CharacterService

__all__ = ["MAX_CONCEPT", "MAX_DESCRIPTION", "ProfileChange", "ProfileService", "ProfileView"]

MAX_CONCEPT = 100
MAX_DESCRIPTION = 1000


@dataclass(frozen=True, slots=True)
class ProfileChange:
    """What ``/sheet profile`` changes; ``None`` keeps the current value."""

    concept: str | None = None
    description: str | None = None
    avatar: bytes | None = None
    clear_avatar: bool = False

    @property
    def empty(self) -> bool:
        """Nothing to change: ``/sheet profile`` without options shows the profile."""
        return (
            self.concept is None
            and self.description is None
            and self.avatar is None
            and not self.clear_avatar
        )


@dataclass(frozen=True, slots=True)
class ProfileView:
    character_id: int
    name: str
    owner_user_id: int
    is_npc: bool
    concept: str | None
    description: str | None
    avatar: Avatar | None
    #: the viewer is the owner or a referee: the full sheet is theirs to see
    full_sheet: bool
    version: int
    #: the public story (an Umbría character's «Historia», issue 27)
    history: str | None = None
    #: the note only referees see (an Umbría character's «Ficha» and «Equipo»); None for
    #: anyone else, whatever is stored
    gm_note: str | None = None


def _avatar(profile: CharacterProfile | None) -> Avatar | None:
    if profile is None or not profile.avatar or not profile.avatar_type or not profile.avatar_hash:
        return None
    return Avatar(profile.avatar, profile.avatar_type, profile.avatar_hash)


class ProfileService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        campaigns: CampaignService,
        characters: CharacterService | None = None,
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns
        self.characters = characters or CharacterService(sessions, campaigns)

    async def sheet_and_profile(
        self, place: Place, actor: Actor, name: str | None
    ) -> tuple[ProfileView, CharacterView | None]:
        """``/sheet show``: the profile, with the whole sheet for its owner or a referee, and
        for any NPC (those the actor may see); None for another player's character, which
        shows its public profile alone."""
        profile = await self.show(place, actor, name)
        if not profile.full_sheet and not profile.is_npc:
            return profile, None
        return profile, await self.characters.show(place, actor, name)

    async def show(self, place: Place, actor: Actor, name: str | None) -> ProfileView:
        """The public profile of a character the actor may see (hidden NPCs: referees)."""
        campaign = await self.campaigns.require(place)
        async with self.sessions() as session:
            character = await find_character(session, campaign, actor, name)
            profile = await session.get(CharacterProfile, saved_id(character))
            referee = is_referee(campaign, actor)
            note = await session.get(CharacterNote, saved_id(character)) if referee else None
        view = self._view(character, profile, referee, actor)
        return replace(view, gm_note=note.text if note is not None else None)

    @staticmethod
    def _view(
        character: Character, profile: CharacterProfile | None, referee: bool, actor: Actor
    ) -> ProfileView:
        return ProfileView(
            character_id=saved_id(character),
            name=character.name,
            owner_user_id=character.owner_user_id,
            is_npc=character.is_npc,
            concept=profile.concept if profile else None,
            description=profile.description if profile else None,
            avatar=_avatar(profile),
            full_sheet=referee or character.owner_user_id == actor.user_id,
            version=profile.version if profile else 0,
            history=profile.history if profile else None,
        )

    async def update(
        self, place: Place, actor: Actor, name: str | None, change: ProfileChange
    ) -> ProfileView:
        """Change the profile (its owner or a referee), compare-and-set on its version; the
        first change creates it (two first changes at once: one wins, the other retries).
        An empty change shows the profile (:meth:`show`)."""
        if change.empty:
            return await self.show(place, actor, name)
        concept = change.concept.strip() if change.concept is not None else None
        description = change.description.strip() if change.description is not None else None
        if concept is not None and len(concept) > MAX_CONCEPT:
            raise DomainError("post.error.concept_too_long", limit=MAX_CONCEPT)
        if description is not None and len(description) > MAX_DESCRIPTION:
            raise DomainError("post.error.description_too_long", limit=MAX_DESCRIPTION)
        avatar = None
        if change.avatar is not None:
            avatar = checked_avatar(change.avatar)
        campaign = await self.campaigns.require(place)
        values: dict[str, Any] = {}
        if concept is not None:
            values["concept"] = concept or None
        if description is not None:
            values["description"] = description or None
        if avatar is not None:
            values.update(avatar=avatar.data, avatar_type=avatar.kind, avatar_hash=avatar.sha256)
        elif change.clear_avatar:
            values.update(avatar=None, avatar_type=None, avatar_hash=None)
        # retried on a clash: the member asked for these values, whatever changed meanwhile
        return await retrying(lambda: self._write(place, actor, campaign, name, values))

    async def _write(
        self,
        place: Place,
        actor: Actor,
        campaign: Campaign,
        name: str | None,
        values: dict[str, Any],
    ) -> ProfileView:
        """One attempt: :class:`StaleWrite` when the profile changed since it was read (or
        another first change created it meanwhile)."""
        async with self.sessions() as session, session.begin():
            character = await find_character(session, campaign, actor, name)
            require_editor(campaign, character, actor)
            profile = await session.get(CharacterProfile, saved_id(character))
            if profile is None:
                profile = CharacterProfile(
                    character_id=saved_id(character),
                    guild_id=place.guild_id,
                    campaign_id=saved_id(campaign),
                    **values,  # the columns named above
                )
                session.add(profile)
                try:
                    await session.flush()
                except IntegrityError:  # another first change created the row: write on it
                    raise StaleWrite() from None
            else:
                await update_versioned(
                    session,
                    CharacterProfile,
                    col(CharacterProfile.character_id) == profile.character_id,
                    profile.version,
                    **values,
                    updated_at=utcnow(),
                )
                await session.refresh(profile)
            return self._view(character, profile, is_referee(campaign, actor), actor)
