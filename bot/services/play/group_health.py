"""A sheetless group's hit points during a fight: ``/init damage|heal`` and what ``/attack``
writes of them (:func:`.attack_landing.land_on_group`).

The group has no sheet: its hit points live in the fight's state, per creature
(:mod:`rules.combat.groups`), so every change is a compare-and-set on the fight's row
(:func:`.combat_store.write_fight_state`) with its audit row in the same transaction,
recomputed on the current creature in front when two changes clash (:func:`retrying`).
The group's numbers are the GM's (the audience rule): the audit row seals them in
``detail.secret`` and the view is ``secret``; what anyone may read is the state word and
how many still stand (the panel shows the count).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.db.models import CombatRecord
from bot.services.campaigns.service import SHOW_NUMBERS, is_referee
from bot.services.play.combat_store import FightStore, write_fight_state
from bot.services.play.combat_views import HealthView
from bot.services.shared.audience import PUBLIC, Part
from bot.services.shared.audit import AuditEntry, write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import NotReferee
from bot.services.shared.retry import retrying
from rules.combat import Combat, Combatant
from rules.combat.groups import GroupChange

__all__ = ["fight_state", "group_audit", "hurt_group"]


def fight_state(record: CombatRecord, combat: Combat) -> dict[str, Any]:
    """The fight's row state with ``combat`` written in (what lives beside the order —
    the system, the mode, a round of declarations — kept)."""
    return {**record.state, **combat.to_dict(), "system": record.state.get("system", "")}


def group_detail(done: GroupChange) -> dict[str, Any]:
    """What the audit row says of the group: how many stand and fell (public: the panel
    shows the count) and, sealed, the hit points of the one in front."""
    return {
        "group": {
            "name": done.name,
            "fell": done.fell,
            "standing": done.standing,
            "fallen": done.fallen,
            "state": done.state.value,
        },
        "secret": {"hit_points_left": done.hit_points[0] if done.hit_points else 0},
    }


def group_audit(audit: AuditEntry, done: GroupChange | None) -> AuditEntry:
    """An attack's audit row with what it did to the group (see :func:`group_detail`)."""
    if done is None:
        return audit
    detail: dict[str, Any] = dict(audit.detail)
    extra = group_detail(done)
    detail["group"] = extra["group"]
    detail["secret"] = {**(detail.get("secret") or {}), **extra["secret"]}
    return replace(audit, detail=detail)


def _entry(done: GroupChange, amount: int) -> AuditEntry:
    """``/init damage|heal`` on a group, logged (kind ``damage``/``heal``; not undoable:
    no sheet to restore — the GM heals or adds again)."""
    sign = "+" if done.healed else "-"
    return AuditEntry(
        kind="heal" if done.healed else "damage",
        expression=f"{sign}{amount}",
        breakdown=f"{sign}{done.amount} ({done.state.value})",
        total=done.amount,
        reason=done.name,
        detail=group_detail(done),
        secrecy=PUBLIC.sealing(Part.DETAIL),
    )


async def hurt_group(
    store: FightStore,
    place: Place,
    actor: Actor,
    target: Combatant,
    amount: int,
    *,
    heal: bool,
) -> HealthView:
    """The GM wounds or heals the group ``target`` by ``amount`` (the same procedure as an
    attack's: the creature in front, one falls at most)."""
    context = await store.characters.contexts.load(place)
    if not is_referee(context.campaign, actor):
        raise NotReferee()  # a group is the GM's: players wound it with /attack

    async def attempt() -> tuple[GroupChange, int, Mapping[str, Any]]:
        record = await store.require(place)
        combat = Combat.from_dict(record.state)
        key = combat.find(target.key).key  # removed meanwhile: unknown_combatant
        if heal:
            fresh, done = combat.heal_group(key, amount)
        else:
            fresh, done = combat.wound_group(key, amount)
        async with store.sessions() as session, session.begin():
            await write_fight_state(session, record, fight_state(record, fresh))
            log_id = await write_audit(
                session, place, actor, context.campaign.id, None, _entry(done, amount)
            )
        return done, log_id, record.state

    done, log_id, state = await retrying(attempt)
    return HealthView(
        done.name,
        done.amount,
        done.state.value,
        (),
        heal,
        label=done.state.value,
        hit_points=done.hit_points,
        secret=not context.settings.get(SHOW_NUMBERS, False),
        log_id=log_id,
        system=str(state.get("system", "")),
        group=done,
    )
