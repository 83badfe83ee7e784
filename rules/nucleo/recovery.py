"""Healing between fights in Núcleo (seed 002): «Recuperar el aliento», days of rest and
Recuperación.

* «Recuperar el aliento» (seed 002 line 225-227): «Tras un combate, los personajes pueden
  recuperar el aliento, es decir, descansar durante 5 minutos … Ésto recupera 1d6 puntos de
  vida.» The seed sets no limit.  Our decision (docs/rules-decisions.md): once after each
  fight the character took part in (setting ``recuperar_aliento`` = ``una_por_combate``, the
  default), or whenever the GM's story allows (``libre``).  The sheet keeps the fight it was
  taken after (:data:`BREATH_KEY`), so a second one after the same fight is refused.
* Recuperación (F8+, seed 002 line 305): «Cura 2 PV adicional en cada curación, natural o
  mágica» — :func:`rules.nucleo.health.heal` adds it to every healing, the breath included.
* Natural healing: the seed gives none although Recuperación names it.  Our decision: a day
  of rest heals ``curacion_por_dia`` PV (house default 1, as rolweb's seed 001 line 152; 0
  turns it off), each day being one healing (Recuperación +2 a day).  A night's rest also
  refills the mana (:func:`rules.nucleo.spellbook.rest`, «un descanso nocturno»).
"""

from __future__ import annotations

import random
from typing import Any

from rules.combat.attack import RollLine
from rules.nucleo import health
from rules.nucleo.sheet import character, setting
from rules.systems.base import Problem, Recovered, RulesError, Settings, Sheet

__all__ = [
    "BREATH_KEY",
    "GUARDED_PATHS",
    "catch_breath",
    "rest_days",
]

#: the id of the last fight the character caught its breath after (``una_por_combate``)
BREATH_KEY = "aliento_tras_combate"
#: Health and resources a player may not set by hand while ``salud_por_comandos`` is on.
GUARDED_PATHS = ("heridas", "pv_maximo", "mana_gastado", BREATH_KEY)


def _notes(before: str, after: str, recuperacion: bool, healed: int) -> tuple[str, ...]:
    notes = ["nucleo.note.recuperacion"] if recuperacion and healed else []
    if after != before:
        notes.append(f"nucleo.note.estado_{after}")
    return tuple(notes)


def catch_breath(
    sheet: Sheet, fight: int | None, settings: Settings, rng: random.Random
) -> Recovered:
    """«Recuperar el aliento»: 1d6 PV (+2 with Recuperación) after the fight ``fight``."""
    before = character(sheet, settings)
    if before.state == health.MUERTO:
        raise RulesError(Problem("nucleo.problem.breath_dead", "heridas"))
    once = setting(settings, "recuperar_aliento") == "una_por_combate"
    if once and fight is None:
        raise RulesError(Problem("nucleo.problem.breath_no_fight"))
    if once and sheet.get(BREATH_KEY) == fight:
        raise RulesError(Problem("nucleo.problem.breath_taken"))
    recuperacion = "Recuperación" in before.advantages
    result = health.recover_breath(before.wounds, rng, recuperacion)
    updated: dict[str, Any] = {**sheet, "heridas": result.wounds}
    if fight is not None:
        updated[BREATH_KEY] = fight
    after = character(updated, settings)
    roll = RollLine("Recuperar el aliento", "1d6", result.roll, result.breakdown)
    return Recovered(
        updated,
        result.healed,
        after.state,
        roll=roll,
        notes=_notes(before.state, after.state, recuperacion, result.healed),
    )


def rest_days(sheet: Sheet, days: int, settings: Settings) -> Recovered:
    """``days`` of rest: ``curacion_por_dia`` PV a day, each day one healing (Recuperación
    +2 a day); the mana refills when magic is on.  The dead stay dead (a note, no change)."""
    before = character(sheet, settings)
    if before.state == health.MUERTO:
        return Recovered(sheet, 0, before.state, notes=("rest.note.dead",))
    per_day = int(setting(settings, "curacion_por_dia"))
    recuperacion = "Recuperación" in before.advantages
    wounds = before.wounds
    for _day in range(days if per_day > 0 else 0):
        wounds = health.heal(wounds, per_day, recuperacion)
        if wounds == 0:
            break
    updated: dict[str, Any] = {**sheet, "heridas": wounds}
    restored: tuple[str, ...] = ()
    if setting(settings, "magia") and before.mana_spent:
        updated["mana_gastado"] = 0
        restored = ("rest.restored.mana",)
    after = character(updated, settings)
    healed = before.wounds - wounds
    return Recovered(
        updated,
        healed,
        after.state,
        restored=restored,
        notes=_notes(before.state, after.state, recuperacion, healed),
    )
