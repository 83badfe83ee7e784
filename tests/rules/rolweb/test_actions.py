"""Tests of rules/rolweb/actions.py against seed 001, "ACCIONES A DISPOSICIÓN DEL PERSONAJE",
"ACCIONES EN COMBATE", "LEVANTARSE", "USAR /APLICAR UN ELIXIR" and "PRIMEROS AUXILIOS"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.rolweb.actions import Action, ActionBudget, action_costs, cost_of
from rules.rolweb.settings import parse_settings
from rules.systems.base import RulesError

from .conftest import assert_translatable

DEFAULT = parse_settings({})
MOVE_TO_COMBAT = parse_settings({"movimiento_a_combate": True})
DEFENCE_COSTS = parse_settings({"defensa_gasta_accion": True})


def test_a_turn_has_one_combat_and_one_movement_action():
    budget = ActionBudget().spend(Action.COMBAT, DEFAULT).spend(Action.MOVEMENT, DEFAULT)
    assert (budget.combat, budget.movement) == (0, 0)
    with pytest.raises(RulesError) as error:
        budget.spend(Action.MOVEMENT, DEFAULT)
    assert error.value.problems[0].key == "rolweb.problem.no_action_left"
    assert_translatable(error.value.problems)


def test_combat_action_may_become_movement():
    # "La acción de combate puede cambiarse por una acción adicional de movimiento"
    budget = ActionBudget().spend(Action.MOVEMENT, DEFAULT).spend(Action.MOVEMENT, DEFAULT)
    assert (budget.combat, budget.movement) == (0, 0)


def test_movement_cannot_become_combat_by_default():
    # ACCIÓN DE COMBATE: "no se puede sustituir una acción de movimiento por una acción adicional de combate"
    budget = ActionBudget().spend(Action.COMBAT, DEFAULT)
    assert not budget.can(Action.COMBAT, DEFAULT)
    with pytest.raises(RulesError):
        budget.spend(Action.COMBAT, DEFAULT)


def test_setting_allows_movement_to_become_combat():
    # ACCIONES EN COMBATE: "las acciones de movimiento pueden ser reemplazadas por acciones de otro tipo"
    budget = (
        ActionBudget().spend(Action.COMBAT, MOVE_TO_COMBAT).spend(Action.COMBAT, MOVE_TO_COMBAT)
    )
    assert (budget.combat, budget.movement) == (0, 0)


def test_reactions_and_free_actions_are_unlimited():
    budget = ActionBudget(combat=0, movement=0)
    for _ in range(10):
        budget = budget.spend(Action.REACTION, DEFAULT).spend(Action.FREE, DEFAULT)
    assert budget == ActionBudget(combat=0, movement=0)


def test_defence_is_a_reaction_by_default():
    # DEFENSA: "derecho a defenderse de cualquier número de ataques"
    budget = ActionBudget()
    for _ in range(5):
        budget = budget.spend(Action.DEFENCE, DEFAULT)
    assert budget.combat == 1


def test_setting_makes_the_first_defence_spend_the_combat_action():
    budget = ActionBudget().spend(Action.DEFENCE, DEFENCE_COSTS)
    assert budget.combat == 0
    # never refused: the seed lets a character defend against every attack
    assert budget.spend(Action.DEFENCE, DEFENCE_COSTS).combat == 0


def test_standing_up_with_agil_costs_one_movement_action():
    # LEVANTARSE: "Si el personaje en el suelo supera una tirada de Ágil, solo necesita una acción de movimiento"
    assert ActionBudget().stand_up(True, DEFAULT) == ActionBudget(combat=1, movement=0)


def test_standing_up_without_agil_costs_the_whole_turn():
    # "De lo contrario necesita el turno entero ... no puede usar una acción de combate"
    assert ActionBudget().stand_up(False, DEFAULT) == ActionBudget(combat=0, movement=0)
    with pytest.raises(RulesError):
        ActionBudget(combat=0, movement=1).stand_up(False, DEFAULT)


@pytest.mark.parametrize(
    "name,cost",
    [
        ("primeros_auxilios", Action.COMBAT),  # PRIMEROS AUXILIOS
        ("elixir_a_otro", Action.COMBAT),  # USAR /APLICAR UN ELIXIR
        ("elixir_propio", Action.MOVEMENT),
        ("desenvainar", Action.MOVEMENT),  # SORPRESA
        ("desenvainar_arma_corta", Action.FREE),
        ("destrabarse", Action.MOVEMENT),  # DESTRABARSE DEL COMBATE
        ("dar_una_orden", Action.FREE),
    ],
)
def test_action_costs_follow_the_seed(name, cost):
    assert cost_of(name) is cost


def test_unknown_action_is_refused():
    with pytest.raises(RulesError) as error:
        cost_of("volar")
    assert_translatable(error.value.problems)
    assert len(action_costs()) >= 10


@given(
    actions=st.lists(st.sampled_from(list(Action)), max_size=12),
    settings=st.sampled_from([DEFAULT, MOVE_TO_COMBAT, DEFENCE_COSTS]),
)
def test_a_turn_never_holds_more_than_two_limited_actions(actions, settings):
    # ACCIONES A DISPOSICIÓN DEL PERSONAJE: "el límite normal de dos acciones por personaje y turno"
    budget, limited = ActionBudget(), 0
    for action in actions:
        if not budget.can(action, settings):
            with pytest.raises(RulesError):
                budget.spend(action, settings)
            continue
        after = budget.spend(action, settings)
        limited += (budget.combat + budget.movement) - (after.combat + after.movement)
        budget = after
        assert budget.combat >= 0 and budget.movement >= 0
    assert limited <= 2
