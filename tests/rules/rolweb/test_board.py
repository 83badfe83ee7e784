"""Tests of rules/rolweb/board.py against seed 001, "REGLAS ADICIONALES / REGLAS DE LA CASA"
("MOVIMIENTO EN TABLERO", "DISTANCIA CON PROYECTILES") and "ACCIÓN DE MOVIMIENTO"."""

from __future__ import annotations

import pytest

from rules.rolweb.board import Gait, Pace, movement_squares, projectile_distance
from rules.rolweb.settings import parse_settings
from rules.systems.base import RulesError


def test_walking_is_two_squares():
    # "Caminando: 2 casillas"; ACCIÓN DE MOVIMIENTO: "5 pasos (o 2 casillas)"
    assert movement_squares(Pace.WALK, parse_settings({})) == 2


def test_running_is_five_squares_by_house_rule():
    # "Corriendo: 5 casillas"
    assert movement_squares(Pace.RUN, parse_settings({})) == 5


def test_running_can_be_two_movement_actions_by_setting():
    # two movement actions of 2 squares each (docs/rules-decisions.md)
    assert movement_squares(Pace.RUN, parse_settings({"carrera_casillas": "4"})) == 4


@pytest.mark.parametrize("gait,squares", [(Gait.PASO, 3), (Gait.TROTE, 4), (Gait.GALOPE, 5)])
def test_mounts_add_one_two_three_squares(gait, squares):
    # "A caballo (o montura similar): paso +1 casillas, trote +2 casillas, galope +3 casillas"
    assert movement_squares(gait, parse_settings({})) == squares


def test_projectiles_reach_about_half_the_map():
    # DISTANCIA CON PROYECTILES: "más o menos la mitad de la distancia mostrada en el mapa"
    assert projectile_distance(20) == 10
    assert projectile_distance(21) == 10
    assert projectile_distance(20, modifier=3) == 13  # the GM's adjustments
    assert projectile_distance(4, modifier=-5) == 0
    with pytest.raises(RulesError):
        projectile_distance(-1)
