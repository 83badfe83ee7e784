"""Tablas 6, 13, 14 and 17 (seed 000): thief skills of Ladrón, Asesino and Monje."""

from __future__ import annotations

import pytest

from rules.swc import thief_skills
from rules.swc.thief import SKILLS, is_percent, racial_bonus
from tests.rules.helpers import Cells

# climb, delicate tasks & traps, hear (x in 6), hide, move silently, open locks
TABLA_13 = """
85 15 3 10 20 10 | 86 20 3 15 25 15 | 87 25 4 20 30 20 | 88 30 4 25 35 25 | 89 35 4 30 40 30
90 40 4 35 45 35 | 91 45 5 40 50 40 | 92 50 5 55 60 55 | 93 60 5 65 70 65 | 94 70 5 75 80 75
95 80 6 85 90 85 | 96 90 6 95 100 95 | 97 100 6 100 100 100 | 98 100 6 100 100 100
99 100 6 100 100 100 | 99 100 6 100 100 100
"""
# Tabla 6 starts at level 3; the last row is "13+"
TABLA_6 = """
85 15 3 10 20 10 | 86 20 3 15 25 15 | 87 25 4 20 30 20 | 88 30 4 25 35 25 | 89 35 4 30 40 30
90 40 5 35 45 35 | 91 45 5 40 50 40 | 92 50 5 55 60 55 | 93 60 5 65 70 65 | 94 70 5 75 80 75
95 80 6 85 90 85
"""


def _parse(text: str) -> list[dict[str, int]]:
    cells = [c for c in text.replace("\n", "|").split("|") if c.strip()]
    return [dict(zip(SKILLS, (int(v) for v in c.split()), strict=True)) for c in cells]


LADRON = _parse(TABLA_13)
ASESINO = _parse(TABLA_6)


def test_tabla_13_ladron():
    """Tabla 13, levels 1–15 and "16+"; a failure lists every wrong level."""
    cells = Cells()
    for nivel in range(1, 17):
        cells.check(
            f"Tabla 13 ladron nivel {nivel}", thief_skills("ladron", nivel), LADRON[nivel - 1]
        )
    cells.assert_all_match()


def test_tabla_13_beyond_16():
    assert thief_skills("ladron", 30) == LADRON[-1]


def test_tabla_17_monje():
    """Tabla 17 is Tabla 13 up to "15+" (levels 1-15, and 20); lists every wrong level."""
    cells = Cells()
    for nivel in range(1, 16):
        cells.check(
            f"Tabla 17 monje nivel {nivel}", thief_skills("monje", nivel), LADRON[nivel - 1]
        )
    cells.check("Tabla 17 monje nivel 20", thief_skills("monje", 20), LADRON[14])
    cells.assert_all_match()


def test_asesino_as_ladron_two_levels_lower():
    """ "los valores para un Asesino son iguales a los de un Ladrón dos niveles más bajo", at
    every level 1-24; a failure lists every wrong level."""
    cells = Cells()
    for nivel in range(1, 25):
        expected = {} if nivel <= 2 else thief_skills("ladron", nivel - 2)
        cells.check(f"asesino nivel {nivel}", thief_skills("asesino", nivel), expected)
    cells.assert_all_match()


def test_tabla_6_as_printed():
    """Tabla 6 (setting ``asesino_tabla_6``): levels 3–12 and "13+" (checked to 15); a failure
    lists every wrong level."""
    cells = Cells()
    for nivel in range(3, 16):
        got = thief_skills("asesino", nivel, tabla_asesino=True)
        cells.check(f"Tabla 6 asesino nivel {nivel}", got, ASESINO[min(nivel, 13) - 3])
    cells.assert_all_match()


def test_tabla_6_differs_from_the_rule_only_where_documented():
    """Level 8 hear noise (5 printed, 4 by the rule) and the 13+ cap (rules-decisions)."""
    for nivel in range(3, 14):
        printed = thief_skills("asesino", nivel, tabla_asesino=True)
        rule = thief_skills("asesino", nivel)
        diff = {k for k in SKILLS if printed[k] != rule[k]}
        assert diff == ({"escuchar_ruidos"} if nivel == 8 else set())
    assert thief_skills("asesino", 14, tabla_asesino=True) != thief_skills("asesino", 14)


TABLA_14 = {
    "enano": {
        "tareas_delicadas": 10,
        "ocultarse_en_las_sombras": 5,
        "moverse_en_silencio": 5,
        "forzar_cerraduras": 5,
    },
    "elfo": {"ocultarse_en_las_sombras": 15, "moverse_en_silencio": 10},
    "semielfo": {},
    "mediano": {
        "tareas_delicadas": 5,
        "ocultarse_en_las_sombras": 10,
        "moverse_en_silencio": 10,
        "forzar_cerraduras": 10,
    },
    "humano": {},
}


@pytest.mark.parametrize("raza", TABLA_14)
def test_tabla_14_racial_bonuses(raza):
    """Tabla 14: Bonos a las Habilidades de Ladrón para no Humanos."""
    expected = {s: TABLA_14[raza].get(s, 0) for s in SKILLS}
    assert racial_bonus(raza) == expected
    assert thief_skills("ladron", 1, raza) == {s: LADRON[0][s] + expected[s] for s in SKILLS}


def test_bonuses_never_pass_100_percent():
    assert thief_skills("ladron", 13, "elfo")["ocultarse_en_las_sombras"] == 100
    assert thief_skills("ladron", 12, "mediano")["ocultarse_en_las_sombras"] == 100


def test_classes_without_thief_skills():
    assert thief_skills("guerrero", 5) == {}
    assert thief_skills("mago", 12) == {}


def test_hear_noise_is_x_in_6():
    assert not is_percent("escuchar_ruidos")
    assert is_percent("forzar_cerraduras")
