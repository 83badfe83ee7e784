"""The nine classes of seed 000 (Tablas 7–19), loaded from ``data/swc/classes/<id>.json``.

Each class file transcribes one advancement table row by row (levels 1–20, the Ladrón 1–15)
plus the printed "21+" rule (``mas_alla``), so every level a character can reach is computed
from data, never from a Python copy of a table.  The loader checks the shape *and* the
progressions the book implies (XP strictly rising, saves never worsening, hit dice never
shrinking) so that a transcription slip fails at import time instead of at the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

from rules.swc.data import DataError, load

__all__ = [
    "ALIGNMENTS",
    "CLASS_IDS",
    "AdvancementRow",
    "CharacterClass",
    "MonkProgress",
    "UnknownClass",
    "abilities",
    "advancement",
    "backstab",
    "get_class",
    "monk_progress",
    "parry_penalty",
]

CLASS_IDS: tuple[str, ...] = (
    "asesino",
    "clerigo",
    "druida",
    "explorador",
    "guerrero",
    "ladron",
    "mago",
    "monje",
    "paladin",
)
ALIGNMENTS: tuple[str, ...] = ("legal", "neutral", "caotico")

_ROW_KEYS = {"tabla", "nivel", "px", "dados_golpe", "pg_extra", "salvacion"}


class UnknownClass(ValueError):
    """A class id that seed 000 does not define (ids are lower-case, without accents)."""


@dataclass(frozen=True, slots=True)
class AdvancementRow:
    """One level of a class's advancement table (printed or computed from the 21+ rule).

    ``conjuros`` maps a spell list (``"clerigo"``, ``"druida"``, ``"mago"``) to spell level
    -> slots; ``extra`` holds class-specific columns (the Druida's ``posicion``, the Monje's
    ``ca``, ``dano_desarmado`` ...).
    """

    nivel: int
    px: int
    dados_golpe: int
    pg_extra: int
    salvacion: int
    tabla: str
    conjuros: Mapping[str, Mapping[int, int]] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CharacterClass:
    """A class as its description in seed 000 gives it (restrictions, dice, table)."""

    id: str
    nombre: str
    tabla: str
    atributos_primarios: tuple[str, ...]
    dado_golpe: int
    max_dados_golpe: int
    pg_por_nivel_tras_max: int
    razas: tuple[str, ...]
    alineamientos: tuple[str, ...]
    armaduras: str | tuple[str, ...]
    escudo: str
    armas: str | tuple[str, ...]
    bonos_salvacion: Mapping[str, int]
    minimos_originales: Mapping[str, int]
    habilidades_ladron: str | None
    habilidades: tuple[tuple[int, str], ...]
    avance: tuple[AdvancementRow, ...]
    mas_alla: Mapping[str, Any]
    parada: Mapping[int, int]
    apunalar: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class MonkProgress:
    """The Monje's own columns of Tabla 18 at one level."""

    ca: int
    ca_ascendente: int
    dano_desarmado: str
    movimiento: int
    ataques_desarmado: int
    bono_dano_armas: int


def _names(value: str | list[str]) -> str | tuple[str, ...]:
    """A class's armour or weapons: one word (``"todas"``) or a list of names."""
    return value if isinstance(value, str) else tuple(value)


def _spells(raw: Mapping[str, Mapping[str, int]], where: str) -> Mapping[str, Mapping[int, int]]:
    out: dict[str, Mapping[int, int]] = {}
    for spell_list, levels in raw.items():
        parsed = {int(k): int(v) for k, v in levels.items()}
        if any(k < 1 or k > 9 or v < 1 for k, v in parsed.items()):
            raise DataError(f"{where}: bad spell slots {levels!r}")
        out[spell_list] = MappingProxyType(parsed)
    return MappingProxyType(out)


def _row(raw: Mapping[str, Any], where: str) -> AdvancementRow:
    missing = _ROW_KEYS - raw.keys()
    if missing:
        raise DataError(f"{where}: missing {sorted(missing)}")
    extra = {k: v for k, v in raw.items() if k not in _ROW_KEYS | {"conjuros"}}
    return AdvancementRow(
        nivel=int(raw["nivel"]),
        px=int(raw["px"]),
        dados_golpe=int(raw["dados_golpe"]),
        pg_extra=int(raw["pg_extra"]),
        salvacion=int(raw["salvacion"]),
        tabla=str(raw["tabla"]),
        conjuros=_spells(raw.get("conjuros", {}), where),
        extra=MappingProxyType(extra),
    )


def _check_progressions(cls: CharacterClass) -> None:
    """Reject a table that breaks the progressions every advancement table in the book obeys."""
    rows = cls.avance
    where = f"data/swc/classes/{cls.id}.json"
    if [r.nivel for r in rows] != list(range(1, len(rows) + 1)) or rows[0].px != 0:
        raise DataError(f"{where}: levels must run 1..n from 0 XP")
    for prev, cur in zip(rows, rows[1:], strict=False):
        if cur.px <= prev.px:
            raise DataError(f"{where}: XP not increasing at level {cur.nivel}")
        if cur.salvacion > prev.salvacion:
            raise DataError(f"{where}: saving throw worsens at level {cur.nivel}")
        if (cur.dados_golpe, cur.pg_extra) < (prev.dados_golpe, prev.pg_extra):
            raise DataError(f"{where}: hit dice shrink at level {cur.nivel}")
        if cur.dados_golpe > cls.max_dados_golpe:
            raise DataError(f"{where}: more than {cls.max_dados_golpe} hit dice at {cur.nivel}")
        for spell_list, levels in prev.conjuros.items():
            for spell_level, slots in levels.items():
                if cur.conjuros.get(spell_list, {}).get(spell_level, 0) < slots:
                    raise DataError(f"{where}: spell slots shrink at level {cur.nivel}")
    beyond = cls.mas_alla
    if beyond["desde_nivel"] != len(rows) + 1 or beyond["salvacion"] > rows[-1].salvacion:
        raise DataError(f"{where}: 'mas_alla' does not continue the table")
    if cls.armaduras != "todas" and not isinstance(cls.armaduras, tuple):
        raise DataError(f"{where}: armaduras must be 'todas' or a list")
    if not set(cls.alineamientos) <= set(ALIGNMENTS):
        raise DataError(f"{where}: unknown alignment in {cls.alineamientos}")


@cache
def get_class(clase: str) -> CharacterClass:
    """The validated class ``clase`` (``"guerrero"``); raises :class:`UnknownClass`."""
    if clase not in CLASS_IDS:
        raise UnknownClass(clase)
    raw = load(f"classes/{clase}")
    where = f"data/swc/classes/{clase}.json"
    try:
        beyond = dict(raw["mas_alla"])
        if "conjuros" in beyond:
            beyond["conjuros"] = _spells(beyond["conjuros"], where)
        cls = CharacterClass(
            id=raw["id"],
            nombre=raw["nombre"],
            tabla=raw["fuente"]["tabla"],
            atributos_primarios=tuple(raw["atributos_primarios"]),
            dado_golpe=int(raw["dado_golpe"]),
            max_dados_golpe=int(raw["max_dados_golpe"]),
            pg_por_nivel_tras_max=int(raw["pg_por_nivel_tras_max"]),
            razas=tuple(raw["razas"]),
            alineamientos=tuple(raw["alineamientos"]),
            armaduras=_names(raw["armaduras"]),
            escudo=raw["escudo"],
            armas=_names(raw["armas"]),
            bonos_salvacion=MappingProxyType(dict(raw["bonos_salvacion"])),
            minimos_originales=MappingProxyType(dict(raw["minimos_originales"])),
            habilidades_ladron=raw.get("habilidades_ladron"),
            habilidades=tuple((int(h["nivel"]), h["nombre"]) for h in raw["habilidades"]),
            avance=tuple(_row(r, f"{where} nivel {r.get('nivel')}") for r in raw["avance"]),
            mas_alla=MappingProxyType(beyond),
            parada=MappingProxyType(
                {int(p["destreza"]): int(p["penalizador"]) for p in raw.get("parada", [])}
            ),
            apunalar=raw.get("apunalar"),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, DataError):
            raise
        raise DataError(f"{where}: {exc!r}") from exc
    if cls.id != clase:
        raise DataError(f"{where}: id {cls.id!r} does not match the file name")
    _check_progressions(cls)
    return cls


def advancement(clase: str, nivel: int) -> AdvancementRow:
    """The advancement row for ``nivel`` (≥ 1), extending the table with its "21+" rule.

    Past the last printed row the book gives XP per extra level, hit points per extra level
    and a fixed save; spell slots and the Monje's columns stay at their "21+" values (the
    book's "siguen ganando conjuros según el mismo patrón" names no pattern, so we do not
    invent one: see docs/rules-decisions.md).
    """
    if nivel < 1:
        raise ValueError(f"level must be >= 1, got {nivel}")
    cls = get_class(clase)
    if nivel <= len(cls.avance):
        return cls.avance[nivel - 1]
    last = cls.avance[-1]
    beyond = cls.mas_alla
    steps = nivel - last.nivel
    extra = {
        k: v
        for k, v in beyond.items()
        if k
        not in {"tabla", "desde_nivel", "px_por_nivel", "pg_por_nivel", "salvacion", "conjuros"}
    }
    if "dano_desarmado" in extra:
        per_level = extra.pop("dano_desarmado_extra_por_nivel")
        dice, _, bonus = str(extra["dano_desarmado"]).partition("+")
        extra["dano_desarmado"] = f"{dice}+{int(bonus or 0) + per_level * steps}"
    return AdvancementRow(
        nivel=nivel,
        px=last.px + steps * int(beyond["px_por_nivel"]),
        dados_golpe=last.dados_golpe,
        pg_extra=last.pg_extra + steps * int(beyond["pg_por_nivel"]),
        salvacion=int(beyond["salvacion"]),
        tabla=str(beyond["tabla"]),
        conjuros=beyond.get("conjuros", last.conjuros),
        extra=MappingProxyType({**last.extra, **extra}),
    )


def abilities(clase: str, nivel: int) -> tuple[str, ...]:
    """The named class abilities a ``clase`` character has at ``nivel`` (Spanish terms)."""
    return tuple(name for level, name in get_class(clase).habilidades if level <= nivel)


def parry_penalty(destreza: int) -> int:
    """Tabla 12: the penalty a Guerrero fighting defensively imposes on enemy attacks (≤ 0)."""
    table = get_class("guerrero").parada
    eligible = [d for d in table if d <= destreza]
    return table[max(eligible)] if eligible else 0


def monk_progress(nivel: int) -> MonkProgress:
    """Tabla 18's Monje columns: AC (both notations), unarmed damage, move, attacks, weapon bonus.

    The weapon damage bonus follows the written rule ("+1 at 2, +1 more every two levels",
    i.e. ``nivel // 2``), which the table shows only up to +5.
    """
    row = advancement("monje", nivel)
    return MonkProgress(
        ca=int(row.extra["ca"]),
        ca_ascendente=int(row.extra["ca_ascendente"]),
        dano_desarmado=str(row.extra["dano_desarmado"]),
        movimiento=int(row.extra["movimiento"]),
        ataques_desarmado=int(row.extra["ataques_desarmado"]),
        bono_dano_armas=nivel // 2,
    )


def backstab(clase: str, nivel: int) -> tuple[int, int] | None:
    """Apuñalar: ``(to-hit bonus, damage multiplier)`` at ``nivel``; ``None`` for other classes.

    Ladrón: +4, double damage, triple at 5–8, quadruple from 9; the Asesino's multiplier "aumenta
    por nivel de la misma forma que el de los Ladrones" (same levels).
    """
    rule = get_class(clase).apunalar
    if rule is None:
        return None
    steps = [(int(m["nivel"]), int(m["multiplicador"])) for m in rule["multiplicadores"]]
    return int(rule["bono_impactar"]), max(mult for level, mult in steps if level <= nivel)
