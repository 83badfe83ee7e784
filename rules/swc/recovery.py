"""Healing between fights in S&W (issue 23 §3).

Seed 000 ends before any rule on natural healing (its text stops at the combat tables) and
has no spell descriptions.  Our decisions (docs/rules-decisions.md):

* A day of rest heals ``curacion_por_dia`` hit points (house default 1, the classic game's
  rate; 0 turns natural healing off), never above the maximum; a character the campaign's
  ``pg_cero`` counts as dead does not heal by resting.
* A new day brings back what the seed gives «una vez por día» (Imposición de manos, seed 000
  line 538; Maestría del cuerpo, line 332: :mod:`rules.swc.powers`) and the prepared spells
  («no se podrá volver a lanzar hasta el día siguiente»: :func:`rules.swc.spellbook.rest`).
"""

from __future__ import annotations

from typing import Any

from rules.swc import health, spellbook
from rules.swc.powers import USED_TODAY
from rules.swc.sheet import setting
from rules.systems.base import Recovered, Settings, Sheet

__all__ = ["GUARDED_PATHS", "rest_days"]

#: Health and resources a player may not set by hand while ``salud_por_comandos`` is on.
GUARDED_PATHS = ("pg.actual", spellbook.SPENT, USED_TODAY)


def rest_days(sheet: Sheet, days: int, settings: Settings) -> Recovered:
    """``days`` of rest: ``curacion_por_dia`` hit points a day up to the maximum; the day's
    powers and the prepared spells come back.  The dead stay dead (a note, no change)."""
    pg = sheet.get("pg") or {}
    current, maximum = int(pg.get("actual", 0)), int(pg.get("max", 0))
    if health.life_state(sheet, current, settings) == health.MUERTO:
        return Recovered(sheet, 0, health.MUERTO, notes=("rest.note.dead",))
    per_day = int(setting(settings, "curacion_por_dia"))
    after = max(current, min(maximum, current + per_day * days))
    updated: dict[str, Any] = {**sheet, "pg": {**pg, "actual": after}}
    restored: list[str] = []
    if updated.pop(USED_TODAY, None):
        restored.append("rest.restored.powers")
    if sheet.get(spellbook.SPENT):
        updated = dict(spellbook.rest(updated, settings).sheet)
        restored.append("rest.restored.slots")
    state = health.life_state(updated, after, settings)
    notes = () if state == health.NORMAL else (f"swc.note.{state}",)
    return Recovered(updated, after - current, state, restored=tuple(restored), notes=notes)
