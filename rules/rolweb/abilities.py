"""Abilities (habilidades): three levels, each with an action type.

Seed 001, USO DE HABILIDADES: every ability has the levels principiante, adepto and
maestro (a higher level includes the lower ones), and each use is an acción activa,
gratuita, pasiva, reactiva or especial.  The seed names only Medicus, Recuperación and
Imposición de manos; those ship in ``data/rolweb/abilities.json`` and a campaign defines
its own list (same JSON shape) in the ``habilidades`` setting.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.rolweb._data import bad_data, check_dice, parse_json_text, quoted, read_json
from rules.rolweb.settings import RolwebSettings

__all__ = [
    "Level",
    "ActionType",
    "AbilityLevel",
    "Ability",
    "load_abilities",
    "find_ability",
    "healing_dice",
]


class Level(enum.IntEnum):
    """An ability's level; 0 means the character does not have it."""

    NONE = 0
    PRINCIPIANTE = 1
    ADEPTO = 2
    MAESTRO = 3

    @property
    def term(self) -> str:
        """The Spanish game term stored on sheets (``"adepto"``)."""
        return "ninguno" if self is Level.NONE else self.name.lower()

    @classmethod
    def from_term(cls, term: str) -> Level:
        """``"adepto"`` -> :attr:`ADEPTO`; raises ``ValueError`` for anything else."""
        for level in cls:
            if level.term == term:
                return level
        raise ValueError(term)


class ActionType(enum.StrEnum):
    """The action types of USO DE HABILIDADES."""

    ACTIVE = "activa"
    FREE = "gratuita"
    PASSIVE = "pasiva"
    REACTIVE = "reactiva"
    SPECIAL = "especial"


@dataclass(frozen=True, slots=True)
class AbilityLevel:
    """What one level of an ability does, and which action it costs."""

    action: ActionType
    effect: str
    healing: str | None = None
    healing_with_herbs: str | None = None
    seed_amount: bool = False  # the amount is the seed's (Medicus principiante 1D4)
    # «acciones activas que generan acciones extra» (USO DE HABILIDADES, line 24): attacks
    # this use grants in the same turn (a campaign's list says how many: ``acciones_extra``)
    extra_actions: int = 0


@dataclass(frozen=True, slots=True)
class Ability:
    """An ability and its three levels."""

    name: str
    description: str
    in_seed: bool
    levels: Mapping[Level, AbilityLevel]


def _level(source: str, name: str, raw: Any) -> AbilityLevel:
    if not isinstance(raw, dict):
        raise bad_data(source, f"nivel de {name}")
    try:
        action = ActionType(raw.get("accion", ""))
    except ValueError:
        raise bad_data(source, f"tipo de acción de {name}: {quoted(raw.get('accion'))}") from None
    healing = raw.get("curacion")
    herbs = raw.get("curacion_con_hierbas")
    return AbilityLevel(
        action=action,
        effect=str(raw.get("efecto", "")),
        healing=None if healing is None else check_dice(source, healing),
        healing_with_herbs=None if herbs is None else check_dice(source, herbs),
        seed_amount=bool(raw.get("cantidad_de_la_semilla", False)),
        extra_actions=_extra(source, name, raw.get("acciones_extra", 0)),
    )


def _extra(source: str, name: str, raw: Any) -> int:
    """An ability level's extra attacks: a whole number from 0 to 5."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= 5:
        raise bad_data(source, f"acciones_extra de {name}: {quoted(raw)}")
    return raw


def _ability(source: str, raw: Any) -> Ability:
    if not isinstance(raw, dict) or not isinstance(raw.get("nombre"), str):
        raise bad_data(source, f"habilidad sin nombre: {quoted(raw)}")
    name = raw["nombre"]
    levels = raw.get("niveles")
    wanted = [level.term for level in Level if level is not Level.NONE]
    if not isinstance(levels, dict) or sorted(levels) != sorted(wanted):
        raise bad_data(source, f"{name} necesita los niveles {', '.join(wanted)}")
    return Ability(
        name=name,
        description=str(raw.get("descripcion", "")),
        in_seed=bool(raw.get("en_semilla", False)),
        levels={Level.from_term(term): _level(source, name, levels[term]) for term in wanted},
    )


def load_abilities(settings: RolwebSettings | None = None) -> tuple[Ability, ...]:
    """The campaign's abilities: its ``habilidades`` setting if set, else the shipped three."""
    if settings is not None and settings.abilities_json.strip():
        source, raw = "habilidades", parse_json_text("habilidades", settings.abilities_json)
    else:
        source, raw = "data/rolweb/abilities.json", read_json("abilities.json")
    items = raw.get("habilidades") if isinstance(raw, dict) else raw
    if not isinstance(items, list) or not items:
        raise bad_data(source, "se esperaba una lista 'habilidades'")
    abilities = tuple(_ability(source, item) for item in items)
    if len({a.name for a in abilities}) != len(abilities):
        raise bad_data(source, "nombres repetidos")
    return abilities


def find_ability(name: str, settings: RolwebSettings | None = None) -> Ability | None:
    """The ability called ``name`` in the campaign's list (case-insensitive), or None."""
    folded = name.casefold()
    return next((a for a in load_abilities(settings) if a.name.casefold() == folded), None)


def healing_dice(ability: Ability, level: Level, herbs: bool = False) -> str | None:
    """The dice ``ability`` heals with at ``level`` (with healing herbs if ``herbs`` and the
    level has a herbal value, as Medicus does: CURACIÓN DE HERIDAS), or None if it does not
    heal.  A higher level includes the lower ones, so this reads exactly ``level``."""
    if level is Level.NONE:
        return None
    used = ability.levels[level]
    if herbs and used.healing_with_herbs:
        return used.healing_with_herbs
    return used.healing
