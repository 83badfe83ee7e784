"""Races of seed 000 ("Elige una raza"): allowed classes, level limits, senses and bonuses.

The race texts override the class headers where they are stricter ("Raza: Todas" on the
Ladrón does not let a Enano be a single-class Ladrón: "Los personajes Enanos deben ser
Guerreros o Guerreros/Ladrones"), so allowed classes come only from each race's list of
combinations in ``data/swc/races.json``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from rules.swc.classes import CLASS_IDS
from rules.swc.data import DataError, load

__all__ = [
    "RACE_IDS",
    "LevelLimit",
    "Race",
    "UnknownRace",
    "allowed_combinations",
    "combination_allowed",
    "get_race",
    "level_limit",
    "race_save_bonus",
]

RACE_IDS: tuple[str, ...] = ("humano", "enano", "elfo", "semielfo", "mediano")
_APPLIES = ("todas", "clase_unica", "multiclase")


class UnknownRace(ValueError):
    """A race id that seed 000 does not define."""


@dataclass(frozen=True, slots=True)
class LevelLimit:
    """The highest level a race reaches in one class, raised by a high attribute."""

    clase: str
    aplica: str
    nivel: int
    extensiones: tuple[tuple[str, int, int], ...]  # (atributo, valor mínimo, nivel)

    def for_attributes(self, atributos: Mapping[str, int]) -> int:
        """The limit after the attribute-based extensions (Fuerza 17 → 7 for a Enano ...)."""
        best = self.nivel
        for atributo, valor, nivel in self.extensiones:
            if atributos.get(atributo, 0) >= valor:
                best = max(best, nivel)
        return best


@dataclass(frozen=True, slots=True)
class Race:
    """A playable race as its section in seed 000 describes it."""

    id: str
    nombre: str
    combinaciones: tuple[tuple[str, ...], ...]
    limites: tuple[LevelLimit, ...]
    infravision_pies: int
    puertas_secretas: int
    puertas_secretas_sin_buscar: int
    bonos_salvacion: Mapping[str, int]
    bono_proyectiles: int
    rasgos: tuple[str, ...]
    max_nivel_conjuro: Mapping[str, int]
    opcional: Mapping[str, Any]


def _limits(raw: Iterable[Mapping[str, Any]], where: str) -> tuple[LevelLimit, ...]:
    out = []
    for item in raw:
        if item["clase"] not in CLASS_IDS or item["aplica"] not in _APPLIES:
            raise DataError(f"{where}: bad level limit {item!r}")
        ext = tuple((e["atributo"], int(e["valor"]), int(e["nivel"])) for e in item["extensiones"])
        if any(level <= int(item["nivel"]) for _, _, level in ext):
            raise DataError(f"{where}: an extension must raise the limit {item!r}")
        out.append(LevelLimit(item["clase"], item["aplica"], int(item["nivel"]), ext))
    return tuple(out)


@cache
def _races() -> Mapping[str, Race]:
    out: dict[str, Race] = {}
    for raw in load("races")["razas"]:
        where = f"data/swc/races.json {raw.get('id')}"
        combos = tuple(tuple(c) for c in raw["combinaciones"])
        if any(c not in CLASS_IDS for combo in combos for c in combo):
            raise DataError(f"{where}: unknown class in {combos}")
        opcional = dict(raw.get("opcional", {}))
        if opcional:
            opcional["combinaciones"] = tuple(tuple(c) for c in opcional["combinaciones"])
            opcional["limites"] = _limits(opcional["limites"], where)
        out[raw["id"]] = Race(
            id=raw["id"],
            nombre=raw["nombre"],
            combinaciones=combos,
            limites=_limits(raw["limites"], where),
            infravision_pies=int(raw["infravision_pies"]),
            puertas_secretas=int(raw["puertas_secretas"]),
            puertas_secretas_sin_buscar=int(raw["puertas_secretas_sin_buscar"]),
            bonos_salvacion=MappingProxyType(dict(raw["bonos_salvacion"])),
            bono_proyectiles=int(raw["bono_proyectiles"]),
            rasgos=tuple(raw["rasgos"]),
            max_nivel_conjuro=MappingProxyType(dict(raw.get("max_nivel_conjuro", {}))),
            opcional=MappingProxyType(opcional),
        )
    if tuple(out) != RACE_IDS:
        raise DataError(f"data/swc/races.json: races must be {RACE_IDS}, got {tuple(out)}")
    return MappingProxyType(out)


def get_race(raza: str) -> Race:
    """The race ``raza`` (``"elfo"``); raises :class:`UnknownRace`."""
    try:
        return _races()[raza]
    except KeyError:
        raise UnknownRace(raza) from None


def allowed_combinations(
    raza: str, *, enano_guerrero_clerigo: bool = False
) -> tuple[tuple[str, ...], ...]:
    """The class combinations a player character of ``raza`` may take.

    ``enano_guerrero_clerigo`` is the campaign setting that lets a Enano player be
    Guerrero/Clérigo ("Incluso puede que el Árbitro permita a los jugadores elegir esta
    combinación").
    """
    race = get_race(raza)
    combos = race.combinaciones
    if enano_guerrero_clerigo and race.opcional:
        combos += race.opcional["combinaciones"]
    return combos


def combination_allowed(
    raza: str, clases: Iterable[str], *, enano_guerrero_clerigo: bool = False
) -> bool:
    """Whether ``clases`` (in any order) is one of the race's combinations."""
    wanted = sorted(clases)
    return any(
        sorted(c) == wanted
        for c in allowed_combinations(raza, enano_guerrero_clerigo=enano_guerrero_clerigo)
    )


def level_limit(
    raza: str,
    clase: str,
    atributos: Mapping[str, int],
    *,
    multiclase: bool,
    enano_guerrero_clerigo: bool = False,
) -> int | None:
    """The highest level ``raza`` reaches as ``clase`` (``None`` when unlimited)."""
    race = get_race(raza)
    limits = race.limites
    if enano_guerrero_clerigo and race.opcional:
        limits += race.opcional["limites"]
    scope = "multiclase" if multiclase else "clase_unica"
    found = [
        lim.for_attributes(atributos)
        for lim in limits
        if lim.clase == clase and lim.aplica in ("todas", scope)
    ]
    return min(found) if found else None


def race_save_bonus(raza: str, amenazas: Iterable[str]) -> int:
    """The race's save bonus against the threat (Enano and Mediano: +4 against magic)."""
    bonuses = get_race(raza).bonos_salvacion
    return max((bonuses.get(a, 0) for a in amenazas), default=0)
