"""Where an attack lands: the target's wound written with its audit row, in one transaction.

The damage lands on the target's *current* sheet version together with the audit-log row
(kind ``attack``), through :meth:`SheetWriter.apply_each` — so two players hitting the same
NPC at the same moment both land, one after the other, and no damage is lost.  A miss is
logged too.  A drain that heals the attacker (``to_attacker``) is written in the same
transaction as the target's wound, all or nothing.  A sheetless group's wound is a
compare-and-set on the fight's state instead (:func:`land_on_group`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import CombatRecord, saved_id
from bot.services.campaigns.context import CampaignContext
from bot.services.play.attack_record import Landed
from bot.services.play.attack_sides import SideFinder, Sides
from bot.services.play.combat_store import write_fight_state
from bot.services.play.group_health import fight_state, group_audit
from bot.services.play.pain_ask import ask_for
from bot.services.shared.audit import AuditEntry, write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.retry import retrying
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.dead import heal_living, require_alive_target
from bot.services.sheets.writes import Computed, Each
from rules.combat import Combat
from rules.combat.attack import AttackResult, TargetChange
from rules.combat.groups import GroupChange
from rules.combat.participants import Combatant
from rules.systems.base import HealthChange, capabilities

__all__ = ["Wound", "after_write", "land", "land_on_group"]

#: A claim written in the same transaction as the wound (a pending defence's row).
Claim = Callable[[AsyncSession], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Wound:
    """The attack's change to the target, re-applied to the sheet's current version."""

    result: AttackResult
    audit: AuditEntry
    validate: bool = False
    #: who dealt it: a choice the wound leaves owed names its attacker (the pain threshold)
    attacker: str | None = None

    def compute(
        self, sheet: dict[str, Any], context: CampaignContext
    ) -> Computed[HealthChange | None]:
        change = self.result.change
        if change is None or change.amount <= 0:
            return Computed(sheet, None, audit=self.audit)
        system = context.system
        if change.kind == "heal":
            done = heal_living(system, sheet, change.amount, context.settings)
        else:  # a target killed meanwhile (a concurrent attack) is refused on this version
            require_alive_target(system, sheet, context.settings)
            done = system.apply_damage(sheet, change.amount, context.settings)
            pains = capabilities(system).pain_choices
            if done.owed is not None and pains is not None and self.attacker:
                done = replace(done, sheet=pains.name_attacker(done.sheet, self.attacker))
        return Computed(done.sheet, done, audit=self.audit)


@dataclass(frozen=True, slots=True)
class _Drain:
    """What the attacker receives (Toque vampírico), in the same transaction."""

    amount: int
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[HealthChange]:
        done = context.system.heal(sheet, self.amount, context.settings)
        return Computed(done.sheet, done)


def after_write(
    context: CampaignContext,
    log_id: int | None,
    sheet: Mapping[str, Any],
    done: HealthChange | None,
    notes: tuple[str, ...],
) -> Landed:
    """The target's state as written: the system's health state of the written sheet (its
    words, its hit points), or the change's own state where the system has none."""
    state, description, hit_points = (done.state if done else None), "", None
    health = capabilities(context.system).health
    if health is not None:
        now = health.combat_state(dict(sheet), context.settings)
        state, description, hit_points = now.label, now.description, now.hit_points
    return Landed(log_id, state, description, hit_points, notes)


async def land(
    characters: CharacterService,
    finder: SideFinder,
    place: Place,
    actor: Actor,
    context: CampaignContext,
    sides: Sides,
    result: AttackResult,
    audit: AuditEntry,
    *,
    claim: Claim | None = None,
) -> Landed:
    """The write: the target's wound (and the attacker's drain) with the audit row."""
    target, attacker = sides.target, sides.attacker
    if target.character is None:
        log_id, group = await land_on_group(
            finder, place, actor, context.campaign.id, target.combatant, result, audit
        )
        hit_points = group.hit_points if group is not None else None
        state = group.state.value if group is not None else None
        return Landed(log_id, state, hit_points=hit_points, notes=tuple(result.notes), group=group)
    wound = Wound(result, audit, attacker=attacker.fighter.name)
    steps = [Each(saved_id(target.character), wound, acting=False)]
    drain = result.change.to_attacker if result.change else 0
    if drain > 0 and attacker.character is not None:
        steps.append(Each(saved_id(attacker.character), _Drain(drain), acting=False))
    applied = await characters.writer.apply_each(place, actor, steps, same_transaction=claim)
    done: HealthChange | None = applied[0].value
    notes = tuple(result.notes)
    if done is not None:
        notes += tuple(n for n in done.notes if n not in notes)
    landed = after_write(context, applied[0].log_id, applied[0].view.sheet, done, notes)
    if done is not None and done.owed is not None:  # ask for the choice it left owed
        written = dict(applied[0].view.sheet)
        landed = replace(landed, pain=ask_for(context, target.character, written))
    return landed


def _wounded(
    record: CombatRecord, key: str | None, change: TargetChange | None
) -> tuple[dict[str, Any], GroupChange] | None:
    """The fight's new state with the group's creature in front wounded or healed by
    ``change`` (:mod:`rules.combat.groups`), and what it did (None: the group has no hit
    points, or the change none).  A group whose last creature fell meanwhile is refused."""
    combat = Combat.from_dict(record.state)
    current = next((c for c in combat.combatants if c.key == key), None)
    if current is None or current.hit_points is None or change is None or change.amount <= 0:
        return None
    if change.kind == "heal":
        fresh, done = combat.heal_group(current.key, change.amount)
    else:
        fresh, done = combat.wound_group(current.key, change.amount)
    return fight_state(record, fresh), done


async def land_on_group(
    finder: SideFinder,
    place: Place,
    actor: Actor,
    campaign_id: int | None,
    combatant: Combatant | None,
    result: AttackResult,
    audit: AuditEntry,
) -> tuple[int | None, GroupChange | None]:
    """A sheetless target (a group added by name).  With hit points from ``/init add``
    the wound is a compare-and-set on the fight's state, in the same transaction as the
    log row (recomputed on the current creature in front on a clash, so no damage is lost
    and two blows at once fell two creatures); without them only the log row is written."""
    key = combatant.key if combatant is not None else None

    async def attempt() -> tuple[int | None, GroupChange | None]:
        record = await finder.fight(place)
        wounded = _wounded(record, key, result.change) if record is not None else None
        done = wounded[1] if wounded is not None else None
        async with finder.sessions() as session, session.begin():
            if record is not None and wounded is not None:
                await write_fight_state(session, record, wounded[0])  # retried on a clash
            entry = group_audit(audit, done)
            log_id = await write_audit(session, place, actor, campaign_id, audit.character, entry)
        return log_id, done

    return await retrying(attempt)
