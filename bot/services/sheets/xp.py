"""Experience: the referee grants it, the system applies it, the campaign keeps the record.

What a grant buys is the system's business (``GameSystem.grant_xp``: S&W levels with the XP
bonus and the multiclass split; rolweb and Núcleo only add points to spend).  Each grant and
its award row are written in one transaction under the sheet's version check.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import XpAward
from bot.services.campaigns.service import is_referee
from bot.services.shared.audience import (
    PUBLIC,
    Reader,
    Secrecy,
    Shown,
    Sight,
    show,
    show_all,
    sight,
)
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotReferee
from bot.services.shared.reveals import reveals_of
from bot.services.sheets.changes import AskPurchase, DecidePurchase, Granted, GrantXp, SpendXp
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.undo import Undoable
from bot.services.sheets.writes import Applied
from rules.systems.base import AdvanceResult, StepOption, capabilities

__all__ = ["XpService", "GrantView", "GrantLine", "AwardEntry", "MAX_GRANT", "grant_for"]

MAX_GRANT = 10_000_000
MAX_REASON = 200


@dataclass(frozen=True, slots=True)
class GrantLine:
    character_name: str
    xp_before: int
    xp_after: int
    levels: tuple[tuple[str, int, int], ...]  # (class or track, before, after) that changed
    notes: tuple[str, ...]
    undo: Undoable | None = None  # the grant's audit row, for the GM's undo button
    hit_die: bool = False  # S&W: a new level owes hit dice (the reply offers the roll)
    system: str = ""  # whose ids the tracks are (``clerigo`` is shown «Clérigo»)
    #: a session's award: this character's per-session bonus (Núcleo: Humano +1) and its source
    session_bonus: int = 0
    bonus_source: str | None = None
    #: a player's purchase waiting for the GM («Sigilo 1 → 2 (4 PX)»): nothing bought yet
    waiting: str | None = None
    character_id: int = 0
    #: who may see it: an award to a hidden NPC is the GM's until the NPC is revealed
    secrecy: Secrecy = PUBLIC


@dataclass(frozen=True, slots=True)
class GrantView:
    amount: int
    reason: str | None
    lines: tuple[GrantLine, ...]
    #: a game session's award (per-session bonuses applied), not a one-off grant
    session: bool = False


def grant_for(
    view: GrantView, reader: Reader, *, kept_from: Reader | None = None
) -> Shown[GrantView] | None:
    """The grant as ``reader`` may read it (the audience rule, per character): ``None``
    when he may see none of it (an award to a hidden NPC, in the channel).  ``kept_from``:
    only the awards that reader may not see (what the GM reads apart from the channel)."""
    lines = tuple(
        line
        for line in view.lines
        if sight(line.secrecy, reader) is not None
        and (kept_from is None or sight(line.secrecy, kept_from) is None)
    )
    if not lines:
        return None
    return show(PUBLIC, reader, lambda _seen: replace(view, lines=lines))


@dataclass(frozen=True, slots=True)
class AwardEntry:
    character_name: str
    amount: int
    xp_after: int
    reason: str | None
    granted_by: int
    created_at: datetime  # shown as a Discord timestamp: each reader's zone


def _line(
    name: str,
    result: AdvanceResult,
    undo: Undoable | None = None,
    system: str = "",
    bonus: int = 0,
    source: str | None = None,
    secrecy: Secrecy = PUBLIC,
) -> GrantLine:
    return GrantLine(
        character_name=name,
        xp_before=result.xp_before,
        xp_after=result.xp_after,
        levels=tuple(
            (track, before, after)
            for track, (before, after) in result.levels.items()
            if before != after
        ),
        notes=tuple(result.notes),
        undo=undo,
        hit_die=result.hit_dice,
        system=system,
        session_bonus=bonus,
        bonus_source=source,
        secrecy=secrecy,
    )


def _granted(applied: Applied[Granted]) -> GrantLine:
    undo = Undoable(applied.log_id, applied.view.version) if applied.log_id else None
    granted = applied.value
    return _line(
        applied.view.name,
        granted.result,
        undo,
        applied.view.system,
        granted.bonus,
        granted.why,
        applied.secrecy,
    )


class XpService:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], characters: CharacterService
    ) -> None:
        self.sessions = sessions
        self.characters = characters

    async def grant(
        self,
        place: Place,
        actor: Actor,
        amount: int,
        *,
        character: str | None = None,
        party: bool = False,
        reason: str | None = None,
        session: bool | None = None,
    ) -> GrantView:
        """Grant ``amount`` (negative corrects a mistake) to one character or to every player's.

        ``session`` marks a game session's award (default: a party grant is one, a grant to
        one character is not): per-session bonuses apply once to each character's share
        (Núcleo's races, ``SessionAward``).  A correction is never a session's award."""
        context = await self.characters.contexts.load(place)
        if not is_referee(context.campaign, actor):
            raise NotReferee()
        if amount == 0 or abs(amount) > MAX_GRANT:
            raise DomainError("xp.error.bad_amount", limit=MAX_GRANT)
        reason = (reason or "").strip() or None
        if reason and len(reason) > MAX_REASON:
            raise DomainError("xp.error.reason_too_long", limit=MAX_REASON)
        if party == (character is not None):
            raise DomainError("xp.error.who")
        if session and amount < 0:
            raise DomainError("xp.error.session_correction")
        session = (party if session is None else session) and amount > 0
        change = GrantXp(amount, actor.user_id, reason, session=session)
        if party:
            targets = [summary.id for summary in await self.characters.list(place, actor)]
            if not targets:
                raise DomainError("xp.error.no_party")
            # All or none: one transaction; every sheet that refuses is listed.
            applied = await self.characters.writer.apply_all(place, actor, targets, change)
        else:
            applied = (await self.characters.writer.apply(place, actor, change, name=character),)
        return GrantView(
            amount=amount,
            reason=reason,
            lines=tuple(_granted(a) for a in applied),
            session=session,
        )

    async def spend(
        self, place: Place, actor: Actor, what: str, *, character: str | None = None
    ) -> GrantLine:
        """Spend the character's experience on ``what`` (a rolweb ability's next level, a
        Núcleo skill or attribute from its advancement table).

        The player spends his own; the GM anyone's.  Where the campaign asks for it
        (``PurchaseApproval``), a player's purchase waits for the GM instead (``waiting``).
        Systems where experience buys nothing by choice are told apart with a clear message,
        not a silent no-op.
        """
        context = await self.characters.contexts.load(place)
        found = capabilities(context.system)
        if found.advancement is None:
            raise DomainError("xp.error.nothing_to_buy", system=context.system.name)
        approval = found.purchase_approval
        if (
            approval is not None
            and approval.needs_approval(context.settings)
            and not is_referee(context.campaign, actor)
        ):
            asked = await self.characters.writer.apply(
                place, actor, AskPurchase(what), name=character
            )
            view = asked.view
            return GrantLine(
                view.name,
                0,
                0,
                (),
                (),
                system=view.system,
                waiting=asked.value,
                character_id=view.id,
            )
        applied = await self.characters.writer.apply(place, actor, SpendXp(what), name=character)
        return _line(
            applied.view.name, applied.value, system=applied.view.system, secrecy=applied.secrecy
        )

    async def decide_purchase(
        self, place: Place, actor: Actor, character_id: int, *, approve: bool
    ) -> tuple[GrantLine, str]:
        """The GM approves (buys) or rejects the purchase waiting on a character's sheet;
        returns what it did and what was asked."""
        campaign = await self.characters.campaigns.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()
        applied = await self.characters.writer.apply(
            place, actor, DecidePurchase(approve), character_id=character_id
        )
        asked, result = applied.value
        if result is None:
            view = applied.view
            return GrantLine(view.name, 0, 0, (), (), system=view.system), asked
        return _line(applied.view.name, result, system=applied.view.system), asked

    async def purchases(
        self, place: Place, actor: Actor, character: str | None
    ) -> tuple[StepOption, ...]:
        """What the character could buy now (autocomplete); empty where nothing is bought."""
        try:
            _campaign, stored, system, settings = await self.characters.sheet_of(
                place, actor, character
            )
        except DomainError:
            return ()
        advancement = capabilities(system).advancement
        if advancement is None:
            return ()
        return advancement.purchases(stored.sheet, settings)

    async def log(
        self, place: Place, actor: Actor, *, character: str | None = None, limit: int = 15
    ) -> tuple[Shown[AwardEntry], ...]:
        """The campaign's awards the actor may read, newest first (one character's when
        named): an award to a hidden NPC is the GM's until the NPC is revealed."""
        campaign = await self.characters.campaigns.require(place)
        reader = Reader.of(actor.user_id, is_referee(campaign, actor) or actor.is_admin)
        query = select(XpAward).where(
            XpAward.guild_id == campaign.guild_id, XpAward.campaign_id == campaign.id
        )
        if character is not None:
            view = await self.characters.show(place, actor, character)
            query = query.where(XpAward.character_id == view.id)
        query = query.order_by(col(XpAward.id).desc()).limit(max(1, min(limit, 25)))
        async with self.sessions() as session:
            rows = (await session.exec(query)).all()
            reveals = await reveals_of(session, campaign.id)

        def entry(r: XpAward, _seen: Sight) -> AwardEntry:
            return AwardEntry(
                r.character_name, r.amount, r.xp_after, r.reason, r.granted_by, r.created_at
            )

        return tuple(
            show_all(
                rows,
                reader,
                Secrecy.of_row,
                entry,
                written_at=lambda r: r.created_at,
                reveals=reveals,
            )
        )
