"""Núcleo's SpellBook (seed 002, «Módulo de reglas: Magia»): casts, mana, criticals, rest."""

from __future__ import annotations

import random

import pytest

from rules import systems
from rules.systems.base import RulesError, SpellBook, SpellRequest

NUCLEO = systems.get("nucleo")


@pytest.fixture
def maga(ardelia):
    """Ardelia with «Proyectil mágico» 1 in place of Sigilo 1 (spells count in the pyramid)."""
    del ardelia["habilidades"]["Sigilo"]
    ardelia["hechizos"] = {"Proyectil mágico": 1, "Curación": 0}
    ardelia["habilidades"]["Atletismo"] = 1
    assert NUCLEO.validate(ardelia, {}) == []
    return ardelia


def test_implements_the_spellbook_and_lists_the_55_spells():
    assert isinstance(NUCLEO, SpellBook)
    listed = NUCLEO.spell_list({})
    assert listed.notice is None and len(listed.spells) == 55
    by_name = {s.name: s for s in listed.spells}
    # «Dif 16 – Coste Maná: 2» rules Proyectil mágico: band 3 of the seven (12, 14 … 24).
    assert (by_name["Proyectil mágico"].difficulty, by_name["Proyectil mágico"].cost) == (16, 2)
    assert by_name["Proyectil mágico"].level == 3


def test_without_the_magic_module_there_is_nothing_to_cast(maga):
    off = {"magia": False}
    assert NUCLEO.spell_list(off).notice == "nucleo.note.magic_off"
    assert NUCLEO.spell_state(maga, off).pools == ()
    with pytest.raises(RulesError) as error:
        NUCLEO.cast(maga, SpellRequest("Proyectil mágico"), off, random.Random(1))
    assert error.value.problems[0].key == "nucleo.note.magic_off"


def test_state_is_inteligencia_times_three_and_the_known_spells(maga):
    state = NUCLEO.spell_state(maga, {})
    # «El maná es Inteligencia x3»: Ardelia's Inteligencia 9 → 27.
    assert [(p.key, p.left, p.maximum) for p in state.pools] == [("mana", 27, 27)]
    assert dict(state.known) == {"Proyectil mágico": 1}  # level 0 is not known


def test_a_cast_rolls_int_plus_level_spends_mana_and_rolls_damage(maga, scripted):
    # Inteligencia 9 + nivel 1 + 1o3d10 (3, 7, 9 → 7) = 17 against Dif 16; 2d6 damage 4 + 5.
    result = NUCLEO.cast(maga, SpellRequest("proyectil magico"), {}, scripted([3, 7, 9, 4, 5]))
    assert (result.label, result.check.total, str(result.check.outcome)) == (
        "Proyectil mágico",
        17,
        "success",
    )
    assert result.check.target == 16
    assert (result.spent, result.pool.left) == (2, 25)
    assert result.sheet["mana_gastado"] == 2 and maga["mana_gastado"] == 0
    assert (result.effect.kind, result.effect.expression, result.effect.total) == (
        "damage",
        "2d6!",
        9,
    )


def test_burnt_mana_buys_plus_one_per_two_and_ten_over_is_a_critical(maga, scripted):
    # 8 extra mana: +4. 9 + 1 + 4 + (10, re-rolled 4) = 28 ≥ 16 + 10: critical, +1d6 damage.
    faces = [3, 10, 10, 2, 4, 5, 3, 1, 1]
    result = NUCLEO.cast(maga, SpellRequest("Proyectil mágico", extra_mana=8), {}, scripted(faces))
    assert (result.check.total, str(result.check.outcome)) == (28, "critical")
    assert (result.spent, result.pool.left) == (10, 17)
    assert result.critical_benefits == ("dado",)
    assert result.effect.expression == "2d6!+1d6!"
    assert "nucleo.note.quemar_mana" in result.notes


def test_a_failed_cast_still_spends_its_mana(maga, scripted):
    result = NUCLEO.cast(maga, SpellRequest("Proyectil mágico"), {}, scripted([1, 2, 3]))
    assert str(result.check.outcome) == "failure" and result.effect is None
    assert result.sheet["mana_gastado"] == 2


def test_not_enough_mana_unknown_and_unlearnt_spells_are_refused(maga):
    rng = random.Random(3)
    for request, sheet, key in (
        (SpellRequest("Proyectil mágico"), {**maga, "mana_gastado": 26}, "not_enough_mana"),
        (SpellRequest("Bola de nieve"), maga, "unknown_spell"),
        (SpellRequest("Curación"), maga, "spell_not_known"),
        (SpellRequest(None, level=1), maga, "name_needed"),
    ):
        with pytest.raises(RulesError) as error:
            NUCLEO.cast(sheet, request, {}, rng)
        assert error.value.problems[0].key.endswith(key)


def test_curacion_rolls_one_d6_per_mana_and_saves_are_named(maga, scripted):
    maga["hechizos"] = {"Proyectil mágico": 1, "Curación": 1, "Luz": 0}
    del maga["habilidades"]["Atletismo"]
    heal = NUCLEO.cast(maga, SpellRequest("Curación", mana=3), {}, scripted([5, 6, 7, 2, 3, 4]))
    # «Cura 1d6 pv por punto de maná gastado, con un máximo de 3»: 3 mana → 3d6.
    assert (heal.spent, heal.effect.kind, heal.effect.expression, heal.effect.total) == (
        3,
        "healing",
        "3d6",
        9,
    )
    with pytest.raises(RulesError):
        NUCLEO.cast(maga, SpellRequest("Curación", mana=4), {}, random.Random(1))
    maga["hechizos"] = {"Proyectil mágico": 1, "Luz": 1}
    light = NUCLEO.cast(maga, SpellRequest("Luz"), {}, scripted([5, 6, 7]))
    assert light.save == ("Percepción", "10")  # «(Salv: PER 10)»
    opposed = NUCLEO.cast(
        maga, SpellRequest("Luz"), {"salvacion": "enfrentada"}, scripted([5, 6, 7])
    )
    assert opposed.save == ("Percepción", str(opposed.check.total))


def test_disipar_magia_needs_the_spell_it_cancels(maga, scripted):
    maga["hechizos"] = {"Proyectil mágico": 1, "Disipar Magia": 1}
    del maga["habilidades"]["Atletismo"]
    with pytest.raises(RulesError) as error:
        NUCLEO.cast(maga, SpellRequest("Disipar Magia"), {}, random.Random(1))
    assert error.value.problems[0].key == "nucleo.problem.dispel_target"
    # «a dificultad del conjuro +2, y a coste del conjuro a disipar»: Luz → Dif 14, 1 mana.
    result = NUCLEO.cast(maga, SpellRequest("Disipar Magia", dispel="luz"), {}, scripted([5, 6, 7]))
    assert (result.check.target, result.spent) == (14, 1)


def test_a_nights_rest_refills_the_mana(maga):
    tired = {**maga, "mana_gastado": 20}
    rested = NUCLEO.rest(tired, {})
    assert rested.sheet["mana_gastado"] == 0 and tired["mana_gastado"] == 20
    assert [p.left for p in rested.before] == [7] and [p.left for p in rested.after] == [27]


def test_options_a_spell_does_not_take_are_refused(maga):
    for request, key in (
        (SpellRequest("Proyectil mágico", mana=2), "spell.problem.mana_not_variable"),
        (SpellRequest("Proyectil mágico", dispel="Luz"), "spell.problem.not_dispel"),
    ):
        with pytest.raises(RulesError) as error:
            NUCLEO.cast(maga, request, {}, random.Random(1))
        assert error.value.problems[0].key == key
