"""Healing between fights in rolweb (issue 23 §3; seed 001 CURACIÓN DE HERIDAS lines 148-155,
PERSONAJES MORIBUNDOS line 142, PRIMEROS AUXILIOS line 177)."""

from __future__ import annotations

import pytest

from rules.combat.attack import Fighter, TargetChange
from rules.rolweb.system import SYSTEM
from rules.systems.base import Recovery, RulesError, capabilities

from .conftest import FixedRandom, assert_translatable


def wounded(toughness: int, **changes):
    sheet = SYSTEM.new_sheet("Bram", {})
    sheet["resistencia"] = {"actual": toughness}
    sheet.update(changes)
    return sheet


def test_a_day_of_rest_heals_one_toughness_up_to_the_maximum():
    """Line 152: «La curación natural sucede al ritmo de un punto de Resistencia por día»."""
    assert isinstance(capabilities(SYSTEM).recovery, Recovery)
    rested = SYSTEM.rest_days(wounded(4), 3, {})
    assert rested.healed == 3 and rested.sheet["resistencia"]["actual"] == 7
    assert rested.state == "activo" and rested.notes == ()
    full = SYSTEM.rest_days(wounded(9), 30, {})
    assert full.healed == 1 and full.sheet["resistencia"]["actual"] == 10


def test_resting_neither_stabilises_the_dying_nor_raises_the_dead():
    """Line 142 lists what stabilises a moribundo (mystic healing, herbs, Medicus): not rest."""
    dying = SYSTEM.apply_damage(wounded(2), 5, {}).sheet
    rested = SYSTEM.rest_days(dying, 5, {})
    assert rested.healed == 0 and rested.state == "moribundo"
    assert rested.sheet == dying and rested.notes == ("rolweb.note.rest_needs_first_aid",)
    assert_translatable(rested.notes)
    dead = wounded(0, estado="muerto")
    assert SYSTEM.rest_days(dead, 5, {}).notes == ("rest.note.dead",)


def test_herbs_are_checked_carried_and_spent_once():
    """Line 153: herbs heal 1 at once; line 177: first aid «requiere el gasto de unas hierbas
    curativas» — a combat action.  Medicus «con hierbas» needs one too (line 154)."""
    ilsa = SYSTEM.new_sheet("Ilsa", {})
    ilsa["habilidades"] = {"Medicus": "principiante"}
    dying = SYSTEM.apply_damage(wounded(2), 5, {}).sheet
    with pytest.raises(RulesError) as error:
        SYSTEM.use_ability(ilsa, "Medicus", None, {}, FixedRandom(2), herbs=True)
    assert error.value.problems[0].key == "rolweb.problem.no_herbs"
    assert_translatable(error.value.problems)
    with pytest.raises(RulesError):
        SYSTEM.use_ability(ilsa, "Hierbas curativas", Fighter("Bram", dying), {}, FixedRandom())
    ilsa["equipo"] = {"Hierbas curativas": 2, "Cuerda": 1}
    herbs = SYSTEM.use_ability(ilsa, "hierbas curativas", Fighter("Bram", dying), {}, FixedRandom())
    assert herbs.change == TargetChange("heal", 1) and herbs.action == "activa"
    assert herbs.roll is None and herbs.costs == ("hierbas",)
    assert SYSTEM.heal(dying, herbs.change.amount, {}).state == "activo"  # stabilised
    paid = SYSTEM.pay_ability(ilsa, herbs, {})
    assert paid["equipo"] == {"Hierbas curativas": 1, "Cuerda": 1}
    last = SYSTEM.pay_ability(paid, herbs, {})
    assert last["equipo"] == {"Cuerda": 1}
    with pytest.raises(RulesError) as error:  # a concurrent use took the last one
        SYSTEM.pay_ability(last, herbs, {})
    assert error.value.problems[0].key == "rolweb.problem.no_herbs"
    assert ilsa["equipo"]["Hierbas curativas"] == 2  # nothing mutated


def test_herbs_with_an_ability_that_does_not_use_them_and_a_chosen_amount_are_refused():
    master = SYSTEM.new_sheet("Ilsa", {})
    master["habilidades"] = {"Imposición de manos": "adepto"}
    master["equipo"] = {"Hierbas": 1}
    for options, key in (
        ({"herbs": True}, "rolweb.problem.herbs_not_used"),
        ({"amount": 3}, "rolweb.problem.amount_rolled"),
    ):
        with pytest.raises(RulesError) as error:
            SYSTEM.use_ability(master, "Imposición de manos", None, {}, FixedRandom(1), **options)
        assert error.value.problems[0].key == key
        assert_translatable(error.value.problems)


def test_the_herbs_are_listed_as_an_ability_of_who_carries_them():
    ilsa = SYSTEM.new_sheet("Ilsa", {})
    assert SYSTEM.known_abilities(ilsa, {}) == ()
    ilsa["equipo"] = {"Hierbas curativas": 3}
    (herbs,) = SYSTEM.known_abilities(ilsa, {})
    assert (herbs.name, herbs.level, herbs.action) == ("Hierbas curativas", "objeto", "activa")


def test_health_and_resources_are_guarded():
    assert "resistencia.actual" in SYSTEM.guarded_paths({})
