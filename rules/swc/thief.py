"""Thief skills: Ladrón (Tabla 13), Asesino (Tabla 6 / "a Ladrón two levels lower"), Monje
(Tabla 17), with the non-human bonuses of Tabla 14.

Percentages are chances on d100; ``escuchar_ruidos`` is "x in 6" and is returned as ``x``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from rules.swc.classes import get_class
from rules.swc.data import DataError, load

__all__ = ["SKILLS", "is_percent", "racial_bonus", "thief_skills"]

SKILLS: tuple[str, ...] = (
    "escalar_muros",
    "tareas_delicadas",
    "escuchar_ruidos",
    "ocultarse_en_las_sombras",
    "moverse_en_silencio",
    "forzar_cerraduras",
)


@cache
def _tables() -> Mapping[str, tuple[Mapping[str, int], ...]]:
    raw = load("thief_skills")
    out: dict[str, tuple[Mapping[str, int], ...]] = {}
    for name, table in raw["tablas"].items():
        rows = tuple(MappingProxyType(dict(r)) for r in table["filas"])
        first = rows[0]["nivel"]
        if [r["nivel"] for r in rows] != list(range(first, first + len(rows))):
            raise DataError(f"thief_skills.json: {name} levels not contiguous")
        for prev, cur in zip(rows, rows[1:], strict=False):
            if any(cur[s] < prev[s] for s in SKILLS):
                raise DataError(f"thief_skills.json: {name} skill worsens at {cur['nivel']}")
        out[name] = rows
    return MappingProxyType(out)


@cache
def _racial() -> Mapping[str, Mapping[str, int]]:
    rows = load("thief_skills")["bonos_raciales"]["filas"]
    return MappingProxyType(
        {r["raza"]: MappingProxyType({s: int(r.get(s, 0)) for s in SKILLS}) for r in rows}
    )


def is_percent(skill: str) -> bool:
    """True for d100 skills, False for ``escuchar_ruidos`` ("x en 6")."""
    return bool(load("thief_skills")["porcentaje"][skill])


def racial_bonus(raza: str) -> dict[str, int]:
    """Tabla 14: the non-human bonus to each skill (all zero for humans and semielfos)."""
    return dict(_racial().get(raza, dict.fromkeys(SKILLS, 0)))


def _lookup(table: str, nivel: int) -> dict[str, int] | None:
    rows = _tables()[table]
    if nivel < rows[0]["nivel"]:
        return None
    row = rows[min(nivel - rows[0]["nivel"], len(rows) - 1)]
    return {s: int(row[s]) for s in SKILLS}


def thief_skills(
    clase: str, nivel: int, raza: str = "humano", *, tabla_asesino: bool = False
) -> dict[str, int]:
    """The thief skills of a ``clase`` character at ``nivel``; ``{}`` for classes without them.

    The Asesino uses the Ladrón's values two levels lower (the written rule) unless
    ``tabla_asesino`` asks for Tabla 6 as printed; at levels 1–2 an Asesino has none.  Tabla 14
    bonuses are added and a percentage never exceeds 100 (nor "6 in 6").
    """
    table = get_class(clase).habilidades_ladron
    if table is None:
        return {}
    if table == "asesino" and not tabla_asesino:
        skills = _lookup("ladron", nivel - 2) if nivel > 2 else None
    else:
        skills = _lookup(table, nivel)
    if skills is None:
        return {}
    bonus = racial_bonus(raza)
    return {s: min(v + bonus[s], 100 if is_percent(s) else 6) for s, v in skills.items()}
