"""Equipment of Swords & Wizardry Completo: Tablas 20-24 of seed 000, and Armour Class.

Everything is read from ``data/swc/equipment.json``.  A weapon that appears in both
weapon tables (Hacha de mano, Daga, Lanza: melee weapons "que se pueden utilizar también
como arma de proyectiles") is one catalogue item with a melee and a missile profile, so a
sheet that says "Daga" means one thing.  Names are matched without case, accents or
punctuation because players type "cota de malla" and "farol de capuchon".
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from rules.swc.attributes import dexterity_modifiers
from rules.swc.combat import descending_to_ascending
from rules.swc.data import DataError, load
from rules.text import fold

__all__ = [
    "BASE_AC",
    "Category",
    "Hands",
    "Armour",
    "MeleeProfile",
    "MissileProfile",
    "Weapon",
    "Gear",
    "Transport",
    "Item",
    "CatalogueEntry",
    "normalize_name",
    "find_item",
    "armour",
    "weapon",
    "catalogue",
    "suggest",
    "armour_class",
    "range_modifier",
    "missile_damage",
    "add_to_dice",
]

#: Unarmoured AC, descending (the ascending base is ``[10]``).
BASE_AC = 9

_DICE = re.compile(r"^(\d+)d(\d+)([+-]\d+)?$")


class Category(enum.StrEnum):
    """What kind of thing a catalogue item is (the table it comes from)."""

    ARMOUR = "armadura"
    WEAPON = "arma"
    GEAR = "equipo"
    TRANSPORT = "transporte"


class Hands(enum.StrEnum):
    """Tabla 23's hand notes: footnote 1 is "una o dos", "(2 manos)" is two."""

    ONE = "una"
    ONE_OR_TWO = "una_o_dos"
    TWO = "dos"


@dataclass(frozen=True, slots=True)
class Armour:
    """Tabla 22.  ``ac_effect`` is descending (negative); ``ac_bonus`` the [bracketed] one."""

    name: str
    ac_effect: int
    ac_bonus: int
    weight_lb: float
    cost_mo: float
    shield: bool
    table: str = "Tabla 22"
    category: Category = Category.ARMOUR

    def weight(self, magical: bool = False) -> float:
        """Weight in pounds; "las armaduras mágicas pesan la mitad"."""
        return self.weight_lb / 2 if magical else self.weight_lb


@dataclass(frozen=True, slots=True)
class MeleeProfile:
    """Tabla 23 columns and footnotes for one weapon."""

    damage: str
    hands: Hands
    two_handed_bonus: int
    thrown: bool

    def damage_with(self, two_hands: bool) -> str:
        """Damage dice, with footnote 2's +1 when a one-or-two-handed weapon is used two-handed."""
        if two_hands and self.hands is Hands.ONE:
            raise ValueError("this weapon is used one-handed")
        if not two_hands and self.hands is Hands.TWO:
            raise ValueError("this weapon needs two hands")
        return add_to_dice(self.damage, self.two_handed_bonus) if two_hands else self.damage


@dataclass(frozen=True, slots=True)
class MissileProfile:
    """Tabla 24 columns.  Launchers take their damage from ``ammunition`` ("Ver flechas");
    ammunition has no rate or range of its own ("Por arma")."""

    damage: str | None
    rate_of_fire: Fraction | None
    range_ft: int | None
    ammunition: str | None
    is_ammunition: bool


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon of Tabla 23, Tabla 24 or both."""

    name: str
    aliases: tuple[str, ...]
    tables: tuple[str, ...]
    weight_lb: float
    cost_mo: float
    melee: MeleeProfile | None
    missile: MissileProfile | None
    category: Category = Category.WEAPON


@dataclass(frozen=True, slots=True)
class Gear:
    """Tabla 20.  ``cost_is_minimum`` for "20 mo o más"; the table gives no weights."""

    name: str
    cost_mo: float
    cost_is_minimum: bool
    table: str = "Tabla 20"
    category: Category = Category.GEAR


@dataclass(frozen=True, slots=True)
class Transport:
    """Tabla 21."""

    name: str
    cost_mo: float
    table: str = "Tabla 21"
    category: Category = Category.TRANSPORT


Item = Armour | Weapon | Gear | Transport


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """One line of the shop list, for autocomplete and ``/equipo``."""

    name: str
    category: Category
    cost_mo: float


def normalize_name(name: str) -> str:
    """Case, accents and punctuation folded: ``"Farol, de capuchón"`` -> ``"farol de capuchon"``."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", fold(name)).split())


def add_to_dice(dice: str, bonus: int) -> str:
    """``"1d8"`` + 1 -> ``"1d8+1"``; ``"1d4+1"`` + 1 -> ``"1d4+2"``."""
    match = _DICE.match(dice)
    if not match:
        raise ValueError(f"not dice notation: {dice!r}")
    total = int(match[3] or 0) + bonus
    suffix = f"{total:+d}" if total else ""
    return f"{match[1]}d{match[2]}{suffix}"


def _dice(value: Any, where: str) -> str:
    if not isinstance(value, str) or not _DICE.match(value):
        raise DataError(
            f"equipment {where}: damage must be dice notation like '1d8+1', got {value!r}"
        )
    return value


def _cost(row: dict[str, Any], where: str) -> float:
    cost = row["coste_mo"]
    if isinstance(cost, bool) or not isinstance(cost, int | float) or cost < 0:
        raise DataError(f"equipment {where}: bad cost {cost!r}")
    return cost


def _armour(row: dict[str, Any]) -> Armour:
    if row["efecto_ca"] != -row["efecto_ca_ascendente"]:
        raise DataError(f"equipment {row['nombre']}: AC effects must mirror each other")
    return Armour(
        row["nombre"],
        row["efecto_ca"],
        row["efecto_ca_ascendente"],
        row["peso_libras"],
        _cost(row, row["nombre"]),
        row["escudo"],
    )


def _melee(row: dict[str, Any]) -> MeleeProfile:
    hands = Hands(row["manos"])
    if row["dos_manos_mas_1"] and hands is not Hands.ONE_OR_TWO:
        raise DataError(f"equipment {row['nombre']}: note 2 (+1 two-handed) needs note 1")
    bonus = 1 if row["dos_manos_mas_1"] else 0
    return MeleeProfile(_dice(row["dano"], row["nombre"]), hands, bonus, row["arrojadiza"])


def _missile(row: dict[str, Any]) -> MissileProfile:
    name, ammo, is_ammo = row["nombre"], row.get("municion"), row.get("es_municion", False)
    if is_ammo == (row["alcance_pies"] is not None) or (ammo is None) == (row["dano"] is None):
        raise DataError(f"equipment {name}: own damage xor ammunition; ammunition has no range")
    rate = Fraction(row["tasa_disparo"]) if row["tasa_disparo"] is not None else None
    damage = _dice(row["dano"], name) if row["dano"] else None
    return MissileProfile(damage, rate, row["alcance_pies"], ammo, is_ammo)


def _weapons(melee_rows: list[dict[str, Any]], missile_rows: list[dict[str, Any]]) -> list[Weapon]:
    """Tablas 23 and 24 merged by name: note 3's weapons must agree in weight and cost."""
    melee = {row["nombre"]: row for row in melee_rows}
    missile = {row["nombre"]: row for row in missile_rows}
    weapons = []
    for name in [*melee, *(n for n in missile if n not in melee)]:
        m_row, r_row = melee.get(name), missile.get(name)
        if (
            m_row is not None
            and r_row is not None
            and (
                not m_row["arrojadiza"]
                or (m_row["peso_libras"], m_row["coste_mo"])
                != (r_row["peso_libras"], r_row["coste_mo"])
            )
        ):
            raise DataError(f"equipment {name}: Tablas 23 and 24 disagree")
        if m_row is not None and m_row["arrojadiza"] and r_row is None:
            raise DataError(f"equipment {name}: thrown (note 3) but missing from Tabla 24")
        row = m_row if m_row is not None else r_row
        assert row is not None
        tables = tuple(t for t, r in (("Tabla 23", m_row), ("Tabla 24", r_row)) if r is not None)
        weapons.append(
            Weapon(
                name,
                tuple(row.get("alias", ())),
                tables,
                row["peso_libras"],
                _cost(row, name),
                _melee(m_row) if m_row is not None else None,
                _missile(r_row) if r_row is not None else None,
            )
        )
    return weapons


@cache
def _items() -> dict[str, Item]:
    """Every item by normalized name and alias, validated once."""
    data = load("equipment")
    items: list[Item] = [_armour(row) for row in data["armaduras"]["filas"]]
    items += _weapons(data["armas_cuerpo_a_cuerpo"]["filas"], data["armas_proyectiles"]["filas"])
    items += [
        Gear(row["nombre"], _cost(row, row["nombre"]), row.get("coste_minimo", False))
        for row in data["equipo_general"]["filas"]
    ]
    items += [
        Transport(row["nombre"], _cost(row, row["nombre"])) for row in data["transporte"]["filas"]
    ]

    index: dict[str, Item] = {}
    for item in items:
        for key in (item.name, *getattr(item, "aliases", ())):
            norm = normalize_name(key)
            if norm in index:
                raise DataError(f"equipment: two items answer to {key!r}")
            index[norm] = item
    for item in items:
        ammo = item.missile.ammunition if isinstance(item, Weapon) and item.missile else None
        if ammo and not isinstance(index.get(normalize_name(ammo)), Weapon):
            raise DataError(f"equipment {item.name}: unknown ammunition {ammo!r}")
    return index


def find_item(name: str) -> Item | None:
    """The item called ``name`` (or one of its aliases), ignoring case, accents and punctuation."""
    return _items().get(normalize_name(name))


def armour(name: str) -> Armour:
    """An armour or the shield by name; ``ValueError`` for anything else."""
    item = find_item(name)
    if not isinstance(item, Armour):
        raise ValueError(f"not an armour: {name!r}")
    return item


def weapon(name: str) -> Weapon:
    """A weapon (or ammunition) by name; ``ValueError`` for anything else."""
    item = find_item(name)
    if not isinstance(item, Weapon):
        raise ValueError(f"not a weapon: {name!r}")
    return item


def catalogue(category: Category | None = None) -> tuple[CatalogueEntry, ...]:
    """Every item once (aliases folded), by category then name."""
    unique = {id(item): item for item in _items().values()}.values()
    entries = (
        CatalogueEntry(i.name, i.category, i.cost_mo)
        for i in unique
        if category in (None, i.category)
    )
    order = list(Category)
    return tuple(sorted(entries, key=lambda e: (order.index(e.category), normalize_name(e.name))))


def suggest(text: str, limit: int = 25) -> tuple[CatalogueEntry, ...]:
    """Autocomplete: names starting with ``text`` first, then names containing it."""
    needle = normalize_name(text)
    entries = catalogue()
    starts = [e for e in entries if normalize_name(e.name).startswith(needle)]
    contains = [e for e in entries if needle in normalize_name(e.name) and e not in starts]
    return tuple((starts + contains)[:limit])


def armour_class(
    armadura: str | None, escudo: bool, destreza: int, ascendente: bool = False
) -> int:
    """AC from a base of 9 [10], Tabla 22's armour and shield, and Tabla 2's Destreza effect."""
    effect = 0
    if armadura is not None:
        worn = armour(armadura)
        if worn.shield:
            raise ValueError("the shield is given with escudo=True, not as the armour")
        effect += worn.ac_effect
    if escudo:
        effect += next(a for a in _items().values() if isinstance(a, Armour) and a.shield).ac_effect
    descending = BASE_AC + effect - dexterity_modifiers(destreza).ac_improvement
    return descending_to_ascending(descending) if ascendente else descending


def range_modifier(arma: str | Weapon, distancia_pies: float) -> int | None:
    """Tabla 24's footnote: 0 within range, -2 beyond it, ``None`` beyond three times it."""
    item = weapon(arma) if isinstance(arma, str) else arma
    if item.missile is None:
        raise ValueError(f"{item.name} is not a missile weapon")
    if item.missile.range_ft is None:
        raise ValueError(f"{item.name} has the range of the weapon that shoots it")
    if distancia_pies < 0:
        raise ValueError("distance cannot be negative")
    rules = load("equipment")["armas_proyectiles"]
    if distancia_pies <= item.missile.range_ft:
        return 0
    if distancia_pies <= item.missile.range_ft * rules["alcance_maximo_multiplicador"]:
        return int(rules["penalizador_fuera_de_alcance"])
    return None


def missile_damage(arma: str | Weapon) -> str:
    """Damage of a shot: the weapon's own, or its ammunition's ("Ver flechas")."""
    item = weapon(arma) if isinstance(arma, str) else arma
    if item.missile is None:
        raise ValueError(f"{item.name} is not a missile weapon")
    if item.missile.damage is not None:
        return item.missile.damage
    assert item.missile.ammunition is not None  # checked when loading
    return missile_damage(item.missile.ammunition)
