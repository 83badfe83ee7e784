"""The rolweb creation wizard's answers: validate one and write it into the draft's copy.

Each function receives the copy the builder made (never the stored draft) and raises
:class:`RulesError` listing every problem, so a player fixes all of them at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.rolweb import sheet as sheets
from rules.rolweb.abilities import Level
from rules.rolweb.advancement import level_cost, spend_for
from rules.rolweb.damage import toughness
from rules.rolweb.equipment import Shield, Weapon, load_armour
from rules.rolweb.npc_text import parse_armour_text, parse_weapons_text
from rules.rolweb.settings import CreationMethod, RolwebSettings
from rules.rolweb.steps import (
    NO_ARMOUR,
    ability_parts,
    array_left,
    attribute_parts,
    attributes_before,
    chosen_abilities,
    listed,
    weapon_parts,
)
from rules.systems.base import Problem, RulesError, Sheet

__all__ = [
    "apply_attributes",
    "apply_abilities",
    "apply_level",
    "apply_weapons",
    "armour_choice",
    "apply_shield",
    "apply_npc_combat",
]


def _parse_attribute(name: str, raw: Any, problems: list[Problem]) -> int | None:
    text = str(raw if raw is not None else "").strip()
    if not text:
        problems.append(
            Problem("rolweb.problem.attribute_missing", f"atributos.{name}", {"name": name})
        )
        return None
    try:
        return int(text)
    except ValueError:
        problems.append(
            Problem(
                "rolweb.problem.not_a_number",
                f"atributos.{name}",
                {"field": name, "value": text[:20]},
            )
        )
        return None


def apply_attributes(
    updated: dict[str, Any],
    index: int,
    answer: Mapping[str, Any],
    settings: RolwebSettings,
    npc: bool,
) -> None:
    parts = attribute_parts(settings)
    method = CreationMethod.FREE if npc else settings.creation
    low, high = (settings.minimum, settings.maximum) if method is CreationMethod.POOL else (1, 20)
    left = array_left(updated, index, settings)
    problems: list[Problem] = []
    values: dict[str, int] = {}
    for name in parts[index - 1]:
        value = _parse_attribute(name, answer.get(name), problems)
        if value is None:
            continue
        if method is CreationMethod.ARRAY and left[value] < 1:
            problems.append(
                Problem(
                    "rolweb.problem.array_value_unavailable",
                    f"atributos.{name}",
                    {"name": name, "value": value, "left": listed(left)},
                )
            )
            continue
        if not low <= value <= high:
            problems.append(
                Problem(
                    "rolweb.problem.attribute_out_of_bounds",
                    f"atributos.{name}",
                    {"name": name, "value": value, "minimum": low, "maximum": high},
                )
            )
            continue
        left[value] -= 1
        values[name] = value
    if not problems and method is CreationMethod.POOL:
        problems += _pool_problems(updated, index, values, settings)
    if problems:
        raise RulesError(problems)
    updated["atributos"] = {**(updated.get("atributos") or {}), **values}
    updated["resistencia"] = {"actual": toughness(sheets.attribute(updated, "Fuerte"))}
    if index == 1 and not npc:
        # xp_inicial, or the experience a dead character passed on (inherit_xp), if larger
        total = max(settings.starting_xp, sheets.xp(updated).total)
        updated["xp"] = {"total": total, "gastada": 0}


def _pool_problems(
    draft: Sheet, index: int, values: Mapping[str, int], settings: RolwebSettings
) -> list[Problem]:
    """The pool must come out exact: name how many points the remaining attributes need."""
    earlier = attributes_before(index, settings)
    spent = sum(sheets.attribute(draft, n) for n in earlier) + sum(values.values())
    left = settings.pool - spent
    count = len(settings.attributes) - len(earlier) - len(values)
    if count == 0 and left != 0:
        return [
            Problem(
                "rolweb.problem.pool_mismatch", "atributos", {"total": spent, "pool": settings.pool}
            )
        ]
    low, high = count * settings.minimum, count * settings.maximum
    if count and not low <= left <= high:
        return [
            Problem(
                "rolweb.problem.points_left",
                "atributos",
                {"left": left, "count": count, "low": low, "high": high},
            )
        ]
    return []


def apply_abilities(
    updated: dict[str, Any], index: int, names: list[str], settings: RolwebSettings
) -> None:
    offered = {a.name: a for a in ability_parts(settings)[index - 1]}
    unknown = [n for n in names if n not in offered]
    if unknown:
        raise RulesError(
            [Problem("rolweb.problem.unknown_ability", "habilidades", {"name": n}) for n in unknown]
        )
    balance = sheets.xp(updated)
    cost = level_cost(Level.PRINCIPIANTE) * len(names)
    if cost > balance.available:
        raise RulesError(
            Problem(
                "rolweb.problem.not_enough_xp",
                "xp",
                {"cost": cost, "available": balance.available},
            )
        )
    chosen = {name: Level.PRINCIPIANTE.term for name in names}
    updated["habilidades"] = {**(updated.get("habilidades") or {}), **chosen}
    updated["xp"] = {"total": balance.total, "gastada": balance.spent + cost}


def apply_level(updated: dict[str, Any], index: int, term: str, settings: RolwebSettings) -> None:
    ability = chosen_abilities(updated, settings)[index - 1]
    current = sheets.level(updated, ability.name)
    try:
        target = Level.from_term(term)
    except ValueError:
        raise RulesError(
            Problem(
                "rolweb.problem.unknown_level",
                f"habilidades.{ability.name}",
                {"name": ability.name, "level": term},
            )
        ) from None
    if target < current or target is Level.NONE:
        raise RulesError(
            Problem(
                "rolweb.problem.level_not_higher",
                f"habilidades.{ability.name}",
                {"nivel_actual": current.term, "nivel_nuevo": target.term},
            )
        )
    if target is current:
        return
    after = spend_for(sheets.xp(updated), current, target)
    updated["xp"] = {"total": after.total, "gastada": after.spent}
    updated["habilidades"] = {**updated["habilidades"], ability.name: target.term}


def apply_weapons(
    updated: dict[str, Any], index: int, names: list[str], settings: RolwebSettings
) -> None:
    offered = {w.name for w in weapon_parts(settings)[index - 1]}
    unknown = [n for n in names if n not in offered]
    if unknown:
        raise RulesError(
            [Problem("rolweb.problem.unknown_weapon", "armas", {"name": n}) for n in unknown]
        )
    updated["armas"] = [*(updated.get("armas") or []), *names]


def armour_choice(text: str, settings: RolwebSettings) -> str | None:
    if not text or text.casefold() == NO_ARMOUR:
        return None
    known = {a.name.casefold(): a.name for a in load_armour(settings)}
    if text.casefold() not in known:
        raise RulesError(Problem("rolweb.problem.unknown_armour", "armadura", {"name": text}))
    return known[text.casefold()]


def _shield(text: str) -> Shield:
    try:
        return Shield(text.casefold() or Shield.NONE.value)
    except ValueError:
        raise RulesError(
            Problem("rolweb.problem.unknown_shield", "escudo", {"name": text})
        ) from None


def _shield_conflicts(worn: Shield, weapons: Sequence[Weapon]) -> list[Problem]:
    """ESCUDO: a shield forbids Pesada and ranged weapons (the rodela does not)."""
    if not worn.occupies_hand:
        return []
    return [
        Problem("rolweb.problem.shield_forbids_weapon", "armas", {"name": w.name})
        for w in weapons
        if w.is_heavy or w.is_ranged
    ]


def apply_shield(updated: dict[str, Any], text: str, settings: RolwebSettings) -> None:
    worn = _shield(text)
    problems = _shield_conflicts(worn, sheets.weapons(updated, settings))
    if problems:
        raise RulesError(problems)
    updated["escudo"] = worn.value


def apply_npc_combat(
    updated: dict[str, Any], answer: Mapping[str, Any], settings: RolwebSettings
) -> None:
    """The stat block's Resistencia (blank: from Fuerte), armour, shield and weapons."""
    problems: list[Problem] = []
    fixed = _npc_toughness(str(answer.get("resistencia") or "").strip(), problems)
    armour: Any = None
    try:
        armour = parse_armour_text(str(answer.get("armadura") or ""), settings)
    except RulesError as error:
        problems += error.problems
    worn = Shield.NONE
    try:
        worn = _shield(str(answer.get("escudo") or "").strip())
    except RulesError as error:
        problems += error.problems
    weapons: list[Any] = []
    try:
        weapons = parse_weapons_text(str(answer.get("armas") or ""), settings)
    except RulesError as error:
        problems += error.problems
    updated |= {"armadura": armour, "escudo": worn.value, "armas": weapons}
    if not problems:
        problems += _shield_conflicts(worn, sheets.weapons(updated, settings))
    if problems:
        raise RulesError(problems)
    derived = toughness(sheets.attribute(updated, "Fuerte"))
    if fixed is None or fixed == derived:
        updated["resistencia"] = {"actual": derived}
    else:
        updated["resistencia"] = {"actual": fixed, "maxima": fixed}


def _npc_toughness(text: str, problems: list[Problem]) -> int | None:
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        problems.append(
            Problem(
                "rolweb.problem.not_a_number",
                "resistencia.maxima",
                {"field": "Resistencia", "value": text[:20]},
            )
        )
        return None
    if not 1 <= value <= sheets.MAX_FIXED_TOUGHNESS:
        problems.append(
            Problem(
                "rolweb.problem.fixed_toughness_out_of_bounds",
                "resistencia.maxima",
                {"value": text, "maximum": sheets.MAX_FIXED_TOUGHNESS},
            )
        )
        return None
    return value
