"""Hit points and what they mean in a fight, Swords & Wizardry Completo (seed 000).

The seed's text ends before «Daño y Muerte»; what it does say is that hit points measure
«el daño que puede soportar antes caer incapacitado» (seed 000 line 56) and that «cualquier
enemigo abatido … no podrá actuar» (line 746).  So by default a character at 0 hit points or
less is *incapacitado* (cannot act, loses its turn, not dead), and a monster stat block at 0
is *abatido* (out of the fight).  Two common house rules are campaign settings
(``pg_cero``): ``muere_a_menos_10`` (incapacitated from 0 to −9, dead at −10) and
``muere_a_0`` (dead at 0).

Hit points are the only measure S&W has, so a hidden NPC is described by the fraction it
has left, in words the campaign sets (``descripcion_pg``: four words separated by ``|``,
default «ileso|herido|gravemente herido|caído»): full, more than half, more than 0, 0 or
less.  ``docs/rules-decisions.md`` records both readings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.combat.health import CombatState, Condition
from rules.swc.monster import is_npc
from rules.systems.base import Settings, Sheet

__all__ = [
    "DEATH_RULES",
    "DEFAULT_DESCRIPTION",
    "combat_state",
    "describe",
    "life_state",
]

DEATH_RULES: tuple[str, ...] = ("incapacitado", "muere_a_menos_10", "muere_a_0")
DEFAULT_DESCRIPTION = "ileso|herido|gravemente herido|caído"
DEATH_AT_MINUS = -10

INCAPACITADO, MUERTO, ABATIDO, NORMAL = "incapacitado", "muerto", "abatido", "normal"


def _words(settings: Settings) -> list[str]:
    raw = str(settings.get("descripcion_pg") or DEFAULT_DESCRIPTION)
    words = [w.strip() for w in raw.split("|")]
    if len(words) != 4 or not all(words):
        words = DEFAULT_DESCRIPTION.split("|")
    return words


def describe(current: int, maximum: int, settings: Settings) -> str:
    """The campaign's word for ``current`` of ``maximum`` hit points (no numbers)."""
    words = _words(settings)
    if current <= 0:
        return words[3]
    if current >= maximum:
        return words[0]
    return words[1] if 2 * current > maximum else words[2]


def life_state(sheet: Sheet, current: int, settings: Settings) -> str:
    """``normal``, ``incapacitado``, ``muerto`` (house rules) or ``abatido`` (a monster at 0)."""
    if current > 0:
        return NORMAL
    if is_npc(sheet):
        return ABATIDO
    rule = str(settings.get("pg_cero", "incapacitado"))
    if rule == "muere_a_0" or (rule == "muere_a_menos_10" and current <= DEATH_AT_MINUS):
        return MUERTO
    return INCAPACITADO


def _pg(sheet: Sheet) -> tuple[int, int]:
    pg: Mapping[str, Any] = sheet.get("pg") or {}
    return int(pg.get("actual", 0)), int(pg.get("max", 0))


def combat_state(sheet: Sheet, settings: Settings) -> CombatState:
    """The sheet's hit points as a :class:`CombatState` (see the module docstring)."""
    current, maximum = _pg(sheet)
    state = life_state(sheet, current, settings)
    words = describe(current, maximum, settings)
    if state == NORMAL:
        condition = Condition.OK if current >= maximum else Condition.WOUNDED
        return CombatState(
            condition, state, words, description=words, hit_points=(current, maximum)
        )
    condition = Condition.UNCONSCIOUS if state == INCAPACITADO else Condition.DEAD
    return CombatState(
        condition,
        state,
        state,  # an id of the ``estado`` names table (rules.names.display_state names it)
        skip_turn=True,
        allowed=frozenset(),
        reason="combat.problem.cannot_act",
        description=words,
        hit_points=(current, maximum),
    )
