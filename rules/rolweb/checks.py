"""Tests (tiradas) of seed 001: roll 1d20 under attribute + modifier.

Seed 001, "TIRADAS DE ACCIÓN": success when the d20 is equal to or lower than the
attribute, modified by the difficulty (the GM's -5..+5, or a difficulty given directly) or
by the opponent in an opposed test written [A←B].  The seed never says how B becomes a
modifier; the Symbaroum family's convention is ``modifier = 10 - B`` (an average opponent
of 10 changes nothing), which :func:`opposed_modifier` applies.  "LUCHAR A CIEGAS" adds the
two chances: roll twice and keep the worse or the better.

The d20 is rolled with ``rng.randint(1, 20)`` rather than the dice engine because the
roll-under judgement, the kept die and the exact probability are simpler and exact here.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from fractions import Fraction

from rules.rolweb.settings import NaturalRule
from rules.systems.base import Outcome

__all__ = [
    "Chances",
    "TestRoll",
    "opposed_modifier",
    "opposed_target",
    "simple_target",
    "winning_faces",
    "success_probability",
    "judge",
    "roll_test",
]

DIE = 20


class Chances(enum.StrEnum):
    """How many d20 are rolled and which is kept ("dos oportunidades", LUCHAR A CIEGAS)."""

    ONE = "una"
    WORSE = "peor"  # the player's character is hindered: keep the higher (worse) die
    BETTER = "mejor"  # the enemy is hindered: keep the lower (better) die


@dataclass(frozen=True, slots=True)
class TestRoll:
    """One judged test: the dice, the die kept, what it had to reach and the exact odds."""

    target: int
    rolls: tuple[int, ...]
    kept: int
    outcome: Outcome
    chances: Chances
    probability: tuple[int, int]

    @property
    def success(self) -> bool:
        return self.outcome in (Outcome.SUCCESS, Outcome.CRITICAL)

    @property
    def expression(self) -> str:
        """Dice notation for the audit log (roll-under: the worse die is the higher one)."""
        return {Chances.ONE: "1d20", Chances.WORSE: "2d20kh1", Chances.BETTER: "2d20kl1"}[
            self.chances
        ]

    @property
    def breakdown(self) -> str:
        """Plain rendering such as ``1d20 (7) ≤ 13`` or ``2d20 peor (7, 15) → 15 > 13``."""
        sign = "≤" if self.success else ">"
        if self.chances is Chances.ONE:
            return f"1d20 ({self.kept}) {sign} {self.target}"
        rolled = ", ".join(map(str, self.rolls))
        return f"2d20 {self.chances.value} ({rolled}) → {self.kept} {sign} {self.target}"


def opposed_modifier(opponent_value: int) -> int:
    """The modifier an opponent's attribute B imposes on A in [A←B]: ``10 - B``.

    Seed 001 writes opposed tests as [A←B] without the conversion; this is the family's.
    """
    return 10 - opponent_value


def opposed_target(attribute: int, opponent_value: int, modifier: int = 0) -> int:
    """Highest d20 that succeeds in [A←B]: ``A + (10 - B) + modifier``."""
    return attribute + opposed_modifier(opponent_value) + modifier


def simple_target(attribute: int, modifier: int = 0, difficulty: int | None = None) -> int:
    """Highest d20 that succeeds in a simple test.

    The GM either sets a modifier (usually +5 very easy .. -5 very hard) or states the
    difficulty directly, which then replaces the attribute; ``modifier`` still adds to it
    (advantage, abilities).
    """
    base = attribute if difficulty is None else difficulty
    return base + modifier


def winning_faces(target: int, naturals: NaturalRule = NaturalRule.NONE) -> int:
    """How many of the 20 faces succeed against ``target`` under the natural 1/20 rule."""
    faces = max(0, min(DIE, target))
    if naturals is not NaturalRule.NONE:
        faces = max(1, min(DIE - 1, faces))
    return faces


def success_probability(
    target: int, naturals: NaturalRule = NaturalRule.NONE, chances: Chances = Chances.ONE
) -> tuple[int, int]:
    """Exact chance of success as a reduced ``(numerator, denominator)`` pair."""
    single = Fraction(winning_faces(target, naturals), DIE)
    if chances is Chances.WORSE:
        p = single * single
    elif chances is Chances.BETTER:
        p = 1 - (1 - single) ** 2
    else:
        p = single
    return p.numerator, p.denominator


def judge(roll: int, target: int, naturals: NaturalRule = NaturalRule.NONE) -> Outcome:
    """Outcome of one kept d20 against ``target`` under the campaign's natural 1/20 rule."""
    if naturals is not NaturalRule.NONE and roll == 1:
        return Outcome.CRITICAL if naturals is NaturalRule.CRITICAL else Outcome.SUCCESS
    if naturals is not NaturalRule.NONE and roll == DIE:
        return Outcome.FUMBLE if naturals is NaturalRule.CRITICAL else Outcome.FAILURE
    return Outcome.SUCCESS if roll <= target else Outcome.FAILURE


def roll_test(
    target: int,
    rng: random.Random,
    naturals: NaturalRule = NaturalRule.NONE,
    chances: Chances = Chances.ONE,
) -> TestRoll:
    """Roll a test against ``target``; with two chances roll twice and keep one die."""
    count = 1 if chances is Chances.ONE else 2
    rolls = tuple(rng.randint(1, DIE) for _ in range(count))
    if chances is Chances.WORSE:
        kept = max(rolls)
    elif chances is Chances.BETTER:
        kept = min(rolls)
    else:
        kept = rolls[0]
    return TestRoll(
        target=target,
        rolls=rolls,
        kept=kept,
        outcome=judge(kept, target, naturals),
        chances=chances,
        probability=success_probability(target, naturals, chances),
    )
