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

Healing herbs (issue 23 §3) are an item of the user's backpack: Medicus «con hierbas» needs
one and spends it, and the herbs alone (:data:`~rules.rolweb.recovery.HERBS_ITEM`, used like
an ability by anyone who carries them) heal 1 (line 153); first aid costs the combat action
(line 177).  The herb is spent by :func:`pay_ability` on the user's current sheet.
"""

from __future__ import annotations

import random
from typing import Any

from rules import dice
from rules.combat.attack import Fighter, RollLine, TargetChange
from rules.rolweb import sheet as sheets
from rules.rolweb.abilities import Level, find_ability, healing_dice, load_abilities
from rules.rolweb.damage import HERBS_HEALING, LifeState
from rules.rolweb.recovery import HERBS_ITEM, herbs_carried, spend_herbs
from rules.rolweb.settings import parse_settings
from rules.systems.base import AbilityUse, KnownAbility, Problem, RulesError, Settings, Sheet
from rules.text import fold

__all__ = ["HERBS_COST", "ability_names", "known_abilities", "pay_ability", "use_ability"]

_SELF_ONLY = frozenset({"recuperación"})
#: :attr:`AbilityUse.costs`: one healing herb from the user's backpack
HERBS_COST = "hierbas"
#: the herbs used alone are first aid: a combat action (seed 001 line 177)
_FIRST_AID_ACTION = "activa"
#: the level shown for the herbs, which need no ability (``display(…, "nivel", …)``)
ITEM_LEVEL = "objeto"


def _refuse(key: str, **params: Any) -> RulesError:
    return RulesError(Problem(key, "", params))


def use_ability(
    sheet: Sheet,
    name: str,
    target: Fighter | None,
    settings: Settings,
    rng: random.Random,
    *,
    level: str | None = None,
    herbs: bool = False,
    amount: int | None = None,
) -> AbilityUse:
    """Use ``name`` on ``target`` (None: the user itself); ``level`` picks a lower level.
    rolweb's healing is rolled (or the herbs' fixed 1): nobody chooses an ``amount``."""
    if amount is not None:
        raise _refuse("rolweb.problem.amount_rolled")
    parsed = parse_settings(settings)
    if fold(name) in (fold(HERBS_ITEM), fold("Hierbas")):
        return _herbs_alone(sheet)
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
    if herbs and not details.healing_with_herbs:
        raise _refuse("rolweb.problem.herbs_not_used", name=ability.name)
    if herbs and herbs_carried(sheet) < 1:
        raise _refuse("rolweb.problem.no_herbs", name=str(sheet.get("name", "")), item=HERBS_ITEM)
    expression = healing_dice(ability, used, herbs)
    if expression is None:
        return AbilityUse(
            ability.name,
            used.term,
            details.action,
            details.effect,
            grants=details.extra_actions,
        )
    rolled = dice.roll(expression, rng)
    notes: list[str] = []
    if herbs and details.healing_with_herbs:
        notes += ["rolweb.note.with_herbs", "rolweb.note.herbs_spent"]
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
        grants=details.extra_actions,
        costs=(HERBS_COST,) if herbs else (),
    )


def _herbs_alone(sheet: Sheet) -> AbilityUse:
    """First aid with the herbs alone: 1 Resistencia at once (line 153), anyone who carries
    them, on anyone (a moribundo is stabilised by it, line 142), a combat action (line 177)."""
    if sheets.state(sheet) is not LifeState.ACTIVE:
        raise _refuse("rolweb.problem.cannot_use_ability", name=HERBS_ITEM)
    if herbs_carried(sheet) < 1:
        raise _refuse("rolweb.problem.no_herbs", name=str(sheet.get("name", "")), item=HERBS_ITEM)
    return AbilityUse(
        HERBS_ITEM,
        ITEM_LEVEL,
        _FIRST_AID_ACTION,
        "",
        change=TargetChange("heal", HERBS_HEALING),
        notes=("rolweb.note.herbs_alone",),
        costs=(HERBS_COST,),
    )


def pay_ability(sheet: Sheet, use: AbilityUse, settings: Settings) -> Sheet:
    """The user's sheet with the use's costs paid: one herb spent per :data:`HERBS_COST`
    (RulesError when none is left on this version: a concurrent use took the last one)."""
    paid: Sheet = sheet
    for cost in use.costs:
        if cost == HERBS_COST:
            paid = spend_herbs(paid)
    return paid


def ability_names(settings: Settings) -> tuple[str, ...]:
    """Every ability of the campaign's list (``habilidades`` setting, or the shipped one)."""
    return tuple(a.name for a in load_abilities(parse_settings(settings)))


def known_abilities(sheet: Sheet, settings: Settings) -> tuple[KnownAbility, ...]:
    """The sheet's abilities of the campaign's list, by name, with the level it has, the
    action it costs and its effect (a name the list lacks or an unknown level is left out)."""
    parsed = parse_settings(settings)
    lines = []
    for name, term in sorted((sheet.get("habilidades") or {}).items()):
        ability = find_ability(name, parsed)
        try:
            level = Level.from_term(term)
        except ValueError:
            continue
        if ability is None or level is Level.NONE:
            continue
        details = ability.levels[level]
        lines.append(
            KnownAbility(
                ability.name,
                level.term,
                details.action.value,
                ability.description,
                details.effect,
            )
        )
    carried = herbs_carried(sheet)
    if carried:  # the herbs are used like an ability by whoever carries them
        lines.append(
            KnownAbility(
                HERBS_ITEM, ITEM_LEVEL, _FIRST_AID_ACTION, f"× {carried}", "+1 Resistencia"
            )
        )
    return tuple(lines)
