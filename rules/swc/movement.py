"""Encumbrance, movement and time in Swords & Wizardry Completo: Tablas 25-27 of seed 000.

Base movement (Mov) depends only on the pounds carried, shifted by Fuerza's carry bonus
(Tabla 1); every distance is then Mov times a factor from Tabla 26 (indoors, per turn or
per round) or Tabla 27 (outdoors, miles per day or yards per round).  The numbers live in
``data/swc/movement.json``.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.swc.data import DataError, load

__all__ = [
    "TURN_MINUTES",
    "ROUND_MINUTES",
    "NORMAL_GEAR_LB",
    "IndoorMode",
    "OutdoorMode",
    "Distance",
    "EnduranceRoll",
    "coin_weight",
    "carried_weight",
    "base_movement",
    "max_load",
    "indoor_movement",
    "outdoor_movement",
    "forced_march_check",
    "minutes",
]

_DATA = load("movement")
TURN_MINUTES: int = _DATA["tiempo"]["turno_minutos"]
ROUND_MINUTES: int = _DATA["tiempo"]["asalto_minutos"]
NORMAL_GEAR_LB: float = _DATA["carga"]["equipo_normal_libras"]


class IndoorMode(enum.StrEnum):
    """Tabla 26's rows."""

    WALKING = "andando"
    RUNNING = "corriendo"
    COMBAT = "combate"


class OutdoorMode(enum.StrEnum):
    """Tabla 27's rows."""

    WALKING = "andando"
    FORCED_MARCH = "marcha_forzada"
    COMBAT = "combate"


@dataclass(frozen=True, slots=True)
class Distance:
    """How far, in ``unit`` ("pies", "yardas", "millas") ``per`` ("turno", "asalto", "día").

    ``note`` is the table's "Resultado" column (what moving like this costs).
    """

    amount: int
    unit: str
    per: str
    table: str
    note: str


@dataclass(frozen=True, slots=True)
class EnduranceRoll:
    """A forced march's endurance roll: 4d6 against Fuerza, succeeding at or under it."""

    dice: tuple[int, ...]
    total: int
    strength: int
    success: bool


def coin_weight(monedas: int) -> float:
    """Coins and gems weigh a tenth of a pound each."""
    if monedas < 0:
        raise ValueError("cannot carry a negative number of coins")
    return monedas * float(_DATA["carga"]["libras_por_moneda"])


def carried_weight(
    armadura_y_armas_libras: float, monedas_y_joyas: int = 0, equipo_normal: bool = True
) -> float:
    """Total load: armour and weapons, 10 lb of "normal" gear, and the treasure."""
    gear = NORMAL_GEAR_LB if equipo_normal else 0
    return armadura_y_armas_libras + gear + coin_weight(monedas_y_joyas)


@cache
def _bands() -> tuple[tuple[int, int], ...]:
    """(upper limit in lb, Mov) for each Tabla 25 row, checked to be contiguous."""
    table = _DATA["movimiento_base"]
    bands, previous = [], -1
    for row in table["filas"]:
        if row["desde_libras"] != previous + 1 or row["hasta_libras"] < row["desde_libras"]:
            raise DataError("movement Tabla 25: rows must follow each other")
        bands.append((row["hasta_libras"], row["movimiento"]))
        previous = row["hasta_libras"]
    if previous != table["maximo_libras"]:
        raise DataError("movement Tabla 25: the last row must end at the maximum")
    return tuple(bands)


def max_load(bono_carga: int = 0) -> int:
    """The most a character can carry: 300 lb plus Fuerza's carry bonus."""
    return int(_DATA["movimiento_base"]["maximo_libras"]) + bono_carga


def base_movement(carga_libras: float, bono_carga: int = 0) -> int | None:
    """Tabla 25: Mov for ``carga_libras``, every limit raised by ``bono_carga`` (Tabla 1).

    ``None`` when the load is beyond the maximum: the character cannot move with it.
    Fractions of a pound count against the next band (75.5 lb is "76 – 100").
    """
    if carga_libras < 0:
        raise ValueError("a load cannot be negative")
    for limit, movement in _bands():
        if carga_libras <= limit + bono_carga:
            return movement
    return None


def _row(section: str, mode: str) -> dict[str, Any]:
    return next(r for r in _DATA[section]["filas"] if r["modo"] == mode)


def _distance(section: str, mode: str, mov: int) -> Distance:
    if mov < 0:
        raise ValueError("movement cannot be negative")
    row = _row(section, mode)
    # "Mov base dividido por 3 y por 10": rounded down for movements that are not multiples of 3.
    amount = mov * row["multiplicador"] // row["divisor"]
    return Distance(amount, row["unidad"], row["por"], row["tabla"], row["resultado"])


def indoor_movement(mov: int, modo: IndoorMode | str = IndoorMode.WALKING) -> Distance:
    """Tabla 26: walking Mov x 10 ft/turn, running Mov x 40 ft/turn, combat Mov / 3 x 10 ft/round."""
    return _distance("interiores", IndoorMode(modo).value, mov)


def outdoor_movement(mov: int, modo: OutdoorMode | str = OutdoorMode.WALKING) -> Distance:
    """Tabla 27: Mov miles/day, forced march double, combat Mov / 3 x 10 yards/round."""
    return _distance("campo_abierto", OutdoorMode(modo).value, mov)


def forced_march_check(rng: random.Random, fuerza: int) -> EnduranceRoll:
    """Tabla 27's endurance roll for a forced march: 4d6 "vs Fuerza", roll under or equal."""
    spec = _row("campo_abierto", OutdoorMode.FORCED_MARCH.value)["aguante"]
    dice = tuple(rng.randint(1, spec["caras"]) for _ in range(spec["dados"]))
    total = sum(dice)
    return EnduranceRoll(dice, total, fuerza, total <= fuerza)


def minutes(turnos: int = 0, asaltos: int = 0) -> int:
    """Game time in minutes: a turn is 10 minutes, a combat round 1 minute."""
    return turnos * TURN_MINUTES + asaltos * ROUND_MINUTES
