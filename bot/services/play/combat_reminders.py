"""Play-by-post turn reminders: what a fired turn timer says (whose turn, where).

``/init deadline`` sets how long a turn may wait (:meth:`CombatService.set_deadline`); every
change of the fight moves the durable timer (kind :data:`.combat_store.TURN_TIMER`, ref the
fight's id) in the same transaction (:meth:`.combat_store.FightStore.store`).  When it fires,
:func:`reminder` reads the fight as it is *then*.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, CombatRecord, saved_id
from bot.services.play.combat_views import Reminder
from bot.services.shared.timers import Due
from rules.combat import Combat

__all__ = ["reminder"]


async def reminder(sessions: async_sessionmaker[AsyncSession], due: Due) -> Reminder | None:
    """What a claimed turn timer says now: whose turn, where; None if nothing to remind.

    Read when the timer fires (not when it was set), so a fight ended or a turn passed
    meanwhile reminds nobody: both move or cancel the timer in the same transaction.
    """
    async with sessions() as session:
        row = (
            await session.exec(
                select(CombatRecord, Campaign)
                .join(Campaign, col(Campaign.id) == CombatRecord.campaign_id)
                .where(CombatRecord.id == int(due.ref), CombatRecord.status == "active")
            )
        ).first()
    if row is None:
        return None
    record, campaign = row
    combat = Combat.from_dict(record.state)
    if combat.current is None or not record.turn_hours:
        return None
    return Reminder(
        channel_id=record.channel_id,
        combat_id=saved_id(record),
        name=combat.current.name,
        mention_id=combat.current.owner_id or campaign.gm_user_id,
        round=combat.round,
        hours=record.turn_hours,
        locale=campaign.locale,
        nonce=due.nonce,
    )
