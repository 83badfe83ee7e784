"""Who a typed message speaks as (issue 24 §2): its tag, else the character that sticks.

* The character whose proxy tag the message starts with (its name and a colon, or a tag
  added with ``/proxy``); a referee also speaks as any NPC by its tag and as the narrator
  (``Narrador:`` / ``Narrator:``), a player only as their own approved characters.
* Without a tag: the character that sticks to the member in that scene — the last of their
  own characters they posted as there with a tag (a versioned row per scene and member) —,
  else their active character in the campaign.  NPCs and the narrator never stick: a GM's
  untagged message stays the GM's own.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import ActiveCharacter, Campaign, SceneSpeaker, utcnow
from bot.services.campaigns.service import is_referee
from bot.services.shared.context import Actor
from bot.services.shared.retry import retrying
from bot.services.shared.typed_text import TagPattern, match_tag
from bot.services.shared.versioned import StaleWrite, update_versioned
from bot.services.sheets.proxy_tags import ProxyTagService, Speakable
from bot.services.table.scenes import SceneView

__all__ = ["NARRATOR_ID", "NARRATOR_TAGS", "Speaking", "SpeakerChooser"]

log = logging.getLogger(__name__)

#: The narrator's tags (referees only), in Spanish and English.
NARRATOR_TAGS = (TagPattern("Narrador:"), TagPattern("Narrator:"))
#: The narrator among the candidates (no character has id 0).
NARRATOR_ID = 0


@dataclass(frozen=True, slots=True)
class Speaking:
    """Who speaks (a character id, or :data:`NARRATOR_ID`) and the text without its tag."""

    character_id: int
    text: str
    #: said with a tag as one of the member's own characters: it sticks in this scene
    sticks: bool


class SpeakerChooser:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], tags: ProxyTagService) -> None:
        self.sessions = sessions
        self.tags = tags

    async def choose(
        self, campaign: Campaign, scene: SceneView, actor: Actor, text: str, *, has_files: bool
    ) -> Speaking | None:
        """Who ``text`` speaks as in ``scene``; None: nobody (the member's own message)."""
        speakables = await self.tags.speakables(campaign, actor)
        candidates: list[tuple[TagPattern, int]] = [
            (tag, s.character_id) for s in speakables for tag in s.tags
        ]
        if is_referee(campaign, actor):
            candidates += [(tag, NARRATOR_ID) for tag in NARRATOR_TAGS]
        matched = match_tag(text, candidates, has_files=has_files)
        own = own_characters(speakables, actor)
        if matched is not None:
            character_id, inner = matched
            return Speaking(character_id, inner, character_id in own)
        sticky = await self.sticky(campaign, scene, actor, set(own))
        return Speaking(sticky, text.strip(), False) if sticky is not None else None

    async def sticky(
        self, campaign: Campaign, scene: SceneView, actor: Actor, own: set[int]
    ) -> int | None:
        """The member's character in this scene: the one that stuck, else the active one."""
        async with self.sessions() as session:
            stuck = await session.get(SceneSpeaker, (scene.id, actor.user_id))
            if stuck is not None and stuck.character_id in own:
                return stuck.character_id
            active = await session.get(ActiveCharacter, (campaign.id, actor.user_id))
        if active is not None and active.character_id in own:
            return active.character_id
        return None

    async def stick(self, scene: SceneView, actor: Actor, character_id: int) -> None:
        """The character a member just posted as with a tag sticks to them in the scene
        (compare-and-set on the row's version, retried; a first row raced by another is read
        again)."""

        async def attempt() -> None:
            try:
                await self._stick_once(scene, actor, character_id)
            except IntegrityError:
                raise StaleWrite() from None

        try:
            await retrying(attempt, limit=3)
        except StaleWrite:
            log.warning("could not record the sticky character of %s in scene %s", actor, scene.id)

    async def _stick_once(self, scene: SceneView, actor: Actor, character_id: int) -> None:
        async with self.sessions() as session, session.begin():
            row = await session.get(SceneSpeaker, (scene.id, actor.user_id))
            if row is None:
                session.add(
                    SceneSpeaker(
                        scene_id=scene.id,
                        user_id=actor.user_id,
                        guild_id=scene.guild_id,
                        character_id=character_id,
                    )
                )
                return
            if row.character_id == character_id:
                return
            await update_versioned(
                session,
                SceneSpeaker,
                (col(SceneSpeaker.scene_id) == scene.id)
                & (col(SceneSpeaker.user_id) == actor.user_id),
                row.version,
                character_id=character_id,
                updated_at=utcnow(),
            )


def own_characters(speakables: tuple[Speakable, ...], actor: Actor) -> dict[int, str]:
    """The member's own (non-NPC) characters among those they may speak as: id → name."""
    return {
        s.character_id: s.name
        for s in speakables
        if s.owner_user_id == actor.user_id and not s.is_npc
    }
