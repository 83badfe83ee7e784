"""Races of seed 000 ("Elige una raza"): combinations, level limits, senses, bonuses."""

from __future__ import annotations

import pytest

from rules.swc.races import (
    RACE_IDS,
    UnknownRace,
    allowed_combinations,
    combination_allowed,
    get_race,
    level_limit,
    race_save_bonus,
)
from tests.rules.helpers import Cells


@pytest.mark.parametrize(
    ("raza", "combos"),
    [
        ("enano", {("guerrero",), ("guerrero", "ladron")}),
        ("elfo", {("guerrero", "mago"), ("ladron",), ("guerrero", "mago", "ladron")}),
        (
            "semielfo",
            {("ladron",), ("clerigo",), ("guerrero", "mago"), ("guerrero", "mago", "clerigo")},
        ),
        ("mediano", {("guerrero",), ("ladron",)}),
    ],
)
def test_allowed_combinations(raza, combos):
    """Each race section's list of classes and multiclass combinations."""
    assert set(allowed_combinations(raza)) == combos


def test_humans_take_any_single_class_and_never_multiclass():
    """ "Los Humanos no pueden ser personajes multiclase"."""
    assert all(len(c) == 1 for c in allowed_combinations("humano"))
    assert len(allowed_combinations("humano")) == 9
    assert not combination_allowed("humano", ["guerrero", "mago"])


def test_combination_order_does_not_matter():
    assert combination_allowed("elfo", ["mago", "guerrero"])
    assert not combination_allowed("enano", ["ladron"])  # dwarves: Guerrero or Guerrero/Ladrón
    assert not combination_allowed(
        "semielfo", ["guerrero"]
    )  # "no estando permitidas Guerrero y Mago"


def test_dwarf_fighter_cleric_is_a_setting():
    """ "puede que el Árbitro permita a los jugadores elegir esta combinación" (up to Clérigo 7)."""
    assert not combination_allowed("enano", ["guerrero", "clerigo"])
    assert combination_allowed("enano", ["guerrero", "clerigo"], enano_guerrero_clerigo=True)
    assert level_limit("enano", "clerigo", {}, multiclase=True, enano_guerrero_clerigo=True) == 7


LEVEL_LIMITS = [
    ("enano", "guerrero", False, {"Fuerza": 16}, 6),
    ("enano", "guerrero", False, {"Fuerza": 17}, 7),
    ("enano", "guerrero", False, {"Fuerza": 18}, 8),
    ("enano", "guerrero", True, {"Fuerza": 18}, 6),  # multiclass: 6 whatever the Fuerza
    ("enano", "ladron", True, {}, None),
    ("elfo", "guerrero", True, {"Fuerza": 16}, 4),
    ("elfo", "guerrero", True, {"Fuerza": 17}, 5),
    ("elfo", "guerrero", True, {"Fuerza": 18}, 6),
    ("elfo", "mago", True, {"Inteligencia": 17}, 8),
    ("elfo", "mago", True, {"Inteligencia": 18}, 9),
    ("elfo", "ladron", False, {}, None),
    ("semielfo", "guerrero", True, {"Fuerza": 12}, 6),
    ("semielfo", "guerrero", True, {"Fuerza": 17}, 7),
    ("semielfo", "guerrero", True, {"Fuerza": 18}, 8),
    ("semielfo", "mago", True, {"Inteligencia": 12}, 6),
    ("semielfo", "mago", True, {"Inteligencia": 17}, 7),
    ("semielfo", "mago", True, {"Inteligencia": 18}, 8),
    ("semielfo", "clerigo", False, {"Sabiduría": 18}, 4),
    ("semielfo", "clerigo", True, {}, 4),
    ("semielfo", "ladron", False, {}, None),
    ("mediano", "guerrero", False, {"Fuerza": 18}, 4),
    ("mediano", "ladron", False, {}, None),
    ("humano", "guerrero", False, {}, None),
]


def test_level_limits():
    """Level limits and their attribute-based extensions, race by race; a failure lists every
    wrong race, class and attributes."""
    cells = Cells()
    for raza, clase, multi, atributos, limit in LEVEL_LIMITS:
        got = level_limit(raza, clase, atributos, multiclase=multi)
        cells.check(f"{raza} {clase} multiclase={multi} {atributos}", got, limit)
    cells.assert_all_match()


@pytest.mark.parametrize(
    ("raza", "infravision", "puertas", "sin_buscar", "proyectiles"),
    [
        ("humano", 0, 2, 0, 0),
        ("enano", 60, 2, 0, 0),
        ("elfo", 60, 4, 1, 0),
        ("semielfo", 60, 4, 0, 0),
        ("mediano", 0, 2, 0, 1),
    ],
)
def test_senses_and_missiles(raza, infravision, puertas, sin_buscar, proyectiles):
    """Infravision 60 ft, secret doors 4 in 6 (elves and half-elves; "el resto 2 entre 6")."""
    race = get_race(raza)
    assert race.infravision_pies == infravision
    assert (race.puertas_secretas, race.puertas_secretas_sin_buscar) == (puertas, sin_buscar)
    assert race.bono_proyectiles == proyectiles


@pytest.mark.parametrize(
    ("raza", "amenazas", "bonus"),
    [
        ("enano", {"conjuro"}, 4),
        ("enano", {"varita"}, 4),
        ("enano", {"veneno"}, 0),
        ("mediano", {"magia"}, 4),
        ("elfo", {"conjuro"}, 0),
        ("humano", {"conjuro"}, 0),
    ],
)
def test_race_save_bonuses(raza, amenazas, bonus):
    """Enanos and Medianos: +4 against magic."""
    assert race_save_bonus(raza, amenazas) == bonus


def test_elf_spell_level_cap():
    """ "no pueden lanzar conjuros de nivel superior al 5º"."""
    assert get_race("elfo").max_nivel_conjuro["mago"] == 5


def test_unknown_race():
    assert RACE_IDS == ("humano", "enano", "elfo", "semielfo", "mediano")
    with pytest.raises(UnknownRace):
        get_race("orco")
