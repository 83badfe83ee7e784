"""Damage, Resistencia, Umbral de dolor, dying and healing (seed 001, DAÑO Y CURACIÓN).

* DEFENSA: a failed defence takes the weapon's damage minus the armour's roll.
* RESISTENCIA: equal to Fuerte, never below 10.
* UMBRAL DE DOLOR: half Fuerte rounded up; a single hit that deals at least that much
  (after armour) makes the player pick one of two effects (:class:`PainEffect`).
* PERSONAJES MORIBUNDOS: at 0 an NPC dies and a player character is dying; each later turn
  the player rolls a death test (1 gets up, 20 dies; 2-19 per the campaign's
  :class:`~rules.rolweb.settings.DeathRule`).
* CURACIÓN DE HERIDAS: natural 1 per day, healing herbs +1 at once, Medicus 1D4 (more
  with herbs), mystical powers; any healing stabilises a dying character.

Damage dice are rolled with the dice engine (:func:`rules.dice.roll`) so the audit log
shows the same breakdown as ``/roll``.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from rules.rolweb.settings import DeathRule
from rules.systems.base import Problem, RulesError

__all__ = [
    "MIN_TOUGHNESS",
    "NATURAL_HEALING_PER_DAY",
    "HERBS_HEALING",
    "ADVANTAGE_DAMAGE",
    "LifeState",
    "PainEffect",
    "Wound",
    "DamageRoll",
    "DeathTest",
    "HealingRoll",
    "toughness",
    "pain_threshold",
    "pain_effects",
    "hit_damage",
    "roll_damage",
    "take_damage",
    "death_test",
    "roll_death_test",
    "natural_healing",
    "roll_healing",
    "heal",
]

MIN_TOUGHNESS = 10
NATURAL_HEALING_PER_DAY = 1
HERBS_HEALING = 1
ADVANTAGE_DAMAGE = "1d4"  # VENTAJA: "+1D4 puntos de daño"
DEATH_FAILURES_TO_DIE = 3  # DeathRule.FAMILY only


class LifeState(enum.StrEnum):
    """A character's state as stored in the sheet's ``estado``."""

    ACTIVE = "activo"
    DYING = "moribundo"
    DEAD = "muerto"


class PainEffect(enum.StrEnum):
    """UMBRAL DE DOLOR: the player chooses one of these when the threshold is reached."""

    KNOCKED_DOWN = "derribado"  # the defender falls and must spend actions to stand up
    FREE_ATTACK = "ataque_gratuito"  # the attacker gets a free attack on the defender


@dataclass(frozen=True, slots=True)
class Wound:
    """What one hit did to Resistencia."""

    damage: int
    before: int
    after: int
    state: LifeState
    pain: bool

    @property
    def pain_effects(self) -> tuple[PainEffect, ...]:
        """The effects the player must choose from (empty under the threshold)."""
        return tuple(PainEffect) if self.pain else ()


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """A hit rolled: weapon (plus advantage) minus armour, never below 0."""

    weapon: int
    weapon_breakdown: str
    armour: int
    armour_breakdown: str
    damage: int
    expression: str


@dataclass(frozen=True, slots=True)
class DeathTest:
    """One death test: the d20, the state it leaves and the Resistencia on getting up."""

    roll: int
    state: LifeState
    failures: int
    toughness: int


@dataclass(frozen=True, slots=True)
class HealingRoll:
    """Resistencia healed by a roll (Medicus, Recuperación, a power)."""

    amount: int
    expression: str
    breakdown: str


def toughness(fuerte: int) -> int:
    """Resistencia: equal to Fuerte, never below 10 (RESISTENCIA)."""
    return max(fuerte, MIN_TOUGHNESS)


def pain_threshold(fuerte: int) -> int:
    """Umbral de dolor: half Fuerte rounded up (UMBRAL DE DOLOR)."""
    return -(-fuerte // 2)


def pain_effects(damage: int, fuerte: int) -> tuple[PainEffect, ...]:
    """The choice a hit of ``damage`` (after armour) forces, or ``()`` below the threshold."""
    return tuple(PainEffect) if damage >= pain_threshold(fuerte) and damage > 0 else ()


def hit_damage(weapon_roll: int, armour_roll: int = 0) -> int:
    """Damage of a hit: the weapon's roll minus the armour's roll, never negative (DEFENSA)."""
    return max(0, weapon_roll - armour_roll)


def _roll(expression: str, rng: random.Random) -> tuple[int, str]:
    from rules import dice  # the engine; imported late so the pure parts load without it

    result = dice.roll(expression, rng)
    return result.total, str(result)


def roll_damage(
    weapon: str, armour: str | None, rng: random.Random, advantage: bool = False
) -> DamageRoll:
    """Roll a hit: ``weapon`` (+1D4 with advantage, VENTAJA) minus the ``armour`` roll."""
    expression = f"{weapon}+{ADVANTAGE_DAMAGE}" if advantage else weapon
    weapon_total, weapon_text = _roll(expression, rng)
    armour_total, armour_text = _roll(armour, rng) if armour else (0, "")
    return DamageRoll(
        weapon=weapon_total,
        weapon_breakdown=weapon_text,
        armour=armour_total,
        armour_breakdown=armour_text,
        damage=hit_damage(weapon_total, armour_total),
        expression=expression if not armour else f"{expression} - {armour}",
    )


def take_damage(
    current: int, damage: int, fuerte: int, player: bool, state: LifeState = LifeState.ACTIVE
) -> Wound:
    """Apply one hit's damage (already reduced by armour) to Resistencia ``current``.

    At 0 a non-player character dies and a player character is dying (PERSONAJES
    MORIBUNDOS); more damage to a dying character keeps it dying (the seed kills only on
    a death test of 20).  Damage to the dead is refused.
    """
    if damage < 0:
        raise RulesError(Problem("rolweb.problem.negative_amount", "", {"amount": damage}))
    if state is LifeState.DEAD:
        raise RulesError(Problem("rolweb.problem.already_dead"))
    after = max(0, current - damage)
    new_state = state if after > 0 else LifeState.DYING if player else LifeState.DEAD
    return Wound(damage, current, after, new_state, bool(pain_effects(damage, fuerte)))


def death_test(
    roll: int, failures: int = 0, rule: DeathRule = DeathRule.SEED
) -> tuple[LifeState, int]:
    """Judge a death test's d20: the state it leaves and the failures counted so far.

    A 1 gets the character up and a 20 kills (PERSONAJES MORIBUNDOS).  The seed says 2-19
    only mean "roll again" (:attr:`DeathRule.SEED`); the family counts 11-19 as failures
    and the third failure kills (:attr:`DeathRule.FAMILY`).
    """
    if not 1 <= roll <= 20:
        raise ValueError(f"a d20 cannot show {roll}")
    if roll == 1:
        return LifeState.ACTIVE, 0
    if roll == 20:
        return LifeState.DEAD, failures
    if rule is DeathRule.FAMILY and roll > 10:
        failures += 1
        if failures >= DEATH_FAILURES_TO_DIE:
            return LifeState.DEAD, failures
    return LifeState.DYING, failures


def roll_death_test(
    rng: random.Random,
    failures: int = 0,
    rule: DeathRule = DeathRule.SEED,
    rise_toughness: str = "1d4",
) -> DeathTest:
    """Roll a death test; on a 1 the character gets up with 1 or 1D4 Resistencia (setting)."""
    roll = rng.randint(1, 20)
    state, failures = death_test(roll, failures, rule)
    rise = 0
    if state is LifeState.ACTIVE:
        rise = rng.randint(1, 4) if rise_toughness == "1d4" else 1
    return DeathTest(roll, state, failures, rise)


def natural_healing(days: int) -> int:
    """Resistencia recovered by resting ``days`` days: one per day."""
    if days < 0:
        raise RulesError(Problem("rolweb.problem.negative_amount", "", {"amount": days}))
    return days * NATURAL_HEALING_PER_DAY


def roll_healing(expression: str, rng: random.Random) -> HealingRoll:
    """Roll a healing expression (Medicus ``1d4``, with herbs ``1d6``, …)."""
    total, text = _roll(expression, rng)
    return HealingRoll(max(0, total), expression, text)


def heal(
    current: int, maximum: int, amount: int, state: LifeState, by_self: bool = False
) -> tuple[int, LifeState]:
    """Add ``amount`` Resistencia up to ``maximum``; healing a dying character stabilises it.

    The dead cannot be healed, and a dying character cannot heal itself (PERSONAJES
    MORIBUNDOS: "no puede hacer nada por curarse a sí mismo").
    """
    if amount < 0:
        raise RulesError(Problem("rolweb.problem.negative_amount", "", {"amount": amount}))
    if state is LifeState.DEAD:
        raise RulesError(Problem("rolweb.problem.already_dead"))
    if state is LifeState.DYING and by_self:
        raise RulesError(Problem("rolweb.problem.dying_cannot_self_heal"))
    after = min(maximum, current + amount)
    if state is LifeState.DYING and after > 0:
        state = LifeState.ACTIVE
    return after, state
