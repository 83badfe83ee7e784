"""``/proxy``: the tags a typed message starts with to post as a character (issue 24).

Every character answers to its name and a colon (``Ardelia: …``) without a stored tag; its
player (or the GM, for any character and every NPC) may add others: a short prefix
(``A:``), or a prefix and suffix around the word «texto» (``-texto-``).  A tag is unique in
its campaign, compared without case or accents, so a message never matches two characters;
the unique index settles two members choosing the same tag at once.  A player is never told
whose a tag is when it belongs to someone else (a hidden NPC's tag must not give it away).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.locks import lock_campaign
from bot.db.models import Campaign, Character, ProxyTag, saved_id
from bot.services.campaigns.service import CampaignService, is_referee
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.shared.typed_text import TagPattern, name_tag, parse_tag
from bot.services.sheets.access import find_character, require_editor

__all__ = ["MAX_TAGS", "ProxyTagService", "Speakable", "TagList"]

#: Custom tags per character (its name tag is always there besides).
MAX_TAGS = 5


@dataclass(frozen=True, slots=True)
class TagList:
    """A character's tags as ``/proxy list`` shows them: its name tag, then the others."""

    character_id: int
    name: str
    name_tag: TagPattern
    tags: tuple[TagPattern, ...]


@dataclass(frozen=True, slots=True)
class Speakable:
    """A character a typed message may speak as, with every tag that selects it."""

    character_id: int
    name: str
    owner_user_id: int
    is_npc: bool
    tags: tuple[TagPattern, ...]  # the name tag first


class ProxyTagService:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], campaigns: CampaignService
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns

    async def add(self, place: Place, actor: Actor, character: str | None, raw: str) -> TagList:
        """Add a tag to a character the actor may edit (its owner or the GM)."""
        tag = parse_tag(raw)
        campaign = await self.campaigns.require(place)
        try:
            async with self.sessions() as session, session.begin():
                target = await find_character(session, campaign, actor, character)
                require_editor(campaign, target, actor)
                await lock_campaign(session, saved_id(campaign))
                await self._refuse_clash(session, campaign, actor, target, tag)
                count = len(await self._tags(session, saved_id(target)))
                if count >= MAX_TAGS:
                    raise DomainError(
                        "typing.error.too_many_tags", name=target.name, limit=MAX_TAGS
                    )
                session.add(
                    ProxyTag(
                        guild_id=place.guild_id,
                        campaign_id=saved_id(campaign),
                        character_id=saved_id(target),
                        prefix=tag.prefix,
                        suffix=tag.suffix,
                        tag_key=tag.key,
                        created_by=actor.user_id,
                    )
                )
        except IntegrityError:  # another member took the same tag at the same moment
            raise self._taken(campaign, actor, tag) from None
        return await self.list(place, actor, character)

    async def remove(self, place: Place, actor: Actor, character: str | None, raw: str) -> TagList:
        """Remove one of a character's added tags (its name tag cannot be removed)."""
        tag = parse_tag(raw)
        campaign = await self.campaigns.require(place)
        async with self.sessions() as session, session.begin():
            target = await find_character(session, campaign, actor, character)
            require_editor(campaign, target, actor)
            if tag.key == name_tag(target.name).key:
                raise DomainError("typing.error.name_tag_stays", tag=tag.shown())
            gone = await session.exec(
                delete(ProxyTag).where(
                    col(ProxyTag.character_id) == saved_id(target),
                    col(ProxyTag.tag_key) == tag.key,
                )
            )
            if gone.rowcount != 1:
                raise DomainError("typing.error.no_such_tag", tag=tag.shown(), name=target.name)
        return await self.list(place, actor, character)

    async def list(self, place: Place, actor: Actor, character: str | None) -> TagList:
        """A character's tags (any character the actor may see)."""
        campaign = await self.campaigns.require(place)
        async with self.sessions() as session:
            target = await find_character(session, campaign, actor, character)
            rows = await self._tags(session, saved_id(target))
        return TagList(
            saved_id(target),
            target.name,
            name_tag(target.name),
            tuple(TagPattern(row.prefix, row.suffix) for row in rows),
        )

    async def speakables(self, campaign: Campaign, actor: Actor) -> tuple[Speakable, ...]:
        """The characters ``actor`` may post as by typing, each with its tags: their own
        approved characters; for a referee every character and NPC of the campaign."""
        referee = is_referee(campaign, actor)
        query = select(Character).where(
            Character.guild_id == campaign.guild_id,
            Character.campaign_id == campaign.id,
            col(Character.deleted_at).is_(None),
            Character.approval == "approved",
        )
        if not referee:
            query = query.where(
                Character.owner_user_id == actor.user_id, col(Character.is_npc).is_(False)
            )
        async with self.sessions() as session:
            characters = (await session.exec(query.limit(500))).all()
            ids = [saved_id(c) for c in characters]
            extra: dict[int, list[TagPattern]] = {}
            if ids:
                for row in (
                    await session.exec(select(ProxyTag).where(col(ProxyTag.character_id).in_(ids)))
                ).all():
                    extra.setdefault(row.character_id, []).append(
                        TagPattern(row.prefix, row.suffix)
                    )
        return tuple(
            Speakable(
                saved_id(c),
                c.name,
                c.owner_user_id,
                c.is_npc,
                (name_tag(c.name), *extra.get(saved_id(c), ())),
            )
            for c in characters
        )

    @staticmethod
    async def _tags(session: AsyncSession, character_id: int) -> Sequence[ProxyTag]:
        query = select(ProxyTag).where(ProxyTag.character_id == character_id)
        return (await session.exec(query.order_by(col(ProxyTag.id)))).all()

    async def _refuse_clash(
        self,
        session: AsyncSession,
        campaign: Campaign,
        actor: Actor,
        target: Character,
        tag: TagPattern,
    ) -> None:
        """A tag another character already answers to (an added tag, or a name tag) is
        refused; the character's own name tag is refused as already there."""
        if tag.key == name_tag(target.name).key:
            raise DomainError("typing.error.name_tag_stays", tag=tag.shown())
        added = (
            await session.exec(
                select(ProxyTag.id).where(
                    ProxyTag.campaign_id == campaign.id, ProxyTag.tag_key == tag.key
                )
            )
        ).first()
        named = False
        if added is None and not tag.suffix:
            names = (
                await session.exec(
                    select(Character.name).where(
                        Character.campaign_id == campaign.id,
                        col(Character.deleted_at).is_(None),
                    )
                )
            ).all()
            named = any(name_tag(n).key == tag.key for n in names)
        if added is not None or named:
            raise self._taken(campaign, actor, tag)

    @staticmethod
    def _taken(campaign: Campaign, actor: Actor, tag: TagPattern) -> DomainError:
        """Taken: the same words to everyone, so a player learns nothing of whose it is."""
        if is_referee(campaign, actor):
            return DomainError("typing.error.tag_taken", tag=tag.shown())
        return NotAllowed("typing.error.tag_taken", tag=tag.shown())
