"""``/init surprise``: the ambush rolled at the start of a fight and applied to its first
round, for a system that has one (:class:`~rules.systems.base.Ambush`: rolweb, seed 001's
SORPRESA).

The GM names the side that ambushes; the sheets of the fight's combatants give the values
(a sheetless group's value is the GM's ``discreto``/``atento``); the system rolls and judges,
and says what the fight's state keeps.  That record is stored by the same compare-and-set
as every other change of the fight, with its audit row (kind ``surprise``) in the same
transaction: a fight is surprised once, before its second round, and ``/attack`` reads it
back through the system's :class:`~rules.systems.base.AttackSituations` (an ambusher
against a surprised combatant, in the first round, once per ambusher).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlmodel import col, select

from bot.db.models import Character, CombatRecord, saved_id
from bot.services.campaigns.service import SHOW_NUMBERS, is_referee
from bot.services.play.combat_store import active_fight, write_fight_state
from bot.services.shared.audience import PUBLIC, Part, Secrecy
from bot.services.shared.audit import AuditEntry, write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotReferee, refused
from bot.services.shared.retry import retrying
from bot.services.sheets.schema import upgraded_sheet
from bot.services.sheets.use_case import CharacterUseCase
from rules.combat import Combat, Combatant, Side
from rules.systems.base import AmbushParty, AmbushRoll, AmbushSetup, RulesError, capabilities

__all__ = ["SIDES", "SurpriseOrder", "SurpriseService", "SurpriseView"]

SIDES = tuple(side.value for side in Side)


@dataclass(frozen=True, slots=True)
class SurpriseOrder:
    """``ambushers``: the side that tries to surprise (``jugadores`` or ``enemigos``);
    ``discreto``/``atento``: the GM's value for the sheetless groups of each side."""

    ambushers: str
    modifier: int = 0
    discreto: int | None = None
    atento: int | None = None


@dataclass(frozen=True, slots=True)
class SurpriseView:
    """The ambush for the cog.  ``secret``: a hidden NPC's value is part of the test, so
    the public reply shows the die and the outcome, and the numbers go to the GM alone."""

    log_id: int
    ambushers: str
    discreto: int
    atento: int
    target: int
    roll: int
    breakdown: str
    players_rolled: bool
    surprised: bool
    attackers: tuple[str, ...]
    victims: tuple[str, ...]
    draws: tuple[tuple[str, str | None, str | None], ...]
    #: a hidden NPC in the fight seals the values and target (its stats bound them)
    secrecy: Secrecy = PUBLIC


class SurpriseService(CharacterUseCase):
    async def surprise(self, place: Place, actor: Actor, order: SurpriseOrder) -> SurpriseView:
        """Roll the ambush and store it on the fight (see the module docstring)."""
        await self.characters.campaigns.require_open_scene(place)  # a closed scene: no rolls
        context = await self.characters.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings
        if not is_referee(campaign, actor):
            raise NotReferee()
        ambush = capabilities(system).ambush
        if ambush is None:
            raise DomainError("rolweb_fight.error.rolweb_only")
        if order.ambushers not in SIDES:
            raise DomainError("rolweb_fight.error.bad_side", sides=", ".join(SIDES))

        async def attempt() -> SurpriseView:
            record = await active_fight(self.sessions, place)
            if record is None:
                raise DomainError("combat.error.none")
            combat = Combat.from_dict(record.state)
            characters = await self._characters(combat)
            try:
                result = ambush.ambush(
                    _setup(record, combat, characters, order), settings, self.rng
                )
            except RulesError as error:
                raise refused(error) from None
            secrecy = _secrecy(combat, characters, settings)
            log_id = await self._write(place, actor, campaign.id, record, result, secrecy)
            return SurpriseView(
                log_id=log_id,
                ambushers=order.ambushers,
                discreto=result.ambush_value,
                atento=result.watch_value,
                target=result.target,
                roll=result.roll,
                breakdown=result.breakdown,
                players_rolled=True,
                surprised=result.surprised,
                attackers=result.attackers,
                victims=result.victims,
                draws=result.draws,
                secrecy=secrecy,
            )

        return await retrying(attempt)  # on a clash: rolled again on the fight as it is now

    async def _write(
        self,
        place: Place,
        actor: Actor,
        campaign_id: int | None,
        record: CombatRecord,
        result: AmbushRoll,
        secrecy: Secrecy,
    ) -> int:
        """The ambush's record on the fight (compare-and-set) with its audit row; its id
        (:class:`StaleWrite` when the fight changed since it was read)."""
        secret = secrecy.npc_id is not None
        audit = AuditEntry(
            kind="surprise",
            expression=result.expression,
            breakdown=f"{result.roll}" if secret else result.breakdown,
            total=result.roll,
            reason=result.reason,
            detail=dict(result.detail),
            difficulty=None if secret else result.target,
            outcome=result.outcome,
            secrecy=secrecy,
        )
        async with self.sessions() as session, session.begin():
            await write_fight_state(session, record, {**record.state, **result.state})
            return await write_audit(session, place, actor, campaign_id, None, audit)

    async def _characters(self, combat: Combat) -> dict[int, Character]:
        ids = [c.character_id for c in combat.combatants if c.character_id is not None]
        if not ids:
            return {}
        async with self.sessions() as session:
            rows = (
                await session.exec(
                    select(Character).where(
                        col(Character.id).in_(ids), col(Character.deleted_at).is_(None)
                    )
                )
            ).all()
        return {row.id: row for row in rows if row.id is not None}


def _party(combatant: Combatant, characters: dict[int, Character]) -> AmbushParty:
    """A combatant as the ambush reads it: with its sheet when it is a character's."""
    character = characters.get(combatant.character_id or -1)
    sheet = upgraded_sheet(character) if character is not None else None
    return AmbushParty(combatant.key, combatant.name, sheet)


def _setup(
    record: CombatRecord, combat: Combat, characters: dict[int, Character], order: SurpriseOrder
) -> AmbushSetup:
    """The fight as the system's ambush reads it: both sides, the GM's numbers."""
    side = Side(order.ambushers)
    return AmbushSetup(
        state=record.state,
        round=combat.round,
        ambushing=side,
        ambushers=tuple(_party(c, characters) for c in combat.combatants if c.side is side),
        watchers=tuple(_party(c, characters) for c in combat.combatants if c.side is not side),
        modifier=order.modifier,
        ambusher_value=order.discreto,
        watcher_value=order.atento,
    )


def _secrecy(
    combat: Combat, characters: dict[int, Character], settings: Mapping[str, Any]
) -> Secrecy:
    """A hidden NPC's value is part of the test: the ambush's values and target bound its
    Discreto or Atento, so they are sealed until it is revealed (the roll and the outcome are
    everyone's) — unless the campaign shows numbers."""
    if settings.get(SHOW_NUMBERS, False):
        return PUBLIC
    secrecy = PUBLIC
    for c in combat.combatants:
        character = characters.get(c.character_id) if c.character_id is not None else None
        if character is not None and character.is_npc and character.hidden:
            secrecy = secrecy.hiding_npc(saved_id(character), (Part.DIFFICULTY, Part.DETAIL))
    return secrecy
