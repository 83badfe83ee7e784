"""Tests of rules/rolweb/damage.py against seed 001: "DEFENSA", "RESISTENCIA", "UMBRAL DE DOLOR",
"PERSONAJES MORIBUNDOS", "CURACIÓN DE HERIDAS" and "VENTAJA"."""

from __future__ import annotations

import random

import pytest

from rules.rolweb import pain_threshold, toughness
from rules.rolweb.damage import (
    LifeState,
    PainEffect,
    death_test,
    heal,
    hit_damage,
    natural_healing,
    pain_effects,
    roll_damage,
    roll_death_test,
    roll_healing,
    take_damage,
)
from rules.rolweb.settings import DeathRule
from rules.systems.base import RulesError
from tests.rules.helpers import Cells

from .conftest import FixedRandom, assert_translatable


@pytest.mark.parametrize("fuerte,expected", [(5, 10), (9, 10), (10, 10), (13, 13), (15, 15)])
def test_toughness_is_fuerte_minimum_ten(fuerte, expected):
    # RESISTENCIA: "igual a su atributo de Fuerte, aunque nunca puede ser inferior a 10"
    assert toughness(fuerte) == expected


@pytest.mark.parametrize("fuerte,expected", [(5, 3), (9, 5), (10, 5), (13, 7), (15, 8)])
def test_pain_threshold_is_half_fuerte_rounded_up(fuerte, expected):
    # UMBRAL DE DOLOR: "la mitad de su valor de Fuerte redondeado hacia arriba"
    assert pain_threshold(fuerte) == expected


def test_damage_is_weapon_minus_armour_never_negative():
    # DEFENSA: "tantos puntos de daño como el valor de daño del arma menos la tirada de la armadura"
    assert hit_damage(7, 3) == 4
    assert hit_damage(2, 5) == 0


def test_roll_damage_uses_the_dice_engine_with_armour():
    rolled = roll_damage("1d8", "1d4", random.Random(3))
    assert 1 <= rolled.weapon <= 8 and 1 <= rolled.armour <= 4
    assert rolled.damage == max(0, rolled.weapon - rolled.armour)
    assert rolled.weapon_breakdown and rolled.armour_breakdown
    assert rolled.expression == "1d8 - 1d4"


def test_advantage_adds_1d4_damage():
    # VENTAJA: "inflige +1D4 puntos de daño"
    rng = random.Random(9)
    totals = {roll_damage("1d8", None, rng, advantage=True).weapon for _ in range(500)}
    assert min(totals) == 2 and max(totals) == 12


def test_pain_threshold_reached_offers_the_two_effects():
    # UMBRAL DE DOLOR: "igual o superior a su Umbral de dolor en un solo ataque ... elegir uno"
    assert pain_effects(7, 13) == (PainEffect.KNOCKED_DOWN, PainEffect.FREE_ATTACK)
    assert pain_effects(6, 13) == ()


def test_damage_reduces_toughness():
    wound = take_damage(12, 5, 12, player=True)
    assert (wound.before, wound.after, wound.state) == (12, 7, LifeState.ACTIVE)
    assert not wound.pain and wound.pain_effects == ()  # 5 < Umbral de dolor 6
    assert take_damage(12, 6, 12, player=True).pain_effects == tuple(PainEffect)


def test_player_character_at_zero_is_dying():
    # PERSONAJES MORIBUNDOS: "Un personaje jugador se derrumba cuando su Resistencia llega a 0"
    wound = take_damage(4, 9, 12, player=True)
    assert wound.after == 0 and wound.state is LifeState.DYING


def test_npc_at_zero_dies():
    # "los monstruos y personajes no jugadores mueren en cuanto su Resistencia cae a 0"
    assert take_damage(4, 9, 12, player=False).state is LifeState.DEAD


def test_more_damage_keeps_a_dying_character_dying():
    assert take_damage(0, 3, 12, True, LifeState.DYING).state is LifeState.DYING


def test_the_dead_take_no_damage_and_damage_is_not_negative():
    with pytest.raises(RulesError) as error:
        take_damage(0, 3, 12, True, LifeState.DEAD)
    assert_translatable(error.value.problems)
    with pytest.raises(RulesError):
        take_damage(5, -1, 12, True)


def test_death_test_1_gets_up_and_20_dies():
    # PERSONAJES MORIBUNDOS: "hasta que el jugador saque un 1 y se levante; o ... un 20 en el dado y muera"
    assert death_test(1) == (LifeState.ACTIVE, 0)
    assert death_test(20) == (LifeState.DEAD, 0)


def test_death_test_2_to_19_repeats_under_the_seed_rule():
    # "La tirada debe repetirse hasta que ..." (docs/rules-decisions.md: 2-19 do nothing)
    cells = Cells()
    for roll in range(2, 20):
        cells.check(
            f"death_test({roll}, 0, SEED)",
            death_test(roll, 0, DeathRule.SEED),
            (LifeState.DYING, 0),
        )
    cells.assert_all_match()


def test_family_rule_counts_11_to_19_as_failures_and_three_kill():
    assert death_test(10, 0, DeathRule.FAMILY) == (LifeState.DYING, 0)
    assert death_test(11, 0, DeathRule.FAMILY) == (LifeState.DYING, 1)
    assert death_test(19, 2, DeathRule.FAMILY) == (LifeState.DEAD, 3)


def test_getting_up_gives_1d4_or_1_resistencia_by_setting():
    rises = roll_death_test(FixedRandom(1, 3), rise_toughness="1d4")
    assert rises.state is LifeState.ACTIVE and rises.toughness == 3
    assert roll_death_test(FixedRandom(1), rise_toughness="1").toughness == 1
    assert roll_death_test(FixedRandom(7)).toughness == 0


def test_natural_healing_is_one_per_day():
    # CURACIÓN DE HERIDAS: "un punto de Resistencia por día"
    assert natural_healing(3) == 3
    with pytest.raises(RulesError):
        natural_healing(-1)


def test_medicus_roll_heals_1d4():
    # CURACIÓN DE HERIDAS: "La habilidad de Medicus cura 1D4 puntos de Resistencia al instante"
    rng = random.Random(2)
    assert {roll_healing("1d4", rng).amount for _ in range(200)} == {1, 2, 3, 4}


def test_healing_is_capped_at_maximum():
    assert heal(8, 10, 5, LifeState.ACTIVE) == (10, LifeState.ACTIVE)


def test_healing_a_dying_character_stabilises_it():
    # "hasta que alguien estabilice al personaje mediante una curación mística, hierbas curativas o ... Medicus"
    assert heal(0, 12, 1, LifeState.DYING) == (1, LifeState.ACTIVE)


def test_dying_character_cannot_heal_itself_and_the_dead_cannot_be_healed():
    # "Se considera que está moribundo y que no puede hacer nada por curarse a sí mismo"
    with pytest.raises(RulesError) as error:
        heal(0, 12, 3, LifeState.DYING, by_self=True)
    assert_translatable(error.value.problems)
    with pytest.raises(RulesError):
        heal(0, 12, 3, LifeState.DEAD)
