"""Reading a referee's quick stat block typed in a modal: armour and weapons as text.

A monster's gear is often its own ("Garras 1d6", "Piel gruesa 1d4"), so besides the
campaign's names the text may give inline entries, stored in the shapes the sheet already
accepts (``{"nombre", "dano", "cualidades"}`` and ``{"nombre", "proteccion", "defensa"}``).
"""

from __future__ import annotations

import re
from typing import Any

from rules.rolweb.equipment import Quality, load_armour, load_weapons
from rules.rolweb.settings import RolwebSettings
from rules.systems.base import Problem, RulesError

__all__ = ["parse_armour_text", "parse_weapons_text"]

_DICE = re.compile(r"^(\d*d\d+|\d+)([+-](\d*d\d+|\d+))*$", re.IGNORECASE)
MAX_WEAPONS = 10


def _fold(text: str) -> str:
    return text.strip().casefold()


def parse_armour_text(text: str, settings: RolwebSettings) -> str | dict[str, Any] | None:
    """``""``/``ninguna`` → None; a campaign armour's name → that name; ``1d4`` or
    ``Piel gruesa 1d4`` → natural armour with that protection and no Defensa penalty."""
    text = " ".join(text.split())
    if not text or _fold(text) == "ninguna":
        return None
    known = {_fold(a.name): a.name for a in load_armour(settings)}
    if _fold(text) in known:
        return known[_fold(text)]
    *name, dice = text.split(" ")
    if not _DICE.match(dice):
        raise RulesError(Problem("rolweb.problem.bad_armour_text", "armadura", {"text": text}))
    return {"nombre": " ".join(name) or "Natural", "proteccion": dice.lower(), "defensa": 0}


def _weapon(entry: str, known: dict[str, str]) -> str | dict[str, Any]:
    if _fold(entry) in known:
        return known[_fold(entry)]
    words = entry.split(" ")
    at = next((i for i, word in enumerate(words) if _DICE.match(word)), None)
    if not at:  # None, or dice with no name before them
        raise RulesError(Problem("rolweb.problem.bad_weapon_text", "armas", {"text": entry}))
    qualities = []
    for word in words[at + 1 :]:
        match = next((q for q in Quality if _fold(q.value) == _fold(word)), None)
        if match is None:
            raise RulesError(
                Problem("rolweb.problem.unknown_quality", "armas", {"name": word, "text": entry})
            )
        qualities.append(match.value)
    return {"nombre": " ".join(words[:at]), "dano": words[at].lower(), "cualidades": qualities}


def parse_weapons_text(text: str, settings: RolwebSettings) -> list[Any]:
    """``"Espada, Garras 1d6, Cola 1d8 Larga"``: names from the campaign's list, or a name,
    damage dice and optional qualities (Larga, Corta, Pesada, Distancia, Natural)."""
    known = {_fold(w.name): w.name for w in load_weapons(settings)}
    entries = [" ".join(part.split()) for part in text.split(",") if part.strip()]
    if len(entries) > MAX_WEAPONS:
        raise RulesError(
            Problem("rolweb.problem.too_many_weapons", "armas", {"limit": MAX_WEAPONS})
        )
    problems: list[Problem] = []
    weapons: list[Any] = []
    for entry in entries:
        try:
            weapons.append(_weapon(entry, known))
        except RulesError as error:
            problems += error.problems
    if problems:
        raise RulesError(problems)
    return weapons
