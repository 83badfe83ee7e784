"""Tablas 20-24 (seed 000): every item's printed values, Armour Class and missile ranges."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.swc.data import load
from rules.swc.equipment import (
    Armour,
    Category,
    Gear,
    Hands,
    Transport,
    add_to_dice,
    armour,
    armour_class,
    catalogue,
    find_item,
    missile_damage,
    normalize_name,
    range_modifier,
    suggest,
    weapon,
)
from tests.rules.helpers import Cells

# Tabla 20 as printed (name, cost in mo); "Cerradura" is "20 mo o más".
TABLA_20 = [
    ("Aceite para lámpara", 0.1),
    ("Agua bendita (frasco)", 25),
    ("Ajo, bendecido", 10),
    ("Antorcha", 0.01),
    ("Barril", 2),
    ("Botella de vino, de cristal", 2),
    ("Cacerola, de hierro", 0.5),
    ("Cadena (10 pies)", 0.05),
    ("Campana", 1),
    ("Cerradura", 20),
    ("Cofre", 2),
    ("Cuerda de cáñamo (50 pies)", 1),
    ("Cuerda de seda (50 pies)", 10),
    ("Escalera (10 pies)", 0.05),
    ("Espejo, pequeño de acero", 20),
    ("Esposas", 15),
    ("Estuche (para mapa o pergamino)", 1),
    ("Farol, de capuchón", 7),
    ("Farol, ojo de buey", 12),
    ("Garfio de escalada", 1),
    ("Instrumento musical", 5),
    ("Juego de poleas", 5),
    ("Lámpara, de bronce", 0.1),
    ("Libro de conjuros, en blanco", 25),
    ("Lona (por yarda cuadrada)", 0.1),
    ("Martillo", 0.5),
    ("Matalobos", 0.1),
    ("Mochila (30 libras de capacidad)", 5),
    ("Odre de agua", 1),
    ("Odre, de cuero", 0.03),
    ("Pala", 2),
    ("Palanca", 0.2),
    ("Pergamino (hoja)", 0.2),
    ("Pértiga (10 pies)", 0.2),
    ("Piqueta de hierro", 0.05),
    ("Raciones comunes (por día)", 0.5),
    ("Raciones secas (por día)", 1),
    ("Red de pescar (25 pies cuadrados)", 4),
    ("Saco (15 libras de capacidad)", 1),
    ("Saco (30 libras de capacidad)", 2),
    ("Saco de dormir", 0.2),
    ("Silbato de señales", 0.5),
    ("Símbolo sagrado, de madera", 1),
    ("Símbolo sagrado, de plata", 25),
    ("Tienda de acampada", 10),
    ("Tinta (botella de 1 onza)", 1),
    ("Tiza, una pieza", 0.05),
    ("Vela", 0.01),
    ("Yesca y pedernal", 1),
]


def test_tabla_20_equipamiento_general():
    """Tabla 20: every item's printed cost ("Cerradura" is "20 mo o más"); lists every wrong row."""
    cells = Cells()
    for name, cost in TABLA_20:
        cells.check(f"Tabla 20 {name}", find_item(name), Gear(name, cost, name == "Cerradura"))
    cells.assert_all_match()


TABLA_21 = [
    ("Balsa", 20),
    ("Caballo de guerra", 200),
    ("Caballo de monta", 40),
    ("Carreta de mano", 10),
    ("Mula", 20),
    ("Caravana", 50),
]


@pytest.mark.parametrize(("name", "cost"), TABLA_21)
def test_tabla_21_transporte(name, cost):
    assert find_item(name) == Transport(name, cost)


# Tabla 22: name, AC effect -x [+x], weight (lb), cost (mo).
TABLA_22 = [
    ("Escudo", 1, 10, 15),
    ("Peto de cuero", 2, 25, 5),
    ("Cota de anillos", 3, 40, 30),
    ("Cota de malla", 4, 50, 75),
    ("Coraza", 6, 70, 100),
]


@pytest.mark.parametrize(("name", "effect", "weight", "cost"), TABLA_22)
def test_tabla_22_armadura(name, effect, weight, cost):
    item = armour(name)
    assert item == Armour(name, -effect, effect, weight, cost, name == "Escudo")
    assert item.weight(magical=True) == weight / 2  # "Las armaduras mágicas pesan la mitad"


# Tabla 23: name, damage, weight, cost, hands, +1 two-handed (note 2), thrown (note 3).
TABLA_23 = [
    ("Hacha de batalla", "1d8", 15, 5, Hands.ONE_OR_TWO, 1, False),
    ("Hacha de mano", "1d6", 5, 1, Hands.ONE, 0, True),
    ("Porra o Garrote", "1d4", 10, 0, Hands.ONE, 0, False),
    ("Daga", "1d4", 2, 2, Hands.ONE, 0, True),
    ("Mayal", "1d8", 10, 8, Hands.ONE, 0, False),
    ("Martillo de guerra", "1d4+1", 10, 1, Hands.ONE, 0, False),  # printed "1d+1"
    ("Lanza de caballería", "2d4+1", 15, 6, Hands.ONE, 0, False),
    ("Maza pesada", "1d6", 10, 10, Hands.ONE, 0, False),
    ("Pica", "1d8+1", 15, 10, Hands.TWO, 0, False),
    ("Lanza", "1d6", 10, 1, Hands.ONE_OR_TWO, 1, True),
    ("Bastón", "1d6", 10, 0, Hands.ONE, 0, False),
    ("Espada bastarda", "1d8", 10, 20, Hands.ONE_OR_TWO, 1, False),
    ("Espada larga", "1d8", 10, 15, Hands.ONE, 0, False),
    ("Espada corta", "1d6", 5, 8, Hands.ONE, 0, False),
    ("Espada a 2 manos", "1d10", 15, 30, Hands.TWO, 0, False),
]


def test_tabla_23_armas_cuerpo_a_cuerpo():
    """Tabla 23: every weapon's printed row, notes 2 (+1 two-handed) and 3 (thrown, so also in
    Tabla 24); a failure lists every wrong weapon and column."""
    cells = Cells()
    for name, damage, weight, cost, hands, bonus, thrown in TABLA_23:
        item = weapon(name)
        where = f"Tabla 23 {name}"
        cells.check(f"{where} in Tabla 23", "Tabla 23" in item.tables, True)
        cells.check(f"{where} (peso, coste)", (item.weight_lb, item.cost_mo), (weight, cost))
        if item.melee is None:
            cells.fail(where, "not a melee weapon")
        else:
            melee = item.melee
            cells.check(
                f"{where} (daño, manos, +1 a 2 manos, arrojadiza)",
                (melee.damage, melee.hands, melee.two_handed_bonus, melee.thrown),
                (damage, hands, bonus, thrown),
            )
        cells.check(f"{where} also in Tabla 24 (note 3)", item.missile is not None, thrown)
    cells.assert_all_match()


@pytest.mark.parametrize(
    ("name", "two_hands", "expected"),
    [
        ("Hacha de batalla", True, "1d8+1"),
        ("Hacha de batalla", False, "1d8"),
        ("Lanza", True, "1d6+1"),
        ("Espada bastarda", True, "1d8+1"),
        ("Pica", True, "1d8+1"),
        ("Espada a 2 manos", True, "1d10"),
        ("Espada larga", False, "1d8"),
    ],
)
def test_tabla_23_note_2_two_handed_plus_one(name, two_hands, expected):
    assert weapon(name).melee.damage_with(two_hands) == expected


def test_tabla_23_hands_are_enforced():
    with pytest.raises(ValueError):
        weapon("Espada larga").melee.damage_with(True)
    with pytest.raises(ValueError):
        weapon("Pica").melee.damage_with(False)


# Tabla 24: name, damage (None = from ammunition), rate, range (ft), weight, cost, ammunition.
TABLA_24 = [
    ("Flechas (20)", "1d6", None, None, 1, 2, None),
    ("Hacha de mano", "1d6", 1, 10, 5, 1, None),
    ("Virotes pesados (20)", "1d6+1", None, None, 1, 2, None),
    ("Virotes ligeros (20)", "1d4+1", None, None, 1, 2, None),
    ("Arco largo", None, 2, 70, 5, 60, "Flechas (20)"),
    ("Arco corto", None, 2, 50, 5, 15, "Flechas (20)"),
    ("Ballesta pesada", None, Fraction(1, 2), 80, 5, 20, "Virotes pesados (20)"),
    ("Ballesta ligera", None, 1, 60, 5, 12, "Virotes ligeros (20)"),
    ("Daga", "1d4", 1, 10, 2, 2, None),
    ("Dardo", "1d3", 3, 15, 1, 0.2, None),
    ("Jabalina", "1d6", 1, 20, 5, 0.5, None),
    ("Honda", None, 1, 40, 1, 0.2, "Piedras para honda (20)"),
    ("Lanza", "1d6", 1, 20, 10, 1, None),
    ("Piedras para honda (20)", "1d4", None, None, 5, 0, None),
]


def test_tabla_24_armas_de_proyectiles():
    """Tabla 24: every missile weapon and ammunition's printed row; lists every wrong column."""
    cells = Cells()
    for name, damage, rate, range_ft, weight, cost, ammo in TABLA_24:
        item = weapon(name)
        where = f"Tabla 24 {name}"
        cells.check(f"{where} in Tabla 24", "Tabla 24" in item.tables, True)
        missile = item.missile
        if missile is None:
            cells.fail(where, "not a missile weapon")
        else:
            cells.check(
                f"{where} (daño, cadencia, alcance, munición)",
                (missile.damage, missile.rate_of_fire, missile.range_ft, missile.ammunition),
                (damage, rate, range_ft, ammo),
            )
            cells.check(f"{where} is ammunition", missile.is_ammunition, range_ft is None)
        cells.check(f"{where} (peso, coste)", (item.weight_lb, item.cost_mo), (weight, cost))
    cells.assert_all_match()


@pytest.mark.parametrize(
    ("name", "damage"),
    [
        ("Arco largo", "1d6"),
        ("Arco corto", "1d6"),
        ("Ballesta pesada", "1d6+1"),
        ("Ballesta ligera", "1d4+1"),
        ("Honda", "1d4"),
        ("Dardo", "1d3"),
    ],
)
def test_tabla_24_launchers_use_their_ammunition(name, damage):
    assert missile_damage(name) == damage


def test_tabla_24_range_footnote_for_every_weapon():
    """Tabla 24 footnote: -2 beyond the range, nothing beyond three times it, for every weapon
    with a range; a failure lists every weapon and distance that is wrong."""
    cells = Cells()
    for name in [row[0] for row in TABLA_24 if row[3] is not None]:
        reach = weapon(name).missile.range_ft
        for distance, expected in [
            (0, 0),
            (reach, 0),
            (reach + 1, -2),
            (3 * reach, -2),
            (3 * reach + 0.5, None),
        ]:
            cells.check(
                f"Tabla 24 {name} a {distance} pies", range_modifier(name, distance), expected
            )
    cells.assert_all_match()


def test_tabla_24_range_needs_a_launcher_or_thrown_weapon():
    for name in ["Flechas (20)", "Espada larga"]:
        with pytest.raises(ValueError):
            range_modifier(name, 10)
    with pytest.raises(ValueError):
        range_modifier("Arco largo", -1)


ARMOUR_CLASSES = [
    (None, False, 10, 9),
    (None, False, 3, 10),
    (None, False, 18, 8),
    (None, True, 10, 8),
    ("Peto de cuero", False, 10, 7),
    ("Cota de anillos", True, 12, 5),
    ("Cota de malla", False, 13, 4),
    ("Coraza", True, 18, 1),
    ("Coraza", True, 8, 3),
    ("coraza", False, 9, 3),
]


def test_tabla_22_and_tabla_2_armour_class_in_both_systems():
    """Tabla 22 from a base of 9 [10], Tabla 2 worsens or improves one point; a failure lists
    every wrong armour, shield and Destreza in either notation."""
    cells = Cells()
    for armadura, escudo, destreza, desc in ARMOUR_CLASSES:
        where = f"{armadura} escudo={escudo} Destreza {destreza}"
        cells.check(f"{where} CA", armour_class(armadura, escudo, destreza), desc)
        asc = armour_class(armadura, escudo, destreza, ascendente=True)
        cells.check(f"{where} [CA]", asc, 19 - desc)
    cells.assert_all_match()


def test_armour_class_refuses_the_shield_as_armour_and_non_armour():
    with pytest.raises(ValueError):
        armour_class("Escudo", False, 10)
    with pytest.raises(ValueError):
        armour_class("Daga", False, 10)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("cota de malla", "Cota de malla"),
        ("FAROL DE CAPUCHON", "Farol, de capuchón"),
        ("garrote", "Porra o Garrote"),
        ("Porra", "Porra o Garrote"),
        ("pica (2 manos)", "Pica"),
        ("baston", "Bastón"),
        ("  pertiga  10 pies ", "Pértiga (10 pies)"),
    ],
)
def test_find_item_ignores_case_accents_and_punctuation(typed, expected):
    assert find_item(typed).name == expected


def test_find_item_unknown_is_none():
    assert find_item("rayo láser") is None
    with pytest.raises(ValueError):
        weapon("Cuerda de seda (50 pies)")


def test_weapons_in_both_tables_are_one_item():
    """Tabla 23 note 3: Hacha de mano, Daga and Lanza are also in Tabla 24."""
    for name in ("Hacha de mano", "Daga", "Lanza"):
        item = weapon(name)
        assert item.tables == ("Tabla 23", "Tabla 24")
        assert item.melee.thrown and item.missile is not None


def test_catalogue_lists_every_printed_row_once():
    entries = catalogue()
    names = [e.name for e in entries]
    assert len(names) == len(set(names))
    assert (
        len(names)
        == len(TABLA_20) + len(TABLA_21) + len(TABLA_22) + len(TABLA_23) + len(TABLA_24) - 3
    )
    assert [e.name for e in catalogue(Category.ARMOUR)] == [
        "Coraza",
        "Cota de anillos",
        "Cota de malla",
        "Escudo",
        "Peto de cuero",
    ]


def test_suggest_prefers_prefixes():
    names = [e.name for e in suggest("espada")]
    assert names[:4] == ["Espada a 2 manos", "Espada bastarda", "Espada corta", "Espada larga"]
    assert "Espejo, pequeño de acero" not in names
    assert [e.name for e in suggest("malla")] == ["Cota de malla"]
    assert len(suggest("a", limit=5)) == 5


@pytest.mark.parametrize(
    ("dice", "bonus", "expected"),
    [("1d8", 1, "1d8+1"), ("1d4+1", 1, "1d4+2"), ("2d4+1", -1, "2d4")],
)
def test_add_to_dice(dice, bonus, expected):
    assert add_to_dice(dice, bonus) == expected


def test_normalize_name():
    assert normalize_name("Símbolo sagrado, de plata") == "simbolo sagrado de plata"


def test_data_cites_seed_and_tables():
    data = load("equipment")
    assert data["source"]["seed"] == "000_69fa394cbd22cdf4.txt"
    for section, table in [
        ("equipo_general", "Tabla 20"),
        ("transporte", "Tabla 21"),
        ("armaduras", "Tabla 22"),
        ("armas_cuerpo_a_cuerpo", "Tabla 23"),
        ("armas_proyectiles", "Tabla 24"),
    ]:
        assert data[section]["tabla"] == table
        assert all(row["tabla"] == table for row in data[section]["filas"])
    hammer = next(
        r for r in data["armas_cuerpo_a_cuerpo"]["filas"] if r["nombre"] == "Martillo de guerra"
    )
    assert hammer["impreso"] == "1d+1" and hammer["dano"] == "1d4+1"


@pytest.mark.parametrize(
    ("section", "index", "field", "value"),
    [
        ("armas_cuerpo_a_cuerpo", 5, "dano", "1d+1"),  # the printed war hammer
        ("armaduras", 1, "efecto_ca_ascendente", 3),  # the two notations disagree
        ("armas_proyectiles", 1, "peso_libras", 7),  # Tablas 23 and 24 disagree on the hand axe
        ("armas_proyectiles", 4, "municion", "Flechas de fuego"),  # unknown ammunition
    ],
)
def test_loader_refuses_inconsistent_rows(monkeypatch, section, index, field, value):
    """Tablas 22-24 are validated when loaded."""
    import copy

    from rules.swc import equipment
    from rules.swc.data import DataError

    data = copy.deepcopy(load("equipment"))
    data[section]["filas"][index][field] = value
    monkeypatch.setattr(equipment, "load", lambda name: data)
    equipment._items.cache_clear()
    try:
        with pytest.raises(DataError):
            find_item("Daga")
    finally:
        equipment._items.cache_clear()
