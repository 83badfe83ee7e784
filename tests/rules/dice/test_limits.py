"""Static bounds: the dice a roll may throw and the values it may take."""

from __future__ import annotations

import math

import pytest

from rules.dice import parse
from rules.dice.limits import bounds, dice_bounds
from tests.rules.helpers import Cells

BOUNDS = [
    ("3", (0, 0), (3, 3)),
    ("2d6+3", (2, 2), (5, 15)),
    ("4d6kh3", (4, 4), (3, 18)),
    ("4d6ph1", (4, 4), (3, 18)),
    ("3d6ro1", (3, 6), (3, 18)),
    ("3d6r<3", (3, None), (9, 18)),
    ("3d6!", (3, None), (3, math.inf)),
    ("5d10>=7", (5, 5), (0, 5)),
    ("1d20<=12", (1, 1), (1, 20)),
    ("1o3d10", (3, 63), (1, 210)),
    ("-1d6", (1, 1), (-6, -1)),
    ("1d6-1d4", (2, 2), (-3, 5)),
    ("(1d6-3)*(1d4-2)", (2, 2), (-4, 6)),
    ("1d20/(1d4+1)", (2, 2), (0, 10)),
    ("-1d6!/2", (1, None), (-math.inf, -1)),
    ("1d6!*0", (1, None), (0, 0)),
]


def test_bounds():
    """The fewest and most dice, and the lowest and highest total, of every shape; a failure
    lists every wrong expression."""
    cells = Cells()
    for expression, dice, values in BOUNDS:
        root = parse(expression).root
        cells.check(f"dice_bounds({expression!r})", dice_bounds(root), dice)
        cells.check(f"bounds({expression!r})", bounds(root), values)
    cells.assert_all_match()


def test_expression_records_its_dice_bounds():
    expression = parse("1o3d10 + 2d6!")
    assert (expression.min_dice, expression.max_dice) == (5, None)


@pytest.mark.parametrize(
    ("expression", "refused"),
    [
        ("999*999*999*2", False),
        ("999*999*999*3", True),
        ("-999*999*999*3", True),
        ("999999*999999", True),
        ("1d6!*10000", False),  # at most 500 dice of 6: 30,000,000
        ("1d6!*999999", True),
        ("1d20/(1d4+1)*999999", False),
    ],
)
def test_totals_beyond_the_stored_integer_are_refused_before_rolling(expression, refused):
    from rules.dice import DiceError
    from rules.dice.limits import MAX_TOTAL

    assert MAX_TOTAL == 2**31 - 1  # the PostgreSQL ``integer`` the audit log stores totals in
    if refused:
        with pytest.raises(DiceError) as error:
            parse(expression)
        assert error.value.code == "total_too_large"
    else:
        parse(expression)


def test_capped_bounds_are_finite_for_exploding_dice():
    assert bounds(parse("3d6!").root, 500) == (3, 3000)
    assert bounds(parse("5d10!10>=7").root, 500) == (0, 500)
