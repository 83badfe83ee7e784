"""Combat in Núcleo (seed 002, «Combate» up to «Emboscadas»).

Initiative is rolled once per combat and sets how many actions a character gets each
round; attacks are checks against Defensa (melee) or a range difficulty (ranged), and the
margin buys extra damage dice.  Everything takes plain numbers so the combat tracker and
the tests can use it without a sheet.
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection
from dataclasses import dataclass

from rules import dice
from rules.nucleo.checks import Check, Keep, roll_check
from rules.nucleo.data import Weapon, catalogue
from rules.nucleo.equipment import damage_expression, exploding

__all__ = [
    "Attack",
    "Initiative",
    "TurnBudget",
    "actions_for_initiative",
    "ambush_succeeds",
    "band_for_distance",
    "extra_damage_dice",
    "melee_attack",
    "melee_damage",
    "melee_target_bonus",
    "movement",
    "ranged_attack",
    "ranged_difficulty",
    "roll_initiative",
    "squares",
    "turn_budget",
    "two_weapon_damage",
]


def actions_for_initiative(total: int) -> int:
    """«Si se saca 20 o más, se tienen 2 acciones, 30 o más, 3 … etcétera».

    >>> [actions_for_initiative(t) for t in (5, 19, 20, 29, 30, 41)]
    [1, 1, 2, 2, 3, 4]
    """
    table = catalogue().combat
    if total < table.actions_from:
        return 1
    return 2 + (total - table.actions_from) // table.actions_step


@dataclass(frozen=True, slots=True)
class Initiative:
    """One combatant's initiative for the whole combat.

    ``critical`` is what the seed's example calls «sacar un crítico en iniciativa»: reaching
    the first extra action (20+).  A fumble «no se actúa en el primer turno, y se irá último».
    """

    check: Check
    actions: int
    critical: bool
    skips_first_round: bool
    goes_last: bool


def roll_initiative(
    iniciativa: int,
    rng: random.Random,
    keep: Keep = Keep.MIDDLE,
    fumble_mode: str = "dado_siguiente",
) -> Initiative:
    """«Se tira Iniciativa +1o3d10 … Lo que saquemos en iniciativa se usa para todo el combate»."""
    check = roll_check(iniciativa, rng, keep, fumble_mode=fumble_mode)
    actions = actions_for_initiative(check.total)
    return Initiative(
        check=check,
        actions=actions,
        critical=actions >= 2,
        skips_first_round=check.fumble,
        goes_last=check.fumble,
    )


@dataclass(frozen=True, slots=True)
class TurnBudget:
    """What a character may do in one round: a major and a minor action per action earned."""

    major: int
    minor: int
    max_movement_m: int


def turn_budget(actions: int) -> TurnBudget:
    """Our reading of «Acciones y movimiento»: each action is one major plus one minor action;
    movement never exceeds 9 m a round, however many actions."""
    return TurnBudget(actions, actions, catalogue().combat.movement_m["maximo"])


def movement(major: int = 0, minor: int = 0) -> int:
    """Metres moved spending ``major`` and ``minor`` actions (6 m / 3 m), capped at 9 m."""
    if major < 0 or minor < 0:
        raise ValueError("action counts cannot be negative")
    table = catalogue().combat.movement_m
    return min(table["maximo"], major * table["mayor"] + minor * table["menor"])


def squares(metres: float) -> int:
    """Whole 1.5 m squares (the miniature scale the seed gives) within ``metres``."""
    return int(metres // catalogue().combat.square_m)


def extra_damage_dice(total: int, target: int) -> int:
    """«Por cada 10 que se supere la defensa se suma 1d6»: full tens above a hit."""
    if total < target:
        return 0
    return (total - target) // catalogue().combat.extra_die_per


def melee_target_bonus(
    *, from_behind: bool = False, flanking: bool = False, two_weapons: bool = False
) -> int:
    """Attack modifiers: «Por la espalda +4», «Flanqueando +2», two light weapons +3.

    Attacking from behind already implies a flank, so the two do not add: the larger counts.
    """
    table = catalogue().combat
    position = 0
    if from_behind:
        position = table.melee_modifiers["por_la_espalda"]
    elif flanking:
        position = table.melee_modifiers["flanqueando"]
    return position + (table.two_weapons_bonus if two_weapons else 0)


_TERM = re.compile(r"(\d+)d(\d+)|([+-]\d+)")


def _average(expression: str) -> float:
    total = 0.0
    for count, sides, flat in _TERM.findall(expression):
        total += int(count) * (int(sides) + 1) / 2 if count else int(flat)
    return total


def two_weapon_damage(first: Weapon, second: Weapon) -> str:
    """«El daño causado es el mayor de las armas usadas»: the higher average (one hand each)."""
    options = [damage_expression(first), damage_expression(second)]
    return max(options, key=_average)


@dataclass(frozen=True, slots=True)
class Attack:
    """A resolved attack: the check, whether it hit, and the damage after absorption."""

    check: Check
    target: int
    hit: bool
    extra_dice: int
    damage_expression: str | None
    damage: int
    damage_breakdown: str
    absorption: int
    wounds: int


def _resolve(
    check: Check,
    target: int,
    damage: str,
    rng: random.Random,
    *,
    extra_dice: bool,
    damage_bonus: int,
    absorption: int,
) -> Attack:
    hit = check.total >= target and not check.fumble
    if not hit:
        return Attack(check, target, False, 0, None, 0, "", absorption, 0)
    extra = extra_damage_dice(check.total, target) if extra_dice else 0
    notation = exploding(damage)
    if extra:
        count, sides = catalogue().combat.extra_die.split("d")
        notation += "+" + exploding(f"{extra * int(count)}d{sides}")
    if damage_bonus:
        notation += f"{damage_bonus:+d}"
    rolled = dice.roll(notation, rng)
    wounds = max(0, rolled.total - absorption)
    return Attack(
        check, target, True, extra, notation, rolled.total, str(rolled), absorption, wounds
    )


def melee_attack(
    bonus: int,
    defensa: int,
    damage: str,
    rng: random.Random,
    *,
    keep: Keep = Keep.MIDDLE,
    damage_bonus: int = 0,
    absorption: int = 0,
    fumble_mode: str = "dado_siguiente",
) -> Attack:
    """«Físico + Cuerpo a Cuerpo + 1o3d10 contra la Defensa»: hit on equal or higher, +1d6
    damage per full 10 over.  ``bonus`` already includes the modifiers (see
    :func:`melee_target_bonus`, Berseker, spells); ``damage`` is the weapon's dice, 1d6
    unarmed, 1d6+1 for a ranged weapon used in melee."""
    check = roll_check(bonus, rng, keep, defensa, fumble_mode)
    return _resolve(
        check,
        defensa,
        damage,
        rng,
        extra_dice=True,
        damage_bonus=damage_bonus,
        absorption=absorption,
    )


def melee_damage(weapon: Weapon | None, two_handed: bool = False) -> str:
    """The damage dice of a melee blow: the weapon's, «1d6» unarmed, and «arma improvisada
    1d6+1» for a ranged weapon used at melee distance («Armas a distancia en cuerpo a cuerpo»)."""
    if weapon is not None and weapon.kind == "distancia":
        return catalogue().improvised_damage
    return damage_expression(weapon, two_handed)


def band_for_distance(weapon: Weapon, metres: float) -> str | None:
    """The printed band (corta / media / larga) a distance falls in; None beyond long range.

    «Bocajarro» has no printed distance: it is the GM's call (docs/systems/nucleo.md).
    """
    if weapon.ranges_m is None:
        return None
    for band, limit in zip(("corta", "media", "larga"), weapon.ranges_m, strict=True):
        if metres <= limit:
            return band
    return None


def ranged_difficulty(
    band: str, modifiers: Collection[str] = (), cover: int = 0, other: int = 0
) -> int:
    """«Bocajarro 10, Corta 15, Media 20, Larga 25» plus running, prone, cover, crowd,
    a shield's «Cobertura +2» (``cover``) and any other GM modifier."""
    table = catalogue().combat
    if band not in table.range_difficulties:
        raise ValueError(f"unknown range band {band!r}")
    unknown = set(modifiers) - set(table.ranged_modifiers)
    if unknown:
        raise ValueError(f"unknown ranged modifiers {sorted(unknown)}")
    return (
        table.range_difficulties[band]
        + sum(table.ranged_modifiers[m] for m in modifiers)
        + cover
        + other
    )


def ranged_attack(
    bonus: int,
    difficulty: int,
    damage: str,
    rng: random.Random,
    *,
    keep: Keep = Keep.MIDDLE,
    damage_bonus: int = 0,
    absorption: int = 0,
    extra_dice: bool = False,
    fumble_mode: str = "dado_siguiente",
) -> Attack:
    """«Destreza + Armas a Distancia + 1o3d10 contra una dificultad en función de la distancia».

    The seed gives extra damage dice only in melee; ``extra_dice`` (campaign setting
    ``dados_extra_distancia``) extends them to ranged attacks.
    """
    check = roll_check(bonus, rng, keep, difficulty, fumble_mode)
    return _resolve(
        check,
        difficulty,
        damage,
        rng,
        extra_dice=extra_dice,
        damage_bonus=damage_bonus,
        absorption=absorption,
    )


def ambush_succeeds(sigilo_total: int, advertir_total: int) -> bool:
    """«Emboscadas»: an ambush works when Sigilo beats Advertir/Notar; the first attack is
    then free.  A tie does not surprise the defender (our reading)."""
    return sigilo_total > advertir_total
