"""Tests of rules/rolweb/abilities.py: seed 001 "USO DE HABILIDADES" and "CURACIÓN DE HERIDAS"."""

from __future__ import annotations

import json

import pytest

from rules.rolweb.abilities import ActionType, Level, find_ability, healing_dice, load_abilities
from rules.rolweb.settings import parse_settings
from rules.systems.base import RulesError


def test_seed_abilities_ship_with_three_levels():
    # CURACIÓN DE HERIDAS names Medicus, Recuperación and Imposición de manos
    names = {a.name for a in load_abilities()}
    assert names == {"Medicus", "Recuperación", "Imposición de manos"}
    for ability in load_abilities():
        assert set(ability.levels) == {Level.PRINCIPIANTE, Level.ADEPTO, Level.MAESTRO}
        assert ability.in_seed


def test_medicus_heals_1d4_and_more_with_herbs():
    # CURACIÓN DE HERIDAS: "Medicus cura 1D4 ... más si se combina con unas hierbas curativas"
    novice = find_ability("medicus").levels[Level.PRINCIPIANTE]
    assert novice.healing == "1d4" and novice.healing_with_herbs == "1d6"
    assert novice.action is ActionType.ACTIVE


def test_levels_are_ordered_and_named():
    # USO DE HABILIDADES: principiante, adepto, maestro; a maestro has all three
    assert Level.PRINCIPIANTE < Level.ADEPTO < Level.MAESTRO
    assert [level.term for level in Level] == ["ninguno", "principiante", "adepto", "maestro"]
    assert Level.from_term("adepto") is Level.ADEPTO
    with pytest.raises(ValueError):
        Level.from_term("experto")


def test_action_types_are_the_five_of_the_seed():
    assert {t.value for t in ActionType} == {"activa", "gratuita", "pasiva", "reactiva", "especial"}


def _ability(name: str, actions=("activa", "pasiva", "reactiva")) -> dict:
    levels = ("principiante", "adepto", "maestro")
    return {
        "nombre": name,
        "niveles": {
            lv: {"accion": a, "efecto": "…"} for lv, a in zip(levels, actions, strict=True)
        },
    }


def test_campaign_defines_its_own_abilities():
    settings = parse_settings({"habilidades": json.dumps({"habilidades": [_ability("Acróbata")]})})
    ability = find_ability("Acróbata", settings)
    assert ability is not None and ability.levels[Level.MAESTRO].action is ActionType.REACTIVE
    assert find_ability("Medicus", settings) is None


@pytest.mark.parametrize(
    "abilities",
    [
        [_ability("A", ("activa", "pasiva", "mágica"))],
        [{"nombre": "B", "niveles": {"principiante": {"accion": "activa"}}}],
        [_ability("C"), _ability("C")],
    ],
)
def test_bad_campaign_abilities_are_refused(abilities):
    with pytest.raises(RulesError) as error:
        load_abilities(parse_settings({"habilidades": json.dumps(abilities)}))
    assert error.value.problems[0].key == "rolweb.problem.bad_data"


def test_healing_dice_by_level_and_herbs():
    # CURACIÓN DE HERIDAS: Medicus 1D4, "más si se combina con unas hierbas curativas"
    medicus = find_ability("Medicus")
    assert healing_dice(medicus, Level.PRINCIPIANTE) == "1d4"
    assert healing_dice(medicus, Level.PRINCIPIANTE, herbs=True) == "1d6"
    assert healing_dice(medicus, Level.MAESTRO) == "1d8"
    assert healing_dice(medicus, Level.NONE) is None
    # Recuperación has no herbal value: herbs do not change it
    assert healing_dice(find_ability("Recuperación"), Level.ADEPTO, herbs=True) == "1d6"
