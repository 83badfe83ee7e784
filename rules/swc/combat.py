"""Attack rolls for Swords & Wizardry Completo: Tablas 29-32 of seed 000.

The tables live in ``data/swc/attack_tables.json`` and are read, validated and indexed
here once.  Every answer is "the d20 roll needed", so the descending system (the book's
official one) and the ascending one ([brackets]) share a single source of truth: an
ascending AC is converted before the lookup, never given its own table.

The printed tables cover AC 9 [10] to -9 [28].  A character can fall outside (Destreza
3-8 leaves an unarmoured one at 10 [9]; magic goes below -9), so beyond the printed
columns the lookup keeps the tables' own diagonal: one AC point is one point on the d20,
never below 1 (the tables' floor).  Levels above the last band use the last band: the
tables stop at level 20 (``docs/rules-decisions.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.swc.data import DataError, load
from rules.text import fold

__all__ = [
    "ATTACK_TABLE_FOR_CLASS",
    "DESCENDING_RANGE",
    "ASCENDING_RANGE",
    "AttackTable",
    "AttackBand",
    "descending_to_ascending",
    "ascending_to_descending",
    "attack_table",
    "monster_table",
    "to_hit_target",
    "attack_bonus",
    "monster_hit_dice",
    "monster_to_hit_target",
    "monster_attack_bonus",
    "hits",
    "normalize_class",
]

#: Printed columns, best AC last: 9 [10] ... -9 [28].
DESCENDING_RANGE: tuple[int, ...] = tuple(range(9, -10, -1))
ASCENDING_RANGE: tuple[int, ...] = tuple(range(10, 29))

#: Class id -> key of its table in the data file (Tabla 29 clérigo, 30 ladrón, 31 guerrero).
ATTACK_TABLE_FOR_CLASS: dict[str, str] = {
    "clerigo": "clerigo",
    "druida": "clerigo",
    "monje": "clerigo",
    "asesino": "ladron",
    "ladron": "ladron",
    "mago": "ladron",
    "guerrero": "guerrero",
    "paladin": "guerrero",
    "explorador": "guerrero",
}


@dataclass(frozen=True, slots=True)
class AttackBand:
    """One printed row: a band of levels (or Hit Dice) and its targets for AC 9..-9."""

    low: int
    high: int
    targets: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AttackTable:
    """One attack table as the book prints it, with the seed table it comes from."""

    key: str
    table: str
    title: str
    classes: tuple[str, ...]
    bands: tuple[AttackBand, ...]

    def band_for(self, level: int) -> AttackBand:
        """The band holding ``level``; levels past the last band use the last one."""
        if level < 1:
            raise ValueError(f"level must be 1 or more, got {level}")
        for band in self.bands:
            if band.low <= level <= band.high:
                return band
        return self.bands[-1]


def normalize_class(name: str) -> str:
    """``"Paladín"`` -> ``"paladin"``: ids are lower-case ASCII, users type accents."""
    return fold(name)


def descending_to_ascending(ca: int) -> int:
    """9 -> [10], 0 -> [19], -9 -> [28]: the two systems always add up to 19."""
    return 19 - ca


def ascending_to_descending(ca: int) -> int:
    """[10] -> 9, [19] -> 0, [28] -> -9 (inverse of :func:`descending_to_ascending`)."""
    return 19 - ca


def _targets(raw: Any, where: str) -> tuple[int, ...]:
    if (
        not isinstance(raw, list)
        or len(raw) != len(DESCENDING_RANGE)
        or not all(isinstance(v, int) and v >= 1 for v in raw)
    ):
        raise DataError(f"attack_tables {where}: 'objetivos' must be 19 integers >= 1")
    # The diagonal: one AC point better costs exactly one more on the d20 (above the floor).
    for worse, better in zip(raw, raw[1:], strict=False):
        if not (better == worse + 1 or (worse == 1 and better in (1, 2))):
            raise DataError(f"attack_tables {where}: targets break the diagonal: {raw}")
    return tuple(raw)


@cache
def _tables() -> dict[str, AttackTable]:
    data = load("attack_tables")
    result: dict[str, AttackTable] = {}
    for key, raw in data["tablas"].items():
        bands: list[AttackBand] = []
        expected_low = 1
        for row in raw["filas"]:
            low, high = row["niveles"]
            if low != expected_low or high < low:
                raise DataError(f"attack_tables {key}: bands must cover levels without gaps")
            bands.append(AttackBand(low, high, _targets(row["objetivos"], f"{key} {low}-{high}")))
            expected_low = high + 1
        result[key] = AttackTable(
            key, raw["tabla"], raw["titulo"], tuple(raw["clases"]), tuple(bands)
        )
    if set(ATTACK_TABLE_FOR_CLASS.values()) != set(result):
        raise DataError("attack_tables: expected the clerigo, ladron and guerrero tables")
    for cls, key in ATTACK_TABLE_FOR_CLASS.items():
        if cls not in result[key].classes:
            raise DataError(f"attack_tables: {cls} is not listed in table {key}")
    return result


@cache
def _monsters() -> AttackTable:
    raw = load("attack_tables")["monstruos"]
    bands = []
    for hd, row in enumerate(raw["filas"]):
        if row["bono"] != hd:
            raise DataError("attack_tables monstruos: rows must run <1, 1, 2 ... 15+ HD")
        bands.append(AttackBand(hd, hd, _targets(row["objetivos"], f"monstruos {hd}")))
    return AttackTable("monstruos", raw["tabla"], raw["titulo"], ("monstruo",), tuple(bands))


def attack_table(clase: str) -> AttackTable:
    """The table a class attacks on (Tabla 29, 30 or 31)."""
    cls = normalize_class(clase)
    try:
        return _tables()[ATTACK_TABLE_FOR_CLASS[cls]]
    except KeyError:
        raise ValueError(f"unknown class {clase!r}") from None


def monster_table() -> AttackTable:
    """Tabla 32, one band per Hit Die (band 0 is "<1 DG", the last is "15+")."""
    return _monsters()


def _lookup(band: AttackBand, ca: int, ascendente: bool) -> int:
    desc = ascending_to_descending(ca) if ascendente else ca
    index = 9 - desc  # column 0 is AC 9 [10]
    if 0 <= index < len(band.targets):
        return band.targets[index]
    # Outside the printed columns: extend from the nearest printed column (one per AC point).
    edge = 0 if index < 0 else len(band.targets) - 1
    return max(1, band.targets[edge] + (index - edge))


def to_hit_target(clase: str, nivel: int, ca: int, ascendente: bool = False) -> int:
    """The d20 roll (plus bonuses) a character of ``clase`` and ``nivel`` needs to hit ``ca``.

    ``ca`` is descending (9 ... -9) unless ``ascendente``, then ascending (10 ... 28).
    Tabla 29 for clérigo/druida/monje, 30 for asesino/ladrón/mago, 31 for
    guerrero/paladín/explorador.
    """
    return _lookup(attack_table(clase).band_for(nivel), ca, ascendente)


def attack_bonus(clase: str, nivel: int) -> int:
    """Attack bonus for the ascending system: hit when d20 + bonus >= [CA].

    The seed announces a "Método Rápido" but its text ends before it, so the bonus is read
    off the table itself: [28] minus the roll needed against -9 [28], the one column no
    band reaches the floor of 1 in.  It reproduces every table cell above that floor.
    """
    band = attack_table(clase).band_for(nivel)
    return ASCENDING_RANGE[-1] - band.targets[-1]


_HD = re.compile(
    r"^\s*(?:(?P<less><\s*1)|(?P<frac>\d+\s*/\s*\d+)|(?P<n>\d+)\s*(?:[+-]\s*\d+)?\s*\+?)\s*$"
)


def monster_hit_dice(dados_golpe: int | str) -> int:
    """Tabla 32's row for a Hit Dice entry: ``"<1"``/``"1/2"`` -> 0, ``"4+1"`` -> 4, ``20`` -> 15.

    The "+1" of "4+1" adds hit points, not a die, so the row is the whole number; every
    monster of 15 HD or more uses the "15+" row.
    """
    if isinstance(dados_golpe, bool):
        raise ValueError("Hit Dice must be a number or text like '4+1'")
    if isinstance(dados_golpe, int):
        hd = dados_golpe
    else:
        match = _HD.match(dados_golpe)
        if not match:
            raise ValueError(f"unreadable Hit Dice {dados_golpe!r}")
        hd = 0 if match["less"] or match["frac"] else int(match["n"])
    if hd < 0:
        raise ValueError(f"Hit Dice cannot be negative: {dados_golpe!r}")
    return min(hd, len(_monsters().bands) - 1)


def monster_to_hit_target(dados_golpe: int | str, ca: int, ascendente: bool = False) -> int:
    """The d20 roll a monster of ``dados_golpe`` Hit Dice needs to hit ``ca`` (Tabla 32)."""
    return _lookup(_monsters().bands[monster_hit_dice(dados_golpe)], ca, ascendente)


def monster_attack_bonus(dados_golpe: int | str) -> int:
    """Ascending-system bonus of a monster: its Hit Dice, at most +15 (Tabla 32's rows)."""
    band = _monsters().bands[monster_hit_dice(dados_golpe)]
    return ASCENDING_RANGE[-1] - band.targets[-1]


def hits(roll: int, modifiers: int, target: int) -> bool:
    """Whether a d20 ``roll`` plus ``modifiers`` reaches ``target`` ("igual o superior")."""
    return roll + modifiers >= target
