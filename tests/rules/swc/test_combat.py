"""Tablas 29-32 (seed 000): attack rolls for every level and every AC 9 [10] to -9 [28].

The seed prints each attack table transposed: one line per AC, one number per level band.
Those lines are copied below verbatim and checked against :func:`to_hit_target` for every
level 1-20 and every AC, in both notations, so a wrong data cell cannot pass.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.swc import combat
from rules.swc.combat import (
    ascending_to_descending,
    attack_bonus,
    descending_to_ascending,
    monster_attack_bonus,
    monster_hit_dice,
    monster_to_hit_target,
    to_hit_target,
)
from tests.rules.helpers import Cells

# Tabla 29 as printed: AC 9 [10] first; columns are the bands 1-2, "2-4" (read 3-4), 5-6,
# 7-8, 9, 10-11, 12, 13-14, 15-16, 17, 18-19, 20.
TABLA_29 = """\
10 9 8 7 6 5 4 3 2 1 1 1
11 10 9 8 7 6 5 4 3 2 1 1
12 11 10 9 8 7 6 5 4 3 2 1
13 12 11 10 9 8 7 6 5 4 3 2
14 13 12 11 10 9 8 7 6 5 4 3
15 14 13 12 11 10 9 8 7 6 5 4
16 15 14 13 12 11 10 9 8 7 6 5
17 16 15 14 13 12 11 10 9 8 7 6
18 17 16 15 14 13 12 11 10 9 8 7
19 18 17 16 15 14 13 12 11 10 9 8
20 19 18 17 16 15 14 13 12 11 10 9
21 20 19 18 17 16 15 14 13 12 11 10
22 21 20 19 18 17 16 15 14 13 12 11
23 22 21 20 19 18 17 16 15 14 13 12
24 23 22 21 20 19 18 17 16 15 14 13
25 24 23 22 21 20 19 18 17 16 15 14
26 25 24 23 22 21 20 19 18 17 16 15
27 26 25 24 23 22 21 20 19 18 17 16
28 27 26 25 24 23 22 21 20 19 18 17"""
BANDS_29 = [
    (1, 2),
    (3, 4),
    (5, 6),
    (7, 8),
    (9, 9),
    (10, 11),
    (12, 12),
    (13, 14),
    (15, 16),
    (17, 17),
    (18, 19),
    (20, 20),
]

# Tabla 30 as printed; bands 1-3, 4-5, 6-7, 8-9, 10, 11-13, 14-15, 16-19, 20.
TABLA_30 = """\
10 9 8 7 6 5 4 3 2
11 10 9 8 7 6 5 4 3
12 11 10 9 8 7 6 5 4
13 12 11 10 9 8 7 6 5
14 13 12 11 10 9 8 7 6
15 14 13 12 11 10 9 8 7
16 15 14 13 12 11 10 9 8
17 16 15 14 13 12 11 10 9
18 17 16 15 14 13 12 11 10
19 18 17 16 15 14 13 12 11
20 19 18 17 16 15 14 13 12
21 20 19 18 17 16 15 14 13
22 21 20 19 18 17 16 15 14
23 22 21 20 19 18 17 16 15
24 23 22 21 20 19 18 17 16
25 24 23 22 21 20 19 18 17
26 25 24 23 22 21 20 19 18
27 26 25 24 23 22 21 20 19
28 27 26 25 24 23 22 21 20"""
BANDS_30 = [(1, 3), (4, 5), (6, 7), (8, 9), (10, 10), (11, 13), (14, 15), (16, 19), (20, 20)]

# Tabla 31 as printed (18 lines: the seed stops at AC -8 [27]); the last line is the
# reconstructed -9 [28] column (the -8 line plus one), recorded in docs/rules-decisions.md.
TABLA_31 = """\
10 9 8 7 6 5 4 3 2 1 1 1 1 1
11 10 9 8 7 6 5 4 3 2 1 1 1 1
12 11 10 9 8 7 6 5 4 3 2 1 1 1
13 12 11 10 9 8 7 6 5 4 3 2 1 1
14 13 12 11 10 9 8 7 6 5 4 3 2 1
15 14 13 12 11 10 9 8 7 6 5 4 3 2
16 15 14 13 12 11 10 9 8 7 6 5 4 3
17 16 15 14 13 12 11 10 9 8 7 6 5 4
18 17 16 15 14 13 12 11 10 9 8 7 6 5
19 18 17 16 15 14 13 12 11 10 9 8 7 6
20 19 18 17 16 15 14 13 12 11 10 9 8 7
21 20 19 18 17 16 15 14 13 12 11 10 9 8
22 21 20 19 18 17 16 15 14 13 12 11 10 9
23 22 21 20 19 18 17 16 15 14 13 12 11 10
24 23 22 21 20 19 18 17 16 15 14 13 12 11
25 24 23 22 21 20 19 18 17 16 15 14 13 12
26 25 24 23 22 21 20 19 18 17 16 15 14 13
27 26 25 24 23 22 21 20 19 18 17 16 15 14
28 27 26 25 24 23 22 21 20 19 18 17 16 15"""
BANDS_31 = [
    (1, 2),
    (3, 3),
    (4, 5),
    (6, 6),
    (7, 7),
    (8, 8),
    (9, 9),
    (10, 11),
    (12, 12),
    (13, 14),
    (15, 15),
    (16, 16),
    (17, 18),
    (19, 20),
]

CASES = [
    ("Tabla 29", TABLA_29, BANDS_29, ("clerigo", "druida", "monje")),
    ("Tabla 30", TABLA_30, BANDS_30, ("asesino", "ladron", "mago")),
    ("Tabla 31", TABLA_31, BANDS_31, ("guerrero", "paladin", "explorador")),
]


def _printed_cells(text: str, bands: list[tuple[int, int]]) -> Iterator[tuple[int, int, int]]:
    """Every (nivel, ca, expected) cell of one printed table, levels spread over their band."""
    lines = text.splitlines()
    assert len(lines) == 19
    for row, line in enumerate(lines):
        values = [int(v) for v in line.split()]
        assert len(values) == len(bands), row
        for (low, high), expected in zip(bands, values, strict=True):
            for nivel in range(low, high + 1):
                yield nivel, 9 - row, expected


@pytest.mark.parametrize(
    ("table", "text", "bands", "clase"),
    [
        pytest.param(table, text, bands, clase, id=f"{table}-{clase}")
        for table, text, bands, classes in CASES
        for clase in classes
    ],
)
def test_every_cell_of_tablas_29_30_31_in_both_notations(table, text, bands, clase):
    """Tablas 29-31 (seed 000): every level 1-20 and AC 9 [10] to -9 [28] of the class's table,
    in descending and ascending notation; a failure lists every wrong cell."""
    cells = Cells()
    for nivel, ca, expected in _printed_cells(text, bands):
        where = f"{table} {clase} nivel {nivel} CA {ca}"
        cells.check(where, to_hit_target(clase, nivel, ca), expected)
        asc = descending_to_ascending(ca)
        got = to_hit_target(clase, nivel, asc, ascendente=True)
        cells.check(f"{where} [{asc}] ascendente", got, expected)
    cells.assert_all_match()


@pytest.mark.parametrize(
    ("table", "bands"), [("Tabla 29", BANDS_29), ("Tabla 30", BANDS_30), ("Tabla 31", BANDS_31)]
)
def test_level_bands_match_the_printed_headers(table, bands):
    """Tablas 29-31: the data's bands are the printed ones (Tabla 29's "2-4" read as 3-4)."""
    key = {"Tabla 29": "clerigo", "Tabla 30": "ladron", "Tabla 31": "guerrero"}[table]
    loaded = combat.attack_table(key)
    assert loaded.table == table
    assert [(b.low, b.high) for b in loaded.bands] == bands


@pytest.mark.parametrize("clase", sorted(combat.ATTACK_TABLE_FOR_CLASS))
def test_diagonal_one_ac_point_is_one_d20_point(clase):
    """Tablas 29-31 property: one AC point better needs one more on the d20 (floor 1), at every
    level 1-20 and AC 9 [10] to -8 [27]; a failure lists every level and AC that breaks it."""
    cells = Cells()
    for nivel in range(1, 21):
        for ca in range(9, -9, -1):
            worse, better = to_hit_target(clase, nivel, ca), to_hit_target(clase, nivel, ca - 1)
            if not (better == worse + 1 or (worse == 1 and better in (1, 2))):
                cells.fail(f"{clase} nivel {nivel} CA {ca} -> {ca - 1}", f"{worse} -> {better}")
    cells.assert_all_match()


@pytest.mark.parametrize("clase", sorted(combat.ATTACK_TABLE_FOR_CLASS))
def test_higher_level_never_needs_more_and_each_band_improves_by_one(clase):
    """Tablas 29-31 property: each new band needs exactly one less against -9 [28]."""
    previous = None
    for nivel in range(1, 21):
        target = to_hit_target(clase, nivel, -9)
        if previous is not None:
            assert target in (previous, previous - 1)
        previous = target
    table = combat.attack_table(clase)
    firsts = [b.targets[-1] for b in table.bands]
    assert firsts == list(range(28, 28 - len(firsts), -1))


def test_levels_past_20_use_the_last_band():
    """Tablas 29-31 stop at level 20; higher levels keep the last printed band."""
    assert to_hit_target("guerrero", 25, 0) == to_hit_target("guerrero", 20, 0) == 6
    assert to_hit_target("mago", 30, -9) == 20
    assert to_hit_target("clerigo", 21, 2) == to_hit_target("clerigo", 20, 2) == 6


def test_bad_level_or_class_is_refused():
    with pytest.raises(ValueError):
        to_hit_target("guerrero", 0, 9)
    with pytest.raises(ValueError):
        to_hit_target("bardo", 1, 9)


def test_class_names_accept_accents_and_case():
    assert to_hit_target("Paladín", 3, 5) == to_hit_target("paladin", 3, 5) == 13
    assert to_hit_target("LADRÓN", 1, 9) == 10


def test_beyond_printed_columns_the_diagonal_continues():
    """AC 10 [9] (Destreza 3-8 unarmoured) and -10 [29] are outside Tablas 29-31."""
    assert to_hit_target("mago", 1, 10) == 9
    assert to_hit_target("mago", 1, 9, ascendente=True) == 9
    assert to_hit_target("guerrero", 1, -10) == 29
    assert to_hit_target("guerrero", 20, 12) == 1


@pytest.mark.parametrize(("desc", "asc"), [(9, 10), (0, 19), (-9, 28), (10, 9), (5, 14)])
def test_ac_notations_convert_both_ways(desc, asc):
    """Tablas 29-32 headers: 9 [10] ... -9 [28]."""
    assert descending_to_ascending(desc) == asc
    assert ascending_to_descending(asc) == desc


@pytest.mark.parametrize("clase", sorted(combat.ATTACK_TABLE_FOR_CLASS))
def test_attack_bonus_reproduces_every_cell_above_the_floor(clase):
    """Tablas 29-31: d20 + attack_bonus >= [CA] agrees with the table wherever it exceeds 1,
    at every level 1-20 and AC [10] to [28]; a failure lists every cell that disagrees."""
    cells = Cells()
    for nivel in range(1, 21):
        bonus = attack_bonus(clase, nivel)
        for asc in range(10, 29):
            target = to_hit_target(clase, nivel, asc, ascendente=True)
            cells.check(
                f"{clase} nivel {nivel} [{asc}] bonus {bonus:+d}", max(1, asc - bonus), target
            )
    cells.assert_all_match()


@pytest.mark.parametrize(
    ("clase", "nivel", "bonus"),
    [
        ("guerrero", 1, 0),
        ("guerrero", 3, 1),
        ("guerrero", 20, 13),
        ("clerigo", 20, 11),
        ("mago", 20, 8),
        ("ladron", 3, 0),
    ],
)
def test_attack_bonus_examples(clase, nivel, bonus):
    """Tablas 29-31 read as bonuses: [28] minus the roll needed against -9 [28]."""
    assert attack_bonus(clase, nivel) == bonus


# Tabla 32: the seed prints only the header (AC 9 [10] ... -8 [27], rows by Hit Dice); rows
# reconstructed as "<1 HD needs 10 against 9 [10], one less per HD, floor 1, 15+ last".
MONSTER_ROWS = [(hd, [max(1, 10 - hd + col) for col in range(19)]) for hd in range(16)]


def test_tabla_32_every_row():
    """Tabla 32: every Hit Dice row and AC column, in both notations; lists every wrong cell."""
    cells = Cells()
    for hd, row in MONSTER_ROWS:
        for col, expected in enumerate(row):
            ca = 9 - col
            asc = descending_to_ascending(ca)
            cells.check(f"Tabla 32 {hd} DG CA {ca}", monster_to_hit_target(hd, ca), expected)
            got = monster_to_hit_target(hd, asc, ascendente=True)
            cells.check(f"Tabla 32 {hd} DG [{asc}] ascendente", got, expected)
    cells.assert_all_match()


@pytest.mark.parametrize(
    ("text", "row"),
    [
        ("<1", 0),
        ("1/2", 0),
        (0, 0),
        ("1", 1),
        ("4+1", 4),
        ("3-1", 3),
        (" 7 ", 7),
        ("15+", 15),
        (20, 15),
    ],
)
def test_tabla_32_hit_dice_rows(text, row):
    assert monster_hit_dice(text) == row


@pytest.mark.parametrize("bad", ["", "dragón", "-1", -2, "d8", True])
def test_tabla_32_bad_hit_dice(bad):
    with pytest.raises(ValueError):
        monster_hit_dice(bad)


def test_tabla_32_examples_and_bonus():
    assert monster_to_hit_target(3, 5) == 11
    assert monster_to_hit_target("<1", 9) == 10
    assert monster_attack_bonus(3) == 3
    assert monster_attack_bonus(40) == 15


def test_hits_meets_or_beats():
    assert combat.hits(9, 1, 10)
    assert not combat.hits(8, 1, 10)


def test_data_cites_its_seed_and_tables():
    from rules.swc.data import load

    data = load("attack_tables")
    assert data["source"] == {
        "seed": "000_69fa394cbd22cdf4.txt",
        "tables": ["Tabla 29", "Tabla 30", "Tabla 31", "Tabla 32"],
    }
    assert [t["tabla"] for t in data["tablas"].values()] == ["Tabla 29", "Tabla 30", "Tabla 31"]
    assert data["monstruos"]["tabla"] == "Tabla 32"


@pytest.mark.parametrize(
    ("path", "change"),
    [
        (("tablas", "guerrero", "filas", 0, "objetivos", 5), 3),  # breaks the diagonal
        (("tablas", "clerigo", "filas", 1, "niveles", 0), -1),  # the printed "2-4" overlap
    ],
)
def test_loader_refuses_tables_that_break_their_structure(monkeypatch, path, change):
    """Tablas 29-31 are validated when loaded: diagonal cells and contiguous level bands."""
    import copy

    from rules.swc.data import DataError, load

    data = copy.deepcopy(load("attack_tables"))
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] += change
    monkeypatch.setattr(combat, "load", lambda name: data)
    combat._tables.cache_clear()
    try:
        with pytest.raises(DataError):
            to_hit_target("guerrero", 1, 9)
    finally:
        combat._tables.cache_clear()


@given(
    clase=st.sampled_from(sorted(combat.ATTACK_TABLE_FOR_CLASS)),
    nivel=st.integers(1, 40),
    ca=st.integers(-20, 20),
)
def test_property_attack_tables_are_monotone_and_notation_free(clase, nivel, ca):
    """Tablas 29-31 everywhere (printed and extended): both notations agree, a better AC never
    needs less, a higher level never needs more, and the roll needed is at least 1."""
    target = to_hit_target(clase, nivel, ca)
    assert target >= 1
    assert to_hit_target(clase, nivel, descending_to_ascending(ca), ascendente=True) == target
    assert to_hit_target(clase, nivel, ca - 1) in (target, target + 1)
    assert to_hit_target(clase, nivel + 1, ca) in (target, target - 1) or target == 1


@given(hd=st.integers(0, 30), ca=st.integers(-20, 20))
def test_property_tabla_32_matches_its_bonus(hd, ca):
    """Tabla 32: above the floor of 1, the roll needed is [CA] minus the monster's bonus."""
    target = monster_to_hit_target(hd, ca)
    assert target == max(1, descending_to_ascending(ca) - monster_attack_bonus(hd))
