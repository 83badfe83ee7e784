"""Tablas 1-5 (seed 000): attribute effects for every score 3-18, 3d6 rolls and starting gold."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.swc.attributes import (
    ATTRIBUTE_ORDER,
    CharismaEffects,
    ConstitutionModifiers,
    DexterityModifiers,
    IntelligenceLimits,
    StrengthModifiers,
    WisdomEffects,
    charisma_effects,
    constitution_modifiers,
    dexterity_modifiers,
    intelligence_limits,
    missile_to_hit_bonus,
    roll_attributes,
    starting_gold,
    strength_modifiers,
    wisdom_effects,
)
from rules.swc.data import load
from tests.rules.helpers import Cells


def expand(rows):
    """(low, high, *values) rows -> (score, values) for every score, as the book's ranges read."""
    return [(score, values) for low, high, *values in rows for score in range(low, high + 1)]


def assert_score_table(label, rows, compute, record):
    """Every score of a printed table against ``compute(score)``, the row read as ``record``;
    a failure lists every wrong score ("{label} {score}")."""
    cells = Cells()
    for score, row in expand(rows):
        cells.check(f"{label} {score}", compute(score), record(*row))
    cells.assert_all_match()


# Tabla 1: Fuerza - to-hit, damage, open doors (x in 6, "1-2" = 2), carry (lb), as printed.
TABLA_1 = [
    (3, 4, -2, -1, 1, -10),
    (5, 6, -1, 0, 1, -5),
    (7, 8, 0, 0, 2, 0),
    (9, 12, 0, 0, 2, 5),
    (13, 15, 1, 0, 2, 10),
    (16, 16, 1, 1, 3, 15),
    (17, 17, 2, 2, 4, 30),
    (18, 18, 2, 3, 5, 50),
]


def test_tabla_1_fuerza_for_guerreros_is_the_printed_row():
    """Tabla 1, every Fuerza 3-18: a Guerrero (and no class) gets the printed row."""
    cells = Cells()
    for fuerza, row in expand(TABLA_1):
        expected = StrengthModifiers(*row)
        cells.check(
            f"Tabla 1 Fuerza {fuerza} guerrero", strength_modifiers(fuerza, "guerrero"), expected
        )
        cells.check(f"Tabla 1 Fuerza {fuerza} sin clase", strength_modifiers(fuerza), expected)
    cells.assert_all_match()


@pytest.mark.parametrize("clase", ["paladin", "Paladín", "explorador", "mago", "clerigo", "ladron"])
def test_tabla_1_non_fighters_keep_penalties_but_no_positive_bonus(clase):
    """Tabla 1 footnote: only Guerreros get the positive values (Paladines/Exploradores neither),
    checked at every Fuerza 3-18; a failure lists every wrong score."""
    cells = Cells()
    for fuerza, (to_hit, damage, doors, carry) in expand(TABLA_1):
        expected = StrengthModifiers(min(to_hit, 0), min(damage, 0), doors, carry)
        cells.check(f"Tabla 1 Fuerza {fuerza} {clase}", strength_modifiers(fuerza, clase), expected)
    cells.assert_all_match()


def test_tabla_1_referee_may_allow_plus_one_to_other_classes():
    """Tabla 1 footnote: the referee's +1 cap for other classes, at every Fuerza 3-18."""
    cells = Cells()
    for fuerza, (to_hit, damage, doors, carry) in expand(TABLA_1):
        mods = strength_modifiers(fuerza, "mago", non_fighter_cap=1)
        expected = StrengthModifiers(min(to_hit, 1), min(damage, 1), doors, carry)
        cells.check(f"Tabla 1 Fuerza {fuerza} mago, tope +1", mods, expected)
    cells.assert_all_match()


def test_tabla_1_cap_beyond_plus_one_is_refused():
    with pytest.raises(ValueError):
        strength_modifiers(18, "mago", non_fighter_cap=2)


# Tabla 2: Destreza - missile to-hit, AC effect (-1 "Empeora 1 punto", +1 "Mejora en 1 punto").
TABLA_2 = [(3, 8, -1, -1), (9, 12, 0, 0), (13, 18, 1, 1)]


def test_tabla_2_destreza():
    """Tabla 2, every Destreza 3-18; a failure lists every wrong score."""
    assert_score_table("Tabla 2 Destreza", TABLA_2, dexterity_modifiers, DexterityModifiers)


@pytest.mark.parametrize(
    ("fuerza", "destreza", "clase", "on_missiles", "expected"),
    [
        (18, 18, "guerrero", True, 3),
        (18, 18, "guerrero", False, 1),
        (18, 18, "explorador", True, 1),
        (3, 3, "mago", True, -3),
        (3, 3, "mago", False, -1),
        (13, 10, "guerrero", True, 1),
    ],
)
def test_tablas_1_2_missile_bonus_adds_strength_by_default(
    fuerza, destreza, clase, on_missiles, expected
):
    """Tabla 2 footnote: Destreza adds to Fuerza unless the referee says otherwise."""
    assert (
        missile_to_hit_bonus(fuerza, destreza, clase, strength_on_missiles=on_missiles) == expected
    )


# Tabla 3: Constitución - hp per HD, survival %.
TABLA_3 = [(3, 8, -1, 50), (9, 12, 0, 75), (13, 18, 1, 100)]


def test_tabla_3_constitucion():
    """Tabla 3, every Constitución 3-18; a failure lists every wrong score."""
    assert_score_table(
        "Tabla 3 Constitución", TABLA_3, constitution_modifiers, ConstitutionModifiers
    )


# Tabla 4: Inteligencia - languages, max spell level, learn %, min, max ("Todos" = None).
TABLA_4 = [
    (3, 7, 0, 4, 30, 2, 4),
    (8, 8, 1, 5, 40, 3, 5),
    (9, 9, 1, 5, 45, 3, 5),
    (10, 10, 2, 5, 50, 4, 6),
    (11, 11, 2, 6, 50, 4, 6),
    (12, 12, 3, 6, 55, 4, 6),
    (13, 13, 3, 7, 65, 5, 8),
    (14, 14, 4, 7, 65, 5, 8),
    (15, 15, 4, 8, 75, 6, 10),
    (16, 16, 5, 8, 75, 6, 10),
    (17, 17, 5, 9, 85, 7, None),
    (18, 18, 6, 9, 95, 7, None),
]


def test_tabla_4_inteligencia():
    """Tabla 4, every Inteligencia 3-18; a failure lists every wrong score."""
    assert_score_table("Tabla 4 Inteligencia", TABLA_4, intelligence_limits, IntelligenceLimits)


# Tabla 5: Carisma - special followers; +5% XP from 13 (Carisma paragraph).
TABLA_5 = [
    (3, 4, 1, 0),
    (5, 6, 2, 0),
    (7, 8, 3, 0),
    (9, 12, 4, 0),
    (13, 15, 5, 5),
    (16, 17, 6, 5),
    (18, 18, 7, 5),
]


def test_tabla_5_carisma():
    """Tabla 5, every Carisma 3-18; a failure lists every wrong score."""
    assert_score_table("Tabla 5 Carisma", TABLA_5, charisma_effects, CharismaEffects)


@pytest.mark.parametrize(
    ("sabiduria", "clase", "flag", "expected"),
    [
        (12, "clerigo", True, WisdomEffects(0, False)),
        (13, "guerrero", True, WisdomEffects(5, False)),
        (14, "clerigo", True, WisdomEffects(5, False)),
        (15, "clerigo", True, WisdomEffects(5, True)),
        (18, "Clérigo", True, WisdomEffects(5, True)),
        (15, "druida", True, WisdomEffects(5, False)),
        (15, "clerigo", False, WisdomEffects(5, False)),
        (15, None, True, WisdomEffects(5, False)),
    ],
)
def test_sabiduria_paragraph(sabiduria, clase, flag, expected):
    """Sabiduría (no table): 13+ gives +5% XP; a Clérigo with 15+ an extra 1st-level spell."""
    assert wisdom_effects(sabiduria, clase, cleric_extra_spell=flag) == expected


@pytest.mark.parametrize(
    "function",
    [
        strength_modifiers,
        dexterity_modifiers,
        constitution_modifiers,
        intelligence_limits,
        charisma_effects,
        wisdom_effects,
    ],
)
def test_scores_outside_3_18_are_refused(function):
    """Tablas 1-5 cover 3-18: anything else (or not a whole number) is a ValueError; a failure
    lists every bad score that was not refused."""
    cells = Cells()
    for bad in (2, 19, 0, True, 10.5, "12"):
        try:
            got = function(bad)
        except ValueError:
            continue
        except Exception as error:  # the wrong exception is a wrong cell too
            cells.fail(f"{function.__name__}({bad!r})", f"raised {error!r}, not ValueError")
        else:
            cells.fail(f"{function.__name__}({bad!r})", f"accepted, returned {got!r}")
    cells.assert_all_match()


def test_roll_attributes_is_3d6_in_the_books_order():
    assert ATTRIBUTE_ORDER == (
        "Fuerza",
        "Destreza",
        "Constitución",
        "Inteligencia",
        "Sabiduría",
        "Carisma",
    )
    scripted = random.Random(7)
    expected_rng = random.Random(7)
    rolled = roll_attributes(scripted)
    assert list(rolled) == list(ATTRIBUTE_ORDER)
    for name in ATTRIBUTE_ORDER:
        assert rolled[name] == sum(expected_rng.randint(1, 6) for _ in range(3)), name


def test_roll_attributes_covers_3_to_18():
    rng = random.Random(1)
    seen = Counter(v for _ in range(3000) for v in roll_attributes(rng).values())
    assert min(seen) == 3 and max(seen) == 18
    assert seen[10] + seen[11] > seen[3] + seen[18]


def test_starting_gold_is_3d6_times_10():
    rng, expected_rng = random.Random(3), random.Random(3)
    for _ in range(50):
        assert starting_gold(rng) == sum(expected_rng.randint(1, 6) for _ in range(3)) * 10
    values = {starting_gold(random.Random(s)) for s in range(400)}
    assert min(values) >= 30 and max(values) <= 180 and all(v % 10 == 0 for v in values)


def test_data_cites_seed_and_every_row_its_table():
    data = load("attributes")
    assert data["source"] == {
        "seed": "000_69fa394cbd22cdf4.txt",
        "tables": ["Tabla 1", "Tabla 2", "Tabla 3", "Tabla 4", "Tabla 5"],
    }
    for section, table in [
        ("fuerza", "Tabla 1"),
        ("destreza", "Tabla 2"),
        ("constitucion", "Tabla 3"),
        ("inteligencia", "Tabla 4"),
        ("carisma", "Tabla 5"),
    ]:
        assert data[section]["tabla"] == table
        assert all(row["tabla"] == table for row in data[section]["filas"])


def test_loader_refuses_a_gap_in_an_attribute_table(monkeypatch):
    """Tablas 1-5 are validated when loaded: rows cover 3-18 without gaps."""
    import copy

    from rules.swc import attributes
    from rules.swc.data import DataError

    data = copy.deepcopy(load("attributes"))
    data["inteligencia"]["filas"][3]["valores"] = [11, 11]  # 10 missing
    monkeypatch.setattr(attributes, "load", lambda name: data)
    attributes._rows.cache_clear()
    try:
        with pytest.raises(DataError):
            intelligence_limits(12)
    finally:
        attributes._rows.cache_clear()
