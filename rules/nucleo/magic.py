"""Magic in Núcleo (seed 002, «Módulo de reglas: Magia»).

Spells are bought like skills and rolled with Inteligencia: Inteligencia + spell level +
1o3d10 against the spell's difficulty, paying its mana.  Burning mana buys +1 per 2 extra
points; beating the difficulty by 10 is a critical whose benefit depends on the spell;
Disipar Magia takes its difficulty (+2) and cost from the spell it cancels.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules import dice
from rules.nucleo.checks import Check, Keep, roll_check
from rules.nucleo.data import Spell, catalogue
from rules.nucleo.equipment import exploding
from rules.systems.base import Outcome, Problem, RulesError

__all__ = [
    "SAVE_MODES",
    "Cast",
    "CastPlan",
    "Effect",
    "burn_bonus",
    "cast",
    "find_spell",
    "plan_cast",
    "roll_effect",
    "save_difficulty",
]

#: How a spell's «Salvación» is rolled (the seed never says): the target's attribute +
#: 1o3d10 against the printed number (``fija``), or against the caster's total (``enfrentada``).
SAVE_MODES: tuple[str, ...] = ("fija", "enfrentada")

#: Disipar Magia: «a dificultad del conjuro +2».
DISPEL_MARGIN = 2


def find_spell(name: str) -> Spell | None:
    return catalogue().spells.get(name)


def burn_bonus(extra_mana: int) -> int:
    """«Por cada 2 puntos de maná extra gastados, gana un +1 a la tirada»."""
    return max(0, extra_mana) // 2


@dataclass(frozen=True, slots=True)
class CastPlan:
    """What a cast will cost and need, checked before any die is rolled."""

    spell: Spell
    level: int
    difficulty: int
    mana_cost: int
    extra_mana: int
    bonus: int
    healing_dice: int = 0
    dispelled: Spell | None = None

    @property
    def total_mana(self) -> int:
        return self.mana_cost + self.extra_mana


def plan_cast(
    spell_name: str,
    level: int,
    mana_available: int,
    *,
    extra_mana: int = 0,
    target_spell: str | None = None,
    healing_mana: int | None = None,
) -> CastPlan:
    """Check a cast is possible and work out its difficulty and mana.

    * The caster must know the spell (level 1+): a spell is not an everyday skill anyone
      can try (docs/rules-decisions.md).
    * Disipar Magia needs ``target_spell``: difficulty = its difficulty + 2, cost = its cost.
    * Curación «cura 1d6 pv por punto de maná gastado, con un máximo de 3»: ``healing_mana``
      (1–3, default 1) is the cost and the number of dice.
    * ``extra_mana`` is burnt for +1 per 2 points on top of the cost.
    """
    spell = find_spell(spell_name)
    if spell is None:
        raise RulesError(Problem("nucleo.problem.unknown_spell", "hechizos", {"spell": spell_name}))
    if level <= 0:
        raise RulesError(
            Problem(
                "nucleo.problem.spell_not_known", f"hechizos.{spell.name}", {"spell": spell.name}
            )
        )
    if extra_mana < 0:
        raise RulesError(Problem("nucleo.problem.bad_extra_mana", "", {"value": extra_mana}))
    dispelled = None
    healing_dice = 0
    if spell.dispel:
        dispelled = find_spell(target_spell or "")
        if dispelled is None or dispelled.dispel:
            raise RulesError(
                Problem("nucleo.problem.dispel_target", "", {"spell": str(target_spell)})
            )
        difficulty = int(dispelled.difficulty or 0) + DISPEL_MARGIN
        cost = int(dispelled.mana_cost or 0)
    else:
        difficulty, cost = int(spell.difficulty or 0), int(spell.mana_cost or 0)
        if spell.healing_per_mana_max:
            healing_dice = cost if healing_mana is None else healing_mana
            if not 1 <= healing_dice <= spell.healing_per_mana_max:
                params = {
                    "spell": spell.name,
                    "value": healing_dice,
                    "maximum": spell.healing_per_mana_max,
                }
                raise RulesError(Problem("nucleo.problem.healing_mana", "", params))
            cost = healing_dice
    plan = CastPlan(
        spell,
        level,
        difficulty,
        cost,
        extra_mana,
        level + burn_bonus(extra_mana),
        healing_dice,
        dispelled,
    )
    if plan.total_mana > mana_available:
        params = {"spell": spell.name, "cost": plan.total_mana, "available": mana_available}
        raise RulesError(Problem("nucleo.problem.not_enough_mana", "mana_gastado", params))
    return plan


@dataclass(frozen=True, slots=True)
class Cast:
    """A rolled cast: the check and the mana spent (spent whatever the outcome)."""

    plan: CastPlan
    check: Check
    mana_spent: int

    @property
    def critical_benefits(self) -> tuple[str, ...]:
        """«+1d6 (daño y curación), +1 (bonos de atributo), o 2 turnos extra», when critical."""
        return self.plan.spell.critical if self.check.critical else ()


def cast(
    plan: CastPlan,
    inteligencia: int,
    rng: random.Random,
    *,
    keep: Keep = Keep.MIDDLE,
    modifier: int = 0,
    fumble_mode: str = "dado_siguiente",
) -> Cast:
    """Roll «Inteligencia + nivel + 1o3d10» (+ burnt mana, Arcano, − Estorbo via ``modifier``).

    The mana is spent on a failure too: the seed names no refund, and the magic must be
    attempted to fail.
    """
    check = roll_check(
        inteligencia + plan.bonus + modifier, rng, keep, plan.difficulty, fumble_mode
    )
    return Cast(plan, check, plan.total_mana)


@dataclass(frozen=True, slots=True)
class Effect:
    """A spell's rolled damage or healing."""

    kind: str
    expression: str
    total: int
    breakdown: str
    ignores_armour: bool


def roll_effect(
    cast_result: Cast, rng: random.Random, *, use_critical_die: bool = True
) -> Effect | None:
    """Roll what a successful cast does in dice: damage (exploding, like all damage) or
    healing (plain dice); a critical adds +1d6 when the spell allows it.  None when the
    spell's effect is not a roll or the cast failed."""
    plan = cast_result.plan
    spell = plan.spell
    if cast_result.check.outcome not in (Outcome.SUCCESS, Outcome.CRITICAL):
        return None
    extra = use_critical_die and "dado" in cast_result.critical_benefits
    if spell.damage:
        notation = exploding(spell.damage + ("+1d6" if extra else ""))
        kind = "damage"
    elif plan.healing_dice:
        notation = f"{plan.healing_dice + (1 if extra else 0)}d6"
        kind = "healing"
    else:
        return None
    rolled = dice.roll(notation, rng)
    return Effect(kind, notation, rolled.total, str(rolled), spell.ignores_armour)


def save_difficulty(
    spell: Spell, casting_total: int, mode: str = "fija", choice: int | None = None
) -> int | None:
    """What the target's «Salvación» (attribute + 1o3d10) must reach; None if the spell has none.

    ``fija``: the printed number (Olvido: 8, 10 or 12 by importance via ``choice``, plus the
    caster's level is added by the caller).  ``enfrentada``: the caster's casting total.
    """
    if mode not in SAVE_MODES:
        raise ValueError(f"unknown save mode {mode!r}")
    if spell.save is None:
        return None
    if mode == "enfrentada":
        return casting_total
    if spell.save.difficulty is not None:
        return spell.save.difficulty
    options = spell.save.difficulty_choices
    return choice if choice in options else options[0]
