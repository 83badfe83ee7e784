"""What a Núcleo character carries besides what it wields, its money, and the names for
autocomplete.

Seed 002 calls its list «equipo de ejemplo» and names no currency, so the backpack
(``equipo.otros``: name → quantity) takes free text and the purse (``dinero``) is one number
in the campaign's currency (setting ``moneda``, «créditos» by default: our choice, the seed
is a science-fiction core).  A catalogue weapon, armour or the shield added with
``/sheet item`` is taken in hand when the slot is free (``arma_principal``, then
``arma_secundaria``; ``armadura``; ``escudo``) and carried otherwise; removing one empties the
pack first, then the slot.  Nothing here mutates a sheet.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rules.inventory import item_request
from rules.nucleo.data import catalogue as data_catalogue
from rules.nucleo.equipment import restriction
from rules.nucleo.names import lookup
from rules.nucleo.sheet import carried, setting
from rules.systems.base import Problem, RulesError, Settings, StepOption
from rules.text import fold_words

__all__ = ["adjust_inventory", "adjust_money", "catalogue"]


def catalogue(kind: str, settings: Settings) -> tuple[StepOption, ...]:
    """Autocomplete: ``raza``, ``habilidad``, ``equipo``, ``hechizo`` (modules permitting);
    Núcleo has no classes."""
    data = data_catalogue()
    if kind == "raza" and setting(settings, "razas"):
        return tuple(StepOption(r.name, r.name, r.text[:100]) for r in data.races.values())
    if kind == "habilidad":
        return tuple(StepOption(s.name, s.name, s.attribute) for s in data.skills.values())
    if kind == "hechizo" and setting(settings, "magia"):
        return tuple(
            StepOption(s.name, s.name, f"Dificultad {s.difficulty} · Maná {s.mana_cost}")
            if s.difficulty is not None
            else StepOption(s.name, s.name)
            for s in data.spells.values()
        )
    if kind == "equipo":
        special = setting(settings, "armaduras_especiales")
        weapons = [
            StepOption(w.name, w.name, " / ".join(w.damage.values()) + restriction(w))
            for w in data.weapons.values()
        ]
        armour = [
            StepOption(a.name, a.name, f"Absorción {a.absorption} · Estorbo {a.estorbo}")
            for a in data.armour.values()
            if special or not a.special
        ]
        shields = [
            StepOption(s.name, s.name, f"Defensa +{s.defensa}") for s in data.shields.values()
        ]
        return (*weapons, *armour, *shields)
    return ()


def _slots(name: str) -> tuple[str, ...]:
    """The ``equipo`` slots a catalogue item can fill, in order."""
    data = data_catalogue()
    if name in data.weapons:
        return ("arma_principal", "arma_secundaria")
    if name in data.armour:
        return ("armadura",)
    if name in data.shields:
        return ("escudo",)
    return ()


def _in_slot(equipo: Mapping[str, Any], slot: str, name: str) -> bool:
    return equipo.get(slot) is True if slot == "escudo" else equipo.get(slot) == name


def adjust_inventory(
    sheet: Mapping[str, Any], item: str, quantity: int, settings: Settings
) -> dict[str, Any]:
    """Add (positive) or remove (negative) ``quantity`` of ``item``; removing more than the
    character has is refused, naming how many there are."""
    text = item_request(item, quantity)
    data = data_catalogue()
    updated = copy.deepcopy(dict(sheet))
    equipo = dict(updated.get("equipo") or {}) if isinstance(updated.get("equipo"), Mapping) else {}
    pack = carried(updated)
    known = [*data.weapons, *data.armour, *data.shields]
    name = lookup(text, pack) or lookup(text, known) or text
    slots = _slots(name)
    if quantity > 0:
        left = quantity
        for slot in slots:
            if left and not equipo.get(slot):
                equipo[slot] = True if slot == "escudo" else name
                left -= 1
        if left:
            pack[name] = pack.get(name, 0) + left
    else:
        held = [slot for slot in slots if _in_slot(equipo, slot, name)]
        have = pack.get(name, 0) + len(held)
        wanted = -quantity
        if wanted > have:
            params = {"name": name, "have": have, "wanted": wanted}
            raise RulesError(Problem("nucleo.problem.item_not_carried", "equipo", params))
        from_pack = min(wanted, pack.get(name, 0))
        if from_pack:
            pack[name] -= from_pack
            if not pack[name]:
                del pack[name]
        for slot in reversed(held[: wanted - from_pack]):
            equipo[slot] = False if slot == "escudo" else None
            if slot == "arma_principal":
                equipo["dos_manos"] = False
    equipo["otros"] = pack
    updated["equipo"] = equipo
    return updated


def adjust_money(
    sheet: Mapping[str, Any], amount: int, currency: str | None, settings: Settings
) -> dict[str, Any]:
    """Add or spend ``amount`` of the campaign's currency; never below zero."""
    name = setting(settings, "moneda")
    if currency is not None and fold_words(currency) != fold_words(name):
        params = {"name": currency, "currency": name}
        raise RulesError(Problem("nucleo.problem.unknown_currency", "dinero", params))
    have = sheet.get("dinero", 0)
    have = have if isinstance(have, int) and not isinstance(have, bool) else 0
    if have + amount < 0:
        params = {"amount": -amount, "have": have, "currency": name}
        raise RulesError(Problem("nucleo.problem.not_enough_money", "dinero", params))
    updated = copy.deepcopy(dict(sheet))
    updated["dinero"] = have + amount
    return updated
