"""NPC and monster stat blocks for Núcleo (``/npc create``).

Seed 002 has no bestiary: its creatures are characters («los PVs de un personaje o
criatura»).  A referee's stat block therefore keeps the sheet's shape but none of the
*creation* limits — no 37 points, no pyramid, no compulsory race or advantage — so a troll
may have Físico 14 and a guard only three skills.  The bounds below are ours (documented in
docs/systems/nucleo.md): wide enough for any creature, narrow enough to catch typos.
The referee may also fix the PV (``pv_maximo``) instead of Físico × 4.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rules.nucleo import creation
from rules.nucleo.data import ATTRIBUTES, catalogue
from rules.nucleo.names import lookup, split_list
from rules.systems.base import Problem
from rules.values import is_int

__all__ = [
    "ATTRIBUTE_MAX",
    "ATTRIBUTE_MIN",
    "PV_MAX",
    "SKILL_MAX",
    "parse_skills",
    "validate_npc",
]

ATTRIBUTE_MIN = 1
ATTRIBUTE_MAX = 20
SKILL_MAX = 10
PV_MAX = 999

_ENTRY = re.compile(r"^(?P<name>.*?)\s*(?P<level>[+-]?\d+)$")


def parse_skills(text: str, magic: bool) -> tuple[dict[str, int], dict[str, int], list[Problem]]:
    """``"Armas cuerpo a cuerpo 4, Esquivar 3"`` → skills and spells by level, and every problem.

    Names match the lists whatever the case or accents; a spell is accepted where the
    campaign uses magic.
    """
    data = catalogue()
    skills: dict[str, int] = {}
    spells: dict[str, int] = {}
    problems: list[Problem] = []
    for entry in split_list(text):
        match = _ENTRY.match(entry)
        if match is None or not match["name"]:
            problems.append(
                Problem("nucleo.problem.npc_skill_format", "habilidades", {"entry": entry})
            )
            continue
        name, level = match["name"].strip(), int(match["level"])
        skill = lookup(name, data.skills, dict(data.skill_aliases))
        spell = lookup(name, data.spells) if magic and skill is None else None
        if skill is None and spell is None:
            problems.append(Problem("nucleo.problem.unknown_skill", "habilidades", {"skill": name}))
            continue
        found = skill or spell or name
        table = skills if skill else spells
        if found in skills or found in spells:
            problems.append(
                Problem("nucleo.problem.npc_skill_repeated", "habilidades", {"skill": found})
            )
        elif not 1 <= level <= SKILL_MAX:
            params = {"skill": found, "level": level, "maximum": SKILL_MAX}
            problems.append(Problem("nucleo.problem.npc_skill_level", "habilidades", params))
        else:
            table[found] = level
    return skills, spells, problems


def validate_npc(
    sheet: Mapping[str, Any], *, races: bool, advantages: bool, magic: bool = True
) -> list[Problem]:
    """Everything that makes a stat block unusable: attributes 1–20, known skills and spells at
    0–10, a positive ``pv_maximo`` if any, and a known race or advantage if one is named."""
    data = catalogue()
    problems: list[Problem] = []
    attributes = sheet.get("atributos") or {}
    for name in attributes:
        if name not in ATTRIBUTES:
            problems.append(
                Problem(
                    "nucleo.problem.unknown_attribute", f"atributos.{name}", {"attribute": name}
                )
            )
    for name in ATTRIBUTES:
        value = attributes.get(name)
        path = f"atributos.{name}"
        if not is_int(value):
            problems.append(Problem("nucleo.problem.attribute_missing", path, {"attribute": name}))
        elif not ATTRIBUTE_MIN <= value <= ATTRIBUTE_MAX:
            params = {
                "attribute": name,
                "value": value,
                "minimum": ATTRIBUTE_MIN,
                "maximum": ATTRIBUTE_MAX,
            }
            problems.append(Problem("nucleo.problem.attribute_range", path, params))
    for group, known in (("habilidades", data.skills), ("hechizos", data.spells)):
        for name, level in (sheet.get(group) or {}).items():
            path = f"{group}.{name}"
            if name not in known and creation.canonical_skill(name) is None:
                key = "unknown_skill" if group == "habilidades" else "unknown_spell"
                param = "skill" if group == "habilidades" else "spell"
                problems.append(Problem(f"nucleo.problem.{key}", path, {param: name}))
            if group == "hechizos" and not magic and level:
                params = {"item": name, "module": "magia"}
                problems.append(Problem("nucleo.problem.module_disabled", path, params))
            if not is_int(level) or not 0 <= level <= SKILL_MAX:
                params = {"skill": name, "level": level, "maximum": SKILL_MAX}
                problems.append(Problem("nucleo.problem.npc_skill_level", path, params))
    pv = sheet.get("pv_maximo")
    if pv is not None and (not is_int(pv) or not 0 <= pv <= PV_MAX):
        params = {"value": pv, "maximum": PV_MAX}
        problems.append(Problem("nucleo.problem.npc_pv", "pv_maximo", params))
    race = creation.find_race(sheet.get("raza")) if races else None
    if races and sheet.get("raza"):
        problems += creation.validate_race(sheet.get("raza"), sheet.get("ventaja_racial"))
    if advantages and sheet.get("ventaja"):
        if sheet["ventaja"] not in data.advantages:
            params = {"advantage": sheet["ventaja"]}
            problems.append(Problem("nucleo.problem.advantage_unknown", "ventaja", params))
        elif race is not None and race.no_advantage:
            problems.append(
                Problem("nucleo.problem.advantage_race_forbidden", "ventaja", {"race": race.name})
            )
    return problems
