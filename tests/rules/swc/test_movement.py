"""Tablas 25-27 (seed 000): base movement by load, indoor and outdoor distances, time units."""

from __future__ import annotations

import random

import pytest

from rules.swc.data import load
from rules.swc.movement import (
    NORMAL_GEAR_LB,
    ROUND_MINUTES,
    TURN_MINUTES,
    Distance,
    IndoorMode,
    OutdoorMode,
    base_movement,
    carried_weight,
    coin_weight,
    forced_march_check,
    indoor_movement,
    max_load,
    minutes,
    outdoor_movement,
)
from tests.rules.helpers import Cells

# Tabla 25 as printed: (first pound, last pound, Mov); 300 lb is the maximum.
TABLA_25 = [(0, 75, 12), (76, 100, 9), (101, 150, 6), (151, 300, 3)]


@pytest.mark.parametrize(("low", "high", "mov"), TABLA_25)
def test_tabla_25_every_row_at_its_edges(low, high, mov):
    assert base_movement(low) == mov
    assert base_movement(high) == mov
    assert base_movement((low + high) / 2) == mov


def test_tabla_25_beyond_300_cannot_move():
    assert base_movement(300.1) is None
    assert base_movement(301) is None
    assert max_load() == 300


@pytest.mark.parametrize(
    ("load_lb", "bonus", "mov"),
    [
        (85, 10, 12),
        (86, 10, 9),
        (65, -10, 12),
        (66, -10, 9),
        (125, 50, 12),
        (126, 50, 9),
        (349, 50, 3),
        (351, 50, None),
        (291, -10, None),
    ],
)
def test_tabla_25_carry_bonus_shifts_every_limit(load_lb, bonus, mov):
    """Tabla 25 footnote: +10 carries 85 lb at 12; -10 drops to 9 past 65 lb."""
    assert base_movement(load_lb, bonus) == mov


def test_tabla_25_fractions_and_negative_loads():
    assert base_movement(75.5) == 9
    with pytest.raises(ValueError):
        base_movement(-1)


def test_load_counts_normal_gear_and_coins():
    """Carga y movimiento: 10 lb of normal gear, each coin or gem 1/10 lb."""
    assert NORMAL_GEAR_LB == 10
    assert coin_weight(250) == pytest.approx(25)
    assert carried_weight(55, 100) == pytest.approx(75)
    assert base_movement(carried_weight(55, 100)) == 12
    assert base_movement(carried_weight(55, 110)) == 9
    assert carried_weight(20, 0, equipo_normal=False) == 20
    with pytest.raises(ValueError):
        coin_weight(-1)


# Tabla 26: (Mov, mode, feet, per).
TABLA_26 = [
    (12, IndoorMode.WALKING, 120, "turno"),
    (9, IndoorMode.WALKING, 90, "turno"),
    (6, IndoorMode.WALKING, 60, "turno"),
    (3, IndoorMode.WALKING, 30, "turno"),
    (12, IndoorMode.RUNNING, 480, "turno"),
    (9, IndoorMode.RUNNING, 360, "turno"),
    (6, IndoorMode.RUNNING, 240, "turno"),
    (3, IndoorMode.RUNNING, 120, "turno"),
    (12, IndoorMode.COMBAT, 40, "asalto"),
    (9, IndoorMode.COMBAT, 30, "asalto"),
    (6, IndoorMode.COMBAT, 20, "asalto"),
    (3, IndoorMode.COMBAT, 10, "asalto"),
]


def test_tabla_26_indoor():
    """Tabla 26: every Mov and mode indoors; a failure lists every wrong row."""
    cells = Cells()
    for mov, mode, feet, per in TABLA_26:
        distance = indoor_movement(mov, mode)
        cells.check(
            f"Tabla 26 Mov {mov} {mode.value} (cantidad, unidad, por, tabla)",
            (distance.amount, distance.unit, distance.per, distance.table),
            (feet, "pies", per, "Tabla 26"),
        )
    cells.assert_all_match()


def test_tabla_26_running_costs_surprise_and_mapping():
    note = indoor_movement(12, "corriendo").note
    assert "sorprendido automáticamente" in note and "No se puede trazar un mapa" in note


def test_tabla_26_printed_combat_examples():
    """Tabla 26: "Mov base de 6 = 20 pies, 9 = 30 pies, 12 = 40 pies"."""
    examples = load("movement")["interiores"]["filas"][2]["ejemplos"]
    for mov, feet in examples.items():
        assert indoor_movement(int(mov), IndoorMode.COMBAT).amount == feet


# Tabla 27: (Mov, mode, amount, unit, per).
TABLA_27 = [
    (12, OutdoorMode.WALKING, 12, "millas", "día"),
    (9, OutdoorMode.WALKING, 9, "millas", "día"),
    (3, OutdoorMode.WALKING, 3, "millas", "día"),
    (12, OutdoorMode.FORCED_MARCH, 24, "millas", "día"),
    (6, OutdoorMode.FORCED_MARCH, 12, "millas", "día"),
    (12, OutdoorMode.COMBAT, 40, "yardas", "asalto"),
    (9, OutdoorMode.COMBAT, 30, "yardas", "asalto"),
    (6, OutdoorMode.COMBAT, 20, "yardas", "asalto"),
]


def test_tabla_27_outdoor():
    """Tabla 27: every Mov and mode outdoors; a failure lists every wrong row."""
    cells = Cells()
    for mov, mode, amount, unit, per in TABLA_27:
        distance = outdoor_movement(mov, mode)
        cells.check(
            f"Tabla 27 Mov {mov} {mode.value} (cantidad, unidad, por, tabla)",
            (distance.amount, distance.unit, distance.per, distance.table),
            (amount, unit, per, "Tabla 27"),
        )
    cells.assert_all_match()


def test_non_multiples_of_three_round_down():
    """Tablas 26-27 divide Mov by 3; monsters' Mov 4 or 14 would give fractions."""
    assert indoor_movement(4, IndoorMode.COMBAT) == Distance(
        13, "pies", "asalto", "Tabla 26", indoor_movement(3, "combate").note
    )
    assert outdoor_movement(14, OutdoorMode.COMBAT).amount == 46


def test_unknown_mode_or_negative_mov_is_refused():
    with pytest.raises(ValueError):
        indoor_movement(12, "volando")
    with pytest.raises(ValueError):
        outdoor_movement(-3)


def test_tabla_27_forced_march_is_4d6_at_or_under_fuerza():
    rng, mirror = random.Random(5), random.Random(5)
    for _ in range(200):
        result = forced_march_check(rng, 14)
        dice = tuple(mirror.randint(1, 6) for _ in range(4))
        assert result.dice == dice and result.total == sum(dice)
        assert result.success == (sum(dice) <= 14)


def test_forced_march_extremes():
    always = [forced_march_check(random.Random(s), 24).success for s in range(50)]
    never = [forced_march_check(random.Random(s), 3).success for s in range(50)]
    assert all(always) and not any(never)


def test_time_units():
    """Medir el tiempo: a turn is 10 minutes, a combat round 1 minute."""
    assert (TURN_MINUTES, ROUND_MINUTES) == (10, 1)
    assert minutes(turnos=3, asaltos=4) == 34


def test_data_cites_seed_and_tables():
    data = load("movement")
    assert data["source"] == {
        "seed": "000_69fa394cbd22cdf4.txt",
        "tables": ["Tabla 25", "Tabla 26", "Tabla 27"],
    }
    for section, table in [
        ("movimiento_base", "Tabla 25"),
        ("interiores", "Tabla 26"),
        ("campo_abierto", "Tabla 27"),
    ]:
        assert data[section]["tabla"] == table
        assert all(row["tabla"] == table for row in data[section]["filas"])


def test_loader_refuses_a_gap_in_tabla_25(monkeypatch):
    """Tabla 25 is validated when loaded: bands follow each other up to the maximum."""
    import copy

    from rules.swc import movement
    from rules.swc.data import DataError

    data = copy.deepcopy(load("movement"))
    data["movimiento_base"]["filas"][2]["desde_libras"] = 105
    monkeypatch.setattr(movement, "_DATA", data)
    movement._bands.cache_clear()
    try:
        with pytest.raises(DataError):
            base_movement(10)
    finally:
        movement._bands.cache_clear()
