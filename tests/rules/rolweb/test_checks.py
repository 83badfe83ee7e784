"""Tests of rules/rolweb/checks.py against seed 001, "TIRADAS DE ACCIÓN" and "LUCHAR A CIEGAS"."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from rules.rolweb import opposed_modifier
from rules.rolweb.checks import (
    Chances,
    judge,
    opposed_target,
    roll_test,
    simple_target,
    success_probability,
    winning_faces,
)
from rules.rolweb.settings import NaturalRule
from rules.systems.base import Outcome

from .conftest import FixedRandom


@pytest.mark.parametrize(
    "roll,outcome", [(12, Outcome.SUCCESS), (13, Outcome.SUCCESS), (14, Outcome.FAILURE)]
)
def test_success_is_d20_equal_to_or_under_attribute(roll, outcome):
    # TIRADAS DE ACCIÓN: "el éxito se alcanza obteniendo un valor en el dado igual o inferior al Atributo"
    assert judge(roll, 13) is outcome


def test_gm_modifier_adds_or_subtracts_from_attribute():
    # TIRADAS DE ACCIÓN: modifier from +5 (muy fácil) to -5 (muy difícil)
    assert simple_target(12, +5) == 17
    assert simple_target(12, -5) == 7


def test_gm_may_state_the_difficulty_directly():
    # TIRADAS DE ACCIÓN: "El Director también podrá decir directamente la Dificultad"
    assert simple_target(12, 0, difficulty=9) == 9
    assert simple_target(12, 2, difficulty=9) == 11


@pytest.mark.parametrize("opponent,modifier", [(10, 0), (13, -3), (5, 5), (15, -5)])
def test_opposed_modifier_is_ten_minus_opponent(opponent, modifier):
    # [A←B]: the seed gives no conversion; the family's is 10 - B (docs/rules-decisions.md)
    assert opposed_modifier(opponent) == modifier


def test_opposed_target_modifies_attribute_by_opponent():
    # TIRADAS DE ACCIÓN: "su Atributo será modificado por la Defensa del objetivo"
    assert opposed_target(13, 12) == 11
    assert opposed_target(13, 12, modifier=2) == 13


def test_roll_test_uses_one_d20_and_reports_exact_probability():
    test = roll_test(13, FixedRandom(13))
    assert test.rolls == (13,) and test.success
    assert test.probability == (13, 20)
    assert test.breakdown == "1d20 (13) ≤ 13"
    assert test.expression == "1d20"


def test_failed_roll_breakdown_shows_greater_than():
    test = roll_test(13, FixedRandom(14))
    assert not test.success and test.breakdown == "1d20 (14) > 13"


def test_two_chances_worse_keeps_the_higher_die():
    # LUCHAR A CIEGAS: "tira dos veces y elige el peor" when one's own character is affected
    test = roll_test(10, FixedRandom(4, 15), chances=Chances.WORSE)
    assert test.rolls == (4, 15) and test.kept == 15 and not test.success
    assert test.probability == (1, 4)  # (10/20)^2
    assert test.expression == "2d20kh1"
    assert test.breakdown == "2d20 peor (4, 15) → 15 > 10"


def test_two_chances_better_keeps_the_lower_die():
    # LUCHAR A CIEGAS: "... o el mejor resultado" when the enemy is affected
    test = roll_test(10, FixedRandom(15, 4), chances=Chances.BETTER)
    assert test.kept == 4 and test.success
    assert test.probability == (3, 4)  # 1 - (10/20)^2


def test_plain_rule_lets_target_decide_even_on_1_and_20():
    # natural 1/20 is a campaign setting; "ninguna" is plain roll-under
    assert judge(1, 0) is Outcome.FAILURE
    assert judge(20, 22) is Outcome.SUCCESS
    assert winning_faces(0) == 0 and winning_faces(25) == 20


def test_automatic_rule_makes_1_succeed_and_20_fail():
    assert judge(1, 0, NaturalRule.AUTOMATIC) is Outcome.SUCCESS
    assert judge(20, 25, NaturalRule.AUTOMATIC) is Outcome.FAILURE
    assert success_probability(0, NaturalRule.AUTOMATIC) == (1, 20)
    assert success_probability(25, NaturalRule.AUTOMATIC) == (19, 20)


def test_critical_rule_reports_critical_and_fumble():
    assert judge(1, 10, NaturalRule.CRITICAL) is Outcome.CRITICAL
    assert judge(20, 25, NaturalRule.CRITICAL) is Outcome.FUMBLE
    assert roll_test(10, FixedRandom(1), NaturalRule.CRITICAL).success


@pytest.mark.parametrize("chances", list(Chances))
def test_probability_matches_frequency(chances):
    # the reported exact probability agrees with 20 000 seeded rolls within 1.5 points
    rng = random.Random(5)
    counts = Counter(roll_test(11, rng, chances=chances).success for _ in range(20_000))
    num, den = success_probability(11, chances=chances)
    assert abs(counts[True] / 20_000 - num / den) < 0.015


@pytest.mark.parametrize("naturals", list(NaturalRule))
@pytest.mark.parametrize("chances", list(Chances))
def test_probability_is_exact_for_every_target(naturals, chances):
    # enumerate every die (or pair of dice) and compare with the closed form
    for target in range(-3, 25):
        count = 1 if chances is Chances.ONE else 2
        faces = list(range(1, 21))
        pairs = [(a,) for a in faces] if count == 1 else [(a, b) for a in faces for b in faces]
        keep = {Chances.ONE: lambda r: r[0], Chances.WORSE: max, Chances.BETTER: min}[chances]
        wins = sum(
            judge(keep(r), target, naturals) in (Outcome.SUCCESS, Outcome.CRITICAL) for r in pairs
        )
        expected = Fraction(wins, len(pairs))
        assert success_probability(target, naturals, chances) == (
            expected.numerator,
            expected.denominator,
        )


def test_a_free_roll_reads_its_difficulty_as_a_target():
    """Issue 23 §5 (``RollUnder``): «/roll 1d20 difficulty:12» is a target the result must
    not exceed; a lone d20 reads the natural 1/20 rule as /check does."""
    from rules.rolweb.system import SYSTEM
    from rules.systems.base import capabilities

    rule = capabilities(SYSTEM).roll_under
    assert rule is not None
    assert rule.judge_under(12, 12, 12, {}) == "success"
    assert rule.judge_under(13, 13, 12, {}) == "failure"
    assert rule.judge_under(30, None, 31, {}) == "success"  # 3d10+… : the total only
    assert rule.judge_under(20, 20, 25, {"naturales": "automaticos"}) == "failure"
    assert rule.judge_under(1, 1, 0, {"naturales": "criticos"}) == "critical"
    assert rule.judge_under(20, 20, 25, {"naturales": "criticos"}) == "fumble"
