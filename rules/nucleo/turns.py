"""Núcleo's actions in a turn (seed 002, Combate 2, «Acciones y movimiento en combate»,
«Dividir Acciones»), for the counting procedure of :mod:`rules.combat.actions`.

«Si se saca 20 o más, se tienen 2 acciones, 30 o más, 3 acciones …»; each action is one
major action («usar un conjuro o realizar un ataque») and one minor one (our recorded
reading: docs/rules-decisions.md, «Actions and movement»); a major action may be spent as
movement.  «Un personaje puede hacer dos acciones a la vez en su turno, aunque solo le
corresponda una. Para ésto, guardará dado menor en ambas acciones»: one main action more,
when every main action of the turn is rolled with ``dividir_acciones``.
"""

from __future__ import annotations

from rules.combat.actions import Allowance, Cost, Use
from rules.systems.base import ActRequest

__all__ = ["SPLIT", "allowance", "cost"]

SPLIT = "dividir_acciones"


def allowance(actions: int) -> Allowance:
    """``actions`` major and as many minor actions; splitting gives one more major."""
    count = max(1, actions)
    return Allowance(
        main=count,
        movement=count,
        main_as_movement=True,
        split=True,
        seed="002 Combate 2, Dividir Acciones",
    )


def cost(act: ActRequest) -> Use:
    """An attack or a spell is a major action (split with ``dividir_acciones``); standing up
    a minor one; a defence is a number, not an act."""
    if act.kind == "defence":
        return Use(Cost.REACTION)
    if act.kind == "stand":
        return Use(Cost.MOVEMENT)
    return Use(Cost.MAIN, attack=act.kind == "attack", split=SPLIT in act.circumstances)
