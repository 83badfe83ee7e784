"""Combat rules of seed 001 that are not turn order or actions: defence, free attacks,
surprise, advantage, shields and flanking.

* DEFENSA: Defensa is based on Ágil (+1 with a shield, minus the armour's penalty); the
  attack is [Diestro←Defensa] and, since players always roll, an NPC's attack on a
  player is the player's [Defensa←Diestro].
* ATAQUE GRATUITO: a Larga weapon on the first turn against a non-Larga weapon, leaving
  melee (every engaged enemy), passing by; at most one per trigger, attacker and turn.
* SORPRESA: [Discreto←Atento]; group against group uses the lowest Discreto among the
  attackers and the highest Atento among the defenders.
* VENTAJA: +2 to the test and +1D4 damage from flanking, a foe on the ground (melee only),
  a higher position, or an unaware foe; several reasons still give one advantage.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.rolweb.actions import Action
from rules.rolweb.checks import Chances, TestRoll, opposed_target, roll_test
from rules.rolweb.damage import ADVANTAGE_DAMAGE
from rules.rolweb.equipment import Armour, Shield, Weapon
from rules.rolweb.settings import NaturalRule
from rules.systems.base import Problem, RulesError

__all__ = [
    "ADVANTAGE_BONUS",
    "MAX_FLANKERS",
    "defence",
    "attack_target",
    "defence_target",
    "weapon_allowed",
    "FreeAttackTrigger",
    "FreeAttack",
    "long_weapon_free_attack",
    "free_attacks",
    "surprise_values",
    "surprise_target",
    "roll_surprise",
    "draw_cost",
    "surprise_free_attacks",
    "AdvantageReason",
    "Advantage",
    "advantage",
    "can_join_melee",
]

ADVANTAGE_BONUS = 2
MAX_FLANKERS = 4  # FLANQUEAR: at most four can surround one target


def defence(
    agil: int, shield: Shield = Shield.NONE, armour: Armour | None = None, modifier: int = 0
) -> int:
    """Defensa: Ágil, +1 with a shield or rodela, plus the armour's (negative) modifier."""
    return agil + shield.defence + (armour.defence if armour else 0) + modifier


def attack_target(diestro: int, defender_defence: int, modifier: int = 0) -> int:
    """Target of an attack [Diestro←Defensa]."""
    return opposed_target(diestro, defender_defence, modifier)


def defence_target(own_defence: int, attacker_diestro: int, modifier: int = 0) -> int:
    """Target of a defence [Defensa←Diestro] (how a player resists an NPC's attack)."""
    return opposed_target(own_defence, attacker_diestro, modifier)


def weapon_allowed(weapon: Weapon, shield: Shield) -> bool:
    """ESCUDO: a shield forbids Pesada and ranged weapons; the rodela does not."""
    return not (shield.occupies_hand and (weapon.is_heavy or weapon.is_ranged))


class FreeAttackTrigger(enum.StrEnum):
    """Why a free attack happens (ATAQUE GRATUITO, SORPRESA, UMBRAL DE DOLOR)."""

    LONG_WEAPON = "arma_larga"
    DISENGAGE = "destrabarse"
    PASSING = "pasar_junto"
    SURPRISE = "sorpresa"
    PAIN = "umbral_de_dolor"


@dataclass(frozen=True, slots=True)
class FreeAttack:
    """``attacker`` may attack ``target`` for free (passive abilities only)."""

    attacker: str
    target: str
    trigger: FreeAttackTrigger


def long_weapon_free_attack(
    weapon: Weapon, shield: Shield, opponent_weapon: Weapon, first_turn: bool
) -> bool:
    """COMBATE CON ARMAS PREPARADAS: a Larga weapon attacks for free on the first turn of
    melee unless the opponent also wields one; a shield (not a rodela) cancels it."""
    return (
        first_turn and weapon.is_long and not opponent_weapon.is_long and not shield.occupies_hand
    )


def free_attacks(
    events: Iterable[tuple[FreeAttackTrigger, str, Sequence[str]]],
) -> tuple[FreeAttack, ...]:
    """The free attacks a turn's events grant: each event is (trigger, who moves, the
    enemies who may react).  An enemy gets one free attack per trigger and turn: two foes
    disengaging give it one attack; one disengaging and one passing by give two."""
    used: set[tuple[str, FreeAttackTrigger]] = set()
    granted: list[FreeAttack] = []
    for trigger, mover, enemies in events:
        for enemy in enemies:
            if (enemy, trigger) in used:
                continue
            used.add((enemy, trigger))
            granted.append(FreeAttack(enemy, mover, trigger))
    return tuple(granted)


def surprise_values(discreto: Sequence[int], atento: Sequence[int]) -> tuple[int, int]:
    """SORPRESA, group rule: the lowest Discreto of the attackers, the highest Atento of
    the defenders (a single pair is the individual case)."""
    if not discreto or not atento:
        raise RulesError(Problem("rolweb.problem.empty_side"))
    return min(discreto), max(atento)


def surprise_target(discreto: Sequence[int], atento: Sequence[int], modifier: int = 0) -> int:
    """Target of the surprise test [Discreto←Atento] for two groups."""
    lowest, highest = surprise_values(discreto, atento)
    return opposed_target(lowest, highest, modifier)


def roll_surprise(
    discreto: Sequence[int],
    atento: Sequence[int],
    rng: random.Random,
    naturals: NaturalRule = NaturalRule.NONE,
    modifier: int = 0,
) -> TestRoll:
    """Roll the ambush; on success each attacker gets a free attack at the start of the
    turn and the surprised must draw (:func:`draw_cost`) before the normal order."""
    return roll_test(surprise_target(discreto, atento, modifier), rng, naturals, Chances.ONE)


def surprise_free_attacks(
    attackers: Sequence[str], surprised: Sequence[str]
) -> tuple[FreeAttack, ...]:
    """SORPRESA: after a successful ambush each attacker gets a free attack against the
    surprised at the start of the turn (one per attacker: one trigger, one turn); the
    attacker's player picks the target, so every pairing is offered in order."""
    return tuple(
        FreeAttack(attacker, target, FreeAttackTrigger.SURPRISE)
        for attacker in attackers
        for target in surprised
    )


def draw_cost(weapon: Weapon) -> Action:
    """SORPRESA: drawing costs a movement action; Cortas are drawn as a free action and
    natural weapons are always ready."""
    return Action.FREE if weapon.is_short or weapon.is_natural else Action.MOVEMENT


class AdvantageReason(enum.StrEnum):
    """VENTAJA: the situations that give advantage."""

    FLANKING = "flanqueo"  # melee only
    PRONE = "en_el_suelo"  # melee only
    HIGHER = "posicion_superior"  # melee and ranged
    UNAWARE = "desprevenido"  # an enemy not aware of the attack


_MELEE_ONLY = frozenset({AdvantageReason.FLANKING, AdvantageReason.PRONE})


@dataclass(frozen=True, slots=True)
class Advantage:
    """The advantage an attacker has: the reasons that count and what it gives."""

    reasons: tuple[AdvantageReason, ...]

    @property
    def active(self) -> bool:
        return bool(self.reasons)

    @property
    def test_modifier(self) -> int:
        """+2 to the attacker's test."""
        return ADVANTAGE_BONUS if self.active else 0

    @property
    def defender_modifier(self) -> int:
        """-2 to a player's defence against an NPC with advantage (players always roll)."""
        return -ADVANTAGE_BONUS if self.active else 0

    @property
    def extra_damage(self) -> str | None:
        """+1D4 damage."""
        return ADVANTAGE_DAMAGE if self.active else None


def advantage(reasons: Iterable[AdvantageReason | str], ranged: bool = False) -> Advantage:
    """The advantage given by ``reasons``: flanking and a foe on the ground help only in melee."""
    kept: list[AdvantageReason] = []
    for reason in reasons:
        reason = AdvantageReason(reason)
        if ranged and reason in _MELEE_ONLY:
            continue
        if reason not in kept:
            kept.append(reason)
    return Advantage(tuple(kept))


def can_join_melee(engaged: int) -> bool:
    """FLANQUEAR: a fifth combatant cannot reach a target already surrounded by four."""
    return engaged < MAX_FLANKERS
