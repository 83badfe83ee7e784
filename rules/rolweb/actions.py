"""The action economy of a turn (seed 001, ACCIONES A DISPOSICIÓN DEL PERSONAJE).

Each turn a character has one combat action and one movement action; reactions and free
actions are unlimited.  The combat action may become an extra movement action; the
reverse is forbidden by the written rule ("no se puede sustituir una acción de movimiento
por una acción adicional de combate") although another paragraph allows it, so it is the
campaign setting ``movimiento_a_combate`` (default off).  Whether a defence spends the
combat action is the setting ``defensa_gasta_accion`` (default off: defence is a reaction).
Standing up costs one movement action after a successful Ágil test, else the whole turn.

:func:`allowance` and :func:`cost` give the same economy to the one counting procedure of
:mod:`rules.combat.actions` (issue 23 §1), which the bot applies to every act in a fight.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from functools import lru_cache

from rules.combat.actions import Allowance, Cost, Use
from rules.rolweb._data import bad_data, quoted, read_json
from rules.rolweb.settings import RolwebSettings
from rules.systems.base import ActRequest, Problem, RulesError

__all__ = ["Action", "ActionBudget", "action_costs", "allowance", "cost", "cost_of"]

#: ``/attack`` circumstances of a free attack (ATAQUE GRATUITO, line 103: a reaction)
FREE_ATTACKS = frozenset(
    {
        "ataque_libre_larga",
        "ataque_libre_salir",
        "ataque_libre_pasar",
        "ataque_libre_sorpresa",
        "ataque_libre_dolor",
    }
)
#: an ability level's action type → what it costs (USO DE HABILIDADES, lines 24-28)
_ABILITY_COST = {
    "activa": Cost.MAIN,
    "reactiva": Cost.REACTION,
    "gratuita": Cost.FREE,
    "pasiva": Cost.FREE,
    "especial": Cost.FREE,  # «funcionan de manera especial»: the GM judges
}


class Action(enum.StrEnum):
    """What a use costs."""

    COMBAT = "combate"
    MOVEMENT = "movimiento"
    REACTION = "reaccion"
    FREE = "gratuita"
    DEFENCE = "defensa"


@lru_cache(maxsize=1)
def action_costs() -> dict[str, Action]:
    """What each common action costs (``data/rolweb/actions.json``), validated."""
    source = "data/rolweb/actions.json"
    costs: dict[str, Action] = {}
    for item in read_json("actions.json").get("acciones", []):
        try:
            costs[str(item["clave"])] = Action(item["coste"])
        except (KeyError, TypeError, ValueError):
            raise bad_data(source, f"acción no válida: {quoted(item)}") from None
    if not costs:
        raise bad_data(source, "sin acciones")
    return costs


def cost_of(action: str) -> Action:
    """The cost of a named action (``"desenvainar"`` → movement); unknown names are refused."""
    try:
        return action_costs()[action]
    except KeyError:
        raise RulesError(Problem("rolweb.problem.unknown_action", "", {"name": action})) from None


@dataclass(frozen=True, slots=True)
class ActionBudget:
    """The actions left to a character this turn; spending returns a new budget."""

    combat: int = 1
    movement: int = 1
    defended: bool = False

    def can(self, action: Action, settings: RolwebSettings) -> bool:
        """Whether ``action`` can still be taken (reactions, free actions, defence: always)."""
        if action is Action.MOVEMENT:
            return self.movement + self.combat > 0
        if action is Action.COMBAT:
            return self.combat > 0 or (settings.movement_to_combat and self.movement > 0)
        return True

    def spend(self, action: Action, settings: RolwebSettings) -> ActionBudget:
        """Spend ``action``, converting combat → movement (always) or movement → combat
        (only with ``movimiento_a_combate``); raises ``rolweb.problem.no_action_left``."""
        if action is Action.MOVEMENT:
            if self.movement > 0:
                return replace(self, movement=self.movement - 1)
            if self.combat > 0:
                return replace(self, combat=self.combat - 1)
        elif action is Action.COMBAT:
            if self.combat > 0:
                return replace(self, combat=self.combat - 1)
            if settings.movement_to_combat and self.movement > 0:
                return replace(self, movement=self.movement - 1)
        elif action is Action.DEFENCE:
            if settings.defence_costs_action and not self.defended and self.combat > 0:
                return replace(self, combat=self.combat - 1, defended=True)
            return replace(self, defended=True)
        else:
            return self
        raise RulesError(Problem("rolweb.problem.no_action_left", "", {"action": action.value}))

    def stand_up(self, agil_success: bool, settings: RolwebSettings) -> ActionBudget:
        """LEVANTARSE: one movement action after a successful Ágil test, else two (the
        whole turn: no combat action while getting up)."""
        budget = self.spend(Action.MOVEMENT, settings)
        return budget if agil_success else budget.spend(Action.MOVEMENT, settings)


def allowance(settings: RolwebSettings) -> Allowance:
    """One combat action and one movement action (ACCIONES EN COMBATE, line 64); combat →
    movement always (lines 52, 78); movement → combat only with ``movimiento_a_combate``
    (line 78 against line 66: docs/rules-decisions.md)."""
    return Allowance(
        main=1,
        movement=1,
        main_as_movement=True,
        movement_as_main=settings.movement_to_combat,
        seed="001 ACCIONES EN COMBATE",
    )


def cost(act: ActRequest, settings: RolwebSettings) -> Use:
    """What an act costs: an attack the combat action (a free attack is a reaction, line
    103); a defence nothing, or with ``defensa_gasta_accion`` the combat action if still
    unspent (never refused, line 111: «cualquier número de ataques»); an ability what its
    level says, with the extra attacks an active one grants (line 24); standing up a
    movement action (LEVANTARSE, line 181)."""
    if act.kind == "attack":
        if act.circumstances & FREE_ATTACKS:
            return Use(Cost.REACTION)
        return Use(Cost.MAIN, attack=True)
    if act.kind == "defence":
        return (
            Use(Cost.MAIN, optional=True) if settings.defence_costs_action else Use(Cost.REACTION)
        )
    if act.kind == "ability":
        return Use(_ABILITY_COST.get(act.action, Cost.MAIN), grants=act.grants)
    if act.kind == "stand":
        return Use(Cost.MOVEMENT)
    return Use(Cost.MAIN)
