"""Checks in Núcleo (seed 002, «Tiradas», «Circunstancias Especiales», «Críticos y Pifias»).

Every check is a bonus plus 1o3d10: three d10 keeping the middle one by default, the highest
or the lowest as circumstances say, a kept 10 adding and re-rolling.  The rolling itself
(and the fumble test) belongs to :mod:`rules.dice`; this module decides which die is kept,
which bonus applies and how the total is judged.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from rules import dice
from rules.dice.roller import fumbles
from rules.nucleo.data import catalogue
from rules.systems.base import Outcome

__all__ = [
    "FUMBLE_MODES",
    "TOKEN_MODES",
    "Check",
    "Keep",
    "attribute_difficulties",
    "expression",
    "judge",
    "kept_die",
    "opposed_winner",
    "probability",
    "roll_check",
    "skill_difficulties",
]

#: How a token meets a «keep the lowest» circumstance: they cancel to the middle (default),
#: the token wins, or the lowest wins (docs/rules-decisions.md).
TOKEN_MODES: tuple[str, ...] = ("anula", "token", "menor")
#: When keeping the lowest die: the dice engine's fumble (a 1 and ≤ 5 on the next die up),
#: or any 1 on the kept die (there is no die below the lowest to look at).
FUMBLE_MODES: tuple[str, ...] = ("dado_siguiente", "solo_uno")


class Keep(enum.StrEnum):
    """The kept die, spelled as the dice engine's suffix (``1o3d10``, ``1o3d10a``, ``1o3d10b``)."""

    LOWEST = "b"
    MIDDLE = ""
    HIGHEST = "a"


#: Position of the kept die among the three sorted faces.
_KEEP_INDEX = {Keep.LOWEST: 0, Keep.MIDDLE: 1, Keep.HIGHEST: 2}


def attribute_difficulties() -> dict[str, int]:
    """«Tiradas de Atributo»: Fácil 9 … Casi imposible 21."""
    return dict(catalogue().attribute_difficulties)


def skill_difficulties() -> dict[str, int]:
    """«Tiradas de Habilidad»: Fácil 10 … Casi Imposible 30."""
    return dict(catalogue().skill_difficulties)


def kept_die(
    *,
    malherido: bool = False,
    unknown_skill: bool = False,
    split_actions: bool = False,
    token: bool = False,
    token_returned: bool = False,
    token_mode: str = "anula",
) -> Keep:
    """Which die a check keeps, from «Circunstancias Especiales» and «Dividir Acciones».

    Malherido, an unknown skill, the token handed back by the GM and splitting actions all
    keep the lowest; they never stack beyond «lowest» («no aplicable si … ya está guardando
    dado menor»).  Giving the token keeps the highest; when both apply, ``token_mode``
    decides (default: they cancel and the middle die is kept).
    """
    if token_mode not in TOKEN_MODES:
        raise ValueError(f"unknown token mode {token_mode!r}")
    lowest = malherido or unknown_skill or split_actions or token_returned
    if token and lowest:
        return {"anula": Keep.MIDDLE, "token": Keep.HIGHEST, "menor": Keep.LOWEST}[token_mode]
    if token:
        return Keep.HIGHEST
    return Keep.LOWEST if lowest else Keep.MIDDLE


def expression(bonus: int, keep: Keep = Keep.MIDDLE) -> str:
    """The dice notation rolled: ``1o3d10b+12``."""
    return f"1o3d10{keep.value}" + (f"{bonus:+d}" if bonus else "")


@dataclass(frozen=True, slots=True)
class Check:
    """One rolled check: what was rolled, the total, and how it was judged."""

    expression: str
    bonus: int
    total: int
    breakdown: str
    keep: Keep
    difficulty: int | None
    outcome: Outcome | None
    fumble: bool
    critical: bool

    @property
    def margin(self) -> int | None:
        """How far above (or below) the difficulty the total landed."""
        return None if self.difficulty is None else self.total - self.difficulty


def judge(total: int, difficulty: int | None, fumble: bool) -> Outcome | None:
    """A fumble always fails; a critical «supera en 10 la dificultad»; reaching it succeeds."""
    if fumble:
        return Outcome.FUMBLE
    if difficulty is None:
        return None
    if total >= difficulty + catalogue().critical_margin:
        return Outcome.CRITICAL
    return Outcome.SUCCESS if total >= difficulty else Outcome.FAILURE


def roll_check(
    bonus: int,
    rng: random.Random,
    keep: Keep = Keep.MIDDLE,
    difficulty: int | None = None,
    fumble_mode: str = "dado_siguiente",
) -> Check:
    """Roll ``bonus + 1o3d10`` keeping ``keep`` and judge it against ``difficulty``."""
    if fumble_mode not in FUMBLE_MODES:
        raise ValueError(f"unknown fumble mode {fumble_mode!r}")
    notation = expression(bonus, keep)
    result = dice.roll(notation, rng)
    fumble = result.fumble
    if keep is Keep.LOWEST and fumble_mode == "solo_uno":
        # A kept 1 never re-rolls, so the dice contributed exactly 1.
        fumble = result.total - bonus == 1
    outcome = judge(result.total, difficulty, fumble)
    return Check(
        expression=notation,
        bonus=bonus,
        total=result.total,
        breakdown=str(result),
        keep=keep,
        difficulty=difficulty,
        outcome=outcome,
        fumble=fumble,
        critical=outcome is Outcome.CRITICAL,
    )


@cache
def _fumble_chance(keep: Keep, fumble_mode: str) -> Fraction:
    """The chance the first throw of three d10 is a fumble (a kept 1 never re-rolls)."""
    index = _KEEP_INDEX[keep]
    count = 0
    d10 = range(1, 11)
    for faces in product(d10, d10, d10):
        if sorted(faces)[index] != 1:
            continue
        if (keep is Keep.LOWEST and fumble_mode == "solo_uno") or fumbles(faces, index):
            count += 1
    return Fraction(count, 1000)


def probability(
    bonus: int, difficulty: int, keep: Keep = Keep.MIDDLE, fumble_mode: str = "dado_siguiente"
) -> tuple[int, int]:
    """The exact chance that ``bonus + 1o3d10`` succeeds against ``difficulty``.

    The dice engine gives the chance of reaching the number; a fumble (kept 1, total
    ``bonus + 1``) always fails, so when ``bonus + 1`` would already reach the difficulty
    the fumbling throws are taken back out.
    """
    chance = dice.probability_at_least(expression(bonus, keep), difficulty)
    if bonus + 1 >= difficulty:
        chance -= _fumble_chance(keep, fumble_mode)
    return chance.numerator, chance.denominator


def opposed_winner(total_a: int, total_b: int) -> str:
    """«el que saque la tirada más alta» wins; equal totals are a tie for the GM to settle."""
    if total_a > total_b:
        return "a"
    if total_b > total_a:
        return "b"
    return "tie"
