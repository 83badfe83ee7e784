"""Tablas 7, 8, 9, 10, 11, 15, 16, 18, 19 (seed 000): XP, hit dice and saves, every printed row.

The expected rows are re-transcribed here from the seed text (level, XP, hit dice, fixed hit
points, save), independently of ``data/swc/classes``, so a slip in either shows up.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.swc import hit_dice, level_for_xp, saving_throw, spell_slots, xp_for_level
from rules.swc.advancement import save_bonus, xp_bonus
from rules.swc.classes import CLASS_IDS, UnknownClass
from tests.rules.helpers import Cells

# level: (XP, dice, fixed hp, save) — one line per printed row
TABLES: dict[tuple[str, str], str] = {
    ("asesino", "Tabla 7"): """
        1 0 1 0 15 | 2 1500 2 0 14 | 3 3000 3 0 13 | 4 6000 4 0 12 | 5 12000 5 0 11
        6 24000 6 0 10 | 7 48000 7 0 9 | 8 96000 8 0 8 | 9 192000 9 0 7 | 10 275000 10 0 6
        11 400000 11 0 5 | 12 550000 12 0 5 | 13 700000 13 0 5 | 14 850000 13 1 5
        15 1000000 13 2 5 | 16 1150000 13 3 5 | 17 1300000 13 4 5 | 18 1450000 13 5 5
        19 1600000 13 6 5 | 20 1750000 13 7 5""",
    ("clerigo", "Tabla 8"): """
        1 0 1 0 15 | 2 1500 2 0 14 | 3 3000 3 0 13 | 4 6000 4 0 12 | 5 12000 5 0 11
        6 24000 6 0 10 | 7 48000 7 0 9 | 8 100000 8 0 8 | 9 170000 9 0 7 | 10 240000 9 1 6
        11 310000 9 2 5 | 12 380000 9 3 4 | 13 450000 9 4 4 | 14 520000 9 5 4
        15 590000 9 6 4 | 16 660000 9 7 4 | 17 730000 9 8 4 | 18 800000 9 9 4
        19 870000 9 10 4 | 20 940000 9 11 4""",
    ("druida", "Tabla 9"): """
        1 0 1 0 15 | 2 2000 2 0 14 | 3 4000 3 0 13 | 4 8000 4 0 12 | 5 13000 5 0 11
        6 20000 6 0 10 | 7 40000 7 0 9 | 8 60000 8 0 8 | 9 90000 9 0 7 | 10 130000 9 1 6
        11 200000 9 2 5 | 12 400000 9 3 4 | 13 800000 9 4 4 | 14 950000 9 5 4
        15 1100000 9 6 4 | 16 1250000 9 7 4 | 17 1400000 9 8 4 | 18 1550000 9 9 4
        19 1700000 9 10 4 | 20 1850000 9 11 4""",
    ("explorador", "Tabla 10"): """
        1 0 2 0 14 | 2 2500 3 0 13 | 3 5000 4 0 12 | 4 12000 5 0 11 | 5 25000 6 0 10
        6 50000 7 0 9 | 7 100000 8 0 8 | 8 175000 9 0 7 | 9 275000 10 0 6 | 10 550000 10 2 5
        11 825000 10 4 4 | 12 1100000 10 6 4 | 13 1375000 10 8 4 | 14 1600000 10 10 4
        15 1800000 10 12 4 | 16 2000000 10 14 4 | 17 2200000 10 16 4 | 18 2400000 10 18 4
        19 2600000 10 20 4 | 20 2800000 10 22 4""",
    ("guerrero", "Tabla 11"): """
        1 0 1 0 14 | 2 2000 2 0 13 | 3 4000 3 0 12 | 4 8000 4 0 11 | 5 16000 5 0 10
        6 32000 6 0 9 | 7 64000 7 0 8 | 8 128000 8 0 7 | 9 256000 9 0 6 | 10 350000 9 2 5
        11 450000 9 4 4 | 12 550000 9 6 4 | 13 650000 9 8 4 | 14 750000 9 10 4
        15 850000 9 12 4 | 16 950000 9 14 4 | 17 1050000 9 16 4 | 18 1150000 9 18 4
        19 1250000 9 20 4 | 20 1350000 9 22 4""",
    ("ladron", "Tabla 15"): """
        1 0 1 0 15 | 2 1250 2 0 14 | 3 2500 3 0 13 | 4 5000 4 0 12 | 5 10000 5 0 11
        6 20000 6 0 10 | 7 40000 7 0 9 | 8 60000 8 0 8 | 9 90000 9 0 7 | 10 120000 10 0 6
        11 240000 10 1 5 | 12 370000 10 2 5 | 13 500000 10 3 5 | 14 630000 10 4 5
        15 760000 10 5 5""",
    ("mago", "Tabla 16"): """
        1 0 1 0 15 | 2 2500 2 0 14 | 3 5000 3 0 13 | 4 10000 4 0 12 | 5 20000 5 0 11
        6 35000 6 0 10 | 7 50000 7 0 9 | 8 75000 8 0 8 | 9 100000 9 0 7 | 10 200000 10 0 6
        11 300000 11 0 5 | 12 400000 11 1 5 | 13 500000 11 2 5 | 14 600000 11 3 5
        15 700000 11 4 5 | 16 800000 11 5 5 | 17 900000 11 6 5 | 18 1000000 11 7 5
        19 1100000 11 8 5 | 20 1200000 11 9 5""",
    ("monje", "Tabla 18"): """
        1 0 1 0 15 | 2 2500 2 0 14 | 3 5000 3 0 13 | 4 10000 4 0 12 | 5 20000 5 0 11
        6 40000 6 0 10 | 7 80000 7 0 9 | 8 160000 8 0 8 | 9 320000 9 0 7 | 10 420000 10 0 6
        11 620000 11 0 5 | 12 820000 12 0 5 | 13 1020000 13 0 5 | 14 1320000 14 0 5
        15 1720000 15 0 5 | 16 2220000 16 0 5 | 17 2720000 16 1 5 | 18 3220000 16 2 5
        19 3720000 16 3 5 | 20 4220000 16 4 5""",
    ("paladin", "Tabla 19"): """
        1 0 1 0 12 | 2 2000 2 0 11 | 3 4000 3 0 10 | 4 8000 4 0 9 | 5 16000 5 0 8
        6 32000 6 0 7 | 7 64000 7 0 6 | 8 128000 8 0 5 | 9 256000 9 0 4 | 10 350000 9 2 3
        11 450000 9 4 2 | 12 550000 9 6 2 | 13 650000 9 8 2 | 14 750000 9 10 2
        15 850000 9 12 2 | 16 950000 9 14 2 | 17 1050000 9 16 2 | 18 1150000 9 18 2
        19 1250000 9 20 2 | 20 1350000 9 22 2""",
}


def _rows(text: str) -> Iterator[tuple[int, int, int, int, int]]:
    """(nivel, xp, dice, hp, save) of every printed row of one table."""
    for cell in text.replace("\n", "|").split("|"):
        if cell.strip():
            nivel, xp, dice, hp, save = (int(v) for v in cell.split())
            yield nivel, xp, dice, hp, save


@pytest.mark.parametrize(
    ("clase", "tabla", "text"),
    [
        pytest.param(clase, tabla, text, id=f"{tabla}-{clase}")
        for (clase, tabla), text in TABLES.items()
    ],
)
def test_advancement_row(clase, tabla, text):
    """Every printed row of the class's advancement table; a failure lists every wrong cell."""
    cells = Cells()
    for nivel, xp, dice, hp, save in _rows(text):
        where = f"{tabla} {clase} nivel {nivel}"
        cells.check(f"{where} XP", xp_for_level(clase, nivel), xp)
        cells.check(f"{where} level_for_xp({xp})", level_for_xp(clase, xp), nivel)
        if nivel > 1:
            cells.check(f"{where} level_for_xp({xp - 1})", level_for_xp(clase, xp - 1), nivel - 1)
        cells.check(f"{where} (dados, pg fijos)", hit_dice(clase, nivel), (dice, hp))
        cells.check(f"{where} salvación", saving_throw(clase, nivel), save)
    cells.assert_all_match()


def test_every_class_has_a_table_here():
    assert sorted(c for c, _ in TABLES) == sorted(CLASS_IDS)


# "21+" rows (Ladrón: "16+"): XP per extra level, hp per extra level, the save
BEYOND = [
    ("asesino", "Tabla 7", 20, 150_000, 1, 5),
    ("clerigo", "Tabla 8", 20, 70_000, 1, 4),
    ("druida", "Tabla 9", 20, 150_000, 1, 4),
    ("explorador", "Tabla 10", 20, 200_000, 2, 4),
    ("guerrero", "Tabla 11", 20, 100_000, 2, 4),
    ("ladron", "Tabla 15", 15, 130_000, 1, 5),
    ("mago", "Tabla 16", 20, 100_000, 1, 5),
    ("monje", "Tabla 18", 20, 500_000, 1, 5),
    ("paladin", "Tabla 19", 20, 100_000, 2, 2),
]


@pytest.mark.parametrize(("clase", "tabla", "last", "per_level", "hp", "save"), BEYOND)
def test_beyond_the_printed_table(clase, tabla, last, per_level, hp, save):
    """The "21+ / +N por nivel / +x pg/nivel" row of each table, 1, 2 and 7 levels past the
    last printed one; a failure lists every wrong level and column."""
    cells = Cells()
    dice, fixed = hit_dice(clase, last)
    for extra in (1, 2, 7):
        nivel = last + extra
        where = f"{tabla} {clase} nivel {nivel}"
        xp = xp_for_level(clase, nivel)
        cells.check(f"{where} XP", xp, xp_for_level(clase, last) + extra * per_level)
        cells.check(f"{where} level_for_xp({xp})", level_for_xp(clase, xp), nivel)
        cells.check(f"{where} level_for_xp({xp - 1})", level_for_xp(clase, xp - 1), nivel - 1)
        cells.check(
            f"{where} (dados, pg fijos)", hit_dice(clase, nivel), (dice, fixed + extra * hp)
        )
        cells.check(f"{where} salvación", saving_throw(clase, nivel), save)
    cells.assert_all_match()


def test_druid_save_at_20_is_not_the_printed_plus_15():
    """Tabla 9 prints "+15" at 20 and 21+; the column is 4 from level 12 on (rules-decisions)."""
    assert saving_throw("druida", 20) == 4
    assert saving_throw("druida", 25) == 4


@pytest.mark.parametrize("clase", CLASS_IDS)
def test_properties_over_40_levels(clase):
    """Saves never get worse, XP thresholds strictly increase, hit points never shrink."""
    for nivel in range(2, 41):
        assert saving_throw(clase, nivel) <= saving_throw(clase, nivel - 1)
        assert xp_for_level(clase, nivel) > xp_for_level(clase, nivel - 1)
        assert hit_dice(clase, nivel) >= hit_dice(clase, nivel - 1)
        for lista, levels in spell_slots(clase, nivel - 1).items():
            for spell_level, slots in levels.items():
                assert spell_slots(clase, nivel)[lista][spell_level] >= slots


def test_level_for_xp_edges():
    assert level_for_xp("guerrero", 0) == 1
    with pytest.raises(ValueError):
        level_for_xp("guerrero", -1)
    with pytest.raises(ValueError):
        xp_for_level("guerrero", 0)
    with pytest.raises(UnknownClass):
        saving_throw("bardo", 1)


# Spell slots: level -> slots of spell levels 1..n, as printed
SPELLS = {
    ("clerigo", "Tabla 8"): [
        "",
        "1",
        "2",
        "2 1",
        "2 2",
        "2 2 1 1",
        "2 2 2 1 1",
        "2 2 2 2 2",
        "3 3 3 2 2",
        "3 3 3 3 3",
        "4 4 4 3 3",
        "4 4 4 4 4 1",
        "5 5 5 4 4 1",
        "5 5 5 5 5 2",
        "6 6 6 5 5 2",
        "6 6 6 6 6 3",
        "7 7 7 6 6 3 1",
        "7 7 7 7 7 4 1",
        "8 8 8 7 7 4 2",
        "8 8 8 8 8 5 2",
        "9 9 9 8 8 5 3",
    ],
    ("druida", "Tabla 9"): [
        "1",
        "2 1",
        "3 1",
        "3 1 1",
        "3 2 1",
        "3 2 2",
        "4 2 2 1",
        "4 3 2 1",
        "4 3 3 2",
        "5 3 3 2 1",
        "5 3 3 3 2 1",
        "5 4 4 4 3 2 1",
        "6 5 5 4 4 3 2",
        "7 5 5 4 4 3 2",
        "7 6 5 4 4 3 2",
        "7 6 6 4 4 3 2",
        "8 6 6 5 4 3 2",
        "8 7 6 5 5 3 2",
        "9 8 6 5 5 3 2",
        "9 8 7 5 5 3 2",
        "9 8 7 6 5 3 2",
    ],
    ("mago", "Tabla 16"): [
        "1",
        "2",
        "3 1",
        "3 2",
        "4 2 1",
        "4 2 2",
        "4 3 2 1",
        "4 3 3 2",
        "4 3 3 2 1",
        "4 4 3 2 2",
        "4 4 4 3 3",
        "4 4 4 4 4 1",
        "5 5 5 4 4 2",
        "5 5 5 4 4 3 1",
        "5 5 5 5 4 4 2",
        "5 5 5 5 5 5 2 1",
        "6 6 6 5 5 5 2 2",
        "6 6 6 6 6 5 2 2 1",
        "7 7 7 6 6 6 3 2 2",
        "7 7 7 7 7 7 3 3 2",
        "8 8 8 7 7 7 4 3 2",
    ],
}


def _slots(text: str) -> dict[int, int]:
    return {i + 1: int(v) for i, v in enumerate(text.split())}


@pytest.mark.parametrize(
    ("clase", "tabla", "rows"),
    [
        pytest.param(clase, tabla, rows, id=f"{tabla}-{clase}")
        for (clase, tabla), rows in SPELLS.items()
    ],
)
def test_spell_slots_rows(clase, tabla, rows):
    """Tablas 8, 9, 16: every row (the last one is "21+"); a failure lists every wrong row."""
    cells = Cells()
    for i, text in enumerate(rows):
        expected = _slots(text)
        got = spell_slots(clase, i + 1)
        cells.check(f"{tabla} {clase} nivel {i + 1}", got, {clase: expected} if expected else {})
    cells.assert_all_match()


def test_spell_slots_past_21_stay_at_the_21_row():
    """ "siguen ganando conjuros según el mismo patrón" names no pattern: the 21+ row is kept."""
    assert spell_slots("mago", 30) == spell_slots("mago", 21)


# Tabla 10: (Clérigo, Mago) slots per spell level 1..3, as "Cl 2 Mg 1 | Cl 1"
RANGER = {
    9: ("1", ""), 10: ("2 1", "1"), 11: ("2 2", "2 1"), 12: ("3 2 1", "2 2"),
    13: ("3 3 1", "3 2 1"), 14: ("4 3 1", "3 3 1"), 15: ("4 3 1", "4 3 1"),
    16: ("4 3 2", "4 3 1"), 17: ("4 4 2", "4 3 2"), 18: ("5 4 2", "4 4 2"),
    19: ("5 4 2", "5 4 2"), 20: ("5 4 3", "5 4 2"), 21: ("5 4 3", "5 4 3"),
}  # fmt: skip


def test_ranger_spell_split():
    """Tabla 10: the Explorador's clerical and magic-user slots from level 9 (none before), at
    every level 1-21; a failure lists every wrong level."""
    cells = Cells()
    for nivel in range(1, 22):
        cl, mg = RANGER.get(nivel, ("", ""))
        expected = {}
        if cl:
            expected["clerigo"] = _slots(cl)
        if mg:
            expected["mago"] = _slots(mg)
        cells.check(
            f"Tabla 10 explorador nivel {nivel}", spell_slots("explorador", nivel), expected
        )
    cells.assert_all_match()


@pytest.mark.parametrize("clase", ["asesino", "guerrero", "ladron", "monje", "paladin"])
def test_classes_without_spells(clase):
    assert all(spell_slots(clase, n) == {} for n in range(1, 25))


XP_BONUS = [
    ("guerrero", {"Fuerza": 13}, 5),
    ("guerrero", {"Fuerza": 12, "Carisma": 13}, 5),
    ("guerrero", {"Fuerza": 18, "Carisma": 13, "Sabiduría": 13}, 15),
    ("clerigo", {"Sabiduría": 13}, 10),  # prime and the Sabiduría bonus both apply
    ("clerigo", {"Sabiduría": 13, "Carisma": 13}, 15),
    ("druida", {"Sabiduría": 13, "Carisma": 12}, 5),  # both primes needed for +5
    ("druida", {"Sabiduría": 13, "Carisma": 13}, 15),
    ("asesino", {"Fuerza": 13, "Destreza": 13, "Inteligencia": 12}, 0),
    ("asesino", {"Fuerza": 13, "Destreza": 13, "Inteligencia": 13}, 5),
    ("mago", {"Inteligencia": 12}, 0),
]


def test_xp_bonus():
    """ "Adquirir experiencia": +5 % prime, +5 % Carisma 13+, +5 % Sabiduría 13+, at most 15 %;
    a failure lists every wrong class and attributes."""
    cells = Cells()
    for clase, atributos, expected in XP_BONUS:
        cells.check(f"{clase} {atributos}", xp_bonus(clase, atributos), expected)
    cells.assert_all_match()


CLASS_SAVE_BONUSES = [
    ("clerigo", {"veneno"}, 2),
    ("clerigo", {"paralisis"}, 2),
    ("clerigo", {"conjuro"}, 0),
    ("druida", {"fuego"}, 2),
    ("druida", {"varita", "fuego"}, 2),
    ("ladron", {"trampa"}, 2),
    ("ladron", {"varita"}, 2),
    ("mago", {"conjuro"}, 2),
    ("mago", {"varita"}, 2),
    ("monje", {"veneno"}, 2),
    ("monje", {"paralisis"}, 2),
    ("guerrero", {"conjuro", "veneno"}, 0),
    ("paladin", {"veneno"}, 0),
    ("explorador", {"fuego"}, 0),
    ("asesino", {"veneno"}, 0),
]


def test_class_save_bonuses():
    """The "Bono a las Tiradas de Salvación" paragraph of each class; a failure lists every
    wrong class and threat."""
    cells = Cells()
    for clase, amenazas, expected in CLASS_SAVE_BONUSES:
        cells.check(f"{clase} {sorted(amenazas)}", save_bonus(clase, amenazas), expected)
    cells.assert_all_match()
