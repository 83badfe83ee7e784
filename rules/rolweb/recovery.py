"""Healing between fights in rolweb (seed 001, DAÑO Y CURACIÓN: CURACIÓN DE HERIDAS, lines
148-155; PRIMEROS AUXILIOS, line 177).

* Line 152: «La curación natural sucede al ritmo de un punto de Resistencia por día» —
  :func:`rest_days` gives :data:`~rules.rolweb.damage.NATURAL_HEALING_PER_DAY` per day the GM
  advances.  Line 142 lists what stabilises a moribundo («curación mística, hierbas curativas
  o la habilidad Medicus»): resting is not among them, so a dying character does not heal by
  resting (the reply says first aid is needed) and the dead never do.
* Line 153: «Las hierbas curativas alquímicas recuperan un punto de Resistencia al instante»
  and line 177: first aid «requiere el gasto de unas hierbas curativas»: the herbs are an item
  of the backpack (``equipo``, :data:`HERBS_ITEM`), checked when used and spent by
  :func:`spend_herbs` on the user's current sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.rolweb import sheet as sheets
from rules.rolweb.damage import LifeState, heal, natural_healing
from rules.systems.base import Problem, Recovered, RulesError, Settings, Sheet
from rules.text import fold

__all__ = [
    "GUARDED_PATHS",
    "HERBS_ITEM",
    "herbs_carried",
    "rest_days",
    "spend_herbs",
]

#: The backpack item first aid spends (seed 001 lines 153 and 177: «hierbas curativas»);
#: «Hierbas» alone is read as the same item.
HERBS_ITEM = "Hierbas curativas"
_HERBS_NAMES = frozenset({fold(HERBS_ITEM), fold("Hierbas")})

#: Health and resources a player may not set by hand while ``salud_por_comandos`` is on.
GUARDED_PATHS = ("resistencia.actual", "resistencia.maxima", "estado", "fallos_muerte")


def _herbs_key(sheet: Sheet) -> str | None:
    carried = sheet.get("equipo")
    if not isinstance(carried, Mapping):
        return None
    return next((str(k) for k in carried if fold(str(k)) in _HERBS_NAMES), None)


def herbs_carried(sheet: Sheet) -> int:
    """How many healing herbs the backpack holds (0 when none or unreadable)."""
    key = _herbs_key(sheet)
    if key is None:
        return 0
    count = (sheet.get("equipo") or {}).get(key, 0)
    return count if isinstance(count, int) and not isinstance(count, bool) else 0


def spend_herbs(sheet: Sheet) -> dict[str, Any]:
    """The sheet with one healing herb fewer; RulesError naming the character when it
    carries none (line 177: first aid «requiere el gasto de unas hierbas curativas»)."""
    key = _herbs_key(sheet)
    have = herbs_carried(sheet)
    if key is None or have < 1:
        raise RulesError(
            Problem(
                "rolweb.problem.no_herbs",
                "equipo",
                {"name": str(sheet.get("name", "")), "item": HERBS_ITEM},
            )
        )
    updated = sheets.copy_sheet(sheet)
    carried = dict(updated.get("equipo") or {})
    if have == 1:
        carried.pop(key)
    else:
        carried[key] = have - 1
    updated["equipo"] = carried
    return updated


def rest_days(sheet: Sheet, days: int, settings: Settings) -> Recovered:
    """``days`` of rest: one Resistencia a day (line 152) up to the maximum.  A moribundo is
    not stabilised by resting (line 142 names first aid only) and the dead stay dead: their
    sheet is returned unchanged with a note, so a party's rest still heals the others."""
    state = sheets.state(sheet)
    if state is LifeState.DEAD:
        return Recovered(sheet, 0, state.value, notes=("rest.note.dead",))
    if state is LifeState.DYING:
        return Recovered(sheet, 0, state.value, notes=("rolweb.note.rest_needs_first_aid",))
    current, maximum = sheets.current_toughness(sheet), sheets.max_toughness(sheet)
    after, new_state = heal(current, maximum, natural_healing(days), state)
    updated = sheets.copy_sheet(sheet)
    updated["resistencia"] = {**(updated.get("resistencia") or {}), "actual": after}
    updated["estado"] = new_state.value
    return Recovered(updated, after - current, new_state.value)
