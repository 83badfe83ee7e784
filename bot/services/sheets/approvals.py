"""Who plays what (issue 12 §2b): the GM approves new characters and hands one to another player.

Where the campaign asks for it (setting ``aprobar_personajes``) a player's new or imported
character is stored ``pending`` (:meth:`CharacterService.create`) and does not play until the
GM approves it here; approving makes it its owner's active character when the owner has none.
``/sheet transfer`` gives a character to another member for good: the same row (id, roll log,
XP ledger) with a new owner.

Both are compare-and-set writes on the character's ``version``, computed on the row read in
the same use case, and both leave a row in the audit log.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import ActiveCharacter, Campaign, Character, saved_id, utcnow
from bot.services.campaigns.service import CampaignService, is_referee
from bot.services.shared.audit import AuditEntry, write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotReferee
from bot.services.shared.versioned import update_versioned
from bot.services.sheets.access import NO_SHEET, find_character

__all__ = ["ApprovalService", "ApprovalView", "TransferView"]

APPROVAL_STATES = ("approved", "pending", "rejected", NO_SHEET)


@dataclass(frozen=True, slots=True)
class ApprovalView:
    character_id: int
    name: str
    owner_user_id: int
    approval: str
    #: approving made it its owner's active character (the owner had none)
    made_active: bool
    log_id: int


@dataclass(frozen=True, slots=True)
class TransferView:
    character_id: int
    name: str
    previous_owner_id: int
    new_owner_id: int
    #: the previous owner's active character was this one and no longer is
    cleared_active: bool
    log_id: int
    #: the new owner had no active character in the campaign: this one is (issue 23 §5)
    made_active: bool = False


class ApprovalService:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], campaigns: CampaignService
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns

    async def _referee_campaign(self, place: Place, actor: Actor) -> Campaign:
        campaign = await self.campaigns.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()
        return campaign

    @staticmethod
    async def _character(session: AsyncSession, campaign: Campaign, character_id: int) -> Character:
        character = await session.get(Character, character_id)
        if (
            character is None
            or character.campaign_id != campaign.id
            or character.deleted_at is not None
            or character.is_npc
        ):
            raise DomainError("approval.error.gone")
        return character

    async def decide(
        self, place: Place, actor: Actor, character_id: int, *, approve: bool
    ) -> ApprovalView:
        """The GM's Approve/Reject button on a new sheet (a rejected one may still be
        approved later; an approved one stays approved)."""
        campaign = await self._referee_campaign(place, actor)
        wanted = "approved" if approve else "rejected"
        async with self.sessions() as session, session.begin():
            character = await self._character(session, campaign, character_id)
            if character.approval == NO_SHEET:  # the wizard builds its sheet first
                raise DomainError("umbria.error.no_sheet", name=character.name)
            if character.approval == "approved":
                raise DomainError("approval.error.already_approved", name=character.name)
            if character.approval == wanted:
                raise DomainError("approval.error.already_rejected", name=character.name)
            await update_versioned(  # reported: another decision or edit got in first
                session,
                Character,
                col(Character.id) == character.id,
                character.version,
                approval=wanted,
                updated_at=utcnow(),
            )
            made_active = approve and await _activate_if_none(
                session, campaign, character, character.owner_user_id
            )
            log_id = await write_audit(
                session,
                place,
                actor,
                campaign.id,
                character.name,
                AuditEntry(
                    kind="approval",
                    expression=wanted,
                    breakdown=f"{character.approval} → {wanted}",
                    total=0,
                    detail={"character_id": character.id, "owner_id": character.owner_user_id},
                ),
            )
            return ApprovalView(
                saved_id(character),
                character.name,
                character.owner_user_id,
                wanted,
                made_active,
                log_id,
            )

    async def decide_by_name(
        self, place: Place, actor: Actor, name: str, *, approve: bool
    ) -> ApprovalView:
        """``/sheet approve``: the same decision by the character's name (when the message
        with the buttons is gone)."""
        campaign = await self._referee_campaign(place, actor)
        async with self.sessions() as session:
            character = await find_character(session, campaign, actor, name, npc=False)
        return await self.decide(place, actor, saved_id(character), approve=approve)

    async def transfer(
        self, place: Place, actor: Actor, name: str, new_owner_id: int, new_owner_name: str
    ) -> TransferView:
        """``/sheet transfer``: the character keeps its id, log and ledger; only the owner
        changes (a versioned write), and the previous owner's active-character pointer is
        cleared if it pointed to it, in the same transaction."""
        campaign = await self._referee_campaign(place, actor)
        async with self.sessions() as session, session.begin():
            character = await find_character(session, campaign, actor, name, npc=False)
            previous = character.owner_user_id
            if previous == new_owner_id:
                raise DomainError("approval.error.same_owner", name=character.name)
            await update_versioned(  # reported: the sheet changed hands or content meanwhile
                session,
                Character,
                col(Character.id) == character.id,
                character.version,
                col(Character.owner_user_id) == previous,
                owner_user_id=new_owner_id,
                updated_at=utcnow(),
            )
            cleared = await session.exec(
                delete(ActiveCharacter).where(
                    col(ActiveCharacter.campaign_id) == campaign.id,
                    col(ActiveCharacter.user_id) == previous,
                    col(ActiveCharacter.character_id) == character.id,
                )
            )
            made_active = character.approval == "approved" and await _activate_if_none(
                session, campaign, character, new_owner_id
            )
            audit = _transfer_audit(saved_id(character), previous, new_owner_id, new_owner_name)
            log_id = await write_audit(session, place, actor, campaign.id, character.name, audit)
            return TransferView(
                saved_id(character),
                character.name,
                previous,
                new_owner_id,
                cleared.rowcount == 1,
                log_id,
                made_active,
            )


def _transfer_audit(character_id: int, previous: int, new_owner_id: int, name: str) -> AuditEntry:
    """The transfer's audit row: from whom to whom (the new owner's name as given)."""
    return AuditEntry(
        kind="transfer",
        expression="transfer",
        breakdown=f"{previous} → {new_owner_id} ({name[:60]})",
        total=0,
        detail={"character_id": character_id, "from": previous, "to": new_owner_id},
    )


async def _activate_if_none(
    session: AsyncSession, campaign: Campaign, character: Character, user_id: int
) -> bool:
    """Make ``character`` ``user_id``'s active one when they have none in the campaign
    (a new owner or an approved player need not `/sheet use` it), in the caller's
    transaction; False when they already play another.  Two of these at once for the same
    member (two characters handed to them together) insert the same key: the second's
    savepoint rolls back and it leaves the first one active."""
    if await session.get(ActiveCharacter, (campaign.id, user_id)) is not None:
        return False
    try:
        async with session.begin_nested():
            session.add(
                ActiveCharacter(
                    campaign_id=saved_id(campaign),
                    user_id=user_id,
                    guild_id=campaign.guild_id,
                    character_id=saved_id(character),
                )
            )
    except IntegrityError:
        return False
    return True
