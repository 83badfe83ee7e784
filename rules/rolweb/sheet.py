"""The rolweb character sheet: its JSON shape, reading it, and checking it.

A sheet is a plain dict (see docs/systems/rolweb.md)::

    {"name": "Ardelia", "system": "rolweb", "pnj": false,
     "atributos": {"Ágil": 13, ...}, "habilidades": {"Medicus": "adepto"},
     "xp": {"total": 30, "gastada": 30}, "resistencia": {"actual": 12},
     "armas": ["Espada", {"nombre": "Garrote", "dano": "1d6", "cualidades": []}],
     "armadura": "Ligera", "escudo": "ninguno", "estado": "activo", "fallos_muerte": 0,
     "equipo": {"Cuerda": 1}, "dinero": 12, "notas": ""}

Resistencia's maximum is not stored: it is always ``toughness(Fuerte)``, so editing Fuerte
cannot leave a stale maximum behind.  Only an NPC's stat block may fix its own
(``resistencia.maxima``), for monsters tougher than any Fuerte.  Player characters follow
the campaign's creation method; NPCs only need attributes 1-20.  Readers here never mutate
a sheet.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.rolweb.abilities import Level, find_ability, load_abilities
from rules.rolweb.advancement import Xp
from rules.rolweb.attributes import validate_attributes
from rules.rolweb.damage import LifeState, toughness
from rules.rolweb.equipment import (
    Armour,
    Shield,
    Weapon,
    load_armour,
    load_weapons,
    parse_armour,
    parse_weapon,
)
from rules.rolweb.settings import CreationMethod, RolwebSettings
from rules.systems.base import FieldKind, FieldSpec, Problem, RulesError
from rules.values import is_int

__all__ = [
    "SYSTEM_ID",
    "new_sheet",
    "attribute",
    "MAX_FIXED_TOUGHNESS",
    "fixed_toughness",
    "max_toughness",
    "current_toughness",
    "state",
    "is_player",
    "xp",
    "level",
    "shield",
    "weapons",
    "armour",
    "copy_sheet",
    "fields",
    "validate",
]

SYSTEM_ID = "rolweb"
MAX_FIXED_TOUGHNESS = 99  # a stat block's own Resistencia (dragons included)
LEVEL_CHOICES = tuple(level.term for level in Level)


def copy_sheet(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy to modify: systems never mutate the sheet they are given."""
    return copy.deepcopy(dict(sheet))


def new_sheet(name: str, settings: RolwebSettings) -> dict[str, Any]:
    """A fresh player character: every attribute 10 (80 points for the eight), no gear."""
    return {
        "name": name,
        "system": SYSTEM_ID,
        "pnj": False,
        "atributos": {attr: 10 for attr in settings.attributes},
        "habilidades": {},
        "xp": {"total": 0, "gastada": 0},
        "resistencia": {"actual": toughness(10)},
        "armas": [],
        "armadura": None,
        "escudo": Shield.NONE.value,
        "estado": LifeState.ACTIVE.value,
        "fallos_muerte": 0,
        "equipo": {},
        "dinero": 0,
        "notas": "",
    }


def attribute(sheet: Mapping[str, Any], name: str) -> int:
    """An attribute's value; ``rolweb.problem.attribute_missing`` when absent or not a number."""
    value = (sheet.get("atributos") or {}).get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(
            Problem("rolweb.problem.attribute_missing", f"atributos.{name}", {"name": name})
        )
    return value


def fixed_toughness(sheet: Mapping[str, Any]) -> int | None:
    """A stat block's own Resistencia (``resistencia.maxima``): monsters tougher than Fuerte
    allows; None when the sheet follows the rule (RESISTENCIA: Fuerte, minimum 10)."""
    value = (sheet.get("resistencia") or {}).get("maxima")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def max_toughness(sheet: Mapping[str, Any]) -> int:
    fixed = fixed_toughness(sheet)
    return fixed if fixed is not None else toughness(attribute(sheet, "Fuerte"))


def current_toughness(sheet: Mapping[str, Any]) -> int:
    value = (sheet.get("resistencia") or {}).get("actual", max_toughness(sheet))
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def state(sheet: Mapping[str, Any]) -> LifeState:
    try:
        return LifeState(sheet.get("estado", LifeState.ACTIVE.value))
    except ValueError:
        return LifeState.ACTIVE


def is_player(sheet: Mapping[str, Any]) -> bool:
    """Player characters are dying at 0 Resistencia; NPCs (``pnj``) die (PERSONAJES MORIBUNDOS)."""
    return not bool(sheet.get("pnj", False))


def xp(sheet: Mapping[str, Any]) -> Xp:
    raw = sheet.get("xp") or {}
    return Xp(int(raw.get("total", 0)), int(raw.get("gastada", 0)))


def level(sheet: Mapping[str, Any], ability: str) -> Level:
    term = (sheet.get("habilidades") or {}).get(ability, "ninguno")
    try:
        return Level.from_term(term)
    except ValueError:
        return Level.NONE


def shield(sheet: Mapping[str, Any]) -> Shield:
    raw = sheet.get("escudo", Shield.NONE.value)
    if raw is True:
        return Shield.SHIELD
    if raw in (False, None):
        return Shield.NONE
    try:
        return Shield(raw)
    except ValueError:
        raise RulesError(
            Problem("rolweb.problem.unknown_shield", "escudo", {"name": str(raw)})
        ) from None


def _weapon_entries(sheet: Mapping[str, Any]) -> list[Any]:
    raw = sheet.get("armas") or []
    if isinstance(raw, str):  # ``/sheet set armas "Espada, Daga"`` stores text
        return [part.strip() for part in raw.split(",") if part.strip()]
    return list(raw) if isinstance(raw, list) else [raw]


def weapons(sheet: Mapping[str, Any], settings: RolwebSettings) -> tuple[Weapon, ...]:
    """The sheet's weapons: names from the campaign list, or inline weapon objects."""
    known = {w.name.casefold(): w for w in load_weapons(settings)}
    found: list[Weapon] = []
    for entry in _weapon_entries(sheet):
        if isinstance(entry, str):
            if entry.casefold() not in known:
                raise RulesError(Problem("rolweb.problem.unknown_weapon", "armas", {"name": entry}))
            found.append(known[entry.casefold()])
        else:
            found.append(parse_weapon("armas", entry))
    return tuple(found)


def armour(sheet: Mapping[str, Any], settings: RolwebSettings) -> Armour | None:
    """The armour worn, or None (``null``, ``""`` or ``"ninguna"``)."""
    raw = sheet.get("armadura")
    if raw in (None, "", "ninguna"):
        return None
    if isinstance(raw, dict):
        return parse_armour("armadura", raw)
    known = {a.name.casefold(): a for a in load_armour(settings)}
    if not isinstance(raw, str) or raw.casefold() not in known:
        raise RulesError(Problem("rolweb.problem.unknown_armour", "armadura", {"name": str(raw)}))
    return known[raw.casefold()]


def fields(settings: RolwebSettings) -> tuple[FieldSpec, ...]:
    """The editable fields, grouped for ``/sheet set`` and the creation wizard."""
    specs: list[FieldSpec] = [
        FieldSpec("name", "Nombre", FieldKind.TEXT, group="General"),
        FieldSpec("notas", "Notas", FieldKind.TEXT, group="General"),
    ]
    specs += [
        FieldSpec(f"atributos.{name}", name, FieldKind.INTEGER, 1, 20, group="Atributos")
        for name in settings.attributes
    ]
    specs += [
        FieldSpec(
            f"habilidades.{a.name}",
            a.name,
            FieldKind.CHOICE,
            choices=LEVEL_CHOICES,
            group="Habilidades",
        )
        for a in load_abilities(settings)
    ]
    armour_choices = ("ninguna", *(a.name for a in load_armour(settings)))
    specs += [
        FieldSpec(
            "resistencia.actual",
            "Resistencia actual",
            FieldKind.INTEGER,
            0,
            MAX_FIXED_TOUGHNESS,
            group="Combate",
        ),
        FieldSpec(
            "resistencia.maxima",
            "Resistencia fija (PNJ)",
            FieldKind.INTEGER,
            1,
            MAX_FIXED_TOUGHNESS,
            group="Combate",
        ),
        FieldSpec("estado", "Estado", FieldKind.CHOICE, choices=tuple(LifeState), group="Combate"),
        FieldSpec("armas", "Armas", FieldKind.TEXT, group="Equipo"),
        FieldSpec("armadura", "Armadura", FieldKind.CHOICE, choices=armour_choices, group="Equipo"),
        FieldSpec("escudo", "Escudo", FieldKind.CHOICE, choices=tuple(Shield), group="Equipo"),
        FieldSpec("dinero", "Dinero", FieldKind.INTEGER, 0, group="Equipo"),
        FieldSpec("xp.total", "Experiencia", FieldKind.INTEGER, 0, group="xp", referee_only=True),
        FieldSpec(
            "xp.gastada", "Experiencia gastada", FieldKind.INTEGER, 0, group="xp", referee_only=True
        ),
    ]
    # ``pnj`` is not editable: it frees the attributes from the creation method, so only
    # /npc create (and an imported NPC) sets it.
    return tuple(specs)


def _validate_gear(sheet: Mapping[str, Any], settings: RolwebSettings) -> list[Problem]:
    problems: list[Problem] = []
    try:
        worn_shield = shield(sheet)
        for weapon in weapons(sheet, settings):
            if worn_shield.occupies_hand and (weapon.is_heavy or weapon.is_ranged):
                problems.append(
                    Problem("rolweb.problem.shield_forbids_weapon", "armas", {"name": weapon.name})
                )
    except RulesError as error:
        problems += error.problems
    try:
        armour(sheet, settings)
    except RulesError as error:
        problems += error.problems
    return problems


def _validate_fixed_toughness(sheet: Mapping[str, Any]) -> list[Problem]:
    raw = sheet.get("resistencia")
    if not isinstance(raw, dict) or raw.get("maxima") is None:
        return []
    value = raw["maxima"]
    if is_player(sheet):
        return [Problem("rolweb.problem.fixed_toughness_npc_only", "resistencia.maxima")]
    if not is_int(value) or not 1 <= value <= MAX_FIXED_TOUGHNESS:
        return [
            Problem(
                "rolweb.problem.fixed_toughness_out_of_bounds",
                "resistencia.maxima",
                {"value": str(value), "maximum": MAX_FIXED_TOUGHNESS},
            )
        ]
    return []


def _validate_belongings(sheet: Mapping[str, Any]) -> list[Problem]:
    """The backpack (``equipo``: name → quantity), ``dinero`` and ``notas``."""
    problems: list[Problem] = []
    carried = sheet.get("equipo", {})
    if not isinstance(carried, dict):
        problems.append(Problem("rolweb.problem.bad_inventory", "equipo", {"name": str(carried)}))
        carried = {}
    for name, quantity in carried.items():
        if not str(name).strip() or not is_int(quantity) or quantity < 1:
            problems.append(
                Problem("rolweb.problem.bad_inventory", f"equipo.{name}", {"name": str(name)})
            )
    money = sheet.get("dinero", 0)
    if not is_int(money) or money < 0:
        problems.append(Problem("rolweb.problem.bad_money", "dinero", {"value": str(money)}))
    notes = sheet.get("notas", "")
    if notes is not None and not isinstance(notes, str):
        problems.append(Problem("rolweb.problem.bad_notes", "notas"))
    return problems


def _validate_state(sheet: Mapping[str, Any]) -> list[Problem]:
    raw = sheet.get("resistencia")
    current = raw.get("actual") if isinstance(raw, dict) else None
    if not is_int(current):
        return [Problem("rolweb.problem.toughness_missing", "resistencia.actual")]
    if _validate_fixed_toughness(sheet):
        return _validate_fixed_toughness(sheet)
    try:
        LifeState(sheet.get("estado", ""))
    except ValueError:
        return [
            Problem("rolweb.problem.unknown_state", "estado", {"name": str(sheet.get("estado"))})
        ]
    try:
        maximum = max_toughness(sheet)
    except RulesError:
        return []  # the missing Fuerte is already reported
    problems: list[Problem] = []
    if not 0 <= current <= maximum:
        problems.append(
            Problem(
                "rolweb.problem.toughness_out_of_bounds",
                "resistencia.actual",
                {"value": current, "maximum": maximum},
            )
        )
    alive = state(sheet)
    if (alive is LifeState.ACTIVE and current == 0) or (alive is LifeState.DYING and current > 0):
        problems.append(
            Problem(
                "rolweb.problem.state_mismatch", "estado", {"state": alive.value, "value": current}
            )
        )
    return problems


def validate(sheet: Mapping[str, Any], settings: RolwebSettings) -> list[Problem]:
    """Every problem that makes ``sheet`` illegal under the campaign's settings."""
    problems: list[Problem] = []
    if not isinstance(sheet.get("name"), str) or not sheet["name"].strip():
        problems.append(Problem("rolweb.problem.name_missing", "name"))
    if sheet.get("system") != SYSTEM_ID:
        problems.append(
            Problem("rolweb.problem.wrong_system", "system", {"system": str(sheet.get("system"))})
        )
    values = sheet.get("atributos")
    # The creation method binds player characters; a monster's stat block is free (1-20).
    rules = settings if is_player(sheet) else replace(settings, creation=CreationMethod.FREE)
    problems += validate_attributes(values if isinstance(values, dict) else {}, rules)
    abilities = sheet.get("habilidades") or {}
    if not isinstance(abilities, dict):
        problems.append(
            Problem("rolweb.problem.unknown_ability", "habilidades", {"name": str(abilities)})
        )
        abilities = {}
    for name, term in abilities.items():
        if find_ability(name, settings) is None:
            problems.append(
                Problem("rolweb.problem.unknown_ability", f"habilidades.{name}", {"name": name})
            )
        elif term not in LEVEL_CHOICES:
            problems.append(
                Problem(
                    "rolweb.problem.unknown_level",
                    f"habilidades.{name}",
                    {"name": name, "level": str(term)},
                )
            )
    raw_xp = sheet.get("xp")
    total = raw_xp.get("total") if isinstance(raw_xp, dict) else None
    spent = raw_xp.get("gastada") if isinstance(raw_xp, dict) else None
    if not (is_int(total) and is_int(spent) and 0 <= spent <= total):
        problems.append(
            Problem("rolweb.problem.bad_xp", "xp", {"total": str(total), "spent": str(spent)})
        )
    problems += _validate_state(sheet)
    problems += _validate_gear(sheet, settings)
    problems += _validate_belongings(sheet)
    return problems
