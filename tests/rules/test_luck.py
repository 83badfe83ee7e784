"""Dice luck (rules/dice/luck.py): each roll placed in its own expression's distribution."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.dice import distribution
from rules.dice.luck import (
    MAX_EXPRESSIONS,
    LuckRoll,
    affordable,
    luck_by_character,
    percentile,
)


def test_the_mid_rank_of_a_fair_die_averages_one_half():
    odds = distribution("1d20")
    places = [percentile(odds, face) for face in range(1, 21)]
    assert places[0] == pytest.approx(1 / 40) and places[-1] == pytest.approx(39 / 40)
    assert sum(p for p in places if p is not None) / 20 == pytest.approx(0.5)


def test_a_total_the_expression_cannot_give_is_not_placed():
    assert percentile(distribution("1d6"), 7) is None
    assert percentile({3: Fraction(1)}, 3) == 0.5  # one possible result: neither lucky nor not


def test_every_result_weighted_by_its_chance_averages_one_half_whatever_the_dice():
    """Fairness across systems: an average roller is at 50 % with 1o3d10, 3d6 or a d20 rolled
    under (every total weighted by its own probability)."""
    for expression, under in (("1o3d10+5", False), ("3d6", False), ("1d20", True)):
        odds = distribution(expression)
        expected = sum(
            float(p) * (1 - place if under else place)
            for total, p in odds.items()
            if (place := percentile(odds, total)) is not None
        )
        assert expected == pytest.approx(0.5), expression


def test_roll_under_counts_a_low_total_as_lucky():
    rolls = [LuckRoll("Brisa", "1d20", 1, under=True), LuckRoll("Kael", "1d20", 1)]
    luck = {item.character: item for item in luck_by_character(rolls, ["1d20"])}
    assert luck["Brisa"].mean == pytest.approx(39 / 40)
    assert luck["Kael"].mean == pytest.approx(1 / 40)


def test_the_middle_die_of_1o3d10_is_placed_in_its_own_distribution():
    odds = distribution("1o3d10")
    (kael,) = luck_by_character([LuckRoll("Kael", "1o3d10", 9)], ["1o3d10"])
    below = sum(p for total, p in odds.items() if total < 9)
    assert kael.mean == pytest.approx(float(below + odds[9] / 2))
    assert 0.5 < kael.mean < 0.99
    # a 10 is never a total: it is thrown again and added (seed 002), so it is not placed
    assert luck_by_character([LuckRoll("Kael", "1o3d10", 10)], ["1o3d10"]) == ()


def test_only_affordable_expressions_are_computed():
    kept = affordable(["1d20", "2d6!", "not dice", "1d20", "1o3d10+5"])
    assert kept == ("1d20", "1o3d10+5")  # exploding and unreadable ones left out, once each
    many = affordable(f"1d20+{n}" for n in range(MAX_EXPRESSIONS + 50))
    assert len(many) == MAX_EXPRESSIONS
    rolls = [LuckRoll("Kael", "2d6!", 12), LuckRoll("Kael", "1d20", 11)]
    (kael,) = luck_by_character(rolls, kept)
    assert kael.rolls == 1
