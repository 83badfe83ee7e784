"""Reading an swc sheet (a plain JSON dict) into the facts the rules need.

The sheet stores only what the player chooses or rolls (race, classes, alignment,
attributes, total XP, hit points, armour, coins); everything else (levels, saves, thief
skills ...) is derived every time, so a table fix never leaves stale numbers in a database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.swc.attributes import ATTRIBUTE_ORDER
from rules.swc.multiclass import class_levels, split_xp
from rules.swc.races import level_limit
from rules.systems.base import Settings, Sheet

__all__ = [
    "Character",
    "DEFAULT_SETTINGS",
    "NO_ARMOUR",
    "character",
    "classes_of",
    "setting",
]

NO_ARMOUR = frozenset({"", "ninguna", "ninguno"})

DEFAULT_SETTINGS: Mapping[str, Any] = {
    "ca_ascendente": False,
    "minimos_originales": False,
    "salvaciones_alternativas": False,
    "avance_lento_tras_limite": False,
    "secuencia_combate": "estandar",
    "bono_fuerza_no_guerreros": 0,
    "fuerza_en_proyectiles": True,
    "conjuro_extra_sabiduria": True,
    "asesino_tabla_6": False,
    "enano_guerrero_clerigo": False,
    "monjes_permitidos": False,
    "bono_fuego_druida": 2,
    "curacion_por_dia": 1,
    "conjuros": "",
}


def setting(settings: Settings, key: str) -> Any:
    """A campaign setting, falling back to this system's default."""
    return settings.get(key, DEFAULT_SETTINGS[key])


def classes_of(sheet: Sheet) -> tuple[str, ...]:
    """The sheet's classes: a list, or the ``"guerrero/mago"`` text ``/sheet set`` stores."""
    raw = sheet.get("clases", ())
    if isinstance(raw, str):
        return tuple(c.strip() for c in raw.split("/") if c.strip())
    return tuple(raw)


@dataclass(frozen=True, slots=True)
class Character:
    """A validated sheet's facts: per-class XP and level, with race limits applied."""

    raza: str
    clases: tuple[str, ...]
    atributos: Mapping[str, int]
    xp: int
    xp_por_clase: Mapping[str, int]
    niveles: Mapping[str, int]
    limites: Mapping[str, int | None]
    armadura: str | None
    escudo: bool
    armadura_magica: bool

    @property
    def multiclase(self) -> bool:
        return len(self.clases) > 1

    def at_limit(self) -> bool:
        """True when every class has a race limit and has reached it (slow advancement applies)."""
        return all(
            (cap := self.limites[c]) is not None and self.niveles[c] >= cap for c in self.clases
        )


def _lifted(sheet: Sheet, clases: tuple[str, ...], limits: Mapping[str, int | None]) -> set[str]:
    """Classes freed from their limit by the slower-advancement option."""
    if len(clases) == 1:
        return set(clases)
    chosen = sheet.get("clase_tras_limite")
    if chosen in clases and all(limits[c] is not None for c in clases):
        return {chosen}
    return set()


def character(sheet: Sheet, settings: Settings) -> Character:
    """The facts of a sheet that :meth:`SwcSystem.validate` accepted."""
    clases = classes_of(sheet)
    raza = sheet["raza"]
    atributos = {a: int(sheet["atributos"][a]) for a in ATTRIBUTE_ORDER}
    xp = int(sheet.get("xp", 0))
    xp_by_class = split_xp(xp, clases)
    dwarf_cleric = bool(setting(settings, "enano_guerrero_clerigo"))
    limits = {
        c: level_limit(
            raza, c, atributos, multiclase=len(clases) > 1, enano_guerrero_clerigo=dwarf_cleric
        )
        for c in clases
    }
    lifted = _lifted(sheet, clases, limits) if setting(settings, "avance_lento_tras_limite") else ()
    levels = class_levels(
        raza, clases, xp_by_class, atributos, sin_limite=lifted, enano_guerrero_clerigo=dwarf_cleric
    )
    armour = sheet.get("armadura")
    return Character(
        raza=raza,
        clases=clases,
        atributos=atributos,
        xp=xp,
        xp_por_clase=xp_by_class,
        niveles=levels,
        limites=limits,
        armadura=None if armour is None or str(armour).strip().lower() in NO_ARMOUR else armour,
        escudo=bool(sheet.get("escudo", False)),
        armadura_magica=bool(sheet.get("armadura_magica", False)),
    )
