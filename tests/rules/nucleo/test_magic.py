"""Magic (seed 002, «Módulo de reglas: Magia»)."""

from __future__ import annotations

import pytest

from rules.nucleo.magic import burn_bonus, cast, find_spell, plan_cast, roll_effect, save_difficulty
from rules.systems.base import Outcome, RulesError

from .conftest import keys


def _problem(call) -> str:
    with pytest.raises(RulesError) as info:
        call()
    return keys(info.value.problems)[0]


def test_burning_mana():
    """seed 002 «Notas»: «Por cada 2 puntos de maná extra gastados, gana un +1»."""
    assert [burn_bonus(n) for n in range(6)] == [0, 0, 1, 1, 2, 2]


def test_plan_uses_the_tier_difficulty_and_cost():
    """seed 002 «Dif 20 – Coste Maná: 4»: Bola de fuego."""
    plan = plan_cast("Bola de fuego", 3, 20, extra_mana=4)
    assert (plan.difficulty, plan.mana_cost, plan.total_mana, plan.bonus) == (20, 4, 8, 3 + 2)


def test_not_enough_mana_unknown_or_unlearnt_spell():
    """seed 002 «Notas»: mana is spent; spells are bought like skills."""
    assert (
        _problem(lambda: plan_cast("Bola de fuego", 3, 7, extra_mana=4))
        == "nucleo.problem.not_enough_mana"
    )
    assert _problem(lambda: plan_cast("Volar", 3, 20)) == "nucleo.problem.unknown_spell"
    assert _problem(lambda: plan_cast("Luz", 0, 20)) == "nucleo.problem.spell_not_known"
    assert (
        _problem(lambda: plan_cast("Luz", 1, 20, extra_mana=-2)) == "nucleo.problem.bad_extra_mana"
    )


def test_disipar_magia_takes_difficulty_plus_2_and_the_cost():
    """seed 002: Disipar Magia «a dificultad del conjuro +2, y a coste del conjuro a disipar»."""
    plan = plan_cast("Disipar Magia", 2, 10, target_spell="Tentáculos Negros")
    assert (plan.difficulty, plan.mana_cost, plan.dispelled.name) == (20, 3, "Tentáculos Negros")
    assert _problem(lambda: plan_cast("Disipar Magia", 2, 10)) == "nucleo.problem.dispel_target"


def test_curacion_1d6_per_mana_up_to_3():
    """seed 002: Curación «Cura 1d6 pv por punto de maná gastado, con un máximo de 3»."""
    assert plan_cast("Curación", 1, 10).healing_dice == 1
    plan = plan_cast("Curación", 1, 10, healing_mana=3)
    assert (plan.mana_cost, plan.healing_dice) == (3, 3)
    assert (
        _problem(lambda: plan_cast("Curación", 1, 10, healing_mana=4))
        == "nucleo.problem.healing_mana"
    )


def test_cast_is_inteligencia_plus_level_plus_1o3d10(scripted):
    """seed 002 «Magia»: «Todos los hechizos se tiran por el atributo inteligencia»."""
    plan = plan_cast("Proyectil mágico", 2, 10)
    result = cast(plan, 9, scripted([5, 3, 9]))
    assert result.check.total == 9 + 2 + 5 and result.check.outcome is Outcome.SUCCESS
    assert result.mana_spent == 2 and result.critical_benefits == ()


def test_spell_critical_and_its_extra_die(scripted):
    """seed 002 «Notas»: «supera en +10 la dificultad … +1d6 (conjuros de daño y curación)»."""
    plan = plan_cast("Proyectil mágico", 6, 10)
    result = cast(plan, 10, scripted([9, 3, 10]))  # 10 + 6 + 9 = 25, one short of 16 + 10
    assert result.check.outcome is Outcome.SUCCESS
    result = cast(plan, 10, scripted([10, 3, 10, 4, 1, 2]))  # 10 + 6 + (10 + 2) = 28
    assert result.check.critical and result.critical_benefits == ("dado",)
    effect = roll_effect(result, scripted([2, 3, 6, 1]))  # 2d6!+1d6!: 2, 3, 6 explodes → 1
    assert effect.expression == "2d6!+1d6!" and effect.total == 12 and effect.kind == "damage"


def test_spell_critical_benefits_by_spell():
    """seed 002 «Notas»: «+1d6 …, +1 (bonos de atributo), o 2 turnos extra»."""
    assert find_spell("Fuerza sobrehumana").critical == ("bono", "turnos")
    assert find_spell("Invisibilidad").critical == ("turnos",)
    assert find_spell("Curación").critical == ("dado",)


def test_healing_effect_does_not_explode(scripted):
    """seed 002 «Equipo»: only «Las tiradas de daño» explode; Curación's dice do not."""
    plan = plan_cast("Curación", 3, 10, healing_mana=2)
    result = cast(plan, 9, scripted([5, 3, 9]))
    effect = roll_effect(result, scripted([6, 4]))
    assert (effect.kind, effect.expression, effect.total) == ("healing", "2d6", 10)


def test_failed_cast_has_no_effect_but_spends_mana(scripted):
    """seed 002 «Magia»: a failed cast does nothing; its mana is still spent (docs/rules-decisions.md)."""
    plan = plan_cast("Bola de fuego", 1, 10)
    result = cast(plan, 6, scripted([5, 3, 9]))
    assert result.check.outcome is Outcome.FAILURE and result.mana_spent == 4
    assert roll_effect(result, scripted([])) is None


def test_saves_fixed_or_opposed():
    """seed 002 «Magia»: «Salv: PER 10» etc. are never defined; default: attribute + 1o3d10 vs the number."""
    assert save_difficulty(find_spell("Luz"), 22) == 10
    assert save_difficulty(find_spell("Luz"), 22, "enfrentada") == 22
    assert save_difficulty(find_spell("Olvido"), 22, choice=12) == 12
    assert save_difficulty(find_spell("Bola de fuego"), 22) is None
    with pytest.raises(ValueError):
        save_difficulty(find_spell("Luz"), 22, "otra")
