"""Abilities from chat (seed 001: USO DE HABILIDADES line 19, CURACIÓN DE HERIDAS lines
148-155, PERSONAJES MORIBUNDOS line 142)."""

from __future__ import annotations

import pytest

from rules.combat.attack import Fighter, TargetChange
from rules.rolweb.abilities import ActionType
from rules.rolweb.system import SYSTEM
from rules.systems.base import RulesError

from .conftest import FixedRandom, assert_translatable


def healer(**levels):
    sheet = SYSTEM.new_sheet("Ilsa", {})
    sheet["habilidades"] = levels
    return sheet


def test_medicus_heals_1d4_and_more_with_herbs_and_stabilises():
    """Line 154: «La habilidad de Medicus cura 1D4 puntos de Resistencia al instante, más si se
    combina con unas hierbas curativas»; any healing stabilises (line 142)."""
    ilsa = healer(Medicus="principiante")
    dying = SYSTEM.apply_damage(SYSTEM.new_sheet("Brann", {}), 10, {}).sheet
    used = SYSTEM.use_ability(ilsa, "medicus", Fighter("Brann", dying), {}, FixedRandom(3))
    assert (used.ability, used.level, used.action) == ("Medicus", "principiante", ActionType.ACTIVE)
    assert used.roll is not None and used.roll.breakdown == "1d4 (3) = 3"
    assert used.change == TargetChange("heal", 3) and used.notes == ()  # the seed's own 1D4
    healed = SYSTEM.heal(dying, used.change.amount, {})
    assert healed.state == "activo" and "rolweb.note.stabilised" in healed.notes
    ilsa["equipo"] = {"Hierbas curativas": 1}  # issue 23 §3: the herbs are carried and spent
    herbal = SYSTEM.use_ability(ilsa, "Medicus", None, {}, FixedRandom(5), herbs=True)
    assert herbal.roll.expression == "1d6" and herbal.change.amount == 5
    assert herbal.notes == (
        "rolweb.note.with_herbs",
        "rolweb.note.herbs_spent",
        "rolweb.note.house_amount",
    )
    assert herbal.costs == ("hierbas",)
    assert_translatable(herbal.notes)


def test_levels_house_defaults_and_refusals():
    master = healer(**{"Imposición de manos": "maestro", "Recuperación": "adepto"})
    full = SYSTEM.use_ability(master, "Imposición de manos", None, {}, FixedRandom(9))
    assert full.roll.expression == "1d10" and full.notes == ("rolweb.note.house_amount",)
    lower = SYSTEM.use_ability(
        master, "Imposición de manos", None, {}, FixedRandom(2), level="principiante"
    )
    assert lower.roll.expression == "1d6"
    own = SYSTEM.use_ability(master, "Recuperación", Fighter("Ilsa", master), {}, FixedRandom(4))
    assert own.change == TargetChange("heal", 4)
    cases = [
        (healer(), "Medicus", None, {}, "rolweb.problem.ability_not_known"),
        (master, "Volar", None, {}, "rolweb.problem.unknown_ability"),
        (master, "Recuperación", Fighter("Otro", healer()), {}, "rolweb.problem.ability_self_only"),
        (
            master,
            "Recuperación",
            None,
            {"level": "maestro"},
            "rolweb.problem.ability_level_too_high",
        ),
        (master, "Recuperación", None, {"level": "gran"}, "rolweb.problem.ability_level_unknown"),
    ]
    for sheet, name, target, options, key in cases:
        with pytest.raises(RulesError) as error:
            SYSTEM.use_ability(sheet, name, target, {}, FixedRandom(1), **options)
        assert error.value.problems[0].key == key
        assert_translatable(error.value.problems)
    dying = SYSTEM.apply_damage(master, 10, {}).sheet
    with pytest.raises(RulesError) as error:
        SYSTEM.use_ability(dying, "Recuperación", None, {}, FixedRandom(1))
    assert error.value.problems[0].key == "rolweb.problem.cannot_use_ability"


def test_a_difficulty_replaces_attribute_and_modifier():
    """Line 15: the GM «podrá decir directamente la Dificultad … en base a la suma del atributo
    del pj y el modificador elegido»: difficulty 8 with modifier −3 is still 8."""
    from rules.systems.base import CheckRequest

    sheet = SYSTEM.new_sheet("Ilsa", {})
    result = SYSTEM.check(sheet, CheckRequest("atributo:Ágil", -3, 8), {}, FixedRandom(8))
    assert result.target == 8 and str(result.outcome) == "success"
    plain = SYSTEM.check(sheet, CheckRequest("atributo:Ágil", -3), {}, FixedRandom(8))
    assert plain.target == 7
