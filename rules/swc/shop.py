"""Buying and carrying things in swc: the purse in mo/mp/mc, the backpack, what a class may buy.

Prices in Tablas 20-24 are fractions of a gold piece ("0,05 mo"), so every sum here is done in
copper pieces ("Una moneda de oro (mo) equivale a 10 monedas de plata (mp) o 100 monedas de
cobre (mc)"): no float ever decides whether a purchase fits.  Paying keeps the coins the
character has where it can and gives change only for a coin it had to break.

A class's weapons come from its "Armas Permitidas" line, mapped onto the table names in
``data/swc/weapon_permissions.json``; a multiclass character may buy what any of its classes
uses, as it may wear any armour one of them allows (``docs/rules-decisions.md``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from rules.inventory import item_request
from rules.swc.classes import get_class
from rules.swc.data import DataError, load
from rules.swc.equipment import Armour, Gear, Item, Transport, Weapon, catalogue, find_item, suggest
from rules.swc.validation import armour_allowed
from rules.systems.base import Problem, Purse, RulesError, Settings, Sheet, single_purse

__all__ = [
    "CURRENCIES",
    "add_items",
    "adjust_inventory",
    "adjust_money",
    "buy",
    "cost_copper",
    "format_copper",
    "inventory",
    "may_buy",
    "pay",
    "purse",
    "purse_copper",
    "shield_allowed",
    "weapon_allowed",
]

_MONEY = load("equipment")["moneda"]
COPPER: Mapping[str, int] = {
    "mo": int(_MONEY["mc_por_mo"]),
    "mp": int(_MONEY["mc_por_mo"]) // int(_MONEY["mp_por_mo"]),
    "mc": 1,
}
CURRENCIES: tuple[str, ...] = ("mo", "mp", "mc")
_CURRENCY_NAMES = {
    "mo": "mo",
    "oro": "mo",
    "mp": "mp",
    "plata": "mp",
    "mc": "mc",
    "cobre": "mc",
}


def cost_copper(item: Item) -> int:
    """An item's price in copper pieces ("20 mo o más" costs its minimum)."""
    return round(item.cost_mo * COPPER["mo"])


def purse_copper(monedas: Mapping[str, Any] | None) -> int:
    """What the purse is worth in copper pieces."""
    return sum(int((monedas or {}).get(c, 0) or 0) * COPPER[c] for c in CURRENCIES)


def format_copper(copper: int) -> str:
    """``1235`` -> ``"12 mo 3 mp 5 mc"`` (zeros left out; ``"0 mo"`` for nothing)."""
    parts = []
    for coin in CURRENCIES:
        count, copper = divmod(copper, COPPER[coin])
        if count:
            parts.append(f"{count} {coin}")
    return " ".join(parts) or "0 mo"


def pay(monedas: Mapping[str, Any] | None, copper: int) -> dict[str, int]:
    """The purse after paying ``copper``; keeps the coins it has where it can.

    Raises :class:`RulesError` ``swc.problem.not_enough_money`` naming the exact shortfall.
    """
    have = {c: int((monedas or {}).get(c, 0) or 0) for c in CURRENCIES}
    total = purse_copper(have)
    if copper > total:
        raise RulesError(
            Problem(
                "swc.problem.not_enough_money",
                "monedas",
                {
                    "coste": format_copper(copper),
                    "tienes": format_copper(total),
                    "falta": format_copper(copper - total),
                },
            )
        )
    left = total - copper
    out: dict[str, int] = {}
    for coin in CURRENCIES:  # keep the coins already in the purse, biggest first
        out[coin] = min(have[coin], left // COPPER[coin])
        left -= out[coin] * COPPER[coin]
    for coin in CURRENCIES:  # the change of the coin broken to pay
        count, left = divmod(left, COPPER[coin])
        out[coin] += count
    return out


def coin_of(currency: str | None) -> str:
    """The coin a typed currency names (``"oro"`` → ``"mo"``; None → ``"mo"``)."""
    return _currency(currency)


def _currency(currency: str | None) -> str:
    key = (currency or "mo").strip().casefold()
    if key not in _CURRENCY_NAMES:
        raise RulesError(
            Problem(
                "swc.problem.unknown_currency",
                "monedas",
                {"moneda": currency, "monedas": ", ".join(CURRENCIES)},
            )
        )
    return _CURRENCY_NAMES[key]


def adjust_money(sheet: Sheet, amount: int, currency: str | None) -> dict[str, Any]:
    """Add coins of ``currency`` (default mo), or spend their value (change given)."""
    coin = _currency(currency)
    new = _copy(sheet)
    monedas = {c: int((sheet.get("monedas") or {}).get(c, 0) or 0) for c in CURRENCIES}
    if amount >= 0 or monedas[coin] >= -amount:
        monedas[coin] += amount
    else:
        monedas = pay(monedas, -amount * COPPER[coin])
    new["monedas"] = monedas
    return new


def purse(sheet: Sheet, currency: str | None, settings: Settings) -> Purse:
    """The balance after a change in ``currency`` (by name or abbreviation): every coin the
    purse holds, biggest first (``0 mo`` when empty); a sheet without ``monedas`` keeps one
    currency (:func:`rules.systems.base.single_purse`)."""
    coins = sheet.get("monedas")
    if not isinstance(coins, Mapping):
        return single_purse(sheet, currency, settings)
    held = tuple((int(coins.get(c, 0) or 0), c) for c in CURRENCIES)
    shown = tuple(pair for pair in held if pair[0]) or ((0, coin_of(None)),)
    return Purse(coin_of(currency), shown)


# -- the backpack -------------------------------------------------------------------------


def inventory(sheet: Sheet) -> list[dict[str, Any]]:
    """The backpack as ``[{"nombre", "cantidad"}]`` (a bare name, as older sheets had, is one)."""
    out = []
    for entry in sheet.get("equipo") or ():
        if isinstance(entry, Mapping):
            out.append(
                {"nombre": str(entry.get("nombre", "")), "cantidad": entry.get("cantidad", 1)}
            )
        else:
            out.append({"nombre": str(entry), "cantidad": 1})
    return out


def add_items(sheet: Sheet, names: Iterable[str]) -> list[dict[str, Any]]:
    """The backpack with one more of each name (table names, merged with what is there)."""
    items = inventory(sheet)
    for name in names:
        for entry in items:
            if entry["nombre"] == name:
                entry["cantidad"] = int(entry["cantidad"]) + 1
                break
        else:
            items.append({"nombre": name, "cantidad": 1})
    return items


def _known(item: str) -> Item:
    found = find_item(item)
    if found is None:
        words = sorted(item.split(), key=len, reverse=True)
        found_hints = suggest(item, 5) or (suggest(words[0], 5) if words else ())
        hints = ", ".join(e.name for e in found_hints) or "—"
        raise RulesError(
            Problem("swc.problem.unknown_item", "equipo", {"objeto": item, "sugerencias": hints})
        )
    return found


def adjust_inventory(sheet: Sheet, item: str, quantity: int) -> dict[str, Any]:
    """Add or remove ``quantity`` of a Tablas 20-24 item (the book's list is the shop)."""
    found = _known(item_request(item, quantity))
    new = _copy(sheet)
    items = inventory(sheet)
    entry = next((e for e in items if find_item(e["nombre"]) is found), None)
    have = int(entry["cantidad"]) if entry else 0
    if have + quantity < 0:
        raise RulesError(
            Problem(
                "swc.problem.not_enough_items",
                "equipo",
                {"objeto": found.name, "tienes": have, "quitas": -quantity},
            )
        )
    if entry is None:
        items.append({"nombre": found.name, "cantidad": quantity})
    else:
        entry["cantidad"] = have + quantity
    new["equipo"] = [e for e in items if int(e["cantidad"]) > 0]
    return new


# -- what a class may buy -----------------------------------------------------------------


@cache
def _permissions() -> tuple[Mapping[str, tuple[str, ...]], Mapping[str, tuple[str, ...]]]:
    raw = load("weapon_permissions")
    groups = {k: tuple(v) for k, v in raw["grupos"].items()}
    names = {k: tuple(v) for k, v in raw["nombres"].items()}
    for listed in (*groups.values(), *names.values()):
        for name in listed:
            if find_item(name) is None:
                raise DataError(f"weapon_permissions: {name!r} is not in Tablas 20-24")
    return groups, names


def _allowed_names(clase: str) -> frozenset[str] | None:
    """Table names a class may use; ``None`` for "todas"."""
    allowed = get_class(clase).armas
    if allowed == "todas":
        return None
    groups, names = _permissions()
    words = (allowed,) if isinstance(allowed, str) else allowed
    out: set[str] = set()
    for word in words:
        if word in groups:
            out |= set(groups[word])
        elif word in names:
            out |= set(names[word])
        else:
            raise DataError(f"weapon_permissions: no mapping for {clase}'s {word!r}")
    return frozenset(out)


def weapon_allowed(clases: Iterable[str], weapon: Weapon) -> bool:
    """Whether any of ``clases`` may use ``weapon``."""
    for clase in clases:
        names = _allowed_names(clase)
        if names is None or weapon.name in names:
            return True
    return False


def shield_allowed(clases: Iterable[str]) -> bool:
    return any(get_class(c).escudo != "ninguno" for c in clases)


def may_buy(clases: Iterable[str], item: Item) -> bool:
    """Whether a character of ``clases`` may buy ``item`` in the creation shop."""
    clases = tuple(clases)
    if isinstance(item, Armour):
        if item.shield:
            return shield_allowed(clases)
        return any(armour_allowed(c, item) for c in clases)
    if isinstance(item, Weapon):
        return weapon_allowed(clases, item)
    return isinstance(item, Gear | Transport)


def shop(clases: Iterable[str], kind: str) -> tuple[Item, ...]:
    """What a character may buy in one wizard aisle, in table order.

    ``armadura`` (Tabla 22 and the shield), ``cuerpo`` (Tabla 23), ``proyectiles`` (Tabla 24
    items that are not melee weapons too), ``equipo`` (Tabla 20).
    """
    clases = tuple(clases)
    items = [find_item(e.name) for e in catalogue()]
    picked: list[Item]
    if kind == "armadura":
        armour = [i for i in items if isinstance(i, Armour)]
        armour.sort(key=lambda i: (i.shield, -i.ac_effect))
        picked = list(armour)
    elif kind == "cuerpo":
        picked = [i for i in items if isinstance(i, Weapon) and i.melee is not None]
    elif kind == "proyectiles":
        picked = [i for i in items if isinstance(i, Weapon) and i.melee is None]
    elif kind == "equipo":
        picked = [i for i in items if isinstance(i, Gear)]
    else:
        raise ValueError(f"unknown aisle {kind!r}")
    return tuple(i for i in picked if may_buy(clases, i))


def buy(sheet: Sheet, names: Iterable[str]) -> dict[str, Any]:
    """Pay for ``names`` from the purse and put them on the sheet (armour worn, the rest carried).

    Refuses (``not_enough_money``) with the exact shortfall when the purse cannot pay them all.
    """
    items = [_known(n) for n in names]
    new = _copy(sheet)
    new["monedas"] = pay(sheet.get("monedas"), sum(cost_copper(i) for i in items))
    carried: list[str] = []
    for item in items:
        if isinstance(item, Armour) and item.shield:
            new["escudo"] = True
        elif isinstance(item, Armour):
            new["armadura"] = item.name
        else:
            carried.append(item.name)
    new["equipo"] = add_items(new, carried)
    return new


def _copy(sheet: Sheet) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(dict(sheet)))
    return copied
