"""What a character carries besides weapons and armour worn: the backpack and the purse.

Seed 001 has no equipment list beyond weapon qualities and armour, so the backpack
(``equipo``: name → quantity) takes free text; a name from the campaign's weapon list goes to
``armas`` instead, so ``/sheet item Espada`` arms the character.  Money is one number
(``dinero``) in the campaign's currency (setting ``moneda``).  Nothing here mutates a sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.inventory import item_request
from rules.rolweb.abilities import load_abilities
from rules.rolweb.equipment import Shield, load_armour, load_weapons
from rules.rolweb.settings import RolwebSettings
from rules.rolweb.sheet import copy_sheet
from rules.systems.base import Problem, RulesError, StepOption
from rules.text import fold

__all__ = ["catalogue", "adjust_inventory", "adjust_money"]


def catalogue(kind: str, settings: RolwebSettings) -> tuple[StepOption, ...]:
    """Autocomplete names: abilities (``habilidad``) and gear (``equipo``); rolweb has no
    classes, races or spells (its mystical powers are abilities)."""
    if kind == "habilidad":
        return tuple(
            StepOption(a.name, a.name, a.description[:100]) for a in load_abilities(settings)
        )
    if kind == "equipo":
        weapons = [
            StepOption(w.name, w.name, w.damage) for w in load_weapons(settings) if not w.is_natural
        ]
        armour = [StepOption(a.name, a.name, a.protection) for a in load_armour(settings)]
        shields = [StepOption(s.value, s.value) for s in Shield if s is not Shield.NONE]
        return (*weapons, *armour, *shields)
    return ()


def _weapon_name(item: str, settings: RolwebSettings) -> str | None:
    wanted = fold(item)
    return next(
        (w.name for w in load_weapons(settings) if not w.is_natural and fold(w.name) == wanted),
        None,
    )


def _remove(entries: list[Any], name: str, count: int) -> list[Any]:
    """``entries`` without the last ``count`` weapons called ``name``."""
    kept = list(entries)
    for index in range(len(kept) - 1, -1, -1):
        if count and isinstance(kept[index], str) and fold(kept[index]) == fold(name):
            del kept[index]
            count -= 1
    return kept


def adjust_inventory(
    sheet: Mapping[str, Any], item: str, quantity: int, settings: RolwebSettings
) -> dict[str, Any]:
    """Add (positive) or remove (negative) ``quantity`` of ``item``.

    Weapons of the campaign's list are added to or removed from ``armas`` (one entry each);
    anything else lives in ``equipo``.  Removing more than carried is refused, naming how
    many there are.
    """
    name = item_request(item, quantity)
    updated = copy_sheet(sheet)
    weapon = _weapon_name(name, settings)
    if weapon is not None:
        raw = updated.get("armas") or []
        entries = [p.strip() for p in raw.split(",") if p.strip()] if isinstance(raw, str) else raw
        have = sum(1 for e in entries if isinstance(e, str) and fold(e) == fold(weapon))
        if have + quantity < 0:
            raise _not_carried(weapon, have, -quantity)
        if quantity > 0:
            updated["armas"] = [*entries, *([weapon] * quantity)]
        else:
            updated["armas"] = _remove(entries, weapon, -quantity)
        return updated
    carried = dict(updated.get("equipo") or {})
    known = next((k for k in carried if fold(k) == fold(name)), None)
    if known is None:
        armour = {fold(a.name): a.name for a in load_armour(settings)}
        known = armour.get(fold(name), name)
    have = int(carried.get(known, 0))
    if have + quantity < 0:
        raise _not_carried(known, have, -quantity)
    if have + quantity == 0:
        carried.pop(known, None)
    else:
        carried[known] = have + quantity
    updated["equipo"] = carried
    return updated


def _not_carried(name: str, have: int, wanted: int) -> RulesError:
    return RulesError(
        Problem(
            "rolweb.problem.item_not_carried",
            "equipo",
            {"name": name, "have": have, "wanted": wanted},
        )
    )


def adjust_money(
    sheet: Mapping[str, Any], amount: int, currency: str | None, settings: RolwebSettings
) -> dict[str, Any]:
    """Add or spend ``amount`` of the campaign's one currency; never below zero."""
    if currency is not None and fold(currency) != fold(settings.currency):
        raise RulesError(
            Problem(
                "rolweb.problem.unknown_currency",
                "dinero",
                {"name": currency, "currency": settings.currency},
            )
        )
    have = sheet.get("dinero", 0)
    have = have if isinstance(have, int) and not isinstance(have, bool) else 0
    if have + amount < 0:
        raise RulesError(
            Problem(
                "rolweb.problem.not_enough_money",
                "dinero",
                {"amount": -amount, "have": have, "currency": settings.currency},
            )
        )
    updated = copy_sheet(sheet)
    updated["dinero"] = have + amount
    return updated
