"""S&W's actions in a round (seed 000, SECUENCIA DEL COMBATE), for the counting procedure of
:mod:`rules.combat.actions`.

«El bando que ganó la iniciativa puede mover o disparar … Después harán lo mismo los del otro
bando» and «Cada combatiente del lado ganador … resuelve sus tiradas de ataque … o lanza los
conjuros preparados. … A continuación el otro bando»: each combatant attacks *or* casts once
a round and moves once, during its side's phase (any combatant of the side whose phase it is
may act, in any order).  Alternatives B and C order individuals: each acts on its own turn.
"""

from __future__ import annotations

from rules.combat.actions import Allowance, Cost, Use
from rules.systems.base import ActRequest, CombatPolicy

__all__ = ["allowance", "cost"]


def allowance(policy: CombatPolicy) -> Allowance:
    """One attack or spell and one move a round; by side with the book's side initiative."""
    return Allowance(main=1, movement=1, by_side=policy.by_side, seed="000 SECUENCIA DEL COMBATE")


def cost(act: ActRequest) -> Use:
    """An attack or a spell is the round's action; a move is the movement; a saving throw
    or being attacked costs nothing."""
    if act.kind == "defence":
        return Use(Cost.REACTION)
    if act.kind == "stand":
        return Use(Cost.MOVEMENT)
    return Use(Cost.MAIN, attack=act.kind == "attack")
