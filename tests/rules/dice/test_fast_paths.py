"""The roller's fast paths give exactly what the general roller gives, records included."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.dice import DiceError, parse, roll
from rules.dice.result import RESULT_FIELDS, RollResult, make_result
from rules.dice.roller import Roller, roll_parsed
from tests.rules.helpers import Cells

SHAPES = [
    "1d20",
    "d20 [ataque]",
    "1d20+5",
    "1d20 - 3",
    "2d6-1",
    "100d6",
    "4d6kh3",
    "4d6pl1 + 2",
    "2d20kl1",
    "1d20 + 1d4",  # not a fast shape: the general roller
    "5 + 1d20",
    "8d6!",
    "8d6!kh3",
    "3d6r1!",
    "2d6ro<3",  # rerolls only: a fast shape since issue 23
    "3d6r1 + 2",
    "1d1000r<999",  # long open rerolls (and aborts)
    "4d6ro1kh3",  # rerolls and keeping: the general roller
    "1d20mi10 + 5",  # minimum per die: the general roller
    "4d6mi2kh3",
    "6d10>=7",
    "1d20<=12",
    "1o3d10",
]


def test_fast_path_equals_the_general_roller():
    """300 seeds of every shape: the fast path's result equals the general roller's; a failure
    lists every shape that differs (with its first differing seed)."""
    cells = Cells()
    for text in SHAPES:
        expression = parse(text)
        with cells.case(repr(text)):
            for seed in range(300):
                try:
                    fast = roll_parsed(expression, random.Random(seed))
                except DiceError as error:  # an abort at the dice limit: the same one
                    with pytest.raises(DiceError) as general_error:
                        Roller(random.Random(seed)).roll(expression)
                    assert general_error.value.params == error.params, f"seed {seed}"
                    continue
                general = Roller(random.Random(seed)).roll(expression)
                assert fast == general, f"seed {seed}"
                assert fast.records == general.records, f"seed {seed}"
                assert (fast.fumble, fast.explosions, fast.success) == (
                    general.fumble,
                    general.explosions,
                    general.success,
                ), f"seed {seed}"
            assert Roller in expression.plans  # compiled once, kept with the parsed expression
    cells.assert_all_match()


def test_fast_path_draws_dice_from_the_injected_rng(scripted):
    rng = scripted([20, 6, 1, 3, 5])
    assert roll("1d20+5", rng).total == 25
    result = roll("4d6kh3", rng)
    assert (result.total, result.records) == (
        14,
        (((6, 1, 3, 5), (True, False, True, True), None),),
    )
    assert rng.finished and rng.asked == [20, 6, 6, 6, 6]


def test_make_result_sets_every_field_and_stays_frozen():
    assert tuple(f.name for f in dataclasses.fields(RollResult)) == RESULT_FIELDS
    args = (7, True, 2, False, parse("1o3d10"), (((1, 2, 3),),))
    made = make_result(*args)
    assert made == RollResult(*args)
    assert repr(made) == repr(RollResult(*args))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.total = 8  # type: ignore[misc]


def test_exploding_without_rerolls_counts_towards_the_dice_limit(scripted):
    with pytest.raises(DiceError) as refused:
        roll("1d6!", scripted([6] * 600))
    assert refused.value.code == "too_many_rolls"
