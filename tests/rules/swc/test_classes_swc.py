"""Class descriptions of seed 000: restrictions, abilities by level, Tabla 12 and Tabla 18."""

from __future__ import annotations

import dataclasses

import pytest

from rules.swc.classes import (
    CLASS_IDS,
    _check_progressions,
    abilities,
    advancement,
    backstab,
    get_class,
    monk_progress,
    parry_penalty,
)
from rules.swc.data import DataError
from tests.rules.helpers import Cells


@pytest.mark.parametrize(
    ("clase", "dado", "max_dg", "pg", "primarios"),
    [
        ("asesino", 6, 13, 1, ("Destreza", "Fuerza", "Inteligencia")),
        ("clerigo", 6, 9, 1, ("Sabiduría",)),
        ("druida", 6, 9, 1, ("Sabiduría", "Carisma")),
        ("explorador", 8, 10, 2, ("Fuerza",)),
        ("guerrero", 8, 9, 2, ("Fuerza",)),
        ("ladron", 4, 10, 1, ("Destreza",)),
        ("mago", 4, 11, 1, ("Inteligencia",)),
        ("monje", 4, 16, 1, ("Sabiduría",)),
        ("paladin", 8, 9, 2, ("Fuerza",)),
    ],
)
def test_class_header(clase, dado, max_dg, pg, primarios):
    """ "Atributo Primario" and "Dado de Golpe: 1dX/nivel (gana N pg/nivel después del nivel M)"."""
    cls = get_class(clase)
    assert (cls.dado_golpe, cls.max_dados_golpe, cls.pg_por_nivel_tras_max) == (dado, max_dg, pg)
    assert cls.atributos_primarios == primarios


@pytest.mark.parametrize(
    ("clase", "razas", "alineamientos"),
    [
        ("asesino", {"humano"}, {"neutral", "caotico"}),
        ("clerigo", {"humano", "semielfo"}, {"legal", "caotico"}),
        ("druida", {"humano"}, {"neutral"}),
        ("explorador", {"humano"}, {"legal"}),
        (
            "guerrero",
            {"humano", "enano", "elfo", "semielfo", "mediano"},
            {"legal", "neutral", "caotico"},
        ),
        ("ladron", {"humano", "enano", "elfo", "semielfo", "mediano"}, {"neutral", "caotico"}),
        ("mago", {"humano", "elfo", "semielfo"}, {"legal", "neutral", "caotico"}),
        ("monje", {"humano"}, {"legal", "neutral", "caotico"}),
        ("paladin", {"humano"}, {"legal"}),
    ],
)
def test_races_and_alignments(clase, razas, alineamientos):
    """Each class's "Raza:" line and "Alineamiento" note (humans only for the five of "Humanos")."""
    cls = get_class(clase)
    assert set(cls.razas) == razas
    assert set(cls.alineamientos) == alineamientos


@pytest.mark.parametrize(
    ("clase", "armaduras", "escudo"),
    [
        ("asesino", ("cuero",), "cualquiera"),
        ("clerigo", "todas", "cualquiera"),
        ("druida", ("cuero",), "madera"),
        ("guerrero", "todas", "cualquiera"),
        ("ladron", ("cuero",), "ninguno"),
        ("mago", (), "ninguno"),
        ("monje", (), "ninguno"),
    ],
)
def test_armour(clase, armaduras, escudo):
    """ "Armadura/Escudo permitidos" of each class header."""
    cls = get_class(clase)
    assert (cls.armaduras, cls.escudo) == (armaduras, escudo)


def test_weapons():
    """ "Armas Permitidas"."""
    assert get_class("mago").armas == ("daga", "bastón", "dardo")
    assert get_class("druida").armas == ("daga", "lanza", "honda", "frasco de aceite", "hoz")
    assert get_class("clerigo").armas == "contundentes"
    assert get_class("guerrero").armas == "todas"


@pytest.mark.parametrize(
    ("clase", "minimos"),
    [
        ("asesino", {"Fuerza": 12, "Destreza": 12, "Inteligencia": 12}),
        ("druida", {"Sabiduría": 12, "Carisma": 14}),
        ("monje", {"Fuerza": 12, "Destreza": 15, "Sabiduría": 15}),
        ("paladin", {"Carisma": 17}),
        ("explorador", {"Constitución": 15, "Inteligencia": 12, "Sabiduría": 12}),
        ("guerrero", {}),
        ("mago", {}),
    ],
)
def test_original_minimums(clase, minimos):
    """ "Por qué debería jugar con un Guerrero o Clérigo": the original game's minimums."""
    assert dict(get_class(clase).minimos_originales) == minimos


@pytest.mark.parametrize(
    ("destreza", "penalty"), [(3, 0), (13, 0), (14, -1), (15, -2), (16, -3), (17, -4), (18, -5)]
)
def test_parry_table_12(destreza, penalty):
    """Tabla 12: Habilidad de Parada de los Guerreros (Destreza 14+)."""
    assert parry_penalty(destreza) == penalty


# Tabla 18: level, AC [asc], unarmed damage, move, attacks per round
MONK = """
1 9 10 1d4 12 1 | 2 8 11 1d6 13 1 | 3 7 12 1d6 14 1 | 4 6 13 1d8 15 1 | 5 5 14 1d10 16 1
6 4 15 1d12 17 2 | 7 3 16 2d8 18 2 | 8 2 17 2d8+1 19 2 | 9 1 18 2d8+2 20 2 | 10 1 18 2d8+4 21 2
11 0 19 3d8+1 22 3 | 12 0 19 3d8+2 23 3 | 13 -1 20 3d8+4 24 3 | 14 -1 20 4d8+1 25 3
15 -2 21 4d8+2 26 3 | 16 -3 22 4d8+4 27 4 | 17 -3 22 4d8+5 28 4 | 18 -3 22 4d8+6 29 4
19 -3 22 4d8+7 30 4 | 20 -3 22 4d8+8 31 4 | 21 -3 22 4d8+9 32 5 | 23 -3 22 4d8+11 32 5
"""


def test_monk_table_18():
    """Tabla 18 columns; 21+ is "+1/nivel" of damage, move 32, 5 attacks (rules-decisions);
    a failure lists every wrong level and column."""
    cells = Cells()
    for row in [r.split() for r in MONK.replace("\n", "|").split("|") if r.strip()]:
        nivel, ca, asc, dano, mov, atq = row
        p = monk_progress(int(nivel))
        where = f"Tabla 18 nivel {nivel}"
        cells.check(
            f"{where} (CA, [CA], daño desarmado)",
            (p.ca, p.ca_ascendente, p.dano_desarmado),
            (int(ca), int(asc), dano),
        )
        cells.check(
            f"{where} (movimiento, ataques)",
            (p.movimiento, p.ataques_desarmado),
            (int(mov), int(atq)),
        )
        cells.check(f"{where} bono de daño con armas", p.bono_dano_armas, int(nivel) // 2)
    cells.assert_all_match()


def test_monk_weapon_damage_bonus_text():
    """ "+1 at 2, +2 at 4, +3 at 6, etc"."""
    assert [monk_progress(n).bono_dano_armas for n in (1, 2, 3, 4, 6, 10, 12)] == [
        0,
        1,
        1,
        2,
        3,
        5,
        6,
    ]


def test_druid_positions_table_9():
    """Tabla 9's "Posición en la Orden" column."""
    assert advancement("druida", 1).extra["posicion"] == "Ninguna"
    assert advancement("druida", 11).extra["posicion"] == "Druida"
    assert advancement("druida", 12).extra["posicion"] == "Archidruida / Druida renegado"
    assert advancement("druida", 25).extra["posicion"] == "Gran Druida / Druida renegado"


def test_abilities_by_level():
    assert "Establecer una Fortaleza" not in abilities("guerrero", 8)
    assert "Establecer una Fortaleza" in abilities("guerrero", 9)
    assert "Crear un Gremio" in abilities("asesino", 14)
    assert "Cambio de forma" in abilities("druida", 5)
    assert "Toque Harmonioso" not in abilities("monje", 12)
    assert "Maestro Explorador" in abilities("explorador", 8)


@pytest.mark.parametrize("clase", CLASS_IDS)
def test_rows_cite_their_table(clase):
    """Every data row names the seed table it transcribes."""
    cls = get_class(clase)
    assert cls.tabla.startswith("Tabla ")
    assert all(r.tabla == cls.tabla for r in cls.avance)
    assert cls.mas_alla["tabla"] == cls.tabla


def test_loader_rejects_a_table_whose_save_worsens():
    cls = get_class("guerrero")
    rows = list(cls.avance)
    rows[5] = dataclasses.replace(rows[5], salvacion=rows[4].salvacion + 1)
    with pytest.raises(DataError):
        _check_progressions(dataclasses.replace(cls, avance=tuple(rows)))


def test_loader_rejects_xp_that_does_not_increase():
    cls = get_class("mago")
    rows = list(cls.avance)
    rows[3] = dataclasses.replace(rows[3], px=rows[2].px)
    with pytest.raises(DataError):
        _check_progressions(dataclasses.replace(cls, avance=tuple(rows)))


@pytest.mark.parametrize(
    ("clase", "nivel", "expected"),
    [
        ("ladron", 1, (4, 2)),
        ("ladron", 4, (4, 2)),
        ("ladron", 5, (4, 3)),
        ("ladron", 8, (4, 3)),
        ("ladron", 9, (4, 4)),
        ("ladron", 20, (4, 4)),
        ("asesino", 5, (4, 3)),
        ("asesino", 9, (4, 4)),
        ("guerrero", 9, None),
    ],
)
def test_backstab(clase, nivel, expected):
    """Apuñalar: +4, x2; x3 at levels 5-8, x4 from 9; the Asesino's "de la misma forma"."""
    assert backstab(clase, nivel) == expected
