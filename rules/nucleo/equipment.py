"""Equipment in Núcleo (seed 002, «Equipo» and «Módulo de reglas: Armaduras especiales»).

A sheet's ``equipo`` is a list of item names from ``data/nucleo``.  This module checks that
the character may carry them and sums what they do: absorption (armour, Piel de Piedra, an
Artificial's natural 5), Estorbo (armour, minus Mula de carga) and the shield's Defensa and
cover.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from rules.nucleo.data import Armour, Race, Shield, Weapon, catalogue
from rules.systems.base import Problem

__all__ = [
    "restriction",
    "Loadout",
    "damage_expression",
    "exploding",
    "find_weapon",
    "loadout",
    "validate_equipment",
]

_DIE = re.compile(r"(\d+d\d+)(?!!)")


def exploding(expression: str) -> str:
    """Damage dice explode in Núcleo («si en un dado sacamos el valor más alto … se sigue
    tirando»): ``"2d6+1"`` becomes the dice engine's ``"2d6!+1"``."""
    return _DIE.sub(r"\1!", expression)


def find_weapon(name: str) -> Weapon | None:
    return catalogue().weapons.get(name)


def damage_expression(
    weapon: Weapon | None, two_handed: bool = False, variant: str | None = None
) -> str:
    """The (non-exploding) damage of a weapon held one- or two-handed; None = unarmed (1d6).

    Weapons printed with one grip only use it whatever ``two_handed`` says.
    """
    if weapon is None:
        return catalogue().unarmed_damage
    if variant is not None and variant in weapon.variants:
        return weapon.variants[variant]
    grip = "dos_manos" if two_handed else "una_mano"
    return weapon.damage.get(grip) or next(iter(weapon.damage.values()))


@dataclass(frozen=True, slots=True)
class Loadout:
    """What a character's equipment adds up to."""

    weapons: tuple[Weapon, ...]
    armour: Armour | None
    shield: Shield | None
    armour_absorption: int
    natural_absorption: int
    estorbo: int
    defensa_bonus: int
    cover: int

    @property
    def absorption(self) -> int:
        """Everything subtracted from damage: worn armour plus natural and Piel de Piedra."""
        return self.armour_absorption + self.natural_absorption

    def absorption_against(self, ignores_armour: bool = False) -> int:
        """Absorption against one attack: spells that «ignora armadura» skip the worn armour
        only; an Artificial's natural absorption and Piel de Piedra still count (our reading)."""
        return self.natural_absorption if ignores_armour else self.absorption

    @property
    def light_armour(self) -> bool:
        """«armadura ligera (o sin ella)» for two weapons: Estorbo 1 or less (our reading)."""
        return self.armour is None or self.armour.estorbo <= 1


def loadout(
    items: Iterable[str], advantages: Collection[str] = (), race: Race | None = None
) -> Loadout:
    """Sum the known items; unknown ones are ignored here and reported by validation."""
    data = catalogue()
    names = list(items)
    weapons = tuple(data.weapons[n] for n in names if n in data.weapons)
    armours = [data.armour[n] for n in names if n in data.armour]
    shields = [data.shields[n] for n in names if n in data.shields]
    armour = max(armours, key=lambda a: a.absorption, default=None)
    shield = shields[0] if shields else None
    effects = [data.advantages[a].effects for a in advantages if a in data.advantages]
    natural = (race.natural_absorption if race else 0) + sum(
        e.get("absorption", 0) for e in effects
    )
    raw_estorbo = armour.estorbo if armour else 0
    estorbo = max(0, raw_estorbo - sum(e.get("estorbo_ignored", 0) for e in effects))
    return Loadout(
        weapons=weapons,
        armour=armour,
        shield=shield,
        armour_absorption=armour.absorption if armour else 0,
        natural_absorption=natural,
        estorbo=estorbo,
        defensa_bonus=shield.defensa if shield else 0,
        cover=shield.cover if shield else 0,
    )


def _requirement(
    name: str, requires: Mapping[str, int], attributes: Mapping[str, int], path: str
) -> list[Problem]:
    problems = []
    for attribute, required in requires.items():
        value = attributes.get(attribute, 0)
        if not isinstance(value, int) or value < required:
            params = {"item": name, "attribute": attribute, "value": value, "required": required}
            problems.append(Problem("nucleo.problem.item_requirement", path, params))
    return problems


def validate_equipment(
    items: Iterable[str],
    attributes: Mapping[str, int],
    race: Race | None = None,
    *,
    special_armour: bool = True,
) -> list[Problem]:
    """Requirements met («requiere Físico 8»), one armour, race and module limits.

    Items not in the data are allowed and do nothing mechanically: the seed calls its list
    «equipo de ejemplo», and a science-fiction campaign will carry things it never names.
    """
    data = catalogue()
    problems: list[Problem] = []
    armour_count = 0
    for index, name in enumerate(items):
        path = f"equipo.{index}"
        if name in data.weapons:
            problems += _requirement(name, data.weapons[name].requires, attributes, path)
        elif name in data.armour:
            armour = data.armour[name]
            armour_count += 1
            if armour.special and not special_armour:
                problems.append(
                    Problem(
                        "nucleo.problem.module_disabled",
                        path,
                        {"item": name, "module": "armaduras_especiales"},
                    )
                )
            if race is not None and not race.can_wear_armour:
                problems.append(
                    Problem(
                        "nucleo.problem.armour_race_forbidden",
                        path,
                        {"item": name, "race": race.name},
                    )
                )
            problems += _requirement(name, armour.requires, attributes, path)
    if armour_count > 1:
        problems.append(
            Problem("nucleo.problem.armour_too_many", "equipo", {"count": armour_count})
        )
    return problems


def restriction(weapon: Weapon) -> str:
    """Seed 002's use limits, shown next to the damage wherever a weapon is chosen: the
    lanza pesada is used only mounted, the ballesta must be reloaded after each shot."""
    parts = []
    if weapon.mounted_only:
        parts.append("solo a caballo")
    if weapon.reload:
        parts.append("recarga tras cada disparo")
    return "".join(f" · {p}" for p in parts)
