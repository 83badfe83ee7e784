"""Healing between fights (issue 23 §3): ``/rest days``, ``/rest breath`` and ``/heal``.

What a day of rest or a short rest heals is the system's (:class:`~rules.systems.base.Recovery`,
:class:`~rules.systems.base.CatchBreath`, in ``rules/<id>/recovery.py`` with the seeds cited);
this module finds who rests, writes each sheet through :class:`SheetWriter` (the versioned
compare-and-set, with its audit row: kind ``rest`` or ``heal``, undoable by the GM) and says
whom the reply may show (a hidden NPC's recovery is the GM's alone).  Every command works in
and out of a fight; when someone it healed is in this channel's fight, the view carries the
fight's panel so the cog shows it refreshed (a healed combatant is back in the order).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import CombatRecord, saved_id
from bot.grammar import gender_of
from bot.services.campaigns.context import CampaignContext
from bot.services.campaigns.service import is_referee
from bot.services.play.combat import CombatService
from bot.services.play.combat_store import active_fight
from bot.services.play.combat_views import CombatView
from bot.services.shared.audience import PUBLIC, Secrecy
from bot.services.shared.audit import AuditEntry
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from bot.services.sheets.changes import Heal
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.undo import Undoable
from bot.services.sheets.use_case import CharacterUseCase
from bot.services.sheets.writes import Applied, Computed
from rules.combat import Combat
from rules.systems.base import (
    CatchBreath,
    GameSystem,
    HealthChange,
    Recovered,
    Recovery,
    capabilities,
)

__all__ = ["MAX_DAYS", "MAX_HEAL", "RecoveredLine", "RecoveryService", "RecoveryView"]

MAX_DAYS = 365
MAX_HEAL = 10_000
#: how many of the campaign's latest ended fights are searched for a character's last one
_RECENT_FIGHTS = 50


@dataclass(frozen=True, slots=True)
class RecoveredLine:
    """One character's recovery: what it healed (in the system's unit), its state after (the
    system's label and hit points), the roll, what else came back and the notes."""

    name: str
    healed: int
    state: str
    label: str
    hit_points: tuple[int, int] | None
    roll: str | None
    restored: tuple[str, ...]
    notes: tuple[str, ...]
    gender: str | None
    undo: Undoable | None


@dataclass(frozen=True, slots=True)
class RecoveryView:
    """``kind``: ``rest`` (days), ``breath`` or ``heal``; ``secrecy``: whom the reply may
    show (a hidden NPC's recovery, the GM alone); ``fight``: this channel's fight when a
    combatant healed (its panel, refreshed)."""

    kind: str
    days: int
    lines: tuple[RecoveredLine, ...]
    system: str
    secrecy: Secrecy = PUBLIC
    fight: CombatView | None = None


def _recovery(system: GameSystem) -> Recovery:
    recovery = capabilities(system).recovery
    if recovery is None:
        raise DomainError("rest.error.no_rest", system=system.name)
    return recovery


def _breath(system: GameSystem) -> CatchBreath:
    breath = capabilities(system).catch_breath
    if breath is None:
        raise DomainError("rest.error.no_breath", system=system.name)
    return breath


def _entry(kind: str, result: Recovered, reason: str) -> AuditEntry:
    roll = result.roll
    return AuditEntry(
        kind="rest",
        expression=(roll.expression if roll else f"+{result.healed}")[:250],
        breakdown=(roll.breakdown if roll else f"+{result.healed} ({result.state})")[:1000],
        total=result.healed,
        reason=reason[:200],
        detail={
            "rest": kind,
            "state": result.state,
            "restored": list(result.restored),
            "notes": list(result.notes),
        },
    )


@dataclass(frozen=True, slots=True)
class RestDays:
    """``days`` of rest on the current sheet (the system's natural healing and new day)."""

    days: int
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[Recovered]:
        result = _recovery(context.system).rest_days(sheet, self.days, context.settings)
        reason = f"descanso: {self.days} d"
        return Computed(result.sheet, result, audit=_entry("days", result, reason))


@dataclass(frozen=True, slots=True)
class CatchBreathChange:
    """A short rest after the fight ``fight`` (seed 002 «Recuperar el aliento»)."""

    fight: int | None
    rng: random.Random
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[Recovered]:
        breath = _breath(context.system)
        result = breath.catch_breath(sheet, self.fight, context.settings, self.rng)
        return Computed(result.sheet, result, audit=_entry("breath", result, "aliento"))


class RecoveryService(CharacterUseCase):
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        combat: CombatService,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(sessions, characters, rng)
        self.combat = combat  # the panel of the fight a healed combatant is in

    async def rest(
        self,
        place: Place,
        actor: Actor,
        days: int,
        *,
        character: str | None = None,
        party: bool = False,
    ) -> RecoveryView:
        """``/rest days``: the GM advances ``days`` of game time for one character or every
        player's (``party``), all or none in one transaction."""
        context = await self.characters.contexts.load(place)
        if not is_referee(context.campaign, actor):
            raise NotReferee("rest.error.gm_only")
        if not 1 <= days <= MAX_DAYS:
            raise DomainError("rest.error.bad_days", limit=MAX_DAYS)
        if party == (character is not None):
            raise DomainError("rest.error.who")
        _recovery(context.system)
        change = RestDays(days)
        writer = self.characters.writer
        if party:
            ids = [summary.id for summary in await self.characters.list(place, actor)]
            if not ids:
                raise DomainError("rest.error.no_party")
            applied: Sequence[Applied[Recovered]] = await writer.apply_all(
                place, actor, ids, change
            )
        else:
            applied = (await writer.apply(place, actor, change, name=character),)
        return await self._view(place, actor, context, "rest", days, applied)

    async def breath(
        self, place: Place, actor: Actor, character: str | None = None
    ) -> RecoveryView:
        """``/rest breath``: a short rest after the character's last fight (its player or the
        GM); refused while it is still fighting in this channel."""
        context = await self.characters.contexts.load(place)
        _breath(context.system)
        view = await self.characters.show(place, actor, character)
        record = await active_fight(self.sessions, place)
        if record is not None and _fights_in(record, view.id):
            raise DomainError("rest.error.still_fighting", name=view.name)
        fight = await self._last_fight(context, view.id)
        change = CatchBreathChange(fight, self.rng)
        applied = await self.characters.writer.apply(place, actor, change, character_id=view.id)
        return await self._view(place, actor, context, "breath", 0, (applied,))

    async def heal(
        self, place: Place, actor: Actor, target: str, amount: int, *, force: bool = False
    ) -> RecoveryView:
        """``/heal``: the GM heals a character by ``amount``, in or out of a fight (the
        players heal with abilities, spells and rest); ``force`` heals even the dead."""
        context = await self.characters.contexts.load(place)
        if not is_referee(context.campaign, actor):
            raise NotReferee("rest.error.heal_gm_only")
        if not 1 <= amount <= MAX_HEAL:
            raise DomainError("combat.error.bad_amount")
        found = await self.characters.show(place, actor, target, as_opponent=True)
        applied = await self.characters.writer.apply(
            place, actor, Heal(amount, force=force, reason="/heal"), character_id=found.id
        )
        result: HealthChange = applied.value
        recovered = Recovered(result.sheet, result.amount, result.state, notes=result.notes)
        healed = Applied(applied.view, recovered, applied.log_id)
        return await self._view(place, actor, context, "heal", 0, (healed,))

    async def _last_fight(self, context: CampaignContext, character_id: int) -> int | None:
        """The id of the latest ended fight of the campaign ``character_id`` took part in."""
        async with self.sessions() as session:
            rows = (
                await session.exec(
                    select(CombatRecord)
                    .where(
                        CombatRecord.guild_id == context.campaign.guild_id,
                        CombatRecord.campaign_id == saved_id(context.campaign),
                        CombatRecord.status == "ended",
                    )
                    .order_by(col(CombatRecord.id).desc())
                    .limit(_RECENT_FIGHTS)
                )
            ).all()
        return next((saved_id(r) for r in rows if _fights_in(r, character_id)), None)

    async def _view(
        self,
        place: Place,
        actor: Actor,
        context: CampaignContext,
        kind: str,
        days: int,
        applied: Sequence[Applied[Recovered]],
    ) -> RecoveryView:
        health = capabilities(context.system).health
        lines = []
        for done in applied:
            result, sheet = done.value, done.view.sheet
            label, hit_points = result.state, None
            if health is not None:
                state = health.combat_state(dict(sheet), context.settings)
                label, hit_points = state.label, state.hit_points
            lines.append(
                RecoveredLine(
                    name=done.view.name,
                    healed=result.healed,
                    state=result.state,
                    label=label,
                    hit_points=hit_points,
                    roll=result.roll.breakdown if result.roll else None,
                    restored=result.restored,
                    notes=result.notes,
                    gender=gender_of(sheet),
                    undo=Undoable(done.log_id, done.view.version) if done.log_id else None,
                )
            )
        secrecy = applied[0].secrecy if len(applied) == 1 else PUBLIC
        view = RecoveryView(kind, days, tuple(lines), context.system.id, secrecy)
        return replace(view, fight=await self.panel(place, actor, [a.view.id for a in applied]))

    async def panel(self, place: Place, actor: Actor, ids: Sequence[int]) -> CombatView | None:
        """This channel's fight, when one of ``ids`` is in it (its panel, refreshed); also
        given to ``/ability`` and ``/spell`` (:data:`~.combat_views.FightPanel`)."""
        record = await active_fight(self.sessions, place)
        if record is None or not any(_fights_in(record, i) for i in ids):
            return None
        try:
            return await self.combat.show(place, actor)
        except (DomainError, NotAllowed):
            return None


def _fights_in(record: CombatRecord, character_id: int) -> bool:
    combat = Combat.from_dict(record.state)
    return any(c.character_id == character_id for c in combat.combatants)
