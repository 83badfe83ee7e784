"""Tests of rules/rolweb/advancement.py against seed 001, "MEJORA DE PERSONAJES" and
"MUERTE DE UN PERSONAJE JUGADOR"."""

from __future__ import annotations

import pytest

from rules.rolweb.abilities import Level
from rules.rolweb.advancement import Xp, grant, inherited_xp, level_cost, spend_for, upgrade_cost
from rules.systems.base import RulesError

from .conftest import assert_translatable


def test_level_costs_are_10_20_30():
    # "Comprar una habilidad a nivel principiante cuesta 10 ..., subirla a nivel adepto cuesta 20 y ... maestro, 30"
    assert [level_cost(level) for level in (Level.PRINCIPIANTE, Level.ADEPTO, Level.MAESTRO)] == [
        10,
        20,
        30,
    ]


def test_upgrade_cost_adds_each_step():
    assert upgrade_cost(Level.NONE, Level.MAESTRO) == 60
    assert upgrade_cost(Level.PRINCIPIANTE, Level.ADEPTO) == 20


def test_upgrade_must_go_up():
    with pytest.raises(RulesError) as error:
        upgrade_cost(Level.ADEPTO, Level.ADEPTO)
    assert_translatable(error.value.problems)


def test_spending_moves_xp_from_available_to_spent():
    after = spend_for(Xp(total=30, spent=0), Level.NONE, Level.PRINCIPIANTE)
    assert after == Xp(30, 10) and after.available == 20


def test_spending_is_refused_without_enough_xp():
    with pytest.raises(RulesError) as error:
        spend_for(Xp(total=25, spent=10), Level.PRINCIPIANTE, Level.ADEPTO)
    problem = error.value.problems[0]
    assert problem.key == "rolweb.problem.not_enough_xp"
    assert problem.params == {"cost": 20, "available": 15}
    assert_translatable([problem])


def test_grant_adds_xp_and_refuses_going_below_spent():
    # "el director de juego reparte puntos de experiencia"
    assert grant(Xp(10, 10), 15) == Xp(25, 10)
    assert grant(Xp(25, 10), -5) == Xp(20, 10)
    with pytest.raises(RulesError) as error:
        grant(Xp(25, 20), -10)
    assert_translatable(error.value.problems)


def test_new_character_keeps_all_accumulated_xp():
    # MUERTE: "crear un nuevo personaje empleando todos los puntos de experiencia acumulados"
    assert inherited_xp(Xp(total=70, spent=60)) == Xp(70, 0)
