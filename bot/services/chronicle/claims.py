"""``/sheet claim``: a member takes over what their Umbría player wrote (issue 27).

An imported game's posts, rolls and characters belong to Umbría players
(:class:`~bot.db.models.ImportedPlayer`) until the GM matches each one to a Discord member,
the way ``/sheet transfer`` hands a character over: naming one of the player's characters and
the member.  In one transaction the player is marked as that member (compare-and-set on its
version), every character of the player passes to the member (each a versioned write), and
their posts and rolls become the member's (``author_user_id``, ``user_id``; ``/privacy``
then finds them as the member's own); an audit row records it.  A player claimed by mistake
is claimed again for the right member the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import update
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Character, ImportedPlayer, Post, RollLog, utcnow
from bot.services.campaigns.service import CampaignService, is_referee
from bot.services.chronicle.umbria_import import IMPORTED_KIND
from bot.services.shared.audit import AuditEntry, write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotReferee
from bot.services.shared.versioned import update_versioned
from bot.services.sheets.access import find_character

__all__ = ["ClaimService", "ClaimView"]


@dataclass(frozen=True, slots=True)
class ClaimView:
    player: str  # the Umbría name
    member_id: int
    characters: tuple[str, ...]
    posts: int
    rolls: int


class ClaimService:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], campaigns: CampaignService
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns

    async def claim(
        self, place: Place, actor: Actor, name: str, member_id: int, member_name: str
    ) -> ClaimView:
        campaign = await self.campaigns.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()
        async with self.sessions() as session, session.begin():
            character = await find_character(session, campaign, actor, name, npc=False)
            if character.imported_player_id is None:
                raise DomainError("umbria.error.not_imported", name=character.name)
            player = await session.get(ImportedPlayer, character.imported_player_id)
            if player is None or player.campaign_id != campaign.id:
                raise DomainError("umbria.error.no_player", name=character.name)
            if player.claimed_by == member_id:
                raise DomainError(
                    "umbria.error.already_claimed", player=player.name, member=member_id
                )
            await update_versioned(  # reported: claimed by someone else meanwhile
                session,
                ImportedPlayer,
                col(ImportedPlayer.id) == player.id,
                player.version,
                claimed_by=member_id,
                claimed_at=utcnow(),
            )
            view = await self._move(session, player, member_id, member_name)
            await write_audit(
                session,
                place,
                actor,
                campaign.id,
                character.name,
                AuditEntry(
                    kind="claim",
                    expression="claim",
                    breakdown=f"{player.name[:60]} → {member_id} ({member_name[:60]})",
                    total=0,
                    detail={"imported_player": player.id, "to": member_id},
                ),
            )
        return view

    @staticmethod
    async def _move(
        session: AsyncSession, player: ImportedPlayer, member_id: int, member_name: str
    ) -> ClaimView:
        """The player's characters, posts and rolls, the member's now (one statement each)."""
        names = (
            await session.exec(
                update(Character)
                .where(
                    col(Character.imported_player_id) == player.id,
                    col(Character.campaign_id) == player.campaign_id,
                    col(Character.is_npc).is_(False),
                )
                .values(owner_user_id=member_id, version=Character.version + 1, updated_at=utcnow())
                .returning(col(Character.name))
            )
        ).all()
        posts = await session.exec(
            update(Post)
            .where(col(Post.imported_player_id) == player.id)
            .values(author_user_id=member_id, version=Post.version + 1)
        )
        rolls = await session.exec(
            update(RollLog)
            .where(
                col(RollLog.campaign_id) == player.campaign_id,
                col(RollLog.kind) == IMPORTED_KIND,
                col(RollLog.detail)["umbria_player"].as_string() == player.external_id,
            )
            .values(user_id=member_id, user_name=member_name[:100])
        )
        return ClaimView(
            player=player.name,
            member_id=member_id,
            characters=tuple(sorted(str(row[0]) for row in names)),
            posts=posts.rowcount,
            rolls=rolls.rowcount,
        )
