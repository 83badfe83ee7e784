"""Tests of rules/rolweb/combat.py against seed 001: "DEFENSA", "ATAQUE GRATUITO", "COMBATE CON
ARMAS PREPARADAS", "SORPRESA", "ESCUDO", "FLANQUEAR" and "VENTAJA"."""

from __future__ import annotations

import pytest

from rules.rolweb.actions import Action
from rules.rolweb.combat import (
    AdvantageReason,
    FreeAttack,
    FreeAttackTrigger,
    advantage,
    attack_target,
    can_join_melee,
    defence,
    defence_target,
    draw_cost,
    free_attacks,
    long_weapon_free_attack,
    roll_surprise,
    surprise_free_attacks,
    surprise_target,
    surprise_values,
    weapon_allowed,
)
from rules.rolweb.equipment import Armour, Quality, Shield, Weapon
from rules.systems.base import RulesError

from .conftest import FixedRandom, assert_translatable

SPEAR = Weapon("Lanza", "1d8", frozenset({Quality.LONG}))
SWORD = Weapon("Espada", "1d8", frozenset())
DAGGER = Weapon("Daga", "1d6", frozenset({Quality.SHORT}))
FISTS = Weapon("Puños", "1d4", frozenset({Quality.NATURAL}))
GREATSWORD = Weapon("Mandoble", "1d12", frozenset({Quality.HEAVY}))
BOW = Weapon("Arco", "1d8", frozenset({Quality.RANGED}))


def test_defence_is_agil_plus_shield_plus_armour():
    # DEFENSA: "basada en su atributo de Ágil, modificada por ... el escudo o la armadura"; ESCUDO: +1
    assert defence(13) == 13
    assert defence(13, Shield.SHIELD) == 14
    assert defence(13, Shield.BUCKLER, Armour("Ligera", "1d4", -2)) == 12


def test_attack_is_diestro_against_defence_and_defence_is_defence_against_diestro():
    # ACCIÓN DE COMBATE: [Diestro←Defensa]; DEFENSA: [Defensa←Diestro]
    assert attack_target(14, 12) == 12
    assert defence_target(12, 14) == 8


def test_shield_forbids_heavy_and_ranged_but_not_with_a_rodela():
    # ESCUDO: "impide el uso de armas Pesadas y a distancia ... La excepción ... es la rodela"
    assert not weapon_allowed(GREATSWORD, Shield.SHIELD)
    assert not weapon_allowed(BOW, Shield.SHIELD)
    assert weapon_allowed(GREATSWORD, Shield.BUCKLER)
    assert weapon_allowed(SWORD, Shield.SHIELD)


def test_long_weapon_attacks_free_on_the_first_turn():
    # COMBATE CON ARMAS PREPARADAS: "las armas Largas reciben un ataque gratuito ... durante el primer turno"
    assert long_weapon_free_attack(SPEAR, Shield.NONE, SWORD, first_turn=True)
    assert not long_weapon_free_attack(SPEAR, Shield.NONE, SWORD, first_turn=False)


def test_no_long_weapon_free_attack_against_another_long_weapon():
    # "siempre que dicho enemigo no empuñe un arma Larga a su vez"
    assert not long_weapon_free_attack(SPEAR, Shield.NONE, SPEAR, first_turn=True)


def test_a_shield_cancels_the_long_weapon_advantage_but_a_rodela_does_not():
    # ESCUDO: "neutralizar la ventaja de un arma Larga, ya que obliga a empuñarla con una sola mano"
    assert not long_weapon_free_attack(SPEAR, Shield.SHIELD, SWORD, first_turn=True)
    assert long_weapon_free_attack(SPEAR, Shield.BUCKLER, SWORD, first_turn=True)


def test_disengaging_gives_every_engaged_enemy_a_free_attack():
    # DESTRABARSE DEL COMBATE: "cada uno tiene derecho a un ataque gratuito"
    granted = free_attacks([(FreeAttackTrigger.DISENGAGE, "pj", ("orco1", "orco2"))])
    assert granted == (
        FreeAttack("orco1", "pj", FreeAttackTrigger.DISENGAGE),
        FreeAttack("orco2", "pj", FreeAttackTrigger.DISENGAGE),
    )


def test_one_free_attack_per_trigger_and_turn():
    # ATAQUE GRATUITO: "si dos enemigos intentan retirarse, solo se obtiene un ataque gratuito"
    granted = free_attacks(
        [
            (FreeAttackTrigger.DISENGAGE, "a", ("guardia",)),
            (FreeAttackTrigger.DISENGAGE, "b", ("guardia",)),
        ]
    )
    assert [g.target for g in granted] == ["a"]


def test_different_triggers_each_give_a_free_attack():
    # "si uno se retira y el otro pasa junto al personaje, este obtiene un ataque gratuito contra cada uno"
    granted = free_attacks(
        [
            (FreeAttackTrigger.DISENGAGE, "a", ("guardia",)),
            (FreeAttackTrigger.PASSING, "b", ("guardia",)),
        ]
    )
    assert [(g.target, g.trigger) for g in granted] == [
        ("a", FreeAttackTrigger.DISENGAGE),
        ("b", FreeAttackTrigger.PASSING),
    ]


def test_group_surprise_uses_lowest_discreto_against_highest_atento():
    # SORPRESA: "el atributo Discreto más bajo de los atacantes contra el más Atento de los defensores"
    assert surprise_values([14, 9, 12], [8, 13]) == (9, 13)
    assert surprise_target([14, 9, 12], [8, 13]) == 6


def test_surprise_roll_is_discreto_against_atento():
    assert roll_surprise([12], [10], FixedRandom(12)).success
    assert not roll_surprise([12], [11], FixedRandom(12)).success


def test_surprise_needs_both_sides():
    with pytest.raises(RulesError) as error:
        surprise_values([], [10])
    assert_translatable(error.value.problems)


def test_drawing_when_surprised_costs_movement_except_short_and_natural():
    # SORPRESA: desenvainar "cuesta una acción de movimiento" salvo armas Cortas (gratuita) y naturales
    assert draw_cost(SWORD) is Action.MOVEMENT
    assert draw_cost(DAGGER) is Action.FREE
    assert draw_cost(FISTS) is Action.FREE


def test_advantage_gives_plus_two_and_a_d4():
    # VENTAJA: "+2 a las tiradas del atributo relevante e inflige +1D4 puntos de daño"
    gained = advantage([AdvantageReason.FLANKING])
    assert gained.active and gained.test_modifier == 2 and gained.extra_damage == "1d4"
    assert (
        gained.defender_modifier == -2
    )  # players always roll: the NPC's advantage hits their defence


def test_advantage_reasons_do_not_stack():
    gained = advantage(["flanqueo", "en_el_suelo", "posicion_superior"])
    assert len(gained.reasons) == 3 and gained.test_modifier == 2


def test_flanking_and_prone_help_only_in_melee():
    # VENTAJA: "Los ataques a distancia no se benefician de esta situación" (suelo); flanqueo: cuerpo a cuerpo
    assert not advantage([AdvantageReason.PRONE, AdvantageReason.FLANKING], ranged=True).active
    # "Esto se aplica tanto a ataques cuerpo a cuerpo como a distancia" (posición superior)
    assert advantage([AdvantageReason.HIGHER], ranged=True).active
    assert advantage([AdvantageReason.UNAWARE], ranged=True).active


def test_no_reason_no_advantage():
    assert advantage([]).test_modifier == 0 and advantage([]).extra_damage is None


def test_at_most_four_surround_a_target():
    # FLANQUEAR: "El máximo de personas que puede rodear a una persona o criatura es de cuatro"
    assert can_join_melee(3)
    assert not can_join_melee(4)


def test_successful_surprise_gives_each_attacker_a_free_attack():
    # SORPRESA: "el enemigo tiene derecho a un ataque gratuito contra el sorprendido, al principio del turno"
    granted = surprise_free_attacks(["a", "b"], ["orco"])
    assert granted == (
        FreeAttack("a", "orco", FreeAttackTrigger.SURPRISE),
        FreeAttack("b", "orco", FreeAttackTrigger.SURPRISE),
    )
