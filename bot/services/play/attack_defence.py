"""A defence its player rolls (:class:`~rules.systems.base.PlayerDefence`, seed 001: «los
jugadores siempre tiran»): an NPC's blow at a player's character is logged as a pending
request, and the defender's player answers it with the reply's button.

:func:`ask_defence` logs the request (``roll_log.outcome`` :data:`DEFENCE_PENDING`) with
what :func:`defend` needs to roll it later.  :func:`defend` rolls it on both *current*
sheets and lands the damage in one transaction with the claim of the pending row, so a
second press (or a press on a stale button) is refused and nothing is applied twice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy import update
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, RollLog
from bot.services.campaigns.context import CampaignContext
from bot.services.campaigns.service import is_referee
from bot.services.play.attack_landing import land
from bot.services.play.attack_order import AttackOrder, attack_request, attacks_of
from bot.services.play.attack_record import AttackView, Landed, attack_audit, attack_view
from bot.services.play.attack_sides import Side, SideFinder, Sides
from bot.services.play.checks import parse_circumstances
from bot.services.shared.audit import write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.dead import require_alive_target
from bot.services.sheets.schema import upgraded_sheet
from rules.combat.attack import AttackResult, Fighter
from rules.systems.base import capabilities

__all__ = ["DEFENCE_ANSWERED", "DEFENCE_PENDING", "WHERE", "ask_defence", "defend"]

#: ``roll_log.outcome`` of a defence request waiting for its player, and once answered.
DEFENCE_PENDING = "defence_requested"
DEFENCE_ANSWERED = "defence_answered"
#: Audit fields of an attack that say where in the fight it happened (kept on the answer).
WHERE = ("fight", "round", "melee", "free_attack")


async def ask_defence(
    finder: SideFinder,
    place: Place,
    actor: Actor,
    context: CampaignContext,
    order: AttackOrder,
    sides: Sides,
    asked: AttackResult,
    where: Mapping[str, Any],
) -> AttackView:
    """Log the pending request (what :func:`defend` needs to roll it later)."""
    attacker, target = sides.attacker, sides.target
    assert target.character is not None
    audit = attack_audit(order, sides, asked, sides.secret(context.settings))
    detail = {**audit.detail, **where}
    detail["pending"] = {
        "v": 1,
        "attacker_id": attacker.character.id if attacker.character else None,
        "attacker": attacker.fighter.name,
        "target_id": target.character.id,
        "weapon": order.weapon,
        "modifier": order.modifier,
        "circumstances": sorted(parse_circumstances(order.circumstances)),
        "bonus": order.bonus,
        "damage": attacker.fighter.damage,
    }
    pending = replace(audit, detail=detail, outcome=DEFENCE_PENDING, difficulty=None)
    async with finder.sessions() as session, session.begin():
        log_id = await write_audit(
            session, place, actor, target.character.campaign_id, audit.character, pending
        )
    landed = Landed(log_id, notes=tuple(asked.notes))
    return attack_view(
        actor, context, sides, asked, landed, private=order.private, defence_version=1
    )


async def _pending(
    finder: SideFinder, campaign: Campaign, log_id: int, version: int
) -> tuple[RollLog, dict[str, Any]]:
    """The pending request ``log_id`` of the button's ``version`` (stale otherwise)."""
    async with finder.sessions() as session:
        row = await session.get(RollLog, log_id)
    pending = row.detail.get("pending") if row is not None else None
    if (
        row is None
        or row.campaign_id != campaign.id
        or row.outcome != DEFENCE_PENDING
        or not isinstance(pending, dict)
        or pending.get("v") != version
    ):
        raise DomainError("attack.error.defence_stale")
    return row, pending


async def _pending_sides(
    finder: SideFinder, context: CampaignContext, actor: Actor, pending: Mapping[str, Any]
) -> Sides:
    """Both sides as they are now: the defender (its player or the GM presses) and the
    attacker of the request (a character's current sheet, or the GM's sheetless numbers)."""
    campaign = context.campaign
    defender = await finder.by_id(campaign, int(pending["target_id"]))
    referee = is_referee(campaign, actor)
    if not referee and (defender.is_npc or defender.owner_user_id != actor.user_id):
        raise NotAllowed("attack.error.not_your_defence", name=defender.name)
    sheet = upgraded_sheet(defender)
    target = Side(Fighter(defender.name, sheet=sheet, player=True), character=defender)
    require_alive_target(context.system, sheet, context.settings, defender.name)
    bonus, damage = pending.get("bonus"), pending.get("damage")
    if pending.get("attacker_id") is not None:
        character = await finder.by_id(campaign, int(pending["attacker_id"]))
        fighter = Fighter(
            character.name, sheet=upgraded_sheet(character), attack_bonus=bonus, damage=damage
        )
        return Sides(Side(fighter, character=character), target, referee)
    fighter = Fighter(str(pending.get("attacker")), attack_bonus=bonus, damage=damage)
    return Sides(Side(fighter), target, referee)


async def defend(
    characters: CharacterService,
    finder: SideFinder,
    place: Place,
    actor: Actor,
    log_id: int,
    version: int,
    rng: random.Random,
) -> AttackView:
    """The defender's player (or the GM) answers the pending request ``log_id`` (see the
    module docstring)."""
    context = await characters.contexts.load(place)
    settings = context.settings
    attacks = attacks_of(context.system)
    defence = capabilities(context.system).player_defence
    row, pending = await _pending(finder, context.campaign, log_id, version)
    if defence is None:
        raise DomainError("attack.error.defence_stale")
    sides = await _pending_sides(finder, context, actor, pending)
    order = AttackOrder(
        sides.target.fighter.name,
        weapon=pending.get("weapon"),
        modifier=int(pending.get("modifier") or 0),
        circumstances=",".join(pending.get("circumstances") or ()) or None,
        private=row.private,
    )
    asked = attacks.attack(attack_request(order, sides, True), settings, rng)
    if asked.defence_request is None:  # the sheets changed so that no defence is asked
        raise DomainError("attack.error.defence_stale")
    result = defence.resolve_defence(asked.defence_request, settings, rng)
    secret = sides.secret(settings)
    note = secret and not context.campaign.gm_channel_id and not sides.referee
    audit = attack_audit(order, sides, result, secret, note)
    where = {k: row.detail[k] for k in WHERE if k in row.detail}
    audit = replace(audit, detail={**audit.detail, **where})

    async def claim(session: AsyncSession) -> None:
        claimed = await session.exec(
            update(RollLog)
            .where(col(RollLog.id) == log_id, col(RollLog.outcome) == DEFENCE_PENDING)
            .values(outcome=DEFENCE_ANSWERED)
        )
        if claimed.rowcount != 1:
            raise DomainError("attack.error.defence_stale")

    landed = await land(
        characters, finder, place, actor, context, sides, result, audit, claim=claim
    )
    return attack_view(actor, context, sides, result, landed, private=audit.private)
