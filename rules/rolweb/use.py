"""Using an ability from chat (seed 001: USO DE HABILIDADES, CURACIÓN DE HERIDAS).

``use_ability`` reads the campaign's ability list (``habilidades`` setting, or the shipped
``data/rolweb/abilities.json``): the character's level in it (principiante, adepto, maestro;
«un adepto puede usar su habilidad a nivel principiante»), the action it costs, its effect
text, and — for the healing ones — the roll and the change to the target:

* Medicus «cura 1D4 puntos de Resistencia al instante, más si se combina con unas hierbas
  curativas» (line 154): ``herbs`` uses the level's herbal dice; any healing stabilises a
  moribundo (line 142);
* Recuperación heals the user only («recobra fuerzas por sí mismo»);
* Imposición de manos heals whom it touches.

Only Medicus principiante's 1D4 is the seed's; the other amounts are house defaults and the
result says so (``rolweb.note.house_amount``) unless the campaign set its own list.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules import dice
from rules.combat.attack import Fighter, RollLine, TargetChange
from rules.rolweb import sheet as sheets
from rules.rolweb.abilities import ActionType, Level, find_ability, healing_dice
from rules.rolweb.damage import LifeState
from rules.rolweb.settings import parse_settings
from rules.systems.base import Problem, RulesError, Settings, Sheet

__all__ = ["AbilityUse", "use_ability"]

_SELF_ONLY = frozenset({"recuperación"})


def _refuse(key: str, **params: Any) -> RulesError:
    return RulesError(Problem(key, "", params))


@dataclass(frozen=True, slots=True)
class AbilityUse:
    """One use: the level used, the action it costs, the effect text, the healing roll and
    the change for the target (None: the effect is the text, for the GM to apply)."""

    ability: str
    level: str
    action: ActionType
    effect: str
    roll: RollLine | None = None
    change: TargetChange | None = None
    notes: tuple[str, ...] = ()


def use_ability(
    sheet: Sheet,
    name: str,
    target: Fighter | None,
    settings: Settings,
    rng: random.Random,
    *,
    level: str | None = None,
    herbs: bool = False,
) -> AbilityUse:
    """Use ``name`` on ``target`` (None: the user itself); ``level`` picks a lower level."""
    parsed = parse_settings(settings)
    ability = find_ability(name, parsed)
    if ability is None:
        raise _refuse("rolweb.problem.unknown_ability", name=name)
    own = sheets.level(sheet, ability.name)
    if own is Level.NONE:
        raise _refuse("rolweb.problem.ability_not_known", name=ability.name)
    if sheets.state(sheet) is not LifeState.ACTIVE:
        raise _refuse("rolweb.problem.cannot_use_ability", name=ability.name)
    used: Level = own
    if level is not None:
        try:
            used = Level.from_term(level)
        except ValueError:
            raise _refuse("rolweb.problem.ability_level_unknown", level=level) from None
        if used is Level.NONE or used > own:
            raise _refuse("rolweb.problem.ability_level_too_high", name=ability.name, level=level)
    if ability.name.casefold() in _SELF_ONLY and target is not None and target.sheet != sheet:
        raise _refuse("rolweb.problem.ability_self_only", name=ability.name)
    details = ability.levels[used]
    expression = healing_dice(ability, used, herbs)
    if expression is None:
        return AbilityUse(ability.name, used.term, details.action, details.effect)
    rolled = dice.roll(expression, rng)
    notes: list[str] = []
    if herbs and details.healing_with_herbs:
        notes.append("rolweb.note.with_herbs")
    house = not parsed.abilities_json.strip() and not (details.seed_amount and not herbs)
    if house:
        notes.append("rolweb.note.house_amount")
    return AbilityUse(
        ability.name,
        used.term,
        details.action,
        details.effect,
        RollLine(ability.name, rolled.expression, rolled.total, str(rolled)),
        TargetChange("heal", max(0, rolled.total)),
        tuple(notes),
    )
