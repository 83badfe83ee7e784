"""Tabla 28 (seed 000): the alternative saving throws, every band of every column, as an option."""

from __future__ import annotations

import random

import pytest

from rules.swc.data import load
from rules.swc.saving_throws_alt import (
    SaveCategory,
    alt_saving_throw,
    drops_class_bonuses,
    roll_alt_saving_throw,
    save_group,
)
from tests.rules.helpers import Cells

# Tabla 28 as printed, column by column, "Nivel N: valor" for each category in the
# order Venenos y Rayos de Muerte, Varitas, Petrificación, Aliento de Dragón, Conjuros y
# Bastones.  PRINTED_FIRST is the column the seed heads "Clérigos": its bands (1, 4, 7,
# 10, 13) are the Guerreros' (header swap, docs/rules-decisions.md).
PRINTED_FIRST = {
    1: [12, 13, 14, 15, 16],
    4: [10, 11, 12, 13, 14],
    7: [8, 9, 10, 10, 12],
    10: [6, 7, 8, 8, 10],
    13: [4, 5, 5, 5, 8],
}
PRINTED_SECOND = {
    1: [11, 12, 14, 16, 15],
    5: [9, 10, 12, 14, 12],
    9: [6, 7, 9, 11, 9],
    13: [3, 5, 7, 8, 7],
}
PRINTED_THIRD = {
    1: [13, 14, 13, 16, 15],
    6: [11, 12, 11, 14, 12],
    11: [8, 9, 8, 11, 8],
    16: [5, 6, 5, 8, 3],
}

COLUMNS = [
    ("guerrero", ("guerrero", "explorador"), PRINTED_FIRST),
    ("clerigo", ("clerigo", "druida", "monje"), PRINTED_SECOND),
    ("mago", ("mago", "ladron", "asesino"), PRINTED_THIRD),
]


@pytest.mark.parametrize(
    ("group", "clase", "column"),
    [
        pytest.param(group, clase, column, id=f"Tabla28-{clase}")
        for group, classes, column in COLUMNS
        for clase in classes
    ],
)
def test_tabla_28_every_level_and_category(group, clase, column):
    """Tabla 28: every level 1-22 and every category of the class's column (group, base, no
    class bonus, target); a failure lists every wrong level and category."""
    cells = Cells()
    cells.check(f"Tabla 28 {clase} save_group", save_group(clase), group)
    starts = sorted(column)
    for nivel in range(1, 23):
        start = max(s for s in starts if s <= nivel)
        for category, expected in zip(SaveCategory, column[start], strict=True):
            save = alt_saving_throw(clase, nivel, category)
            cells.check(
                f"Tabla 28 {clase} nivel {nivel} {category.value} (group, base, bonus, target)",
                (save.group, save.base, save.bonus, save.target),
                (group, expected, 0, expected),
            )
    cells.assert_all_match()


def test_tabla_28_paladin_is_two_better_than_the_guerrero():
    """Tabla 28 paragraph (and the Paladín's "Favor Divino"): +2 to every save, at every level
    1-20 and category; a failure lists every level and category where it is not."""
    cells = Cells()
    for nivel in range(1, 21):
        for category in SaveCategory:
            paladin, fighter = (
                alt_saving_throw("Paladín", nivel, category),
                alt_saving_throw("guerrero", nivel, category),
            )
            cells.check(
                f"Paladín nivel {nivel} {category.value} (base, bonus, target)",
                (paladin.base, paladin.bonus, paladin.target),
                (fighter.base, 2, fighter.target - 2),
            )
    cells.assert_all_match()


@pytest.mark.parametrize(
    ("clase", "fire", "setting", "bonus"),
    [
        ("druida", True, 2, 2),
        ("druida", True, 1, 1),
        ("druida", False, 2, 0),
        ("clerigo", True, 2, 0),
        ("mago", True, 2, 0),
    ],
)
def test_tabla_28_druid_keeps_the_fire_bonus(clase, fire, setting, bonus):
    save = alt_saving_throw(
        clase, 3, SaveCategory.BREATH, contra_fuego=fire, druid_fire_bonus=setting
    )
    assert save.bonus == bonus and save.target == 16 - bonus


def test_tabla_28_drops_the_magos_and_clerigos_bonuses():
    assert (
        drops_class_bonuses("Mago")
        and drops_class_bonuses("clérigo")
        and drops_class_bonuses("monje")
    )
    assert not drops_class_bonuses("ladron") and not drops_class_bonuses("druida")


def test_tabla_28_header_swap_is_recorded_in_the_data():
    groups = {g["clave"]: g for g in load("saving_throws_alt")["grupos"]}
    assert groups["guerrero"]["impreso_bajo"].startswith("Clérigos")
    assert groups["clerigo"]["impreso_bajo"].startswith("Guerreros")
    assert load("saving_throws_alt")["source"] == {
        "seed": "000_69fa394cbd22cdf4.txt",
        "tables": ["Tabla 28"],
    }


def test_tabla_28_roll_meets_or_beats():
    rng, mirror = random.Random(11), random.Random(11)
    for _ in range(100):
        result = roll_alt_saving_throw(rng, "paladin", 1, "conjuros")
        roll = mirror.randint(1, 20)
        assert result.roll == roll and result.success == (roll + 2 >= 16)


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("bardo", 1, "varitas"), ValueError),
        (("mago", 0, "varitas"), ValueError),
        (("mago", 1, "rayos"), ValueError),
    ],
)
def test_tabla_28_refuses_bad_input(args, error):
    with pytest.raises(error):
        alt_saving_throw(*args)
    with pytest.raises(ValueError):
        alt_saving_throw("druida", 1, "aliento", contra_fuego=True, druid_fire_bonus=3)


def test_loader_refuses_a_column_that_gets_worse(monkeypatch):
    """Tabla 28 is validated when loaded: one value per band, never worse with level."""
    import copy

    from rules.swc import saving_throws_alt
    from rules.swc.data import DataError

    data = copy.deepcopy(load("saving_throws_alt"))
    data["grupos"][0]["valores"]["aliento"][2] = 14
    monkeypatch.setattr(saving_throws_alt, "load", lambda name: data)
    saving_throws_alt._groups.cache_clear()
    try:
        with pytest.raises(DataError):
            alt_saving_throw("guerrero", 1, "aliento")
    finally:
        saving_throws_alt._groups.cache_clear()
