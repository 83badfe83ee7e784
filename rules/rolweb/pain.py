"""The pain threshold's choice and «en el suelo» (seed 001, UMBRAL DE DOLOR, LEVANTARSE, VENTAJA).

* UMBRAL DE DOLOR (line 131): «Cuando una criatura sufre un daño igual o superior a su
  Umbral de dolor en un solo ataque …, el jugador debe elegir uno de los siguientes efectos:
  El defensor cae al suelo y debe gastar una o más acciones para levantarse. El atacante
  obtiene un ataque gratuito contra el defensor.»  The hit marks a choice owed on the hurt
  one's sheet (:func:`owe`, from ``apply_damage``), numbered so a button can name it; the
  choice applies it (:func:`choose`); unchosen when its turn begins, the campaign's
  ``umbral_por_defecto`` applies (default: it falls; docs/rules-decisions.md).  One who
  does not stand any more (dying, dead) owes nothing.
* «En el suelo» (``en_el_suelo`` on the sheet): VENTAJA line 216 «Todos los ataques cuerpo a
  cuerpo contra un enemigo en el suelo. Los ataques a distancia no se benefician» and
  LEVANTARSE line 181 «los adversarios que estén en pie y trabados cuerpo a cuerpo obtienen
  ventaja» — read by :mod:`rules.rolweb.fight` (:func:`prone_advantage`).  The seed gives a
  fighter on the ground no penalty of its own.
* LEVANTARSE (lines 60, 96, 181): «una sola acción de movimiento si el personaje supera una
  tirada de Ágil. De lo contrario necesita el turno entero» — :func:`stand_test` rolls Ágil
  and prices it in movement actions for the one counting procedure
  (:mod:`rules.combat.actions`): one on a success, two (the movement action and the combat
  action turned into movement) on a failure.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.combat import effects
from rules.rolweb import sheet as sheets
from rules.rolweb.checks import roll_test, simple_target
from rules.rolweb.damage import LifeState, PainEffect
from rules.rolweb.settings import parse_settings
from rules.systems.base import (
    ActRequest,
    PainChosen,
    PainOwed,
    Problem,
    RulesError,
    Settings,
    StandTest,
)

__all__ = [
    "MAX_OWED",
    "OWED_KEY",
    "PRONE_KEY",
    "LAST_KEY",
    "after_fight",
    "choose",
    "is_prone",
    "name_attacker",
    "owe",
    "owed",
    "prone_advantage",
    "set_prone",
    "stand_test",
]

PRONE_KEY = "en_el_suelo"
OWED_KEY = "umbral_pendiente"
LAST_KEY = "umbral_ultimo"  # the last number handed out: a stale button never matches again
MAX_OWED = 10  # hits a character may owe a choice for at once (older ones are dropped)
OPTIONS: tuple[str, ...] = (PainEffect.KNOCKED_DOWN.value, PainEffect.FREE_ATTACK.value)


def _refuse(key: str, **params: Any) -> RulesError:
    return RulesError(Problem(key, "", dict(params)))


def is_prone(sheet: Mapping[str, Any]) -> bool:
    return sheet.get(PRONE_KEY) is True


def set_prone(sheet: Mapping[str, Any], prone: bool) -> dict[str, Any]:
    updated = sheets.copy_sheet(sheet)
    if prone:
        updated[PRONE_KEY] = True
    else:
        updated.pop(PRONE_KEY, None)
    return updated


def owed(sheet: Mapping[str, Any]) -> tuple[PainOwed, ...]:
    """The choices ``sheet`` still owes, oldest first (malformed entries are ignored)."""
    found: list[PainOwed] = []
    for raw in sheet.get(OWED_KEY) or ():
        if not isinstance(raw, Mapping) or not isinstance(raw.get("n"), int):
            continue
        attacker = raw.get("atacante")
        found.append(PainOwed(raw["n"], attacker if isinstance(attacker, str) else None, OPTIONS))
    return tuple(found)


def _store(sheet: dict[str, Any], entries: list[PainOwed]) -> dict[str, Any]:
    if entries:
        sheet[OWED_KEY] = [{"n": e.ref, "atacante": e.attacker} for e in entries[-MAX_OWED:]]
    else:
        sheet.pop(OWED_KEY, None)
    return sheet


def owe(sheet: Mapping[str, Any], attacker: str | None = None) -> dict[str, Any]:
    """``sheet`` owing one more choice (a hit over its threshold), numbered after the last."""
    updated = sheets.copy_sheet(sheet)
    last = updated.get(LAST_KEY)
    ref = (last if isinstance(last, int) and not isinstance(last, bool) else 0) + 1
    updated[LAST_KEY] = ref
    return _store(updated, [*owed(sheet), PainOwed(ref, attacker, OPTIONS)])


def drop_owed(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """``sheet`` owing nothing (it fell dying or dead: nobody standing is left to choose)."""
    return _store(sheets.copy_sheet(sheet), [])


def name_attacker(sheet: Mapping[str, Any], attacker: str) -> dict[str, Any]:
    """The latest choice (the hit just written) names who dealt it."""
    entries = list(owed(sheet))
    if not entries or entries[-1].attacker is not None:
        return sheets.copy_sheet(sheet)
    last = entries[-1]
    entries[-1] = PainOwed(last.ref, attacker, last.options)
    return _store(sheets.copy_sheet(sheet), entries)


def choose(
    sheet: Mapping[str, Any], ref: int, choice: str | None, settings: Settings
) -> PainChosen:
    """Apply the choice ``ref``: ``derribado`` puts the sheet on the ground;
    ``ataque_gratuito`` leaves it standing and grants its attacker a free attack (a reaction
    the attacker makes with ``/attack``).  ``choice`` None applies ``umbral_por_defecto``."""
    entries = list(owed(sheet))
    entry = next((e for e in entries if e.ref == ref), None)
    if entry is None:
        raise _refuse("pain.problem.not_owed")
    by_default = choice is None
    picked = parse_settings(settings).pain_default.value if choice is None else choice
    if picked not in entry.options:
        raise _refuse("pain.problem.bad_choice", choice=picked)
    updated = _store(sheets.copy_sheet(sheet), [e for e in entries if e.ref != ref])
    prone = picked == PainEffect.KNOCKED_DOWN.value
    if prone:
        updated[PRONE_KEY] = True
    return PainChosen(updated, ref, picked, by_default, entry.attacker, prone, not prone)


def stand_test(sheet: Mapping[str, Any], settings: Settings, rng: random.Random) -> StandTest:
    """LEVANTARSE: an Ágil test (the effects on Ágil count); one movement action on a
    success, the whole turn (two) on a failure.  Refused for one standing or not alive."""
    if not is_prone(sheet):
        raise _refuse("pain.problem.not_prone", name=str(sheet.get("name", "")))
    if sheets.state(sheet) is not LifeState.ACTIVE:
        raise _refuse("pain.problem.cannot_stand", name=str(sheet.get("name", "")))
    parsed = parse_settings(settings)
    bonus = sum(v for _n, v in effects.modifiers_for(sheet, effects.CHECK, "attribute:Ágil"))
    target = simple_target(sheets.attribute(sheet, "Ágil"), bonus)
    test = roll_test(target, rng, parsed.naturals)
    stand = ActRequest("stand")
    return StandTest(
        costs=(stand,) if test.success else (stand, stand),
        success=test.success,
        expression="1d20",
        breakdown=_breakdown(test.rolls, test.kept, target),
        roll=test.kept,
        target=target,
    )


def _breakdown(rolls: tuple[int, ...], kept: int, target: int) -> str:
    shown = ", ".join(map(str, rolls))
    return f"1d20 ({shown}) → {kept} ≤ {target}" if len(rolls) > 1 else f"1d20 ({kept}) ≤ {target}"


def after_fight(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """The fight ended: everyone gets up and no choice of it is owed any more."""
    return drop_owed(set_prone(sheet, False))


def prone_advantage(attacker: Mapping[str, Any] | None, target: Mapping[str, Any] | None) -> bool:
    """VENTAJA «en el suelo»: the target is on the ground and the attacker stands (a sheetless
    attacker stands; a ranged attack is the caller's to exclude)."""
    if target is None or not is_prone(target):
        return False
    return attacker is None or not is_prone(attacker)
