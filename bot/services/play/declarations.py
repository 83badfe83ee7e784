"""A declaration in a round of declarations (issue 25 §1): the dice rolled now, sealed.

In a fight played by rounds of declarations (:mod:`rules.combat.declarations`), ``/attack``
during the round does not resolve: the attacker's dice are fixed now (a seed, kept for the
slot: a change of action or target keeps them) and rolled against the situation as it is,
for its player and the GM only (a private audit row, kind ``declaration``, and a private
reply with the GM's copy).  The round's resolution (:mod:`.rounds`) rolls the same dice
again against the situation then, through the same attack service as a live fight.

Each declaration is a compare-and-set of the fight's state (the round lives there, next to
the order) in the same transaction as its audit row: two declarations at once both land, a
declaration while the round is being resolved is refused.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict, replace
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import CombatRecord, saved_id
from bot.services.campaigns.context import CampaignContext
from bot.services.campaigns.service import TURN_ACTIONS
from bot.services.play.attack_order import AttackOrder
from bot.services.play.attack_record import (
    AttackView,
    Declared,
    Landed,
    attack_audit,
    attack_view,
)
from bot.services.play.attack_sides import Sides
from bot.services.play.combat_store import active_fight, write_fight_state
from bot.services.shared.audit import AuditEntry, write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.retry import retrying
from rules.combat import Combat, Combatant
from rules.combat.actions import Ledger, judge
from rules.combat.attack import AttackOutcome, AttackRequest
from rules.combat.declarations import (
    ROUND_KEY,
    Declaration,
    DeclarationRound,
    Mode,
    mode_of,
    round_of,
)
from rules.systems.base import ActRequest, Attacks, RulesError, capabilities

__all__ = ["declare_act", "declare_attack", "declaring", "order_of", "seeded"]

SEED_BITS = 62


def declaring(record: CombatRecord | None) -> DeclarationRound | None:
    """The round being declared in this fight, or None (no fight, a fight by turns, no
    round open)."""
    if record is None or mode_of(record.state) is not Mode.DECLARATIONS:
        return None
    return round_of(record.state)


def seeded(seed: int) -> random.Random:
    """The declaration's dice: the same numbers every time its seed is rolled."""
    return random.Random(seed)


def order_of(declaration: Declaration) -> AttackOrder:
    """The attack a declaration asked for, as typed (a private order: the declaration was
    sealed; the resolution's own reply is the round summary)."""
    fields = {k: v for k, v in declaration.order.items() if k in AttackOrder.__slots__}
    return replace(AttackOrder(**fields), private=False, defence_now=True)


def _act_of(declared: Declaration) -> ActRequest:
    """The act a stored declaration is, as the system prices it."""
    circumstances = frozenset(str(declared.order.get("circumstances") or "").split(","))
    return ActRequest(declared.act, circumstances - {""})


def _slot(
    context: CampaignContext,
    who: Combatant,
    earlier: tuple[Declaration, ...],
    act: ActRequest,
    round_: int,
) -> tuple[int, bool]:
    """The slot of a new declaration: the next one while the combatant's actions allow it
    (:func:`rules.combat.actions.judge`, each declaration priced by the system), else its
    last one, changed (its dice stay)."""
    economy = capabilities(context.system).action_economy
    if not earlier:
        return 0, False
    if economy is None or context.settings.get(TURN_ACTIONS, "rechazar") == "libre":
        return len(earlier), False
    allowance = economy.action_allowance(who.actions, context.settings)
    ledger = Ledger(round=round_)
    try:
        for declared in (*earlier, None):
            priced = act if declared is None else _act_of(declared)
            use = economy.action_cost(priced, context.settings)
            ledger = judge(allowance, ledger, use, round_).ledger
    except RulesError:
        return earlier[-1].slot, True
    return len(earlier), False


async def declare_attack(
    sessions: async_sessionmaker[AsyncSession],
    place: Place,
    actor: Actor,
    context: CampaignContext,
    order: AttackOrder,
    sides: Sides,
    request: AttackRequest,
    rng: random.Random,
) -> AttackView:
    """Declare ``order`` for the round (module docstring): its slot, its dice, its sealed
    row and the fight's state, in one transaction; the view is private."""
    key = sides.key(sides.attacker)
    if key is None:
        raise DomainError("declare.error.not_in_fight", name=sides.attacker.fighter.name)
    attacks = capabilities(context.system).attacks
    assert attacks is not None  # the caller resolved them
    fresh_seed = rng.getrandbits(SEED_BITS)

    async def attempt() -> AttackView:
        record, round_, combat = await _open_round(sessions, place)
        who = combat.find(key)
        act = ActRequest("attack", request.circumstances)
        slot, changed = _slot(context, who, round_.of(key), act, round_.round)
        declaration = Declaration(
            key=key, name=who.name, slot=slot, act="attack",
            # the attacker by name: its player's active character may change before resolution
            order={**{k: v for k, v in asdict(order).items() if v is not None}, "character": who.name},
            seed=round_.seed_of(key, slot) or fresh_seed, by=actor.user_id,
            by_name=actor.name, by_roles=tuple(sorted(actor.role_ids)),
            by_admin=actor.is_admin, target=sides.target.fighter.name,
        )  # fmt: skip
        view = _preview(actor, context, attacks, sides, order, request, declaration)
        declaration = replace(declaration, defender=_defender(sides, view))
        entry = attack_audit(
            AttackOrder(view.target, private=True), sides, view.result,
            sides.secret(context.settings),
        )  # fmt: skip
        entry = replace(entry, kind="declaration", private=True, character=view.attacker)
        log_id, complete, ref = await _write(
            sessions, place, actor, context, (record, round_), declaration, entry
        )
        done = Declared(
            round_.round, slot, changed, round_.deadline, complete,
            declaration.defender, saved_id(record), ref,
        )  # fmt: skip
        return replace(view, log_id=log_id, declared=done)

    return await retrying(attempt)


def _defender(sides: Sides, view: AttackView) -> int | None:
    """The player who rolls the defence against this attack (rolweb: an NPC's blow at a
    player's character), asked with a button now; None when nobody is."""
    target = sides.target.character
    if view.result.outcome is not AttackOutcome.DEFENCE_REQUESTED or target is None:
        return None
    return None if target.is_npc else target.owner_user_id


def _preview(
    actor: Actor,
    context: CampaignContext,
    attacks: Attacks,
    sides: Sides,
    order: AttackOrder,
    request: AttackRequest,
    declaration: Declaration,
) -> AttackView:
    """The declared dice against the situation now: what the player and the GM read (the
    resolution computes it again against the situation then)."""
    result = attacks.attack(request, context.settings, seeded(declaration.seed))
    return attack_view(actor, context, sides, result, Landed(None), private=True)


async def _write(
    sessions: async_sessionmaker[AsyncSession],
    place: Place,
    actor: Actor,
    context: CampaignContext,
    fight: tuple[CombatRecord, DeclarationRound],
    declaration: Declaration,
    entry: AuditEntry,
) -> tuple[int, bool, int]:
    """The sealed audit row and the fight's new round, in one transaction: the row, whether
    everyone has declared, the declaration's number; :class:`StaleWrite` (nothing written)
    when the fight changed since it was read (the caller reads it again)."""
    record, round_ = fight
    async with sessions() as session, session.begin():
        log_id = await write_audit(
            session, place, actor, context.campaign.id, declaration.name, entry
        )
        declaration = replace(declaration, log_id=log_id)
        new_round = round_.declaring(declaration)
        state: dict[str, Any] = {**record.state, ROUND_KEY: new_round.to_dict()}
        await write_fight_state(session, record, state)
    ref = new_round.slot_of(declaration.key, declaration.slot)
    return log_id, not new_round.owing(new_round.owed), ref.ref if ref else 0


async def declare_act(
    sessions: async_sessionmaker[AsyncSession],
    place: Place,
    actor: Actor,
    context: CampaignContext,
    character_id: int,
    act: ActRequest,
    order: Mapping[str, Any],
    rng: random.Random,
) -> Declared:
    """Declare an act other than an attack (a spell: ``act.kind`` ``"cast"``) for combatant
    ``character_id``: its dice fixed now by a seed, applied at resolution through its own
    use case; a private audit row says what was declared (module docstring)."""
    fresh_seed = rng.getrandbits(SEED_BITS)

    async def attempt() -> Declared:
        record, round_, combat = await _open_round(sessions, place)
        who = next((c for c in combat.combatants if c.character_id == character_id), None)
        if who is None:
            raise DomainError("declare.error.not_in_fight", name=str(order.get("character", "")))
        slot, changed = _slot(context, who, round_.of(who.key), act, round_.round)
        target = str(order.get("target") or "")
        declaration = Declaration(
            key=who.key, name=who.name, slot=slot, act=act.kind,
            order={**{k: v for k, v in order.items() if v is not None}, "character": who.name},
            seed=round_.seed_of(who.key, slot) or fresh_seed, by=actor.user_id,
            by_name=actor.name, by_roles=tuple(sorted(actor.role_ids)),
            by_admin=actor.is_admin, target=target,
        )  # fmt: skip
        reason = f"{order.get('spell') or act.kind} → {target}" if target else act.kind
        entry = AuditEntry(
            kind="declaration", expression="", breakdown="", total=0, reason=reason,
            detail={"act": act.kind, "order": dict(declaration.order)}, private=True,
            character=who.name,
        )  # fmt: skip
        _log_id, complete, ref = await _write(
            sessions, place, actor, context, (record, round_), declaration, entry
        )
        kept = round_.declaring(declaration).slot_of(who.key, slot)
        return Declared(
            round_.round, slot, changed, round_.deadline, complete, None,
            saved_id(record), ref, kept.seed if kept is not None else declaration.seed,
        )  # fmt: skip

    return await retrying(attempt)


async def _open_round(
    sessions: async_sessionmaker[AsyncSession], place: Place
) -> tuple[CombatRecord, DeclarationRound, Combat]:
    """The channel's fight with its round open for declarations, as stored now; refused
    when no round is open or it is already being resolved."""
    record = await active_fight(sessions, place)
    round_ = declaring(record)
    if record is None or round_ is None:
        raise DomainError("declare.error.closed")
    if round_.resolving or round_.waiting is not None:  # resolving, or paused in it
        raise DomainError("declare.error.resolving", round=round_.round)
    return record, round_, Combat.from_dict(record.state)
