"""Exact odds against exhaustive enumeration, and the 1o3d10 closed form."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rules.dice import DiceError, distribution, probability_at_least
from rules.dice.odds import (
    _all_stop_within,
    abort_chance,
    keep_one_at_least,
    keep_one_faces,
    odds_of,
    probabilities_at_most,
)
from tests.rules.helpers import Cells


def _enumerate(count: int, sides: int, score) -> dict[int, Fraction]:
    """Every outcome of ``count`` dice, scored by ``score(faces)``: the slow, obvious way."""
    outcomes = Counter(
        score(faces) for faces in itertools.product(range(1, sides + 1), repeat=count)
    )
    total = sides**count
    return {value: Fraction(n, total) for value, n in sorted(outcomes.items())}


ENUMERATED = [
    ("2d6", 2, 6, sum),
    ("3d4+2", 3, 4, lambda f: sum(f) + 2),
    ("4d6kh3", 4, 6, lambda f: sum(sorted(f)[1:])),
    ("4d6kl2", 4, 6, lambda f: sum(sorted(f)[:2])),
    ("4d4ph1", 4, 4, lambda f: sum(sorted(f)[:3])),
    ("5d3pl2", 5, 3, lambda f: sum(sorted(f)[2:])),
    ("2d20kh1", 2, 20, max),
    ("5d10>=7", 5, 10, lambda f: sum(1 for x in f if x >= 7)),
    ("4d6<=2", 4, 6, lambda f: sum(1 for x in f if x <= 2)),
    ("4d6kh2>=4", 4, 6, lambda f: sum(1 for x in sorted(f)[2:] if x >= 4)),
    ("1d20<=12", 1, 20, sum),
    ("-2d4", 2, 4, lambda f: -sum(f)),
    ("3d6/2", 3, 6, lambda f: sum(f) // 2),
    ("2d6*3-1", 2, 6, lambda f: sum(f) * 3 - 1),
    ("1d6*1d4", 2, 6, None),  # mixed dice: checked below
]


def test_distribution_matches_enumeration():
    """The exact distribution and every "at least" probability equal a brute-force enumeration;
    a failure lists every wrong expression and target."""
    cells = Cells()
    for expression, count, sides, score in ENUMERATED:
        if score is None:
            outcomes = Counter(a * b for a in range(1, 7) for b in range(1, 5))
            expected = {v: Fraction(n, 24) for v, n in sorted(outcomes.items())}
        else:
            expected = _enumerate(count, sides, score)
        cells.check(f"distribution({expression!r})", distribution(expression), expected)
        for target in range(min(expected) - 1, max(expected) + 2):
            cells.check(
                f"probability_at_least({expression!r}, {target})",
                probability_at_least(expression, target),
                sum((p for v, p in expected.items() if v >= target), Fraction(0)),
            )
    cells.assert_all_match()


def test_reroll_once_matches_enumeration():
    # Two throws per die; the second counts only when the first matched.
    outcomes: Counter[int] = Counter()
    for first in itertools.product(range(1, 7), repeat=2):
        for second in itertools.product(range(1, 7), repeat=2):
            outcomes[sum(s if f <= 2 else f for f, s in zip(first, second, strict=True))] += 1
    expected = {v: Fraction(n, 6**4) for v, n in sorted(outcomes.items())}
    assert distribution("2d6ro<3") == expected


def test_open_reroll_matches_truncated_enumeration():
    # Enumerate throw sequences up to 8 long; the unenumerated mass is (1/3)**8 per die.
    per_die: dict[int, Fraction] = Counter()
    for length in range(1, 9):
        for _rerolled in itertools.product((1, 2), repeat=length - 1):
            for last in range(3, 7):
                per_die[last] += Fraction(1, 6**length)  # 1s and 2s, then `last` stands
    exact = distribution("1d6r<3")
    assert set(exact) == {3, 4, 5, 6}
    for face, p in exact.items():
        assert 0 <= p - per_die[face] <= Fraction(1, 3) ** 8


def test_distributions_sum_to_one():
    for text in ["100d6", "12d20kh6", "3d6ro1 + 1o3d10a", "1o3d10b*2", "10d10>=8 - 2"]:
        assert sum(distribution(text).values()) == 1


def test_minimum_and_maximum_move_the_faces_they_bound():
    assert distribution("1d6mi3") == {
        3: Fraction(1, 2),
        4: Fraction(1, 6),
        5: Fraction(1, 6),
        6: Fraction(1, 6),
    }
    assert distribution("1d6ma2") == {1: Fraction(1, 6), 2: Fraction(5, 6)}
    # 2d6, each at least 3: the enumeration of the clamped faces
    outcomes = Counter(max(a, 3) + max(b, 3) for a in range(1, 7) for b in range(1, 7))
    assert distribution("2d6mi3") == {v: Fraction(n, 36) for v, n in sorted(outcomes.items())}


def test_keep_one_faces_match_order_statistics():
    highest = keep_one_faces("a")
    assert highest == tuple(f**3 - (f - 1) ** 3 for f in range(1, 11))
    assert keep_one_faces("b") == highest[::-1]
    middle = keep_one_faces("m")
    # middle = f: one die below, one equal, one above (x6) or two or three equal.
    expected = tuple(6 * (f - 1) * (10 - f) + 3 * (f - 1) + 3 * (10 - f) + 1 for f in range(1, 11))
    assert middle == expected
    assert sum(middle) == 1000


@pytest.mark.parametrize("position", ["b", "m", "a"])
def test_keep_one_closed_form_equals_the_distribution(position):
    notation = "1o3d10" + ("" if position == "m" else position)
    exact = distribution(notation)
    assert min(exact) == 1 and max(exact) == 210
    assert all(v % 10 != 0 for v in exact if v < 210)
    for x in list(range(-2, 45)) + [199, 200, 201, 209, 210, 211, 300]:
        tail = sum((p for v, p in exact.items() if v >= x), Fraction(0))
        assert keep_one_at_least(position, x) == tail


def test_keep_one_closed_form_by_hand():
    p = Fraction(28, 1000)  # middle: P(kept 10)
    s7 = Fraction(28 + 76 + 112, 1000)  # middle: P(kept >= 8)
    assert keep_one_at_least("m", 8) == s7
    assert keep_one_at_least("m", 10) == p
    assert keep_one_at_least("m", 11) == p  # a 10 always throws again and adds >= 1
    assert keep_one_at_least("m", 18) == p * s7
    assert probability_at_least("1o3d10 + 7", 15) == s7
    assert probability_at_least("7 + 1o3d10", 15) == s7
    assert probability_at_least("(1o3d10 - 2) + 9", 15) == s7
    assert probability_at_least("-3 + 1o3d10b + 10", 15) == keep_one_at_least("b", 8)


def test_keep_one_with_other_dice_uses_the_full_distribution():
    expected = sum(
        (Fraction(1, 6) * keep_one_at_least("m", 10 - d) for d in range(1, 7)), Fraction(0)
    )
    assert probability_at_least("1o3d10 + 1d6", 10) == expected


@pytest.mark.parametrize(
    ("expression", "code"), [("8d6!", "unsupported_odds"), ("1d6!>5+2", "unsupported_odds")]
)
def test_exploding_dice_have_no_exact_odds(expression, code):
    with pytest.raises(DiceError) as caught:
        distribution(expression)
    assert caught.value.code == code
    with pytest.raises(DiceError):
        probability_at_least(expression, 10)


def test_huge_queries_are_refused():
    with pytest.raises(DiceError) as caught:
        distribution("100d1000+100d1000")
    assert caught.value.code == "odds_too_complex"


COSTLY = [
    "1o3d10+1o3d10",
    "1o3d10+1o3d10+1o3d10+1o3d10",
    "12d20kh6",
    "4d6kh3+4d6kh3+1d20",
    "50d20ro1",
    "1d1000*1d1000",
    "(1o3d10)*(1o3d10)",
    "50d10>=7+50d10>=7",
    "3d6r<2-1d4",
    "100d6/3",
]


def test_the_estimate_bounds_the_work_the_calculator_really_does(monkeypatch):
    """For every costly shape the estimate is at least the work really done; a failure lists
    every expression it underestimates."""
    from rules.dice import odds, parse

    monkeypatch.setattr(odds, "MAX_WORK", 10**12)
    cells = Cells()
    for expression in COSTLY:
        calculator = odds._Calculator()
        calculator.dist(parse(expression).root)
        estimate = odds.estimate_cost(expression)
        if calculator.work > estimate:
            cells.fail(repr(expression), f"work {calculator.work} > estimate {estimate}")
    cells.assert_all_match()


@pytest.mark.parametrize(
    "expression",
    [
        "+".join(["1o3d10"] * 7),  # issue 9: 1.2 s inside the event loop
        "+".join(["1o3d10"] * 5),
        "100d1000",
        "100d6kh50",
        "3d1000*3d1000",
        "1o3d10*1o3d10*1o3d10",
    ],
)
def test_costly_queries_are_refused_before_any_work(expression, monkeypatch):
    from rules.dice import odds

    def no_work(*_args):
        raise AssertionError("the calculation started")

    monkeypatch.setattr(odds._Calculator, "dist", no_work)
    assert odds.estimate_cost(expression) > odds.MAX_COST
    with pytest.raises(DiceError) as caught:
        odds.check_cost(expression)
    assert caught.value.code == "odds_too_complex"
    with pytest.raises(DiceError) as caught:
        odds.probabilities_at_least(expression, (10,))
    assert caught.value.code == "odds_too_complex"


def test_the_closed_form_costs_nothing_and_several_targets_share_one_distribution():
    from rules.dice import odds

    assert odds.estimate_cost("1o3d10+7") == 1
    assert odds.estimate_cost("+".join(["1o3d10"] * 4)) <= odds.MAX_COST
    assert odds.probabilities_at_least("2d6", (7, 12)) == (Fraction(21, 36), Fraction(1, 36))
    assert odds.probabilities_at_least("1o3d10+5", (15,)) == (probability_at_least("1o3d10", 10),)


def test_exploding_dice_are_refused_by_the_estimate_too():
    from rules.dice import odds

    with pytest.raises(DiceError) as caught:
        odds.estimate_cost("1d6+2d6!")
    assert caught.value.code == "unsupported_odds"


def test_a_test_expression_has_a_chance_of_success_not_a_total():
    from rules.dice.odds import probabilities_at_most, probability_of_success, test_of

    assert test_of("1d20<=13") is not None
    assert test_of("1d20") is None and test_of("3d6>=5") is None  # a pool counts successes
    assert probability_of_success("1d20<=13") == Fraction(13, 20)
    assert probability_of_success("1d100>=96") == Fraction(5, 100)
    # rerolls change the die's own odds: 1d6ro1 then <=2 is 1/6*2/6 + 1/6 (the first throw 2)
    assert probability_of_success("1d6ro1<=2") == Fraction(1, 6) * Fraction(2, 6) + Fraction(1, 6)
    assert probabilities_at_most("2d6", (2, 7, 12)) == (Fraction(1, 36), Fraction(21, 36), 1)
    with pytest.raises(ValueError):
        probability_of_success("2d6")


def test_abort_chance_of_one_open_reroll():
    # Issue 23: "1d1000r<1000" stands only on a 1000; the roller aborts once it would throw
    # a 501st die, i.e. when the first 500 throws all come up below 1000.
    assert abort_chance("1d1000r<1000") == Fraction(999, 1000) ** 500
    assert distribution("1d1000r<1000") == {1000: 1 - Fraction(999, 1000) ** 500}
    assert probability_at_least("1d1000r<1000", 1000) == 1 - Fraction(999, 1000) ** 500
    # two dice stopping on 2 of 6 faces, with 3 plain dice beside them: 497 throws to share
    two = Fraction(4, 6)
    within = sum(
        (two ** (a - 1) * (1 - two)) * (two ** (b - 1) * (1 - two))
        for a in range(1, 497)
        for b in range(1, 498 - a)
    )
    assert abort_chance("2d6r<5 + 3d8") == 1 - within


def test_abort_chance_of_open_rerolls_against_a_walk_of_every_throw():
    """The recurrence of ``_all_stop_within`` against summing every combination of throws,
    with a small budget where each die's geometric tail matters."""
    cases = [
        ({Fraction(1, 6): 1}, 5),
        ({Fraction(1, 2): 2}, 6),
        ({Fraction(1, 3): 1, Fraction(1, 2): 2}, 7),
        ({Fraction(2, 5): 1, Fraction(1, 4): 1, Fraction(3, 7): 1}, 8),
        ({Fraction(1, 2): 3}, 3),
        ({Fraction(1, 2): 3}, 2),
    ]
    cells = Cells()
    for groups, budget in cases:
        chances = [p for p, n in groups.items() for _ in range(n)]
        walked = Fraction(0)
        for throws in itertools.product(range(1, budget + 1), repeat=len(chances)):
            if sum(throws) <= budget:
                chance = Fraction(1)
                for p, t in zip(chances, throws, strict=True):
                    chance *= p ** (t - 1) * (1 - p)
                walked += chance
        cells.check(
            f"_all_stop_within({groups}, {budget})", _all_stop_within(groups, budget), walked
        )
    cells.assert_all_match()


def test_no_open_reroll_no_abort():
    for text in ["100d6", "3d6ro1 + 1o3d10a", "4d6kh3", "1d20<=12"]:
        assert abort_chance(text) == 0


def test_every_total_and_the_abort_add_up_to_one():
    for text in ["1d1000r<999", "3d6r1", "4d6r<3kh3", "1d20r1<=12"]:
        assert sum(distribution(text).values()) + abort_chance(text) == 1


def test_at_most_counts_only_rolls_that_end():
    aborted = Fraction(999, 1000) ** 500
    assert probabilities_at_most("1d1000r<1000", (1000,)) == (1 - aborted,)
    assert odds_of("1d1000r<1000", (1000,)) == ((1 - aborted,), aborted)


def test_an_open_reroll_beside_throws_that_depend_on_faces_is_refused():
    for text in ["1d6r1 + 1o3d10", "1d6r1 + 2d6ro1"]:
        with pytest.raises(DiceError) as caught:
            abort_chance(text)
        assert caught.value.code == "unsupported_odds_abort"
