"""Weapons, armour and shields: house defaults a campaign can replace.

Seed 001 uses weapon qualities (Larga, Corta, Pesada, a distancia) and armour that is
rolled against damage ("DEFENSA": damage = weapon damage minus the armour's roll) but
gives no equipment with numbers.  ``data/rolweb/weapons.json`` and ``armour.json`` hold a
small Symbaroum-family list marked "house default, not from the seed"; the campaign
settings ``armas`` / ``armaduras`` take a JSON list of the same shape to replace them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules.rolweb._data import bad_data, check_dice, parse_json_text, quoted, read_json
from rules.rolweb.settings import RolwebSettings

__all__ = [
    "Quality",
    "Shield",
    "Weapon",
    "Armour",
    "SHIELD_DEFENCE",
    "load_weapons",
    "load_armour",
    "parse_weapon",
    "parse_armour",
]

SHIELD_DEFENCE = 1  # seed 001, ESCUDO: "+1 a la Defensa" (also the rodela)


class Quality(enum.StrEnum):
    """Weapon qualities the rules read."""

    LONG = "Larga"
    SHORT = "Corta"
    HEAVY = "Pesada"
    RANGED = "Distancia"
    NATURAL = "Natural"


class Shield(enum.StrEnum):
    """Seed 001, ESCUDO: a shield gives +1 Defensa but forbids Pesada and ranged weapons
    and cancels a Larga weapon's advantage; the rodela (buckler) keeps both hands free."""

    NONE = "ninguno"
    SHIELD = "escudo"
    BUCKLER = "rodela"

    @property
    def defence(self) -> int:
        return 0 if self is Shield.NONE else SHIELD_DEFENCE

    @property
    def occupies_hand(self) -> bool:
        return self is Shield.SHIELD


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon: its damage dice and qualities."""

    name: str
    damage: str
    qualities: frozenset[Quality]

    @property
    def is_long(self) -> bool:
        return Quality.LONG in self.qualities

    @property
    def is_short(self) -> bool:
        return Quality.SHORT in self.qualities

    @property
    def is_heavy(self) -> bool:
        return Quality.HEAVY in self.qualities

    @property
    def is_ranged(self) -> bool:
        return Quality.RANGED in self.qualities

    @property
    def is_natural(self) -> bool:
        return Quality.NATURAL in self.qualities


@dataclass(frozen=True, slots=True)
class Armour:
    """An armour: the dice rolled against each hit and its modifier to Defensa."""

    name: str
    protection: str
    defence: int


def parse_weapon(source: str, item: Any) -> Weapon:
    """One weapon entry ``{"nombre", "dano", "cualidades"}``, validated."""
    if not isinstance(item, dict) or not isinstance(item.get("nombre"), str):
        raise bad_data(source, f"arma sin nombre: {quoted(item)}")
    qualities = item.get("cualidades", [])
    if not isinstance(qualities, list):
        raise bad_data(source, f"cualidades de {item['nombre']}")
    unknown = [
        q for q in qualities if not isinstance(q, str) or q not in {x.value for x in Quality}
    ]
    if unknown:
        valid = ", ".join(q.value for q in Quality)
        named = ", ".join(quoted(q) for q in unknown)
        raise bad_data(source, f"cualidad desconocida en {item['nombre']}: {named} (valen {valid})")
    parsed = frozenset(Quality(q) for q in qualities)
    return Weapon(item["nombre"], check_dice(source, item.get("dano")), parsed)


def parse_armour(source: str, item: Any) -> Armour:
    """One armour entry ``{"nombre", "proteccion", "defensa"}``, validated."""
    if not isinstance(item, dict) or not isinstance(item.get("nombre"), str):
        raise bad_data(source, f"armadura sin nombre: {quoted(item)}")
    defence = item.get("defensa", 0)
    if isinstance(defence, bool) or not isinstance(defence, int) or not -10 <= defence <= 0:
        raise bad_data(source, f"defensa de {item['nombre']}: {quoted(defence)}")
    return Armour(item["nombre"], check_dice(source, item.get("proteccion")), defence)


def _list(source: str, raw: Any, key: str) -> list[Any]:
    items = raw.get(key) if isinstance(raw, dict) else raw
    if not isinstance(items, list) or not items:
        raise bad_data(source, f"se esperaba una lista '{key}'")
    return items


def _unique(source: str, names: list[str]) -> None:
    if len(set(names)) != len(names):
        raise bad_data(source, "nombres repetidos")


def load_weapons(settings: RolwebSettings | None = None) -> tuple[Weapon, ...]:
    """The campaign's weapons: its ``armas`` setting if set, else the house defaults."""
    if settings is not None and settings.weapons_json.strip():
        source, raw = "armas", parse_json_text("armas", settings.weapons_json)
    else:
        source, raw = "data/rolweb/weapons.json", read_json("weapons.json")
    weapons = tuple(parse_weapon(source, item) for item in _list(source, raw, "armas"))
    _unique(source, [w.name for w in weapons])
    return weapons


def load_armour(settings: RolwebSettings | None = None) -> tuple[Armour, ...]:
    """The campaign's armour: its ``armaduras`` setting if set, else the house defaults."""
    if settings is not None and settings.armour_json.strip():
        source, raw = "armaduras", parse_json_text("armaduras", settings.armour_json)
    else:
        source, raw = "data/rolweb/armour.json", read_json("armour.json")
    armour = tuple(parse_armour(source, item) for item in _list(source, raw, "armaduras"))
    _unique(source, [a.name for a in armour])
    return armour
