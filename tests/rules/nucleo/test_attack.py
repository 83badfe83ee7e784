"""Attacks between two sheets (seed 002, «Ataque cuerpo a cuerpo», «Ataque con dos armas»,
«Ataque a Distancia», «Armas a distancia en cuerpo a cuerpo», Ventajas)."""

from __future__ import annotations

import copy

import pytest

from rules.nucleo.attack import melee, ranged
from rules.systems.base import RulesError

from .conftest import ARDELIA, keys


def _sheet(**equipo):
    sheet = copy.deepcopy(ARDELIA)
    sheet["equipo"].update(equipo)
    return sheet


def _brute():
    """Físico 8, Armas cuerpo a cuerpo 2, Golpe Duro, Cota de mallas and shield."""
    sheet = _sheet(arma_principal="Espada larga", armadura="Cota de mallas", escudo=True)
    sheet["atributos"] |= {"Físico": 8, "Inteligencia": 7}
    sheet["habilidades"] = dict(sheet["habilidades"], **{"Armas cuerpo a cuerpo": 2})
    sheet["ventaja"] = "Golpe Duro"
    return sheet


def test_melee_against_defensa_with_golpe_duro_and_absorption(scripted):
    """seed 002: Físico + Cuerpo a Cuerpo + 1o3d10 vs Defensa; Golpe Duro +1 daño CC; Absorción."""
    # brute 8 + 2 + middle 7 = 17 vs Ardelia's Defensa 17: hit; Espada larga 2d6: 3 + 4, +1 Golpe Duro
    report = melee(_brute(), ARDELIA, {}, scripted([7, 2, 9, 3, 4]))
    assert report.weapon == "Espada larga" and report.attack.hit
    assert (report.attack.target, report.attack.damage, report.attack.wounds) == (17, 8, 8)


def test_melee_against_a_shield_and_armour(scripted):
    """seed 002: «Escudo Defensa +1»; «Cota de mallas Absorción 4»."""
    # Ardelia unarmed: Físico 6, no melee skill (lowest die): 6 + 9 + 4 (por la espalda) = 19 vs 18
    report = melee(
        ARDELIA, _brute(), {}, scripted([9, 10, 10, 5]), circumstances=frozenset({"por_la_espalda"})
    )
    assert report.weapon == "Sin armas" and report.attack.target == 12 + 5 + 1
    assert report.attack.hit and (report.attack.damage, report.attack.wounds) == (5, 1)
    assert report.notes == ("nucleo.note.habilidad_desconocida",)


def test_two_light_weapons(scripted):
    """seed 002 «Ataque con dos armas»: +3 al ataque, daño del arma mayor."""
    dual = _sheet(arma_principal="Daga", arma_secundaria="Espada corta")
    report = melee(
        dual, ARDELIA, {}, scripted([9, 10, 10, 2]), circumstances=frozenset({"dos_armas"})
    )
    assert report.weapon == "Daga + Espada corta"
    assert report.attack.check.total == 6 + 3 + 9 and report.attack.damage == 2 + 3


def test_ranged_weapon_in_melee_is_improvised(scripted):
    """seed 002 «Armas a distancia en cuerpo a cuerpo»: «daño de arma improvisada 1d6+1»."""
    archer = _sheet(arma_principal="Arco corto")
    report = melee(archer, ARDELIA, {}, scripted([10, 10, 10, 2, 3, 4, 3]))  # lowest: 10 + 2
    assert report.weapon == "Arma improvisada" and "nucleo.note.arma_improvisada" in report.notes
    assert (report.attack.damage_expression, report.attack.damage) == ("1d6!+1", 4)


def test_ranged_attack_by_band_modifiers_and_shield_cover(scripted):
    """seed 002 «Ataque a Distancia»: media 20 + cobertura ligera 2 + escudo 2 = 24."""
    archer = _sheet(arma_principal="Arco corto")
    report = ranged(
        archer,
        _brute(),
        "media",
        {},
        scripted([9, 3, 10, 6, 2]),
        circumstances=frozenset({"cobertura_ligera"}),
    )
    assert report.attack.target == 24 and report.attack.check.total == 7 + 4 + 9
    assert not report.attack.hit
    report = ranged(archer, ARDELIA, "corta", {}, scripted([9, 3, 10, 6, 2]))
    assert report.attack.target == 15 and report.attack.extra_dice == 0
    assert (report.attack.damage, report.attack.wounds) == (6 + 2 + 3, 11)


def test_ranged_extra_dice_setting_and_certero(scripted):
    """seed 002: Certero «+1 al daño en armas a distancia»; extra dice only with dados_extra_distancia."""
    elf = _sheet(arma_principal="Honda")
    elf |= {"raza": "Elfo del bosque", "ventaja_racial": "Certero"}
    report = ranged(
        elf,
        ARDELIA,
        "bocajarro",
        {"dados_extra_distancia": True},
        scripted([9, 3, 10, 2, 4]),
        circumstances=frozenset({"municion:proyectiles de plomo"}),
    )
    assert report.attack.extra_dice == 1 and report.attack.damage_expression == "1d6!+2+1d6!+1"
    assert report.attack.damage == 2 + 2 + 4 + 1


def test_ranged_refusals(scripted):
    """seed 002 «Ataque a Distancia»: a ranged attack needs a weapon with ranges and a printed band."""
    with pytest.raises(RulesError) as info:
        ranged(ARDELIA, ARDELIA, "corta", {}, scripted([]))
    assert keys(info.value.problems) == ["nucleo.problem.no_ranged_weapon"]
    with pytest.raises(RulesError) as info:
        ranged(_sheet(arma_principal="Daga"), ARDELIA, "lejos", {}, scripted([]))
    assert keys(info.value.problems) == ["nucleo.problem.range_band"]
