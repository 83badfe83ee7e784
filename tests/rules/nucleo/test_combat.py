"""Combat (seed 002, «Combate», «Acciones y movimiento en combate», «Ataque cuerpo a cuerpo»,
«Ataque con dos armas», «Ataque a Distancia», «Armas a distancia en cuerpo a cuerpo», «Emboscadas»)."""

from __future__ import annotations

import pytest

import rules.nucleo
from rules.nucleo.checks import Keep
from rules.nucleo.combat import (
    ambush_succeeds,
    band_for_distance,
    extra_damage_dice,
    melee_attack,
    melee_damage,
    melee_target_bonus,
    movement,
    ranged_attack,
    ranged_difficulty,
    roll_initiative,
    squares,
    turn_budget,
    two_weapon_damage,
)
from rules.nucleo.data import catalogue


@pytest.mark.parametrize(
    ("total", "actions"),
    [(0, 1), (12, 1), (19, 1), (20, 2), (29, 2), (30, 3), (39, 3), (40, 4), (55, 5)],
)
def test_actions_for_initiative(total, actions):
    """seed 002 «Combate» 2: «20 o más, 2 acciones, 30 o más, 3 acciones, 40 o más, 4 … etcétera»."""
    assert rules.nucleo.actions_for_initiative(total) == actions


def test_initiative_is_rolled_once_with_1o3d10(scripted):
    """seed 002 «Combate» 1: «Iniciativa +1o3d10»; 20+ is what the example calls a critical."""
    roll = roll_initiative(12, scripted([8, 3, 9]))
    assert (roll.check.total, roll.actions, roll.critical) == (20, 2, True)
    roll = roll_initiative(12, scripted([5, 3, 9]))
    assert (roll.check.total, roll.actions, roll.critical, roll.goes_last) == (17, 1, False, False)


def test_initiative_fumble_skips_the_first_turn_and_goes_last(scripted):
    """seed 002 «Combate» 3: «no se actua en el primer turno, y se irá último en los siguientes»."""
    roll = roll_initiative(12, scripted([1, 1, 2]))
    assert roll.skips_first_round and roll.goes_last and roll.actions == 1


def test_malherido_initiative_keeps_the_lowest(scripted):
    """seed 002 «Circunstancias Especiales»: Malherido keeps the lowest die on every roll."""
    assert roll_initiative(12, scripted([8, 3, 9]), Keep.LOWEST).check.total == 15


def test_movement_6_and_3_metres_at_most_9():
    """seed 002 «Acciones y movimiento»: mayor 6 m, menor 3 m, «El movimiento máximo es 9 metros»."""
    assert movement(major=1) == 6
    assert movement(minor=1) == 3
    assert movement(major=1, minor=1) == 9
    assert movement(major=2, minor=2) == 9
    assert squares(6) == 4 and squares(3) == 2 and squares(9) == 6
    with pytest.raises(ValueError):
        movement(major=-1)


def test_turn_budget_from_actions():
    """seed 002 example: with two actions «podemos mover 9 metros y realizar un ataque»."""
    budget = turn_budget(2)
    assert (budget.major, budget.minor, budget.max_movement_m) == (2, 2, 9)
    assert movement(major=1, minor=1) == budget.max_movement_m  # the first action moves 9 m


def test_extra_damage_die_per_full_ten_over_defensa():
    """seed 002 «Ataque cuerpo a cuerpo»: «Por cada 10 que se supere la defensa se suma 1d6»."""
    assert [extra_damage_dice(t, 15) for t in (14, 15, 24, 25, 34, 35)] == [0, 0, 0, 1, 1, 2]


def test_melee_modifiers():
    """seed 002: «Por la espalda: +4», «Flanqueando: +2», «Ataque con dos armas … +3»."""
    assert melee_target_bonus(from_behind=True) == 4
    assert melee_target_bonus(flanking=True) == 2
    assert melee_target_bonus(from_behind=True, flanking=True) == 4
    assert melee_target_bonus(two_weapons=True, flanking=True) == 5


def test_melee_hit_on_equal_defensa_with_exploding_damage(scripted):
    """seed 002 «Ataque cuerpo a cuerpo»: «Si iguala o supera ésta, consigue impactar»; damage explodes."""
    # check: 10 + middle 5 = 15 vs Defensa 15; damage 2d6: 6 explodes → 6+3, 4 → 13, +1
    attack = melee_attack(10, 15, "2d6+1", scripted([5, 3, 9, 6, 3, 4]))
    assert attack.hit and attack.extra_dice == 0
    assert attack.damage_expression == "2d6!+1"
    assert attack.damage == 6 + 3 + 4 + 1 and attack.wounds == 14


def test_melee_miss_deals_nothing(scripted):
    """seed 002 «Ataque cuerpo a cuerpo»: below the Defensa there is no hit and no damage."""
    attack = melee_attack(9, 15, "2d6", scripted([5, 3, 9]))
    assert not attack.hit and attack.damage == 0 and attack.wounds == 0


def test_melee_extra_dice_and_armour_absorption(scripted):
    """seed 002: +1d6 per full 10 over; armour «Absorción» subtracts from the damage."""
    # 20 + middle 9 = 29 vs 15 → 1 extra d6; damage 1d6+3 (4) + 1d6 (2) + 1 = 10, absorption 4 → 6
    attack = melee_attack(20, 15, "1d6+3", scripted([9, 3, 10, 4, 2]), damage_bonus=1, absorption=4)
    assert attack.extra_dice == 1 and attack.damage_expression == "1d6!+3+1d6!+1"
    assert (attack.damage, attack.wounds) == (10, 6)
    weak = melee_attack(15, 15, "1d6", scripted([5, 3, 9, 2]), absorption=6)
    assert weak.hit and weak.wounds == 0


def test_fumbled_attack_misses(scripted):
    """seed 002 «Críticos y Pifias»: a fumble never hits."""
    attack = melee_attack(30, 15, "2d6", scripted([1, 1, 2]))
    assert attack.check.fumble and not attack.hit


def test_two_weapons_damage_is_the_higher():
    """seed 002 «Ataque con dos armas»: «El daño causado es el mayor de las armas usadas»."""
    weapons = catalogue().weapons
    assert two_weapon_damage(weapons["Daga"], weapons["Espada corta"]) == "1d6+3"
    assert two_weapon_damage(weapons["Cimitarra"], weapons["Cuchillo"]) == "1d6+3"


def test_range_difficulties_and_modifiers():
    """seed 002 «Ataque a Distancia»: 10/15/20/25; corriendo +3, tumbado +5, cobertura +2/+4/+6, gente +2."""
    assert [ranged_difficulty(b) for b in ("bocajarro", "corta", "media", "larga")] == [
        10,
        15,
        20,
        25,
    ]
    assert ranged_difficulty("corta", ["corriendo"]) == 18
    assert ranged_difficulty("media", ["tumbado", "cobertura_grande"]) == 31
    assert ranged_difficulty("larga", ["cobertura_ligera", "entre_gente"], cover=2) == 31
    assert ranged_difficulty("corta", ["cobertura_media"]) == 19
    with pytest.raises(ValueError):
        ranged_difficulty("lejísimos")
    with pytest.raises(ValueError):
        ranged_difficulty("corta", ["volando"])


def test_band_for_distance_uses_the_weapon_ranges():
    """seed 002 «Equipo»: «Arco corto … 15m / 30m / 60m»."""
    bow = catalogue().weapons["Arco corto"]
    assert [band_for_distance(bow, m) for m in (10, 15, 16, 30, 60, 61)] == [
        "corta",
        "corta",
        "media",
        "media",
        "larga",
        None,
    ]
    assert band_for_distance(catalogue().weapons["Maza"], 2) is None


def test_ranged_attack_no_extra_dice_unless_the_setting_says_so(scripted):
    """seed 002 «Ataque a Distancia»: extra dice are printed for melee only (setting dados_extra_distancia)."""
    plain = ranged_attack(20, 15, "1d6+3", scripted([9, 3, 10, 4]))
    assert plain.hit and plain.extra_dice == 0 and plain.damage == 7
    extra = ranged_attack(20, 15, "1d6+3", scripted([9, 3, 10, 4, 2]), extra_dice=True)
    assert extra.extra_dice == 1 and extra.damage == 9


def test_ambush_needs_sigilo_to_beat_advertir():
    """seed 002 «Emboscadas»: «con éxito (sigilo vs advertir/notar) el primer ataque es gratuito»."""
    assert ambush_succeeds(18, 15)
    assert not ambush_succeeds(15, 15)
    assert not ambush_succeeds(12, 15)


def test_ranged_weapon_in_melee_and_unarmed_damage():
    """seed 002 «Armas a distancia en cuerpo a cuerpo»: «arma improvisada 1d6+1»; «Combate» 5: sin armas 1d6."""
    weapons = catalogue().weapons
    assert melee_damage(weapons["Arco largo"]) == "1d6+1"
    assert melee_damage(None) == "1d6"
    assert melee_damage(weapons["Daga"]) == "1d6+1"
    assert melee_damage(weapons["Sable"], two_handed=True) == "2d6+1"
