"""Character creation in Núcleo (seed 002, «Creando Personaje» and the Razas/Ventajas modules).

Each validator takes plain values and returns every problem it finds, not just the first,
so the creation wizard can show the player the whole list at once.  Problems are catalogue
keys (``nucleo.problem.*``) with the numbers the message needs.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.nucleo.data import ATTRIBUTES, Race, catalogue
from rules.systems.base import Problem

__all__ = [
    "advantages_of",
    "available_advantages",
    "canonical_skill",
    "find_race",
    "pyramid_levels",
    "session_px_bonus",
    "validate_advantage",
    "validate_attributes",
    "validate_pyramid",
    "validate_race",
]


def find_race(name: str | None) -> Race | None:
    """The race called ``name`` or one of its aliases («Androide» is an Artificial)."""
    if not name:
        return None
    data = catalogue()
    return data.races.get(data.race_aliases.get(name, name))


def canonical_skill(name: str) -> str | None:
    """The skill's name as the list spells it; accepts «Cuerpo a Cuerpo» as an alias.

    The melee rule writes «Físico + Cuerpo a Cuerpo» while the skill list only has «Armas
    cuerpo a cuerpo» (docs/rules-decisions.md): both names mean the same skill.
    """
    data = catalogue()
    name = data.skill_aliases.get(name, name)
    return name if name in data.skills else None


def validate_attributes(attributes: Mapping[str, int], race: Race | None = None) -> list[Problem]:
    """«Atributos»: 37 points among the five attributes, each 4–10 (Mediano: Físico ≤ 7)."""
    data = catalogue()
    problems: list[Problem] = []
    for name in attributes:
        if name not in ATTRIBUTES:
            problems.append(
                Problem(
                    "nucleo.problem.unknown_attribute", f"atributos.{name}", {"attribute": name}
                )
            )
    for name in ATTRIBUTES:
        path = f"atributos.{name}"
        value = attributes.get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(Problem("nucleo.problem.attribute_missing", path, {"attribute": name}))
            continue
        if not data.attribute_min <= value <= data.attribute_max:
            params = {
                "attribute": name,
                "value": value,
                "minimum": data.attribute_min,
                "maximum": data.attribute_max,
            }
            problems.append(Problem("nucleo.problem.attribute_range", path, params))
        race_max = race.attribute_max.get(name) if race else None
        if race is not None and race_max is not None and value > race_max:
            params = {"attribute": name, "value": value, "maximum": race_max, "race": race.name}
            problems.append(Problem("nucleo.problem.attribute_race_max", path, params))
    if not problems:
        total = sum(attributes[name] for name in ATTRIBUTES)
        if total != data.attribute_points:
            params = {"total": total, "expected": data.attribute_points}
            problems.append(Problem("nucleo.problem.attribute_total", "atributos", params))
    return problems


def pyramid_levels(
    skills: Mapping[str, int], spells: Mapping[str, int] | None = None
) -> dict[int, int]:
    """How many skills (and spells, which «se compran como si fuesen habilidades») sit at each level."""
    counts: dict[int, int] = {}
    for level in [*skills.values(), *(spells or {}).values()]:
        if isinstance(level, int) and level > 0:
            counts[level] = counts.get(level, 0) + 1
    return counts


def validate_pyramid(
    pyramid: str | None,
    skills: Mapping[str, int],
    spells: Mapping[str, int] | None = None,
    race: Race | None = None,
) -> list[Problem]:
    """«Personaje Versátil» / «Personaje Especialista»: the counts per level must match exactly.

    Skills at 0 are simply unknown (they roll with the lowest die) and do not count.
    """
    data = catalogue()
    problems: list[Problem] = []
    for group, values in (("habilidades", skills), ("hechizos", spells or {})):
        for name, level in values.items():
            path = f"{group}.{name}"
            if group == "habilidades" and canonical_skill(name) != name:
                problems.append(Problem("nucleo.problem.unknown_skill", path, {"skill": name}))
            elif group == "hechizos" and name not in data.spells:
                problems.append(Problem("nucleo.problem.unknown_spell", path, {"spell": name}))
            if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 6:
                problems.append(
                    Problem("nucleo.problem.skill_level", path, {"skill": name, "level": level})
                )
    if pyramid is None or pyramid not in data.pyramids:
        problems.append(
            Problem("nucleo.problem.pyramid_unknown", "piramide", {"pyramid": str(pyramid)})
        )
        return problems
    label = data.pyramid_labels[pyramid]
    if race is not None and pyramid not in race.pyramids:
        problems.append(
            Problem(
                "nucleo.problem.pyramid_race", "piramide", {"pyramid": label, "race": race.name}
            )
        )
    counts = pyramid_levels(skills, spells)
    for level in sorted(data.pyramids[pyramid], reverse=True):
        expected = data.pyramids[pyramid][level]
        count = counts.get(level, 0)
        if count != expected:
            params = {"pyramid": label, "level": level, "count": count, "expected": expected}
            problems.append(Problem("nucleo.problem.pyramid_count", "habilidades", params))
    return problems


def validate_race(race_name: str | None, racial_choice: str | None) -> list[Problem]:
    """The race exists and, for the Elfo del bosque, its free advantage has been chosen."""
    if not race_name:
        return [Problem("nucleo.problem.race_missing", "raza")]
    race = find_race(race_name)
    if race is None:
        return [Problem("nucleo.problem.race_unknown", "raza", {"race": race_name})]
    if race.free_advantage_choice and racial_choice not in race.free_advantage_choice:
        params = {"race": race.name, "choices": " / ".join(race.free_advantage_choice)}
        return [Problem("nucleo.problem.racial_advantage_choice", "ventaja_racial", params)]
    return []


def validate_advantage(
    advantage: str | None, attributes: Mapping[str, int], race: Race | None = None
) -> list[Problem]:
    """«Ventajas»: one advantage whose requirement the attributes meet (Artificial: none)."""
    if race is not None and race.no_advantage:
        if advantage:
            return [
                Problem("nucleo.problem.advantage_race_forbidden", "ventaja", {"race": race.name})
            ]
        return []
    data = catalogue()
    if not advantage:
        if not available_advantages(attributes, race):
            return []  # nothing qualifies (e.g. a Mediano with only Carisma above 7)
        return [Problem("nucleo.problem.advantage_missing", "ventaja")]
    found = data.advantages.get(advantage)
    if found is None:
        return [Problem("nucleo.problem.advantage_unknown", "ventaja", {"advantage": advantage})]
    problems = []
    for attribute, required in found.requires.items():
        value = attributes.get(attribute, 0)
        if not isinstance(value, int) or value < required:
            params = {
                "advantage": advantage,
                "attribute": attribute,
                "value": value,
                "required": required,
            }
            problems.append(Problem("nucleo.problem.advantage_requirement", "ventaja", params))
    if race is not None and advantage in race.free_advantages:
        params = {"advantage": advantage, "race": race.name}
        problems.append(Problem("nucleo.problem.advantage_duplicate", "ventaja", params))
    return problems


def available_advantages(
    attributes: Mapping[str, int], race: Race | None = None, racial_choice: str | None = None
) -> list[str]:
    """The advantages a character may still take: requirement met, not already the race's
    (none for an Artificial, which «no tiene ventaja»).

    Can be empty (a Mediano, whose free Suerte is the only advantage without requirement, with
    every attribute below 8 but Carisma): then the character simply has none.
    """
    if race is not None and race.no_advantage:
        return []
    taken = set(race.free_advantages if race else ()) | (
        {racial_choice} if racial_choice else set()
    )
    return [
        a.name
        for a in catalogue().advantages.values()
        if a.name not in taken
        and all(
            isinstance(attributes.get(k), int) and attributes[k] >= v for k, v in a.requires.items()
        )
    ]


def advantages_of(
    advantage: str | None,
    race_name: str | None = None,
    racial_choice: str | None = None,
    *,
    advantages_module: bool = True,
    races_module: bool = True,
) -> frozenset[str]:
    """Every advantage a character benefits from: the chosen one plus the race's free ones.

    A race's free advantage needs no requirement (it is «de forma gratuita»), and it applies
    even with the Ventajas module off, because it is part of the race.
    """
    names: set[str] = set()
    data = catalogue()
    if advantages_module and advantage is not None and advantage in data.advantages:
        names.add(advantage)
    race = find_race(race_name) if races_module else None
    if race is not None:
        names.update(race.free_advantages)
        if racial_choice in race.free_advantage_choice:
            names.add(racial_choice)
    return frozenset(names)


def session_px_bonus(race_name: str | None) -> int:
    """PX a race adds to each session's award: Humano «1px más», Artificial «1px menos»
    (seed 002, «Módulo de reglas: Razas»); ``NucleoSystem.session_bonus`` applies it."""
    race = find_race(race_name)
    return race.px_per_session if race else 0
