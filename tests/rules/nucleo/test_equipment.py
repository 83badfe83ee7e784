"""Equipment (seed 002, «Equipo», «Armaduras especiales», «Estorbo», Razas and Ventajas)."""

from __future__ import annotations

from rules.nucleo.creation import find_race
from rules.nucleo.data import catalogue
from rules.nucleo.equipment import damage_expression, exploding, loadout, validate_equipment

from .conftest import keys

STRONG = {"Físico": 8, "Destreza": 8, "Inteligencia": 7, "Percepción": 7, "Carisma": 7}


def test_damage_explodes():
    """seed 002 «Equipo»: «Las tiradas de daño también explotan»."""
    assert exploding("2d6+1") == "2d6!+1"
    assert exploding("1d6+3+2d6") == "1d6!+3+2d6!"
    assert exploding("2d6!") == "2d6!"


def test_one_or_two_hands():
    """seed 002 «Equipo»: «Espada larga 2d6(1M)/2d6+1(2M)»; unarmed «1d6»; Honda with lead shot."""
    weapons = catalogue().weapons
    assert damage_expression(weapons["Espada larga"]) == "2d6"
    assert damage_expression(weapons["Espada larga"], two_handed=True) == "2d6+1"
    assert damage_expression(weapons["Mandoble"]) == "2d6+2"
    assert damage_expression(None) == "1d6"
    assert damage_expression(weapons["Honda"], variant="proyectiles de plomo") == "1d6+2"


def test_absorption_and_estorbo():
    """seed 002: «Cota de mallas Absorción 4 estorbo 2»; Piel de Piedra +1; Mula de carga −1 estorbo."""
    gear = loadout(["Cota de mallas", "Espada larga"])
    assert (gear.absorption, gear.estorbo, gear.armour.name) == (4, 2, "Cota de mallas")
    gear = loadout(["Cota de mallas"], ["Piel de Piedra", "Mula de carga"])
    assert (gear.absorption, gear.estorbo) == (5, 1)
    assert loadout(["Armadura ligera"], ["Mula de carga"]).estorbo == 0


def test_artificial_natural_absorption():
    """seed 002 «Razas»: Artificial «Absorción natural 5»."""
    gear = loadout([], race=find_race("Artificial"))
    assert (gear.armour_absorption, gear.natural_absorption, gear.absorption) == (0, 5, 5)


def test_shield_defensa_and_cover():
    """seed 002: «Escudo Defensa +1, Cobertura +2»."""
    gear = loadout(["Escudo"])
    assert (gear.defensa_bonus, gear.cover) == (1, 2)


def test_light_armour_for_two_weapons():
    """seed 002 «Ataque con dos armas»: «con armadura ligera (O sin ella)»."""
    assert loadout([]).light_armour
    assert loadout(["Armadura ligera"]).light_armour
    assert not loadout(["Cota de mallas"]).light_armour


def test_requirements():
    """seed 002: «Arco largo … requiere Físico 8», «Mandoble … Físico 9», «Armadura placas … Físico 8»."""
    assert validate_equipment(["Arco largo", "Armadura placas"], STRONG) == []
    problems = validate_equipment(["Mandoble", "Armadura placas"], {**STRONG, "Físico": 7})
    assert keys(problems) == ["nucleo.problem.item_requirement", "nucleo.problem.item_requirement"]
    assert problems[0].params["required"] == 9


def test_artificial_cannot_wear_armour_and_one_armour_only():
    """seed 002 «Razas»: Artificial «no puede llevar armaduras»."""
    found = keys(validate_equipment(["Armadura ligera"], STRONG, find_race("Golem")))
    assert found == ["nucleo.problem.armour_race_forbidden"]
    assert keys(validate_equipment(["Armadura ligera", "Cota de mallas"], STRONG)) == [
        "nucleo.problem.armour_too_many"
    ]


def test_special_armour_module():
    """seed 002 «Módulo de reglas: Armaduras especiales» can be switched off."""
    assert validate_equipment(["Cota de Mithril"], STRONG) == []
    found = keys(validate_equipment(["Cota de Mithril"], STRONG, special_armour=False))
    assert found == ["nucleo.problem.module_disabled"]


def test_unlisted_gear_is_allowed():
    """seed 002 «Equipo»: «equipo de ejemplo» — other items carry no rules."""
    assert validate_equipment(["Pistola láser"], STRONG) == []
    assert loadout(["Pistola láser"]).absorption == 0


def test_ignoring_armour_skips_worn_armour_only():
    """seed 002 «Magia»: «Relámpago … 2d6 daño que ignora armadura» (natural absorption still counts)."""
    gear = loadout(["Cota de mallas"], ["Piel de Piedra"])
    assert (gear.absorption_against(), gear.absorption_against(ignores_armour=True)) == (5, 1)
