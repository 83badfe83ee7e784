"""Tests of rules/rolweb/initiative.py against seed 001, "ORDEN DE TURNO"."""

from __future__ import annotations

import pytest

from rules.rolweb.initiative import Initiative, TurnOrder, order_combatants, roll_initiative
from rules.systems.base import RulesError

from .conftest import FixedRandom, assert_translatable


def test_higher_agil_acts_first():
    order = order_combatants(
        {"a": Initiative(11, 15, 20), "b": Initiative(13, 5, 1)}, FixedRandom()
    )
    assert order.order == ("b", "a")


def test_equal_agil_compares_atento():
    # "Si dos personajes son igual de Ágiles, se compara su nivel de Atento"
    order = order_combatants(
        {"a": Initiative(12, 9, 20), "b": Initiative(12, 11, 1)}, FixedRandom()
    )
    assert order.order == ("b", "a")


def test_still_tied_the_higher_d20_starts():
    # "si siguen empatados, empieza quien saque más en 1D20"
    order = order_combatants(
        {"a": Initiative(12, 11, 4), "b": Initiative(12, 11, 17)}, FixedRandom()
    )
    assert order.order == ("b", "a")


def test_a_complete_tie_rolls_again():
    order = order_combatants(
        {"a": Initiative(12, 11, 9), "b": Initiative(12, 11, 9), "c": Initiative(14, 1, 1)},
        FixedRandom(3, 18),
    )
    assert order.order == ("c", "b", "a")


def test_roll_initiative_sort_key_is_agil_atento_d20():
    rolled = roll_initiative(13, 10, FixedRandom(7))
    assert rolled.sort_key == (13, 10, 7)
    assert rolled.breakdown == "Ágil 13, Atento 10, 1d20 (7)"


def test_waiting_moves_to_a_later_place():
    # "puede elegir entre actuar primero o esperar ... debe elegir qué iniciativa va a tener"
    order = TurnOrder(("a", "b", "c", "d")).wait("a", after="c")
    assert order.order == ("b", "c", "a", "d")


def test_the_chosen_place_cannot_change():
    # "no podrá cambiarla una vez lo decida"
    order = TurnOrder(("a", "b", "c")).wait("a", after="b")
    with pytest.raises(RulesError) as error:
        order.wait("a", after="c")
    assert error.value.problems[0].key == "rolweb.problem.wait_already_chosen"
    assert_translatable(error.value.problems)


@pytest.mark.parametrize("combatant,after", [("c", "a"), ("b", "b"), ("x", "a")])
def test_waiting_only_for_a_later_place_of_a_known_combatant(combatant, after):
    with pytest.raises(RulesError) as error:
        TurnOrder(("a", "b", "c")).wait(combatant, after)
    assert_translatable(error.value.problems)
