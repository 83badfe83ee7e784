"""The rolweb creation wizard's plan: which steps a draft needs, in order, and their parts.

Discord shows at most five inputs in a modal and 25 options in a select, so long lists are
cut into numbered parts (``atributos_1``, ``atributos_2``; ``armas_1`` …).  Step keys never
contain ``:`` (the wizard's component ids use it as a separator).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rules.rolweb import sheet as sheets
from rules.rolweb.abilities import Ability, Level, load_abilities
from rules.rolweb.advancement import level_cost
from rules.rolweb.equipment import Weapon, load_weapons
from rules.rolweb.settings import RolwebSettings
from rules.systems.base import Sheet

__all__ = [
    "PER_FORM",
    "PER_SELECT",
    "NO_ARMOUR",
    "plan",
    "step_index",
    "attribute_parts",
    "ability_parts",
    "weapon_parts",
    "chosen_abilities",
    "attributes_before",
    "array_left",
    "listed",
]

PER_FORM = 4  # eight attributes in two modals (Discord allows five inputs per modal)
PER_SELECT = 25  # Discord's limit of options in one select menu
NO_ARMOUR = "ninguna"


def chunks(items: Sequence[Any], size: int) -> list[tuple[Any, ...]]:
    return [tuple(items[i : i + size]) for i in range(0, len(items), size)]


def step_index(key: str, prefix: str) -> int | None:
    """``atributos_2`` → 2 for the prefix ``atributos``."""
    head, _, number = key.rpartition("_")
    return int(number) if head == prefix and number.isdigit() else None


def attribute_parts(settings: RolwebSettings) -> list[tuple[str, ...]]:
    return chunks(settings.attributes, PER_FORM)


def ability_parts(settings: RolwebSettings) -> list[tuple[Ability, ...]]:
    return chunks(load_abilities(settings), PER_SELECT)


def weapon_parts(settings: RolwebSettings) -> list[tuple[Weapon, ...]]:
    carried = [w for w in load_weapons(settings) if not w.is_natural]
    return chunks(carried, PER_SELECT)


def chosen_abilities(draft: Sheet, settings: RolwebSettings) -> list[Ability]:
    return [a for a in load_abilities(settings) if sheets.level(draft, a.name) is not Level.NONE]


def plan(draft: Sheet, settings: RolwebSettings, npc: bool) -> list[str]:
    """Every step that applies to this draft now, in order."""
    parts = range(1, len(attribute_parts(settings)) + 1)
    if npc:
        return [*(f"pnj_atributos_{i}" for i in parts), "pnj_combate"]
    keys = [f"atributos_{i}" for i in parts]
    available = sheets.xp(draft).available
    if available >= level_cost(Level.PRINCIPIANTE):
        keys += [f"habilidades_{i}" for i in range(1, len(ability_parts(settings)) + 1)]
    if available >= level_cost(Level.ADEPTO):
        chosen = chosen_abilities(draft, settings)
        keys += [f"nivel_{i}" for i in range(1, len(chosen) + 1)]
    keys += [f"armas_{i}" for i in range(1, len(weapon_parts(settings)) + 1)]
    return [*keys, "armadura", "escudo"]


def attributes_before(index: int, settings: RolwebSettings) -> list[str]:
    return [name for part in attribute_parts(settings)[: index - 1] for name in part]


def array_left(draft: Sheet, index: int, settings: RolwebSettings) -> Counter[int]:
    used = Counter(sheets.attribute(draft, name) for name in attributes_before(index, settings))
    return Counter(settings.array) - used


def listed(values: Counter[int]) -> str:
    return ", ".join(map(str, sorted(values.elements(), reverse=True)))
