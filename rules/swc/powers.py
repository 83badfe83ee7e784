"""The class powers that heal «una vez por día» (seed 000), used with ``/ability use``.

* Paladín, «Imposición de Manos: Una vez por día, el Paladín puede "imponer las manos" para
  curar hasta 2 puntos de golpe por nivel del Paladín» (seed 000 line 538): on anyone he
  touches, as many points as the player chooses up to 2 × level (all of them by default).
  The other use the seed allows (curing a disease instead) has no mechanics here: the GM
  reads the reply and narrates it.
* Monje, «Maestría del Cuerpo (nivel 7): Una vez por día, el Monje se puede curar así mismo
  1d6+1 puntos de golpe. Por cada nivel por encima del séptimo, la curación aumenta en un
  punto adicional» (line 332): himself only, from level 7.

Once a day is tracked on the sheet (:data:`USED_TODAY`, the power ids used since the last
rest) and paid by :func:`pay_power` on the user's current sheet, so two uses at once spend
one; a day of rest (:func:`rules.swc.recovery.rest_days`) gives them back.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from rules import dice
from rules.combat.attack import Fighter, RollLine, TargetChange
from rules.swc.classes import get_class
from rules.swc.monster import is_npc
from rules.swc.sheet import character
from rules.swc.validation import problems
from rules.systems.base import AbilityUse, KnownAbility, Problem, RulesError, Settings, Sheet
from rules.text import fold

__all__ = ["POWERS", "USED_TODAY", "known_powers", "pay_power", "power_names", "use_power"]

#: the powers used since the last day of rest: ``["imposicion_de_manos"]``
USED_TODAY = "usos_del_dia"
_ACTION = "activa"  # the combatant's action of the round (rules.swc.turns: MAIN)


@dataclass(frozen=True, slots=True)
class Power:
    """A class power: who has it from which level, and what it heals."""

    id: str
    name: str
    clase: str
    from_level: int
    self_only: bool
    description: str  # the seed's words
    seed: str


POWERS: tuple[Power, ...] = (
    Power(
        "imposicion_de_manos",
        "Imposición de manos",
        "paladin",
        1,
        False,
        "Una vez por día cura hasta 2 puntos de golpe por nivel del Paladín.",
        "seed 000 line 538",
    ),
    Power(
        "maestria_del_cuerpo",
        "Maestría del cuerpo",
        "monje",
        7,
        True,
        "Una vez por día el Monje se cura a sí mismo 1d6+1 puntos de golpe, +1 por nivel por "
        "encima del séptimo.",
        "seed 000 line 332",
    ),
)


def _refuse(key: str, **params: object) -> RulesError:
    return RulesError(Problem(key, "", params))


def power_names(settings: Settings) -> tuple[str, ...]:
    return tuple(p.name for p in POWERS)


def _levels(sheet: Sheet, settings: Settings) -> Mapping[str, int]:
    """The sheet's class levels; none for a stat block or a sheet that is not legal (yet)."""
    if is_npc(sheet) or problems(sheet, settings):
        return {}
    return character(sheet, settings).niveles


def _used(sheet: Sheet) -> list[str]:
    raw = sheet.get(USED_TODAY)
    return [str(x) for x in raw] if isinstance(raw, list) else []


def known_powers(sheet: Sheet, settings: Settings) -> tuple[KnownAbility, ...]:
    levels = _levels(sheet, settings)
    used = _used(sheet)
    out = []
    for power in POWERS:
        level = levels.get(power.clase, 0)
        if level >= power.from_level:
            effect = _effect(power, level) + (" (usado hoy)" if power.id in used else "")
            out.append(
                KnownAbility(power.name, _level(power, level), _ACTION, power.description, effect)
            )
    return tuple(out)


def _level(power: Power, level: int) -> str:
    """The class and level shown as the power's level («Paladín 3»)."""
    return f"{get_class(power.clase).nombre} {level}"


def _effect(power: Power, level: int) -> str:
    if power.id == "imposicion_de_manos":
        return f"hasta {2 * level} puntos de golpe"
    return f"1d6+{1 + level - power.from_level} puntos de golpe"


def use_power(
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
    """Use a class power (see the module docstring); ``amount`` is Imposición de manos'
    choice, up to 2 × level."""
    power = next((p for p in POWERS if fold(p.name) == fold(name) or p.id == fold(name)), None)
    if power is None:
        raise _refuse(
            "swc.problem.unknown_power", name=name, powers=", ".join(power_names(settings))
        )
    if herbs or level is not None:
        raise _refuse("swc.problem.power_options", name=power.name)
    have = _levels(sheet, settings).get(power.clase, 0)
    if have < power.from_level:
        raise _refuse("swc.problem.power_not_known", name=power.name, level=power.from_level)
    if power.id in _used(sheet):
        raise _refuse("swc.problem.power_used_today", name=power.name)
    pg = sheet.get("pg") or {}
    if int(pg.get("actual", 0)) <= 0:
        raise _refuse("swc.problem.power_cannot_act", name=power.name)
    if power.self_only and target is not None and target.sheet != sheet:
        raise _refuse("swc.problem.power_self_only", name=power.name)
    effect = _effect(power, have)
    if power.id == "imposicion_de_manos":
        most = 2 * have
        chosen = most if amount is None else amount
        if not 1 <= chosen <= most:
            raise _refuse("swc.problem.power_amount", name=power.name, most=most)
        return AbilityUse(
            power.name, _level(power, have), _ACTION, effect,
            change=TargetChange("heal", chosen), costs=(power.id,),
        )  # fmt: skip
    if amount is not None:
        raise _refuse("swc.problem.power_rolled", name=power.name)
    expression = f"1d6+{1 + have - power.from_level}"
    rolled = dice.roll(expression, rng)
    return AbilityUse(
        power.name, _level(power, have), _ACTION, effect,
        RollLine(power.name, rolled.expression, rolled.total, str(rolled)),
        TargetChange("heal", max(0, rolled.total)), costs=(power.id,),
    )  # fmt: skip


def pay_power(sheet: Sheet, use: AbilityUse, settings: Settings) -> Sheet:
    """Mark the day's use on the user's current sheet (refused when a concurrent use already
    did: once a day is once)."""
    used = _used(sheet)
    for cost in use.costs:
        if cost in used:
            raise _refuse("swc.problem.power_used_today", name=use.ability)
        used.append(cost)
    return {**sheet, USED_TODAY: used} if use.costs else sheet
