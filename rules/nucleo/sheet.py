"""The Núcleo character sheet: its JSON shape, its settings, and a typed read-only view.

A sheet is the plain dict the database stores (documented in docs/systems/nucleo.md)::

    {"name": "Ardelia", "system": "nucleo",
     "atributos": {"Físico": 6, "Destreza": 7, "Inteligencia": 9, "Percepción": 8, "Carisma": 7},
     "piramide": "versatil", "habilidades": {"Pilotar": 6, ...}, "hechizos": {"Curación": 2},
     "ventaja": "Rápido", "raza": "Humano", "ventaja_racial": None,
     "heridas": 0, "mana_gastado": 0, "token": True, "px": 0, "dinero": 120, "notas": "",
     "equipo": {"arma_principal": "Espada larga", "dos_manos": False, "arma_secundaria": None,
                "armadura": "Cota de mallas", "escudo": True, "otros": {"Linterna": 1}}}

An NPC stat block (``/npc create``) also has ``"pnj": True`` and may fix its PV with
``"pv_maximo"``; ``otros`` may be a list of names (one of each) as older sheets wrote it.

:func:`character` reads one (tolerating missing keys) so the rest of the package works on
typed values instead of ``dict.get`` chains.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.nucleo import health
from rules.nucleo.checks import FUMBLE_MODES, TOKEN_MODES
from rules.nucleo.creation import advantages_of, find_race
from rules.nucleo.data import ATTRIBUTES, Race
from rules.nucleo.derived import Derived, compute
from rules.nucleo.equipment import Loadout, loadout
from rules.nucleo.magic import SAVE_MODES
from rules.systems.base import FieldKind, Problem, SettingSpec

__all__ = [
    "SETTINGS",
    "Character",
    "carried",
    "character",
    "is_npc",
    "equipment_items",
    "new_sheet",
    "normalise",
    "setting",
]

SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec("razas", FieldKind.BOOLEAN, True),
    SettingSpec("ventajas", FieldKind.BOOLEAN, True),
    SettingSpec("magia", FieldKind.BOOLEAN, True),
    SettingSpec("armaduras_especiales", FieldKind.BOOLEAN, True),
    # seed 002: «costarían un ojo de la cara. O necesitarian hacer misiones especiales»
    SettingSpec("armaduras_especiales_al_crear", FieldKind.BOOLEAN, False),
    SettingSpec("creacion_estricta", FieldKind.BOOLEAN, True),
    SettingSpec("muro_estados", FieldKind.CHOICE, "desplazar", health.MURO_MODES),
    SettingSpec("token_contra_menor", FieldKind.CHOICE, "anula", TOKEN_MODES),
    SettingSpec("dividir_con_menor", FieldKind.CHOICE, "permitido", ("permitido", "prohibido")),
    SettingSpec("pifia_con_menor", FieldKind.CHOICE, "dado_siguiente", FUMBLE_MODES),
    SettingSpec("salvacion", FieldKind.CHOICE, "fija", SAVE_MODES),
    SettingSpec("dados_extra_distancia", FieldKind.BOOLEAN, False),
    SettingSpec("moneda", FieldKind.TEXT, "créditos"),
    # the advancement table (house rule: seed 002 gives PX no costs; rules/nucleo/advancement.py)
    SettingSpec("px_habilidad", FieldKind.INTEGER, 2, minimum=1, maximum=100),
    SettingSpec("px_atributo", FieldKind.INTEGER, 3, minimum=1, maximum=100),
    SettingSpec("mejoras_con_aprobacion", FieldKind.BOOLEAN, True),
    # healing between fights (issue 23 §3; rules/nucleo/recovery.py): «Recuperar el aliento»
    # once after each fight or freely; the PV a day of rest heals (the seed gives none)
    SettingSpec("recuperar_aliento", FieldKind.CHOICE, "una_por_combate", health.BREATH_RULES),
    SettingSpec("curacion_por_dia", FieldKind.INTEGER, 1, minimum=0, maximum=20),
)
_DEFAULTS = {spec.key: spec.default for spec in SETTINGS}


def setting(settings: Mapping[str, Any], key: str) -> Any:
    """A campaign setting, falling back to its default (and refusing an unknown choice)."""
    value = settings.get(key, _DEFAULTS[key])
    spec = next(s for s in SETTINGS if s.key == key)
    if spec.kind is FieldKind.CHOICE and value not in spec.choices:
        return spec.default
    if spec.kind is FieldKind.TEXT and (not isinstance(value, str) or not value.strip()):
        return spec.default
    return value


def is_npc(sheet: Mapping[str, Any]) -> bool:
    """An NPC stat block: free attributes and skills, no pyramid (see :mod:`rules.nucleo.npc`)."""
    return sheet.get("pnj") is True


def carried(sheet: Mapping[str, Any]) -> dict[str, int]:
    """``equipo.otros`` as name → quantity (a list counts one of each; bad entries are skipped,
    :func:`normalise` reports them)."""
    equipo = sheet.get("equipo")
    raw = equipo.get("otros") if isinstance(equipo, Mapping) else None
    if isinstance(raw, Mapping):
        return {
            k: v
            for k, v in raw.items()
            if isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v > 0
        }
    if isinstance(raw, list):
        counts: dict[str, int] = {}
        for item in raw:
            if isinstance(item, str) and item.strip():
                counts[item] = counts.get(item, 0) + 1
        return counts
    return {}


def new_sheet(name: str) -> dict[str, Any]:
    """An empty sheet: every attribute at the minimum, nothing chosen yet."""
    return {
        "name": name,
        "system": "nucleo",
        "atributos": dict.fromkeys(ATTRIBUTES, 4),
        "piramide": "versatil",
        "habilidades": {},
        "hechizos": {},
        "ventaja": None,
        "raza": None,
        "ventaja_racial": None,
        "heridas": 0,
        "mana_gastado": 0,
        "token": True,
        "px": 0,
        "mejoras": [],
        "mejora_pendiente": None,
        "dinero": 0,
        "notas": "",
        "equipo": {
            "arma_principal": None,
            "dos_manos": False,
            "arma_secundaria": None,
            "armadura": None,
            "escudo": False,
            "otros": {},
        },
    }


_TABLES = ("atributos", "habilidades", "hechizos")
_TEXTS = ("piramide", "ventaja", "raza", "ventaja_racial", "mejora_pendiente")
_EQUIPMENT_TEXTS = ("arma_principal", "arma_secundaria", "armadura")


def normalise(sheet: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    """A copy of ``sheet`` whose containers have the documented types, plus a problem for each
    value that had to be dropped.  Sheets are hand-edited JSON: a list where a table belongs
    must become a message, not a ``TypeError`` deep inside a rule."""
    clean = dict(sheet)
    problems: list[Problem] = []
    for key in _TABLES:
        value = sheet.get(key)
        if value is None:
            clean[key] = {}
        elif not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
            problems.append(Problem("nucleo.problem.bad_table", key, {"field": key}))
            clean[key] = {}
    for key in _TEXTS:
        value = sheet.get(key)
        if value is not None and not isinstance(value, str):
            problems.append(Problem("nucleo.problem.bad_text", key, {"field": key}))
            clean[key] = None
    history = sheet.get("mejoras")
    if history is None:
        clean["mejoras"] = []
    elif not isinstance(history, list) or not all(isinstance(e, Mapping) for e in history):
        problems.append(Problem("nucleo.problem.bad_table", "mejoras", {"field": "mejoras"}))
        clean["mejoras"] = []
    equipo = sheet.get("equipo")
    if equipo is None:
        clean["equipo"] = {}
    elif not isinstance(equipo, Mapping):
        problems.append(Problem("nucleo.problem.bad_equipment", "equipo"))
        clean["equipo"] = {}
    else:
        clean["equipo"] = dict(equipo)
        for key in _EQUIPMENT_TEXTS:
            value = equipo.get(key)
            if value is not None and not isinstance(value, str):
                path = f"equipo.{key}"
                problems.append(Problem("nucleo.problem.bad_text", path, {"field": path}))
                clean["equipo"][key] = None
        others = equipo.get("otros")
        if others is not None and not _inventory_ok(others):
            problems.append(Problem("nucleo.problem.bad_inventory", "equipo.otros"))
            clean["equipo"]["otros"] = carried(clean)
    return clean, problems


def _inventory_ok(others: Any) -> bool:
    """``otros``: names → positive quantities, or (older sheets) a list of names."""
    if isinstance(others, Mapping):
        return all(
            isinstance(k, str)
            and k.strip()
            and isinstance(v, int)
            and not isinstance(v, bool)
            and v > 0
            for k, v in others.items()
        )
    return isinstance(others, list) and all(isinstance(o, str) and o.strip() for o in others)


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def equipment_items(sheet: Mapping[str, Any]) -> list[str]:
    """The catalogue names the sheet's ``equipo`` refers to, for :func:`equipment.loadout`."""
    equipo = sheet.get("equipo") or {}
    if not isinstance(equipo, Mapping):
        return []
    items: list[Any] = [equipo.get(k) for k in ("arma_principal", "arma_secundaria", "armadura")]
    if equipo.get("escudo"):
        items.append("Escudo")
    return [item for item in items if isinstance(item, str) and item]


@dataclass(frozen=True, slots=True)
class Character:
    """A sheet read under a campaign's settings."""

    attributes: Mapping[str, int]
    skills: Mapping[str, int]
    spells: Mapping[str, int]
    advantages: frozenset[str]
    race: Race | None
    loadout: Loadout
    derived: Derived
    wounds: int
    state: str
    limits: health.Thresholds
    mana_spent: int
    token: bool

    @property
    def mana_left(self) -> int:
        return max(0, self.derived.mana - self.mana_spent)


def character(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Character:
    """Read ``sheet``; values that validation would reject are read as 0 / absent."""
    sheet, _ = normalise(sheet)
    raw_attributes = sheet.get("atributos") or {}
    attributes = {name: _int(raw_attributes.get(name)) for name in ATTRIBUTES}
    skills = {k: _int(v) for k, v in (sheet.get("habilidades") or {}).items()}
    spells = (
        {k: _int(v) for k, v in (sheet.get("hechizos") or {}).items()}
        if setting(settings, "magia")
        else {}
    )
    races_on = setting(settings, "razas")
    race = find_race(sheet.get("raza")) if races_on else None
    advantages = advantages_of(
        sheet.get("ventaja"),
        sheet.get("raza"),
        sheet.get("ventaja_racial"),
        advantages_module=setting(settings, "ventajas"),
        races_module=races_on,
    )
    gear = loadout(equipment_items(sheet), advantages, race)
    values = compute(
        attributes, skills, advantages, estorbo=gear.estorbo, defensa_bonus=gear.defensa_bonus
    )
    wounds = max(0, _int(sheet.get("heridas")))
    fixed_pv = _int(sheet.get("pv_maximo")) if is_npc(sheet) else 0
    if fixed_pv > 0:
        values = replace(values, pv=fixed_pv)
        limits = health.thresholds_from_pv(fixed_pv)
    else:
        limits = health.thresholds(
            attributes["Físico"], "Muro" in advantages, setting(settings, "muro_estados")
        )
    state = health.state_for(limits, wounds)
    return Character(
        attributes=attributes,
        skills=skills,
        spells=spells,
        advantages=advantages,
        race=race,
        loadout=gear,
        derived=values,
        wounds=wounds,
        state=state,
        limits=limits,
        mana_spent=max(0, _int(sheet.get("mana_gastado"))),
        token=sheet.get("token") is True,
    )
