"""What rolweb's ``/attack`` needs from the fight it is made in
(:class:`~rules.systems.base.AttackSituations`): seed 001's free attacks, flanking and the
GM's override, judged on the fight's recent attacks (:mod:`rules.rolweb.offers` reads the
circumstances).

* ``forzar`` overrides a refusal of the rules: the GM's word alone;
* FLANQUEAR: who is already in melee with the target — the other side of every melee attack
  made on it, or by it, this round or the last, by combatants still in the fight (the GM's
  ``forzar`` lets a fifth in when someone has withdrawn or fallen);
* a free attack: one per trigger, attacker and round (ATAQUE GRATUITO line 107); the
  surprise's needs the fight's recorded ambush (:mod:`rules.rolweb.ambush`), in its first
  round, from an ambusher against one of the surprised.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.combat.attack import AttackRequest
from rules.rolweb import offers
from rules.rolweb.ambush import stored
from rules.rolweb.combat import FreeAttackTrigger
from rules.systems.base import FightMoment, Problem, RefereeOnly, RulesError, Situated

__all__ = ["engaged", "situate"]


def _refuse(key: str, **params: object) -> RulesError:
    return RulesError(Problem(key, "", dict(params)))


def situate(request: AttackRequest, fight: FightMoment | None, referee: bool) -> Situated:
    """``request`` with who is engaged with its target, and the free attack's trigger for the
    audit row (``free_attack``); refuses what the module docstring lists."""
    situation = offers.situation(request.circumstances)
    if situation.override and not referee:
        raise RefereeOnly(Problem("rolweb_fight.error.override_gm_only"))
    trigger = situation.free_attack
    audit: dict[str, Any] = {} if trigger is None else {"free_attack": trigger.value}
    if fight is None:
        if trigger is FreeAttackTrigger.SURPRISE:
            raise _refuse("rolweb_fight.error.no_surprise")
        return Situated(request, audit)
    if trigger is not None:
        if trigger is FreeAttackTrigger.SURPRISE:
            _surprise_allows(fight, request)
        attacker = request.attacker.name.casefold()
        used = any(
            row.get("free_attack") == trigger.value
            and row.get("round") == fight.round
            and str(row.get("attacker", "")).casefold() == attacker
            for row in fight.attacks
        )
        if used and not situation.override:
            raise _refuse(
                "rolweb_fight.error.free_attack_used",
                name=request.attacker.name,
                round=fight.round,
            )
    near = engaged(fight.attacks, fight.present, fight.round, request.target.name)
    return Situated(replace(request, engaged=near), audit)


def _surprise_allows(fight: FightMoment, request: AttackRequest) -> None:
    ambush = stored(fight.state)
    if ambush is None or not ambush.surprised:
        raise _refuse("rolweb_fight.error.no_surprise")
    if fight.round > 1:
        raise _refuse("rolweb_fight.error.surprise_over")
    if fight.attacker_key not in ambush.attackers:
        raise _refuse("rolweb_fight.error.not_ambusher", name=request.attacker.name)
    if fight.target_key not in ambush.victims:
        raise _refuse("rolweb_fight.error.not_surprised", name=request.target.name)


def engaged(
    rows: Sequence[Mapping[str, Any]], present: Sequence[str], round_: int, target: str
) -> tuple[str, ...]:
    """Who is in melee with ``target``: the other side of its melee attacks (made or
    received) this round or the last, among the combatants still in the fight."""
    wanted = target.casefold()
    here = {name.casefold(): name for name in present}
    found: dict[str, str] = {}
    for detail in rows:
        if not detail.get("melee") or int(detail.get("round") or 0) < round_ - 1:
            continue
        attacker = str(detail.get("attacker", ""))
        victim = str(detail.get("target", ""))
        other = (
            attacker
            if victim.casefold() == wanted
            else victim
            if attacker.casefold() == wanted
            else None
        )
        if other is not None and other.casefold() in here:
            found.setdefault(other.casefold(), here[other.casefold()])
    return tuple(found.values())
